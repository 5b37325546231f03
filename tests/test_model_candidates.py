"""Formation enumeration (RULES §2.2, §9.7): `candidates()` lists exactly the legal formations.

The oracle is `read_meld` (tested against RULES §12.7 RRT-07 in test_model_melds.py) applied
by brute force to every sub-multiset of a rack and every way to declare its jokers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.model.candidates import Candidate, candidates, candidates_with, counts_of
from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules, Reading, read_meld
from rummykit.model.pieces import JOKER_KIND, Face, Material, kind_of, parse_faces
from rummykit.rules.remi_ro import MELD_RULES

TILES = Material.TILES
JOKER = Face.joker(TILES)

Key = tuple[MeldKind, int, tuple[int, ...], tuple[int, ...]]


def face_of(kind: int) -> Face:
    return Face.from_kind(TILES, kind)


def kinds_of(text: str) -> list[int]:
    return [f.kind for f in parse_faces(text, TILES)]


def key(c: Candidate) -> Key:
    return (c.kind, c.suit, c.positions, c.kinds)


def reading_key(faces: Sequence[Face], reading: Reading) -> Key:
    """The candidate key of one fully declared reading (runs in position order)."""
    kinds = [JOKER_KIND if f.is_joker else f.kind for f in faces]
    if reading.kind is MeldKind.RUN:
        pairs = sorted(zip(reading.positions, kinds, strict=True))
        return (MeldKind.RUN, reading.suit, tuple(p for p, _ in pairs), tuple(k for _, k in pairs))
    naturals = sorted(k for k in kinds if k != JOKER_KIND)
    jokers = (JOKER_KIND,) * (len(kinds) - len(naturals))
    return (MeldKind.SET, -1, reading.positions, (*naturals, *jokers))


def brute_force(kinds: Sequence[int], rules: MeldRules = MELD_RULES) -> set[Key]:
    """Every legal formation drawn from `kinds`: all sub-multisets of size >= 3, all joker
    declarations (a joker in a formation shares the run's colour or the set's number)."""
    counts = counts_of(list(kinds))
    present = [k for k in range(53) if counts[k]]
    found: set[Key] = set()
    for take in itertools.product(*(range(counts[k] + 1) for k in present)):
        sub = [k for k, n in zip(present, take, strict=True) for _ in range(n)]
        if len(sub) < rules.min_size:
            continue
        naturals = [k for k in sub if k != JOKER_KIND]
        if not naturals:
            continue
        options: set[Face] = set()
        natural_faces = [face_of(k) for k in naturals]
        first = natural_faces[0]
        if len({f.suit_index for f in natural_faces}) == 1:
            options |= {Face.of(TILES, first.suit_index, r) for r in range(1, 14)}
        if len({f.rank for f in natural_faces}) == 1:
            options |= {Face.of(TILES, s, first.rank) for s in range(4)}
        faces = [face_of(k) for k in sub]
        jokers = len(sub) - len(naturals)
        for decl in itertools.product(sorted(options), repeat=jokers):
            declared: list[Face | None] = [None] * len(naturals) + list(decl)
            for reading in read_meld(faces, rules, declared):
                found.add(reading_key(faces, reading))
    return found


# Racks of 3-8 tiles, at most 2 copies of a face (§9.1) and 0-2 jokers.  Kinds are drawn
# mostly from one colour and a narrow band of numbers so that formations are common;
# numbers 1, 12 and 13 are favoured to exercise the high/low 1 (§9.7).
@st.composite
def small_racks(draw: st.DrawFn) -> list[int]:
    jokers = draw(st.integers(0, 2))
    size = draw(st.integers(max(3 - jokers, 1), 8 - jokers))
    colour = draw(st.integers(0, 3))
    low = draw(st.sampled_from([0, 0, 3, 7, 9, 10]))
    tile = st.one_of(
        st.builds(lambda r: kind_of(colour, r + 1), st.integers(low, min(low + 4, 12))),
        st.builds(lambda c, r: kind_of(c, r + 1), st.integers(0, 3), st.sampled_from([0, low, 12])),
        st.integers(0, 51),
    )
    naturals = draw(st.lists(tile, min_size=size, max_size=size))
    counts = counts_of(naturals)
    naturals = [k for k in range(52) for _ in range(min(counts[k], 2))]
    return naturals + [JOKER_KIND] * jokers


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_racks())
def test_candidates_are_exactly_the_legal_formations(kinds: list[int]) -> None:
    """§2.2/§9.7: every candidate reads as a legal formation, none is listed twice, and a
    brute force over sub-multisets and joker declarations finds nothing missing."""
    counts = counts_of(kinds)
    found = candidates(counts, MELD_RULES)
    keys = [key(c) for c in found]
    assert len(keys) == len(set(keys)), "a formation is listed twice"
    for c in found:
        # pieces come from the rack
        for k, n in c.need:
            assert counts[k] >= n
        assert sorted(c.kinds) == sorted(k for k, n in c.need for _ in range(n))
        # it is a legal formation exactly as declared
        readings = read_meld(c.faces(TILES), MELD_RULES, c.declared(TILES))
        assert readings, f"{c} is not a legal formation"
        assert any(reading_key(c.faces(TILES), r) == key(c) for r in readings)
        assert c.joker_count == c.kinds.count(JOKER_KIND)
        if c.kind is MeldKind.RUN:
            assert list(c.positions) == list(range(c.positions[0], c.positions[-1] + 1))
    assert set(keys) == brute_force(kinds)


@settings(max_examples=60, deadline=None)
@given(small_racks(), st.data())
def test_candidates_with_is_the_subset_using_that_natural(
    kinds: list[int], data: st.DataObject
) -> None:
    counts = counts_of(kinds)
    naturals = sorted({k for k in kinds if k != JOKER_KIND})
    if not naturals:
        return
    kind = data.draw(st.sampled_from(naturals))
    expected = {key(c) for c in candidates(counts, MELD_RULES) if kind in c.kinds}
    got = [key(c) for c in candidates_with(counts, MELD_RULES, kind)]
    assert len(got) == len(set(got))
    assert set(got) == expected


# --------------------------------------------------------------- hand-made examples


def all_keys(text: str) -> set[Key]:
    return {key(c) for c in candidates(counts_of(kinds_of(text)), MELD_RULES)}


def test_rrt07_the_complete_run_is_a_candidate_only_with_two_ones() -> None:
    """§9.7/A-64: 1-2-…-13-1 needs two 1s (or a joker for one of them)."""
    full = " ".join(f"R{n}" for n in range(1, 14))
    whole = tuple(range(1, HIGH_ACE + 1))
    assert whole in {k[2] for k in all_keys(full + " R1")}
    assert whole not in {k[2] for k in all_keys(full)}
    with_joker = {k for k in all_keys(full + " J") if k[2] == whole}
    # the joker is the low or the high 1 (or replaces any one natural)
    assert (MeldKind.RUN, 0, whole, (JOKER_KIND, *kinds_of(full)[1:], 0)) in with_joker
    assert (MeldKind.RUN, 0, whole, (*kinds_of(full), JOKER_KIND)) in with_joker


def test_candidates_of_r12_r13_r1() -> None:
    """RRT-07: 12-13-1 is the only formation of `R12 R13 R1`."""
    expected = (MeldKind.RUN, 0, (12, 13, HIGH_ACE), tuple(kinds_of("R12 R13 R1")))
    assert all_keys("R12 R13 R1") == {expected}
    assert all_keys("R13 R1 R2") == set()
    assert all_keys("B7 B7 R7") == set()


def test_candidates_of_r5_j_j() -> None:
    """A-66: `[R5 J J]` can be 3-4-5, 4-5-6, 5-6-7 or a set of 5s; with one joker fewer, none."""
    r5 = kinds_of("R5")[0]
    j = JOKER_KIND
    assert all_keys("R5 J J") == {
        (MeldKind.RUN, 0, (3, 4, 5), (j, j, r5)),
        (MeldKind.RUN, 0, (4, 5, 6), (j, r5, j)),
        (MeldKind.RUN, 0, (5, 6, 7), (r5, j, j)),
        (MeldKind.SET, -1, (5, 5, 5), (r5, j, j)),
    }
    assert all_keys("R5 J") == set()
    assert all_keys("J J J") == set()


def test_set_candidates_declare_missing_colours() -> None:
    """§2.2: a joker in a set stands for a missing colour; declared() names one."""
    (c,) = [
        c for c in candidates(counts_of(kinds_of("R5 B5 J")), MELD_RULES) if c.kind is MeldKind.SET
    ]
    declared = c.declared(TILES)
    assert declared[:2] == (None, None)
    assert declared[2] is not None and declared[2].rank == 5
    assert declared[2].suit not in ("R", "B")


@pytest.mark.parametrize(
    "rules",
    [
        MeldRules(max_wild=1),
        MeldRules(wild_le_natural=True),
        MeldRules(runs_allowed=False),
        MeldRules(sets_allowed=False),
        MeldRules(ace_high=False),
        MeldRules(min_size=4),
    ],
)
@pytest.mark.parametrize(
    "text", ["R1 R2 R12 R13 J J", "R5 B5 Y5 K5 R6 R7 J", "Y9 Y10 Y11 Y12 Y13 Y1"]
)
def test_candidates_follow_other_meld_rules_too(rules: MeldRules, text: str) -> None:
    """§2.2 parameters: the enumeration agrees with read_meld under other variants' rules."""
    kinds = kinds_of(text)
    got = {key(c) for c in candidates(counts_of(kinds), rules)}
    assert got == brute_force(kinds, rules)


