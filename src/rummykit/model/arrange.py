"""Exact arrangement of a hand into disjoint formations (RULES §2.2, §6.6 / A-24).

:func:`min_deadwood` finds the arrangement of a hand that leaves the least
deadwood, the total value of the pieces in no formation.  :func:`best_packing`
is the search underneath: the most total score from disjoint candidates, for
any score per candidate.  Both are exact for whatever
:func:`rummykit.model.candidates.candidates` yields (jokers, duplicates, ace
positions and every joker limit of the :class:`MeldRules`).

Method
------
Take the lowest face kind ``k`` left in the hand (jokers, kind 52, come
last).  In any arrangement either one copy of ``k`` stays out of every
formation, or some candidate holds it, and that candidate's lowest kind is
``k`` because nothing lower is left.  Both branches leave a smaller hand whose
best arrangement is the same question again, so answers are memoised on the
hand.  Every arrangement is reachable this way, which is what makes the
search exact.  A hand is an int with one bit field per kind (count plus a
guard bit), so "does this candidate still fit" is one subtraction and a mask.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from rummykit.model.candidates import Candidate, candidates
from rummykit.model.melds import MeldRules
from rummykit.model.pieces import JOKER_KIND, Face, Material

__all__ = ["Arrangement", "Packing", "best_packing", "kind_values", "min_deadwood"]

KIND_COUNT = JOKER_KIND + 1


class Arrangement(NamedTuple):
    """A hand split into formations and deadwood.

    ``melds`` are disjoint candidates, ``deadwood`` the face kinds left over
    (sorted, jokers as ``JOKER_KIND``), ``points`` their total value.
    """

    melds: tuple[Candidate, ...]
    deadwood: tuple[int, ...]
    points: int


class Packing(NamedTuple):
    """The best set of disjoint candidates: their indices (ascending) and total score."""

    chosen: tuple[int, ...]
    score: int


def kind_values(value: Callable[[Face], int], material: Material) -> tuple[int, ...]:
    """The 53-long table ``value(face)`` for every face kind (index 52: the joker)."""
    return tuple(value(Face.from_kind(material, k)) for k in range(KIND_COUNT))


def min_deadwood(
    counts: Sequence[int],
    rules: MeldRules,
    values: Sequence[int] | Callable[[int], int],
) -> Arrangement:
    """The arrangement of the hand ``counts`` (53 counts by face kind) leaving the least deadwood.

    ``values`` gives each face kind's deadwood value, as a 53-long sequence or
    a function of the kind.  Formations are every candidate of ``rules``.
    Among arrangements with equal deadwood the one melding the most pieces
    wins, and the answer is deterministic: at each step the lowest kind left
    goes into the first candidate (in ``candidates()`` order) that keeps the
    optimum, before being left over.
    """
    table = _value_table(values)
    counts = tuple(counts)
    if len(counts) != KIND_COUNT:
        raise ValueError(f"counts must have {KIND_COUNT} entries, not {len(counts)}")
    if any(c < 0 for c in counts):
        raise ValueError("counts must not be negative")
    cands = candidates(counts, rules)
    # Value first; among equal deadwood, meld more pieces (where every piece is worth
    # nothing, as in Continental, the hand is still arranged).  No hand holds 64 pieces.
    scores = [sum(table[k] for k in cand.kinds) * 64 + len(cand.kinds) for cand in cands]
    packing = best_packing(counts, cands, scores)
    melds = tuple(cands[i] for i in packing.chosen)
    left = list(counts)
    for meld in melds:
        for k in meld.kinds:
            left[k] -= 1
    deadwood = tuple(k for k in range(KIND_COUNT) for _ in range(left[k]))
    return Arrangement(melds, deadwood, sum(table[k] for k in deadwood))


def _value_table(values: Sequence[int] | Callable[[int], int]) -> tuple[int, ...]:
    if callable(values):
        return tuple(values(k) for k in range(KIND_COUNT))
    table = tuple(values)
    if len(table) != KIND_COUNT:
        raise ValueError(f"values must have {KIND_COUNT} entries, not {len(table)}")
    return table


@lru_cache(maxsize=16)
def _guard(bits: int) -> int:
    """The guard bit of every kind's field, for fields of ``bits`` bits plus the guard."""
    width = bits + 1
    guard = 0
    for k in range(KIND_COUNT):
        guard |= 1 << (width * k + bits)
    return guard


