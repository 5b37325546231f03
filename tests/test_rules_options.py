"""Variant options (RULES conventions: `snake_case` options, defaults; §9.15 the remi_ro table)."""

from __future__ import annotations

import dataclasses
import pickle
import re
from pathlib import Path

import pytest

import rummykit.rules.catalogue  # noqa: F401  (registers every variant)
from rummykit.rules.basic import BASIC
from rummykit.rules.cards import RecycleOptions
from rummykit.rules.german2 import GERMAN2
from rummykit.rules.options import (
    OptionError,
    OptionKind,
    OptionSpec,
    VariantOptions,
    deals_match,
    fingerprint,
    option,
    parse_option_value,
    resolve_options,
    target_match,
)
from rummykit.rules.remi_ro import REMI_RO, RemiRoOptions
from rummykit.rules.remmi_de import REMMI_DE, RemmiDeOptions
from rummykit.rules.variant import (
    BoardSettings,
    CallSettings,
    PrePlaySettings,
    Variant,
    all_variants,
)

SPECS = REMI_RO.options
SPEC = {s.name: s for s in SPECS}

# RULES §9.15, row by row: option, default, kind.
N_PLAYERS = object()
RULES_9_15 = [
    ("direction", "counterclockwise", "documented"),
    ("joker_indicator_count", 14, "engine"),
    ("stack_deal_order", "round_robin", "engine"),
    ("doubles_swap_enabled", True, "documented"),
    ("doubles_swap_same_category_only", True, "engine"),
    ("three_doubles_reshuffle", True, "documented"),
    ("atu_bonus", 50, "documented"),
    ("atu_mandatory", False, "documented"),
    ("atu_on_joker_indicator", True, "engine"),
    ("opening_min_points", 45, "documented"),
    ("opening_structure", "run_or_ones_set", "documented"),
    ("column_take_middle_requires_opened", True, "documented"),
    ("column_take_middle_min_rack", 4, "documented"),
    ("column_take_allow_attach", False, "engine"),
    ("attach_on_opening_turn", False, "engine"),
    ("joker_exchange_on_opening_turn", True, "engine"),
    ("rack_max_after_turn", 14, "documented"),
    ("three_tile_penalty", 500, "documented"),
    ("three_tile_penalty_mode", "replace", "documented"),
    ("unopened_penalty", 100, "documented"),
    ("unopened_on_exhaustion", "flat", "engine"),
    ("closing_bonus", 50, "documented"),
    ("closing_with_1_or_joker_multiplier", 2, "documented"),
    ("double_game_multiplier", 2, "documented"),
    ("double_game_applies_to_penalties", True, "engine"),
    ("board_play_enabled", True, "documented"),
    ("board_declare_within_turns", 3, "documented"),
    ("board_closing_bonus", False, "engine"),
    ("mosaic_strict", True, "documented"),
    ("bicolor_definition", "two_single_colour_runs", "engine"),
    ("board_jokers_allowed", True, "engine"),
    ("match_deals", N_PLAYERS, "engine"),
    ("target_score", None, "engine"),
]


# --------------------------------------------------------------- defaults


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_9_15_defaults_resolve_exactly_as_the_table(players: int) -> None:
    """§9.15: every option, and no other, with the table's default."""
    values = resolve_options(SPECS, {}, players)
    assert set(values) == {name for name, _, _ in RULES_9_15}
    for name, default, _ in RULES_9_15:
        expected = players if default is N_PLAYERS else default
        assert values[name] == expected, name
        assert type(values[name]) is type(expected), name


@pytest.mark.parametrize(("name", "kind"), [(n, k) for n, _, k in RULES_9_15])
def test_rule_9_15_option_kinds(name: str, kind: str) -> None:
    """§9.15 'Kind' column: documented variations vs engine-only settings."""
    assert SPEC[name].kind is OptionKind(kind)
    assert SPEC[name].doc


