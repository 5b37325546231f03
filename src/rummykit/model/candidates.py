"""Every formation that can be made from a multiset of faces.

Racks are described by *counts*: ``counts[kind]`` is how many pieces of face
kind ``kind`` (0..51 naturals, 52 jokers) a player holds.  A
:class:`Candidate` is one formation with every piece's position fixed, so
wild pieces are fully declared.  The enumeration is exact: every legal
formation whose pieces the counts cover appears once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement, cycle, product

from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules, position_rank, run_order
from rummykit.model.pieces import (
    JOKER_KIND,
    SUIT_COUNT,
    Face,
    Material,
    kind_of,
    rank_of_kind,
    suit_kinds,
    suit_of_kind,
)

__all__ = [
    "Candidate",
    "candidates",
    "candidates_with",
    "counts_of",
    "rank_sets",
    "set_joker_suits",
    "suit_runs",
]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One fully declared formation.

    ``kinds[i]`` is the face kind of the piece at ``positions[i]``
    (``JOKER_KIND`` for a wild piece); runs are in ascending position order.
    """

    kind: MeldKind
    suit: int
    positions: tuple[int, ...]
    kinds: tuple[int, ...]
    need: tuple[tuple[int, int], ...]
    """(kind, count) pairs this formation takes from a rack, jokers included."""

    @property
    def joker_count(self) -> int:
        """How many wild pieces it uses."""
        return sum(map(self.is_wild_at, range(len(self.kinds))))

    def is_wild_at(self, index: int) -> bool:
        """Whether the piece at ``index`` stands for another (a joker, or a piece of a
        wild rank away from its own place)."""
        k = self.kinds[index]
        if k == JOKER_KIND:
            return True
        if self.kind is MeldKind.RUN:
            return k != kind_of(self.suit, position_rank(self.positions[index]))
        return rank_of_kind(k) != self.positions[index]

    def faces(self, material: Material) -> tuple[Face, ...]:
        """Its faces in display order."""
        return tuple(map(_face_table(material).__getitem__, self.kinds))

    def declared(self, material: Material) -> tuple[Face | None, ...]:
        """What each wild piece stands for (sets: see :func:`set_joker_suits`).

        A set's jokers are declared too, so that the meld cannot be read as a run
        (``[9H JK JK]`` would otherwise be the more valuable 9-10-J, RULES §2.2).
        """
        out: list[Face | None] = []
        wild = [self.is_wild_at(i) for i in range(len(self.kinds))]
        if self.kind is MeldKind.RUN:
            for w, p in zip(wild, self.positions, strict=True):
                out.append(Face.of(material, self.suit, position_rank(p)) if w else None)
            return tuple(out)
        rank = self.positions[0]
        suits = cycle(set_joker_suits(self.kinds, rank))
        for w in wild:
            out.append(Face.of(material, next(suits), rank) if w else None)
        return tuple(out)


@cache
def _face_table(material: Material) -> tuple[Face, ...]:
    """Every face of ``material`` by kind (faces are shown on every turn and deal end)."""
    return tuple(Face.from_kind(material, k) for k in range(JOKER_KIND + 1))


def set_joker_suits(kinds: tuple[int, ...], rank: int | None = None) -> tuple[int, ...]:
    """The suits the wild pieces of a set with these face kinds are declared as, in turn.

    The missing suits in suit order; where suits may repeat (RULES §4.4) a set can
    hold more jokers than missing suits, and the suits then start again from the first.
    With the set's ``rank`` given, pieces of another rank are wild too (RULES §7.1).
    """
    present = {
        suit_of_kind(k)
        for k in kinds
        if k != JOKER_KIND and (rank is None or rank_of_kind(k) == rank)
    }
    return (*(s for s in range(4) if s not in present), 0, 1, 2, 3)


