"""MaskablePPO (sb3-contrib) on a rummykit variant, against rummykit's bots.

Optional dependencies (not part of rummykit's default install; the CPU build of torch):

    pip install 'rummykit[rl]' torch==2.13.0 'stable-baselines3>=2.3,<3' 'sb3-contrib>=2.3,<3'

    python examples/sb3_maskable_ppo.py                          # remi_ro, 2 seats, 20,000 steps
    python examples/sb3_maskable_ppo.py --variant romme --steps 50000 --save romme.zip
    python examples/sb3_maskable_ppo.py --actions flat           # the flat codec instead

The standard recipe: :class:`rummykit.rl.RummyGymEnv` with ``mask_in_observation=False``
(the network is not fed the mask; MaskablePPO reads it from ``env.action_masks()``),
``reward="relative"`` (zero-sum) and ``reward_scale=0.01`` (about ±10 per deal).

Two action interfaces (``--actions``):

* ``slots`` (default): ``action_space="features"``, a fixed number K of candidate slots
  (``Discrete(K)``, K = ``--slots``, 32): slot i is the i-th legal action, described by
  its feature row in ``observation["action_features"]`` (``rummykit.rl.features``), and
  ``action_masks()`` marks the slots in use.  The policy (:class:`SlotPolicy`) embeds the
  observation and every row with shared weights and scores each slot, so its size does
  not grow with the meld catalogue (romme: 141,050 flat numbers, 304 features a row);
* ``flat``: the variant's flat codec (remi_ro: 20,982 numbers), one output unit per
  number (``MlpPolicy``): simple, but slow and hard to learn for large catalogues.

Prints the mean deal reward of the trained policy and of a uniformly random masked
policy on the same evaluation deals (same seeds, same bots).
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import DummyVecEnv
from torch import nn

from rummykit.rl import RummyGymEnv


def make_env(
    variant: str, players: int, opponents: str = "random", actions: str = "slots", slots: int = 32
) -> RummyGymEnv:
    """The environment of the recipe (see the module docstring)."""
    return RummyGymEnv(
        variant,
        players,
        opponents=opponents,
        mask_in_observation=False,
        action_space="features" if actions == "slots" else "flat",
        max_legal_actions=slots,
        reward="relative",
        reward_scale=0.01,
        max_steps_per_deal=2000,
    )


class SlotScorer(BaseFeaturesExtractor):  # type: ignore[misc]
    """Embeds the observation and each slot's feature row; outputs the slots' scores
    followed by the observation's embedding (for the value head).

    A slot's score is ``v . tanh(A state + B row + c)``: a layer over the concatenation
    of the two embeddings, with the observation's part computed once per state rather
    than once per slot."""

    def __init__(self, observation_space: gymnasium.spaces.Dict, hidden: int = 64) -> None:
        slots, width = observation_space["action_features"].shape
        size = observation_space["observation"].shape[0]
        super().__init__(observation_space, features_dim=slots + hidden)
        self.slots = slots
        self.state = nn.Sequential(nn.Linear(size, hidden), nn.Tanh())
        self.row = nn.Sequential(nn.Linear(width, hidden), nn.Tanh())
        self.joint_state = nn.Linear(hidden, hidden)
        self.joint_row = nn.Linear(hidden, hidden, bias=False)
        self.score = nn.Linear(hidden, 1)

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        state = self.state(observations["observation"])
        rows = self.joint_row(self.row(observations["action_features"]))
        joined = torch.tanh(rows + self.joint_state(state).unsqueeze(1))
        return torch.cat([self.score(joined).squeeze(-1), state], dim=-1)


class _Columns(nn.Module):
    """Columns ``start:stop`` of its input (no weights)."""

    def __init__(self, start: int, stop: int) -> None:
        super().__init__()
        self.start, self.stop = start, stop

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x[..., self.start : self.stop]


class SlotPolicy(MaskableMultiInputActorCriticPolicy):  # type: ignore[misc]
    """MaskablePPO's policy for the slots: the logits are :class:`SlotScorer`'s scores
    (weights shared by every slot), the value a linear head on the observation's
    embedding."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("features_extractor_class", SlotScorer)
        kwargs.setdefault("net_arch", [])
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        slots = self.features_extractor.slots
        self.action_net = _Columns(0, slots)
        self.value_net = nn.Sequential(
            _Columns(slots, self.features_dim), nn.Linear(self.features_dim - slots, 1)
        )
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )


def train(
    variant: str = "remi_ro",
    players: int = 2,
    steps: int = 20_000,
    seed: int = 0,
    n_steps: int = 128,
    batch_size: int = 256,
    actions: str = "slots",
    slots: int = 32,
    n_epochs: int = 4,
    n_envs: int = 8,
) -> MaskablePPO:
    """Train MaskablePPO for ``steps`` learner steps (summed over ``n_envs`` environments
    stepped in lockstep in this process: one policy call serves them all)."""
    torch.set_num_threads(1)  # a small network: more threads only contend
    env = DummyVecEnv([partial(make_env, variant, players, actions=actions, slots=slots)] * n_envs)
    model = MaskablePPO(
        SlotPolicy if actions == "slots" else "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=batch_size,
        n_epochs=n_epochs,
        learning_rate=3e-4,
        gamma=1.0,  # one deal per episode, scored at its end
        seed=seed,
        device="cpu",
        verbose=0,
    )
    model.learn(total_timesteps=steps)
    return model


Policy = Callable[[Any, np.ndarray], int]


def evaluate(env: RummyGymEnv, policy: Policy, seeds: Sequence[int]) -> float:
    """The mean episode reward of ``policy(observation, mask)`` over deals ``seeds``."""
    if not seeds:
        return float("nan")
    total = 0.0
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(policy(obs, env.action_masks()))
            total += float(reward)
            done = terminated or truncated
    return total / len(seeds)


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="remi_ro")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--n-steps", type=int, default=128, help="rollout length per environment and update"
    )
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--envs", type=int, default=8, help="environments in lockstep")
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per rollout")
    parser.add_argument("--actions", choices=["slots", "flat"], default="slots")
    parser.add_argument("--slots", type=int, default=32, help="K, with --actions slots")
    parser.add_argument("--eval-deals", type=int, default=100)
    parser.add_argument("--save", default=None, help="path of the trained model (.zip)")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    model = train(
        args.variant,
        args.players,
        args.steps,
        args.seed,
        args.n_steps,
        args.batch_size,
        args.actions,
        args.slots,
        args.epochs,
        args.envs,
    )
    seconds = time.perf_counter() - start
    if args.save:
        model.save(args.save)

    env = make_env(args.variant, args.players, actions=args.actions, slots=args.slots)
    rng = np.random.default_rng(args.seed)
    seeds = [10_000 + i for i in range(args.eval_deals)]

    def trained(obs: Any, mask: np.ndarray) -> int:
        # Sampled, not deterministic: an argmax policy can loop on take/reset.
        return int(model.predict(obs, action_masks=mask, deterministic=False)[0])

    def uniform(_obs: Any, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    result = {
        "steps_per_second": args.steps / seconds,
        "trained": evaluate(env, trained, seeds),
        "random": evaluate(env, uniform, seeds),
    }
    print(
        f"{args.variant} ({args.players} seats): {args.steps} steps in {seconds:.0f} s "
        f"({result['steps_per_second']:.0f}/s); mean reward over {len(seeds)} deals "
        f"(x0.01, relative): trained {result['trained']:+.3f}, random {result['random']:+.3f}"
    )
    return result


if __name__ == "__main__":
    main()
