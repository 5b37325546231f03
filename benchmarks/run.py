"""rummykit engine benchmarks: one command, one table.

    python benchmarks/run.py            # full run (about a minute)
    python benchmarks/run.py --quick    # a few seconds, for smoke tests

Measures, on one core: random-bot playout speed (engine actions per second,
legal-move generation included), greedy self-play speed (complete 4-seat deals
per second), the time to copy a mid-game state, and the memory of one state.
Times are CPU time of this process (time.process_time), so other load on the
machine disturbs them less.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable

from rummykit.bots import make_bot, play_to_end
from rummykit.engine import Game
from rummykit.rules import all_variants, find_variant

TARGETS = {
    "random playout actions/s": ">= 20,000",
    "greedy 4-seat deals/s": ">= 50",
    "state copy (µs)": "<= 50",
    "state memory (KB)": "<= 50",
}


def one_deal(variant: str) -> dict[str, object]:
    """Options for a single deal that cannot run forever (RULES A-05)."""
    names = {o.name for o in find_variant(variant).options}
    options: dict[str, object] = {}
    if "match_deals" in names:
        options["match_deals"] = 1
    if "match_mode" in names:
        options["match_mode"] = "deals"
    if "max_stock_recycles" in names:
        options["max_stock_recycles"] = 3
    return options


EXTRA_ROWS: dict[str, tuple[str, dict[str, object]]] = {
    "remmi_de 8B": ("remmi_de", {"board_variant": True})
}
"""Variant settings measured as rows of their own: name → (variant, options)."""


def playout_counts(
    variant: str,
    deals: int,
    players: int,
    first_seed: int = 0,
    extra: dict[str, object] | None = None,
) -> tuple[int, float]:
    """(engine actions, CPU seconds) of uniformly random legal play over ``deals``
    single deals from seeds ``first_seed`` on."""
    actions = 0
    options = {**one_deal(variant), **(extra or {})}
    start = time.process_time()
    for seed in range(first_seed, first_seed + deals):
        game = Game(variant, players, options, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            actions += 1
    return actions, time.process_time() - start


def random_playouts(
    variant: str,
    deals: int,
    players: int,
    first_seed: int = 0,
    extra: dict[str, object] | None = None,
) -> float:
    """Engine actions per second of uniformly random legal play."""
    actions, seconds = playout_counts(variant, deals, players, first_seed, extra)
    return actions / seconds


def greedy_deals(
    variant: str,
    deals: int,
    players: int,
    first_seed: int = 0,
    extra: dict[str, object] | None = None,
) -> float:
    """Complete greedy self-play deals per second."""
    options = {**one_deal(variant), **(extra or {})}
    played = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + deals):
        game = Game(variant, players, options, seed=seed)
        play_to_end(game, [make_bot("greedy") for _ in range(players)], random.Random(seed))
        played += len(game.results)
    return played / (time.process_time() - start)


def _mid_game(variant: str, players: int, seed: int = 1) -> Game:
    game = Game(variant, players, one_deal(variant), seed=seed)
    bots = [make_bot("greedy") for _ in range(players)]
    play_to_end(game, bots, random.Random(seed), max_actions=60)
    return game


def copy_micros(variant: str, players: int, repeat: int) -> float:
    """Median microseconds of ``Game.copy()`` on a mid-game state."""
    game = _mid_game(variant, players)
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(100):
            game.copy()
        samples.append((time.process_time() - start) / 100 * 1e6)
    return statistics.median(samples)


def state_kilobytes(variant: str, players: int) -> tuple[float, float]:
    """(KB allocated by one copy of a mid-game state, peak KB while building a fresh game)."""
    game = _mid_game(variant, players)
    Game(variant, players, {"match_deals": 1}, seed=99)  # warm caches
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    copy = game.copy()
    after = tracemalloc.take_snapshot()
    copied = sum(s.size_diff for s in after.compare_to(before, "filename")) / 1024
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    fresh = Game(variant, players, {"match_deals": 1}, seed=7)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del copy, fresh
    return copied, (peak - base) / 1024


def _timed(label: str, fn: Callable[[], float]) -> tuple[str, float]:
    print(f"  measuring {label} ...", flush=True)
    return label, fn()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for smoke tests")
    parser.add_argument("--variant", default="remi_ro", help="variant of the detailed table")
    parser.add_argument(
        "--no-variants", action="store_true", help="skip the per-variant speed table"
    )
    args = parser.parse_args()
    scale = 1 if args.quick else 20
    variant = args.variant
    print(
        f"rummykit benchmarks — {variant}; Python {platform.python_version()}, "
        f"{platform.machine()}, {platform.processor() or 'cpu'}; one core"
    )
    # Warm the engine's caches on other seeds first, as in any long simulation; the
    # measured deals are all new.
    random_playouts(variant, 2 * scale, 4, first_seed=1_000_000)
    greedy_deals(variant, 2 * scale, 4, first_seed=1_000_000)
    # Each speed is the best of three runs over different seeds (as timeit reports
    # the minimum time): on a shared machine the slower runs measure the neighbours.
    rows = [
        _timed(
            "random playout actions/s",
            lambda: max(
                random_playouts(variant, 4 * scale, 4, first_seed=1000 * i) for i in range(3)
            ),
        ),
        _timed(
            "greedy 4-seat deals/s",
            lambda: max(greedy_deals(variant, 4 * scale, 4, first_seed=1000 * i) for i in range(3)),
        ),
        _timed("state copy (µs)", lambda: copy_micros(variant, 4, 3 * scale)),
    ]
    copied, fresh = state_kilobytes(variant, 4)
    rows.append(("state memory (KB)", copied))
    rows.append(("fresh game peak (KB)", fresh))
    print()
    print(f"| {'measure':<26} | {'value':>10} | {'target':<10} |")
    print(f"|{'-' * 28}|{'-' * 12}|{'-' * 12}|")
    for label, value in rows:
        print(f"| {label:<26} | {value:>10,.1f} | {TARGETS.get(label, ''):<10} |")
    if args.no_variants:
        return
    print()
    print("Every variant at its default table size (random playouts: target >= 10,000/s):")
    print()
    print(
        f"| {'variant':<12} | {'players':>7} | {'random actions/s':>16} | {'greedy deals/s':>14} |"
    )
    print(f"|{'-' * 14}|{'-' * 9}|{'-' * 18}|{'-' * 16}|")
    settings: list[tuple[str, str, dict[str, object]]] = [
        (v.name, v.name, {}) for v in all_variants()
    ]
    settings += [(row, name, extra) for row, (name, extra) in EXTRA_ROWS.items()]
    for row, name, extra in settings:
        n = find_variant(name).default_players
        random_playouts(name, scale, n, first_seed=2_000_000, extra=extra)
        speed = max(
            random_playouts(name, 2 * scale, n, first_seed=3_000_000 + 1000 * i, extra=extra)
            for i in range(2)
        )
        greedy = max(
            greedy_deals(name, scale, n, first_seed=3_000_000 + 1000 * i, extra=extra)
            for i in range(2)
        )
        print(f"| {row:<12} | {n:>7} | {speed:>16,.0f} | {greedy:>14,.1f} |")


if __name__ == "__main__":
    main()
