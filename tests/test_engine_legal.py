"""The legal-action lists (engine/legal.py): their parts (a suit's runs moved to another
suit, a run's ends), the meld lists following the options that change the meld rules
(one cache per rule set, never shared across them), and a listed action skipping
verification only while its list is current.
"""

from __future__ import annotations

import random

import pytest

from card_support import card_game
from kit import state_key
from rummykit.engine import IllegalActionError
from rummykit.engine.actions import (
    Draw,
)
from rummykit.engine.game import Game
from rummykit.engine.legal import _run_ends, _runs_in_suit
from rummykit.engine.table import Formation
from rummykit.model.candidates import suit_runs
from rummykit.model.melds import MeldKind
from rummykit.model.pieces import JOKER_KIND, SUIT_COUNT, Face, Material, kind_of, suit_kinds


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


def test_a_runs_ends_take_the_next_naturals_and_a_declared_joker() -> None:
    """A run takes the natural just below and just above it (the ace above the king
    where the rules allow); a joker declares the high end first; the answer depends on
    the suit and span alone, so it is worked out once."""
    rules = Game("remmi_de", 4, seed=0).rules
    five_to_seven = Formation(3, 0, MeldKind.RUN, 1, (10, 11, 12), (5, 6, 7), (17, 18, 19))
    slots, jokers = _run_ends(rules, Material.TILES, five_to_seven)
    assert slots == ((kind_of(1, 4), 4), (kind_of(1, 8), 8))
    assert jokers == (Face.of(Material.TILES, 1, 8), Face.of(Material.TILES, 1, 4))
    other = Formation(5, 1, MeldKind.RUN, 1, (60, 61, 62), (5, 6, 7), (17, 53, 19))
    assert _run_ends(rules, Material.TILES, other) is _run_ends(
        rules, Material.TILES, five_to_seven
    )
    # Up to the king: the ace goes above it (position 14) if the rules allow.
    top = Formation(1, 0, MeldKind.RUN, 2, (1, 2, 3), (11, 12, 13), (36, 37, 38))
    slots, jokers = _run_ends(rules, Material.TILES, top)
    assert dict(slots) == {kind_of(2, 10): 10, **({kind_of(2, 1): 14} if rules.ace_high else {})}
    assert Face.of(Material.TILES, 2, 10) in jokers
    assert (Face.of(Material.TILES, 2, 1) in jokers) == rules.ace_high


# ------------------------------------------------------------------ caches across options


def test_meld_lists_follow_options_that_change_the_meld_rules() -> None:
    """The engine's shared rack → melds cache is keyed by the meld rules as well as the
    variant: a game whose options forbid a formation (Double Rummy with two naturals per
    meld, RULES §4.10/A-13) never lists it, even after a game that allowed it."""
    rack = {0: "9H JK JK"}
    loose = card_game("double", 2, racks=rack)
    strict = card_game("double", 2, racks=rack, options={"min_naturals_per_meld": 2})
    assert strict.racks == loose.racks
    two_jokers = "meld [9H JK(9S) JK(9D)]"
    loose.apply(Draw())
    assert two_jokers in {str(a) for a in loose.legal_actions()}
    strict.apply(Draw())
    assert two_jokers not in {str(a) for a in strict.legal_actions()}


# ------------------------------------------------------------------ the listed-action shortcut


def test_an_action_from_an_old_list_is_verified_again() -> None:
    """A listed action skips verification only while nothing was played since its list
    was made: the same ``Draw`` object applied a second time is refused (RULES §2.3, one
    draw a turn) and changes nothing."""
    game = card_game("basic", 2)
    listed = game.legal_actions()
    draw = next(a for a in listed if isinstance(a, Draw))
    game.apply(draw)
    before = state_key(game)
    with pytest.raises(IllegalActionError):
        game.apply(draw)
    assert state_key(game) == before


def test_an_equal_action_built_anew_is_verified_and_played() -> None:
    """An action equal to a listed one but not the listed object is verified, then played
    like the listed one: both games end in the same state."""
    game = card_game("basic", 2)
    twin = game.copy()
    listed = game.legal_actions()
    draw = next(a for a in listed if isinstance(a, Draw))
    game.apply(draw)
    twin.legal_actions()
    twin.apply(Draw())
    assert state_key(twin) == state_key(game)


def test_a_copy_does_not_inherit_the_list_of_its_original() -> None:
    """A copy made after the list verifies what it is given: the original's listed draw,
    already played by the copy once, is refused by the copy the second time."""
    game = card_game("basic", 2)
    draw = next(a for a in game.legal_actions() if isinstance(a, Draw))
    twin = game.copy()
    twin.apply(draw)
    with pytest.raises(IllegalActionError):
        twin.apply(draw)
    assert game.legal_actions() and game.turn.acquired is None
