"""The Continental profile (RULES §7): options, packs, meld rules, layouts, settlement."""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.model.candidates import counts_of
from rummykit.model.melds import read_meld
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.rules import OptionError, find_variant
from rummykit.rules.continental import (
    CONTINENTAL,
    PATTERNS,
    _layout,
    _layout_check,
    deal,
    find_layout,
    layout_discards,
    match_over,
    meld_rules_for,
    packs_for,
    payment,
    score_deal,
)
from rummykit.rules.options import VariantOptions
from rummykit.rules.variant import Layout, SeatOutcome

CARDS = Material.CARDS


def opts(players: int = 4, **given: Any) -> VariantOptions:
    return CONTINENTAL.resolve(players, given)


def layout(text: str, **given: Any) -> Layout | None:
    return find_layout(parse_faces(text, CARDS), opts(**given))


def shown(lay: Layout) -> list[str]:
    """Each run as notation, wild cards with what they stand for."""
    out = []
    for c in lay.melds:
        parts = [
            f"{f}({d})" if d is not None else str(f)
            for f, d in zip(c.faces(CARDS), c.declared(CARDS), strict=True)
        ]
        out.append(" ".join(parts))
    return out


def assert_valid(lay: Layout, text: str, **given: Any) -> None:
    """The layout uses exactly the 15 cards, in runs that read under §7.4, in a pattern."""
    rules = meld_rules_for(opts(**given))
    used = sorted(f for c in lay.melds for f in c.faces(CARDS))
    assert used == sorted(parse_faces(text, CARDS))
    assert tuple(sorted(lay.pattern, reverse=True)) in PATTERNS
    for c in lay.melds:
        assert read_meld(c.faces(CARDS), rules, c.declared(CARDS)), c


# ------------------------------------------------------------------ §7.1 components


def test_the_variant_is_registered_with_its_alias() -> None:
    assert find_variant("kontinentalni") is CONTINENTAL
    assert find_variant("Continental") is CONTINENTAL
    assert (CONTINENTAL.min_players, CONTINENTAL.max_players) == (2, 12)


@pytest.mark.parametrize(("players", "packs"), [(2, 2), (5, 2), (6, 3), (9, 3), (10, 4), (12, 4)])
def test_rule_7_1_packs_and_jokers_by_table_size(players: int, packs: int) -> None:
    pieces = CONTINENTAL.pieces(CONTINENTAL.resolve(players))
    assert packs_for(players) == packs
    assert (pieces.copies, pieces.joker_count, len(pieces)) == (packs, packs, 53 * packs)


def test_packs_may_be_raised_but_must_hold_the_deal() -> None:
    assert opts(4, packs=3)["packs"] == 3
    with pytest.raises(OptionError, match="packs = 2 is too few for 12 players"):
        CONTINENTAL.resolve(12, {"packs": 2})
    with pytest.raises(OptionError, match="2 to 12 players"):
        CONTINENTAL.resolve(13)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("deuces_wild", "yes"),
        ("starting_chips", 0),
        ("min_naturals_per_run", 0),
        ("dealer_rotation", "loser_deals"),
        ("packs", 5),
        ("no_such_option", 1),
    ],
)
def test_invalid_options_are_rejected(name: str, value: object) -> None:
    with pytest.raises(OptionError, match=name):
        CONTINENTAL.resolve(4, {name: value})


def test_every_documented_option_of_7_10_exists_with_its_default() -> None:
    values = opts()
    assert {k: values[k] for k in values if k in DEFAULTS} == DEFAULTS


DEFAULTS = {
    "deuces_wild": True,
    "deuce_has_natural_position": False,
    "starting_chips": 20,
    "payment_per_opponent": True,
    "allow_go_out_before_first_draw": True,
    "min_naturals_per_run": 1,
    "cap_payment_at_balance": False,
    "dealer_rotation": "next_player",
}
"""RULES §7.10."""


# ------------------------------------------------------------------ §7.2 dealing


def test_rule_7_2_five_rounds_of_three_from_the_dealers_right() -> None:
    options = opts(3)
    layout_ = deal(list(range(159 - 53)), 3, 2, options)
    assert layout_.first_seat == 0
    # Round 1: seat 0 gets 0-2, seat 1 3-5, seat 2 6-8; round 2 starts at 9.
    assert layout_.racks[0][:6] == (0, 1, 2, 9, 10, 11)
    assert layout_.racks[2][:3] == (6, 7, 8)
    assert [len(r) for r in layout_.racks] == [15, 15, 15]
    assert layout_.discard == (45,)


# ------------------------------------------------------------------ §7.4 melds


@pytest.mark.parametrize(
    ("meld", "valid"),
    [
        ("7H 7D 7S", False),  # CON-03: no sets
        ("AH 3H 4H", True),  # A-26 (i): A-3-4 is the lowest run
        ("AH 2H 3H", True),  # ... and a 2 in it stands for the 4
        ("QH KH AH", True),  # the ace is high or low
        ("KH AH 3H", False),  # ... not both: no wrap
        ("JK 2C 2D", False),  # CON-13 / A-29: a run needs a natural card
        ("JK 2C 5D", True),  # CON-13
        ("5H 6H 7H 8H 9H 10H", True),  # a long run is a run (it is split to fit a layout)
        ("5H 6S 7H", False),
    ],
)
def test_rule_7_4_runs_only_with_wild_deuces(meld: str, valid: bool) -> None:
    assert bool(read_meld(parse_faces(meld, CARDS), CONTINENTAL.meld_rules)) is valid


def test_a26_with_a_natural_place_a_deuce_is_itself_or_wild() -> None:
    rules = meld_rules_for(opts(deuce_has_natural_position=True))

    def read(text: str) -> bool:
        return bool(read_meld(parse_faces(text, CARDS), rules))

    assert read("AH 2H 3H")  # the ordinary A-2-3, the 2 as itself
    assert not read("AH 3H 4H")  # the 2 has its place, so A-3-4 has a gap
    assert read("AH 3H 4H 2C")  # ... which a wild 2 fills
    assert read("2H 4H 5H")  # or the 2 is wild for the 3
    assert not read("AH 2H 4H")  # ... but not both at once


def test_deuces_not_wild_are_ordinary_cards() -> None:
    rules = meld_rules_for(opts(deuces_wild=False))
    assert read_meld(parse_faces("AH 2H 3H", CARDS), rules)
    assert not read_meld(parse_faces("2C 5D 6D", CARDS), rules)
    assert not read_meld(parse_faces("AH 3H 4H", CARDS), rules)


def test_a29_min_naturals_per_run() -> None:
    rules = meld_rules_for(opts(min_naturals_per_run=2))
    assert not read_meld(parse_faces("JK 2C 5D", CARDS), rules)
    assert read_meld(parse_faces("JK 4D 5D", CARDS), rules)


# ------------------------------------------------------------------ §7.6 layouts


@pytest.mark.parametrize(
    ("hand", "pattern"),
    [
        ("3H 4H 5H 6S 7S 8S 9C 10C JC QD KD AD 5C 6C 7C", (3, 3, 3, 3, 3)),
        ("7H 8H 9H 10H 7D 8D 9D 10D 7S 8S 9S 10S 7C 8C 9C", (4, 4, 4, 3)),
        ("6S 7S 8S 9S 10S JD QD KD AD AH 3H 4H 5S 2C JK", (5, 4, 3, 3)),
    ],
)
def test_rule_7_6_the_three_patterns(hand: str, pattern: tuple[int, ...]) -> None:
    lay = layout(hand)
    assert lay is not None and lay.pattern == pattern
    assert_valid(lay, hand)


