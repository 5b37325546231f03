"""The greedy bot: opens as soon as it can with the best laydown, lays and attaches
everything it can, exchanges jokers when that empties its rack faster, and
discards its least useful tile.  It sees only its view.

Greedy is the baseline every other bot is measured against, so it knows the scoring
rules of its variant that a casual player knows (issue 16, item 2):

* Romanian Remi: it plays on the board (RULES §9.13) from a rack at most
  :data:`BOARD_AT` tiles short of a contract, and keeps a lone 1 back as the closing
  tile that doubles its score (§9.11);
* Vienna: it calls "Remi!" when its deadwood is below what an opponent usually still
  holds at that point of the deal (§6.6: the caller must beat every opponent), not at
  one fixed line;
* Continental: it keeps the cards nearest a layout of runs (§7.6) and takes the top
  discard when it brings the hand nearer one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from rummykit.bots.board import (
    casual_board_action,
    closing_tile_action,
    plays_board,
    wants_board,
)
from rummykit.bots.gin import gin_action, plays_gin
from rummykit.engine.actions import (
    Action,
    AnnounceAtu,
    AnnounceThree,
    Attach,
    CallRemi,
    DeclareBoard,
    Discard,
    Draw,
    ExchangeJoker,
    GoOut,
    Meld,
    NextDeal,
    Ready,
    ResetTurn,
    TakeColumn,
)
from rummykit.engine.game import Phase
from rummykit.engine.view import SeatView
from rummykit.model.arrange import min_deadwood
from rummykit.model.candidates import Candidate, counts_of
from rummykit.model.melds import MeldRules
from rummykit.model.pieces import Face, Material
from rummykit.rules.variant import Variant, find_variant
from rummykit.solver.opening import FREE_OPENING, best_opening, opening_requirement

__all__ = [
    "BOARD_AT",
    "CALL_LINES",
    "GreedyBot",
    "call_line",
    "greedy_order",
    "meld_action",
    "outside_kinds",
    "pieces_outside",
    "tile_usefulness",
]

BOARD_AT = 4
"""Greedy declares board play (RULES §9.13) with a rack at most this many tiles short of
a contract: a hand a casual player sees is nearly one."""

_UNIT = (1,) * 53


def tile_usefulness(face: Face, rack: Sequence[Face], variant: Variant) -> int:
    """How much keeping ``face`` helps: partners for runs and sets, minus its rack cost."""
    rules = variant.meld_rules
    if rules.is_wild(face):
        return 10_000
    partners = 0
    for other in rack:
        if other is face or rules.is_wild(other):
            continue
        if other.suit_index == face.suit_index:
            gap = abs(other.rank - face.rank)
            if face.rank == 1 or other.rank == 1:
                gap = min(
                    gap,
                    abs(
                        (other.rank if other.rank != 1 else 14)
                        - (face.rank if face.rank != 1 else 14)
                    ),
                )
            if gap in (1, 2):
                partners += 3 - gap
        elif other.rank == face.rank and rules.sets_allowed:
            partners += 2
    return partners * 20 - variant.score_value(face)


def greedy_order(view: SeatView, variant: Variant) -> Callable[[Face], tuple[int, int, Face]]:
    """Greedy's discard order for the view's rack: least useful, then most costly, first."""
    rack = list(view.rack)

    def key(face: Face) -> tuple[int, int, Face]:
        return (tile_usefulness(face, rack, variant), -variant.score_value(face), face)

    return key


@lru_cache(maxsize=65_536)
def _outside(kinds: tuple[int, ...], rules: MeldRules) -> tuple[int, ...]:
    return min_deadwood(counts_of(kinds), rules, _UNIT).deadwood


def outside_kinds(hand: Sequence[Face], rules: MeldRules) -> tuple[int, ...]:
    """The kinds of ``hand``'s pieces left outside its best formations, counted by
    pieces (exact)."""
    return _outside(tuple(sorted(f.kind for f in hand)), rules)


def pieces_outside(hand: Sequence[Face], rules: MeldRules) -> int:
    """How many of ``hand``'s pieces lie outside its best formations (exact)."""
    return len(outside_kinds(hand, rules))


