"""The ``reclaim`` extension (Remmi A-75 option ``allow_reclaim_own_end_tiles``): a player
takes an end tile of his own earlier formation back, and must lay it in a new formation
in the same turn.
"""

from __future__ import annotations

from collections.abc import Mapping

from kit import (
    assert_conserved,
    draw,
    illegal,
    pass_turns,
    play,
    rack,
    table,
)
from remmi_de_support import stacked_game
from rummykit.engine import Game

# ------------------------------------------------------------------ A-75 reclaim option

RECLAIM = {"allow_reclaim_own_end_tiles": True}


def _reclaim_game(options: Mapping[str, object] | None = None) -> Game:
    """P1 opened with [K10 K11 K12 K13] + [R5 B5 Y5]; now in his second turn."""
    game = stacked_game(4, {0: "K10 K11 K12 K13 R5 B5 Y5 R10 B10 Y2"}, options=options)
    play(game, "P1: meld [K10 K11 K12 K13]", "P1: meld [R5 B5 Y5]", "P1: discard Y2")
    pass_turns(game, 3)
    draw(game)
    return game


def test_tiles_are_not_taken_back_by_default() -> None:
    """A-75: no rearrangement; ``allow_reclaim_own_end_tiles`` is false by default."""
    game = _reclaim_game()
    assert illegal(game, "reclaim K10 <- m1").rule == "A-75"
    assert not any(str(a).startswith("reclaim") for a in game.legal_actions())


def test_reclaimed_end_tiles_go_into_a_new_formation() -> None:
    """A-75 option: an end tile of one's own earlier formation comes back to the rack and
    must be laid in a new formation this turn; the rest must stay a formation."""
    game = _reclaim_game(RECLAIM)
    listed = sorted(str(a) for a in game.legal_actions() if str(a).startswith("reclaim"))
    assert listed == ["reclaim K10 <- m1", "reclaim K13 <- m1"]
    assert illegal(game, "reclaim K11 <- m1").rule == "A-75"
    assert illegal(game, "reclaim R5 <- m2").rule == "A-75"
    play(game, "P1: reclaim K10 <- m1")
    assert table(game)[0] == "[K11 K12 K13]" and "K10" in rack(game, 0)
    spare = next(t for t in rack(game, 0) if t not in ("K10", "R10", "B10"))
    assert illegal(game, f"discard {spare}").rule == "A-75"
    play(game, "P1: meld [R10 B10 K10]")
    # A formation laid this turn gives nothing back.
    assert illegal(game, "reclaim K10 <- m3").rule == "A-75"
    play(game, f"P1: discard {spare}")
    assert table(game)[2] == "[R10 B10 K10]"
    assert_conserved(game)


def test_only_ones_own_formations_give_tiles_back() -> None:
    """A-75 option: another player's formation is never reclaimed from."""
    game = _reclaim_game(RECLAIM)
    play(game, "P1: discard " + rack(game, 0)[-1])
    draw(game)
    assert illegal(game, "reclaim K10 <- m1").rule == "A-75"


def test_a_reclaimed_copy_goes_to_the_new_formation_and_its_twin_to_the_lay_off() -> None:
    """A-75 option: with two K10 on the rack after a reclaim, a lay-off takes the copy
    that was already there and the new formation takes the reclaimed one, so the turn
    can still be committed; a reset puts the tile back on the table."""
    game = stacked_game(4, {0: "K10 K11 K12 K13 R5 B5 Y5 R10 B10 Y2 K10"}, options=RECLAIM)
    play(game, "P1: meld [K10 K11 K12 K13]", "P1: meld [R5 B5 Y5]", "P1: discard Y2")
    pass_turns(game, 3)
    draw(game)
    play(game, "P1: reclaim K10 <- m1")
    (reclaimed,) = game.turn.extensions["reclaim"]
    play(game, "P1: attach K10 -> m1")
    assert reclaimed in game.racks[0] and reclaimed not in game.table[0].pieces
    assert illegal(game, "discard " + rack(game, 0)[-1]).rule == "A-75"
    play(game, "P1: meld [R10 B10 K10]")
    assert reclaimed in game.table[2].pieces
    assert game.can(next(a for a in game.legal_actions() if str(a).startswith("discard")))
    play(game, "P1: reset")
    assert "reclaim" not in game.turn.extensions and reclaimed in game.table[0].pieces
    assert_conserved(game)