def test_rule_7_6_a_six_card_run_is_split_in_two_threes() -> None:
    hand = "4S 5S 6S 7S 8S 9S 3H 4H 5H 9D 10D JD QC KC AC"
    lay = layout(hand)
    assert lay is not None and lay.pattern == (3, 3, 3, 3, 3)
    assert {"4S 5S 6S", "7S 8S 9S"} <= set(shown(lay))
    assert_valid(lay, hand)


def test_rule_7_6_an_eleven_card_run_is_split_to_fit() -> None:
    hand = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 3S 4S 5S 6S"
    lay = layout(hand)
    assert lay is not None
    assert_valid(lay, hand)


def test_rule_7_6_two_runs_of_one_suit_and_duplicate_cards() -> None:
    hand = "5H 6H 7H 5H 6H 7H 9S 10S JS QS 9D 10D JD QD KD"
    lay = layout(hand)
    assert lay is not None and lay.pattern == (5, 4, 3, 3)
    assert shown(lay).count("5H 6H 7H") == 2
    assert_valid(lay, hand)


@pytest.mark.parametrize(
    "hand",
    [
        "3H 4H 5H 6S 7S 8S 9C 10C JC QD KD AD 5C 6C 8C",  # 5C 6C: no wild card for 7C
        "7H 7D 7S 7C 8H 8D 8S 8C 9H 9D 9S 9C 10H 10D 7H",  # the second 7H has no run
        "KH AH 3H 6S 7S 8S 9C 10C JC QD KD AD 5C 6C 7C",  # K-A-3 wraps
        "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 3S 4S 9S",  # 9S has no run
    ],
)
def test_rule_7_6_hands_that_form_no_layout(hand: str) -> None:
    assert layout(hand) is None


def test_rule_7_6_a_layout_is_exactly_15_cards() -> None:
    sixteen = parse_faces("3H 4H 5H 6S 7S 8S 9C 10C JC QD KD AD 5C 6C 7C 8C", CARDS)
    assert find_layout(sixteen, opts()) is None
    assert find_layout(sixteen[:14], opts()) is None
    assert find_layout(sixteen[:15], opts()) is not None


def test_rule_7_6_wild_cards_fill_gaps_and_ends() -> None:
    hand = "AH 3H 2C 6S 7S 8S 9C JK JC QD KD AD 5C 6C 7C"
    lay = layout(hand)
    assert lay is not None
    assert_valid(lay, hand)
    assert layout(hand.replace("JK", "4D")) is None  # one wild card short


def test_a26_the_default_order_skips_the_two() -> None:
    hand = "AH 3H 4H 6S 7S 8S 9C 10C JC QD KD AD 5C 6C 7C"
    assert layout(hand) is not None  # A-3-4 is a run
    assert layout(hand, deuce_has_natural_position=True) is None  # A-2-3 order: a gap


def test_a26_option_ii_lets_a_two_be_itself_in_a_layout() -> None:
    hand = "AH 2H 3H 4S 5S 6S 7S 8S 9S JD QD KD 5C 6C 7C"
    by_default = layout(hand)
    assert by_default is not None and "AH 3H 2H(4H)" in shown(by_default)
    natural = layout(hand, deuce_has_natural_position=True)
    assert natural is not None and "AH 2H 3H" in shown(natural)
    assert_valid(natural, hand, deuce_has_natural_position=True)


def test_a29_every_run_has_a_natural_card() -> None:
    hand = "JK JK 2C 2D 3H 4H 5H 6S 7S 8S 9D 10D JD QD KD"
    lay = layout(hand)
    assert lay is not None
    assert_valid(lay, hand)
    assert layout(hand, min_naturals_per_run=3) is None


ORDER = (1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)