def test_a63_match_deals_default_is_the_player_count() -> None:
    """A-63: one deal per player as maker."""
    assert [resolve_options(SPECS, {}, n)["match_deals"] for n in (2, 3, 4)] == [2, 3, 4]
    assert resolve_options(SPECS, {"match_deals": 7}, 2)["match_deals"] == 7


def test_given_values_override_defaults_and_the_rest_stay() -> None:
    values = resolve_options(SPECS, {"direction": "clockwise", "target_score": 1000}, 4)
    assert values["direction"] == "clockwise"
    assert values["target_score"] == 1000
    assert values["atu_bonus"] == 50


def test_resolved_options_are_read_only() -> None:
    values = resolve_options(SPECS, {}, 4)
    with pytest.raises(TypeError):
        values["atu_bonus"] = 0  # type: ignore[index]


# --------------------------------------------------------------- errors


def test_unknown_option_error_lists_the_allowed_names() -> None:
    """Conventions: nothing is replaced silently; an unknown name lists the known ones."""
    with pytest.raises(OptionError) as info:
        resolve_options(SPECS, {"atu_bonnus": 60, "direction": "clockwise"}, 4)
    message = str(info.value)
    assert "atu_bonnus" in message
    for name in SPEC:
        assert name in message


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("atu_mandatory", "yes", "true | false"),  # bool: strings are not parsed here
        ("atu_mandatory", 1, "true | false"),
        ("atu_mandatory", None, "true | false"),
        ("atu_bonus", -1, "an integer 0..1000"),  # int range
        ("atu_bonus", 1001, "an integer 0..1000"),
        ("atu_bonus", True, "an integer 0..1000"),  # a bool is not an int here
        ("atu_bonus", "50", "an integer 0..1000"),
        ("atu_bonus", None, "an integer 0..1000"),
        ("joker_indicator_count", 0, "an integer 1..15"),
        ("joker_indicator_count", 16, "an integer 1..15"),
        ("direction", "left", '"counterclockwise" | "clockwise"'),  # choices
        ("direction", None, '"counterclockwise" | "clockwise"'),
        (
            "bicolor_definition",
            "two",
            '"two_single_colour_runs" | "complete_run_two_colours" | "runs_of_two_colours"',
        ),
        ("target_score", 0, "an integer 1..1000000 | null"),  # nullable
        ("target_score", "none", "an integer 1..1000000 | null"),
    ],
)
def test_bad_values_name_the_option_and_list_the_allowed_values(
    name: str, value: object, allowed: str
) -> None:
    with pytest.raises(OptionError) as info:
        resolve_options(SPECS, {name: value}, 4)
    message = str(info.value)
    assert name in message
    assert repr(value) in message
    assert message.endswith("use " + allowed)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("target_score", None),
        ("target_score", 1),
        ("atu_bonus", 0),
        ("atu_bonus", 1000),
        ("joker_indicator_count", 15),
        ("direction", "clockwise"),
        ("atu_mandatory", True),
    ],
)
def test_boundary_values_are_allowed(name: str, value: object) -> None:
    assert resolve_options(SPECS, {name: value}, 4)[name] == value


def test_allowed_text_of_an_unbounded_integer() -> None:
    spec = OptionSpec(name="n", default=3, doc="")
    assert spec.allowed() == "an integer"
    assert spec.validate(-7) == -7


def test_allowed_text_of_a_minimum_only_integer_says_it_is_a_minimum() -> None:
    spec = OptionSpec(name="n", default=3, doc="", minimum=1)
    assert spec.validate(500) == 500
    with pytest.raises(OptionError):
        spec.validate(0)
    allowed = spec.allowed()
    assert re.search(r"1 ?\.\.|>= ?1|≥ ?1|at least 1", allowed), allowed


