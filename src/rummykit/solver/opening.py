"""Exact search for the best first laydown (RULES §9.8) and the most value a rack can lay.

Method
------
A laydown is a multiset of disjoint candidates (:mod:`rummykit.model.candidates`,
every formation fully declared).  Every candidate holds at least one natural
piece (RULES §2.2 / A-66), so jokers never need a branch of their own: they are
only ever consumed inside a candidate.

Take the lowest natural kind ``k`` left on the rack.  In any laydown either
one copy of ``k`` stays on the rack, or some candidate holds it, and that
candidate's lowest natural kind is ``k`` because nothing lower is left.  The
two branches leave a smaller rack whose best laydown is the same question
again, so the answers are memoised on the rack.  Every laydown is reachable
this way, which is what makes the search exact.

Each answer is a 4-tuple indexed by the *class* of the laydown (bit 1: it
holds a run, bit 2: it holds a set), so the structure rules of §9.8 are
checked exactly instead of being approximated by a penalty.  ``keep`` (pieces
that must stay on the rack) becomes a budget of pieces that may still be laid;
it is part of the memo key only while it can still bind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rummykit.model.candidates import Candidate, candidates, counts_of
from rummykit.model.melds import HIGH_ACE, MeldKind
from rummykit.model.pieces import JOKER_KIND, Face
from rummykit.rules.variant import OpeningStructure, Variant

__all__ = ["Laydown", "best_laydown", "best_opening", "opening_requirement"]

_RUN = 1
_SET = 2
_NONE = -(1 << 62)
"""Score of "no laydown of this class": adding any number of real scores keeps it negative."""

_Classes = tuple[int, int, int, int]
"""Best score for laydowns without melds, with runs only, sets only, runs and sets."""

_ALLOWED: dict[OpeningStructure, frozenset[int]] = {
    OpeningStructure.NONE: frozenset({_RUN, _SET, _RUN | _SET}),
    # The lone set of 1s of RUN_OR_ONES_SET is not a class; it is checked apart.
    OpeningStructure.RUN_OR_ONES_SET: frozenset({_RUN, _RUN | _SET}),
    OpeningStructure.RUN_AND_SET: frozenset({_RUN | _SET}),
    OpeningStructure.RUN: frozenset({_RUN, _RUN | _SET}),
}


@dataclass(frozen=True, slots=True)
class Laydown:
    """A set of disjoint formations taken from a rack, and what it is worth.

    ``melds`` are in display order: runs (by suit, then position) before sets
    (by rank).  ``points`` is the sum of the variant's opening values of every
    piece at its position.
    """

    melds: tuple[Candidate, ...]
    points: int
    valid_opening: bool
    """The structure rule holds and ``points`` reaches the minimum."""


def best_opening(
    faces: Sequence[Face],
    variant: Variant,
    options: Mapping[str, object],
    *,
    keep: int = 0,
    must_include: Face | None = None,
) -> Laydown:
    """The first laydown with the most opening points the rack ``faces`` allows.

    Only laydowns meeting ``options["opening_structure"]`` (RULES §9.8,
    A-45/A-46; missing: no structure rule) are considered; they leave at least
    ``keep`` pieces on the rack and, with ``must_include``, lay at least one
    piece of that face (a joker counts only when ``must_include`` is the
    joker).  Ties go to fewer jokers, then to the lexicographically smallest
    sorted tuple of the melds' ``kinds``.  ``valid_opening`` tells whether the
    points reach ``options["opening_min_points"]`` (missing: 0).  With no
    legal laydown at all the answer is ``Laydown((), 0, False)``.
    """
    structure = _structure(options)
    minimum = _min_points(options)
    found = _search(faces, variant, structure, keep, must_include)
    if found is None:
        return Laydown((), 0, False)
    melds, points = found
    return Laydown(melds, points, points >= minimum)


def opening_requirement(variant: Variant, options: Mapping[str, object]) -> dict[str, object]:
    """The ``opening_structure``/``opening_min_points`` a variant's resolved options imply,
    in the form :func:`best_opening` reads (RULES §5.5, §8.5, §9.8, §10.5)."""
    play = variant.play_rules(options)  # type: ignore[arg-type]
    return {
        "opening_structure": str(play.opening_structure),
        "opening_min_points": play.opening_min_points,
    }


def best_laydown(faces: Sequence[Face], variant: Variant, *, keep: int = 0) -> Laydown:
    """The laydown with the most opening points, with no structure rule or minimum.

    This is "the most value a rack can lay"; ``keep`` pieces must stay on the
    rack.  ``valid_opening`` is True whenever something can be laid.  Ties are
    broken as in :func:`best_opening`.
    """
    found = _search(faces, variant, OpeningStructure.NONE, keep, None)
    if found is None:
        return Laydown((), 0, False)
    melds, points = found
    return Laydown(melds, points, True)


def _structure(options: Mapping[str, object]) -> OpeningStructure:
    raw = options.get("opening_structure")
    if raw is None:
        return OpeningStructure.NONE
    try:
        return OpeningStructure(str(raw))
    except ValueError:
        known = ", ".join(s.value for s in OpeningStructure)
        raise ValueError(f"opening_structure {raw!r} is not one of {known}") from None


def _min_points(options: Mapping[str, object]) -> int:
    raw = options.get("opening_min_points", 0)
    if raw is None:
        return 0
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise TypeError(f"opening_min_points must be an int, not {raw!r}")
    return raw


def _sort_key(cand: Candidate) -> tuple[tuple[int, ...], tuple[int, ...]]:
    # Positions only matter when a run and a set share their kinds (R5 J J).
    return cand.kinds, cand.positions


def _display_key(cand: Candidate) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    return (cand.kind is MeldKind.SET, cand.suit, cand.positions, cand.kinds)


def _search(
    faces: Sequence[Face],
    variant: Variant,
    structure: OpeningStructure,
    keep: int,
    must_include: Face | None,
) -> tuple[tuple[Candidate, ...], int] | None:
    """The best laydown under ``structure`` as (melds in display order, points), or None."""
    if keep < 0:
        raise ValueError(f"keep must not be negative, not {keep}")
    budget = len(faces) - keep
    counts = counts_of([f.kind for f in faces])
    must = None if must_include is None else must_include.kind
    if must is not None and counts[must] == 0:
        return None
    table = _Table(candidates(counts, variant.meld_rules), counts, variant, must)
    solve = table.solver()
    start = table.state
    need = must is not None
    best = solve(start, len(faces), budget, need)
    allowed = _ALLOWED[structure]
    top = max(best[m] for m in allowed)
    chosen: list[Candidate] | None = None
    if top > 0:
        chosen = table.rebuild(solve, start, len(faces), budget, need, top, allowed)
    if structure is OpeningStructure.RUN_OR_ONES_SET:
        # with no run, the laydown is exactly one set of 1s and nothing else.
        for i, cand in enumerate(table.cands):
            if not (cand.kind is MeldKind.SET and cand.positions[0] == 1):
                continue
            if table.size[i] > budget or (need and not table.hits[i]):
                continue
            score = table.score[i]
            if score > top or (
                score == top
                and chosen is not None
                and [_sort_key(cand)] < sorted(_sort_key(c) for c in chosen)
            ):
                top, chosen = score, [cand]
    if chosen is None or top <= 0:
        return None
    points = sum(variant.opening_value(c.kind, p) for c in chosen for p in c.positions)
    return tuple(sorted(chosen, key=_display_key)), points


class _Table:
    """The candidates of one rack, pre-digested for the search.

    A rack is an int holding one bit field per face kind (count plus a guard
    bit), so "does this candidate still fit" is one subtraction and one mask
    instead of a loop over its kinds.
    """

    def __init__(
        self,
        found: Sequence[Candidate],
        counts: Sequence[int],
        variant: Variant,
        must: int | None,
    ) -> None:
        bits = max(1, max(counts).bit_length())
        self.width = width = bits + 1
        self.guard = sum(1 << (width * k + bits) for k in range(JOKER_KIND + 1))
        self.naturals = (1 << (width * JOKER_KIND)) - 1
        self.state = sum(c << (width * k) for k, c in enumerate(counts))
        self.must_field = 0 if must is None else ((1 << bits) - 1) << (width * must)
        # Jokers used break ties between equal points: fewer is better, and no
        # laydown uses more jokers than the rack holds.
        scale = counts[JOKER_KIND] + 1
        self.cands: list[Candidate] = []
        self.need: list[int] = []
        self.size: list[int] = []
        self.score: list[int] = []
        self.bit: list[int] = []
        self.hits: list[bool] = []
        # What the search branches on: for each lowest natural kind, the distinct
        # (pieces, class) pairs with their best score.  Readings of the same
        # pieces that score less (R5 J J as 3-4-5 or 5-6-7) can never beat the
        # best one, so only rebuild() looks at every candidate.
        best_of: dict[tuple[int, int], int] = {}
        # Below this budget nothing fits, so the search stops early.
        self.smallest = 1 << 30
        # One opening value per (meld kind, position), looked up instead of called.
        run_value = [variant.opening_value(MeldKind.RUN, p) for p in range(HIGH_ACE + 1)]
        set_value = [variant.opening_value(MeldKind.SET, p) for p in range(HIGH_ACE + 1)]
        for cand in sorted(found, key=_sort_key):
            need = 0
            for k, c in cand.need:
                need += c << (width * k)
            if not self.fits(self.state, need):
                continue
            i = len(self.cands)
            size = len(cand.kinds)
            is_run = cand.kind is MeldKind.RUN
            values = run_value if is_run else set_value
            points = 0
            for p in cand.positions:
                points += values[p]
            self.cands.append(cand)
            self.need.append(need)
            self.size.append(size)
            self.smallest = min(self.smallest, size)
            self.score.append(points * scale - cand.kinds.count(JOKER_KIND))
            self.bit.append(_RUN if is_run else _SET)
            self.hits.append(must is not None and must in cand.kinds)
            kept = best_of.setdefault((need, self.bit[i]), i)
            if self.score[i] > self.score[kept]:
                best_of[need, self.bit[i]] = i
        self.by_low: list[list[tuple[int, int, int, int, bool]]] = [[] for _ in range(JOKER_KIND)]
        for i in sorted(best_of.values()):
            # ``need`` is sorted by kind and jokers come last, so it starts with
            # the lowest natural (every candidate has one).
            self.by_low[self.cands[i].need[0][0]].append(
                (self.need[i], self.size[i], self.score[i], self.bit[i], self.hits[i])
            )

    def fits(self, state: int, need: int) -> bool:
        """Whether the rack ``state`` holds every piece ``need`` counts."""
        # Each field of state|guard stays >= need's field unless the rack lacks
        # pieces, in which case that field borrows from its own guard bit only.
        return ((state | self.guard) - need) & self.guard == self.guard

    def solver(self) -> Callable[[int, int, int, bool], _Classes]:
        """A memoised ``solve(rack, pieces, budget, need_must) -> best score per class``.

        ``pieces`` is how many pieces the rack holds, ``budget`` how many may
        still be laid, ``need_must`` whether the must-include face is still
        owed.  The memo lives in the closure, so calls never share state.
        """
        memo: dict[tuple[int, int, bool], _Classes] = {}
        width = self.width
        guard = self.guard
        naturals = self.naturals
        must_field = self.must_field
        by_low = self.by_low
        smallest = self.smallest
        nothing: _Classes = (_NONE, _NONE, _NONE, _NONE)
        empty: _Classes = (0, _NONE, _NONE, _NONE)

        def solve(state: int, pieces: int, budget: int, owed: bool) -> _Classes:
            if budget > pieces:
                budget = pieces  # a slack budget must not split the memo
            key = (state, budget, owed)
            hit = memo.get(key)
            if hit is not None:
                return hit
            if owed and not state & must_field:
                result = nothing
            elif budget < smallest or not state & naturals:
                result = nothing if owed else empty
            else:
                low = (state & -state).bit_length() - 1
                kind = low // width
                # Branch 1: one copy of the lowest kind stays on the rack.
                r0, r1, r2, r3 = solve(state - (1 << (width * kind)), pieces - 1, budget, owed)
                # Branch 2: a candidate whose lowest natural is that kind takes it.
                for need, size, value, bit, hits in by_low[kind]:
                    if size > budget or ((state | guard) - need) & guard != guard:
                        continue
                    s0, s1, s2, s3 = solve(
                        state - need, pieces - size, budget - size, owed and not hits
                    )
                    if bit == _RUN:
                        r1 = max(r1, max(s0, s1) + value)
                        r3 = max(r3, max(s2, s3) + value)
                    else:
                        r2 = max(r2, max(s0, s2) + value)
                        r3 = max(r3, max(s1, s3) + value)
                result = (r0, r1, r2, r3)
            memo[key] = result
            return result

        return solve

    def rebuild(
        self,
        solve: Callable[[int, int, int, bool], _Classes],
        state: int,
        pieces: int,
        budget: int,
        owed: bool,
        target: int,
        allowed: frozenset[int],
    ) -> list[Candidate]:
        """The laydown scoring ``target`` with an allowed class and the smallest sorted kinds.

        The smallest sorted tuple starts with the smallest candidate found in
        any optimal laydown, and its tail is the smallest optimal completion of
        the rest; candidates are scanned in that order, so greed is exact.
        """
        chosen: list[Candidate] = []
        acc = 0
        while not (target == 0 and not owed and acc in allowed):
            for i, cand in enumerate(self.cands):
                size = self.size[i]
                value = self.score[i]
                if size > budget or value > target or not self.fits(state, self.need[i]):
                    continue
                rest_owed = owed and not self.hits[i]
                sub = solve(state - self.need[i], pieces - size, budget - size, rest_owed)
                cls = acc | self.bit[i]
                if any(sub[m] == target - value and cls | m in allowed for m in range(4)):
                    chosen.append(cand)
                    state -= self.need[i]
                    pieces -= size
                    budget -= size
                    owed = rest_owed
                    target -= value
                    acc = cls
                    break
            else:  # pragma: no cover - solve() promised this target
                raise AssertionError("opening search lost its own optimum")
        return chosen
