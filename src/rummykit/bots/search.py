"""The ``hard`` bot: determinized search over sampled worlds, under a time budget.

At every decision that matters — which piece to discard, whether to take the top
discard, whether to declare board play (Remi, RULES §9.13), whether to call "Remi!"
(Vienna, §6.6) — the bot lists a few candidate actions (the one-ply expert's pick
first, then the next best by its own scores) and plays each of them out in worlds
drawn from its view with :func:`~rummykit.bots.resample.resample`: hidden racks and
the stock order consistent with everything public (pieces taken from the column or
pile, laid, exchanged, announced).  Every candidate meets the same worlds and the same
rollout seeds (common random numbers), so the comparison is paired.  A rollout plays
the deal to its end with :class:`~rummykit.bots.greedy.GreedyBot` at every seat — the
fast rollout policy, which plays every variant's scoring rules — and scores the seat's
deal margin (its score minus the others' mean).

The budget is time (:attr:`Budget.seconds`, the default for play) or a fixed number of
worlds (:attr:`Budget.worlds`: the deterministic mode tests use; the same ``rng`` then
gives the same choice).  Work is reused within a turn: the worlds sampled for one
decision are advanced by the bot's own public move (a meld, an attach, a take) and
serve the next decision of the same turn; a draw reveals a piece, so worlds are then
drawn again.

The expert's pick stays unless a candidate beats it clearly: a paired mean gain with
a z-score of at least :attr:`Budget.confidence` over at least :attr:`Budget.min_worlds`
worlds — deal margins are noisy, and a search that follows noise plays worse than the
one-ply expert (docs/strength.md).  The bot reads only its view and the legal list.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.bots.base import play_to_end
from rummykit.bots.expert import ExpertBot, Level, deal_margin
from rummykit.bots.gin import plays_gin
from rummykit.bots.greedy import GreedyBot, greedy_order, outside_kinds
from rummykit.bots.resample import ResampleError, resample
from rummykit.engine.actions import (
    Action,
    CallRemi,
    DeclareBoard,
    Discard,
    Draw,
    TakeColumn,
)
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import SeatView, view
from rummykit.model.pieces import Face
from rummykit.rules.variant import TakeUse, Variant, find_variant

__all__ = ["DEFAULT_BUDGET", "Budget", "SearchBot", "rollout_margin"]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much the search may do per decision."""

    seconds: float | None = 0.6
    """Wall-clock time per decision (None: use :attr:`worlds`).  A world still being
    played out when the time is up is dropped, so a decision takes at most this plus
    one rollout chunk (:data:`ROLLOUT_CHUNK` actions)."""
    worlds: int = 64
    """The most worlds per decision; with ``seconds`` None, exactly this many
    (deterministic: the same ``rng`` gives the same choice)."""
    min_worlds: int = 4
    """Worlds needed before the expert's pick may be replaced."""
    confidence: float = 1.5
    """The paired z-score a candidate's gain over the expert's pick needs."""
    discards: int = 3
    """Discard candidates searched: the expert's pick and the next best by its order
    (a greedy rollout to the deal's end costs 20-120 ms, so candidates are few)."""
    rollout_actions: int = 600
    """A rollout longer than this is stopped and scores 0 (a stalled deal)."""


DEFAULT_BUDGET = Budget()
"""``hard`` as players meet it: about 0.6 s of search a decision on one core (docs/strength.md)."""


ROLLOUT_CHUNK = 16
"""Actions a rollout plays between looks at the clock."""


def rollout_margin(
    game: Game,
    seat: int,
    rng: random.Random,
    limit: int,
    deadline: float | None = None,
) -> float | None:
    """``seat``'s deal margin after greedy play at every seat to the deal's end: its
    score minus the others' mean, turned round where the lowest total wins.  0 for a
    deal still running after ``limit`` actions; None once ``deadline``
    (:func:`time.perf_counter`) has passed."""
    deals = len(game.results)
    bots = [GreedyBot() for _ in range(game.players)]
    played = 0
    while len(game.results) == deals and played < limit and not game.is_over:
        if deadline is not None and time.perf_counter() > deadline:
            return None
        step = min(ROLLOUT_CHUNK, limit - played)
        played += play_to_end(game, bots, rng, stop_at_deal_end=True, max_actions=step)
    return deal_margin(game, seat, deals)


