"""The least-deadwood solver (RULES §6.6 / A-24) against hand-built answers and an ILP."""

from __future__ import annotations

import pytest

from ilp_support import Family, families, ilp_best, sample_racks
from rummykit.model.candidates import counts_of
from rummykit.model.melds import MeldRules
from rummykit.model.pieces import JOKER_KIND, Face, Material, parse_faces
from rummykit.rules import find_variant
from rummykit.rules.remi_ro import REMI_RO
from rummykit.solver import Deadwood, least_deadwood
from rummykit.solver.deadwood import kind_points

FAMILIES = families()


def tiles(text: str) -> tuple[Face, ...]:
    return parse_faces(text, Material.TILES)


def test_remi_ro_hand() -> None:
    # RULES §9.12 values: joker 50, 1 -> 25, 10-13 -> 10, 2-9 -> 5.
    found = least_deadwood(tiles("R1 R2 R3 B7 K7 J Y13"), REMI_RO)
    assert isinstance(found, Deadwood)
    assert found.points == 10
    assert found.deadwood == tiles("Y13")
    assert sorted(len(m.kinds) for m in found.melds) == [3, 3]


def test_two_jokers_save_the_most_value() -> None:
    # Each joker alone is worth 50: melding both with one natural beats leaving them.
    found = least_deadwood(tiles("R9 J J"), REMI_RO)
    assert (found.points, found.deadwood) == (0, ())


def test_options_select_the_meld_rules() -> None:
    romme = find_variant("romme")
    options = romme.resolve(romme.default_players)
    hand = parse_faces("5H JK JK", Material.CARDS)
    # §8.4/A-38: two naturals per figure, so 5H JK JK melds nothing under the defaults.
    assert least_deadwood(hand, romme, options).melds == ()
    loose = MeldRules(min_natural=1)
    assert least_deadwood(hand, romme, rules=loose).points == 0


@pytest.mark.heavy
@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_matches_integer_program(family: Family) -> None:
    """Least deadwood on 1,000 seeded hands per registered rule family."""
    variant = find_variant(family.name)
    mismatches = []
    values = {f.kind: family.score_value(f) for f in family.faces}
    for hand in sample_racks(family, 1000, seed=21):
        counts = counts_of([f.kind for f in hand])
        total = sum(values[f.kind] for f in hand)
        melded = ilp_best(
            counts, family.rules, family.material, lambda t: sum(values[k] for k in t.kinds)
        )
        got = least_deadwood(hand, variant, rules=family.rules)
        if got.points != total - melded:
            mismatches.append((" ".join(map(str, hand)), got.points, total - melded))
    assert mismatches == []


def test_kind_points_are_the_variants_score_values_built_once() -> None:
    romme = find_variant("romme")
    points = kind_points(romme)
    assert len(points) == JOKER_KIND + 1
    assert points[JOKER_KIND] == 30 and points[Face.parse("AS").kind] == 11
    assert points[Face.parse("7H").kind] == 7 and points[Face.parse("QD").kind] == 10
    assert kind_points(romme) is points
    assert kind_points(find_variant("remi_ro")) is not points
