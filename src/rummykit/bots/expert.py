"""The expert bot: greedy's play, with the decisions that matter searched.

The expert plays like :class:`~rummykit.bots.greedy.GreedyBot` (open as soon as
possible, lay and attach everything) except at the decisions where it pays to think:

* **Romanian Remi's scoring** (:mod:`rummykit.bots.board`): the expert plays on the
  board (RULES §9.13) from a hand at most ``board`` tiles short of a contract — a
  contract pays 500 or more, a laid-out close about 200 — and keeps a lone 1 back as
  its closing tile, which doubles the closer's score (§9.11);
* **going out**: when the whole rack can leave this turn (new formations, lay-offs
  onto the table, at most one closing discard) it plays exactly that; greedy keeps a
  piece back for a discard and so cannot meld a rack that is itself a formation;
* **which piece to discard** — greedy ranks the discards; the expert keeps the top
  ``top_k`` and scores each by the rack it leaves after the next draw and the best
  following discard, averaged over the pieces it has not seen (up to ``draws`` of
  them).  The score (:class:`RackCost`) is exact (:func:`~rummykit.model.arrange.min_deadwood`):
  the pieces left outside formations and lay-off spots on the table first — who goes
  out first wins the deal — then their points, what the loser is charged;
* **whether to take the top discard** where taking carries no obligation (Rommé, Basic
  Rummy, ...): scored the same way.
* **Continental** (RULES §7.6, with ``Level.layout``): who lays out his whole hand
  first wins the deal, so a discard is judged by the cards the hand still misses of a
  layout (:class:`~rummykit.bots.layout.LayoutCounter`), then by how many cards that
  could come next would bring it one nearer; the top discard is taken when it brings
  the hand nearer.

Before its opening, where the opening has a points minimum, the expert discards as
greedy does (deadwood is the wrong measure there).  A :class:`Level` with ``worlds``
plays the candidates out instead, in sampled worlds
(:func:`~rummykit.bots.resample.resample`) with greedy at every seat to the end of the
deal, the candidates sharing the worlds; measured, that is slower and no stronger
(docs/strength.md), so no named level does.  Levels are budgets (:data:`LEVELS`).  The
bot sees only its view; a view that admits no sampled world falls back to greedy.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rummykit.bots.base import play_to_end, unseen_faces
from rummykit.bots.board import (
    board_action,
    closing_tile_action,
    plays_board,
    wants_board,
)
from rummykit.bots.gin import plays_gin
from rummykit.bots.greedy import GreedyBot, greedy_order, meld_action
from rummykit.bots.layout import LayoutCounter, opponents_took
from rummykit.bots.resample import ResampleError, resample
from rummykit.engine.actions import (
    Action,
    Attach,
    DeclareBoard,
    Discard,
    Draw,
    TakeColumn,
)
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import SeatView
from rummykit.model.arrange import KIND_COUNT, Arrangement, min_deadwood
from rummykit.model.melds import HIGH_ACE, MeldRules
from rummykit.model.pieces import JOKER_KIND, SUIT_COUNT, Face, kind_of
from rummykit.rules.variant import TakeUse, Variant, find_variant
from rummykit.solver.deadwood import kind_points, least_deadwood

__all__ = ["CARD_WEIGHT", "LEVELS", "ExpertBot", "Level", "RackCost", "unseen_faces"]


@dataclass(frozen=True, slots=True)
class Level:
    """A search budget."""

    worlds: int
    """Sampled worlds each candidate is played out in (0: no rollouts, one-ply only)."""
    top_k: int
    """Discard candidates searched (greedy's best ``top_k``)."""
    draws: int = 20
    """Sampled next draws for the one-ply score (``worlds == 0``)."""
    board: int = -1
    """Declare play on the board (Remi, RULES §9.13) with a rack at most this many tiles
    short of a contract (-1: never)."""
    draw_worlds: int = 0
    """Take the sampled draws from this many resampled worlds
    (:func:`~rummykit.bots.resample.resample`, the top pieces of each world's stock)
    rather than from the unseen faces: a world also leaves out what the view shows an
    opponent holding, such as a discard he took (0: unseen faces)."""
    slip: float = 0.0
    """How often a discard is a casual player's near miss: the next piece by greedy's
    order instead of the chosen one (never a joker or a piece that could close)."""
    layout: bool = False
    """Continental (RULES §7.6): discard and take by the cards still missing of a
    layout and the unseen cards that would bring one nearer
    (:class:`~rummykit.bots.layout.LayoutCounter`), not greedy's cards outside runs."""


LEVELS: dict[str, Level] = {
    "easy": Level(worlds=0, top_k=2, draws=20, board=4, slip=0.2),
    "medium": Level(worlds=0, top_k=3, draws=60, board=14, layout=True),
    "hard": Level(worlds=0, top_k=5, draws=120, board=14, draw_worlds=20, layout=True),
}
"""Difficulty levels for players, weakest first."""


MARGIN = 2.0
"""Cost (in points; a piece left is :data:`CARD_WEIGHT`) a discard must save over greedy's pick
to replace it."""

THREAT = 3
"""An opened opponent with at most this many pieces may go out next turn (measured in
2-seat Rommé: 3 and 5 did alike, docs/strength.md)."""


CARD_WEIGHT = 100
"""What :class:`RackCost` charges for each piece left on the rack, on top of its points:
more than any piece is worth, so fewer pieces always score better (counting points
alone, 50.9–52.3% of 2-seat Rommé deals were won; pieces first, 62%: docs/strength.md)."""


class _Counted(NamedTuple):
    free: set[int]
    """The rack's kinds the seat could lay off."""
    values: list[int]
    """Each kind's cost left on this rack (:meth:`RackCost.values`)."""
    arrangement: Arrangement


class RackCost:
    """The one-ply score of a rack for the view's seat (lower is better).

    A piece outside the rack's best formations costs :data:`CARD_WEIGHT` plus its
    points, unless the seat, opened, could lay it off onto the table: at the end of a
    run (a chain of them, each extending the run for the next) or into a set missing its
    suit; a joker lays off onto any formation.  Exact over the rack's arrangements
    (:func:`~rummykit.model.arrange.min_deadwood`); lay-off spots that formations laid
    later would open are not counted.
    """

    def __init__(self, view: SeatView, variant: Variant) -> None:
        self.rules = variant.rules_for(view.options)
        self._points = kind_points(variant)
        # (suit, lowest position, highest position) of each run; kinds a set still takes.
        self._runs: list[tuple[int, int, int]] = []
        self._set_spots: set[int] = set()
        self._joker_spot = False
        if view.opened[view.seat] and view.table:
            self._joker_spot = True
            for formation in view.table:
                naturals = [f for f in formation.faces if not f.is_joker]
                if not naturals:
                    continue
                if formation.kind == "run":
                    suit = naturals[0].suit_index
                    self._runs.append((suit, min(formation.positions), max(formation.positions)))
                elif len(formation.faces) < 4:
                    have = {f.suit_index for f in naturals}
                    rank = naturals[0].rank
                    self._set_spots.update(
                        kind_of(s, rank) for s in range(SUIT_COUNT) if s not in have
                    )

    def piece_cost(self, face: Face) -> int:
        """What ``face`` costs left on the rack, unless it can be laid off."""
        return CARD_WEIGHT + self._points[face.kind]

    def is_spot(self, face: Face) -> bool:
        """Whether ``face`` lays off onto the table as it is now."""
        return face.kind in self.free_kinds({face.kind})

    def free_kinds(self, held: Collection[int]) -> set[int]:
        """The kinds in ``held`` (a rack's kinds) the seat could lay off, runs extended
        in turn."""
        free = {k for k in self._set_spots if k in held}
        for suit, lo, hi in self._runs:
            position = lo - 1
            while position >= 1 and _kind(suit, position) in held:
                free.add(_kind(suit, position))
                position -= 1
            position = hi + 1
            while position <= _top(lo) and _kind(suit, position) in held:
                free.add(_kind(suit, position))
                position += 1
        if self._joker_spot and JOKER_KIND in held:
            free.add(JOKER_KIND)
        return free

    def values(self, free: Collection[int]) -> list[int]:
        """Each kind's cost left on a rack whose ``free`` kinds lay off (those cost 0)."""
        return [0 if k in free else CARD_WEIGHT + p for k, p in enumerate(self._points)]

    def arrange(self, rack: Sequence[Face]) -> _Counted:
        """The rack's best arrangement under :meth:`values`."""
        counts = [0] * KIND_COUNT
        for face in rack:
            counts[face.kind] += 1
        free = self.free_kinds({face.kind for face in rack})
        values = self.values(free)
        return _Counted(free, values, min_deadwood(counts, self.rules, values))

    def after_discard(self, rack: Sequence[Face]) -> int:
        """The cost of ``rack`` once its costliest leftover piece is discarded."""
        counted = self.arrange(rack)
        worst = max((counted.values[k] for k in counted.arrangement.deadwood), default=0)
        return counted.arrangement.points - worst


def _top(low: int) -> int:
    """The highest position a run starting at ``low`` may reach: a run holds one ace."""
    return HIGH_ACE if low > 1 else HIGH_ACE - 1


def _kind(suit: int, position: int) -> int:
    """The kind at run ``position`` (1..14, 14 the high ace) of ``suit``."""
    return kind_of(suit, 1 if position == HIGH_ACE else position)


def going_out(view: SeatView, legal: Sequence[Action], variant: Variant) -> Action | None:
    """The next step of emptying the rack this turn — a formation of the rack's best
    arrangement, a lay-off, the closing discard — or None when the rack cannot all go
    (or the engine refuses a step: then the usual play goes on)."""
    if view.pending_jokers or view.must_use or not any(isinstance(a, Discard) for a in legal):
        return None
    counted = RackCost(view, variant).arrange(view.rack)
    free = counted.free
    if sum(k not in free for k in counted.arrangement.deadwood) > 1:
        return None
    if counted.arrangement.melds:
        meld = meld_action(counted.arrangement.melds[0], view.rack[0].material)
        return meld if meld in legal else None
    for k in counted.arrangement.deadwood:
        if k in free:
            return next((a for a in legal if isinstance(a, Attach) and a.face.kind == k), None)
    if len(view.rack) == 1:
        return next((a for a in legal if isinstance(a, Discard)), None)
    return None


class ExpertBot:
    """Greedy play with board play, the closing tile and searched discards and takes
    (module docstring)."""

    def __init__(self, level: str | Level = "medium") -> None:
        if isinstance(level, Level):
            self.level, self.name = level, "expert"
        else:
            key = level.strip().lower()
            if key not in LEVELS:
                raise ValueError(f"unknown expert level {level!r}; choose from {', '.join(LEVELS)}")
            self.level, self.name = LEVELS[key], f"expert-{key}"
        # The expert has its own board rule (``Level.board``): greedy's is off.
        self._greedy = GreedyBot(board_play=False)

    def forget_plan(self) -> None:
        """Drop the turn plan made for an action another bot played in its place."""
        self._greedy.forget_plan()

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Pick an action from ``legal`` for ``view``'s seat."""
        variant = find_variant(view.variant)
        if view.phase not in (Phase.TURNS, Phase.ROUND1) or plays_gin(variant, view):
            # Gin (docs/rules/gin.md) is played as the greedy bot plays it: not searched.
            return self._greedy.choose(view, legal, rng)
        order = _greedy_order(view, variant)
        if plays_board(view, variant):
            if view.board[view.seat]:
                board = board_action(view, legal, variant, order)
                if board is not None:
                    return board
            elif self.level.board >= 0 and wants_board(view, legal, variant, self.level.board):
                return DeclareBoard()
        # After a reset the turn is played safe (greedy's rule), so it cannot loop.
        finish = view.opened[view.seat] and not self._greedy.reset_this_turn(view)
        action = (going_out(view, legal, variant) if finish else None) or self._search_or_greedy(
            view, legal, variant, rng
        )
        action = closing_tile_action(view, legal, action, variant, order) or action
        if self.level.slip and isinstance(action, Discard) and rng.random() < self.level.slip:
            return _near_miss(view, legal, action, variant, order)
        return action

    def _search_or_greedy(
        self, view: SeatView, legal: Sequence[Action], variant: Variant, rng: random.Random
    ) -> Action:
        """Greedy's action, or a searched discard or take in its place."""
        action = self._greedy.choose(view, legal, rng)
        if variant.arrange_hand is not None:
            # Vienna (RULES §6.6): only the deadwood shown at the call counts, so a
            # discard is judged by the deadwood it leaves after the next draw.
            if isinstance(action, Discard) and view.stock_count:
                return self._deadwood_discard(view, legal, action, variant, rng)
            if isinstance(action, Draw | TakeColumn) and view.column and view.stock_count:
                return self._deadwood_take(view, legal, action, variant, rng)
            return action
        if variant.find_layout is not None:
            # Continental (RULES §7.6): the expected pieces outside runs after the next
            # draw was measured no better than greedy's count (docs/bots.md); what
            # decides a deal is going out first, so the level counts draws to a layout.
            if self.level.layout and view.stock_count:
                if isinstance(action, Discard):
                    return _layout_discard(view, legal, action, variant)
                if isinstance(action, Draw | TakeColumn) and view.column:
                    return _layout_take(view, legal, action, variant)
            return action
        if isinstance(action, Discard):
            # Remi (board play) pays for the table too: shedding is for a charged hand.
            if not plays_board(view, variant) and _threatened(view):
                return _shed(view, legal, variant)
            if not view.opened[view.seat] and variant.play_rules(view.options).opening_min_points:
                # Before an opening with a points minimum, greedy's partner count serves
                # as well as a searched score or better: measured in 2-seat remi_ro and
                # Rommé (docs/strength.md).
                return action
            if self.level.worlds:
                return self._search(
                    view, self._discard_candidates(view, legal, action, variant), rng
                )
            return self._discard(view, legal, action, variant, rng)
        if isinstance(action, Draw):
            if self.level.worlds:
                take = TakeColumn(len(view.column) - 1)
                play = variant.play_rules(view.options)
                if view.column and take in legal and play.take_use is TakeUse.NONE:
                    return self._search(view, [action, take], rng)
                return action
            return self._maybe_take(view, legal, variant, rng)
        return action

    # ------------------------------------------------------------------ rollouts

    def _discard_candidates(
        self, view: SeatView, legal: Sequence[Action], chosen: Discard, variant: Variant
    ) -> list[Discard]:
        faces = sorted(
            {a.face for a in legal if isinstance(a, Discard)}, key=_greedy_order(view, variant)
        )
        ranked = [chosen.face, *(f for f in faces if f != chosen.face)][: self.level.top_k]
        return [Discard(f) for f in ranked]

    def _search(self, view: SeatView, candidates: Sequence[Action], rng: random.Random) -> Action:
        """The candidate with the best mean deal margin over sampled worlds."""
        if len(candidates) < 2:
            return candidates[0]
        margins: list[list[float]] = [[] for _ in candidates]
        for _ in range(self.level.worlds):
            try:
                world = resample(view, rng)
            except ResampleError:
                continue
            seed = rng.randrange(2**32)
            for i, action in enumerate(candidates):
                margins[i].append(_rollout(world.copy(), action, view.seat, seed))
        played = len(margins[0])
        if not played:
            return candidates[0]
        # Rollouts are noisy: leave greedy's pick (candidate 0) only for a candidate
        # that beats it in most worlds and on average.
        best, best_gain = 0, 0.0
        for i in range(1, len(candidates)):
            diffs = [a - b for a, b in zip(margins[i], margins[0], strict=True)]
            gain = sum(diffs) / played
            if gain > best_gain and sum(d > 0 for d in diffs) > played * 0.6:
                best, best_gain = i, gain
        return candidates[best]

    # ------------------------------------------------------------------ search

    def _expected(
        self, rack: list[Face], draws: Sequence[tuple[Face, float]], cost: RackCost
    ) -> float:
        """The mean of :meth:`RackCost.after_discard` over weighted draws; a draw that
        cannot touch a formation of the rack or a lay-off spot costs no search."""
        if not draws:
            return float(cost.after_discard(rack))
        base = cost.arrange(rack)
        worst = max((base.values[k] for k in base.arrangement.deadwood), default=0)
        near = {(f.suit_index, f.rank) for f in rack if not cost.rules.is_wild(f)}
        ranks = {r for _, r in near}
        total = weight_sum = 0.0
        for face, weight in draws:
            if cost.rules.is_wild(face) or _touches(face, near, ranks) or cost.is_spot(face):
                score = cost.after_discard([*rack, face])
            else:
                value = cost.piece_cost(face)
                score = base.arrangement.points + value - max(worst, value)
            total += weight * score
            weight_sum += weight
        return total / weight_sum

    def _draws(self, view: SeatView, rng: random.Random) -> list[tuple[Face, float]]:
        if self.level.draw_worlds and view.stock_count:
            drawn = _world_draws(view, rng, self.level.draw_worlds, self.level.draws)
            if drawn:
                return drawn
        pool = unseen_faces(view)
        if not pool:
            return []
        counts = Counter(pool)
        if len(counts) <= self.level.draws:
            return [(f, float(c)) for f, c in sorted(counts.items())]
        return [(pool[rng.randrange(len(pool))], 1.0) for _ in range(self.level.draws)]

    def _discard(
        self,
        view: SeatView,
        legal: Sequence[Action],
        chosen: Discard,
        variant: Variant,
        rng: random.Random,
    ) -> Action:
        rack = list(view.rack)
        candidates = [d.face for d in self._discard_candidates(view, legal, chosen, variant)]
        if len(candidates) < 2 or view.stock_count == 0:
            return chosen
        cost = RackCost(view, variant)
        # Common random numbers: every candidate meets the same sampled worlds.
        draws = self._draws(view, rng)
        return _best_discard(
            candidates, chosen, rack, lambda rest: self._expected(rest, draws, cost)
        )

    def _deadwood_discard(
        self,
        view: SeatView,
        legal: Sequence[Action],
        chosen: Discard,
        variant: Variant,
        rng: random.Random,
    ) -> Action:
        """Vienna: among greedy's best ``top_k`` discards, the one whose rack leaves the
        least deadwood (points) after the next draw and its best discard, averaged over
        the pieces not seen.  Greedy looks at the rack now only, so between discards
        that leave the same deadwood it cannot tell a hand with outs from one without."""
        rack = list(view.rack)
        legal_faces = {a.face for a in legal if isinstance(a, Discard)}
        rules = variant.rules_for(view.options)
        values = kind_points(variant)

        def now(face: Face) -> tuple[int, int, Face]:
            rest = list(rack)
            rest.remove(face)
            return (_deadwood(rest, rules, values), -values[face.kind], face)

        ranked = sorted(legal_faces, key=now)[: self.level.top_k]
        if chosen.face not in ranked:
            return chosen
        draws = self._draws(view, rng)
        if len(ranked) < 2 or not draws:
            return chosen
        weight_sum = sum(w for _, w in draws)

        def expected(rest: list[Face]) -> float:
            total = sum(w * _after_best_discard([*rest, f], rules, values) for f, w in draws)
            return total / weight_sum

        return _best_discard(ranked, chosen, rack, expected)

    def _deadwood_take(
        self,
        view: SeatView,
        legal: Sequence[Action],
        chosen: Action,
        variant: Variant,
        rng: random.Random,
    ) -> Action:
        """Vienna: take the top discard when the deadwood it leaves (after the best
        discard of another card, §2.5) beats the mean over the unseen draws."""
        take = TakeColumn(len(view.column) - 1)
        if take not in legal or Draw() not in legal:
            return chosen
        draws = self._draws(view, rng)
        if not draws:
            return chosen
        rules = variant.rules_for(view.options)
        values = kind_points(variant)
        rack = list(view.rack)
        top = view.column[-1]
        taken = min(
            _deadwood([*rack[:i], *rack[i + 1 :], top], rules, values) for i in range(len(rack))
        )
        weight_sum = sum(w for _, w in draws)
        drawn = sum(w * _after_best_discard([*rack, f], rules, values) for f, w in draws)
        return take if taken < drawn / weight_sum else Draw()

    def _maybe_take(
        self, view: SeatView, legal: Sequence[Action], variant: Variant, rng: random.Random
    ) -> Action:
        if not view.column:
            return Draw()
        take = TakeColumn(len(view.column) - 1)
        play = variant.play_rules(view.options)
        if take not in legal or play.take_use is not TakeUse.NONE:
            return Draw()
        cost = RackCost(view, variant)
        rack = list(view.rack)
        draws = self._draws(view, rng)
        if not draws:
            return Draw()
        taken = cost.after_discard([*rack, view.column[-1]])
        drawn = self._expected(rack, draws, cost)
        return take if taken < drawn else Draw()


def _best_discard(
    candidates: Sequence[Face],
    chosen: Discard,
    rack: Sequence[Face],
    cost: Callable[[list[Face]], float],
) -> Discard:
    """The candidate whose rack left behind costs least by ``cost``; greedy's pick
    (``chosen``) keeps an edge of :data:`MARGIN`: a deviation must look clearly better."""
    best_face, best_value = chosen.face, float("inf")
    for face in candidates:
        rest = list(rack)
        rest.remove(face)
        value = cost(rest) - (MARGIN if face == chosen.face else 0.0)
        if value < best_value:
            best_face, best_value = face, value
    return Discard(best_face)


def _deadwood(rack: Sequence[Face], rules: MeldRules, values: Sequence[int]) -> int:
    counts = [0] * KIND_COUNT
    for face in rack:
        counts[face.kind] += 1
    return min_deadwood(counts, rules, values).points


def _after_best_discard(rack: Sequence[Face], rules: MeldRules, values: Sequence[int]) -> int:
    """The deadwood of ``rack`` once its costliest unmatched piece is discarded."""
    counts = [0] * KIND_COUNT
    for face in rack:
        counts[face.kind] += 1
    arrangement = min_deadwood(counts, rules, values)
    return arrangement.points - max((values[k] for k in arrangement.deadwood), default=0)


def _layout_discard(
    view: SeatView, legal: Sequence[Action], chosen: Discard, variant: Variant
) -> Discard:
    """Continental: the discard leaving the fewest cards missing of a layout, then the
    most cards that could come next and bring it a card nearer (outs: the unseen cards
    but those an opponent is known to hold), then greedy's pick and order."""
    counter = LayoutCounter(variant.rules_for(view.options))
    rack = list(view.rack)
    faces = sorted({a.face for a in legal if isinstance(a, Discard)})
    if len(faces) < 2:
        return chosen
    missing = counter.discards(rack)
    fewest = min(missing[f] for f in faces)
    best = [face for face in faces if missing[face] == fewest]
    if len(best) == 1:
        return Discard(best[0])
    pool = Counter(unseen_faces(view))
    pool.subtract(opponents_took(view))
    draws = list(pool.elements())

    def outs(face: Face) -> int:
        rest = list(rack)
        rest.remove(face)
        return counter.outs(rest, draws)

    order = _greedy_order(view, variant)
    count = {face: outs(face) for face in best}
    return Discard(min(best, key=lambda f: (-count[f], f != chosen.face, order(f))))


def _layout_take(
    view: SeatView, legal: Sequence[Action], chosen: Action, variant: Variant
) -> Action:
    """Continental: take the top discard when it brings the hand a card nearer a
    layout (the best discard of the other cards following), else draw."""
    take = TakeColumn(len(view.column) - 1)
    if take not in legal or Draw() not in legal:
        return chosen
    counter = LayoutCounter(variant.rules_for(view.options))
    rack = list(view.rack)
    if counter.distance([*rack, view.column[-1]]) < counter.distance(rack):
        return take
    return Draw()


def _world_draws(
    view: SeatView, rng: random.Random, worlds: int, draws: int
) -> list[tuple[Face, float]]:
    """About ``draws`` next draws, the top pieces of the stocks of ``worlds`` worlds
    consistent with ``view``: within a world every stock piece is equally likely to come
    next, so each top piece is a fair sample (empty if no world is found)."""
    per_world = max(1, -(-draws // worlds))
    drawn: Counter[Face] = Counter()
    for _ in range(worlds):
        try:
            world = resample(view, rng)
        except ResampleError:
            continue
        drawn.update(world.faces[p] for p in world.stock[-per_world:])
    # Weighted by how often each face came: one solve per distinct face.
    return [(face, float(n)) for face, n in sorted(drawn.items())]


def _near_miss(
    view: SeatView,
    legal: Sequence[Action],
    chosen: Discard,
    variant: Variant,
    order: Callable[[Face], tuple[int, int, Face]],
) -> Discard:
    """A casual player's slip: the discard greedy ranks next after ``chosen``; never a
    wild piece, a 1 (a closing tile in Remi) or the last piece."""
    rules = variant.rules_for(view.options)
    faces = sorted(
        {
            a.face
            for a in legal
            if isinstance(a, Discard)
            and a.face != chosen.face
            and not rules.is_wild(a.face)
            and a.face.rank != 1
        },
        key=order,
    )
    if not faces or len(view.rack) <= 1:
        return chosen
    return Discard(faces[0])


def _threatened(view: SeatView) -> bool:
    """Whether an opened opponent holds at most :data:`THREAT` pieces."""
    return any(
        view.opened[s] and view.rack_sizes[s] <= THREAT
        for s in range(view.players)
        if s != view.seat
    )


def _shed(view: SeatView, legal: Sequence[Action], variant: Variant) -> Action:
    """Against an opponent about to go out, where the hand is charged and the table
    pays nothing: lay off a joker (worth most on the rack) if possible, else discard
    what leaves the least deadwood now — the next draw may never come."""
    if view.opened[view.seat]:
        jokers = [a for a in legal if isinstance(a, Attach) and a.face.is_joker]
        if jokers:
            return jokers[0]
    rules = variant.rules_for(view.options)
    order = _greedy_order(view, variant)
    rack = list(view.rack)

    def left(face: Face) -> tuple[int, tuple[int, int, Face]]:
        rest = list(rack)
        rest.remove(face)
        return (least_deadwood(rest, variant, rules=rules).points, order(face))

    return Discard(min({a.face for a in legal if isinstance(a, Discard)}, key=left))


def _greedy_order(view: SeatView, variant: Variant) -> Callable[[Face], tuple[int, int, Face]]:
    return greedy_order(view, variant)


def _rollout(game: Game, action: Action, seat: int, seed: int) -> float:
    """``seat``'s deal-score margin after ``action`` and greedy play to the deal's end."""
    game.apply(action)
    deals = len(game.results)
    bots = [GreedyBot() for _ in range(game.players)]
    play_to_end(game, bots, random.Random(seed), stop_at_deal_end=True, max_actions=2_000)
    return deal_margin(game, seat, deals)


def deal_margin(game: Game, seat: int, deals: int) -> float:
    """``seat``'s margin in the deal that followed ``deals`` finished deals: its score
    minus the others' mean, turned round where the lowest total wins; 0 while that deal
    is still running."""
    if len(game.results) == deals:
        return 0.0
    scores = game.results[-1].scores
    others = [v for s, v in enumerate(scores) if s != seat]
    margin = scores[seat] - sum(others) / len(others)
    return -margin if game.play.match_winner == "lowest" else margin


def _touches(face: Face, near: set[tuple[int, int]], ranks: set[int]) -> bool:
    """Whether ``face`` could join a meld with the rack: same rank, or same suit within
    two ranks (the 1 also sits above the 13)."""
    if face.rank in ranks:
        return True
    high = 14 if face.rank == 1 else face.rank
    for suit, rank in near:
        if suit == face.suit_index and (
            abs(rank - face.rank) <= 2 or abs((14 if rank == 1 else rank) - high) <= 2
        ):
            return True
    return False
