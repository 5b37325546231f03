"""check_meld: one formation of a variant, its kind, opening points and the reason it fails.

Verdicts follow RULES §9.8 (formations, RRT-07) and §9.9 (opening points).
"""

from __future__ import annotations

import dataclasses

import pytest

from rummykit.engine.actions import parse_piece_token
from rummykit.model.pieces import Face, Material
from rummykit.rules.meldcheck import MeldVerdict, check_meld
from rummykit.rules.options import VariantOptions, option
from rummykit.rules.variant import Variant, find_variant

REMI = find_variant("remi_ro")


def verdict(text: str, variant: Variant = REMI) -> MeldVerdict:
    """check_meld on notation such as ``"R12 R13 J(R1)"`` (declared jokers allowed)."""
    tokens = [parse_piece_token(t, Material.TILES) for t in text.split()]
    return check_meld(variant, [f for f, _ in tokens], [d for _, d in tokens])


# --------------------------------------------------------------------- valid formations


@pytest.mark.parametrize(
    ("text", "kind", "points"),
    [
        # RRT-07
        ("R12 R13 R1", "run", 30),
        ("R1 R2 R3", "run", 15),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "run", 95),
        ("B7 R7 Y7", "set", 15),
        ("R5 J J", "run", 15),
        # opening values (§9.9): 2-9 → 5, 10-13 → 10, low 1 → 5, high 1 → 10, 1 in a set → 25
        ("R9 R10 R11 R12 R13", "run", 45),
        ("R1 B1 K1", "set", 75),
        ("R1 B1 Y1 K1", "set", 100),
        ("R5 B5 Y5 K5", "set", 20),
        ("R10 B10 K10", "set", 30),
        ("Y3 Y4 Y5", "run", 15),
        ("K11 K12 K13 K1", "run", 40),
        # jokers count as the piece they stand for
        ("K11 J(K12) K13 K1", "run", 40),
        ("R12 R13 J(R1)", "run", 30),
        ("J(R2) R3 R4", "run", 15),
        ("R7 B7 J(Y7)", "set", 15),
        ("R5 R6 R7 R8 J", "run", 25),
        # any number of jokers, one natural is enough
        ("J J J R5", "run", 20),
    ],
)
def test_valid_formations(text: str, kind: str, points: int) -> None:
    v = verdict(text)
    assert v == MeldVerdict(True, kind, points, None)


@pytest.mark.parametrize(
    ("text", "kind", "points"),
    [
        # R1 J J: a set of 1s (75) beats the runs 1-2-3 (15) and 12-13-1 (30)
        ("R1 J J", "set", 75),
        ("J R1 B1", "set", 75),
        # R13 J J: 11-12-13 or 12-13-1 are both 30; the run wins over a set of 13s (30)
        ("R13 J J", "run", 30),
    ],
)
def test_bare_jokers_take_the_reading_worth_most(text: str, kind: str, points: int) -> None:
    v = verdict(text)
    assert (v.valid, v.kind, v.opening_points) == (True, kind, points)


def test_without_declared_list_bare_faces_are_read() -> None:
    faces = [Face.parse("R5"), Face.parse("R6"), Face.parse("R7")]
    assert (
        check_meld(REMI, faces)
        == check_meld(REMI, faces, None)
        == MeldVerdict(True, "run", 15, None)
    )


def test_piece_order_does_not_matter_for_sets_and_declared_runs() -> None:
    assert verdict("R7 Y7 B7") == verdict("B7 R7 Y7")
    assert verdict("J(R7) R5 R6").valid
    assert verdict("J(R7) R5 R6").opening_points == 15


# --------------------------------------------------------------------- invalid, with reasons


@pytest.mark.parametrize(
    ("text", "reason_part"),
    [
        # RRT-07: K-A-2 never wraps; a 1 sits only at an end
        ("R13 R1 R2", "not consecutive"),
        ("R12 R13 R1 R2", "not consecutive"),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 R2", "not consecutive"),
        ("R2 R3 R4 R6", "not consecutive"),
        ("R5 R6 J(R9)", "not consecutive"),
        # RRT-07: a set repeats no colour
        ("B7 B7 R7", "different suits/colours"),
        ("R7 B7 J(R7)", "different suits/colours"),
        # sizes
        ("R5 R6", "at least 3 pieces"),
        ("R1 J", "at least 3 pieces"),
        ("R5 B5 Y5 K5 J", "at most 4 pieces"),
        ("R5 B5 Y5 K5 R5", "at most 4 pieces"),
        # naturals
        ("J J J", "at least 1 natural"),
        # neither kind
        ("R5 B6 Y7", "not a set (ranks differ) and not a run (suits/colours differ)"),
    ],
)
def test_invalid_formations_name_the_reason(text: str, reason_part: str) -> None:
    v = verdict(text)
    assert not v.valid
    assert v.kind is None
    assert v.opening_points is None
    assert v.reason is not None
    assert reason_part in v.reason


def test_wrong_material_is_refused() -> None:
    cards = [Face.parse("AS"), Face.parse("KS"), Face.parse("QS")]
    v = check_meld(REMI, cards)
    assert not v.valid
    assert v.reason == "remi_ro is played with tiles"


def test_empty_input_is_too_short() -> None:
    v = check_meld(REMI, [])
    assert not v.valid
    assert v.reason is not None
    assert "at least 3" in v.reason


@dataclasses.dataclass(frozen=True, kw_only=True, eq=False)
class _NoThreshold(VariantOptions):
    """Options of a variant with no opening threshold."""

    direction: str = option("counterclockwise", doc="the direction of play")


def test_variant_without_opening_threshold_reports_no_points() -> None:
    plain = dataclasses.replace(REMI, option_type=_NoThreshold)
    v = verdict("R12 R13 R1", plain)
    assert v == MeldVerdict(True, "run", None, None)


def test_verdict_json_document() -> None:
    assert verdict("R12 R13 R1").to_json() == {
        "valid": True,
        "kind": "run",
        "opening_points": 30,
        "reason": None,
    }
    bad = verdict("R13 R1 R2").to_json()
    assert set(bad) == {"valid", "kind", "opening_points", "reason"}
    assert bad["valid"] is False
    assert bad["kind"] is None
    assert isinstance(bad["reason"], str)
    assert bad["reason"]


def test_options_apply_a_variations_meld_rules_and_opening_values() -> None:
    """RULES §10.4/§10.5 variations: a remmi_de formation is judged under the options
    in force (at most one joker per formation; a 1 worth 20 at the top of a Laufend)."""
    remmi = find_variant("remmi_de")
    faces = [Face.parse(t, Material.TILES) for t in ["R5", "J", "J", "R8"]]
    assert check_meld(remmi, faces).valid
    one_joker = remmi.resolve(4, {"max_jokers_rule": "one_joker"})
    refused = check_meld(remmi, faces, options=one_joker)
    assert not refused.valid and refused.reason == "at most 1 joker(s) per formation"
    top = [Face.parse(t, Material.TILES) for t in ["R12", "R13", "R1"]]
    assert check_meld(remmi, top).opening_points == 12 + 13 + 14
    high = remmi.resolve(4, {"one_value_high": 20})
    assert check_meld(remmi, top, options=high).opening_points == 12 + 13 + 20
