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
  engine benchmark reports, for comparison;
* "mask only": what env/engine would be if an env step did the engine's work and the
  mask's alone (``mask_bound``): an upper bound whatever the observation costs.

All three play single deals under run.py's ``one_deal`` options (one deal; card
games stop recycling the stock after 3 turn-overs, so a random deal ends).

Times are CPU time of this process (time.process_time); each speed is the best
of three runs over different seeds, after a warm-up on other seeds.

    python benchmarks/rl.py --learners   # learner speeds (needs the learn extra: torch, sb3)

prints a second table, for remi_ro, romme and basic at 2 seats: Gymnasium steps/s with
the flat action space and with ``action_space="features"`` (masked random learner), and
learner steps/s (environment and updates, CPU time, one torch thread) of the two recipes
in examples/: MaskablePPO on the flat space and the CleanRL-style PPO on features.
"""

from __future__ import annotations

import argparse
import os
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


def mask_bound(variant: str, players: int, deals: int, first_seed: int = 0) -> float:
    """An upper bound of env/engine whatever the observation costs: ``random_playouts``'
    games (same seeds, same draws from the engine's list), timing apart the engine's
    work (legal actions, apply) and the mask's share of an env step (the legal list
    encoded as numbers, the ``int8`` mask built from them, a ``flatnonzero`` over it
    and the lookup of the chosen number), in the same loop so that load drift between
    two runs does not enter the ratio: engine time / (engine time + mask time)."""
    table = rl.Table(variant, players, one_deal(variant))
    encode, size = table.codec.encode, table.codec.size
    clock = time.perf_counter
    engine = masking = 0.0
    for seed in range(first_seed, first_seed + deals):
        table.new_game(seed)
        game = table.game
        rng = random.Random(seed)
        while not game.is_over:
            t0 = clock()
            legal = game.legal_actions()
            t1 = clock()
            numbers = {encode(a): a for a in legal}
            mask = np.zeros(size, dtype=np.int8)
            mask[list(numbers)] = 1
            allowed = np.flatnonzero(mask.view(np.bool_))
            chosen = rng.randrange(len(legal))
            numbers.get(int(allowed[min(chosen, len(allowed) - 1)]))
            t2 = clock()
            game.apply(legal[chosen])
            engine += (t1 - t0) + (clock() - t2)
            masking += t2 - t1
    return engine / (engine + masking)


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


def gym_mode_steps(variant: str, mode: str, steps: int) -> float:
    """Gymnasium learner steps/s (2 seats, random bots) with action space ``mode``."""
    env = rl.RummyGymEnv(variant, 2, action_space=mode)  # type: ignore[arg-type]
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    start = time.process_time()
    for _ in range(steps):
        legal = np.flatnonzero(env.action_masks())
        _obs, _r, terminated, truncated, _info = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            env.reset()
    return steps / (time.process_time() - start)


def learner_steps(variant: str, recipe: str, steps: int) -> float:
    """Learner steps/s (CPU time, one torch thread) of an examples/ recipe: ``maskable``
    (MaskablePPO with the documented defaults: K = 64 action slots), ``maskable-flat``
    (MaskablePPO on the flat codec) or ``cleanrl``."""
    import sys
    from pathlib import Path

    import torch

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
    torch.set_num_threads(1)
    start = time.process_time()
    if recipe.startswith("maskable"):
        import sb3_maskable_ppo

        actions = "flat" if recipe == "maskable-flat" else "slots"
        sb3_maskable_ppo.train(variant, 2, steps=steps, actions=actions)
    else:
        import cleanrl_ppo

        args = cleanrl_ppo.Args(
            variant=variant, total_timesteps=steps, num_envs=4, num_steps=64, eval_deals=0
        )
        cleanrl_ppo.train(args)
    return steps / (time.process_time() - start)


def load_average() -> str:
    """The 1-minute load average (the machine is shared: read figures beside it)."""
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "n/a"


def learners(quick: bool, variants: list[str] | None, flat: bool) -> None:
    """The second table (see the module docstring)."""
    steps = 1024 if quick else 4096
    for name in variants or ["remi_ro", "romme", "basic"]:
        # Warm the caches (action table, feature encoders, torch) outside the timing.
        learner_steps(name, "maskable", 128)
    print()
    print(f"learner steps/s, {steps} steps per cell, CPU time, one torch thread")
    print(
        f"| {'variant':<10} | {'Gym flat':>8} | {'Gym features':>12} "
        f"| {'MaskablePPO (slots)':>19} | {'MaskablePPO (flat)':>18} "
        f"| {'CleanRL PPO':>11} | {'load':>4} |"
    )
    print(f"|{'-' * 12}|{'-' * 10}|{'-' * 14}|{'-' * 21}|{'-' * 20}|{'-' * 13}|{'-' * 6}|")
    for name in variants or ["remi_ro", "romme", "basic"]:
        gym_flat = gym_mode_steps(name, "flat", steps)
        features = gym_mode_steps(name, "features", steps)
        maskable = learner_steps(name, "maskable", steps)
        maskable_flat = learner_steps(name, "maskable-flat", min(steps, 512)) if flat else 0.0
        cleanrl = learner_steps(name, "cleanrl", steps)
        print(
            f"| {name:<10} | {gym_flat:>8,.0f} | {features:>12,.0f} | {maskable:>19,.0f} "
            f"| {f'{maskable_flat:,.0f}' if flat else '-':>18} | {cleanrl:>11,.0f} "
            f"| {load_average():>4} |",
            flush=True,
        )


def _engine_playouts(variant: str, players: int, deals: int, first_seed: int) -> float:
    return random_playouts(variant, deals, players, first_seed=first_seed)


def _best_of_three(measure: Callable[[int], float]) -> float:
    return max(measure(1000 * i) for i in range(3))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for smoke tests")
    parser.add_argument("--variant", action="append", help="only these variants (repeatable)")
    parser.add_argument(
        "--learners", action="store_true", help="only the learner table (needs torch, sb3)"
    )
    parser.add_argument(
        "--flat-maskable",
        action="store_true",
        help="with --learners: also MaskablePPO on the flat codec (slow on romme)",
    )
    args = parser.parse_args()
    if args.learners:
        learners(args.quick, args.variant, args.flat_maskable)
        return
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
        ceiling = _best_of_three(partial(mask_bound, name, players, deals))
        rows.append((name, players, aec, gym, raw, ceiling, load_average()))
    print()
    print(
        f"| {'variant':<10} | {'players':>7} | {'AEC env steps/s':>15} | {'Gym steps/s':>11} "
        f"| {'engine actions/s':>16} | {'env/engine':>10} | {'mask only':>9} | {'load':>4} |"
    )
    print(
        f"|{'-' * 12}|{'-' * 9}|{'-' * 17}|{'-' * 13}|{'-' * 18}|{'-' * 12}|{'-' * 11}|{'-' * 6}|"
    )
    for name, players, aec, gym, raw, ceiling, load in rows:
        print(
            f"| {name:<10} | {players:>7} | {aec:>15,.0f} | {gym:>11,.0f} | {raw:>16,.0f} "
            f"| {aec / raw:>10.2f} | {ceiling:>9.2f} | {load:>4} |"
        )
    print("target: env/engine >= 0.6 (AEC env steps per raw engine action)")
    print("mask only: env/engine if an env step did the engine's work and the mask's only")


if __name__ == "__main__":
    main()
