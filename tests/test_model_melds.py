"""The shared meld model (RULES §2.2) under the remi_ro formation rules (§9.7, RRT-07)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rummykit.model.melds import (
    HIGH_ACE,
    MeldKind,
    MeldRules,
    Reading,
    best_reading,
    read_meld,
    run_order,
)
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.rules.remi_ro import MELD_RULES, opening_value

TILES = Material.TILES


def faces(text: str) -> tuple[Face, ...]:
    """Faces of `R5 J(R6) R7` notation, ignoring declarations."""
    return tuple(Face.parse(tok.split("(")[0], TILES) for tok in text.split())


def declared(text: str) -> tuple[Face | None, ...]:
    """What each piece of `R5 J(R6) R7` notation is declared to stand for."""
    out: list[Face | None] = []
    for tok in text.split():
        out.append(Face.parse(tok[tok.index("(") + 1 : -1], TILES) if "(" in tok else None)
    return tuple(out)


def read(text: str, rules: MeldRules = MELD_RULES) -> list[Reading]:
    return read_meld(faces(text), rules, declared(text))


def legal(text: str, rules: MeldRules = MELD_RULES) -> bool:
    return bool(read(text, rules))


def run_positions(text: str) -> set[tuple[int, ...]]:
    """The run readings' positions, in input order."""
    return {r.positions for r in read(text) if r.kind is MeldKind.RUN}


FULL_RUN = " ".join(f"R{n}" for n in range(1, 14)) + " R1"


# --------------------------------------------------------------- RULES §12.7 RRT-07


@pytest.mark.parametrize(
    ("meld", "expected"),
    [
        ("R12 R13 R1", True),  # a 1 may be high
        ("R13 R1 R2", False),  # ...but never in the middle
        ("R1 R2 R3", True),  # a 1 may be low
        (FULL_RUN, True),  # the complete 14-tile run 1-2-…-13-1
        ("B7 R7 Y7", True),  # a set of three colours
        ("B7 B7 R7", False),  # a set repeats no colour
        ("R5 J J", True),  # no joker limit beyond one natural
    ],
)
def test_rrt07_formations(meld: str, expected: bool) -> None:
    """RRT-07: legal, illegal, legal, legal (14 tiles), legal, illegal, legal."""
    assert legal(meld) is expected


def test_rrt07_the_complete_run_reads_with_a_1_at_both_ends() -> None:
    """§9.7 / A-64: the 14-tile run has one 1 at position 1 and the other at position 14."""
    readings = read(FULL_RUN)
    assert readings
    for r in readings:
        assert r.kind is MeldKind.RUN
        assert sorted(r.positions) == list(range(1, HIGH_ACE + 1))
        assert {r.positions[0], r.positions[-1]} == {1, HIGH_ACE}


def test_rule_9_7_high_one_sits_at_position_14() -> None:
    assert run_positions("R12 R13 R1") == {(12, 13, HIGH_ACE)}
    assert run_positions("R1 R2 R3") == {(1, 2, 3)}
    assert run_positions("R1 R13 R12") == {(HIGH_ACE, 13, 12)}  # input order does not matter


@pytest.mark.parametrize(
    "meld",
    [
        "R13 R1 R2",
        "R12 R13 R1 R2",
        "R1 R1 R2",  # two 1s need the whole 1..14 run
        "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R1",  # 13 tiles with two 1s: not consecutive
        "R5 R6 R8",  # a gap
        "R5 R6 B7",  # two colours
        "R5 R5 R6 R7",  # a repeated number in a run
        "R5 R6",  # too short
    ],
)
def test_rule_9_7_illegal_runs(meld: str) -> None:
    assert not legal(meld)


def test_rule_9_7_fifteen_tiles_cannot_be_one_run() -> None:
    """The longest run is 1..13..1 (14 positions)."""
    assert not legal(FULL_RUN + " J")


# --------------------------------------------------------------- §9.7 sets


@pytest.mark.parametrize(
    ("meld", "expected"),
    [
        ("R7 B7 Y7 K7", True),  # all four colours
        ("R7 B7 Y7 K7 J", False),  # a fifth tile can only repeat a colour
        ("R7 B7 Y7 J", True),
        ("R7 B7 J J", True),
        ("R7 J J J", True),  # three jokers and one natural is still a set
        ("R1 B1 K1", True),
        ("R7 B7 Y8", False),  # numbers differ
        ("R7 B7 Y7 R7", False),  # a colour twice
    ],
)
def test_rule_9_7_sets_have_at_most_4_distinct_colours(meld: str, expected: bool) -> None:
    got = [r for r in read(meld) if r.kind is MeldKind.SET]
    assert bool(got) is expected
    for r in got:
        assert len(set(r.positions)) == 1