# --------------------------------------------------------------- parse_option_value


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("atu_mandatory", "true", True),
        ("atu_mandatory", "TRUE", True),
        ("atu_mandatory", "yes", True),
        ("atu_mandatory", "on", True),
        ("atu_mandatory", "1", True),
        ("atu_mandatory", "false", False),
        ("atu_mandatory", "no", False),
        ("atu_mandatory", "off", False),
        ("atu_mandatory", " 0 ", False),
        ("atu_bonus", "12", 12),
        ("atu_bonus", " 0", 0),
        ("match_deals", "8", 8),
        ("direction", "clockwise", "clockwise"),
        ("direction", " counterclockwise ", "counterclockwise"),
        ("target_score", "null", None),
        ("target_score", "None", None),
        ("target_score", "2000", 2000),
    ],
)
def test_parse_option_value_reads_command_line_text(name: str, text: str, value: object) -> None:
    got = parse_option_value(SPEC[name], text)
    assert got == value
    assert type(got) is type(value)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("atu_mandatory", "maybe"),
        ("atu_mandatory", "null"),  # not nullable
        ("atu_bonus", "twelve"),
        ("atu_bonus", "12.5"),
        ("atu_bonus", "1001"),  # out of range
        ("atu_bonus", "null"),
        ("direction", "sideways"),
        ("direction", "null"),
        ("target_score", "0"),
    ],
)
def test_parse_option_value_rejects_bad_text_listing_allowed_values(name: str, text: str) -> None:
    with pytest.raises(OptionError) as info:
        parse_option_value(SPEC[name], text)
    message = str(info.value)
    assert name in message
    assert SPEC[name].allowed() in message


# --------------------------------------------------------------- fingerprint


def test_fingerprint_is_stable() -> None:
    a = resolve_options(SPECS, {}, 4)
    b = dict(reversed(list(a.items())))
    fp = fingerprint("remi_ro", a)
    assert re.fullmatch(r"[0-9a-f]{16}", fp)
    assert fingerprint("remi_ro", a) == fp
    assert fingerprint("remi_ro", b) == fp  # key order does not matter
    assert fingerprint("remi_ro", resolve_options(SPECS, {}, 4)) == fp


@pytest.mark.parametrize(
    "change",
    [
        {"direction": "clockwise"},
        {"atu_bonus": 51},
        {"mosaic_strict": False},
        {"target_score": 500},
        {"match_deals": 5},
    ],
)
def test_fingerprint_changes_with_any_option(change: dict[str, object]) -> None:
    base = resolve_options(SPECS, {}, 4)
    changed = resolve_options(SPECS, change, 4)
    assert fingerprint("remi_ro", changed) != fingerprint("remi_ro", base)


def test_fingerprint_depends_on_the_variant_and_the_player_dependent_defaults() -> None:
    base = resolve_options(SPECS, {}, 4)
    assert fingerprint("remmi_de", base) != fingerprint("remi_ro", base)
    # match_deals defaults to the player count, so 3- and 4-player defaults differ
    assert fingerprint("remi_ro", resolve_options(SPECS, {}, 3)) != fingerprint("remi_ro", base)


# ---------------------------------------------------------------- typed options (issue 14)


def test_resolve_parses_once_into_the_variants_typed_object() -> None:
    values = RemiRoOptions.of(REMI_RO.resolve(4, {"direction": "clockwise", "atu_bonus": 60}))
    assert type(values) is RemiRoOptions and values is REMI_RO.resolve(4, values)
    assert values.direction == "clockwise" and values.atu_bonus == 60
    assert (
        values.match_deals == 4 and RemiRoOptions.of(REMI_RO.resolve(2)).match_deals == 2
    )  # per_player
    # It is also the read-only mapping records, views and fingerprints store.
    plain = dict(values)
    assert plain["atu_bonus"] == 60 and values == plain and len(values) == len(SPECS)
    assert list(values) == [s.name for s in SPECS]
    assert hash(values) == hash(REMI_RO.resolve(4, plain))
    assert fingerprint("remi_ro", values) == fingerprint("remi_ro", plain)
    assert pickle.loads(pickle.dumps(values)) == values
    with pytest.raises(dataclasses.FrozenInstanceError):
        values.atu_bonus = 1  # type: ignore[misc]
    with pytest.raises(KeyError):
        values["atu_bonnus"]


