"""The variant registry (RULES §1 catalogue) and the remi_ro profile's player count (§9.1)."""

from __future__ import annotations

import pickle
from dataclasses import replace

import pytest

from rummykit.model.melds import MeldKind
from rummykit.model.pieces import Face, Material
from rummykit.rules.options import OptionError
from rummykit.rules.remi_ro import MELD_RULES, REMI_RO, TILES_106
from rummykit.rules.variant import (
    PieceNotInPackError,
    UnknownVariantError,
    Variant,
    all_variants,
    find_variant,
    register,
)


@pytest.mark.parametrize(
    "name",
    [
        "remi_ro",
        "remi",
        "rummy45",
        "remi-etalat",
        "remi_etalat",
        "REMI_RO",
        "Remi",
        "RUMMY45",
        "Remi-Etalat",
        "remi-ro",
        "  remi_ro  ",
    ],
)
def test_rule_1_remi_ro_is_found_by_name_and_aliases_case_insensitively(name: str) -> None:
    """§1 catalogue row 7: engine id `remi_ro`, also known as Remi / Remy / Rummy 45."""
    assert find_variant(name) is REMI_RO


@pytest.mark.parametrize("name", ["poker", "", "remi ro", "remiro", "remmi_de_x"])
def test_unknown_variant_error_lists_the_known_variants(name: str) -> None:
    with pytest.raises(UnknownVariantError) as info:
        find_variant(name)
    message = str(info.value)
    assert repr(name) in message
    for variant in all_variants():
        assert variant.name in message
    assert isinstance(info.value, ValueError)


def test_all_variants_lists_registered_variants_by_name() -> None:
    variants = all_variants()
    names = [v.name for v in variants]
    assert "remi_ro" in names
    assert names == sorted(names)
    assert len(set(names)) == len(names)
    for v in variants:
        assert find_variant(v.name) is v
        for alias in v.aliases:
            assert find_variant(alias) is v


def test_rule_9_1_remi_ro_profile() -> None:
    """§1/§9.1: 106 tiles, 2-4 players, first player 15 tiles; §9.7 formation rules."""
    v = REMI_RO
    assert v.name == "remi_ro"
    assert v.rules_section == "§9"
    assert v.material is Material.TILES
    assert (v.min_players, v.max_players) == (2, 4)
    assert v.min_players <= v.default_players <= v.max_players
    assert v.meld_rules is MELD_RULES
    assert v.pieces(v.resolve(4)) is TILES_106
    assert len(v.pieces(v.resolve(2))) == 106


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_9_1_two_to_four_players_are_accepted(players: int) -> None:
    options = REMI_RO.resolve(players)
    assert options["match_deals"] == players


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_rule_9_1_other_player_counts_are_rejected(players: int) -> None:
    """§9.1: 2, 3 or 4 players."""
    with pytest.raises(OptionError) as info:
        REMI_RO.resolve(players)
    message = str(info.value)
    assert "2 to 4" in message
    assert str(players) in message


def test_resolve_validates_options_too() -> None:
    with pytest.raises(OptionError, match="unknown option"):
        REMI_RO.resolve(4, {"no_such_option": 1})
    assert REMI_RO.resolve(4, {"direction": "clockwise"})["direction"] == "clockwise"


def test_shuffled_order_is_a_permutation_drawn_from_the_given_rng() -> None:
    import random

    a = REMI_RO.shuffled_order(TILES_106, random.Random(7))
    b = REMI_RO.shuffled_order(TILES_106, random.Random(7))
    c = REMI_RO.shuffled_order(TILES_106, random.Random(8))
    assert a == b
    assert a != c
    assert sorted(a) == list(range(106))


def test_an_alias_cannot_be_registered_twice_for_another_variant() -> None:
    """The registry never lets a second variant take an existing name silently."""
    clash: Variant = replace(REMI_RO, name="clash_variant_one", aliases=("remi",))
    with pytest.raises(ValueError, match="remi"):
        register(clash)
    assert find_variant("remi") is REMI_RO
    assert "clash_variant_one" not in [v.name for v in all_variants()]


def test_a_failed_registration_leaves_no_trace() -> None:
    clash: Variant = replace(REMI_RO, name="clash_variant_two", aliases=("rummy45",))
    with pytest.raises(ValueError, match="rummy45"):
        register(clash)
    with pytest.raises(UnknownVariantError):
        find_variant("clash_variant_two")


