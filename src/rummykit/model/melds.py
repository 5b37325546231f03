"""The shared meld model (RULES §2.2): runs and sets, and how wild pieces read.

A run occupies consecutive *positions*: 1 is the low ace/one, 2..13 the ranks,
14 the high ace/one.  A set occupies the single position of its rank.  A
:class:`Reading` says, for every piece of a candidate meld, which position it
fills; for a wild piece that is the piece it stands for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache
from itertools import permutations, product

from rummykit.model.pieces import Face

__all__ = [
    "HIGH_ACE",
    "MeldKind",
    "MeldRules",
    "Reading",
    "position_rank",
    "read_meld",
    "run_order",
]

HIGH_ACE = 14
"""Run position of an ace/one above the king/13."""


class MeldKind(StrEnum):
    """The two kinds of formation."""

    RUN = "run"
    SET = "set"


def position_rank(position: int) -> int:
    """The rank (1..13) shown by a piece at run position ``position`` (14 → 1)."""
    return 1 if position == HIGH_ACE else position


@dataclass(frozen=True, slots=True, kw_only=True)
class MeldRules:
    """What formations a variant allows (RULES §2.2)."""

    min_size: int = 3
    """Fewest pieces in a formation."""
    runs_allowed: bool = True
    """Runs (same suit, consecutive ranks) are formations."""
    sets_allowed: bool = True
    """Sets (same rank) are formations."""
    ace_low: bool = True
    """An ace/one may sit below the 2 (``1-2-3``)."""
    ace_high: bool = True
    """An ace/one may sit above the 13/king (``12-13-1``)."""
    ace_both_ends: bool = False
    """One run may hold an ace/one at both ends (``1-2-…-13-1``)."""
    set_distinct_suits: bool = True
    """Each suit/colour at most once in a set."""
    set_max_size: int = 4
    """Most pieces in a set."""
    max_wild: int | None = None
    """Most wild pieces in one formation (None: no limit)."""
    min_natural: int = 1
    """Fewest natural pieces in one formation."""
    wild_le_natural: bool = False
    """Wild pieces may not outnumber naturals."""
    wild_ranks: frozenset[int] = frozenset()
    """Ranks whose natural pieces are wild as well as the jokers (Continental's 2s, §7.1)."""
    wild_rank_natural: bool = False
    """A piece of a wild rank may also stand for itself at its own place (A-26 (ii));
    else that rank has no place in a run, whose order skips it (A-26 (i): A-3-4)."""

    def is_wild(self, face: Face) -> bool:
        """Whether ``face`` can stand for another piece under these rules."""
        return face.is_joker or face.rank in self.wild_ranks

    @property
    def skipped_ranks(self) -> frozenset[int]:
        """Ranks with no place in a run (wild ranks that never stand for themselves)."""
        return frozenset() if self.wild_rank_natural else self.wild_ranks

    def always_wild(self, face: Face) -> bool:
        """Whether ``face`` can only ever be used as a wild piece."""
        return face.is_joker or (face.rank in self.wild_ranks and not self.wild_rank_natural)


def run_order(rules: MeldRules) -> tuple[int, ...]:
    """The run positions in rank order: ``1, 2, …, 13, 14`` less what the rules exclude
    (a low or high ace, and ranks that are only ever wild)."""
    return _run_order(rules.ace_low, rules.ace_high, rules.skipped_ranks)


@cache
def _run_order(ace_low: bool, ace_high: bool, skipped: frozenset[int]) -> tuple[int, ...]:
    positions = range(1 if ace_low else 2, (HIGH_ACE if ace_high else 13) + 1)
    return tuple(p for p in positions if position_rank(p) not in skipped)


@dataclass(frozen=True, slots=True)
class Reading:
    """One legal interpretation of a list of pieces as a formation.

    ``positions[i]`` is where input piece ``i`` sits: its run position, or the
    set's rank.  ``suit`` is the run's suit index (-1 for a set).
    """

    kind: MeldKind
    suit: int
    positions: tuple[int, ...]

    @property
    def low(self) -> int:
        """Lowest position (a set's rank)."""
        return min(self.positions)

    @property
    def high(self) -> int:
        """Highest position (a set's rank)."""
        return max(self.positions)

    def represents(self, faces: Sequence[Face], index: int) -> Face | None:
        """The face input piece ``index`` stands for; None for a wild piece in a set."""
        face = faces[index]
        position = self.positions[index]
        if self.kind is MeldKind.SET:
            return face if not face.is_joker and face.rank == position else None
        rank = position_rank(position)
        if not face.is_joker and face.suit_index == self.suit and face.rank == rank:
            return face
        return Face.of(face.material, self.suit, rank)


def _wild_count_ok(wild: int, natural: int, rules: MeldRules) -> bool:
    if natural < rules.min_natural:
        return False
    if rules.max_wild is not None and wild > rules.max_wild:
        return False
    return not (rules.wild_le_natural and wild > natural)


def read_meld(
    faces: Sequence[Face],
    rules: MeldRules,
    declared: Sequence[Face | None] | None = None,
) -> list[Reading]:
    """Every legal reading of ``faces`` as one formation (empty list: not a formation).

    ``declared[i]``, when given for a wild piece, is the face it must stand for
    (``J(R7)``).  Order of the input does not matter.  A piece of a wild rank that
    may also stand for itself (:attr:`MeldRules.wild_rank_natural`) is tried both ways.
    """
    # The same few thousand melds are read over and over (every meld, attachment and
    # check in every game): the readings are remembered, and each caller gets its own list.
    return list(
        _cached_readings(tuple(faces), rules, None if declared is None else tuple(declared))
    )


@lru_cache(maxsize=1 << 13)  # a few MB at most; 100 random remmi_de deals read < 700 melds
def _cached_readings(
    faces: tuple[Face, ...], rules: MeldRules, declared: tuple[Face | None, ...] | None
) -> tuple[Reading, ...]:
    return tuple(_read_meld(faces, rules, declared))


def _read_meld(
    faces: Sequence[Face],
    rules: MeldRules,
    declared: Sequence[Face | None] | None,
) -> list[Reading]:
    size = len(faces)
    if size < rules.min_size:
        return []
    decl: Sequence[Face | None] = declared if declared is not None else [None] * size
    if declared is not None and any(
        d is not None and not rules.is_wild(f) for f, d in zip(faces, declared, strict=True)
    ):
        return []  # only a wild piece stands for another
    if not rules.wild_ranks:
        return _readings(faces, decl, [i for i, f in enumerate(faces) if f.is_joker], rules)
    wild = [i for i, f in enumerate(faces) if rules.always_wild(f) or decl[i] is not None]
    either = [i for i, f in enumerate(faces) if rules.is_wild(f) and i not in wild]
    out: list[Reading] = []
    for as_wild in product((False, True), repeat=len(either)):
        chosen = sorted(wild + [i for i, w in zip(either, as_wild, strict=True) if w])
        out += (r for r in _readings(faces, decl, chosen, rules) if r not in out)
    return out


def _readings(
    faces: Sequence[Face], decl: Sequence[Face | None], wild: list[int], rules: MeldRules
) -> list[Reading]:
    """The readings with exactly the pieces ``wild`` used as wild pieces."""
    natural = [i for i in range(len(faces)) if i not in wild]
    if not _wild_count_ok(len(wild), len(natural), rules):
        return []
    readings: list[Reading] = []
    if rules.sets_allowed:
        readings += _set_readings(faces, decl, wild, natural, rules)
    if rules.runs_allowed:
        readings += _run_readings(faces, decl, wild, natural, rules)
    return readings


def _set_readings(
    faces: Sequence[Face],
    decl: Sequence[Face | None],
    wild: list[int],
    natural: list[int],
    rules: MeldRules,
) -> list[Reading]:
    size = len(faces)
    if size > rules.set_max_size:
        return []
    ranks = {faces[i].rank for i in natural}
    if len(ranks) != 1:
        return []
    (rank,) = ranks
    suits = [faces[i].suit_index for i in natural]
    for i in wild:
        d = decl[i]
        if d is not None:
            if d.rank != rank:
                return []
            suits.append(d.suit_index)
    if rules.set_distinct_suits and (len(set(suits)) != len(suits) or size > 4):
        return []
    return [Reading(MeldKind.SET, -1, (rank,) * size)]


def _run_readings(
    faces: Sequence[Face],
    decl: Sequence[Face | None],
    wild: list[int],
    natural: list[int],
    rules: MeldRules,
) -> list[Reading]:
    size = len(faces)
    suits = {faces[i].suit_index for i in natural}
    for i in wild:
        d = decl[i]
        if d is not None:
            suits.add(d.suit_index)
    if len(suits) != 1:
        return []
    (suit,) = suits
    fixed = [(i, faces[i]) for i in natural] + [(i, d) for i in wild if (d := decl[i]) is not None]
    free_wild = [i for i in wild if decl[i] is None]
    order = run_order(rules)
    out: list[Reading] = []
    for start in range(len(order) - size + 1):
        window = order[start : start + size]
        if window[0] == 1 and window[-1] == HIGH_ACE and not rules.ace_both_ends:
            continue
        out += _place(fixed, free_wild, window, suit)
    return out


def _place(
    fixed: list[tuple[int, Face]],
    free_wild: list[int],
    window: tuple[int, ...],
    suit: int,
) -> list[Reading]:
    """Readings of a run on the positions ``window``, trying both ends for each ace."""
    positions = [0] * (len(fixed) + len(free_wild))
    taken: set[int] = set()
    aces: list[int] = []
    for i, face in fixed:
        if face.rank == 1:
            aces.append(i)
            continue
        if face.rank not in window or face.rank in taken:
            return []
        taken.add(face.rank)
        positions[i] = face.rank
    ace_slots = [p for p in (1, HIGH_ACE) if p in window and p not in taken]
    if len(aces) > len(ace_slots):
        return []
    out: list[Reading] = []
    seen: set[tuple[int, ...]] = set()
    for chosen in permutations(ace_slots, len(aces)):
        pos = positions[:]
        for i, p in zip(aces, chosen, strict=True):
            pos[i] = p
        free_positions = [p for p in window if p not in taken and p not in chosen]
        # Undeclared wild pieces are interchangeable: fill the gaps in order.
        for i, p in zip(free_wild, free_positions, strict=True):
            pos[i] = p
        key = tuple(pos)
        if key not in seen:
            seen.add(key)
            out.append(Reading(MeldKind.RUN, suit, key))
    return out


def best_reading(
    faces: Sequence[Face],
    readings: Sequence[Reading],
    value: Callable[[MeldKind, int], int],
) -> Reading:
    """The reading with the most opening points (RULES §2.2); ties go to higher wild positions.

    ``value(kind, position)`` is the variant's opening value of one piece.
    """

    def key(r: Reading) -> tuple[int, tuple[int, ...], int]:
        points = sum(value(r.kind, p) for p in r.positions)
        wild_positions = tuple(
            sorted(
                (p for i, p in enumerate(r.positions) if r.represents(faces, i) != faces[i]),
                reverse=True,
            )
        )
        return points, wild_positions, r.kind is MeldKind.RUN

    return max(readings, key=key)


__all__ += ["best_reading"]