def test_counts_of_counts_kinds() -> None:
    counts = counts_of(kinds_of("R5 R5 J B13"))
    assert len(counts) == 53
    assert counts[kinds_of("R5")[0]] == 2
    assert counts[JOKER_KIND] == 1
    assert counts[kinds_of("B13")[0]] == 1
    assert sum(counts) == 4


# --------------------------------------------------------------- repeated suits (RULES §4.4)

REPEATED = MeldRules(
    ace_low=True, ace_high=True, set_distinct_suits=False, set_max_size=10, min_natural=1
)
"""Double Rummy's formations: two packs, sets of any suits up to 10 cards."""


@st.composite
def two_pack_racks(draw: st.DrawFn) -> list[int]:
    """Racks of 3-10 pieces heavy in one or two ranks, up to 2 copies of a card."""
    jokers = draw(st.integers(0, 2))
    ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=2))
    size = draw(st.integers(max(3 - jokers, 1), 10 - jokers))
    card = st.one_of(
        st.builds(lambda s, r: kind_of(s, r + 1), st.integers(0, 3), st.sampled_from(ranks)),
        st.integers(0, 51),
    )
    naturals = draw(st.lists(card, min_size=size, max_size=size))
    counts = counts_of(naturals)
    return [k for k in range(52) for _ in range(min(counts[k], 2))] + [JOKER_KIND] * jokers


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_pack_racks())
def test_sets_with_repeated_suits_are_exactly_the_legal_formations(kinds: list[int]) -> None:
    """§4.4: with set_distinct_suits false a set may repeat suits up to set_max_size; the
    enumeration still agrees with the brute force over read_meld, and candidates_with
    is its subset using a natural."""
    counts = counts_of(kinds)
    found = candidates(counts, REPEATED)
    keys = [key(c) for c in found]
    assert len(keys) == len(set(keys))
    assert set(keys) == brute_force(kinds, REPEATED)
    for c in found:
        assert read_meld(c.faces(TILES), REPEATED, c.declared(TILES))
        if c.kind is MeldKind.SET:
            # jokers are declared, as a card of the set's rank
            declared = c.declared(TILES)
            assert all(
                (d is not None and d.rank == c.positions[0]) == (k == JOKER_KIND)
                for d, k in zip(declared, c.kinds, strict=True)
            )
    for kind in {k for k in kinds if k != JOKER_KIND}:
        got = {key(c) for c in candidates_with(counts, REPEATED, kind)}
        assert got == {k for k in keys if kind in k[3]}


