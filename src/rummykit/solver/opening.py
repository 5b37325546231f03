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
from typing import Any

from rummykit.model.candidates import Candidate, candidates, counts_of
from rummykit.model.melds import MeldKind, MeldRules
from rummykit.model.pieces import JOKER_KIND, Face
from rummykit.rules.variant import OpeningStructure, Variant

__all__ = [
    "FREE_OPENING",
    "Laydown",
    "OpeningRequirement",
    "best_laydown",
    "best_opening",
    "opening_requirement",
]

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


@dataclass(frozen=True, slots=True)
class OpeningRequirement:
    """What a first laydown must meet (RULES §5.5, §8.5, §9.8, §10.5)."""

    structure: OpeningStructure = OpeningStructure.NONE
    """What it must include (A-45/A-46)."""
    min_points: int = 0
    """The opening points it must reach."""


FREE_OPENING = OpeningRequirement()
"""No requirement: the laydown with the most points, whatever it holds."""


def best_opening(
    faces: Sequence[Face],
    variant: Variant,
    requirement: OpeningRequirement | Mapping[str, Any],
    *,
    keep: int = 0,
    must_include: Face | None = None,
    rules: MeldRules | None = None,
) -> Laydown:
    """The first laydown with the most opening points the rack ``faces`` allows.

    Only laydowns meeting ``requirement`` (an :class:`OpeningRequirement`, or a
    variant's parsed options, whose requirement :func:`opening_requirement` reads; RULES
    §9.8, A-45/A-46) are considered; they leave at least
    ``keep`` pieces on the rack and, with ``must_include``, lay at least one
    piece of that face (a joker counts only when ``must_include`` is the
    joker).  Ties go to fewer jokers, then to the lexicographically smallest
    sorted tuple of the melds' ``kinds``.  ``valid_opening`` tells whether the
    points reach the requirement's minimum.  With no
    legal laydown at all the answer is ``Laydown((), 0, False)``.  ``rules``
    overrides ``variant.meld_rules`` (pass ``variant.rules_for(options)`` when
    options change the meld rules).
    """
    if not isinstance(requirement, OpeningRequirement):
        requirement = opening_requirement(variant, requirement)
    found = _search(faces, variant, requirement.structure, keep, must_include, rules)
    if found is None:
        return Laydown((), 0, False)
    melds, points = found
    return Laydown(melds, points, points >= requirement.min_points)


def opening_requirement(variant: Variant, options: Mapping[str, Any]) -> OpeningRequirement:
    """What a first laydown must meet under a variant's parsed options (RULES §5.5,
    §8.5, §9.8, §10.5)."""
    play = variant.play_rules(options)
    return OpeningRequirement(play.opening_structure, play.opening_min_points)


def best_laydown(
    faces: Sequence[Face],
    variant: Variant,
    *,
    keep: int = 0,
    rules: MeldRules | None = None,
) -> Laydown:
    """The laydown with the most opening points, with no structure rule or minimum.

    This is "the most value a rack can lay" (each piece valued by
    ``variant.opening_value`` at its position); ``keep`` pieces must stay on
    the rack.  ``valid_opening`` is True whenever something can be laid.  Ties
    are broken as in :func:`best_opening`; ``rules`` as there.
    """
    found = _search(faces, variant, OpeningStructure.NONE, keep, None, rules)
    if found is None:
        return Laydown((), 0, False)
    melds, points = found
    return Laydown(melds, points, True)


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
    rules: MeldRules | None = None,
) -> tuple[tuple[Candidate, ...], int] | None:
    """The best laydown under ``structure`` as (melds in display order, points), or None."""
    if keep < 0:
        raise ValueError(f"keep must not be negative, not {keep}")
    pieces = len(faces)
    budget = pieces - keep
    counts = counts_of([f.kind for f in faces])
    must = None if must_include is None else must_include.kind
    if must is not None and counts[must] == 0:
        return None
    meld_rules = variant.meld_rules if rules is None else rules
    table = _Table(candidates(counts, meld_rules), counts, variant, must)
    allowed = _ALLOWED[structure]
    start = table.state
    owed = must is not None
    top = 0
    chosen: list[Candidate] | None = None
    if must is None and budget >= pieces:
        # Nothing binds but the structure: the memo is keyed by the rack alone.
        if structure is OpeningStructure.NONE:
            solve = table.plain_solver()
        else:
            solve = table.class_solver(structure)
    else:
        solve = table.solver()
    top = max(solve(start, pieces, budget, owed)[m] for m in allowed)
    if top > 0:
        chosen = table.rebuild(solve, start, pieces, budget, owed, top, allowed)
    if structure is OpeningStructure.RUN_OR_ONES_SET:
        # with no run, the laydown is exactly one set of 1s and nothing else.
        for i in table.ones_sets:
            cand, _, size, _, _, score, _ = table.cands[i]
            if size > budget or (owed and not table.hits[i]):
                continue
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


_JOKER_SCALE = 64
"""Scores are ``points * 64 - jokers``: fewer jokers break ties (no rack holds 64)."""

