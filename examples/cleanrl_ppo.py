"""CleanRL-style PPO (one file, PyTorch) that scores legal actions from their features.

Optional dependencies (not part of rummykit's default install; the CPU build of torch):

    pip install 'rummykit[rl]' torch==2.13.0

    python examples/cleanrl_ppo.py                                  # remi_ro, 2 seats
    python examples/cleanrl_ppo.py --variant romme --total-timesteps 100000

The environment is :class:`rummykit.rl.RummyGymEnv` with ``action_space="features"``:
each step lists the legal actions as rows of fixed-width feature vectors (what a move
lays, takes, gives away and keeps, its points; ``rummykit.rl.features``), and the action
is a row index.  The network embeds the observation and each row, scores every row from
both, and samples from a softmax over the legal rows; its size does not depend on the
variant's meld catalogue (romme's flat codec has 141,050 numbers, its rows 304 features).

The algorithm follows CleanRL's ``ppo.py`` (Huang et al., 2022): several environments
stepped in lockstep, GAE, a clipped surrogate objective, value and entropy terms, minibatch
epochs.  Rewards are ``reward="relative"`` (zero-sum) scaled by 0.01.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from rummykit.rl import RummyGymEnv


@dataclass
class Args:
    variant: str = "remi_ro"
    players: int = 2
    opponents: str = "random"
    seed: int = 1
    total_timesteps: int = 50_000
    num_envs: int = 4
    num_steps: int = 128
    learning_rate: float = 2.5e-4
    gamma: float = 1.0
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    max_legal_actions: int = 64
    hidden: int = 128
    eval_deals: int = 50
    threads: int = 1
    max_steps_per_deal: int = 2000
    public_memory: bool = True
    """False: observations without the public memory, as a bot sees them (the
    tournament adapter rummykit.rl.policy_bot.PolicyBot)."""
    minutes: float = 0.0
    """Stop training after this much wall time (0: run every update)."""


def make_env(args: Args) -> RummyGymEnv:
    return RummyGymEnv(
        args.variant,
        args.players,
        opponents=args.opponents,
        action_space="features",
        max_legal_actions=args.max_legal_actions,
        reward="relative",
        reward_scale=0.01,
        max_steps_per_deal=args.max_steps_per_deal,
        public_memory=args.public_memory,
    )


class Agent(nn.Module):
    """Scores each legal row from the observation's and the row's embeddings."""

    def __init__(self, observation_size: int, feature_size: int, hidden: int) -> None:
        super().__init__()
        self.state = nn.Sequential(
            nn.Linear(observation_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.row = nn.Sequential(nn.Linear(feature_size, hidden), nn.Tanh())
        self.score = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.critic = nn.Linear(hidden, 1)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(self.state(obs)).squeeze(-1)

    def act(
        self,
        obs: torch.Tensor,
        rows: torch.Tensor,
        mask: torch.Tensor,
        action: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        state = self.state(obs)
        row = self.row(rows)
        joined = torch.cat([state.unsqueeze(1).expand(-1, row.shape[1], -1), row], dim=-1)
        logits = self.score(joined).squeeze(-1).masked_fill(~mask, -1e9)
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(state).squeeze(-1)


def _tensors(observations: Sequence[dict[str, np.ndarray]]) -> tuple[torch.Tensor, ...]:
    return (
        torch.as_tensor(np.stack([o["observation"] for o in observations])),
        torch.as_tensor(np.stack([o["action_features"] for o in observations])),
        torch.as_tensor(np.stack([o["action_mask"] for o in observations]).astype(bool)),
    )


def train(
    args: Args, on_episode: Callable[[int, float], None] | None = None
) -> tuple[Agent, dict[str, float]]:
    """Run PPO; returns the agent and a few figures.  ``on_episode(steps, return)`` is
    called at the end of every training episode (a learning curve)."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)  # small networks: more threads only contend
    np.random.seed(args.seed)
    envs = [make_env(args) for _ in range(args.num_envs)]
    first = envs[0]
    features = first.features
    assert features is not None
    obs_size = first.observation_space["observation"].shape[0]  # type: ignore[index]
    rows, width = args.max_legal_actions, features.size
    agent = Agent(obs_size, width, args.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    n, e = args.num_steps, args.num_envs
    b_obs = torch.zeros((n, e, obs_size))
    b_rows = torch.zeros((n, e, rows, width))
    b_mask = torch.zeros((n, e, rows), dtype=torch.bool)
    b_actions = torch.zeros((n, e), dtype=torch.long)
    b_logprobs = torch.zeros((n, e))
    b_rewards = torch.zeros((n, e))
    b_dones = torch.zeros((n, e))
    b_values = torch.zeros((n, e))

    current = [env.reset(seed=args.seed + i)[0] for i, env in enumerate(envs)]
    next_done = torch.zeros(e)
    episode_returns: list[float] = []
    running = [0.0] * e
    batch = n * e
    updates = max(1, args.total_timesteps // batch)
    start = time.perf_counter()
    done_updates = 0
    for update in range(updates):
        if args.minutes and time.perf_counter() - start > 60 * args.minutes:
            break
        done_updates += 1
        optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - update / updates)
        for step in range(n):
            obs, feats, mask = _tensors(current)
            b_obs[step], b_rows[step], b_mask[step], b_dones[step] = obs, feats, mask, next_done
            with torch.no_grad():
                action, logprob, _, value = agent.act(obs, feats, mask)
            b_actions[step], b_logprobs[step], b_values[step] = action, logprob, value
            dones = []
            for i, env in enumerate(envs):
                o, reward, terminated, truncated, _ = env.step(int(action[i]))
                b_rewards[step, i] = float(reward)
                running[i] += float(reward)
                if terminated or truncated:
                    episode_returns.append(running[i])
                    if on_episode is not None:
                        on_episode((update * n + step + 1) * e, running[i])
                    running[i] = 0.0
                    o, _ = env.reset()
                current[i] = o
                dones.append(float(terminated or truncated))
            next_done = torch.tensor(dones)

        with torch.no_grad():  # GAE
            next_value = agent.value(_tensors(current)[0])
            advantages = torch.zeros_like(b_rewards)
            last = torch.zeros(e)
            for t in reversed(range(n)):
                not_done = 1.0 - (next_done if t == n - 1 else b_dones[t + 1])
                following = next_value if t == n - 1 else b_values[t + 1]
                delta = b_rewards[t] + args.gamma * following * not_done - b_values[t]
                last = delta + args.gamma * args.gae_lambda * not_done * last
                advantages[t] = last
            returns = advantages + b_values

        flat = {
            "obs": b_obs.reshape(batch, obs_size),
            "rows": b_rows.reshape(batch, rows, width),
            "mask": b_mask.reshape(batch, rows),
            "actions": b_actions.reshape(batch),
            "logprobs": b_logprobs.reshape(batch),
            "advantages": advantages.reshape(batch),
            "returns": returns.reshape(batch),
        }
        minibatch = max(1, batch // args.num_minibatches)
        for _epoch in range(args.update_epochs):
            order = torch.randperm(batch)
            for begin in range(0, batch, minibatch):
                idx = order[begin : begin + minibatch]
                _, logprob, entropy, value = agent.act(
                    flat["obs"][idx], flat["rows"][idx], flat["mask"][idx], flat["actions"][idx]
                )
                ratio = (logprob - flat["logprobs"][idx]).exp()
                adv = flat["advantages"][idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(idx) > 1 else adv
                policy_loss = torch.max(
                    -adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                ).mean()
                value_loss = 0.5 * ((value - flat["returns"][idx]) ** 2).mean()
                loss = policy_loss - args.ent_coef * entropy.mean() + args.vf_coef * value_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
    seconds = time.perf_counter() - start
    figures = {
        "steps": float(done_updates * batch),
        "steps_per_second": done_updates * batch / seconds,
        "seconds": seconds,
        "episodes": float(len(episode_returns)),
        "mean_episode_return": float(np.mean(episode_returns)) if episode_returns else 0.0,
    }
    return agent, figures


def evaluate(args: Args, agent: Agent | None, seeds: Sequence[int]) -> float:
    """Mean episode reward of the agent (sampling its policy: a greedy argmax can loop on
    take/reset until truncation), or of a uniform random policy (None)."""
    if not seeds:
        return float("nan")
    env = make_env(args)
    rng = np.random.default_rng(args.seed)
    total = 0.0
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            if agent is None:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            else:
                o, feats, mask = _tensors([obs])
                with torch.no_grad():
                    action = int(agent.act(o, feats, mask)[0])
            obs, reward, terminated, truncated, _ = env.step(action)
            total += float(reward)
            done = terminated or truncated
    return total / len(seeds)


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for field in fields(Args):
        flag = "--" + field.name.replace("_", "-")
        if isinstance(field.default, bool):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=field.default)
        else:
            parser.add_argument(flag, type=type(field.default), default=field.default)
    args = Args(**vars(parser.parse_args(argv)))
    agent, figures = train(args)
    seeds = [10_000 + i for i in range(args.eval_deals)]
    figures["trained"] = evaluate(args, agent, seeds)
    figures["random"] = evaluate(args, None, seeds)
    print(
        f"{args.variant} ({args.players} seats): {figures['steps']:.0f} steps "
        f"({figures['steps_per_second']:.0f}/s), {figures['episodes']:.0f} episodes; mean reward "
        f"over {len(seeds)} deals (x0.01, relative): trained {figures['trained']:+.3f}, "
        f"random {figures['random']:+.3f}"
    )
    return figures


if __name__ == "__main__":
    main()
