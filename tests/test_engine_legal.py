"""The legal-action lists (engine/legal.py): the meld lists follow the options that change
the meld rules (one cache per rule set, never shared across them), and a listed action
skips verification only while its list is current.
"""

from __future__ import annotations

import pytest

from card_support import card_game
from kit import state_key
from rummykit.engine import IllegalActionError
from rummykit.engine.actions import (
    Draw,
)

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
