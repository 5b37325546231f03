"""MaskablePPO (sb3-contrib) on a rummykit variant, against rummykit's bots.

Optional dependencies (not part of rummykit's default install; the CPU build of torch):

    pip install 'rummykit[rl]' torch==2.13.0 'stable-baselines3>=2.3,<3' 'sb3-contrib>=2.3,<3'

    python examples/sb3_maskable_ppo.py                          # remi_ro, 2 seats, 20,000 steps
    python examples/sb3_maskable_ppo.py --variant basic --steps 50000 --save basic.zip

The standard recipe: :class:`rummykit.rl.RummyGymEnv` with ``mask_in_observation=False``
(the network sees the observation vector; MaskablePPO reads the mask from
``env.action_masks()``), ``reward="relative"`` (zero-sum) and ``reward_scale=0.01`` (about
±10 per deal).  The action space is the variant's flat codec (remi_ro: 20,982 numbers), so
the policy's output layer has one unit per number; for variants with a large catalogue
(romme: 141,050) prefer the feature interface (``examples/cleanrl_ppo.py``).

Prints the mean deal reward of the trained policy and of a uniformly random masked
policy on the same evaluation deals (same seeds, same bots).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from rummykit.rl import RummyGymEnv


def make_env(variant: str, players: int, opponents: str = "random") -> RummyGymEnv:
    """The environment of the recipe (see the module docstring)."""
    return RummyGymEnv(
        variant,
        players,
        opponents=opponents,
        mask_in_observation=False,
        reward="relative",
        reward_scale=0.01,
        max_steps_per_deal=2000,
    )


def train(
    variant: str = "remi_ro",
    players: int = 2,
    steps: int = 20_000,
    seed: int = 0,
    n_steps: int = 512,
    batch_size: int = 128,
) -> MaskablePPO:
    """Train MaskablePPO for ``steps`` learner steps on one CPU environment."""
    torch.set_num_threads(1)  # a small network: more threads only contend
    env = make_env(variant, players)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=batch_size,
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
    parser.add_argument("--n-steps", type=int, default=512, help="rollout length per update")
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--eval-deals", type=int, default=100)
    parser.add_argument("--save", default=None, help="path of the trained model (.zip)")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    model = train(args.variant, args.players, args.steps, args.seed, args.n_steps, args.batch_size)
    seconds = time.perf_counter() - start
    if args.save:
        model.save(args.save)

    env = make_env(args.variant, args.players)
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