_Entry = tuple[Candidate, int, int, int, int, int, int]
"""A candidate pre-digested for one field width: (candidate, need, size, lowest kind,
class bit, score, order) where ``order`` sorts as :func:`_sort_key`."""

_ENTRIES: dict[tuple[int, Callable[[MeldKind, int], int]], dict[int, _Entry]] = {}


def _entries(
    found: Sequence[Candidate], width: int, value: Callable[[MeldKind, int], int]
) -> list[_Entry]:
    """The digested form of every candidate, cached across racks.

    :func:`candidates` hands out the same objects for the same suit rows and set
    columns, so the cache is keyed by identity; it holds each candidate, so an
    id is never reused while its entry lives.
    """
    cache = _ENTRIES.get((width, value))
    if cache is None:
        cache = _ENTRIES[width, value] = {}
    elif len(cache) > 200_000:
        cache.clear()
    out: list[_Entry] = []
    for cand in found:
        entry = cache.get(id(cand))
        if entry is None or entry[0] is not cand:
            need = 0
            for k, c in cand.need:
                need += c << (width * k)
            points = sum(value(cand.kind, p) for p in cand.positions)
            score = points * _JOKER_SCALE - cand.kinds.count(JOKER_KIND)
            bit = _RUN if cand.kind is MeldKind.RUN else _SET
            # ``need`` is sorted by kind and jokers come last.
            entry = (cand, need, len(cand.kinds), cand.need[0][0], bit, score, _order(cand))
            cache[id(cand)] = entry
        out.append(entry)
    return out


def _order(cand: Candidate) -> int:
    """An int that sorts like :func:`_sort_key` (kinds, then positions, lexicographically)."""
    code = 0
    for i in range(15):
        code = code * 54 + (cand.kinds[i] + 1 if i < len(cand.kinds) else 0)
    for i in range(15):
        code = code * 16 + (cand.positions[i] if i < len(cand.positions) else 0)
    return code


_GUARDS: dict[int, int] = {}


def _guard(width: int) -> int:
    guard = _GUARDS.get(width)
    if guard is None:
        guard = _GUARDS[width] = sum(1 << (width * k + width - 1) for k in range(JOKER_KIND + 1))
    return guard


_Solve = Callable[[int, int, int, bool], _Classes]

