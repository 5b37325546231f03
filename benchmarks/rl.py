"""rummykit RL benchmarks: environment steps per second, beside the raw engine.

    python benchmarks/rl.py            # every variant, about a minute each
    python benchmarks/rl.py --quick    # a few seconds, for smoke tests

For each variant (at its default player count) it measures, on one core:

* PettingZoo AEC steps/s: ``rummykit.rl.env`` (wrapped as users get it) driven by
  a masked random policy through ``agent_iter`` / ``last`` / ``step``, so every step
  builds the acting seat's observation and action mask;
* Gymnasium steps/s: ``RummyGymEnv`` with a masked random learner against
  ``random`` bots (a learner step includes the bots' turns up to the next one);
* engine actions/s: benchmarks/run.py's ``random_playouts``, the same loop the
  engine benchmark reports, for comparison.

All three play single deals under run.py's ``one_deal`` options (one deal; card
games stop recycling the stock after 3 turn-overs, so a random deal ends).

Times are CPU time of this process (time.process_time); each speed is the best
of three runs over different seeds, after a warm-up on other seeds.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from rummykit import rl
from rummykit.rules import all_variants
from run import one_deal, random_playouts  # benchmarks/run.py: the engine's own loop

TARGET = {"remi_ro": ">= 5,000"}
"""AEC steps/s targets by variant (issue: gin rummy in PettingZoo makes ~4,600 here)."""


def aec_steps(variant: str, players: int, deals: int, first_seed: int = 0) -> float:
    """PettingZoo AEC environment steps per second under a masked random policy."""
    env = rl.env(variant, players, **one_deal(variant))
    rng = random.Random(first_seed)
    steps = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + deals):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            # A bool view of the int8 mask makes flatnonzero ~10x faster; the policy's
            # own cost is kept small (Python's random) so the table measures the env.
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (time.process_time() - start)


def gym_steps(variant: str, players: int, deals: int, first_seed: int = 0) -> float:
    """Gymnasium learner steps per second (masked random learner, random bots)."""
    options: dict[str, Any] = one_deal(variant)  # variant options, passed through
    env = rl.RummyGymEnv(variant, players, opponents="random", **options)
    rng = random.Random(first_seed)
    steps = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + deals):
        obs, _info = env.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            obs, _reward, terminated, truncated, _info = env.step(
                int(legal[rng.randrange(len(legal))])
            )
            done = terminated or truncated
            steps += 1
    return steps / (time.process_time() - start)


def _engine_playouts(variant: str, players: int, deals: int, first_seed: int) -> float:
    return random_playouts(variant, deals, players, first_seed=first_seed)


def _best_of_three(measure: Callable[[int], float]) -> float:
    return max(measure(1000 * i) for i in range(3))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for smoke tests")
    parser.add_argument("--variant", action="append", help="only these variants (repeatable)")
    args = parser.parse_args()
    deals = 2 if args.quick else 30
    names = args.variant or [v.name for v in all_variants()]
    print(
        f"rummykit RL benchmarks; Python {platform.python_version()}, "
        f"{platform.machine()}, {platform.processor() or 'cpu'}; one core"
    )
    rows = []
    for name in names:
        players = next(v for v in all_variants() if v.name == name).default_players
        print(f"  measuring {name} ({players} players) ...", flush=True)
        # Warm the caches (action table, meld enumerations) on other seeds first.
        aec_steps(name, players, max(1, deals // 5), first_seed=1_000_000)
        random_playouts(name, max(1, deals // 5), players, first_seed=1_000_000)
        aec = _best_of_three(partial(aec_steps, name, players, deals))
        gym = _best_of_three(partial(gym_steps, name, players, deals))
        # random_playouts takes (variant, deals, players, first_seed).
        raw = _best_of_three(partial(_engine_playouts, name, players, deals))
        rows.append((name, players, aec, gym, raw, TARGET.get(name, "")))
    print()
    print(
        f"| {'variant':<10} | {'players':>7} | {'AEC env steps/s':>15} | {'Gym steps/s':>11} "
        f"| {'engine actions/s':>16} | {'env/engine':>10} | {'target (AEC)':<12} |"
    )
    print(f"|{'-' * 12}|{'-' * 9}|{'-' * 17}|{'-' * 13}|{'-' * 18}|{'-' * 12}|{'-' * 14}|")
    for name, players, aec, gym, raw, target in rows:
        print(
            f"| {name:<10} | {players:>7} | {aec:>15,.0f} | {gym:>11,.0f} | {raw:>16,.0f} "
            f"| {aec / raw:>10.2f} | {target:<12} |"
        )


if __name__ == "__main__":
    main()
