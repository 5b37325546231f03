"""Gin Rummy's turn (docs/rules/gin.md): the first up-card offer, draw or take and
discard, the knock, the knocker's melds, the defender's lay-offs and melds, and the
wall, exactly as OpenSpiel's ``gin_rummy`` plays them.

The extension holds the game in the core's ``turns`` phase for the offer, the turns and
the wall, and in ``showdown`` from the knock on; every action in those phases is its
own.  Its three actions (``pass``, ``knock``, ``layoff X``) are declared here, as
:class:`~rummykit.engine.actions.ExtensionAction` subclasses.  The card arithmetic
(deadwood, the melds a knocker may lay, the lay-offs) is the rules layer's
(:mod:`rummykit.rules.gin`).

Gin Rummy plays it; a variant names it ``"gin"`` in ``PlayRules.extensions``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from rummykit.engine.actions import (
    Action,
    Discard,
    Draw,
    ExtensionAction,
    Meld,
    Proof,
    Ready,
    TakeColumn,
    register_action,
)
from rummykit.engine.extension import (
    Extension,
    ExtensionState,
    register_extension,
    state_of,
)
from rummykit.engine.game import Phase
from rummykit.model.melds import MeldKind
from rummykit.model.pieces import JOKER_KIND, Face, Material, NotationError
from rummykit.rules.gin import (
    MAX_DEADWOOD,
    MAX_UPCARD_DRAWS,
    WALL_SIZE,
    card_value,
    knock_deadwood,
    knock_discards,
    knock_limit,
    knock_melds,
    layoff_kinds,
)

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["Gin", "GinState", "Knock", "LayOff", "Pass", "Step", "gin_state"]


# ------------------------------------------------------------------ actions


@register_action
@dataclass(frozen=True, slots=True)
class Pass(ExtensionAction):
    """Decline the up-card offered before the first draw, or end the deal at the wall
    (§G.2, §6)."""

    verb: ClassVar[str] = "pass"

    def proves(self) -> Proof:
        """Nothing: no card moves."""
        return Proof()

    def __str__(self) -> str:
        return "pass"

    @classmethod
    def parse(cls, rest: str, material: Material) -> Pass:
        if rest:
            raise NotationError(f"'pass {rest}': pass takes nothing")
        return _PASS

    @classmethod
    def catalogue(cls, faces: tuple[Face, ...]) -> tuple[ExtensionAction, ...]:
        return (_PASS,)


@register_action
@dataclass(frozen=True, slots=True)
class Knock(ExtensionAction):
    """End play with at most the knock card in deadwood: a discard and the melds follow
    (§G.4); at the wall, the up-card is taken first (§G.6)."""

    verb: ClassVar[str] = "knock"

    def proves(self) -> Proof:
        """Nothing named: the deadwood is only bounded (the melds and discard follow)."""
        return Proof()

    def __str__(self) -> str:
        return "knock"

    @classmethod
    def parse(cls, rest: str, material: Material) -> Knock:
        if rest:
            raise NotationError(f"'knock {rest}': knock takes nothing (discard next)")
        return _KNOCK

    @classmethod
    def catalogue(cls, faces: tuple[Face, ...]) -> tuple[ExtensionAction, ...]:
        return (_KNOCK,)


@register_action
@dataclass(frozen=True, slots=True)
class LayOff(ExtensionAction):
    """The defender lays ``face`` off onto the knocker's melds (§G.5)."""

    face: Face
    verb: ClassVar[str] = "layoff"

    def proves(self) -> Proof:
        """The card was held and goes onto the table (§G.5)."""
        return Proof(lays=(self.face,))

    def __str__(self) -> str:
        return f"layoff {self.face}"

    @classmethod
    def parse(cls, rest: str, material: Material) -> LayOff:
        if not rest:
            raise NotationError("layoff needs a card, e.g. 'layoff 7S'")
        return LayOff(Face.parse(rest, material))

    @classmethod
    def catalogue(cls, faces: tuple[Face, ...]) -> tuple[ExtensionAction, ...]:
        return tuple(LayOff(f) for f in faces if f.kind != JOKER_KIND)


_PASS = Pass()
_KNOCK = Knock()
_DRAW = Draw()
_READY = Ready()


# ------------------------------------------------------------------ state