def counts_of(kinds: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """The 53-long count vector of a list of face kinds."""
    counts = [0] * 53
    for k in kinds:
        counts[k] += 1
    return tuple(counts)


def _need(kinds: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    tally: dict[int, int] = {}
    for k in kinds:
        tally[k] = tally.get(k, 0) + 1
    return tuple(sorted(tally.items()))


def _wild_ok(wild: int, natural: int, rules: MeldRules) -> bool:
    if natural < rules.min_natural:
        return False
    if rules.max_wild is not None and wild > rules.max_wild:
        return False
    return not (rules.wild_le_natural and wild > natural)


@lru_cache(maxsize=8192)
def candidates(counts: tuple[int, ...], rules: MeldRules) -> tuple[Candidate, ...]:
    """Every distinct fully declared formation the counts can supply."""
    if rules.wild_ranks:
        return _with_wild_ranks(counts, rules)
    jokers = counts[JOKER_KIND]
    out: list[Candidate] = []
    if rules.runs_allowed:
        _runs(counts, jokers, rules, out)
    if rules.sets_allowed:
        _sets(counts, jokers, rules, out)
    return tuple(out)


@lru_cache(maxsize=65536)
def candidates_with(counts: tuple[int, ...], rules: MeldRules, kind: int) -> tuple[Candidate, ...]:
    """The candidates that use a piece of face kind ``kind`` (exact-cover search)."""
    if rules.wild_ranks:
        return tuple(c for c in candidates(counts, rules) if kind in c.kinds)
    jokers = counts[JOKER_KIND]
    out: list[Candidate] = []
    if rules.runs_allowed:
        _runs(counts, jokers, rules, out, (suit_of_kind(kind),))
    if rules.sets_allowed:
        _sets(counts, jokers, rules, out, (rank_of_kind(kind),))
    return tuple(c for c in out if kind in c.kinds)


def suit_runs(counts: tuple[int, ...], rules: MeldRules, suit: int) -> list[Candidate]:
    """:func:`candidates`' runs of one suit, in its order (rules without wild ranks)."""
    out: list[Candidate] = []
    _runs(counts, counts[JOKER_KIND], rules, out, (suit,))
    return out


def rank_sets(counts: tuple[int, ...], rules: MeldRules, rank: int) -> list[Candidate]:
    """:func:`candidates`' sets of one rank, in its order (rules without wild ranks)."""
    out: list[Candidate] = []
    _sets(counts, counts[JOKER_KIND], rules, out, (rank,))
    return out


def _with_wild_ranks(counts: tuple[int, ...], rules: MeldRules) -> tuple[Candidate, ...]:
    """Candidates where pieces of ``rules.wild_ranks`` are wild too (RULES §7.1).

    The formations are enumerated with every wild piece in one pool, then each wild
    place is given a concrete wild piece: one candidate per multiset of wild pieces
    the counts hold, so an exact cover sees every way to spend jokers and wild ranks.
    """
    wild_kinds = [kind_of(s, r) for r in sorted(rules.wild_ranks) for s in range(SUIT_COUNT)]
    pool = counts[JOKER_KIND] + sum(counts[k] for k in wild_kinds)
    base_counts = list(counts)
    if not rules.wild_rank_natural:
        for k in wild_kinds:
            base_counts[k] = 0
    base_counts[JOKER_KIND] = pool
    base: list[Candidate] = []
    if rules.runs_allowed:
        _runs(tuple(base_counts), pool, rules, base)
    if rules.sets_allowed:
        _sets(tuple(base_counts), pool, rules, base)
    out: list[Candidate] = []
    seen: set[tuple[MeldKind, int, tuple[int, ...], tuple[int, ...]]] = set()
    for c in base:
        places = [i for i, k in enumerate(c.kinds) if k == JOKER_KIND]
        # The pool's placeholders are not real jokers; a wild rank's natural uses are.
        left = {k: counts[k] - c.kinds.count(k) for k in wild_kinds}
        left[JOKER_KIND] = counts[JOKER_KIND]
        supply = [k for k, n in left.items() if n > 0]
        for chosen in combinations_with_replacement(sorted(supply), len(places)):
            if any(chosen.count(k) > left[k] for k in set(chosen)):
                continue
            kinds = list(c.kinds)
            for i, k in zip(places, chosen, strict=True):
                kinds[i] = k
            key = (c.kind, c.suit, c.positions, tuple(kinds))
            if key not in seen:
                seen.add(key)
                out.append(Candidate(c.kind, c.suit, c.positions, key[3], _need(key[3])))
    return tuple(out)


def _runs(
    counts: tuple[int, ...],
    jokers: int,
    rules: MeldRules,
    out: list[Candidate],
    suits: tuple[int, ...] = (0, 1, 2, 3),
) -> None:
    max_wild = jokers if rules.max_wild is None else min(jokers, rules.max_wild)
    cache = _caches(rules).runs
    if len(cache) > 100_000:
        cache.clear()
    for suit in suits:
        row = counts[_SUIT_SLICES[suit]]
        key = (suit, row, max_wild)
        found = cache.get(key)
        if found is None:
            # A suit's runs depend only on which ranks it holds, and for the ace whether
            # it holds one or two (one cannot fill both ends): rows that differ in
            # nothing else share one enumeration.
            canonical = (row[0] if row[0] < 2 else 2, *[1 if c else 0 for c in row[1:]])
            same = (suit, canonical, max_wild)
            found = cache.get(same)
            if found is None:
                found = cache[same] = _suit_runs(suit, canonical, max_wild, rules)
            cache[key] = found
        out.extend(found)


_SUIT_SLICES = tuple(suit_kinds(suit) for suit in range(SUIT_COUNT))
_PartKey = tuple[int, tuple[int, ...], int]


class _RulesCaches:
    """The enumeration caches of one rules object (see :func:`_caches`)."""

    __slots__ = ("rules", "runs", "sets", "slot_ranks", "windows")

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        self.runs: dict[_PartKey, tuple[Candidate, ...]] = {}
        """(suit, row, usable wild) -> the suit's runs."""
        self.sets: dict[_PartKey, tuple[Candidate, ...]] = {}
        """(rank, column, usable wild) -> the rank's sets."""
        self.windows: dict[_WindowKey, tuple[Candidate, ...]] = {}
        """The runs of one window of a suit's slots (:func:`_window`)."""
        self.slot_ranks = tuple(position_rank(p) - 1 for p in run_order(rules))
        """Per run slot, the index of its rank in a suit's row."""


def _caches(rules: MeldRules) -> _RulesCaches:
    """The caches of ``rules``, found by the object's id: hashing the frozen MeldRules
    on every look-up would cost more than the look-up itself.  Equal rules objects
    share one set of caches (the id map keeps its objects alive, so no id is reused
    while mapped, and starts afresh past a few dozen objects)."""
    found = _BY_ID.get(id(rules))
    if found is not None and found.rules is rules:
        return found
    found = _BY_RULES.get(rules)
    if found is None:
        found = _BY_RULES[rules] = _RulesCaches(rules)
    if len(_BY_ID) > 64:
        _BY_ID.clear()
    _BY_ID[id(rules)] = found
    return found


_BY_RULES: dict[MeldRules, _RulesCaches] = {}
_BY_ID: dict[int, _RulesCaches] = {}


def _suit_runs(
    suit: int, row: tuple[int, ...], max_wild: int, rules: MeldRules
) -> tuple[Candidate, ...]:
    """Every run of one suit: ``row[r-1]`` counts the naturals of rank r."""
    out: list[Candidate] = []
    order = run_order(rules)
    min_size = rules.min_size
    base = kind_of(suit, 1)
    caches = _caches(rules)
    have = tuple(map(row.__getitem__, caches.slot_ranks))  # have[j]: naturals for slot j
    if rules.min_natural > 0 and not any(have):
        return ()
    if max_wild == 0:
        _natural_runs(suit, base, order, have, rules, out)
        return tuple(out)
    # Windows are cached by which of their slots hold a natural, so an unseen row
    # is assembled from windows other rows already produced.
    windows = caches.windows
    if len(windows) > 200_000:
        windows.clear()
    present = 0
    for j, count in enumerate(have):
        if count:
            present |= 1 << j
    last = len(order) - 1
    for start in range(last - min_size + 2):
        missing = 0
        for end in range(start, last + 1):
            if have[end] == 0:
                missing += 1
            if order[start] == 1 and order[end] == HIGH_ACE:
                if rules.ace_both_ends:
                    _window(
                        windows, suit, base, order, have, present, start, end, max_wild, rules, out
                    )
                break
            if missing > max_wild:
                break  # longer windows only miss more
            if end - start + 1 >= min_size:
                _window(windows, suit, base, order, have, present, start, end, max_wild, rules, out)
    return tuple(out)


_WindowKey = tuple[int, int, int, int, int, bool]


def _window(
    windows: dict[_WindowKey, tuple[Candidate, ...]],
    suit: int,
    base: int,
    order: tuple[int, ...],
    have: tuple[int, ...],
    present: int,
    start: int,
    end: int,
    max_wild: int,
    rules: MeldRules,
    out: list[Candidate],
) -> None:
    """The runs on slots start..end, from the cache when another row had the same window."""
    pattern = present >> start & ((1 << (end - start + 1)) - 1)
    # Only a run from 1 to 1 cares how many aces there are (one cannot fill both ends).
    aces = order[start] == 1 and order[end] == HIGH_ACE and have[start] > 1
    key = (suit, start, end, pattern, max_wild, aces)
    found = windows.get(key)
    if found is None:
        emitted: list[Candidate] = []
        window = slice(start, end + 1)
        _emit_run(suit, base, order[window], have[window], max_wild, rules, emitted)
        found = windows[key] = tuple(emitted)
    out.extend(found)


def _natural_runs(
    suit: int,
    base: int,
    order: tuple[int, ...],
    have: tuple[int, ...],
    rules: MeldRules,
    out: list[Candidate],
) -> None:
    """Runs without wild pieces: every window inside a stretch of present slots."""
    min_size = rules.min_size
    size = len(order)
    j = 0
    while j < size:
        if not have[j]:
            j += 1
            continue
        q = j
        while q + 1 < size and have[q + 1]:
            q += 1
        for start in range(j, q - min_size + 2):
            for end in range(start + min_size - 1, q + 1):
                if (
                    order[start] == 1
                    and order[end] == HIGH_ACE
                    and (not rules.ace_both_ends or have[start] < 2)
                ):
                    continue
                positions = order[start : end + 1]
                kinds = tuple(base + position_rank(x) - 1 for x in positions)
                out.append(Candidate(MeldKind.RUN, suit, positions, kinds, _need(kinds)))
        j = q + 1


def _emit_run(
    suit: int,
    base: int,
    positions: tuple[int, ...],
    have: tuple[int, ...],
    max_wild: int,
    rules: MeldRules,
    out: list[Candidate],
) -> None:
    """Every joker placement on ``positions`` the naturals ``have`` (per place) allow."""
    size = len(positions)
    natural_kind = [base + position_rank(p) - 1 for p in positions]
    both_aces = positions[0] == 1 and positions[-1] == HIGH_ACE
    forced = [i for i in range(size) if have[i] == 0]
    available = [i for i in range(size) if have[i] > 0]
    for extra in range(max_wild - len(forced) + 1):
        for chosen in combinations(available, extra):
            wild = set(forced).union(chosen)
            if both_aces and have[0] == 1 and 0 not in wild and size - 1 not in wild:
                continue  # one natural ace cannot fill both ace positions
            natural = size - len(wild)
            if not _wild_ok(len(wild), natural, rules):
                continue
            kinds = tuple(JOKER_KIND if i in wild else natural_kind[i] for i in range(size))
            out.append(Candidate(MeldKind.RUN, suit, positions, kinds, _need(kinds)))


def _sets(
    counts: tuple[int, ...],
    jokers: int,
    rules: MeldRules,
    out: list[Candidate],
    ranks: tuple[int, ...] = tuple(range(1, 14)),
) -> None:
    max_wild = jokers if rules.max_wild is None else min(jokers, rules.max_wild)
    cache = _caches(rules).sets
    distinct = rules.set_distinct_suits
    for rank in ranks:
        column = counts[rank - 1 : 52 : 13]  # this rank's count in each suit
        if column != _NO_SUIT:
            # The column itself is the key (at most 5**4 of them a rank): cheaper to
            # build on every call than the presence flags that distinct suits depend on.
            key = (rank, column, max_wild)
            found = cache.get(key)
            if found is None:
                if distinct:  # only whether a suit is present matters
                    found = _rank_sets(rank, tuple(map(bool, column)), max_wild, rules)
                else:  # repeated suits: how many copies of each
                    found = _rank_multisets(rank, column, max_wild, rules)
                cache[key] = found
            out.extend(found)


_NO_SUIT = (0, 0, 0, 0)


def _rank_sets(
    rank: int, present: tuple[int, ...], max_wild: int, rules: MeldRules
) -> tuple[Candidate, ...]:
    """Every set of one rank from the suits present (distinct suits)."""
    suits = [s for s in range(4) if present[s]]
    out: list[Candidate] = []
    top = min(rules.set_max_size, 4)
    for size_nat in range(1, len(suits) + 1):
        for chosen in combinations(suits, size_nat):
            for wild in range(max_wild + 1):
                size = size_nat + wild
                if size < rules.min_size or size > top:
                    continue
                if not _wild_ok(wild, size_nat, rules):
                    continue
                kinds = tuple(kind_of(s, rank) for s in chosen) + (JOKER_KIND,) * wild
                out.append(Candidate(MeldKind.SET, -1, (rank,) * size, kinds, _need(kinds)))
    return tuple(out)


def _rank_multisets(
    rank: int, column: tuple[int, ...], max_wild: int, rules: MeldRules
) -> tuple[Candidate, ...]:
    """Every set of one rank when suits may repeat (RULES §4.4): any number of copies of
    each suit held, plus jokers, up to ``set_max_size``."""
    out: list[Candidate] = []
    top = rules.set_max_size
    for copies in product(*(range(c + 1) for c in column)):
        size_nat = sum(copies)
        if size_nat == 0:
            continue
        naturals = tuple(kind_of(s, rank) for s in range(SUIT_COUNT) for _ in range(copies[s]))
        for wild in range(max_wild + 1):
            size = size_nat + wild
            if size < rules.min_size or size > top or not _wild_ok(wild, size_nat, rules):
                continue
            kinds = naturals + (JOKER_KIND,) * wild
            out.append(Candidate(MeldKind.SET, -1, (rank,) * size, kinds, _need(kinds)))
    return tuple(out)
