"""The exact opening solver (RULES §9.8, A-45/A-46) against hand-made and brute-force answers."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ilp_support import Family, Template, families, ilp_best, sample_racks
from rummykit.model.candidates import Candidate, candidates, counts_of
from rummykit.model.melds import HIGH_ACE, MeldKind
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.rules import find_variant
from rummykit.rules.remi_ro import REMI_RO, TILES_106, RemiRoOptions
from rummykit.rules.variant import OpeningStructure
from rummykit.solver import Laydown, best_laydown, best_opening, opening_requirement
from rummykit.solver.opening import FREE_OPENING, OpeningRequirement

RO = RemiRoOptions.of(REMI_RO.resolve(4))
BG = OpeningRequirement(OpeningStructure.RUN_AND_SET, RO.opening_min_points)
NO_RULE = OpeningRequirement(OpeningStructure.NONE, RO.opening_min_points)
STRUCTURES = ("none", "run_or_ones_set", "run_and_set")


def hand(text: str) -> tuple[Face, ...]:
    return parse_faces(text, Material.TILES)


def shown(laydown: Laydown) -> list[str]:
    return [" ".join(str(f) for f in m.faces(Material.TILES)) for m in laydown.melds]


# --------------------------------------------------------------- RULES §12.7 RRT-09


@pytest.mark.parametrize(
    ("text", "points", "valid", "melds"),
    [
        ("Y3 Y4 Y5 R10 B10 K10", 45, True, ["Y3 Y4 Y5", "R10 B10 K10"]),
        ("R10 B10 K10 R11 B11 Y11", 0, False, []),  # (b) no run, and not a set of 1s
        ("R1 B1 K1", 75, True, ["R1 B1 K1"]),  # (c) the lone set of 1s
        ("R1 B1 K1 R9 B9 Y9", 75, True, ["R1 B1 K1"]),  # (d) the 9s must wait
        ("R9 R10 R11 R12 R13", 45, True, ["R9 R10 R11 R12 R13"]),  # (e)
    ],
)
def test_rrt09_default_structure(text: str, points: int, valid: bool, melds: list[str]) -> None:
    laydown = best_opening(hand(text), REMI_RO, RO)
    assert (laydown.points, laydown.valid_opening, shown(laydown)) == (points, valid, melds)


def test_rrt09_b_is_exactly_the_empty_laydown() -> None:
    assert best_opening(hand("R10 B10 K10 R11 B11 Y11"), REMI_RO, RO) == Laydown((), 0, False)


@pytest.mark.parametrize(
    ("text", "points", "valid"),
    [
        ("Y3 Y4 Y5 R10 B10 K10", 45, True),  # (a)
        ("R10 B10 K10 R11 B11 Y11", 0, False),  # (b)
        ("R1 B1 K1", 0, False),  # (c) no 1s exception under A-45
        ("R9 R10 R11 R12 R13", 0, False),  # (e) a run alone is not enough
    ],
)
def test_rrt09_run_and_set(text: str, points: int, valid: bool) -> None:
    laydown = best_opening(hand(text), REMI_RO, BG)
    assert (laydown.points, laydown.valid_opening) == (points, valid)


def test_rrt09_d_run_and_set_lays_nothing() -> None:
    # Two sets and no run: run_and_set needs a run too.
    assert best_opening(hand("R1 B1 K1 R9 B9 Y9"), REMI_RO, BG) == Laydown((), 0, False)


# ------------------------------------------------------------------------- jokers


def test_joker_reads_as_high_one() -> None:
    laydown = best_opening(hand("R12 R13 J"), REMI_RO, RO)
    assert laydown.points == 30
    assert not laydown.valid_opening
    (meld,) = laydown.melds
    # 11-12-13 is worth 30 too; the tie-break picks kinds (R12, R13, J) = 12-13-1.
    assert meld.positions == (12, 13, HIGH_ACE)


def test_two_jokers_and_a_five() -> None:
    laydown = best_opening(hand("J J R5"), REMI_RO, RO)
    assert laydown.points == 15
    assert [m.kind for m in laydown.melds] == [MeldKind.RUN]
    assert best_laydown(hand("J J R5"), REMI_RO).points == 15


def test_jokers_stand_in_for_ones_in_the_lone_set() -> None:
    # R1 J J as a set of 1s is worth 75; as a run at best 30 (J J R1 = 12-13-1).
    laydown = best_opening(hand("R1 J J"), REMI_RO, RO)
    assert (laydown.points, laydown.valid_opening) == (75, True)
    assert laydown.melds[0].kind is MeldKind.SET
    assert best_opening(hand("R1 J J"), REMI_RO, BG) == Laydown((), 0, False)


def test_full_run_one_to_one() -> None:
    # 1 low = 5, 2–9 = 8 × 5, 10–13 = 4 × 10, 1 high = 10.
    faces = hand("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1")
    laydown = best_opening(faces, REMI_RO, RO)
    assert (laydown.points, laydown.valid_opening) == (95, True)
    assert sum(len(m.kinds) for m in laydown.melds) == 14
    # With a joker instead of the second 1, the lone 1 is better high (10) and the
    # joker takes a 10-valued position: 40 + 40 + 10 + 10.
    with_joker = hand("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J")
    assert best_opening(with_joker, REMI_RO, RO).points == 100


def test_fewer_jokers_win_ties() -> None:
    # keep=1 allows three tiles: R3 R4 R5 and R4 R5 J are both worth 15.
    laydown = best_opening(hand("R3 R4 R5 J"), REMI_RO, RO, keep=1)
    assert laydown.points == 15
    assert shown(laydown) == ["R3 R4 R5"]
    assert best_opening(hand("R3 R4 R5 J"), REMI_RO, RO).points == 20
    # R2 J R4 has the smaller kinds, but R4 R5 R6 uses no joker (keep=2: three tiles).
    laydown = best_opening(hand("R2 R4 R5 R6 J"), REMI_RO, RO, keep=2)
    assert (laydown.points, shown(laydown)) == (15, ["R4 R5 R6"])


def test_lone_ones_set_tied_with_runs() -> None:
    # Three runs through the three 1s (30 + 15 + 30) tie with the lone set of 1s (75);
    # no jokers either way, and the set's kinds (R1 B1 K1) sort first.
    faces = hand("R1 B1 K1 R12 R13 B2 B3 K12 K13")
    laydown = best_opening(faces, REMI_RO, RO)
    assert (laydown.points, shown(laydown)) == (75, ["R1 B1 K1"])
    # run_and_set has no lone-set exception: the three runs are not enough either.
    assert best_opening(faces, REMI_RO, BG) == Laydown((), 0, False)
    assert shown(best_opening(faces, REMI_RO, NO_RULE)) == ["R1 B1 K1"]


# --------------------------------------------------------------- keep, must_include


def test_keep_forces_a_smaller_laydown() -> None:
    faces = hand("Y3 Y4 Y5 R10 B10 K10")
    laydown = best_opening(faces, REMI_RO, RO, keep=1)
    assert (laydown.points, laydown.valid_opening, shown(laydown)) == (15, False, ["Y3 Y4 Y5"])
    assert best_laydown(faces, REMI_RO, keep=1).points == 30
    assert best_opening(faces, REMI_RO, RO, keep=4) == Laydown((), 0, False)
    assert best_opening(faces, REMI_RO, RO, keep=7) == Laydown((), 0, False)


def test_must_include() -> None:
    faces = hand("Y3 Y4 Y5 R10 B10 K10 R7")
    assert best_opening(faces, REMI_RO, RO, must_include=Face.parse("Y4")).points == 45
    assert best_opening(faces, REMI_RO, RO, must_include=Face.parse("R7")) == Laydown((), 0, False)
    assert best_opening(faces, REMI_RO, RO, must_include=Face.parse("J")) == Laydown((), 0, False)
    # A joker does not count as the must-include face unless that face is the joker.
    laydown = best_opening(hand("R5 R6 J B9"), REMI_RO, NO_RULE, must_include=Face.parse("J"))
    assert laydown.points == 15
    assert best_opening(hand("R5 R6 J"), REMI_RO, RO, must_include=Face.parse("R7")).points == 0


def test_must_include_joker_changes_the_laydown() -> None:
    faces = hand("R3 R4 R5 J")
    assert shown(best_opening(faces, REMI_RO, RO, keep=1)) == ["R3 R4 R5"]
    forced = best_opening(faces, REMI_RO, RO, keep=1, must_include=Face.parse("J"))
    # Every three-tile run with the joker is worth 15; the smallest kinds win the tie.
    assert (forced.points, shown(forced)) == (15, ["R3 R4 J"])


# ---------------------------------------------------------------- options, display


def test_the_free_opening_has_no_rule_and_no_minimum() -> None:
    laydown = best_opening(hand("R10 B10 K10 R11 B11 Y11"), REMI_RO, FREE_OPENING)
    assert (laydown.points, laydown.valid_opening) == (60, True)


def test_bad_arguments() -> None:
    # Options are parsed before they are read: a bad value is an OptionError.
    with pytest.raises(ValueError, match="opening_structure"):
        best_opening(hand("R1 B1 K1"), REMI_RO, {**RO, "opening_structure": "bogus"})
    with pytest.raises(ValueError, match="opening_min_points"):
        best_opening(hand("R1 B1 K1"), REMI_RO, {**RO, "opening_min_points": "45"})
    with pytest.raises(ValueError, match="keep"):
        best_laydown(hand("R1 B1 K1"), REMI_RO, keep=-1)


def test_display_order_runs_then_sets() -> None:
    faces = hand("K7 K7 B7 Y7 R1 B1 K1 B2 B3 B4 R11 R12 R13")
    laydown = best_laydown(faces, REMI_RO)
    kinds = [m.kind for m in laydown.melds]
    assert kinds == sorted(kinds, key=lambda k: k is MeldKind.SET)
    runs = [m for m in laydown.melds if m.kind is MeldKind.RUN]
    assert [m.suit for m in runs] == sorted(m.suit for m in runs)
    sets = [m for m in laydown.melds if m.kind is MeldKind.SET]
    assert [m.positions[0] for m in sets] == sorted(m.positions[0] for m in sets)


def test_best_laydown_and_empty_racks() -> None:
    laydown = best_laydown(hand("R1 B1 K1 R9 B9 Y9"), REMI_RO)
    assert (laydown.points, laydown.valid_opening) == (90, True)
    assert best_laydown((), REMI_RO) == Laydown((), 0, False)
    assert best_opening(hand("J J"), REMI_RO, RO) == Laydown((), 0, False)


def test_answers_do_not_depend_on_call_order() -> None:
    racks = [hand("R1 B1 K1 R9 B9 Y9 J"), hand("Y3 Y4 Y5 R10 B10 K10"), hand("R12 R13 J")]
    first = [best_opening(r, REMI_RO, RO) for r in racks]
    again = [best_opening(r, REMI_RO, RO) for r in reversed(racks)]
    assert first == list(reversed(again))


# ----------------------------------------------------------- brute-force cross-check


def _points(melds: Sequence[Candidate]) -> int:
    return sum(REMI_RO.opening_value(m.kind, p) for m in melds for p in m.positions)


def _structure_ok(melds: Sequence[Candidate], structure: str) -> bool:
    runs = sum(m.kind is MeldKind.RUN for m in melds)
    sets = len(melds) - runs
    if structure == "run_or_ones_set":
        return runs > 0 or (len(melds) == 1 and melds[0].positions[0] == 1)
    if structure == "run_and_set":
        return runs > 0 and sets > 0
    return bool(melds)


def _every_laydown(faces: Sequence[Face]) -> list[tuple[Candidate, ...]]:
    """Every multiset of disjoint candidates, each once (indices never decrease)."""
    counts = counts_of([f.kind for f in faces])
    found = candidates(counts, REMI_RO.meld_rules)
    left = list(counts)
    out: list[tuple[Candidate, ...]] = []
    chosen: list[Candidate] = []

    def walk(start: int) -> None:
        out.append(tuple(chosen))
        for j in range(start, len(found)):
            cand = found[j]
            if all(left[k] >= n for k, n in cand.need):
                for k, n in cand.need:
                    left[k] -= n
                chosen.append(cand)
                walk(j)
                chosen.pop()
                for k, n in cand.need:
                    left[k] += n

    walk(0)
    return out


def _naive(
    faces: Sequence[Face],
    laydowns: list[tuple[Candidate, ...]],
    structure: str,
    keep: int,
    must: Face | None,
) -> Laydown:
    legal = [
        melds
        for melds in laydowns
        if _structure_ok(melds, structure)
        and sum(len(m.kinds) for m in melds) <= len(faces) - keep
        and (must is None or any(must.kind in m.kinds for m in melds))
    ]
    if not legal:
        return Laydown((), 0, False)
    best = min(
        legal,
        key=lambda ms: (
            -_points(ms),
            sum(m.joker_count for m in ms),
            sorted((m.kinds, m.positions) for m in ms),
        ),
    )
    shown_order = tuple(
        sorted(best, key=lambda m: (m.kind is MeldKind.SET, m.suit, m.positions, m.kinds))
    )
    points = _points(best)
    return Laydown(shown_order, points, points >= 45)


def _window_pool(low: int) -> list[int]:
    """Piece ids whose rank sits in run positions low..low+4 (14 is the 1), plus the jokers."""
    ranks = {1 if p == HIGH_ACE else p for p in range(low, low + 5)}
    return [i for i, f in enumerate(TILES_106.faces) if f.is_joker or f.rank in ranks]


@st.composite
def racks(draw: st.DrawFn) -> tuple[Face, ...]:
    size = draw(st.integers(4, 9))
    if draw(st.booleans()):
        pool = list(range(len(TILES_106)))
    else:
        # Concentrated racks: most draws then hold runs, sets and joker choices.
        pool = _window_pool(draw(st.integers(1, 10)))
    ids = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))
    return tuple(TILES_106.faces[i] for i in ids)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rack=racks(), data=st.data())
def test_matches_brute_force(rack: tuple[Face, ...], data: st.DataObject) -> None:
    laydowns = _every_laydown(rack)
    must = data.draw(st.none() | st.sampled_from(rack), label="must_include")
    for structure in STRUCTURES:
        options = OpeningRequirement(OpeningStructure(structure), RO.opening_min_points)
        for keep in (0, 1):
            got = best_opening(rack, REMI_RO, options, keep=keep)
            assert got == _naive(rack, laydowns, structure, keep, None), (structure, keep)
            got = best_opening(rack, REMI_RO, options, keep=keep, must_include=must)
            assert got == _naive(rack, laydowns, structure, keep, must), (structure, keep, must)
    for keep in (0, 1, 3):
        expected = _naive(rack, laydowns, "none", keep, None)
        got = best_laydown(rack, REMI_RO, keep=keep)
        assert (got.melds, got.points) == (expected.melds, expected.points)
        assert got.valid_opening == bool(expected.melds)


# ------------------------------------------- exactness against an integer program (HiGHS)

FAMILIES = families()
RACKS_PER_CHECK = 1000


def _opening_points(family: Family) -> Callable[[Template], int]:
    return lambda t: sum(family.opening_value(t.kind, p) for p in t.positions)


@pytest.mark.parametrize(
    # With no structure rule the opening is the most-value laydown, checked below.
    "family",
    [f for f in FAMILIES if f.structure != "none"],
    ids=lambda f: f.name,
)
def test_opening_matches_integer_program(family: Family) -> None:
    """The best opening under the variant's own structure rule, on 1,000 seeded racks."""
    variant = find_variant(family.name)
    requirement = opening_requirement(variant, family.options)
    value = _opening_points(family)
    mismatches = []
    for rack in sample_racks(family, RACKS_PER_CHECK, seed=11):
        counts = counts_of([f.kind for f in rack])
        got = best_opening(rack, variant, requirement, rules=family.rules).points
        want = ilp_best(counts, family.rules, family.material, value, structure=family.structure)
        if got != want:
            mismatches.append((" ".join(map(str, rack)), got, want))
    assert mismatches == []


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_most_value_laid_matches_integer_program(family: Family) -> None:
    variant = find_variant(family.name)
    value = _opening_points(family)
    mismatches = []
    for rack in sample_racks(family, RACKS_PER_CHECK, seed=12):
        counts = counts_of([f.kind for f in rack])
        got = best_laydown(rack, variant, rules=family.rules).points
        want = ilp_best(counts, family.rules, family.material, value)
        if got != want:
            mismatches.append((" ".join(map(str, rack)), got, want))
    assert mismatches == []


