"""Goal dispatch: every built-in objective by name, JSON answers, and variant-supplied goals."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rummykit.model.pieces import Material, parse_faces
from rummykit.rules import find_variant
from rummykit.rules.remi_ro import REMI_RO
from rummykit.solver import BUILTIN_GOALS, goal_names, solve_goal

RO = REMI_RO.resolve(4)
BOARD = REMI_RO.resolve(4, {"board_play_enabled": True})
NO_BOARD = REMI_RO.resolve(4, {"board_play_enabled": False})


def tiles(text: str) -> tuple:  # type: ignore[type-arg]
    return parse_faces(text, Material.TILES)


def test_opening_goal() -> None:
    data = solve_goal("opening", tiles("R10 B10 K10 Y3 Y4 J"), REMI_RO, RO)
    assert data == {
        "melds": [["Y3", "Y4", "J(Y5)"], ["R10", "B10", "K10"]],
        "points": 45,
        "valid_opening": True,
    }
    json.dumps(data)


def test_laydown_goal_has_no_structure_rule() -> None:
    data = solve_goal("laydown", tiles("R10 B10 K10"), REMI_RO, RO)
    assert data == {"melds": [["R10", "B10", "K10"]], "points": 30}


def test_deadwood_goal() -> None:
    data = solve_goal("deadwood", tiles("R1 R2 R3 B7 K7 J Y13"), REMI_RO, RO)
    assert data["deadwood"] == ["Y13"]
    assert data["deadwood_points"] == 10
    assert len(data["melds"]) == 2


def test_contract_goal_needs_board_play() -> None:
    full_red = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
    data = solve_goal("contract", tiles(full_red), REMI_RO, BOARD)
    assert data == {"contract": "monocolour", "value": 1500, "discard": None}
    assert "contract" in goal_names(REMI_RO, BOARD)
    assert "contract" not in goal_names(REMI_RO, NO_BOARD)
    with pytest.raises(ValueError, match="no solver goal 'contract'"):
        solve_goal("contract", tiles(full_red), REMI_RO, NO_BOARD)


def test_unknown_goal_and_keep_misuse() -> None:
    with pytest.raises(ValueError, match="goals: opening, laydown, deadwood"):
        solve_goal("bogus", tiles("R1"), REMI_RO, RO)
    with pytest.raises(ValueError, match="keep"):
        solve_goal("deadwood", tiles("R1"), REMI_RO, RO, keep=1)


def test_variant_goals_are_dispatched() -> None:
    def layouts(faces, options):  # type: ignore[no-untyped-def]
        return {"pieces": len(faces)}

    custom = dataclasses.replace(REMI_RO, solver_goals={"shape": layouts, "opening": layouts})
    assert goal_names(custom, RO)[-1] == "shape"
    assert solve_goal("shape", tiles("R1 R2"), custom, RO) == {"pieces": 2}
    # Built-in goals cannot be replaced by a variant.
    assert "valid_opening" in solve_goal("opening", tiles("R1 R2 R3"), custom, RO)
    assert set(BUILTIN_GOALS) == {"opening", "laydown", "deadwood", "contract", "layout"}


def test_layout_goal_for_continental() -> None:
    """RULES §7.6 through the variant's own layout check (five runs of 3 here)."""
    continental = find_variant("continental")
    options = continental.resolve(continental.default_players)
    assert "layout" in goal_names(continental, options)
    assert "layout" not in goal_names(REMI_RO, RO)
    hand = parse_faces("AH 3H 4H 5S 6S 7S 8D 9D 10D JC QC KC 4D 5D 6D", Material.CARDS)
    data = solve_goal("layout", hand, continental, options)
    assert data["layout"] is True and data["pattern"] == [3, 3, 3, 3, 3]
    missing = solve_goal(
        "layout", hand[:-1] + parse_faces("9H", Material.CARDS), continental, options
    )
    assert missing == {"layout": False, "pattern": None, "melds": [], "deadwood": None}


def test_deadwood_goal_for_continental_answers_the_layout() -> None:
    """Issue 3: for Continental, ``--goal deadwood`` says whether and how the 15 cards
    form one of the three layouts (RULES §7.6); otherwise it shows the least deadwood."""
    continental = find_variant("continental")
    options = continental.resolve(continental.default_players)
    hand = parse_faces("AH 3H 4H 5S 6S 7S 8D 9D 10D JC QC KC 4D 5D 6D", Material.CARDS)
    data = solve_goal("deadwood", hand, continental, options)
    assert data["layout"] is True and data["pattern"] == [3, 3, 3, 3, 3]
    assert data["deadwood"] == [] and len(data["melds"]) == 5
    spoiled = hand[:-1] + parse_faces("9H", Material.CARDS)
    data = solve_goal("deadwood", spoiled, continental, options)
    assert data["layout"] is False and data["pattern"] is None
    assert sorted(data["deadwood"]) == ["4D", "5D", "9H"]


def test_card_variants_answer_every_builtin_goal() -> None:
    basic = find_variant("basic")
    options = basic.resolve(basic.default_players)
    hand = parse_faces("AH 2H 3H 7S 7D 7C KD", Material.CARDS)
    assert solve_goal("deadwood", hand, basic, options)["deadwood"] == ["KD"]
    assert solve_goal("laydown", hand, basic, options)["points"] > 0
