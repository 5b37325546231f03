"""The turn's record (engine/turn.py): its copy and its snapshot are generic, so a new
field is copied and restored without being listed anywhere."""

from __future__ import annotations

import dataclasses
from typing import Any

from rummykit.engine import Game
from rummykit.engine.actions import Draw
from rummykit.engine.turn import Snapshot, Turn, restore_snapshot, take_snapshot

_CONTAINERS = (list, dict, set)


def _changed(value: Any) -> Any:
    """A value of ``value``'s kind that differs from it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, list):
        return [*value, 1, 2]
    if isinstance(value, dict):
        return {**value, "x": (1, 2)}
    if isinstance(value, set):
        return {*value, 3}
    return "draw"  # a string or None


def test_every_field_of_a_turn_is_copied_independently() -> None:
    turn = Turn()
    for f in dataclasses.fields(Turn):
        setattr(turn, f.name, _changed(getattr(turn, f.name)))
    copy = turn.copy()
    for f in dataclasses.fields(Turn):
        original, copied = getattr(turn, f.name), getattr(copy, f.name)
        assert copied == original, f"Turn.copy() loses {f.name}"
        if isinstance(original, _CONTAINERS):
            assert copied is not original, f"Turn.copy() shares {f.name}"
            setattr(turn, f.name, _changed(original))
            original.clear()
            assert copied != original, f"Turn.copy() shares {f.name}"


def test_a_turn_field_that_holds_a_container_declares_a_factory() -> None:
    # The generated copy copies exactly the fields with a default_factory.
    for f in dataclasses.fields(Turn):
        holds_container = str(f.type).split("[")[0] in {"list", "dict", "set"}
        assert holds_container == (f.default_factory is not dataclasses.MISSING), f.name


def test_a_snapshot_saves_and_restores_every_field_independently() -> None:
    game = Game("basic", 4, seed=3)
    game.apply(Draw())
    snap = take_snapshot(game)
    names = [f.name for f in dataclasses.fields(Snapshot) if f.name != "rack"]
    for name in names:
        assert getattr(snap, name) is not getattr(game, name), name
    before = {name: getattr(game, name).copy() for name in names}
    rack = game.racks[game.to_move][:]
    game.racks[game.to_move].clear()
    game.column.clear()
    game.table.clear()
    game.credit.clear()
    game.locked.add(0)
    game.turn.dirty = True
    restore_snapshot(game, snap)
    assert game.racks[game.to_move] == rack
    for name in names:
        assert getattr(game, name) == before[name], name
        assert getattr(game, name) is not getattr(snap, name), name
    assert game.turn.dirty is False