def test_the_ten_card_set_is_a_candidate_only_with_repeated_suits() -> None:
    """DBL-03: `7C 7C 7D 7D 7H 7H 7S 7S JK JK` is one set of ten; distinct-suit rules
    (every other card variant) never list a set of more than four."""
    ten = kinds_of("R7 R7 B7 B7 Y7 Y7 K7 K7 J J")
    sets = [c for c in candidates(counts_of(ten), REPEATED) if c.kind is MeldKind.SET]
    assert max(len(c.kinds) for c in sets) == 10
    assert (MeldKind.SET, -1, (7,) * 3, tuple(kinds_of("R7 R7 B7"))) in {key(c) for c in sets}
    distinct = MeldRules(set_distinct_suits=True, set_max_size=4)
    assert max(len(c.kinds) for c in candidates(counts_of(ten), distinct)) == 4
    capped = MeldRules(set_distinct_suits=False, set_max_size=6)
    assert max(len(c.kinds) for c in candidates(counts_of(ten), capped)) == 6


def test_set_jokers_are_declared_missing_suits_first_then_from_the_first_suit() -> None:
    """§2.2/§4.4: a joker in a set is declared as a missing suit (suit order); in a set
    with every suit present (repeated suits allowed) the suits start again from the first,
    so the meld still reads as a set and never as a run (`[9H J J]` is not 9-10-J)."""
    full = kinds_of("R7 R7 B7 B7 Y7 Y7 K7 K7 J J")
    (ten,) = [c for c in candidates(counts_of(full), REPEATED) if len(c.kinds) == 10]
    assert [str(d) for d in ten.declared(TILES) if d is not None] == ["R7", "Y7"]
    (one,) = [
        c for c in candidates(counts_of(kinds_of("B9 J J")), REPEATED) if c.kind is MeldKind.SET
    ]
    declared = one.declared(TILES)
    assert [str(d) for d in declared if d is not None] == ["R9", "Y9"]
    readings = read_meld(one.faces(TILES), REPEATED, declared)
    assert [r.kind for r in readings] == [MeldKind.SET]


