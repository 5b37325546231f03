"""Board-play contracts from a rack (RULES §9.13): 14 pieces, or the best closing discard of 15."""

from __future__ import annotations

import pytest

from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.rules import find_variant
from rummykit.rules.remi_ro import REMI_RO
from rummykit.solver import ContractAnswer, best_contract

BOARD = dict(REMI_RO.resolve(4, {"board_play_enabled": True}))


def tiles(text: str) -> tuple[Face, ...]:
    return parse_faces(text, Material.TILES)


def test_fourteen_tiles_name_their_contract() -> None:
    answer = best_contract(tiles("R5 B5 Y5 K5 R9 B9 Y9 K9 R12 B12 Y12 B2 Y2 K2"), REMI_RO, BOARD)
    assert isinstance(answer, ContractAnswer)
    assert (answer.contract.name, answer.contract.value, answer.discard) == ("bete", 700, None)
    assert (
        best_contract(tiles("R1 R5 B9 K2 Y7 Y12 K11 B3 R8 B13 Y4 K6 R10 B6"), REMI_RO, BOARD)
        is None
    )


def test_fifteen_tiles_pick_the_most_valuable_close() -> None:
    # Discarding B1 leaves the red 1..1 (monocolour 1500); other discards leave less.
    full_red = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
    answer = best_contract(tiles(full_red + " B1"), REMI_RO, BOARD)
    assert answer is not None
    assert (answer.contract.name, answer.discard) == ("monocolour", Face.parse("B1"))


def test_sizes_and_variants_are_checked() -> None:
    with pytest.raises(ValueError, match="14 or 15"):
        best_contract(tiles("R1 R2 R3"), REMI_RO, BOARD)
    basic = find_variant("basic")
    no_board = REMI_RO.resolve(4, {"board_play_enabled": False})
    with pytest.raises(ValueError, match="no board-play"):
        best_contract(tiles("R1 R2 R3"), REMI_RO, no_board)
    with pytest.raises(ValueError, match="no board-play"):
        best_contract(tiles("R1 R2 R3"), basic, basic.resolve(basic.default_players))
