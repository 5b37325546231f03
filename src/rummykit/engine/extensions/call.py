"""The stop call (RULES §6.6, A-21, A-24): right after drawing a player may stop the deal
with "Remi!" and show his hand, closing face down if all his other cards lie in melds;
with the A-24 alternative the seats then lay out their own melds, caller first.

Vienna plays it; a variant names it ``"call"`` in ``PlayRules.extensions``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from rummykit.engine.actions import Action, CallRemi, Meld, Ready
from rummykit.engine.extension import (
    Extension,
    ExtensionState,
    register_extension,
    state_of,
)
from rummykit.engine.game import Phase
from rummykit.model.pieces import Face
from rummykit.rules.variant import ShownHand

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["Call", "CallState", "call_state"]

_REMI = CallRemi()
_READY = Ready()


@dataclass(slots=True)
class CallState(ExtensionState):
    """A call of this deal and its showdown."""

    face_down: int | None = None
    """A closing card discarded face down (§6.6): hidden from the other seats."""
    face_down_seat: int = -1
    """The seat that closed face down (the only one that sees the card)."""
    queue: list[int] = field(default_factory=list)
    """Seats still to lay out their hands after a call, the one to move first."""
    call: tuple[int, Face | None] | None = None
    """(caller, closing face) of a call whose showdown is under way."""


def call_state(game: Game, *, writable: bool = False) -> CallState | None:
    """The call state of ``game``'s deal, or None if its variant has no stop call."""
    return state_of(game, Call.name, CallState, writable=writable)


@register_extension
class Call(Extension[CallState]):
    """RULES §6.6: "Remi!" right after the draw ends the deal; with a closing card that
    leaves every other card in melds, the card goes on the pile face down."""

    name = "call"
    phases = (Phase.SHOWDOWN.value,)
    handlers: ClassVar[Mapping[type[Action], tuple[str, str]]] = {
        CallRemi: ("_verify_call", "_apply_call"),
    }
    phase_handlers: ClassVar[Mapping[str, tuple[str, str]]] = {
        Phase.SHOWDOWN.value: ("_verify_show", "_apply_show"),
    }

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.drawn_only = game.play.close_drawn_only
        self.players_arrange = game.play.players_arrange

    def new_state(self, game: Game) -> CallState:
        return CallState()

    def shown_hands(self, game: Game, rack_values: list[int]) -> list[ShownHand] | None:
        if not self.players_arrange:
            return None
        # A-24 alternative: the melds each seat laid out, and the rest of its hand.
        faces = game.faces
        return [
            ShownHand(
                melds=tuple(tuple(faces[p] for p in f.pieces) for f in game.table if f.owner == s),
                deadwood=tuple(sorted(game.rack_faces(s))),
                points=rack_values[s],
            )
            for s in range(game.players)
        ]

    def hidden_discard(self, game: Game) -> tuple[int | None, int]:
        state = self.state(game)
        return state.face_down, state.face_down_seat

    # ------------------------------------------------------------------ the call

    def closes(self, game: Game, seat: int) -> frozenset[Face]:
        """The cards ``seat`` may close with: each leaves the rest of the hand in melds."""
        closes = game.variant.closing_discards(game.rack_faces(seat), game.options)
        if self.drawn_only:
            return closes & {game.faces[game.turn.gained]}
        return closes

    def actions_after_discards(self, game: Game, seat: int, out: list[Action]) -> None:
        if game.turn.acquired != "none":
            out.append(_REMI)
            out.extend(CallRemi(f) for f in sorted(self.closes(game, seat)))

    def _verify_call(self, game: Game, action: CallRemi) -> None:
        game.in_turn(action)
        seat = game.to_move
        rule = game.play.cite("call", "§6.6")
        if game.turn.acquired is None or game.turn.acquired == "none":
            raise game.fail(action, rule, "'Remi!' is called right after drawing")
        if action.face is None:
            return
        game.pick_discard(seat, action.face, action)  # it must be in the hand
        if self.drawn_only and game.faces[game.turn.gained] != action.face:
            raise game.fail(
                action, game.play.cite("close_card", rule), "only the card drawn may close"
            )
        if action.face not in self.closes(game, seat):
            raise game.fail(action, rule, "the other cards do not all lie in melds")

    def _apply_call(self, game: Game, action: CallRemi) -> None:
        seat = game.to_move
        state = self.writable(game)
        game.commit_turn(seat)
        if action.face is not None:
            (piece,) = game.pick_discard(seat, action.face, action)
            game.racks[seat].remove(piece)
            # RULES §6.6: the closing card goes on the pile face down.
            game.column.append(piece)
            state.face_down = piece
            state.face_down_seat = seat
        if not self.players_arrange:
            if action.face is None:
                game.end_deal("call", seat, None, None)
            else:
                game.end_deal("close", seat, action.face, None, face_down=True)
            return
        # A-24 alternative: the caller, then each opponent in play order, lays out his own
        # melds.  A closer's ten cards are all melded by rule: they are laid out for him.
        state.call = (seat, action.face)
        order = [(seat + k) % game.players for k in range(game.players)]
        if action.face is not None and game.variant.arrange_hand is not None:
            for meld in game.variant.arrange_hand(game.rack_faces(seat), game.options).melds:
                game.lay_out(seat, Meld(meld, (None,) * len(meld)))
            order.remove(seat)
        state.queue = order
        game.phase = Phase.SHOWDOWN
        game.to_move = order[0]

    # ------------------------------------------------------------------ the showdown

    def _verify_show(self, game: Game, action: Action) -> None:
        rule = game.play.cite("call", "§6.6")
        if isinstance(action, Ready):
            return
        if not isinstance(action, Meld):
            raise game.fail(action, rule, "at the showdown lay out melds, then 'ready'")
        game.verify_meld_pieces(action)

    def _apply_show(self, game: Game, action: Action) -> None:
        if isinstance(action, Meld):
            game.lay_out(game.to_move, action)
            return
        state = self.writable(game)
        state.queue.pop(0)
        if state.queue:
            game.to_move = state.queue[0]
            return
        assert state.call is not None
        caller, face = state.call
        state.call = None
        if face is None:
            game.end_deal("call", caller, None, None)
        else:
            game.end_deal("close", caller, face, None, face_down=True)

    def candidates(self, game: Game) -> Iterator[Action]:
        yield from game.rack_melds(game.to_move)
        yield _READY