@st.composite
def near_layouts(draw: st.DrawFn) -> list[Face]:
    """Runs in a random pattern, some cards turned wild, then maybe one card changed."""
    pattern = draw(st.sampled_from(PATTERNS))
    hand: list[Face] = []
    for size in pattern:
        suit = draw(st.integers(0, 3))
        start = draw(st.integers(0, len(ORDER) - size))
        for p in ORDER[start : start + size]:
            hand.append(Face.of(CARDS, suit, 1 if p == 14 else p))
    for i in draw(st.lists(st.integers(0, 14), max_size=4)):
        wild = draw(st.sampled_from(["JK", "2S", "2H", "2D", "2C"]))
        hand[i] = Face.parse(wild, CARDS)
    if draw(st.booleans()):
        hand[draw(st.integers(0, 14))] = Face.of(
            CARDS, draw(st.integers(0, 3)), draw(st.integers(1, 13))
        )
    return hand


@settings(max_examples=50, deadline=None, derandomize=True)
@given(near_layouts())
def test_find_layout_agrees_with_an_exhaustive_check(hand: list[Face]) -> None:
    """Property: a found layout is valid; none is missed (brute force over the runs)."""
    lay = find_layout(hand, opts())
    if lay is not None:
        assert_valid(lay, " ".join(map(str, hand)))
    assert (lay is not None) is _brute_force(hand)


def _brute_force(hand: list[Face]) -> bool:
    """Whether ``hand`` splits into runs of 3-5 in a pattern, trying every subset."""
    rules = CONTINENTAL.meld_rules

    def split(cards: list[Face], sizes: tuple[int, ...]) -> bool:
        if not sizes:
            return not cards
        first, rest_sizes = sizes[0], sizes[1:]
        anchor = cards[0]
        others = cards[1:]
        for chosen in combinations(range(len(others)), first - 1):
            group = [anchor, *(others[i] for i in chosen)]
            if read_meld(group, rules):
                left = [c for i, c in enumerate(others) if i not in chosen]
                if split(left, rest_sizes):
                    return True
        return False

    return any(split(hand, sizes) for p in PATTERNS for sizes in set(permutations(p)))


OPTION_SETS: tuple[dict[str, object], ...] = (
    {},
    {"deuces_wild": False},
    {"deuce_has_natural_position": True},
    {"min_naturals_per_run": 2},
    {"min_naturals_per_run": 3},
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(near_layouts(), st.sampled_from(OPTION_SETS))
def test_the_wild_card_count_never_refutes_a_layout(
    hand: list[Face], given_options: dict[str, Any]
) -> None:
    """Property: find_layout's quick refutation (too few wild cards for the suits' runs)
    only refutes hands the full search finds no layout in; the answer is the same."""
    options = opts(**given_options)
    rules = meld_rules_for(options)
    kinds = [f.kind for f in hand]
    full = _layout(counts_of(kinds), rules)
    if _layout_check(options).too_few_wild(hand):
        assert full is None
    assert find_layout(hand, options) == full


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    near_layouts(),
    st.sampled_from(OPTION_SETS),
    st.sampled_from(["JK", "2S", "KH", "7D", "AC", "5H"]),
)
def test_layout_discards_answer_find_layout_for_every_card(
    hand: list[Face], given_options: dict[str, Any], extra: str
) -> None:
    """Property (§7.6): the cards whose discard leaves a layout, found in one pass over
    a 16-card hand, are exactly those find_layout accepts the other 15 of."""
    options = opts(**given_options)
    hand = [*hand, Face.parse(extra, CARDS)]
    expected = set()
    for face in set(hand):
        rest = hand[:]
        rest.remove(face)
        if find_layout(rest, options) is not None:
            expected.add(face)
    assert layout_discards(hand, options) == expected
    assert layout_discards(hand[:-1], options) == frozenset()  # not one card over


RUNS_AND_THREE = "3H 4H 5H 6S 7S 8S 9D 10D JD QC KC AC 5H 6H"


