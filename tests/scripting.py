"""Scripted play shared by the variant test helpers: actions by notation, seat-checked,
and the public state as notation."""

from __future__ import annotations

import dataclasses
from typing import Any

from rummykit.engine import Game, parse_action
from rummykit.engine.actions import Draw
from rummykit.engine.extensions.board import board_state
from rummykit.engine.extensions.preplay import PrePlayState, preplay_state
from rummykit.engine.extensions.three import ThreeState, three_state

__all__ = ["column", "draw", "play", "stock_top", "table"]


def play(game: Game, *lines: str) -> Game:
    """Apply scripted actions; ``"P2: draw"`` also checks that P2 (seat 1) is to move."""
    for line in lines:
        seat_text, sep, rest = line.partition(":")
        text = line
        if sep and seat_text.strip().upper().startswith("P"):
            seat = int(seat_text.strip()[1:]) - 1
            assert game.to_move == seat, f"{line!r}: P{game.to_move + 1} is to move"
            text = rest
        game.apply(parse_action(text, game.pieces.material))
    return game


def draw(game: Game) -> str:
    """Draw for the seat to move; return the drawn piece as notation."""
    drawn = str(game.faces[game.stock[-1]])
    game.apply(Draw())
    return drawn


def column(game: Game) -> list[str]:
    """The discard pile or column, oldest first, as notation."""
    return [str(game.faces[p]) for p in game.column]


def stock_top(game: Game, count: int | None = None) -> list[str]:
    """The stock from its top (next draw first), as notation."""
    pieces = [str(game.faces[p]) for p in reversed(game.stock)]
    return pieces if count is None else pieces[:count]


def table(game: Game) -> list[str]:
    """Every formation's notation, in id order."""
    return [f.notation(game.pieces) for f in game.table]


def preplay(game: Game) -> PrePlayState:
    """The game's pre-play state (RULES §9.4): the game must be of a variant that has it."""
    state = preplay_state(game)
    assert state is not None, f"{game.variant.name} has no pre-play"
    return state


def three(game: Game) -> ThreeState:
    """The game's "three" state (RULES §9.11): the game must be of a variant that has it."""
    state = three_state(game)
    assert state is not None, f"{game.variant.name} has no 'three' announcement"
    return state


def on_board(game: Game) -> list[bool]:
    """Per seat: plays on the board (RULES §9.13, §10.10); all False without board play."""
    state = board_state(game)
    return list(state.on_board) if state is not None else [False] * game.players


def state_key(game: Game) -> tuple[Any, ...]:
    """Everything that makes up the game state, for every variant (for before/after
    comparisons: an illegal action must leave all of it unchanged)."""
    t = game.turn
    return (
        game.phase,
        game.to_move,
        game.deal_number,
        game.maker,
        game.turn_number,
        tuple(tuple(r) for r in game.racks),
        tuple(game.stock),
        tuple(game.column),
        tuple(game.table),
        tuple(game.credit),
        frozenset(game.locked),
        tuple(game.opened),
        tuple(game.turns_taken),
        tuple(game.has_laid),
        game.recycles,
        tuple(game.totals),
        tuple(game.results),
        tuple(game.log),
        # Every extension's state, every field (a new one is covered without listing it).
        tuple((name, dataclasses.asdict(state)) for name, state in sorted(game.ext_states.items())),
        (
            t.acquired,
            t.start_rack,
            tuple(t.must_use),
            tuple(t.pending_jokers),
            tuple(t.new_formations),
            tuple(t.laid),
            t.laid_points,
            t.exchanged,
            t.attached,
            t.dirty,
            t.displaced,
            t.displaced_from,
            tuple(t.reclaimed),
        ),
    )
