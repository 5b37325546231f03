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
from itertools import permutations

from rummykit.model.pieces import Face

__all__ = [
    "HIGH_ACE",
    "MeldKind",
    "MeldRules",
    "Reading",
    "position_rank",
    "read_meld",
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

    def is_wild(self, face: Face) -> bool:
        """Whether ``face`` is wild under these rules (jokers)."""
        return face.is_joker


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
        if not face.is_joker:
            return face
        if self.kind is MeldKind.SET:
            return None
        return Face.of(face.material, self.suit, position_rank(self.positions[index]))


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
    (``J(R7)``).  Order of the input does not matter.
    """
    size = len(faces)
    if size < rules.min_size:
        return []
    wild = [i for i, f in enumerate(faces) if rules.is_wild(f)]
    natural = [i for i in range(size) if i not in wild]
    if not _wild_count_ok(len(wild), len(natural), rules):
        return []
    decl: Sequence[Face | None] = declared if declared is not None else [None] * size
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
    lowest = 1 if rules.ace_low else 2
    highest = HIGH_ACE if rules.ace_high else 13
    fixed = [(i, faces[i]) for i in natural] + [(i, d) for i in wild if (d := decl[i]) is not None]
    free_wild = [i for i in wild if decl[i] is None]
    out: list[Reading] = []
    for start in range(lowest, highest - size + 2):
        end = start + size - 1
        if start == 1 and end == HIGH_ACE and not rules.ace_both_ends:
            continue
        out += _place(fixed, free_wild, start, end, size, suit)
    return out


def _place(
    fixed: list[tuple[int, Face]],
    free_wild: list[int],
    start: int,
    end: int,
    size: int,
    suit: int,
) -> list[Reading]:
    """Readings of a run on positions start..end, trying both ends for each ace."""
    positions = [0] * size
    taken: set[int] = set()
    aces: list[int] = []
    for i, face in fixed:
        if face.rank == 1:
            aces.append(i)
            continue
        if not start <= face.rank <= end or face.rank in taken:
            return []
        taken.add(face.rank)
        positions[i] = face.rank
    ace_slots = [p for p in (1, HIGH_ACE) if start <= p <= end and p not in taken]
    if len(aces) > len(ace_slots):
        return []
    out: list[Reading] = []
    seen: set[tuple[int, ...]] = set()
    for chosen in permutations(ace_slots, len(aces)):
        pos = positions[:]
        for i, p in zip(aces, chosen, strict=True):
            pos[i] = p
        free_positions = [p for p in range(start, end + 1) if p not in taken and p not in chosen]
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
            sorted((p for f, p in zip(faces, r.positions, strict=True) if f.is_joker), reverse=True)
        )
        return points, wild_positions, r.kind is MeldKind.RUN

    return max(readings, key=key)


__all__ += ["best_reading"]
