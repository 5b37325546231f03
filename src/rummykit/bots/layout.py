"""Continental (RULES §7.6): how many draws a hand is from a layout.

A layout lays the whole hand as runs of 3-5 cards in one of three patterns
(:data:`~rummykit.rules.continental.PATTERNS`).  Each draw can bring at most one
missing card, so a hand's distance to a layout is the number of its natural cards
that no choice of runs of a pattern can hold: the runs' other places take the hand's
wild cards first, then cards still to come.  Distance 0 is a layout (the engine's
``find_layout`` decides the real going out; this count only ranks hands).  The
distance is computed suit by suit (which run sizes a suit's naturals fill and how
many naturals they hold), then combined over the suits, as the rules' own layout
search does.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from rummykit.engine.view import SeatView
from rummykit.model.melds import HIGH_ACE, MeldRules, position_rank, run_order
from rummykit.model.pieces import JOKER_KIND, RANKS_PER_SUIT, SUIT_COUNT, Face, rank_of_kind
from rummykit.rules.continental import HAND_SIZE, PATTERNS

__all__ = ["LayoutCounter", "layout_distance", "opponents_took"]

_STEP = {3: 1, 4: 16, 5: 256}
"""A multiset of run sizes as one int: 1 per 3, 16 per 4, 256 per 5.  Two partial
layouts add without a carry (at most ten 3s, six 4s), so a sum is in :data:`_PARTIAL`
only when its multiset is."""

_PARTIAL = frozenset(
    sum(_STEP[s] for s in sub)
    for pattern in PATTERNS
    for k in range(len(pattern) + 1)
    for sub in combinations(pattern, k)
)
"""The codes of every sub-multiset of a pattern: the run sizes part of a layout may use."""


@lru_cache(maxsize=1 << 16)
def _covers(have: tuple[int, ...]) -> dict[int, int]:
    """Most naturals of one suit (``have[j]`` at run slot ``j``) that runs of each size
    multiset (code) hold, each run holding at least one of them.

    Runs hold one card a slot, so a set of runs holds ``sum(min(have[j], runs over j))``.
    The lowest natural left is either held by a run through it (every slot of that run
    taking a natural where one is left) or by none.
    """
    low = next((j for j, n in enumerate(have) if n), None)
    if low is None:
        return {0: 0}
    left = list(have)
    left[low] -= 1
    out = dict(_covers(tuple(left)))  # the lowest natural left outside every run
    slots = len(have)
    for length in (3, 4, 5):
        step = _STEP[length]
        for start in range(max(0, low - length + 1), low + 1):
            if start + length > slots:
                continue
            rest = list(have)
            held = 0
            for j in range(start, start + length):
                if rest[j]:
                    rest[j] -= 1
                    held += 1
            for code, n in _covers(tuple(rest)).items():
                key = code + step
                if key in _PARTIAL and out.get(key, -1) < n + held:
                    out[key] = n + held
    return out


@lru_cache(maxsize=1 << 14)
def _suit_covers(row: tuple[int, ...], order: tuple[int, ...]) -> dict[int, int]:
    """:func:`_covers` of one suit's 13 rank counts, each ace placed low or high."""
    base = [row[position_rank(p) - 1] if position_rank(p) != 1 else 0 for p in order]
    aces = row[0]
    ends = [j for j, p in enumerate(order) if p in (1, HIGH_ACE)]
    if not aces or not ends:
        return _covers(tuple(base))
    best: dict[int, int] = {}
    for low in range(aces + 1) if len(ends) == 2 else [aces]:
        split = base[:]
        split[ends[0]] += low
        split[ends[-1]] += aces - low
        for code, n in _covers(tuple(split)).items():
            if best.get(code, -1) < n:
                best[code] = n
    return best


_FITS = {a: tuple(b for b in sorted(_PARTIAL) if a + b in _PARTIAL) for a in _PARTIAL}
"""For each partial layout's code, the codes that still fit beside it in a pattern."""


