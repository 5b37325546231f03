"""The turn: what it has done so far, its snapshot for a reset, and its obligations
(which rack piece an action uses, and whether the turn may be committed)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from rummykit.engine.actions import Action, Attach, Meld
from rummykit.engine.core import GameFields
from rummykit.engine.table import Formation
from rummykit.model.melds import MeldKind
from rummykit.model.pieces import Face
from rummykit.rules.variant import OpeningStructure, TakeUse

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from rummykit.engine.game import Game

__all__ = ["Snapshot", "Turn", "TurnChecks", "restore_snapshot", "take_snapshot"]

_T = TypeVar("_T", bound="DataclassInstance")


def _copy_of(expression: str, annotation: object) -> str:
    """Source text copying ``expression``, a field declared as ``annotation``: a list is
    sliced (the fastest copy), a set, dict or other container copied by ``copy()``."""
    kind = str(annotation).split("[")[0]
    return f"{expression}[:]" if kind == "list" else f"{expression}.copy()"


def _compiled(source: str, namespace: dict[str, Any]) -> Any:
    exec(source, namespace)  # the source is built from dataclass fields only
    return namespace[source.split("(")[0].removeprefix("def ")]


def _copier(cls: type[_T]) -> Callable[[_T], _T]:
    """A copy function for the slots dataclass ``cls``, generated from its fields so that
    none is forgotten (and as fast as one written out): a field with a
    ``default_factory`` (a list, set or dict of immutable values) is copied, any other
    is shared (immutable)."""
    args = ", ".join(
        _copy_of(f"self.{f.name}", f.type) if f.default_factory is not MISSING else f"self.{f.name}"
        for f in fields(cls)
    )
    copy: Callable[[_T], _T] = _compiled(f"def copy(self):\n    return cls({args})\n", {"cls": cls})
    return copy


@dataclass(slots=True)
class Turn:
    """What the current turn has done so far (for commit checks and reset).

    Every field holds an immutable value or a list, set or dict of immutable values (with
    a ``default_factory``): :meth:`copy` is generated from the fields.
    """

    acquired: str | None = None
    """``draw``, ``last``, ``middle``, or ``none`` for the discard-only first turn."""
    start_rack: int = 0
    must_use: list[int] = field(default_factory=list)
    pending_jokers: list[int] = field(default_factory=list)
    new_formations: list[int] = field(default_factory=list)
    laid: list[tuple[MeldKind, int]] = field(default_factory=list)
    """(kind, rank of a set / 0) of each formation laid this turn."""
    laid_points: int = 0
    exchanged: bool = False
    attached: bool = False
    dirty: bool = False
    gained: int = -1
    """The piece drawn or taken this turn (-1: none yet)."""
    extensions: dict[str, Any] = field(default_factory=dict)
    """Each extension's state of this turn, under its name, while it has one: an
    immutable value (replaced, never changed in place), copied with the turn and
    restored by a reset; the next turn starts without it (e.g. ``joker_shift``'s lifted
    joker, RULES §4.5)."""

    copy: ClassVar[Callable[[Turn], Turn]]
    """An independent copy (every container copied)."""


Turn.copy = _copier(Turn)


@dataclass(slots=True)
class Snapshot:
    """What a reset restores: the seat to move's rack, and the game's fields of the
    other names, as they were before the turn's first change (:func:`take_snapshot` and
    :func:`restore_snapshot` are generated from these fields: a field added here is
    saved and restored without being listed anywhere else)."""

    rack: list[int]
    column: list[int]
    table: list[Formation]
    credit: list[int]
    locked: set[int]
    turn: Turn


_SAVED = [f for f in fields(Snapshot) if f.name != "rack"]
take_snapshot: Callable[[GameFields], Snapshot] = _compiled(
    "def take_snapshot(game):\n    return Snapshot(game.racks[game.to_move][:], "
    + ", ".join(_copy_of(f"game.{f.name}", f.type) for f in _SAVED)
    + ")\n",
    {"Snapshot": Snapshot},
)
"""The snapshot of ``game``'s turn now."""
restore_snapshot: Callable[[GameFields, Snapshot], None] = _compiled(
    "def restore_snapshot(game, snap):\n    game.racks[game.to_move] = snap.rack[:]\n"
    + "".join(f"    game.{f.name} = {_copy_of(f'snap.{f.name}', f.type)}\n" for f in _SAVED),
    {},
)
"""Put ``game``'s turn back as the snapshot saw it (the snapshot stays unchanged)."""


