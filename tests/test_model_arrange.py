"""Minimum-deadwood arrangement (RULES §6.6 / A-24) and the packing search under it.

The oracle is an exhaustive enumeration of every collection of disjoint candidates,
independent of the memoised lowest-kind search.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.model.arrange import Arrangement, best_packing, kind_values, min_deadwood
from rummykit.model.candidates import Candidate, candidates, counts_of
from rummykit.model.melds import MeldRules
from rummykit.model.pieces import JOKER_KIND, Material, parse_faces, rank_of_kind
from rummykit.rules.remi_ro import MELD_RULES as RO_RULES
from rummykit.rules.remi_ro import score_value as ro_value

TILES = Material.TILES
CARDS = Material.CARDS
RO_VALUES = kind_values(ro_value, TILES)
# RULES §6.8 card values: ace 11, joker 25, K/Q/J 10, 2-10 face value.
CARD_VALUES = tuple(
    25 if k == JOKER_KIND else 11 if rank_of_kind(k) == 1 else min(10, rank_of_kind(k))
    for k in range(53)
)
ONE_JOKER = MeldRules(ace_both_ends=False, max_wild=1)  # RULES §6.4: one joker per meld


def tiles(text: str) -> tuple[int, ...]:
    return counts_of([f.kind for f in parse_faces(text, TILES)])


def cards(text: str) -> tuple[int, ...]:
    return counts_of([f.kind for f in parse_faces(text, CARDS)])


def shown(arr: Arrangement, material: Material) -> list[str]:
    return sorted(" ".join(str(f) for f in m.faces(material)) for m in arr.melds)


def brute_force(counts: Sequence[int], cands: Sequence[Candidate], scores: Sequence[int]) -> int:
    """The best total score over every collection of disjoint candidates (exhaustive)."""
    best = 0

    def walk(start: int, left: list[int], total: int) -> None:
        nonlocal best
        best = max(best, total)
        for i in range(start, len(cands)):
            need = cands[i].need
            if all(left[k] >= c for k, c in need):
                for k, c in need:
                    left[k] -= c
                walk(i, left, total + scores[i])
                for k, c in need:
                    left[k] += c

    walk(0, list(counts), 0)
    return best


def check(arr: Arrangement, counts: Sequence[int], values: Sequence[int]) -> None:
    """The arrangement uses exactly the hand and its points are its deadwood's value."""
    used = [0] * 53
    for meld in arr.melds:
        for k in meld.kinds:
            used[k] += 1
    for k in arr.deadwood:
        used[k] += 1
    assert used == list(counts)
    assert arr.points == sum(values[k] for k in arr.deadwood)
    assert list(arr.deadwood) == sorted(arr.deadwood)


# ------------------------------------------------------------------- hand-built


@pytest.mark.parametrize(
    ("text", "points", "melds"),
    [
        ("R12 R13 R1", 0, ["R12 R13 R1"]),  # RULES §9.7: the one above the 13
        (
            "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1",  # 1 to 1
            0,
            None,  # several zero-deadwood splits exist
        ),
        ("R1 Y1 B1 K1", 0, ["R1 Y1 B1 K1"]),  # a set of 1s
        ("R1 Y1 B1 K1 R1", 25, ["R1 Y1 B1 K1"]),  # the second R1 cannot join (§9.7)
        ("R5 J J", 0, ["R5 J J"]),  # one natural and two jokers
        ("R5 K9 J J", 5, ["R5 J J"]),  # a tie: the lowest kind is placed first
        ("R3 R4 R5 R6 R7 B5 K5", 10, ["R3 R4 R5 R6 R7"]),  # the long run beats the set
        ("R3 R4 R5 R6 R7 B5 K5 B6 K6", 15, None),  # two sets, or a run and a set: 15 either way
        ("R2 Y7 B11", 20, []),
    ],
)
def test_tile_hands(text: str, points: int, melds: list[str] | None) -> None:
    counts = tiles(text)
    arr = min_deadwood(counts, RO_RULES, RO_VALUES)
    check(arr, counts, RO_VALUES)
    assert arr.points == points
    if melds is not None:
        assert shown(arr, TILES) == sorted(melds)


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("AH 2H 3H JK 5S 5D", 0),  # RULES §6.4: a run and a set with one joker
        ("7H JK JK", 57),  # §6.4: at most one joker per meld, so nothing melds
        ("7H 8H JK JK", 25),  # one joker joins the run, the other is deadwood
        ("QH KH AH", 0),  # the ace high
        ("KH AH 2H", 23),  # no wrap (§6.4)
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", 0),  # A-2-3 and 4-…-K-A
    ],
)
def test_card_hands_one_joker_per_meld(text: str, points: int) -> None:
    counts = cards(text)
    arr = min_deadwood(counts, ONE_JOKER, CARD_VALUES)
    check(arr, counts, CARD_VALUES)
    assert arr.points == points


def test_values_may_be_a_function() -> None:
    counts = tiles("R2 Y7 B11")
    assert min_deadwood(counts, RO_RULES, lambda k: 1).points == 3


