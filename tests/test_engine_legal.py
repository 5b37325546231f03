"""rummykit.engine.legal: the legal-action lists' parts."""

from __future__ import annotations

import random

import pytest

from rummykit.engine.game import Game
from rummykit.engine.legal import _runs_in_suit
from rummykit.model.candidates import suit_runs
from rummykit.model.pieces import JOKER_KIND, SUIT_COUNT, suit_kinds


@pytest.mark.parametrize("variant", ["remmi_de", "remi_ro", "romme", "basic", "double"])
def test_a_suits_runs_moved_to_another_suit_are_that_suits_runs(variant: str) -> None:
    """A suit's runs depend on which ranks it holds, not on the suit: the runs of one
    suit's row moved to another suit are :func:`suit_runs` of that suit holding the row,
    in the same order (one ace or two, with every joker count the rules use)."""
    rules = Game(variant, 2 if variant == "basic" else 4, seed=0).rules
    assert not rules.wild_ranks  # the parts are used without wild ranks only
    rng = random.Random(variant)
    checked = 0
    for _ in range(150):
        row = [rng.choice((0, 0, 0, 1, 1, 2)) for _ in range(13)]
        jokers = rng.choice((0, 1, 2))
        runs_by_suit = []
        for suit in range(SUIT_COUNT):
            counts = [0] * (JOKER_KIND + 1)
            counts[suit_kinds(suit)] = row
            counts[JOKER_KIND] = jokers
            runs_by_suit.append(tuple(suit_runs(tuple(counts), rules, suit)))
        for source in range(SUIT_COUNT):
            for suit in range(SUIT_COUNT):
                assert _runs_in_suit(runs_by_suit[source], suit) == runs_by_suit[suit]
        checked += bool(runs_by_suit[0])
    assert checked > 20  # rows holding runs, not only empty ones
    assert _runs_in_suit((), 2) == ()
