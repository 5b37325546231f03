"""``Game.copy()`` of a mid-deal state in every variant (issue 14: at most 20 µs).

    python benchmarks/copies.py

Each variant at its fewest seats (remi_ro at 4) after 60 random legal actions from
seed 3; ``--copies`` copies (default 20,000) timed with ``time.perf_counter``, best of
three.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from rummykit.engine.game import Game
from rummykit.rules import all_variants

COPIES = 20_000


def mid_deal(variant: str, players: int, options: dict[str, object] | None = None) -> Game:
    """A game of ``variant`` 60 random actions into its first deal."""
    game = Game(variant, players, options or {}, seed=3)
    rng = random.Random(1)
    for _ in range(60):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


def copy_time(game: Game, copies: int = COPIES) -> float:
    """Seconds per ``game.copy()``, best of three."""
    return best_call_time(game.copy, copies)


def best_call_time(call: Callable[[], object], calls: int, runs: int = 3) -> float:
    """Seconds per ``call()`` over ``calls`` calls, best of ``runs`` runs."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, default=COPIES, help="copies timed per run")
    args = parser.parse_args()
    if args.copies < 1:
        parser.error("--copies must be at least 1")
    print("| variant | players | Game.copy() µs | target |")
    print("|---|---|---|---|")
    for variant in all_variants():
        players = 4 if variant.name == "remi_ro" else variant.min_players
        micro = copy_time(mid_deal(variant.name, players), args.copies) * 1e6
        print(f"| {variant.name} | {players} | {micro:.1f} | ≤ 20 |")


if __name__ == "__main__":
    main()