def test_bad_input_is_rejected() -> None:
    with pytest.raises(ValueError, match="53"):
        min_deadwood((0,) * 52, RO_RULES, RO_VALUES)
    with pytest.raises(ValueError, match="negative"):
        min_deadwood((-1,) + (0,) * 52, RO_RULES, RO_VALUES)
    with pytest.raises(ValueError, match="53"):
        min_deadwood(tiles("R1"), RO_RULES, (1, 2))
    with pytest.raises(ValueError, match="one score"):
        best_packing(tiles("R1"), [], [1])


def test_packing_never_chooses_worthless_candidates() -> None:
    counts = tiles("R1 R2 R3")
    cands = candidates(counts, RO_RULES)
    assert best_packing(counts, cands, [0] * len(cands)) == ((), 0)


# ------------------------------------------------------------------ properties

RULE_SETS = [
    RO_RULES,
    ONE_JOKER,
    MeldRules(ace_high=False, min_natural=2),
    MeldRules(wild_le_natural=True, runs_allowed=False),
    MeldRules(sets_allowed=False, min_size=4),
]
KINDS = st.sampled_from([*range(13), *range(13, 20), *range(39, 52), JOKER_KIND])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(KINDS, min_size=0, max_size=9), st.sampled_from(range(len(RULE_SETS))))
def test_matches_exhaustive_search(kinds: list[int], rule_index: int) -> None:
    counts = list(counts_of(kinds))
    counts = [min(c, 2) for c in counts[:52]] + [min(counts[52], 2)]
    rules = RULE_SETS[rule_index]
    cands = candidates(tuple(counts), rules)
    scores = [sum(RO_VALUES[k] for k in c.kinds) for c in cands]
    best = brute_force(counts, cands, scores)
    arr = min_deadwood(counts, rules, RO_VALUES)
    check(arr, counts, RO_VALUES)
    assert arr.points == sum(RO_VALUES[k] * c for k, c in enumerate(counts)) - best
    packing = best_packing(counts, cands, scores)
    assert packing.score == best
    assert sum(scores[i] for i in packing.chosen) == best


def test_worthless_pieces_are_still_arranged() -> None:
    # With every piece worth 0 the deadwood is 0 either way; the melds still form.
    counts = tiles("R1 R2 R3 B7 K7 Y7 J")
    arr = min_deadwood(counts, RO_RULES, (0,) * 53)
    assert arr.points == 0
    assert sum(len(m.kinds) for m in arr.melds) == 7
    # Equal deadwood value: the arrangement melding more pieces is chosen.
    assert len(min_deadwood(tiles("R5 R6 R7 R8"), RO_RULES, (0,) * 53).deadwood) == 0


def declared_packing(
    counts: Sequence[int], cands: Sequence[Candidate], scores: Sequence[int]
) -> tuple[tuple[int, ...], int]:
    """best_packing's choice as its comments state it, one piece at a time on count
    tuples: one candidate kept per multiset of pieces (best score, then the higher
    positions); at the lowest kind left, the first candidate (in order) that keeps the
    optimum, else one piece of that kind left out."""
    kept: dict[tuple[tuple[int, int], ...], int] = {}
    for i, cand in enumerate(cands):
        if scores[i] > 0 and all(counts[k] >= n for k, n in cand.need):
            j = kept.get(cand.need)
            if j is None or (scores[i], cand.positions) > (scores[j], cands[j].positions):
                kept[cand.need] = i
    order = sorted(kept.values())
    memo: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}

    def solve(left: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        if not any(left):
            return 0, ()
        if left in memo:
            return memo[left]
        low = next(k for k, c in enumerate(left) if c)
        best, picks = solve(tuple(c - (k == low) for k, c in enumerate(left)))
        chose = False
        for i in order:
            need = dict(cands[i].need)
            if min(need) != low or any(left[k] < n for k, n in need.items()):
                continue
            value, rest = solve(tuple(c - need.get(k, 0) for k, c in enumerate(left)))
            if value + scores[i] > best or (value + scores[i] == best and not chose):
                best, picks, chose = value + scores[i], (i, *rest), True
        memo[left] = (best, picks)
        return best, picks

    best, picks = solve(tuple(counts))
    return tuple(sorted(picks)), best


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(KINDS, min_size=0, max_size=11),
    st.sampled_from(range(len(RULE_SETS) + 1)),
    st.booleans(),
)
def test_packing_chooses_as_declared(kinds: list[int], rule_index: int, flat: bool) -> None:
    """Not only the optimum: the very candidates chosen follow the declared order (the
    shown arrangement depends on them), with kinds that start no candidate left out at
    once and only the kept candidates' kinds in the search state."""
    counts = tuple(min(c, 2) for c in counts_of(kinds))
    rules = (*RULE_SETS, ONE_JOKER)[rule_index]
    cands = candidates(counts, rules)
    # Equal scores make ties everywhere: the order of the choice is what decides.
    scores = [1 if flat else sum(CARD_VALUES[k] for k in c.kinds) for c in cands]
    assert best_packing(counts, cands, scores) == declared_packing(counts, cands, scores)
