"""The shared test kit (tests/kit.py): its checks fail when they should."""

from __future__ import annotations

import pytest

from card_support import card_game
from kit import (
    CARD_NOTATION,
    TILE_NOTATION,
    PieceAllocator,
    assert_conserved,
    illegal,
    locations,
    pass_turn,
    rack,
)
from remi_ro_support import stacked_game
from rummykit.model.pieces import NotationError
from rummykit.rules.tiles import TILES_106


def test_notation_reads_one_material_only() -> None:
    assert str(TILE_NOTATION.face("R5")) == "R5"
    assert str(CARD_NOTATION.act("discard QS")) == "discard QS"
    with pytest.raises(NotationError):
        TILE_NOTATION.face("QS")


def test_the_allocator_hands_out_each_copy_once() -> None:
    alloc = PieceAllocator(TILES_106)
    first, second = alloc.take_all("R5 R5")
    assert {TILES_106.name(first), TILES_106.name(second)} == {"R5#1", "R5#2"}
    with pytest.raises(ValueError, match="no copy of R5"):
        alloc.take("R5")
    with pytest.raises(ValueError, match="named twice"):
        alloc.take("R5#1")


def test_illegal_fails_on_a_legal_action_and_returns_the_error_of_an_illegal_one() -> None:
    game = stacked_game(2, racks={0: "R5 R6 R7"})
    with pytest.raises(AssertionError, match="should be illegal"):
        illegal(game, "discard R5")
    assert "J" not in rack(game, 0)  # fillers are never jokers
    error = illegal(game, "discard J")
    assert "J" in str(error)
    assert {"R5", "R6", "R7"} <= set(rack(game, 0))


def test_every_piece_is_in_one_place_and_a_lost_one_is_found() -> None:
    game = card_game("basic", 2)
    pass_turn(game)
    assert_conserved(game)
    assert set(locations(game).values()) >= {"rack0", "rack1", "stock", "column"}
    game.stock.pop()
    with pytest.raises(AssertionError, match="missing pieces"):
        assert_conserved(game)