# --------------------------------------------------------------- A-66 joker constraints


@pytest.mark.parametrize("meld", ["J J J", "J J J J", "J J"])
def test_a66_a_formation_needs_at_least_one_natural_tile(meld: str) -> None:
    assert not legal(meld)


def test_a66_no_joker_limit_but_rules_can_add_one() -> None:
    """§2.2 wild-card constraints are per variant; remi_ro sets none (A-66), remmi_de caps them."""
    assert legal("R5 J J")
    capped = MeldRules(max_wild=1)
    assert not legal("R5 J J", capped)
    assert legal("R5 R6 J", capped)
    le_natural = MeldRules(wild_le_natural=True)
    assert not legal("R1 J J", le_natural)  # RMD-07: more jokers than numbers
    assert legal("R5 R6 J J", le_natural)
    two_naturals = MeldRules(min_natural=2)
    assert not legal("R5 J J", two_naturals)


def test_r5_j_j_reads_as_every_legal_interpretation() -> None:
    """`[R5 J J]`: 3-4-5, 4-5-6, 5-6-7 or a set of fives; nothing else."""
    readings = read("R5 J J")
    runs = {tuple(sorted(r.positions)) for r in readings if r.kind is MeldKind.RUN}
    assert runs == {(3, 4, 5), (4, 5, 6), (5, 6, 7)}
    assert [r.positions for r in readings if r.kind is MeldKind.SET] == [(5, 5, 5)]
    for r in readings:
        if r.kind is MeldKind.RUN:
            assert r.suit == 0  # red
            assert r.positions[0] == 5  # the natural R5 always sits at 5


def test_read_meld_answers_each_caller_with_a_list_of_its_own() -> None:
    """Readings are remembered between calls; a caller changing its list changes nothing
    for the next one, and the input order still decides the positions."""
    first = read("R5 J J")
    first.clear()
    assert len(read("R5 J J")) == 4
    assert read("R5 R6 R7")[0].positions == (5, 6, 7)
    assert read("R7 R6 R5")[0].positions == (7, 6, 5)


def test_a_joker_next_to_a_high_one_cannot_wrap() -> None:
    """`[R13 R1 J]` may be 12-13-1 but never 13-1-2 (§9.7)."""
    assert {tuple(sorted(p)) for p in run_positions("R13 R1 J")} == {(12, 13, HIGH_ACE)}


# --------------------------------------------------------------- §2.2 declared jokers


@pytest.mark.parametrize(
    ("meld", "positions"),
    [
        ("R5 R6 J(R7)", (5, 6, 7)),
        ("R5 R6 J(R4)", (5, 6, 4)),
        ("R12 R13 J(R1)", (12, 13, HIGH_ACE)),  # a declared 1 after 13 is the high 1
        ("R2 R3 J(R1)", (2, 3, 1)),  # ...and before 2 the low 1
        ("R5 J(R6) J(R7)", (5, 6, 7)),
        ("R5 J(R7) J(R6)", (5, 7, 6)),
        ("R5 J(R6) J", (5, 6, 7)),  # the undeclared joker fills the remaining gap...
    ],
)
def test_rule_2_2_declared_jokers_are_honoured_in_runs(
    meld: str, positions: tuple[int, ...]
) -> None:
    """§2.2: a declared wild piece sits exactly where it says."""
    runs = [r for r in read(meld) if r.kind is MeldKind.RUN]
    assert positions in [r.positions for r in runs]
    for r in runs:
        for i, d in enumerate(declared(meld)):
            if d is not None:
                assert r.represents(faces(meld), i) == d


def test_rule_2_2_a_declared_joker_fixes_the_run() -> None:
    """`[R5 R6 J(R7)]` is only 5-6-7, not 4-5-6; `[R5 J(R6) J]` is 4-5-6 or 5-6-7."""
    assert run_positions("R5 R6 J(R7)") == {(5, 6, 7)}
    assert run_positions("R5 R6 J") == {(5, 6, 4), (5, 6, 7)}
    assert run_positions("R5 J(R6) J") == {(5, 6, 4), (5, 6, 7)}
    # a declared run joker rules out reading the same pieces as a set
    assert all(r.kind is MeldKind.RUN for r in read("R5 J(R6) J"))