@pytest.mark.parametrize(
    ("last", "given_options", "refuted"),
    [
        ("8H", {}, True),  # 5H 6H 8H needs a wild card for its 7H: there is none
        ("JK", {}, False),  # the joker is that 7H
        ("2C", {}, False),  # §7.1: so is any 2
        ("2C", {"deuces_wild": False}, True),  # an ordinary 2 of clubs, in no run
        ("2C", {"deuce_has_natural_position": True}, False),  # A-26 (ii): never refuted
    ],
)
def test_the_refutation_counts_the_wild_cards(
    last: str, given_options: dict[str, Any], refuted: bool
) -> None:
    hand = parse_faces(f"{RUNS_AND_THREE} {last}", CARDS)
    options = opts(**given_options)
    assert _layout_check(options).too_few_wild(hand) is refuted
    assert (find_layout(hand, options) is None) is refuted


# ------------------------------------------------------------------ §7.8 settlement


def outcome(laid: str = "", **kw: object) -> SeatOutcome:
    base: dict[str, object] = {
        "opened": False,
        "board": False,
        "three_violation": False,
        "atu": False,
        "closed": False,
        "table_value": 0,
        "rack_value": 0,
        "balance": 20,
    }
    base.update(kw)
    return SeatOutcome(laid=parse_faces(laid, CARDS), **base)  # type: ignore[arg-type]


NATURAL_15 = "3H 4H 5H 6S 7S 8S 9C 10C JC QD KD AD 5C 6C 7C"


@pytest.mark.parametrize(
    ("laid", "flags", "each"),
    [
        (NATURAL_15, {}, 11),  # items 1 + 4
        (NATURAL_15.replace("7C", "2D"), {}, 2),  # items 1 + 2
        (NATURAL_15.replace("7C", "JK"), {}, 3),  # items 1 + 3
        (NATURAL_15.replace("7C", "JK").replace("3H", "2D"), {}, 4),  # CON-07
        (NATURAL_15, {"first_turn": True}, 18),  # CON-09: 1 + 10 + 7
        (NATURAL_15, {"first_turn": True, "before_draw": True}, 21),  # 1 + 10 + 10
        (NATURAL_15.replace("7C", "2D"), {"first_turn": True, "before_draw": True}, 12),
    ],
)
def test_rule_7_8_payment_per_opponent(laid: str, flags: dict[str, bool], each: int) -> None:
    assert payment(outcome(laid, closed=True, **flags), opts()) == (each, 0)


def test_a27_premiums_once_in_total() -> None:
    laid = NATURAL_15.replace("7C", "JK").replace("3H", "2D")
    assert payment(outcome(laid, closed=True), opts(payment_per_opponent=False)) == (1, 3)
    scores = score_deal(
        [outcome(laid, closed=True), outcome(), outcome()],
        False,
        None,
        opts(3, payment_per_opponent=False),
    )
    assert scores == (1 + 1 + 3, -1, -1)


def test_deuces_not_wild_earn_no_premium() -> None:
    laid = "AH 2H 3H 6S 7S 8S 9C 10C JC QD KD AD 5C 6C 7C"
    assert payment(outcome(laid, closed=True), opts(deuces_wild=False)) == (11, 0)


def test_a30_payments_capped_at_the_balance() -> None:
    seats = [outcome(NATURAL_15, closed=True), outcome(balance=5), outcome(balance=-3)]
    assert score_deal(seats, False, None, opts(3)) == (22, -11, -11)
    capped = score_deal(seats, False, None, opts(3, cap_payment_at_balance=True))
    assert capped == (5, -5, 0)


def test_a_void_deal_settles_nothing() -> None:
    assert score_deal([outcome(), outcome()], False, None, opts(2)) == (0, 0)


def test_rule_7_9_the_match_ends_when_someone_has_no_chips() -> None:
    assert not match_over([20, 1, 30], 5, opts(3))
    assert match_over([20, 0, 30], 5, opts(3))
    assert match_over([20, -6, 30], 5, opts(3))
    assert match_over([20, 5, 30], 2, opts(3, match_deals=2))