_EMPTY: list[int] = []
"""The shared row of a kind no candidate starts at (never appended to)."""


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
        top = max(counts)
        # A fixed width for ordinary racks keeps the digested candidates reusable.
        bits = 3 if top < 8 else top.bit_length()
        self.width = width = bits + 1
        self.guard = guard = _guard(width)
        self.naturals = (1 << (width * JOKER_KIND)) - 1
        state = 0
        for k, c in enumerate(counts):
            if c:
                state |= c << (width * k)
        self.state = state
        self.must_field = 0 if must is None else ((1 << bits) - 1) << (width * must)
        held = state | guard
        self.cands = cands = [
            e
            for e in _entries(found, width, variant.opening_value)
            if (held - e[1]) & guard == guard
        ]
        self.hits = [False] * len(cands) if must is None else [must in e[0].kinds for e in cands]
        self.ones_sets = [i for i, e in enumerate(cands) if e[4] == _SET and e[0].positions[0] == 1]
        self.smallest = min((e[2] for e in cands), default=1 << 30)

    def _rows(self, by_class: bool) -> list[list[int]]:
        """Per lowest natural kind, the candidates the search branches on.

        Readings of the same pieces (in the same class, when classes count)
        are interchangeable in the search, so only the best-scoring one is
        kept: R5 J J as 3-4-5 can never beat 5-6-7.
        """
        cands = self.cands
        best_of: dict[int, int] = {}
        for i, e in enumerate(cands):
            key = e[1] * 4 + e[4] if by_class else e[1]
            kept = best_of.get(key)
            if kept is None or e[5] > cands[kept][5]:
                best_of[key] = i
        rows: list[list[int]] = [_EMPTY] * JOKER_KIND
        for i in best_of.values():
            low = cands[i][3]
            row = rows[low]
            if row is _EMPTY:
                rows[low] = [i]
            else:
                row.append(i)
        return rows

    def plain_solver(self) -> _Solve:
        """``solve`` with one score for every class, keyed by the rack alone.

        The answer is widened to the four classes (every nonempty class gets
        the best score), which :meth:`rebuild` reads as "any class will do".
        """
        width = self.width
        guard = self.guard
        naturals = self.naturals
        cands = self.cands
        rows: list[Sequence[tuple[int, int]]] = [
            [(cands[i][1], cands[i][5]) for i in row if cands[i][5] > 0] if row else ()
            for row in self._rows(by_class=False)
        ]
        memo: dict[int, int] = {}

        def solve(state: int) -> int:
            hit = memo.get(state)
            if hit is not None:
                return hit
            best = 0
            if state & naturals:
                kind = ((state & -state).bit_length() - 1) // width
                best = solve(state - (1 << (width * kind)))
                held = state | guard
                for need, value in rows[kind]:
                    if (held - need) & guard == guard:
                        score = solve(state - need) + value
                        if score > best:
                            best = score
            memo[state] = best
            return best

        def widened(state: int, pieces: int, budget: int, owed: bool) -> _Classes:
            best = solve(state)
            return (best, best, best, best) if best > 0 else (0, _NONE, _NONE, _NONE)

        return widened

    def class_solver(self, structure: OpeningStructure) -> _Solve:
        """``solve`` for a search with no piece budget and no must-include face.

        The memo is keyed by the rack alone.  With ``RUN_AND_SET`` the four
        classes are tracked; otherwise only "holds a run" (the structure rules
        of §9.8 ask nothing else), widened so that class 1 and 3 hold the best
        laydown with a run and class 2 the best one without.
        """
        width = self.width
        guard = self.guard
        naturals = self.naturals
        cands = self.cands
        rows: list[Sequence[tuple[int, int, int]]] = [
            [(cands[i][1], cands[i][5], cands[i][4]) for i in row] if row else ()
            for row in self._rows(True)
        ]
        if structure is OpeningStructure.RUN_AND_SET:
            memo4: dict[int, _Classes] = {}
            empty: _Classes = (0, _NONE, _NONE, _NONE)

            def solve4(state: int) -> _Classes:
                hit = memo4.get(state)
                if hit is not None:
                    return hit
                if not state & naturals:
                    memo4[state] = empty
                    return empty
                kind = ((state & -state).bit_length() - 1) // width
                r0, r1, r2, r3 = solve4(state - (1 << (width * kind)))
                held = state | guard
                for need, value, bit in rows[kind]:
                    if (held - need) & guard == guard:
                        s0, s1, s2, s3 = solve4(state - need)
                        if bit == _RUN:
                            r1 = max(r1, max(s0, s1) + value)
                            r3 = max(r3, max(s2, s3) + value)
                        else:
                            r2 = max(r2, max(s0, s2) + value)
                            r3 = max(r3, max(s1, s3) + value)
                result = (r0, r1, r2, r3)
                memo4[state] = result
                return result

            return lambda state, pieces, budget, owed: solve4(state)

        memo2: dict[int, tuple[int, int]] = {}
        unit = [1 << (width * k) for k in range(JOKER_KIND + 1)]
        get = memo2.get

        def solve2(state: int) -> tuple[int, int]:
            # Children are looked up before calling: most are already known.
            if not state & naturals:
                return (0, _NONE)
            kind = ((state & -state).bit_length() - 1) // width
            child = state - unit[kind]
            found = get(child)
            r0, r1 = solve2(child) if found is None else found
            held = state | guard
            for need, value, bit in rows[kind]:
                if (held - need) & guard == guard:
                    child = state - need
                    found = get(child)
                    s0, s1 = solve2(child) if found is None else found
                    if bit == _RUN:
                        s = (s0 if s0 > s1 else s1) + value
                        if s > r1:
                            r1 = s
                    else:
                        if s0 + value > r0:
                            r0 = s0 + value
                        if s1 + value > r1:
                            r1 = s1 + value
            result = (r0, r1)
            memo2[state] = result
            return result

        def widened(state: int, pieces: int, budget: int, owed: bool) -> _Classes:
            found = get(state)
            r0, r1 = solve2(state) if found is None else found
            return (0, r1, r0 if r0 > 0 else _NONE, r1)

        return widened

    def solver(self) -> _Solve:
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
        cands = self.cands
        hits = self.hits
        rows = [
            [(cands[i][1], cands[i][2], cands[i][5], cands[i][4], hits[i]) for i in row]
            for row in self._rows(True)
        ]
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
                kind = ((state & -state).bit_length() - 1) // width
                # Branch 1: one copy of the lowest kind stays on the rack.
                r0, r1, r2, r3 = solve(state - (1 << (width * kind)), pieces - 1, budget, owed)
                # Branch 2: a candidate whose lowest natural is that kind takes it.
                for need, size, value, bit, hit_must in rows[kind]:
                    if size > budget or ((state | guard) - need) & guard != guard:
                        continue
                    s0, s1, s2, s3 = solve(
                        state - need, pieces - size, budget - size, owed and not hit_must
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
        solve: _Solve,
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
        guard = self.guard
        hits = self.hits
        scan = sorted(range(len(self.cands)), key=lambda i: self.cands[i][6])
        while not (target == 0 and not owed and acc in allowed):
            held = state | guard
            for i in scan:
                cand, need, size, _, bit, value, _ = self.cands[i]
                if size > budget or value > target or (held - need) & guard != guard:
                    continue
                rest_owed = owed and not hits[i]
                sub = solve(state - need, pieces - size, budget - size, rest_owed)
                cls = acc | bit
                rest = target - value
                if any(sub[m] == rest and cls | m in allowed for m in range(4)):
                    chosen.append(cand)
                    state -= need
                    pieces -= size
                    budget -= size
                    owed = rest_owed
                    target = rest
                    acc = cls
                    break
            else:  # pragma: no cover - solve() promised this target
                raise AssertionError("opening search lost its own optimum")
        return chosen
