"""Play on the board (RULES §9.13, A-62; §10.10, A-72): a seat on the board never lays
out, attaches or exchanges; it keeps every tile on its rack and finishes by discarding
beside a complete contract of 14 tiles.

Remi etalat lets a seat declare board play within its first turns (option
``board_play_enabled``); Remmi's 8B game (``board_variant``) puts every seat on the
board from the start.  Both name it ``"board"`` in ``PlayRules.extensions``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rummykit.engine.actions import Action, CloseBoard, DeclareBoard
from rummykit.engine.extension import (
    Extension,
    ExtensionState,
    register_extension,
    state_of,
)
from rummykit.model.pieces import Face
from rummykit.rules.variant import BoardSettings, Contract

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["CONTRACT_TILES", "Board", "BoardState", "board_state"]

CONTRACT_TILES = 14
"""A board contract's size: the rack before its closing discard holds one more (§9.13)."""

_BOARD = DeclareBoard()


@dataclass(slots=True)
class BoardState(ExtensionState):
    """Which seats play on the board this deal."""

    on_board: list[bool]


def board_state(game: Game, *, writable: bool = False) -> BoardState | None:
    """The board state of ``game``'s deal, or None if its variant has no board play."""
    return state_of(game, Board.name, BoardState, writable=writable)


@register_extension
class Board(Extension[BoardState]):
    """RULES §9.13: declaring board play, what a board player may not do, and closing
    with a contract."""

    name = "board"
    handlers: ClassVar[Mapping[type[Action], tuple[str, str]]] = {
        DeclareBoard: ("_verify_declare", "_apply_declare"),
        CloseBoard: ("_verify_close", "_apply_close"),
    }

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.declarable = game.play.board_play
        self.everyone = game.play.everyone_on_board
        self.window = game.play.setting(BoardSettings).declare_window
        self.rule = game.play.cite("board", "§9.13")
        self.first_turn_may_close = game.play.first_turn_may_meld

    def new_state(self, game: Game) -> BoardState:
        # §10.10: in "Spiel auf der Tafel" every seat plays on its rack from the start.
        return BoardState([self.everyone] * game.players)

    def on_board(self, game: Game, seat: int) -> bool:
        """Whether ``seat`` plays on the board."""
        return self.state(game).on_board[seat]

    # ------------------------------------------------------------------ declaring

    def _declare_problem(self, game: Game) -> tuple[str, str] | None:
        seat = game.to_move
        if not self.declarable:
            return "§9.13", "board play is not part of this game"
        if self.on_board(game, seat):
            return "§9.13", "you already play on the board"
        if game.opened[seat] or game.turn.new_formations or game.turn.exchanged:
            return "§9.13", "a player who has laid tiles cannot play on the board"
        if game.turns_taken[seat] > self.window:
            return "§9.13/A-62", f"board play is declared within your first {self.window} turns"
        return None

    def _verify_declare(self, game: Game, action: DeclareBoard) -> None:
        game.in_turn(action)
        if problem := self._declare_problem(game):
            raise game.fail(action, *problem)

    def _apply_declare(self, game: Game, action: DeclareBoard) -> None:
        self.writable(game).on_board[game.to_move] = True

    def actions_before_discards(self, game: Game, seat: int, out: list[Action]) -> None:
        if self._declare_problem(game) is None:
            out.append(_BOARD)

    # ------------------------------------------------------------------ closing

    def closes(self, game: Game, seat: int) -> Mapping[Face, Contract]:
        """The discards that leave ``seat`` a contract, with the contract each leaves."""
        return game.variant.board_closes(game.rack_faces(seat), game.options)

    def _verify_close(self, game: Game, action: CloseBoard) -> None:
        game.in_turn(action)
        seat = game.to_move
        rule = self.rule
        if not self.on_board(game, seat):
            raise game.fail(action, rule, "only a board player closes with a contract")
        if game.turn.acquired is None or (
            game.turn.acquired == "none" and not self.first_turn_may_close
        ):
            raise game.fail(action, rule, "take a tile first, then close")
        game.pick_discard(seat, action.face, action)  # it must be in the hand
        if len(game.racks[seat]) != CONTRACT_TILES + 1:
            raise game.fail(action, rule, "a board contract is 14 tiles plus the discard")
        if action.face not in self.closes(game, seat):
            raise game.fail(action, rule, "the other 14 tiles form no contract")

    def _apply_close(self, game: Game, action: CloseBoard) -> None:
        seat = game.to_move
        (piece,) = game.pick_discard(seat, action.face, action)
        contract = self.closes(game, seat)[action.face]
        game.racks[seat].remove(piece)
        game.column.append(piece)
        game.end_deal("board", seat, action.face, contract)

    def actions_after_discards(self, game: Game, seat: int, out: list[Action]) -> None:
        # where the first player may lay out on his first turn, a board player may
        # also finish then.
        if (
            self.on_board(game, seat)
            and len(game.racks[seat]) == CONTRACT_TILES + 1
            and (game.turn.acquired != "none" or self.first_turn_may_close)
        ):
            out.extend(CloseBoard(f) for f in sorted(self.closes(game, seat)))

    # ------------------------------------------------------------------ restrictions

    def table_play_problem(self, game: Game, seat: int) -> tuple[str, str] | None:
        if self.on_board(game, seat):
            return self.rule, "a board player never lays out, attaches or exchanges"
        return None

    def column_take_problem(self, game: Game, seat: int) -> tuple[str, str] | None:
        if self.on_board(game, seat):
            return "§9.13", "a board player takes only the last tile"
        return None

    def take_use_waived(self, game: Game, seat: int) -> bool:
        # §9.13: a board player keeps the last tile it took on its rack.
        return self.on_board(game, seat) and game.turn.acquired == "last"

    def take_use_alternative(self, game: Game) -> str:
        return " (or declare board play)" if self.declarable else ""

    # ------------------------------------------------------------------ views

    def view_fields(self, game: Game, seat: int) -> Mapping[str, Any]:
        return {"board": tuple(self.state(game).on_board)}

    def outcome_fields(self, game: Game, seat: int) -> Mapping[str, Any]:
        return {"board": self.on_board(game, seat)}