CALL_LINES = (30, 24, 17, 14, 12, 11, 9, 8, 7)
"""Vienna: an opponent's deadwood that one opponent in ten is still below after 0, 1, ...
8 turns (60 greedy deals of 2-seat Vienna); later turns use the last line."""


def call_line(view: SeatView) -> int:
    """Vienna (RULES §6.6): the deadwood at or below which greedy calls "Remi!".

    A call wins only below every opponent's deadwood, which falls as the deal goes on:
    the line is :data:`CALL_LINES` at the fewest turns an opponent has taken, three
    points lower for each further opponent, who must be beaten too."""
    turns = min(view.turns_taken[s] for s in range(view.players) if s != view.seat)
    line = CALL_LINES[min(turns, len(CALL_LINES) - 1)]
    return max(0, line - 3 * (view.players - 2))


def meld_action(cand: Candidate, material: Material) -> Meld:
    """The action laying ``cand`` with every joker declared."""
    return Meld(cand.faces(material), cand.declared(material))


class GreedyBot:
    """Plays the immediately best-looking move (see module docstring)."""

    name = "greedy"

    def __init__(self, *, board_play: bool = True) -> None:
        self.board_play = board_play
        """Remi: declare and play on the board (off for the expert, which has its own
        rule)."""
        self._plan: list[Action] = []
        self._plan_key: tuple[int, int] | None = None
        # After a reset the bot plays it safe for the rest of the turn, so it can never
        # repeat a sequence of moves that could not be committed.
        self._reset_this_turn = False

    def forget_plan(self) -> None:
        """Drop the rest of this turn's plan (another bot played in its place)."""
        self._plan = []

    def reset_this_turn(self, view: SeatView) -> bool:
        """Whether this bot took back the turn ``view`` is in (``reset``)."""
        return self._reset_this_turn and self._plan_key == (
            view.deal_number,
            view.turns_taken[view.seat],
        )

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Pick an action from ``legal`` for ``view``'s seat.

        Raises :class:`ValueError` when there is nothing to choose (a finished game)."""
        if not legal or view.phase is Phase.MATCH_END:
            raise ValueError(f"no move to choose: the game is over ({view.phase}, no legal action)")
        if view.phase is Phase.DEAL_END:
            return NextDeal()
        if plays_gin(find_variant(view.variant), view):
            return gin_action(view, legal)
        if view.phase is Phase.SHOWDOWN:
            return self._show(view, legal)
        legal_set = set(legal)
        if view.phase is Phase.PREPLAY:
            for preferred in (AnnounceAtu(), Ready()):
                if preferred in legal_set:
                    return preferred
            return next((a for a in legal if type(a).__name__ == "DeclineSwap"), legal[0])
        key = (view.deal_number, view.turns_taken[view.seat])
        if self._plan_key != key:
            self._plan, self._plan_key, self._reset_this_turn = [], key, False
        while self._plan:
            step = self._plan.pop(0)
            if step in legal_set:
                return step
            self._plan = []
        variant = find_variant(view.variant)
        if variant.arrange_hand is not None and variant.play_rules(view.options).stop_call:
            return self._call_or_discard(view, legal, legal_set, variant)
        if plays_board(view, variant):
            order = greedy_order(view, variant)
            if self.board_play and view.board[view.seat]:
                board = casual_board_action(view, legal, variant, order)
                if board is not None:
                    return board
            elif self.board_play and wants_board(view, legal, variant, BOARD_AT):
                return DeclareBoard()
            action = self._turn(view, legal, legal_set, variant)
            if self._plan:
                return action
            return closing_tile_action(view, legal, action, variant, order) or action
        return self._turn(view, legal, legal_set, variant)

    def _turn(
        self, view: SeatView, legal: Sequence[Action], legal_set: set[Action], variant: Variant
    ) -> Action:
        going_out = [a for a in legal if isinstance(a, GoOut)]
        if going_out:
            return going_out[0]
        if variant.find_layout is not None:
            return self._lay_out_later(view, legal, legal_set, variant)
        if Draw() in legal_set or any(isinstance(a, TakeColumn) for a in legal):
            return self._acquire(view, legal_set, variant)
        return self._play(view, legal, legal_set, variant)

    def _lay_out_later(
        self, view: SeatView, legal: Sequence[Action], legal_set: set[Action], variant: Variant
    ) -> Action:
        """Where the whole hand is laid at once (RULES §7.6): take the top discard when
        it completes a layout or brings the hand nearer one (fewer cards outside runs
        after the best discard), else draw; discard what leaves the fewest cards outside
        runs, the least useful among equals."""
        rack = list(view.rack)
        find_layout = variant.find_layout
        assert find_layout is not None
        rules = variant.rules_for(view.options)
        if view.column and TakeColumn(len(view.column) - 1) in legal_set:
            hand = [*rack, view.column[-1]]
            # Dropping a piece outside the best runs of ``hand`` leaves one fewer: that
            # is the best discard's count, so one solve judges the take.
            after = max(0, pieces_outside(hand, rules) - 1)
            if after < pieces_outside(rack, rules):
                return TakeColumn(len(view.column) - 1)
            if after == 0 and any(
                find_layout(hand[:i] + hand[i + 1 :], view.options) is not None
                for i in range(len(rack))
            ):
                return TakeColumn(len(view.column) - 1)
        if Draw() in legal_set:
            return Draw()
        discards = sorted({a.face for a in legal if isinstance(a, Discard)})
        if discards:
            outside = set(outside_kinds(rack, rules))
            # A piece outside the best runs leaves the fewest outside when it goes.
            return Discard(
                min(
                    discards,
                    key=lambda f: (f.kind not in outside, tile_usefulness(f, rack, variant), f),
                )
            )
        return legal[0]

    def _acquire(self, view: SeatView, legal: set[Action], variant: Variant) -> Action:
        rack = list(view.rack)
        if view.column:
            last = TakeColumn(len(view.column) - 1)
            tile = view.column[-1]
            if last in legal and not view.board[view.seat]:
                opened = view.opened[view.seat]
                lay = best_opening(
                    [*rack, tile],
                    variant,
                    FREE_OPENING if opened else opening_requirement(variant, view.options),
                    keep=1,
                    must_include=tile,
                    rules=variant.rules_for(view.options),
                )
                if lay.melds and (opened or lay.valid_opening):
                    self._plan = [meld_action(c, tile.material) for c in lay.melds]
                    return last
        return Draw() if Draw() in legal else next(iter(legal))

    def _play(
        self, view: SeatView, legal: Sequence[Action], legal_set: set[Action], variant: Variant
    ) -> Action:
        rack = list(view.rack)
        seat = view.seat
        opened = view.opened[seat]
        melds = [a for a in legal if isinstance(a, Meld)]
        if melds and not self._reset_this_turn:
            must = view.must_use[0] if view.must_use else None
            lay = best_opening(
                rack,
                variant,
                FREE_OPENING if opened else opening_requirement(variant, view.options),
                keep=1,
                must_include=must,
                rules=variant.rules_for(view.options),
            )
            if lay.melds and (opened or lay.valid_opening):
                actions: list[Action] = [meld_action(c, rack[0].material) for c in lay.melds]
                self._plan = actions[1:]
                return actions[0]
        # Lay-offs only once opened (before that they count only in a Hand), and never
        # again after a reset in this turn.
        attaches = [
            a for a in legal if isinstance(a, Attach) and opened and not self._reset_this_turn
        ]
        natural = [a for a in attaches if not a.face.is_joker]
        if natural:
            return max(natural, key=lambda a: variant.score_value(a.face))
        jokers = [a for a in attaches if a.face.is_joker]
        if jokers and (view.pending_jokers or len(rack) <= 4):
            return jokers[0]
        exchanges = [a for a in legal if isinstance(a, ExchangeJoker)]
        # The freed joker must be placed and a tile must remain for the discard.
        if exchanges and opened and not self._reset_this_turn and self._can_place_joker(view):
            fits = [a for a in exchanges if len(rack) - len(a.faces) + 1 >= 2]
            if fits:
                return fits[0]
        if AnnounceThree() in legal_set and len(rack) <= 4:
            return AnnounceThree()
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return min(
                discards,
                key=lambda a: (
                    tile_usefulness(a.face, rack, variant),
                    -variant.score_value(a.face),
                    a.face,
                ),
            )
        if ResetTurn() in legal_set:
            self._reset_this_turn = True
            self._plan = []
            return ResetTurn()
        return legal[0]

    @staticmethod
    def _show(view: SeatView, legal: Sequence[Action]) -> Action:
        """At a showdown (RULES §6.6, players arranging) lay out the melds of the
        least-deadwood arrangement one by one, then say ready."""
        variant = find_variant(view.variant)
        if variant.arrange_hand is not None:
            shown = variant.arrange_hand(list(view.rack), view.options)
            for meld in shown.melds:
                wanted = sorted(meld)
                for action in legal:
                    if isinstance(action, Meld) and sorted(action.faces) == wanted:
                        return action
        return Ready()

    def _call_or_discard(
        self, view: SeatView, legal: Sequence[Action], legal_set: set[Action], variant: Variant
    ) -> Action:
        """Vienna (RULES §6): take the top discard when it lowers the deadwood left after the
        best discard; close when possible, call at low deadwood, else discard the card
        whose loss leaves the least deadwood."""
        arrange = variant.arrange_hand
        assert arrange is not None
        rack = list(view.rack)

        def after_best_discard(hand: list[Face], keep: Face | None = None) -> tuple[int, Face]:
            best: tuple[int, Face] | None = None
            for f in sorted(set(hand)):
                if f == keep:
                    continue
                rest = list(hand)
                rest.remove(f)
                points = arrange(rest, view.options).points
                if best is None or (points, -variant.score_value(f)) < (
                    best[0],
                    -variant.score_value(best[1]),
                ):
                    best = (points, f)
            assert best is not None
            return best

        if Draw() in legal_set or any(isinstance(a, TakeColumn) for a in legal):
            take = TakeColumn(len(view.column) - 1)
            if view.column and take in legal_set:
                top = view.column[-1]
                now = arrange(rack, view.options).points
                # §2.5: the taken card stays for the turn, so it is not the discard.
                if after_best_discard([*rack, top], keep=top)[0] < now:
                    return take
            return Draw() if Draw() in legal_set else legal[0]
        closes = [a for a in legal if isinstance(a, CallRemi) and a.face is not None]
        if closes:
            return closes[0]
        if CallRemi() in legal_set and arrange(rack, view.options).points <= call_line(view):
            return CallRemi()
        discards = sorted({a.face for a in legal if isinstance(a, Discard)})
        if discards:
            # Judge only the legal discards (a card just taken may not go back, A-03): then a
            # turn that took the top discard always ends with less deadwood than it began,
            # so bots can never pass the same cards round the table for ever.
            def left(face: Face) -> tuple[int, int, Face]:
                rest = list(rack)
                rest.remove(face)
                return (arrange(rest, view.options).points, -variant.score_value(face), face)

            return Discard(min(discards, key=left))
        return legal[0]

    @staticmethod
    def _can_place_joker(view: SeatView) -> bool:
        """Whether an own formation would take a freed joker (RULES §9.10: use it this turn)."""
        for f in view.table:
            if f.owner != view.seat:
                continue
            if f.kind == "run" and (f.positions[0] > 1 or f.positions[-1] < 14):
                return True
            if f.kind == "set" and len(f.faces) < 4:
                return True
        return False