@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.name)
def test_every_variant_parses_its_options_into_one_typed_object(variant: Variant) -> None:
    values = variant.resolve(variant.default_players)
    assert isinstance(values, variant.option_type)
    assert [f.name for f in dataclasses.fields(values)] != []
    assert set(values) == {s.name for s in variant.options}
    for spec in variant.options:
        assert getattr(values, spec.name) == spec.default_for(variant.default_players)
    assert variant.option_type.of(dict(values)) == values


def test_of_takes_only_a_complete_mapping_and_never_fills_in() -> None:
    values = REMI_RO.resolve(4)
    partial = {k: v for k, v in values.items() if k != "atu_bonus"}
    with pytest.raises(OptionError, match="missing atu_bonus"):
        RemiRoOptions.of(partial)
    with pytest.raises(OptionError, match="atu_bonus = -1 is not allowed"):
        RemiRoOptions.of({**values, "atu_bonus": -1})
    with pytest.raises(OptionError, match="RemiRoOptions"):
        RemmiDeOptions.of(values)


def test_card_variants_list_their_own_options_before_the_shared_recycling_ones() -> None:
    names = [s.name for s in BASIC.options]
    shared = [s.name for s in RecycleOptions.specs()]
    assert names[-len(shared) :] == shared and names[0] == "match_mode"


def test_a_field_not_declared_with_option_is_refused() -> None:
    @dataclasses.dataclass(frozen=True, kw_only=True, eq=False)
    class Sloppy(VariantOptions):
        fine: bool = option(False, doc="declared")
        bare: int = 3

    with pytest.raises(TypeError, match=r"Sloppy\.bare must be declared with option"):
        Sloppy.specs()


def test_shared_hooks_name_the_options_they_lack() -> None:
    for _ in range(2):  # the second time, from what was decided for the options class
        with pytest.raises(OptionError, match="RemiRoOptions has not the options of a target"):
            target_match(REMI_RO.resolve(4))
        with pytest.raises(OptionError, match="has no match_deals"):
            deals_match(GERMAN2.resolve(2))
        with pytest.raises(OptionError, match="dict has no match_deals"):
            deals_match({"match_deals": 4})  # a mapping, not a variant's options
        assert deals_match(REMI_RO.resolve(4)).match_deals == 4
        assert deals_match(REMI_RO.resolve(4, {"match_deals": 2})).match_deals == 2
        assert target_match(BASIC.resolve(2, {"target_score": 300})).target_score == 300


def test_extension_settings_come_from_the_options() -> None:
    play = REMI_RO.play_rules(REMI_RO.resolve(4, {"atu_mandatory": True, "unopened_penalty": 70}))
    assert play.setting(PrePlaySettings).atu_mandatory
    assert play.setting(BoardSettings).beaten_penalty == 70
    assert play.find_setting(CallSettings) is None
    with pytest.raises(LookupError, match="no CallSettings"):
        play.setting(CallSettings)
    remmi = REMMI_DE.play_rules(REMMI_DE.resolve(4))
    assert not remmi.setting(PrePlaySettings).atu_mandatory
    assert remmi.clockwise and not play.clockwise


def test_no_layer_reads_an_option_by_string_key() -> None:
    """Issue 14 item 2: options are read as typed fields, never ``options["x"]`` or
    ``options.get("x", default)`` (the option declarations in rules/options.py aside)."""
    root = Path(__file__).resolve().parents[1] / "src" / "rummykit"
    pattern = re.compile(r"""\boptions\s*(\.get\(\s*|\[\s*)["']""")
    found = [
        f"{path.relative_to(root)}:{n}: {line.strip()}"
        for path in sorted(root.rglob("*.py"))
        if path.name != "options.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []
