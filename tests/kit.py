"""The test kit every variant's tests share: notation, scripted play and the checks.

One implementation each of what the per-variant support modules used to copy:
faces and actions in a material's notation, handing out named pieces for a
stacked deal, scripted lines and quiet turns, the state an illegal action must
leave untouched, the hand as notation, and where every piece is.  The variant
modules (``card_support``, ``remi_ro_support``, ``romme_support``, …) keep only
what differs between variants: how their deals are stacked.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rummykit.engine import Game, IllegalActionError, parse_action
from rummykit.engine.actions import Action, Discard, Draw, Meld
from rummykit.engine.extensions.board import board_state
from rummykit.engine.extensions.preplay import PrePlayState, preplay_state
from rummykit.engine.extensions.three import ThreeState, three_state
from rummykit.engine.game import Phase
from rummykit.model.pieces import Face, Material, PieceSet, parse_faces

__all__ = [
    "CARD_NOTATION",
    "TILE_NOTATION",
    "Notation",
    "PieceAllocator",
    "assert_conserved",
    "column",
    "draw",
    "illegal",
    "in_play",
    "listed",
    "locations",
    "normal",
    "pass_turn",
    "pass_turns",
    "play",
    "rack",
    "run_out",
    "state_key",
    "stock_top",
    "table",
]


# ------------------------------------------------------------------ notation


@dataclass(frozen=True, slots=True)
class Notation:
    """Faces and actions written in one material's notation (``R5`` tiles, ``QS`` cards);
    a token of the other material is an error."""

    material: Material

    def face(self, text: str) -> Face:
        """``face("R5")``."""
        return Face.parse(text, self.material)

    def faces(self, text: str) -> list[Face]:
        """``faces("R5 B5 J")``."""
        return list(parse_faces(text, self.material))

    def act(self, text: str) -> Action:
        """An action from notation (``act("attach R6 -> m1")``)."""
        return parse_action(text, self.material)


TILE_NOTATION = Notation(Material.TILES)
CARD_NOTATION = Notation(Material.CARDS)


class PieceAllocator:
    """Hands out distinct piece ids for named faces: ``R5#2`` is that physical copy,
    a plain ``R5`` (``7C``, ``J``) the first copy not yet handed out."""

    def __init__(self, pieces: PieceSet) -> None:
        self.pieces = pieces
        self.used: set[int] = set()

    def take(self, token: str) -> int:
        """The id of the piece ``token`` names, now used."""
        if "#" in token:
            pid = self.pieces.parse_piece(token)
            if pid in self.used:
                raise ValueError(f"{token} is named twice")
            self.used.add(pid)
            return pid
        for pid in self.pieces.pieces_of(Face.parse(token, self.pieces.material)):
            if pid not in self.used:
                self.used.add(pid)
                return pid
        raise ValueError(f"no copy of {token} is left to deal")

    def take_all(self, text: str) -> list[int]:
        """The ids of the space-separated tokens of ``text``, in order."""
        return [self.take(t) for t in text.split()]


# ------------------------------------------------------------------ scripted play


def _action(game: Game, text: str | Action) -> Action:
    return parse_action(text, game.pieces.material) if isinstance(text, str) else text


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


def pass_turn(game: Game, discard: str | None = None) -> str:
    """A quiet turn: draw and discard (the drawn piece unless ``discard`` names one).

    In a discard-only first turn nothing is drawn and, without ``discard``, the
    highest piece goes (remi_ro's dead tile).  Returns the discarded piece.
    """
    if game.turn.acquired == "none":
        out = discard if discard is not None else str(max(game.rack_faces(game.to_move)))
    else:
        assert game.turn.acquired is None, "pass_turn starts a turn; use play() mid-turn"
        drawn = draw(game)
        out = discard if discard is not None else drawn
    game.apply(Discard(Face.parse(out, game.pieces.material)))
    return out


def pass_turns(game: Game, count: int) -> None:
    """``count`` turns of :func:`pass_turn`."""
    for _ in range(count):
        pass_turn(game)


def in_play(game: Game) -> bool:
    """Whether a turn is being played."""
    return game.phase in (Phase.ROUND1, Phase.TURNS)


def run_out(game: Game) -> None:
    """Pass turns until the deal ends (by stock exhaustion)."""
    while in_play(game):
        pass_turn(game)


# ------------------------------------------------------------------ state as notation


def rack(game: Game, seat: int) -> list[str]:
    """The sorted hand of ``seat`` as notation."""
    return [str(f) for f in sorted(game.rack_faces(seat))]


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
        # The turn, every field (a new one is covered without listing it).
        dataclasses.astuple(t),
    )


# ------------------------------------------------------------------ checks


def normal(action: Action) -> str:
    """Notation of ``action`` with a meld's pieces in sorted order (for comparisons)."""
    if isinstance(action, Meld):
        return "meld [" + " ".join(str(f) for f in sorted(action.faces)) + "]"
    return str(action)


def listed(game: Game, text: str | Action) -> bool:
    """Whether the action (a meld in any piece order) is among the legal actions."""
    return normal(_action(game, text)) in {normal(a) for a in game.legal_actions()}


def illegal(game: Game, text: str | Action) -> IllegalActionError:
    """Assert that the action is refused three ways (``can``, ``legal_actions``,
    ``apply``) with the state untouched; return the error (STYLE §6: one source)."""
    before = state_key(game)
    action = _action(game, text)
    assert not game.can(action), f"{text!r} should be illegal"
    assert not listed(game, action), f"{text!r} is listed as legal"
    try:
        game.apply(action)
    except IllegalActionError as exc:
        assert state_key(game) == before, f"{text!r} changed the state"
        return exc
    raise AssertionError(f"{text!r} was applied")


def locations(game: Game) -> dict[int, str]:
    """Where each piece is: ``rack{seat}``, ``stock``, ``column`` (the discard pile) or
    ``table``; a piece in two places fails."""
    where: dict[int, str] = {}

    def put(pieces: Iterable[int], place: str) -> None:
        for p in pieces:
            assert p not in where, f"{game.pieces.name(p)} is both in {where[p]} and {place}"
            where[p] = place

    for seat, r in enumerate(game.racks):
        put(r, f"rack{seat}")
    put(game.stock, "stock")
    put(game.column, "column")
    for formation in game.table:
        put(formation.pieces, "table")
    return where


def assert_conserved(game: Game) -> None:
    """Every piece of the game is in exactly one place."""
    missing = set(range(len(game.pieces))) - set(locations(game))
    assert not missing, f"missing pieces: {sorted(game.pieces.name(p) for p in missing)}"
