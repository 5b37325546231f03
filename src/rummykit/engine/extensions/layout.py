"""Going out with a layout (RULES §7.6, §7.8, A-28): a player lays his whole hand at
once, in the melds the variant's ``find_layout`` finds, closing with a discard (or,
with a dealt hand that is already a layout, before his first draw).

Continental plays it; a variant names it ``"layout"`` in ``PlayRules.extensions`` and
gives ``Variant.find_layout``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rummykit.engine.actions import Action, GoOut
from rummykit.engine.extension import Extension, register_extension
from rummykit.engine.table import Formation

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["Layout"]

_OUT = GoOut()


@register_extension
class Layout(Extension[Any]):
    """RULES §7.6: close by laying the whole hand out as a layout."""

    name = "layout"
    handlers: ClassVar[Mapping[type[Action], tuple[str, str]]] = {
        GoOut: ("_verify_go_out", "_apply_go_out"),
    }

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        find_layout = game.variant.find_layout
        if find_layout is None:
            raise ValueError(f"{game.variant.name} names 'layout' but has no find_layout")
        self.find_layout = find_layout
        self.layout_discards = game.variant.layout_discards
        self.before_first_draw = game.play.go_out_before_first_draw

    def _verify_go_out(self, game: Game, action: GoOut) -> None:
        game.in_turn(action)
        seat = game.to_move
        play = game.play
        rule = play.cite("go_out", "§2.3")
        closing: int | None = None
        if action.face is None:
            if game.turn.acquired is not None:
                raise game.fail(action, rule, "after drawing, close with a discard: out X")
            if not self.before_first_draw:
                raise game.fail(action, rule, "going out before the first draw is disabled")
            if game.turns_taken[seat] != 1:
                raise game.fail(action, rule, "only a dealt hand is laid out without a draw")
        else:
            if game.turn.acquired is None:
                raise game.fail(action, play.cite("acquire", "§2.3"), "draw or take a card first")
            (closing,) = game.pick_discard(seat, action.face, action)
            if problem := game.commit_problem(going_out=True):
                raise game.fail(action, *problem)
            if (
                not play.discard_taken_allowed
                and game.turn.acquired == "last"
                and closing in game.turn.must_use
            ):
                raise game.fail(
                    action,
                    "§2.5/A-03",
                    "the card taken from the discard pile cannot close in the same turn",
                )
        faces = [game.faces[p] for p in game.racks[seat] if p != closing]
        if self.find_layout(faces, game.options) is None:
            raise game.fail(action, rule, f"these {len(faces)} cards form no layout")

    def _apply_go_out(self, game: Game, action: GoOut) -> None:
        seat = game.to_move
        closing: int | None = None
        if action.face is not None:
            (closing,) = game.pick_discard(seat, action.face, action)
        rack = [p for p in game.racks[seat] if p != closing]
        layout = self.find_layout([game.faces[p] for p in rack], game.options)
        assert layout is not None
        for candidate in layout.melds:
            pieces = []
            for kind in candidate.kinds:
                piece = next(p for p in rack if game.faces[p].kind == kind)
                rack.remove(piece)
                pieces.append(piece)
            game.table.append(
                Formation(
                    id=len(game.table) + 1,
                    owner=seat,
                    kind=candidate.kind,
                    suit=candidate.suit,
                    pieces=tuple(pieces),
                    positions=candidate.positions,
                    kinds=candidate.kinds,
                )
            )
            game.place(seat, pieces, new_formation=True)
        before_draw = game.turn.acquired is None
        if closing is not None:
            game.racks[seat].remove(closing)
            game.column.append(closing)
        game.commit_turn(seat)
        game.end_deal(
            "close" if closing is not None else "out",
            seat,
            action.face,
            None,
            hand=not game.has_laid[seat],
            before_draw=before_draw,
        )

    def actions_before_discards(self, game: Game, seat: int, out: list[Action]) -> None:
        # a dealt hand that is a layout may go out at the start of the first turn.
        if (
            game.turn.acquired is None
            and self.before_first_draw
            and game.turns_taken[seat] == 1
            and self.find_layout(game.rack_faces(seat), game.options)
        ):
            out.append(_OUT)

    def closing_discards(
        self, game: Game, seat: int, kinds: Sequence[int], out: list[Action]
    ) -> None:
        # §7.6: close by discarding one card of each kind whose removal leaves a layout.
        if self.layout_discards is not None:
            closing = self.layout_discards(game.rack_faces(seat), game.options)
            if closing:  # nearly always empty: then no face is hashed
                out.extend(
                    GoOut(game.kind_faces[k]) for k in kinds if game.kind_faces[k] in closing
                )
            return
        hand = sorted(game.faces[p].kind for p in game.racks[seat])
        for k in kinds:
            rest = hand[:]
            rest.remove(k)
            if self.find_layout([game.kind_faces[x] for x in rest], game.options):
                out.append(GoOut(game.kind_faces[k]))