class TurnChecks(GameFields):
    """The turn's obligations: the piece choice and the commit checks (a part of
    :class:`~rummykit.engine.game.Game`)."""

    def obliged_pieces(self, seat: int) -> list[int]:
        """Pieces on ``seat``'s rack that the variant's extensions oblige it to lay on the
        table this turn (e.g. a lifted joker, RULES §4.5)."""
        out: list[int] = []
        if self.turn.extensions:
            for ext in self._obliged_hooks:
                out.extend(ext.obliged_pieces(cast("Game", self), seat))
        return out

    def new_formation_pieces(self) -> set[int]:
        """The pieces of the formations laid this turn."""
        table = self.table
        return {p for fid in self.turn.new_formations for p in table[fid - 1].pieces}

    def pick(self, seat: int, faces: Sequence[Face], action: Action) -> list[int]:
        """Rack pieces showing ``faces``, choosing among identical copies so that the
        turn's obligations are met whenever the copies allow it.

        A freed joker is used by any placement, so it goes first.  A taken column
        tile counts only in a new formation (unless ``column_take_allow_attach``),
        so a new formation takes it first and an attachment or exchange last.
        """
        rack = self.racks[seat]
        piece_faces = self.faces
        is_meld = isinstance(action, Meld)
        layoff_counts = isinstance(action, Attach) and (
            self.play.taken_piece_may_attach
            or (self.play.take_use is TakeUse.ON_TABLE and self.opened[seat])
        )
        preferred: set[int] = set()
        avoided: set[int] = set()
        # A freed joker is used by a new formation, and by any placement where the
        # variant counts that; otherwise a lay-off takes another copy first.
        if is_meld or self.play.exchanged_joker_use == "formation":
            preferred.update(self.turn.pending_jokers)
        else:
            avoided.update(self.turn.pending_jokers)
        if is_meld or layoff_counts:
            preferred.update(self.turn.must_use)
        else:
            avoided.update(self.turn.must_use)
        if self.turn.extensions:
            game = cast("Game", self)
            for ext in self._obliged_hooks:
                preferred.update(ext.obliged_pieces(game, seat))
            for ext in self._formation_piece_hooks:
                (preferred if is_meld else avoided).update(ext.formation_pieces(game, seat))
        chosen: list[int] = []
        for face in faces:
            kind = face.kind
            options = [p for p in rack if piece_faces[p].kind == kind and p not in chosen]
            if not options:
                raise self.fail(action, "§2.3", f"{face} is not on your rack")
            if len(options) > 1:
                options.sort(key=lambda p: (p not in preferred, p in avoided, p))
            chosen.append(options[0])
        return chosen

    def commit_problem(self, going_out: bool = False) -> tuple[str, str] | None:
        """Why the turn cannot be committed now (rule, reason), or None.

        ``going_out``: the commit leaves the rack empty (a discard of the last piece,
        or the last meld or lay-off where no discard is needed).
        """
        seat = self.to_move
        turn = self.turn
        play = self.play
        if turn.acquired is None:
            return self.play.cite("acquire", "§2.3"), "draw or take a piece first"
        if turn.extensions:
            for ext in self._commit_hooks:
                if problem := ext.turn_commit_problem(cast("Game", self), seat):
                    return problem
        # §5.6: a "Hand" (everything in one turn) is free of the opening rule and of
        # the duty to meld a taken discard.
        hand = going_out and not self.has_laid[seat] and play.hand_waives_opening
        if turn.must_use and not hand and (problem := self._take_problem()):
            return problem
        if turn.pending_jokers:
            return self.play.cite("exchange_use", "§2.1(8)"), (
                "the exchanged joker must be used in a formation this turn"
            )
        if not self.opened[seat] and not hand:
            if turn.new_formations and (problem := self._opening_problem()):
                return problem
            if turn.attached and not (
                play.layoff_before_opening or (play.layoff_on_opening_turn and turn.new_formations)
            ):
                return self.play.cite("layoff_unopened", "§2.1(7)"), (
                    "laying off before opening is allowed only in a Hand"
                )
            if turn.exchanged and not turn.new_formations and play.exchange_needs_opened_by_end:
                return (
                    "§9.10/A-55",
                    "a joker exchange needs you to be opened by the end of the turn",
                )
        return None

    def _take_problem(self) -> tuple[str, str] | None:
        seat = self.to_move
        turn = self.turn
        use = self.play.take_use
        if use is TakeUse.NONE:
            return None
        opened_before = self.opened[seat]
        if use is TakeUse.NEW_FORMATION_IF_UNOPENED and opened_before:
            return None
        on_new = self.new_formation_pieces()
        for p in turn.must_use:
            if p in on_new or any(
                e.take_use_waived(cast("Game", self), seat) for e in self._take_use_hooks
            ):
                continue
            if use is TakeUse.ON_TABLE and opened_before and self.credit[p] >= 0:
                continue
            where = "on the table" if use is TakeUse.ON_TABLE else "in a new formation"
            return (
                self.play.cite("take_use", "§2.3"),
                f"the taken piece {self.faces[p]} must be used {where} this turn"
                + "".join(e.take_use_alternative(cast("Game", self)) for e in self.extensions),
            )
        return None

    def _opening_problem(self) -> tuple[str, str] | None:
        turn = self.turn
        minimum = self.play.opening_min_points
        if turn.laid_points < minimum:
            return self.play.cite("opening", "§2.3"), (
                f"an opening needs {minimum} points, these make {turn.laid_points}"
            )
        structure = self.play.opening_structure
        has_run = any(k is MeldKind.RUN for k, _ in turn.laid)
        has_set = any(k is MeldKind.SET for k, _ in turn.laid)
        if (
            structure is OpeningStructure.RUN_OR_ONES_SET
            and not has_run
            and not (len(turn.laid) == 1 and turn.laid[0] == (MeldKind.SET, 1))
        ):
            return (
                "§9.8/A-46",
                "an opening needs a run, or else a single set of 1s and nothing more",
            )
        if structure is OpeningStructure.RUN_AND_SET and not (has_run and has_set):
            return "§9.8/§10.5/A-45", "an opening needs a run and a set"
        if structure is OpeningStructure.RUN and not has_run:
            return "§5.5", "an opening needs a run"
        return None

    def pick_discard(self, seat: int, face: Face, action: Action) -> list[int]:
        # Discard a piece without obligations when there is a choice.
        kind = face.kind
        faces = self.faces
        options = [p for p in self.racks[seat] if faces[p].kind == kind]
        if not options:
            raise self.fail(action, "§2.3", f"{face} is not on your rack")
        turn = self.turn
        if len(options) == 1:
            return options
        if not (turn.must_use or turn.pending_jokers or turn.extensions):
            return [min(options)]
        obligated = set(turn.must_use) | set(turn.pending_jokers)
        if turn.extensions:
            obligated.update(self.obliged_pieces(seat))
            for ext in self._formation_piece_hooks:
                obligated.update(ext.formation_pieces(cast("Game", self), seat))
        options.sort(key=lambda p: (p in obligated, p))
        return [options[0]]