def test_value_functions_follow_options_only_where_a_variant_says_so() -> None:
    """``opening_values``/``score_values`` fall back to the profile's own functions; a
    variant whose options change the values (remmi_de §10.11) supplies them per options."""
    options = REMI_RO.resolve(4)
    assert REMI_RO.opening_values(options) is REMI_RO.opening_value
    assert REMI_RO.score_values(options) is REMI_RO.score_value
    remmi = find_variant("remmi_de")
    custom = remmi.resolve(4, {"one_value_set": 25, "joker_rack_penalty": 30})
    joker = TILES_106.faces[-1]
    assert joker.is_joker
    assert remmi.score_values(custom)(joker) == 30
    assert remmi.score_values(remmi.resolve(4))(joker) == 50
    assert remmi.opening_values(custom)(MeldKind.SET, 1) == 25


# ------------------------------------------------------------------ the pack (issue 12 item 12)


def _faces(variant: str, text: str) -> list[Face]:
    material = find_variant(variant).material
    return [Face.parse(t, material) for t in text.split()]


@pytest.mark.parametrize(("variant", "rule"), [("basic", "§3.1"), ("german2", "§5.1")])
def test_a_game_without_jokers_refuses_a_joker(variant: str, rule: str) -> None:
    """RULES §3.1, §5.1: Basic Rummy and German Rummy for two have no jokers."""
    v = find_variant(variant)
    with pytest.raises(PieceNotInPackError) as info:
        v.check_pieces(_faces(variant, "5H 6H JK"))
    message = str(info.value)
    assert "JK" in message
    assert f"RULES {rule}" in message
    assert "no jokers" in message
    assert (info.value.piece, info.value.rule) == ("JK", rule)
    assert isinstance(info.value, ValueError)
    # It crosses a process boundary intact (simulations and tournaments run in pools).
    back = pickle.loads(pickle.dumps(info.value))
    assert (str(back), back.piece, back.rule) == (message, "JK", rule)
    v.check_pieces(_faces(variant, "5H 6H 7H"))


def test_romme_jokers_follow_the_jokers_per_deck_option() -> None:
    """RULES §8.1/A-34: 0 to 3 jokers per pack, two packs."""
    romme = find_variant("romme")
    romme.check_pieces(_faces("romme", "5H 6H JK"))  # default: 3 per deck
    romme.check_pieces(_faces("romme", "JK " * 6 + "5H"))
    with pytest.raises(PieceNotInPackError, match=r"JK .*7 times.*holds 6.*§8\.1"):
        romme.check_pieces(_faces("romme", "JK " * 7))
    none = romme.resolve(2, {"jokers_per_deck": 0})
    with pytest.raises(PieceNotInPackError, match=r"no jokers.*§8\.1"):
        romme.check_pieces(_faces("romme", "5H 6H JK"), none)


@pytest.mark.parametrize(
    ("variant", "pieces", "piece", "rule"),
    [
        ("basic", "5H 5H 5S", "5H", "§3.1"),  # one pack: one 5H
        ("double", "5H 5H 5H", "5H", "§4.1"),  # two packs
        ("remi_ro", "J J J R5", "J", "§9.1"),  # 106 tiles, 2 jokers
        ("remmi_de", "R5 R5 R5", "R5", "§10.1"),
    ],
)
def test_more_copies_than_the_pack_holds_are_refused(
    variant: str, pieces: str, piece: str, rule: str
) -> None:
    with pytest.raises(PieceNotInPackError) as info:
        find_variant(variant).check_pieces(_faces(variant, pieces))
    assert (info.value.piece, info.value.rule) == (piece, rule)
    assert "times" in str(info.value)


def test_continental_has_one_joker_per_pack() -> None:
    """RULES §7.1: packs by table size, one joker each."""
    continental = find_variant("continental")
    two_packs = continental.resolve(4)
    continental.check_pieces(_faces("continental", "JK JK"), two_packs)
    with pytest.raises(PieceNotInPackError, match=r"§7\.1"):
        continental.check_pieces(_faces("continental", "JK JK JK"), two_packs)
    continental.check_pieces(_faces("continental", "JK JK JK"), continental.resolve(8))


def test_pieces_of_the_other_material_are_refused() -> None:
    tile = Face.parse("R5", Material.TILES)
    with pytest.raises(PieceNotInPackError, match=r"basic is played with cards.*§3\.1"):
        find_variant("basic").check_pieces([tile])
