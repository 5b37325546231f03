"""Analysis positions: a real game set up from a rack and a table, for hints and solvers."""

from __future__ import annotations

import pytest

from rummykit.engine.actions import Attach, Discard, ExchangeJoker
from rummykit.engine.game import Phase
from rummykit.engine.position import analysis_game
from rummykit.model.pieces import Face, Material, parse_faces


def tiles(text: str) -> list[tuple[Face, Face | None]]:
    return [(f, None) for f in parse_faces(text, Material.TILES)]


def test_position_is_a_turn_after_drawing() -> None:
    game = analysis_game("remi_ro", parse_faces("R8 B2 B3", Material.TILES), [tiles("R5 R6 R7")])
    assert (game.phase, game.to_move, game.turn.acquired) == (Phase.TURNS, 0, "draw")
    assert sorted(str(f) for f in game.rack_faces(0)) == ["B2", "B3", "R8"]
    assert [f.notation(game.pieces) for f in game.table] == ["[R5 R6 R7]"]
    # Every piece is somewhere: rack, table or stock.
    placed = len(game.racks[0]) + sum(len(f.pieces) for f in game.table) + len(game.stock)
    assert placed == len(game.pieces)


def test_engine_legality_decides_attachments() -> None:
    rack = parse_faces("R8 R4 B2", Material.TILES)
    game = analysis_game("remi_ro", rack, [tiles("R5 R6 R7")], opened=True)
    attaches = {str(a) for a in game.legal_actions() if isinstance(a, Attach)}
    assert attaches == {"attach R4 -> m1", "attach R8 -> m1"}
    # RULES §9.9: an unopened player may not attach.
    closed = analysis_game("remi_ro", rack, [tiles("R5 R6 R7")], opened=False)
    assert not any(isinstance(a, Attach) for a in closed.legal_actions())
    assert any(isinstance(a, Discard) for a in closed.legal_actions())


def test_joker_exchange_from_the_engine() -> None:
    # RULES §9.10: the joker of a run is taken for the tile it stands for.
    run = [(f, None) for f in parse_faces("R5 J R7", Material.TILES)]
    game = analysis_game("remi_ro", parse_faces("R6 B2 B3", Material.TILES), [run])
    found = [str(a) for a in game.legal_actions() if isinstance(a, ExchangeJoker)]
    assert found == ["exchange R6 -> m1"]


def test_bad_positions_are_rejected() -> None:
    with pytest.raises(ValueError, match="not a formation"):
        analysis_game("remi_ro", (), [tiles("R5 B7 K9")])
    with pytest.raises(ValueError, match="no more R5"):
        analysis_game("remi_ro", parse_faces("R5 R5 R5", Material.TILES))


def test_locked_jokers_cannot_be_exchanged() -> None:
    run = [(f, None) for f in parse_faces("R5 J R7", Material.TILES)]
    rack = parse_faces("R6 B2 B3", Material.TILES)
    game = analysis_game("remi_ro", rack, [run], locked=[[False, True, False]])
    assert not any(isinstance(a, ExchangeJoker) for a in game.legal_actions())
    assert game.locked == {game.table[0].pieces[1]}


def test_owners_are_checked() -> None:
    with pytest.raises(ValueError, match="owners"):
        analysis_game("remi_ro", (), [tiles("R5 R6 R7")], owners=[7])