@pytest.mark.parametrize(
    "meld",
    [
        "R5 R6 J(R8)",  # leaves a gap
        "R5 R6 J(B7)",  # wrong colour
        "R5 R6 J(R5)",  # a number already present
        "R5 R6 J(R6)",
        "R13 J(R1) R2",  # 13-1-2 is never legal
        "R12 R13 J(R2)",
        "R5 B5 J(R5)",  # a set repeats no colour
        "R5 B5 J(Y6)",  # a set joker must show the set's number
        "R5 J(B5) J(B5)",  # two jokers cannot be the same missing colour
        "R7 B7 Y7 J(K8)",
    ],
)
def test_rule_2_2_wrong_declarations_are_rejected(meld: str) -> None:
    assert read(meld) == []


@pytest.mark.parametrize("meld", ["R5 B5 J(Y5)", "R5 B5 J(K5)", "R5 J(B5) J(Y5)", "R5 B5 Y5 J(K5)"])
def test_rule_2_2_set_jokers_declared_as_a_missing_colour(meld: str) -> None:
    """§2.2: in a set a wild piece stands for one of the missing colours."""
    readings = read(meld)
    assert [r.kind for r in readings] == [MeldKind.SET]


def test_reading_represents_what_each_joker_stands_for() -> None:
    """§2.2: in a run the joker is the tile at its position; in a set no colour is fixed."""
    fs = faces("R12 R13 J")
    (run,) = [r for r in read_meld(fs, MELD_RULES) if r.positions == (12, 13, HIGH_ACE)]
    assert run.represents(fs, 2) == Face.parse("R1")
    assert run.represents(fs, 0) == Face.parse("R12")
    assert (run.low, run.high) == (12, HIGH_ACE)
    fs = faces("R5 B5 J")
    (set_reading,) = read_meld(fs, MELD_RULES)
    assert set_reading.represents(fs, 2) is None
    assert set_reading.represents(fs, 1) == Face.parse("B5")


# --------------------------------------------------------------- §2.2 best reading


def best(text: str) -> Reading:
    fs = faces(text)
    return best_reading(fs, read_meld(fs, MELD_RULES, declared(text)), opening_value)


def points(text: str, reading: Reading) -> int:
    return sum(opening_value(reading.kind, p) for p in reading.positions)


def test_rule_2_2_r12_j_j_ties_go_to_the_higher_joker_positions() -> None:
    """§2.2/§9.8: 10-11-12, 11-12-13, 12-13-1 and the set of 12s are all worth 30;
    the tie goes to the higher joker positions, so the jokers are 13 and the high 1 (14)."""
    r = best("R12 J J")
    assert r.kind is MeldKind.RUN
    assert sorted(r.positions) == [12, 13, HIGH_ACE]
    assert HIGH_ACE in r.positions
    assert points("R12 J J", r) == 30


@pytest.mark.parametrize(
    ("meld", "kind", "positions", "value"),
    [
        ("R5 R6 J", MeldKind.RUN, (5, 6, 7), 15),  # 4-5-6 ties at 15: higher joker wins
        ("R9 J J", MeldKind.RUN, (9, 10, 11), 25),  # 5+10+10 beats 7-8-9 (15) and 8-9-10 (20)
        ("R1 J J", MeldKind.SET, (1, 1, 1), 75),  # a set of 1s: 25 each
        ("R2 R3 J", MeldKind.RUN, (2, 3, 4), 15),  # 1-2-3 (low 1 = 5) ties; 4 is higher
        ("R12 R13 J", MeldKind.RUN, (12, 13, HIGH_ACE), 30),  # high 1 = 10 beats 11-12-13 (30 tie)
        ("R5 J J J", MeldKind.RUN, (5, 6, 7, 8), 20),  # all 20; jokers highest at 6,7,8
        ("R10 J J", MeldKind.RUN, (10, 11, 12), 30),
    ],
)
def test_rule_2_2_best_reading_is_the_most_opening_points_then_higher_jokers(
    meld: str, kind: MeldKind, positions: tuple[int, ...], value: int
) -> None:
    r = best(meld)
    assert r.kind is kind
    assert r.positions == positions
    assert points(meld, r) == value
    # it really is the maximum over every legal reading
    assert value == max(points(meld, x) for x in read(meld))


def test_rule_2_2_best_reading_respects_a_declaration() -> None:
    """A declared joker is not re-interpreted: `[R12 R13 J(R11)]` stays 11-12-13."""
    assert best("R12 R13 J(R11)").positions == (12, 13, 11)


def test_best_reading_prefers_points_over_joker_height() -> None:
    """A low-joker reading with more points beats a high-joker reading with fewer (§2.2)."""

    def value(kind: MeldKind, position: int) -> int:
        return 100 if position == 3 else 1  # make the 3-4-5 reading worth most

    fs: Sequence[Face] = faces("R4 R5 J")
    r = best_reading(fs, read_meld(fs, MELD_RULES), value)
    assert sorted(r.positions) == [3, 4, 5]


