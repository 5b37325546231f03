"""Conformance checks of the action encoding, reusable for every variant.

A new variant is covered by the test suite automatically (it iterates
:func:`variant_tables`); these functions also let a variant's author run the
checks directly::

    from rummykit.rl.conformance import check_action_encoding
    check_action_encoding("remi_ro", players=3, steps=10_000, seed=1)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from rummykit.engine import IllegalActionError
from rummykit.rl.core import Table
from rummykit.rules.variant import all_variants

__all__ = ["ConformanceError", "check_action_encoding", "check_legal_set", "variant_tables"]


class ConformanceError(AssertionError):
    """The integer encoding and the engine disagree (a bug in rl or in the engine)."""


MAX_TABLES_PER_VARIANT = 6
"""Above this many legal player counts a variant is checked at representative ones."""


def variant_tables() -> list[tuple[str, int]]:
    """(variant name, player count) for every registered variant and legal count.

    A variant with more than :data:`MAX_TABLES_PER_VARIANT` counts (Continental's
    2-12) is checked at the smallest and largest table of each piece set it uses
    (2/5, 6/9, 10/12 players): the action space and observation size change only
    with the piece set, and the engine's own property tests cover every count.
    """
    tables = []
    for v in all_variants():
        counts = list(range(v.min_players, v.max_players + 1))
        if len(counts) > MAX_TABLES_PER_VARIANT:
            by_size: dict[int, list[int]] = {}
            for players in counts:
                size = len(v.pieces(v.resolve(players)))
                by_size.setdefault(size, []).append(players)
            counts = sorted({n for group in by_size.values() for n in (group[0], group[-1])})
        tables += [(v.name, players) for players in counts]
    return tables


def check_legal_set(table: Table, *, verify_all: bool = True) -> list[int]:
    """Check the encoding on the current state; return the legal numbers.

    * total and injective: every legal engine action has a number, no two share one;
    * round trip: decoding a legal action's number gives that action back;
    * the mask is exactly the set of those numbers;
    * with ``verify_all``, the engine accepts every masked action (``Game.verify``
      on the decoded table entry, not on the engine's own object).
    """
    game = table.game
    legal = game.legal_actions()
    numbers = [table.codec.encode(a) for a in legal]
    if len(set(numbers)) != len(numbers):
        raise ConformanceError(f"two legal actions share a number: {legal} -> {numbers}")
    for number, action in zip(numbers, legal, strict=True):
        if table.codec.decode(number) != action:
            raise ConformanceError(
                f"{action} encodes to {table.codec.describe(number)}, which decodes elsewhere"
            )
    mask = table.action_mask(game.to_move)
    if set(np.flatnonzero(mask).tolist()) != set(numbers):
        raise ConformanceError(f"the mask differs from the legal numbers ({game.describe()})")
    if verify_all:
        for number in numbers:
            try:
                game.verify(table.codec.decode(number))
            except IllegalActionError as exc:
                raise ConformanceError(
                    f"masked-legal {table.codec.describe(number)} is rejected: {exc}"
                ) from exc
    return numbers


def check_action_encoding(
    variant: str,
    players: int,
    *,
    steps: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_steps_per_deal: int = 2_000,
) -> int:
    """Play ``steps`` masked random steps, checking every state (:func:`check_legal_set`).

    Every masked number is verified by the engine before one is played.
    Episodes are one deal each, truncated after ``max_steps_per_deal``.
    Returns the number of deals played.
    """
    table = Table(variant, players, options or {}, max_steps_per_deal=max_steps_per_deal)
    rng = random.Random(seed)
    done = deals = 0
    while done < steps:
        table.new_game(rng.randrange(2**63))
        deals += 1
        while not table.is_over and done < steps:
            numbers = check_legal_set(table)
            if not numbers:
                raise ConformanceError(f"no legal action ({table.game.describe()})")
            table.play(numbers[rng.randrange(len(numbers))])
            done += 1
    return deals