@pytest.mark.parametrize("structure", ["none", "run_and_set", "run"])
def test_other_structures_match_integer_program(structure: str) -> None:
    """RULES §9.8 / A-45 alternatives on tiles, with a piece budget on some racks."""
    (family,) = [f for f in FAMILIES if f.name == "remi_ro"]
    value = _opening_points(family)
    options = OpeningRequirement(OpeningStructure(structure), RO.opening_min_points)
    mismatches = []
    for i, rack in enumerate(sample_racks(family, 400, seed=13)):
        keep = i % 3
        counts = counts_of([f.kind for f in rack])
        got = best_opening(rack, REMI_RO, options, keep=keep).points
        want = ilp_best(
            counts,
            family.rules,
            family.material,
            value,
            structure=structure,
            max_pieces=len(rack) - keep,
        )
        if got != want:
            mismatches.append((" ".join(map(str, rack)), keep, got, want))
    assert mismatches == []


@pytest.mark.parametrize(
    "text",
    [
        "R12 R13 R1 J J",  # the high 1 and two jokers
        "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1",  # 1 to 1
        "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J J",
        "R1 Y1 B1 K1 R1 Y1 J",  # sets of 1s
        "R1 Y1 B1 K1 R1 Y1 B1 K1 J J",
        "J J R5 B5 Y9 K13",
    ],
)
def test_edge_racks_match_integer_program(text: str) -> None:
    (family,) = [f for f in FAMILIES if f.name == "remi_ro"]
    rack = hand(text)
    counts = counts_of([f.kind for f in rack])
    value = _opening_points(family)
    for structure in STRUCTURES:
        options = OpeningRequirement(OpeningStructure(structure), RO.opening_min_points)
        want = ilp_best(counts, family.rules, family.material, value, structure=structure)
        assert best_opening(rack, REMI_RO, options).points == want, structure