def _merge(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    """The most naturals held by each code of runs made of ``a``'s and ``b``'s."""
    out: dict[int, int] = {}
    for ca, na in a.items():
        for cb in _FITS[ca]:
            nb = b.get(cb)
            if nb is not None:
                code = ca + cb
                if out.get(code, -1) < na + nb:
                    out[code] = na + nb
    return out


def _complement(reach: dict[int, int]) -> dict[int, int]:
    """For each run-size code ``b``, the most naturals ``reach`` holds with runs that
    leave room for ``b`` in a pattern."""
    out: dict[int, int] = {}
    for b, fits in _FITS.items():
        best = -1
        for a in fits:
            n = reach.get(a, -1)
            if n > best:
                best = n
        if best >= 0:
            out[b] = best
    return out


def _with(comp: dict[int, int], suit: dict[int, int]) -> int:
    """Most naturals held by one suit's runs (``suit``) beside the others' (``comp``)."""
    return max(n + comp[b] for b, n in suit.items() if b in comp)


class _Hand:
    """A hand's rows and, per suit, what the other three suits hold (for one-card
    changes)."""

    __slots__ = ("comps", "held", "rows", "wild")

    def __init__(self, counter: LayoutCounter, faces: Sequence[Face]) -> None:
        self.rows, self.wild = counter.rows(faces)
        suits = [counter.suit(row) for row in self.rows]
        self.comps = []
        for s in range(SUIT_COUNT):
            reach = {0: 0}
            for t in range(SUIT_COUNT):
                if t != s:
                    reach = _merge(reach, suits[t])
            self.comps.append(_complement(reach))
        self.held = _with(self.comps[0], suits[0])


class LayoutCounter:
    """Layout distances of hands under one set of meld rules (RULES §7.4)."""

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        self.order = run_order(rules)
        # A 2 with a natural place of its own (A-26 (ii)) is counted as wild only: the
        # count ranks hands, it does not decide going out.
        self._wild = [
            k == JOKER_KIND or rank_of_kind(k) in rules.wild_ranks for k in range(JOKER_KIND + 1)
        ]

    def is_wild(self, face: Face) -> bool:
        """Whether the count takes ``face`` as a wild card."""
        return self._wild[face.kind]

    def rows(self, faces: Sequence[Face]) -> tuple[list[list[int]], int]:
        """Each suit's natural counts by rank (1..13 at 0..12) and the wild cards."""
        rows = [[0] * RANKS_PER_SUIT for _ in range(SUIT_COUNT)]
        wild = 0
        for face in faces:
            if self._wild[face.kind]:
                wild += 1
            else:
                rows[face.suit_index][face.rank - 1] += 1
        return rows, wild

    def suit(self, row: Sequence[int]) -> dict[int, int]:
        """Most naturals of the suit ``row`` runs of each size multiset hold."""
        return _suit_covers(tuple(row), self.order)

    def distance(self, faces: Sequence[Face]) -> int:
        """Cards ``faces`` (15, or 16 before the discard) still miss of a layout: with 16,
        after the best discard."""
        rows, wild = self.rows(faces)
        reach = {0: 0}
        for row in rows:
            reach = _merge(reach, self.suit(row))
        return max(0, HAND_SIZE - wild - max(reach.values()))

    def discards(self, faces: Sequence[Face]) -> dict[Face, int]:
        """The distance :meth:`distance` of ``faces`` without each one of them."""
        hand = _Hand(self, faces)
        out: dict[Face, int] = {}
        for face in set(faces):
            if self._wild[face.kind]:
                held, wild = hand.held, hand.wild - 1
            else:
                row = list(hand.rows[face.suit_index])
                row[face.rank - 1] -= 1
                held, wild = _with(hand.comps[face.suit_index], self.suit(row)), hand.wild
            out[face] = max(0, HAND_SIZE - wild - held)
        return out

    def outs(self, faces: Sequence[Face], unseen: Sequence[Face]) -> int:
        """How many of the ``unseen`` cards would bring the 15 cards ``faces`` a card
        nearer a layout (every wild card does unless it is already one)."""
        hand = _Hand(self, faces)
        free = HAND_SIZE - hand.wild
        if free - hand.held <= 0:
            return 0
        gains: dict[int, bool] = {}
        count = 0
        for face in unseen:
            kind = face.kind
            if self._wild[kind]:
                count += 1
                continue
            gain = gains.get(kind)
            if gain is None:
                row = list(hand.rows[face.suit_index])
                row[face.rank - 1] += 1
                gain = _with(hand.comps[face.suit_index], self.suit(row)) > hand.held
                gains[kind] = gain
            count += gain
        return count


def layout_distance(faces: Sequence[Face], rules: MeldRules) -> int:
    """:meth:`LayoutCounter.distance` under ``rules``."""
    return LayoutCounter(rules).distance(faces)


def opponents_took(view: SeatView) -> list[Face]:
    """The discards ``view``'s opponents took this deal and have not discarded since
    (RULES §7.3: a take is the pile's top, the last card discarded; a take of the
    up-card, never discarded, is not known)."""
    column: list[Face | None] = [None]
    taken: list[Face] = []
    for seat, text in view.history:
        if text.startswith("discard "):
            face = Face.parse(text[len("discard ") :])
            column.append(face)
            if seat != view.seat and face in taken:
                taken.remove(face)
        elif text.startswith("take "):
            index = int(text[len("take ") :])
            got, column = column[index:], column[:index]
            if seat != view.seat:
                taken.extend(f for f in got if f is not None)
    return taken