# --------------------------------------------------------------- wild ranks (RULES §7.1, A-26)

CARDS = Material.CARDS
TWO_KINDS = (1, 14, 27, 40)
WILD_RANK_RULES = (
    MeldRules(sets_allowed=True, wild_ranks=frozenset({2})),
    MeldRules(sets_allowed=True, wild_ranks=frozenset({2}), wild_rank_natural=True),
    MeldRules(sets_allowed=False, wild_ranks=frozenset({2}), min_natural=2),
)

CardKey = tuple[MeldKind, int, tuple[int, ...], tuple[tuple[int, int], ...], tuple[int, ...]]


def card_key(kind: MeldKind, suit: int, pairs: list[tuple[int, int, bool]]) -> CardKey:
    """(kind, suit, positions, natural (position, kind) pairs, wild kinds): which wild
    piece fills which wild place does not change what a rack can make."""
    return (
        kind,
        suit,
        tuple(sorted(p for p, _, _ in pairs)),
        tuple(sorted((p, k) for p, k, wild in pairs if not wild)),
        tuple(sorted(k for _, k, wild in pairs if wild)),
    )


def wild_rank_brute_force(kinds: Sequence[int], rules: MeldRules) -> set[CardKey]:
    """Every reading of every sub-multiset of ``kinds`` (undeclared wild pieces take
    every placement, and a 2 that may be itself is tried both ways, by read_meld)."""
    counts = counts_of(list(kinds))
    present = [k for k in range(53) if counts[k]]
    found: set[CardKey] = set()
    for take in itertools.product(*(range(counts[k] + 1) for k in present)):
        sub = [k for k, n in zip(present, take, strict=True) for _ in range(n)]
        if len(sub) < rules.min_size:
            continue
        faces = [Face.from_kind(CARDS, k) for k in sub]
        for reading in read_meld(faces, rules):
            pairs = [
                (p, k, reading.represents(faces, i) != faces[i])
                for i, (p, k) in enumerate(zip(reading.positions, sub, strict=True))
            ]
            found.add(card_key(reading.kind, reading.suit, pairs))
    return found


@st.composite
def card_racks(draw: st.DrawFn) -> list[int]:
    """3-7 cards around a few ranks of two suits, with 2s and at most one joker."""
    suit = draw(st.integers(0, 3))
    card = st.one_of(
        st.builds(lambda r: kind_of(suit, r + 1), st.sampled_from([0, 2, 3, 4, 11, 12])),
        st.sampled_from(TWO_KINDS),
        st.builds(lambda r: kind_of((suit + 1) % 4, r + 1), st.sampled_from([2, 3])),
    )
    kinds = draw(st.lists(card, min_size=3, max_size=6))
    return kinds + [JOKER_KIND] * draw(st.integers(0, 1))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(card_racks(), st.sampled_from(WILD_RANK_RULES))
def test_wild_rank_candidates_are_exactly_the_legal_formations(
    kinds: list[int], rules: MeldRules
) -> None:
    """§7.1/A-26: with 2s wild, candidates read as declared, come from the rack, and cover
    every formation the brute force finds (per multiset of wild pieces)."""
    counts = counts_of(kinds)
    found = candidates(counts, rules)
    keys = set()
    for c in found:
        for k, n in c.need:
            assert counts[k] >= n
        readings = read_meld(c.faces(CARDS), rules, c.declared(CARDS))
        assert readings, f"{c} is not a legal formation"
        pairs = [
            (p, k, c.is_wild_at(i))
            for i, (p, k) in enumerate(zip(c.positions, c.kinds, strict=True))
        ]
        keys.add(card_key(c.kind, c.suit, pairs))
        assert c.joker_count == sum(w for _, _, w in pairs)
    assert keys == wild_rank_brute_force(kinds, rules)
    for kind in set(kinds):
        assert set(candidates_with(counts, rules, kind)) == {c for c in found if kind in c.kinds}


def test_a_two_fills_a_gap_and_a_joker_can_take_its_place() -> None:
    rules = WILD_RANK_RULES[0]
    counts = counts_of([2, 4, 14, JOKER_KIND])  # 3S 5S 2H JK
    runs = {(c.positions, c.kinds) for c in candidates(counts, rules) if c.kind is MeldKind.RUN}
    assert ((3, 4, 5), (2, 14, 4)) in runs  # 3S 2H(4S) 5S
    assert ((3, 4, 5), (2, JOKER_KIND, 4)) in runs  # 3S JK(4S) 5S
    assert ((3, 4, 5, 6), (2, 14, 4, JOKER_KIND)) in runs
    assert ((1, 3, 4), (0, 2, 14)) not in runs  # no ace in the rack