class SearchBot:
    """Determinized search on top of the one-ply expert (module docstring)."""

    def __init__(self, budget: Budget = DEFAULT_BUDGET, *, base: str | Level = "medium") -> None:
        self.budget = budget
        self.name = "expert-hard"
        self._expert = ExpertBot(base)
        self._worlds: list[Game] = []
        self._worlds_key: tuple[int, int] | None = None
        self.last_worlds = 0
        """Worlds the last searched decision used (0: not searched)."""

    # ------------------------------------------------------------------ choosing

    def choose(self, view_: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Pick an action from ``legal`` for ``view_``'s seat."""
        base = self._expert.choose(view_, legal, rng)
        self.last_worlds = 0
        variant = find_variant(view_.variant)
        if view_.phase not in (Phase.TURNS, Phase.ROUND1) or plays_gin(variant, view_):
            return base
        candidates = self._candidates(view_, legal, base, variant, rng)
        action = base
        if len(candidates) > 1:
            action = self._search(view_, candidates, rng)
            if action != base:
                # The expert's turn plan was made for its own pick.
                self._expert.forget_plan()
        self._advance_worlds(view_, action)
        return action

    def _candidates(
        self,
        view_: SeatView,
        legal: Sequence[Action],
        base: Action,
        variant: Variant,
        rng: random.Random,
    ) -> list[Action]:
        """The expert's pick first, then the alternatives worth searching."""
        legal_set = set(legal)
        out: list[Action] = [base]

        def add(action: Action | None) -> None:
            if action is not None and action in legal_set and action not in out:
                out.append(action)

        if DeclareBoard() in legal_set:
            # RULES §9.13: play on the board, or lay out as greedy would.
            add(DeclareBoard())
            add(GreedyBot(board_play=False).choose(view_, legal, random.Random(0)))
        if isinstance(base, Discard | CallRemi):
            for face in self._discard_order(view_, legal, variant):
                if len(out) >= self.budget.discards:
                    break
                add(Discard(face))
            add(CallRemi())
        if isinstance(base, Draw | TakeColumn) and view_.column:
            take = TakeColumn(len(view_.column) - 1)
            # Where a taken piece must go into a formation this turn (Remi, §9.6) only
            # the expert's own plan can use it: no take is searched there.
            if (
                variant.play_rules(view_.options).take_use is TakeUse.NONE
                or view_.board[view_.seat]
            ):
                add(take)
                add(Draw())
        return out

    def _discard_order(
        self, view_: SeatView, legal: Sequence[Action], variant: Variant
    ) -> list[Face]:
        faces = sorted({a.face for a in legal if isinstance(a, Discard)})
        rules = variant.rules_for(view_.options)
        rack = list(view_.rack)
        key: Callable[[Face], tuple[Any, ...]]
        if variant.find_layout is not None:
            # Continental's hand goes out whole (RULES §7.6): pieces outside runs first.
            outside = set(outside_kinds(rack, rules))
            order = greedy_order(view_, variant)

            def key(face: Face) -> tuple[Any, ...]:
                return (face.kind not in outside, *order(face))

        elif variant.arrange_hand is not None:
            arrange = variant.arrange_hand

            # Vienna's hand is judged whole at the showdown (RULES §6.6): least deadwood.
            def key(face: Face) -> tuple[Any, ...]:
                rest = list(rack)
                rest.remove(face)
                return (arrange(rest, view_.options).points, -variant.score_value(face))

        else:
            key = greedy_order(view_, variant)
        return [f for f in sorted(faces, key=key) if not rules.is_wild(f)] or faces

    # ------------------------------------------------------------------ worlds

    def _advance_worlds(self, view_: SeatView, action: Action) -> None:
        """Keep the worlds for the rest of the turn when ``action`` shows nothing new:
        a draw brings an unseen piece onto the rack, a discard ends the turn."""
        if isinstance(action, Draw | Discard | CallRemi) or not self._worlds:
            self._worlds, self._worlds_key = [], None
            return
        kept: list[Game] = []
        for world in self._worlds:
            try:
                world.apply(action)
            except IllegalActionError:
                continue
            kept.append(world)
        self._worlds = kept
        self._worlds_key = (view_.deal_number, len(view_.history) + 1)

    def _reused(self, view_: SeatView) -> list[Game]:
        if self._worlds_key != (view_.deal_number, len(view_.history)):
            return []
        return [w for w in self._worlds if view(w, view_.seat) == view_]

    def _search(self, view_: SeatView, candidates: Sequence[Action], rng: random.Random) -> Action:
        """The candidate with the best paired mean margin, if it beats candidate 0
        clearly (module docstring)."""
        budget = self.budget
        start = time.perf_counter()
        deadline = None if budget.seconds is None else start + budget.seconds
        worlds = self._reused(view_)
        pool: list[Game] = []
        margins: list[list[float]] = [[] for _ in candidates]
        failures = 0
        while len(margins[0]) < budget.worlds and failures < budget.worlds:
            if deadline is not None and time.perf_counter() > deadline:
                break
            if worlds:
                world = worlds.pop()
            else:
                try:
                    world = resample(view_, rng)
                except ResampleError:
                    failures += 1
                    continue
            seed = rng.randrange(2**32)
            row = self._play_out(world, view_.seat, candidates, seed, deadline)
            if row is None:
                # Out of time in the middle of a world: a partial world is not paired.
                break
            pool.append(world)
            for i, margin in enumerate(row):
                margins[i].append(margin)
        self._worlds, self._worlds_key = pool, (view_.deal_number, len(view_.history))
        self.last_worlds = len(margins[0])
        return candidates[_pick(margins, budget)]

    def _play_out(
        self,
        world: Game,
        seat: int,
        candidates: Sequence[Action],
        seed: int,
        deadline: float | None,
    ) -> list[float] | None:
        """Each candidate's margin in ``world`` (the same rollout seed for all), or None
        when the deadline passes first."""
        row: list[float] = []
        for action in candidates:
            game = world.copy()
            try:
                game.apply(action)
            except IllegalActionError:
                row.append(-math.inf)
                continue
            margin = rollout_margin(
                game, seat, random.Random(seed), self.budget.rollout_actions, deadline
            )
            if margin is None:
                return None
            row.append(margin)
        return row


def _pick(margins: Sequence[Sequence[float]], budget: Budget) -> int:
    """Candidate 0 unless another's paired gain over it has a z-score of at least
    ``budget.confidence`` (over at least ``budget.min_worlds`` worlds); the largest
    mean gain among those."""
    played = len(margins[0])
    if played < max(2, budget.min_worlds):
        return 0
    best, best_gain = 0, 0.0
    for i in range(1, len(margins)):
        diffs = [a - b for a, b in zip(margins[i], margins[0], strict=True)]
        if any(math.isinf(d) for d in diffs):
            continue
        mean = sum(diffs) / played
        var = sum((d - mean) ** 2 for d in diffs) / (played - 1)
        se = math.sqrt(var / played)
        z = math.inf if se == 0 else mean / se
        if mean > best_gain and z >= budget.confidence:
            best, best_gain = i, mean
    return best