def best_packing(
    counts: Sequence[int], cands: Sequence[Candidate], scores: Sequence[int]
) -> Packing:
    """The disjoint candidates the hand ``counts`` covers with the most total score.

    ``scores[i]`` is candidate ``i``'s score; candidates scoring ≤ 0 are never
    chosen (leaving pieces out is free).  Exact for any candidate list, with
    or without natural pieces in each candidate.
    """
    if len(scores) != len(cands):
        raise ValueError("one score per candidate is needed")
    # Per multiset of pieces, the one candidate kept.  Readings of the same pieces are
    # interchangeable in the search, so only the best-scoring one is kept; among
    # equals, the one with the higher positions, as for an undeclared meld (RULES §2.2).
    best_of: dict[tuple[tuple[int, int], ...], int] = {}
    for i, score in enumerate(scores):
        if score <= 0:
            continue
        cand = cands[i]
        need = cand.need
        for k, c in need:
            if counts[k] < c:
                break
        else:
            kept = best_of.get(need)
            if kept is None or (score, cand.positions) > (scores[kept], cands[kept].positions):
                best_of[need] = i
    if not best_of:
        return Packing((), 0)  # nothing fits and scores: every piece is left out
    if len(best_of) == 1:  # one multiset of pieces: take it as often as the hand allows
        (only,) = best_of.values()
        times = min(counts[k] // c for k, c in cands[only].need)
        return Packing((only,) * times, scores[only] * times)
    # Pieces of a kind no kept candidate holds can only be left out, whatever else the
    # hand holds: the search state holds only the others (found only now, as most
    # hands keep at most one candidate), one bit field per kind (count plus a guard).
    kinds = sorted({k for need in best_of for k, _ in need})
    bits = max(1, max(counts[k] for k in kinds).bit_length())
    width = bits + 1
    guard = _guard(bits)
    state = 0
    for k in kinds:
        state |= counts[k] << (width * k)
    # Per lowest kind: (need, score, index), in candidate order.
    by_low: dict[int, list[tuple[int, int, int]]] = {}
    needs: dict[int, int] = {}
    for i in sorted(best_of.values()):
        packed = 0
        for k, c in cands[i].need:
            packed += c << (width * k)
        needs[i] = packed
        by_low.setdefault(cands[i].need[0][0], []).append((packed, scores[i], i))
    # Per kind of the state: the piece to leave out, and the candidates to try.  A kind
    # that starts no kept candidate can only be left out, piece by piece: all its
    # pieces go at once (the same choices as one at a time, fewer states).
    field = (1 << bits) - 1
    steps: dict[int, tuple[int, list[tuple[int, int, int]]]] = {
        k: (1 << (width * k), by_low[k]) if k in by_low else (field << (width * k), [])
        for k in kinds
    }
    values: dict[int, int] = {0: 0}
    choices: dict[int, int] = {}  # where a candidate, not leaving a piece out, is best

    def solve(rack: int) -> int:
        best = values.get(rack)
        if best is not None:
            return best
        piece, tries = steps[((rack & -rack).bit_length() - 1) // width]
        if not tries:
            best = values[rack] = solve(rack & ~piece)
            return best
        best = solve(rack - piece)
        choice = -1
        for need, score, i in tries:
            if ((rack | guard) - need) & guard == guard:
                value = solve(rack - need) + score
                if value > best or (value == best and choice == -1):
                    best, choice = value, i
        values[rack] = best
        if choice >= 0:
            choices[rack] = choice
        return best

    total = solve(state)
    chosen: list[int] = []
    rack = state
    while rack:
        choice = choices.get(rack, -1)
        if choice >= 0:
            chosen.append(choice)
            rack -= needs[choice]
        else:
            piece, tries = steps[((rack & -rack).bit_length() - 1) // width]
            rack = rack - piece if tries else rack & ~piece
    return Packing(tuple(sorted(chosen)), total)