class Step(StrEnum):
    """Where a gin deal is (:attr:`GinState.step`)."""

    OFFER = "offer"
    """§G.2: the first up-card is offered to the non-dealer, then the dealer."""
    DRAW = "draw"
    """§G.2: draw from the stock or take the up-card."""
    DISCARD = "discard"
    """§G.2, §4: discard, or knock."""
    WALL = "wall"
    """§G.6: two stock cards left: knock with the up-card, or pass (a draw)."""
    KNOCK_DISCARD = "knock_discard"
    """§G.5: the knocker discards."""
    KNOCK_MELDS = "knock_melds"
    """§G.5: the knocker lays his melds, then says ready."""
    LAYOFF = "layoff"
    """§G.5: the defender lays off onto the knocker's melds, then says ready."""
    DEFENDER_MELDS = "defender_melds"
    """§G.5: the defender lays his own melds, then says ready."""


@dataclass(slots=True)
class GinState(ExtensionState):
    """This deal's gin state."""

    limit: int
    """The knock card: the most deadwood a knocker keeps (§G.4)."""
    step: Step = Step.OFFER
    passed: list[bool] = field(default_factory=lambda: [False, False])
    """Per seat: passed on the first up-card (§G.2)."""
    knocker: int = -1
    knocker_melds: list[tuple[int, ...]] = field(default_factory=list)
    """The knocker's melds as laid, by face kind (§G.5)."""
    layoffs: list[int] = field(default_factory=list)
    """Face kinds laid off so far (§G.5)."""
    previous_upcard: int = -1
    """The up-card at the last draw or take (face kind; -1: none yet), for §G.7."""
    repeated: bool = False
    """The last discard was the up-card just taken (§G.7)."""
    upcard_takes: int = 0
    """Takes of the up-card after the first offer (§G.7)."""


def gin_state(game: Game, *, writable: bool = False) -> GinState | None:
    """The gin state of ``game``'s deal, or None if its variant is not gin."""
    return state_of(game, Gin.name, GinState, writable=writable)


def _kinds(game: Game, seat: int) -> list[int]:
    faces = game.faces
    return [faces[p].kind for p in game.racks[seat]]


_TURNS = Phase.TURNS.value
_SHOWDOWN = Phase.SHOWDOWN.value


