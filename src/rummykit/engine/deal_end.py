"""The end of a deal: its scoring and result, and who deals next (a part of
:class:`~rummykit.engine.game.Game`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from rummykit.engine.core import GameFields, Phase
from rummykit.engine.turn import Turn
from rummykit.model.pieces import Face
from rummykit.rules.variant import Contract, SeatOutcome, ShownHand

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["DealEnd", "DealResult"]


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of one deal."""

    deal: int
    maker: int
    end: str
    """``close``, ``out`` (no final discard), ``board`` (a board contract closed it),
    ``call`` (a "Remi!" call without closing), ``exhaustion`` or ``void``."""
    closer: int | None
    closing_face: str | None
    contract: str | None
    double_game: bool
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    opened: tuple[bool, ...]
    table_values: tuple[int, ...]
    rack_values: tuple[int, ...]
    hand: bool = False
    """The closer went out in one turn from the full hand (RULES §3.6)."""
    showdown: tuple[str, ...] = ()
    """Each seat's hand as laid out at the end of the deal, where the variant arranges
    hands (RULES §6.6): melds, then the deadwood after a slash."""
    three_penalty: tuple[bool, ...] = ()
    """Per seat: it held three pieces without announcing "three" (remi_ro §9.11/A-56,
    the ``three_tile_penalty``)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        out = {
            "deal": self.deal,
            "maker": self.maker,
            "end": self.end,
            "closer": self.closer,
            "closing_piece": self.closing_face,
            "contract": self.contract,
            "double_game": self.double_game,
            "scores": list(self.scores),
            "totals": list(self.totals),
            "opened": list(self.opened),
            "table_values": list(self.table_values),
            "rack_values": list(self.rack_values),
            "hand": self.hand,
        }
        if self.showdown:
            out["showdown"] = list(self.showdown)
        if any(self.three_penalty):
            out["three_penalty"] = list(self.three_penalty)
        return out


class DealEnd(GameFields):
    """Ending and scoring a deal (a part of :class:`~rummykit.engine.game.Game`)."""

    def end_deal(
        self,
        end: str,
        closer: int | None,
        face: Face | None,
        contract: Contract | None,
        *,
        hand: bool = False,
        face_down: bool = False,
        before_draw: bool = False,
    ) -> None:
        n = self.players
        balances = self.totals[:]
        table_values = [0] * n
        for formation in self.table:
            for p in formation.pieces:
                table_values[self.credit[p]] += self._score_value(self.faces[p])
        shown: list[ShownHand] = []
        arrange = self.variant.arrange_hand
        rack_values = [sum(self._score_value(self.faces[p]) for p in rack) for rack in self.racks]
        laid_out = None
        if end != "void":
            for ext in self._shown_hooks:
                if laid_out is None:
                    laid_out = ext.shown_hands(cast("Game", self), rack_values)
        if laid_out is not None:
            shown = laid_out
        elif arrange is not None and end != "void":
            # RULES §6.6: every hand is laid out in its least-deadwood arrangement.
            shown = [arrange(self.rack_faces(s), self.options) for s in range(n)]
            rack_values = [hand_shown.points for hand_shown in shown]
        outcomes = [
            SeatOutcome(
                **self._outcome_fields(s),
                rack=tuple(self.faces[p] for p in self.racks[s]),
                hand=hand and s == closer,
                opened=self.opened[s],
                closed=(s == closer),
                table_value=table_values[s],
                rack_value=rack_values[s],
                contract=contract if s == closer else None,
                laid=tuple(
                    self.faces[p] for f in self.table for p in f.pieces if self.credit[p] == s
                ),
                first_turn=s == closer and self.turns_taken[s] == 1,
                before_draw=s == closer and before_draw,
                balance=balances[s],
            )
            for s in range(n)
        ]
        if end == "void":
            # §2.4/A-05: a deal that cannot go on has no winner and no score.
            scores: tuple[int, ...] = (0,) * n
        else:
            scores = self.variant.score_deal(outcomes, self.double_game, face, self.options)
        for s in range(n):
            self.totals[s] += scores[s]
        self.results.append(
            DealResult(
                deal=self.deal_number + 1,
                maker=self.maker,
                end=end,
                closer=closer,
                closing_face=None if face is None or face_down else str(face),
                contract=None if contract is None else contract.name,
                double_game=self.double_game,
                scores=tuple(scores),
                totals=tuple(self.totals),
                opened=tuple(self.opened),
                table_values=tuple(table_values),
                rack_values=tuple(rack_values),
                hand=hand,
                showdown=tuple(h.notation for h in shown),
                three_penalty=tuple(o.three_violation for o in outcomes),
            )
        )
        self.turn = Turn()
        self.snapshot = None
        done = self.variant.match_over(self.totals, len(self.results), self.options)
        self.phase = Phase.MATCH_END if done else Phase.DEAL_END
        self.to_move = self._next_maker()

    def _outcome_fields(self, seat: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for ext in self.extensions:
            out.update(ext.outcome_fields(cast("Game", self), seat))
        return out

    def hidden_discard(self) -> tuple[int | None, int]:
        """(piece, seat): a discard lying face down (e.g. a closing card, RULES §6.6) and
        the one seat that saw it, or (None, -1)."""
        for ext in self.extensions:
            piece, seat = ext.hidden_discard(cast("Game", self))
            if piece is not None:
                return piece, seat
        return None, -1

    def view_fields(self, seat: int) -> dict[str, Any]:
        """The fields of ``seat``'s view that the variant's extensions fill."""
        out: dict[str, Any] = {}
        for ext in self.extensions:
            out.update(ext.view_fields(cast("Game", self), seat))
        return out

    def _next_maker(self) -> int:
        if self.play.winner_deals and self.results and self.results[-1].closer is not None:
            # the winner of the deal deals the next one.
            return self.results[-1].closer
        # §0.4: the right neighbour is the next seat in play order when play runs
        # counter-clockwise.  §9.1/A-65: the maker role passes to the right; §10.1: left.
        step = -1 if self.play.clockwise else 1
        if not self.play.maker_passes_right:
            step = -step
        return (self.maker + step) % self.players