def test_readings_of_a_plain_tile_list_do_not_need_declarations() -> None:
    assert read_meld(parse_faces("Y3 Y4 Y5", TILES), MELD_RULES) == [
        Reading(MeldKind.RUN, 1, (3, 4, 5))
    ]


# --------------------------------------------------------------- wild ranks (RULES §7.1, A-26)

CARDS = Material.CARDS
WILD_TWOS = MeldRules(sets_allowed=True, wild_ranks=frozenset({2}))
"""Every 2 is wild and has no place of its own (A-26 (i)); sets allowed to test them too."""
TWOS_ALSO_NATURAL = MeldRules(sets_allowed=True, wild_ranks=frozenset({2}), wild_rank_natural=True)


def cards(text: str) -> tuple[Face, ...]:
    return parse_faces(text, CARDS)


def test_a_wild_rank_is_wild_and_leaves_the_run_order() -> None:
    assert WILD_TWOS.is_wild(Face.parse("2C")) and WILD_TWOS.always_wild(Face.parse("2C"))
    assert not WILD_TWOS.is_wild(Face.parse("3C"))
    assert TWOS_ALSO_NATURAL.is_wild(Face.parse("2C"))
    assert not TWOS_ALSO_NATURAL.always_wild(Face.parse("2C"))
    assert run_order(WILD_TWOS) == (1, *range(3, 15))
    assert run_order(TWOS_ALSO_NATURAL) == tuple(range(1, 15))
    assert run_order(MELD_RULES) == tuple(range(1, 15))  # tiles: unchanged


def test_with_a_skipped_rank_a_3_4_is_consecutive_and_the_2_stands_for_4() -> None:
    assert {r.positions for r in read_meld(cards("AH 3H 4H"), WILD_TWOS)} == {(1, 3, 4)}
    readings = read_meld(cards("AH 2H 3H"), WILD_TWOS)
    assert [r.positions for r in readings] == [(1, 4, 3)]
    assert readings[0].represents(cards("AH 2H 3H"), 1) == Face.parse("4H")
    assert not read_meld(cards("AH 3H 4H"), TWOS_ALSO_NATURAL)


def test_a_wild_rank_piece_may_also_be_itself_when_allowed() -> None:
    readings = read_meld(cards("AH 2H 3H"), TWOS_ALSO_NATURAL)
    assert (1, 2, 3) in {r.positions for r in readings}
    natural = next(r for r in readings if r.positions == (1, 2, 3))
    assert natural.represents(cards("AH 2H 3H"), 1) == Face.parse("2H")
    # A 2 of another suit is only ever wild in a hearts run.
    assert {r.positions for r in read_meld(cards("AH 2C 3H"), TWOS_ALSO_NATURAL)} == {(1, 2, 3)}
    assert read_meld(cards("AH 2C 3H"), TWOS_ALSO_NATURAL)[0].represents(
        cards("AH 2C 3H"), 1
    ) == Face.parse("2H")


def test_wild_ranks_in_sets_and_the_natural_minimum() -> None:
    assert read_meld(cards("7H 7D 2C"), WILD_TWOS)
    assert not read_meld(cards("2H 2D 2C"), WILD_TWOS)  # no natural card
    assert read_meld(cards("2H 2D 2C"), TWOS_ALSO_NATURAL)  # a set of 2s as themselves
    assert read_meld(cards("JK 2C 5D"), WILD_TWOS)
    assert not read_meld(cards("JK 2C 2D"), WILD_TWOS)


def test_only_wild_pieces_may_be_declared() -> None:
    five_d, four_d, three_d = Face.parse("5D"), Face.parse("4D"), Face.parse("3D")
    faces = cards("JK 2C 5D")
    assert read_meld(faces, WILD_TWOS, (three_d, four_d, None))
    assert not read_meld(faces, WILD_TWOS, (three_d, four_d, five_d))
    assert not read_meld(cards("3D 4D 5D"), MeldRules(), (None, None, five_d))


def test_best_reading_counts_wild_rank_pieces_as_wild() -> None:
    faces = cards("5H 6H 2C")
    readings = read_meld(faces, WILD_TWOS)
    assert {r.positions for r in readings} == {(5, 6, 4), (5, 6, 7)}
    # RULES §2.2: ties go to the higher wild position.
    assert best_reading(faces, readings, lambda kind, p: 0).positions == (5, 6, 7)