@register_extension
class Gin(Extension[GinState]):
    """§G.2-§G.7: every action of a gin deal, from the up-card offer to the defender's
    last meld."""

    name = "gin"
    phases = (_TURNS, _SHOWDOWN)
    handlers: ClassVar[Mapping[type[Action], tuple[str, str]]] = {
        Pass: ("_verify", "_apply"),
        Knock: ("_verify", "_apply"),
        LayOff: ("_verify", "_apply"),
    }
    phase_handlers: ClassVar[Mapping[str, tuple[str, str]]] = {
        _TURNS: ("_verify", "_apply"),
        _SHOWDOWN: ("_verify", "_apply"),
    }

    def new_state(self, game: Game) -> GinState:
        upcard = game.faces[game.column[-1]].kind if game.column else None
        return GinState(limit=knock_limit(upcard, game.options))

    # ------------------------------------------------------------------ legal actions

    def candidates(self, game: Game) -> Iterator[Action]:
        yield from self._legal(game)

    def legal(self, game: Game) -> list[Action] | None:
        # The list is built from the rules themselves: verifying each entry would build
        # it again once per entry.
        return self._legal(game)

    def _legal(self, game: Game) -> list[Action]:
        """The legal actions of the seat to move, in a stable order."""
        state = self.state(game)
        seat = game.to_move
        step = state.step
        if step == Step.OFFER:
            if all(state.passed):
                return [_DRAW]
            return [self._take(game), _PASS]
        if step == Step.DRAW:
            return [_DRAW, self._take(game)]
        if step == Step.DISCARD:
            kinds = _kinds(game, seat)
            out: list[Action] = [Discard(game.kind_faces[k]) for k in sorted(set(kinds))]
            if knock_deadwood(kinds) <= state.limit:
                out.append(_KNOCK)
            return out
        if step == Step.WALL:
            kinds = [*_kinds(game, seat), game.faces[game.column[-1]].kind]
            return [_PASS, _KNOCK] if knock_deadwood(kinds) <= state.limit else [_PASS]
        if step == Step.KNOCK_DISCARD:
            return [
                Discard(game.kind_faces[k]) for k in knock_discards(_kinds(game, seat), state.limit)
            ]
        if step == Step.KNOCK_MELDS:
            kinds = _kinds(game, seat)
            out = self._melds(game, seat, state.limit)
            if sum(map(card_value, kinds)) <= state.limit:
                out.append(_READY)
            return out
        if step == Step.LAYOFF:
            fits = layoff_kinds(state.knocker_melds, state.layoffs)
            held = sorted({k for k in _kinds(game, seat) if k in fits})
            return [*(LayOff(game.kind_faces[k]) for k in held), _READY]
        if step == Step.DEFENDER_MELDS:
            return [*self._melds(game, seat, MAX_DEADWOOD), _READY]
        return []

    def _take(self, game: Game) -> TakeColumn:
        return TakeColumn(len(game.column) - 1)

    def _melds(self, game: Game, seat: int, limit: int) -> list[Action]:
        """§G.5: the melds ``seat`` may lay now, as the engine writes melds."""
        allowed = set(knock_melds(_kinds(game, seat), limit))
        return [
            m for m in game.rack_melds(seat) if tuple(sorted(f.kind for f in m.faces)) in allowed
        ]

    # ------------------------------------------------------------------ verify

    def _verify(self, game: Game, action: Action) -> None:
        phase = str(game.phase)
        if phase not in self.phase_handlers:
            raise game.fail(action, "§G.2", f"no turn is being played ({phase})")
        legal = self._legal(game)
        if isinstance(action, Meld):
            # A meld may name its cards in any order.
            key = (tuple(sorted(f.kind for f in action.faces)), set(action.declared))
            if len(action.faces) == len(action.declared) and any(
                isinstance(m, Meld) and (tuple(sorted(f.kind for f in m.faces)), {None}) == key
                for m in legal
            ):
                return
        elif action in legal:
            return
        raise game.fail(action, *self._why(game, action))

    def _why(self, game: Game, action: Action) -> tuple[str, str]:
        """(rule, reason) an action that is not legal now breaks."""
        state = self.state(game)
        step = state.step
        seat = game.to_move
        if isinstance(action, Knock) and step in (Step.DISCARD, Step.WALL):
            kinds = _kinds(game, seat)
            if step == Step.WALL:
                kinds.append(game.faces[game.column[-1]].kind)
            return "§G.4", (
                f"a knock needs deadwood of at most {state.limit}, "
                f"this hand keeps {knock_deadwood(kinds)}"
            )
        if isinstance(action, Discard | LayOff) and action.face.kind not in _kinds(game, seat):
            return "§G.2", f"{action.face} is not in your hand"
        if step == Step.KNOCK_DISCARD and isinstance(action, Discard):
            return "§G.5", (
                f"after discarding {action.face} the deadwood would exceed {state.limit}"
            )
        if step == Step.KNOCK_MELDS:
            if isinstance(action, Ready):
                return "§G.5", f"lay melds until at most {state.limit} deadwood is left"
            return "§G.5", f"melds that leave at most {state.limit} deadwood: {action} is not one"
        if step == Step.LAYOFF and isinstance(action, LayOff):
            return "§G.5", f"{action.face} does not fit the knocker's melds"
        if step == Step.LAYOFF and state.knocker_melds and isinstance(action, Meld):
            return "§G.5", "lay off first, then say ready and lay your melds"
        if isinstance(action, TakeColumn) and step in (Step.OFFER, Step.DRAW):
            return "§G.2", "only the up-card may be taken"
        return "§G.2", f"{action} is not allowed now (step: {step.replace('_', ' ')})"

    # ------------------------------------------------------------------ apply

    def _apply(self, game: Game, action: Action) -> None:
        state = self.writable(game)
        seat = game.to_move
        step = state.step
        if step == Step.OFFER:
            if isinstance(action, Pass):
                state.passed[seat] = True
                game.to_move = 1 - seat
                return
            self._acquire(game, state, seat, action)
        elif step == Step.DRAW:
            if isinstance(action, TakeColumn):
                # §G.7: the 50th take of the up-card ends the deal, a draw.
                state.upcard_takes += 1
                if state.upcard_takes == MAX_UPCARD_DRAWS:
                    game.end_deal("void", None, None, None)
                    return
            self._acquire(game, state, seat, action)
        elif step == Step.DISCARD:
            if isinstance(action, Knock):
                self._knock(game, state, seat)
                return
            assert isinstance(action, Discard)
            self._discard(game, seat, action.face)
            # §G.7: two discards in a row of the up-card just taken end the deal.
            if action.face.kind == state.previous_upcard:
                if state.repeated:
                    game.end_deal("void", None, None, None)
                    return
                state.repeated = True
            else:
                state.repeated = False
            game.to_move = 1 - seat
            # §G.6: with only the wall left, the next player knocks or passes.
            state.step = Step.WALL if len(game.stock) == WALL_SIZE else Step.DRAW
            self._start_turn(game, game.to_move)
        elif step == Step.WALL:
            if isinstance(action, Pass):
                game.end_deal("exhaustion", None, None, None)
                return
            piece = game.column.pop()
            game.racks[seat].append(piece)
            game.racks[seat].sort()
            self._knock(game, state, seat)
        elif step == Step.KNOCK_DISCARD:
            assert isinstance(action, Discard)
            self._discard(game, seat, action.face)
            state.step = Step.KNOCK_MELDS
        elif step in (Step.KNOCK_MELDS, Step.DEFENDER_MELDS):
            if isinstance(action, Meld):
                game.lay_out(seat, action)
                if step == Step.KNOCK_MELDS:
                    state.knocker_melds.append(tuple(sorted(f.kind for f in action.faces)))
                return
            if step == Step.DEFENDER_MELDS:
                game.end_deal("knock", state.knocker, None, None)
                return
            game.to_move = 1 - seat
            # §G.5: nothing is laid off onto gin.
            state.step = Step.LAYOFF if game.racks[seat] else Step.DEFENDER_MELDS
        elif step == Step.LAYOFF:
            if isinstance(action, LayOff):
                self._lay_off(game, state, seat, action.face)
                return
            state.step = Step.DEFENDER_MELDS

    def _start_turn(self, game: Game, seat: int) -> None:
        game.turns_taken[seat] += 1
        game.turn_number += 1

    def _acquire(self, game: Game, state: GinState, seat: int, action: Action) -> None:
        """§G.2: the up-card or the top of the stock comes into ``seat``'s hand."""
        state.previous_upcard = game.faces[game.column[-1]].kind if game.column else -1
        piece = game.column.pop() if isinstance(action, TakeColumn) else game.stock.pop()
        game.racks[seat].append(piece)
        game.racks[seat].sort()
        state.step = Step.DISCARD

    def _discard(self, game: Game, seat: int, face: Face) -> None:
        (piece,) = game.pick_discard(seat, face, Discard(face))
        game.racks[seat].remove(piece)
        game.column.append(piece)

    def _knock(self, game: Game, state: GinState, seat: int) -> None:
        state.knocker = seat
        state.step = Step.KNOCK_DISCARD
        game.phase = Phase.SHOWDOWN

    def _lay_off(self, game: Game, state: GinState, seat: int, face: Face) -> None:
        """§G.5: ``face`` goes onto a knocker's meld it extends: a run's end if it
        touches one, else the set of its rank."""
        (piece,) = game.pick(seat, (face,), LayOff(face))
        state.layoffs.append(face.kind)
        runs = [f for f in game.table if f.owner == state.knocker and f.kind is MeldKind.RUN]
        sets = [f for f in game.table if f.owner == state.knocker and f.kind is MeldKind.SET]
        for formation in runs:
            if face.suit_index != formation.suit:
                continue
            for position in (formation.positions[0] - 1, formation.positions[-1] + 1):
                if position == face.rank:
                    self._place(game, seat, formation.id, piece, face, position)
                    return
        for formation in sets:
            if formation.rank == face.rank:
                self._place(game, seat, formation.id, piece, face, face.rank)
                return
        raise AssertionError(f"{face} fits no meld of the knocker")  # layoff_kinds said it did

    def _place(
        self, game: Game, seat: int, target: int, piece: int, face: Face, position: int
    ) -> None:
        game.table[target - 1] = game.table[target - 1].with_piece(piece, face.kind, position)
        game.place(seat, [piece], new_formation=False)
