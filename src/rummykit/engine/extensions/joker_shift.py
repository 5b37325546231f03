"""Joker shifting (Double Rummy, RULES §4.5).

Laying off the natural card a joker in a run stands for puts the card in the joker's
place; the joker is lifted and must be attached again at once: to a free end of the same
run, or, where the variant allows it (``PlayRules.joker_relocation``, §4.5/A-10) and the
run has no free end, to any other formation it fits.  It is never kept in the hand.

The lifted joker is this extension's state of the turn (``game.turn.extensions``): a
reset restores the turn as it was, and the next turn starts without one.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from rummykit.engine.actions import Action, Attach, ResetTurn
from rummykit.engine.extension import Extension, ExtensionState, register_extension
from rummykit.engine.table import Formation
from rummykit.model.melds import MeldKind
from rummykit.model.pieces import JOKER_KIND, Face

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["JokerShift", "lifted_joker"]

NAME = "joker_shift"
_RESET = ResetTurn()

_Shift = tuple[int, Attach, bool]
"""(natural kind a joker of a run stands for, its lay-off, whether the lifted joker could
go to a free end of the same run)."""


def lifted_joker(game: Game) -> tuple[int, int] | None:
    """(joker piece, the formation it was lifted from) while a lifted joker waits to be
    attached again this turn; else None."""
    lifted: tuple[int, int] | None = game.turn.extensions.get(NAME)
    return lifted


@register_extension
class JokerShift(Extension[ExtensionState]):
    """RULES §4.5: a natural laid off onto the joker standing for it lifts the joker."""

    name = NAME

    def __init__(self, game: Game) -> None:
        self.relocation = game.play.joker_relocation

    # ------------------------------------------------------------------ rules

    def _cite(self, game: Game) -> str:
        return game.play.cite("joker_shift", "§4.5")

    def _shifted_joker(self, game: Game, formation: Formation, face: Face) -> int | None:
        """The index of the joker in run ``formation`` that natural ``face`` replaces."""
        if formation.kind is not MeldKind.RUN or face.is_joker:
            return None
        for i, kind in enumerate(formation.kinds):
            if kind == JOKER_KIND and formation.represented(game.pieces, i) == face:
                return i
        return None

    def _joker_moves(self, game: Game, source: Formation) -> list[Attach]:
        """§4.5/A-10: where a joker lifted from ``source`` may go: a free end of the same
        run, or else (a complete run) any other formation it fits."""
        moves = list(game.joker_attaches(source))
        if moves or not self.relocation:
            return moves
        for formation in game.table:
            if formation.id != source.id:
                moves.extend(game.joker_attaches(formation))
        return moves

    # ------------------------------------------------------------------ hooks

    def verify_turn_action(self, game: Game, action: Action) -> None:
        lifted = game.turn.extensions.get(NAME)
        if lifted is None:
            return
        source_id = lifted[1]
        if type(action) is ResetTurn:
            return
        if type(action) is not Attach:
            raise game.fail(
                action, self._cite(game), f"first attach the joker lifted from m{source_id}"
            )
        # The lay-off's own checks first, in the core's order (the same errors first).
        game.verify_table_action(action)
        game.pick(game.to_move, (action.face,), action)
        formation = game.formation(action, action.target)
        source = game.table[source_id - 1]
        targets = {a.target for a in self._joker_moves(game, source)}
        if not action.face.is_joker:
            raise game.fail(
                action, self._cite(game), f"first attach the joker lifted from m{source.id}"
            )
        if formation.id not in targets:
            where = "a free end of that run" if source.id in targets else "another formation"
            raise game.fail(
                action, self._cite(game), f"the joker lifted from m{source.id} goes to {where}"
            )
        if game.attach_slot(formation, action.face, action.declared) is None:
            raise game.fail(
                action,
                self._cite(game),
                f"the joker does not fit {formation.notation(game.pieces)} there",
            )

    def turn_actions(self, game: Game, seat: int) -> list[Action] | None:
        lifted = game.turn.extensions.get(NAME)
        if lifted is None:
            return None
        # The lifted joker goes back on the table before anything else.
        out: list[Action] = list(self._joker_moves(game, game.table[lifted[1] - 1]))
        out.append(_RESET)
        return out

    def turn_commit_problem(self, game: Game, seat: int) -> tuple[str, str] | None:
        if NAME in game.turn.extensions:
            return self._cite(game), "attach the lifted joker first"
        return None

    def obliged_pieces(self, game: Game, seat: int) -> Collection[int]:
        lifted = game.turn.extensions.get(NAME)
        return () if lifted is None else (lifted[0],)

    def verify_misfit_attach(
        self, game: Game, action: Attach, piece: int, formation: Formation
    ) -> bool:
        index = self._shifted_joker(game, formation, action.face)
        if index is None:
            return False
        lifted = formation.replacing(formation.pieces[index], piece, action.face.kind)
        if not self._joker_moves(game, lifted):
            raise game.fail(
                action,
                game.play.cite("joker_relocation", "§4.5/A-10"),
                f"the joker that {action.face} replaces in "
                f"{formation.notation(game.pieces)} has nowhere to go on the table",
            )
        return True  # the lifted joker comes back to the rack: one piece still stays

    def apply_misfit_attach(
        self, game: Game, action: Attach, piece: int, formation: Formation
    ) -> bool:
        index = self._shifted_joker(game, formation, action.face)
        if index is None:
            return False
        # The card takes the joker's place; the joker is lifted, to be attached again
        # by the next action.
        seat = game.to_move
        joker = formation.pieces[index]
        game.table[action.target - 1] = formation.replacing(joker, piece, action.face.kind)
        game.place(seat, [piece], new_formation=False)
        game.racks[seat].append(joker)
        game.racks[seat].sort()
        game.turn.extensions[NAME] = (joker, formation.id)
        return True

    def attached(self, game: Game, seat: int, action: Attach) -> None:
        game.turn.extensions.pop(NAME, None)

    def formation_data(self, game: Game, formation: Formation) -> tuple[_Shift, ...]:
        if formation.kind is not MeldKind.RUN:
            return ()
        out: list[_Shift] = []
        for i, kind in enumerate(formation.kinds):
            if kind != JOKER_KIND:
                continue
            stands_for = formation.represented(game.pieces, i)
            assert stands_for is not None
            natural = stands_for.kind
            # What the lifted joker could do depends on the run without it, not on
            # which copy of the natural replaces it.
            lifted = formation.replacing(formation.pieces[i], formation.pieces[i], natural)
            stays_on_run = bool(game.joker_attaches(lifted))
            out.append((natural, Attach(game.kind_faces[natural], formation.id), stays_on_run))
        return tuple(out)

    def formation_attaches(
        self,
        game: Game,
        seat: int,
        formation: Formation,
        data: tuple[_Shift, ...],
        counts: tuple[int, ...],
        out: list[Action],
    ) -> None:
        relocation = self.relocation
        for kind, action, stays_on_run in data:
            if not counts[kind]:
                continue
            # The lifted joker must have somewhere to go (see _joker_moves).
            if stays_on_run or (
                relocation
                and any(game.joker_attaches(f) for f in game.table if f.id != action.target)
            ):
                out.append(action)
