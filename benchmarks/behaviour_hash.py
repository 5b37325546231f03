"""A fingerprint of how the engine and the bots play, to compare two commits.

    python benchmarks/behaviour_hash.py                          # random, greedy, easy, medium
    python benchmarks/behaviour_hash.py --bots hard@2,medium --games 2 --single-deal

For every variant it plays ``--games`` seeded matches (seed 0, 1, ...) with the named
bots seated in turn, and prints a hash of every action log and final total.  A refactor
that must not change behaviour (issue 14, item 6) leaves every line the same; run it on
both commits (e.g. from a ``git worktree``) and compare.  ``hard@N`` searches exactly N
worlds a decision, so it is reproducible; plain ``hard`` searches for a time and is not.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys

from rummykit.bots import make_bot
from rummykit.engine import Game, view
from rummykit.rules import all_variants

STEP_LIMIT = 4000
"""Actions after which a match is cut short (a hash still covers what was played)."""


def play_hash(variant: str, bots: list[str], games: int, *, single_deal: bool) -> str:
    """The hash of ``games`` seeded matches of ``variant`` with ``bots`` seated in turn."""
    digest = hashlib.sha256()
    for seed in range(games):
        # A single deal is the match's first one: the loop below stops at its result.
        game = Game(variant, 2 if single_deal else None, seed=seed)
        seats = [make_bot(bots[(seed + s) % len(bots)]) for s in range(game.players)]
        rng = random.Random(seed)
        steps = 0
        while not game.is_over and steps < STEP_LIMIT and not (single_deal and game.results):
            seat = game.to_move
            game.apply(seats[seat].choose(view(game, seat), game.legal_actions(), rng))
            steps += 1
        digest.update(repr([(s, str(a)) for s, a in game.log]).encode())
        digest.update(repr(game.totals).encode())
    return digest.hexdigest()[:16]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--bots",
        default="random,greedy,easy,medium",
        help="bots seated in turn, comma-separated (default: %(default)s)",
    )
    parser.add_argument("--games", type=int, default=12, help="matches per variant (12)")
    parser.add_argument(
        "--single-deal", action="store_true", help="two seats, one deal per game (for hard@N)"
    )
    parser.add_argument("--variant", action="append", help="only this variant (repeatable)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        for name in bots:
            make_bot(name)
    except ValueError as exc:
        parser.error(str(exc))
    known = [v.name for v in all_variants()]
    variants = args.variant or known
    unknown = [v for v in variants if v not in known]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r}; choose from {', '.join(known)}")
    total = hashlib.sha256()
    for n, variant in enumerate(variants, 1):
        print(f"[{n}/{len(variants)}] {variant} ...", file=sys.stderr, flush=True)
        found = play_hash(variant, bots, args.games, single_deal=args.single_deal)
        print(f"{variant:12s} {found}", flush=True)
        total.update(found.encode())
    print(f"{'all':12s} {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
