"""The Double Rummy profile (``rummykit.rules.double``, RULES §4): registration, options
(§4.10), values (§4.9), melds (§4.4, A-11, A-13), the deal (§4.2), deal scoring (§4.9),
the match end (A-12) and the turn switches (§4.3-§4.8)."""

from __future__ import annotations

from typing import Any

import pytest

from rummykit.model import MeldKind, read_meld
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.rules import OptionError, OptionKind, find_variant
from rummykit.rules.cards import target_or_deals_over
from rummykit.rules.double import (
    CARDS_PER_PLAYER,
    DOUBLE,
    JOKER_VALUE,
    VALUES,
    deal,
    meld_rules_for,
    score_deal,
)
from rummykit.rules.options import VariantOptions
from rummykit.rules.variant import SeatOutcome, TakeUse

CARDS = Material.CARDS


def hand(text: str) -> tuple[Face, ...]:
    return parse_faces(text, CARDS)


def outcome(rack: str = "", *, closed: bool = False, hand_: bool = False) -> SeatOutcome:
    faces = hand(rack)
    return SeatOutcome(
        rack=faces,
        hand=hand_,
        opened=True,
        board=False,
        three_violation=False,
        atu=False,
        closed=closed,
        table_value=0,
        rack_value=sum(DOUBLE.score_value(f) for f in faces),
    )


def opts(players: int = 4, **given: Any) -> VariantOptions:
    return DOUBLE.resolve(players, given)


# ------------------------------------------------------------------ registration


@pytest.mark.parametrize(
    "name", ["double", "dvostruki", "Dvostruki_Remi", "double-rummy", "DOUBLE"]
)
def test_found_by_name_and_aliases(name: str) -> None:
    """§1 catalogue row 2: engine id ``double`` ("Dvostruki Remi")."""
    assert find_variant(name) is DOUBLE


def test_profile() -> None:
    """§4.1: two 52-card packs and 2 jokers (106 cards), 2-6 players."""
    assert DOUBLE.rules_section == "§4" and DOUBLE.material is CARDS
    assert (DOUBLE.min_players, DOUBLE.max_players, DOUBLE.default_players) == (2, 6, 4)
    pieces = DOUBLE.pieces(opts())
    assert len(pieces) == 106
    assert sum(f.is_joker for f in pieces.faces) == 2
    naturals = [f for f in pieces.faces if not f.is_joker]
    assert len(set(naturals)) == 52 and all(naturals.count(f) == 2 for f in set(naturals))
    for players in (1, 7):
        with pytest.raises(OptionError):
            DOUBLE.resolve(players)


@pytest.mark.parametrize("jokers", [0, 1, 2, 3, 4])
def test_joker_count_changes_the_pack(jokers: int) -> None:
    """§4.10 joker_count: jokers added to the two packs."""
    pieces = DOUBLE.pieces(opts(joker_count=jokers))
    assert len(pieces) == 104 + jokers
    assert sum(f.is_joker for f in pieces.faces) == jokers


# ------------------------------------------------------------------ options §4.10


@pytest.mark.parametrize(
    ("name", "default", "kind"),
    [
        ("joker_count", 2, OptionKind.DOCUMENTED),
        ("set_max_size", 10, OptionKind.DOCUMENTED),
        ("joker_complete_run_relocation", "any_meld_player_choice", OptionKind.DOCUMENTED),
        ("min_naturals_per_meld", 1, OptionKind.ENGINE),
        ("hand_bonus_multiplier", 2, OptionKind.DOCUMENTED),
        ("match_mode", "target", OptionKind.ENGINE),
        ("target_score", 750, OptionKind.ENGINE),
        ("match_deals", 4, OptionKind.ENGINE),
        ("recycle_shuffle", False, OptionKind.DOCUMENTED),
        ("max_stock_recycles", None, OptionKind.ENGINE),
        ("allow_discard_of_taken_discard", False, OptionKind.ENGINE),
    ],
)
def test_option_defaults_follow_section_4_10(name: str, default: object, kind: OptionKind) -> None:
    """§4.10 (and the shared §2.4/§2.5 options): every option, its default and its kind."""
    spec = next(s for s in DOUBLE.options if s.name == name)
    assert spec.kind is kind
    for players in range(2, 7):
        assert opts(players)[name] == default


def test_option_set_is_section_4_10_and_the_shared_ones() -> None:
    assert {s.name for s in DOUBLE.options} == {
        "joker_count",
        "set_max_size",
        "joker_complete_run_relocation",
        "min_naturals_per_meld",
        "hand_bonus_multiplier",
        "match_mode",
        "target_score",
        "match_deals",
        "recycle_shuffle",
        "max_stock_recycles",
        "allow_discard_of_taken_discard",
    }


@pytest.mark.parametrize(
    "given",
    [
        {"joker_count": 5},
        {"joker_count": -1},
        {"set_max_size": 3},
        {"set_max_size": 13},
        {"joker_complete_run_relocation": "hand"},
        {"min_naturals_per_meld": 0},
        {"hand_bonus_multiplier": 0},
        {"match_mode": "points"},
        {"target_score": 0},
        {"allow_go_out_without_discard": False},
        {"jokers_per_deck": 1},
    ],
)
def test_bad_option_values_are_rejected(given: dict[str, Any]) -> None:
    """Unknown options and values outside the allowed ones raise, never fall back."""
    with pytest.raises(OptionError):
        DOUBLE.resolve(4, given)


# ------------------------------------------------------------------ values §4.9


def test_card_values() -> None:
    """§4.9: joker 25, ace 11, K/Q/J 10, 2-10 face value."""
    assert VALUES == {
        1: 11,
        2: 2,
        3: 3,
        4: 4,
        5: 5,
        6: 6,
        7: 7,
        8: 8,
        9: 9,
        10: 10,
        11: 10,
        12: 10,
        13: 10,
    }
    assert JOKER_VALUE == 25
    assert [DOUBLE.score_value(f) for f in hand("JK AS 2H 9D 10C JS QH KD")] == [
        25,
        11,
        2,
        9,
        10,
        10,
        10,
        10,
    ]


def test_opening_values_are_card_values() -> None:
    """§4.6: no opening; the value of a laid card (solvers, bots, undeclared jokers) is its
    §4.9 value, the ace 11 at either end."""
    assert DOUBLE.opening_value(MeldKind.RUN, 1) == 11
    assert DOUBLE.opening_value(MeldKind.RUN, 14) == 11
    assert DOUBLE.opening_value(MeldKind.RUN, 12) == 10
    assert DOUBLE.opening_value(MeldKind.SET, 7) == 7


# ------------------------------------------------------------------ melds §4.4


@pytest.mark.parametrize(
    ("meld", "kind"),
    [
        ("AS 2S 3S", MeldKind.RUN),  # §4.4: the ace is low ...
        ("QS KS AS", MeldKind.RUN),  # ... or high
        ("KD AD 2D", None),  # no wrap-around
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", MeldKind.RUN),  # A..K, 13 cards
        ("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", MeldKind.RUN),  # 2..A, 13 cards
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", None),  # not both ends
        ("7C 7C 7D", MeldKind.SET),  # DBL-03: suits may repeat
        ("7C 7C 7D 7D 7H 7H 7S 7S JK JK", MeldKind.SET),  # DBL-03: 10 cards
        ("7C 7C 7D 7D 7H 7H 7S 7S JK JK JK", None),  # set_max_size = 10
        ("9H JK JK", None),  # DBL-11 reads as a set or as runs: see the next test
        ("JK JK JK", None),  # at least one natural card
        ("7C 7D", None),
        ("5H 6D 7H", None),
    ],
)
def test_meld_rules(meld: str, kind: MeldKind | None) -> None:
    """§4.4, A-11, A-13: runs of 3+ of one suit, the ace at one end only; sets of one
    rank with any suits, up to 10 cards; jokers anywhere with one natural card at least."""
    readings = read_meld(hand(meld), DOUBLE.meld_rules)
    if meld == "9H JK JK":
        assert {r.kind for r in readings} == {MeldKind.SET, MeldKind.RUN}
    elif kind is None:
        assert readings == []
    else:
        assert readings and {r.kind for r in readings} == {kind}


def test_meld_rules_follow_options() -> None:
    """§4.10: set_max_size and min_naturals_per_meld shape the meld rules (A-13)."""
    rules = DOUBLE.meld_rules
    assert rules.ace_low and rules.ace_high and not rules.ace_both_ends
    assert not rules.set_distinct_suits and rules.set_max_size == 10
    assert rules.min_natural == 1 and rules.max_wild is None and not rules.wild_le_natural
    assert DOUBLE.rules_for(opts()) == rules
    strict = meld_rules_for(opts(min_naturals_per_meld=2, set_max_size=6))
    assert strict.min_natural == 2 and strict.set_max_size == 6
    assert read_meld(hand("9H JK JK"), strict) == []
    assert read_meld(hand("9H 9C JK JK"), strict)


# ------------------------------------------------------------------ deal §4.2


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal(players: int) -> None:
    """§4.2: 14 cards one at a time from the dealer's right, one up-card, the rest stock
    (106 − 14·n − 1)."""
    assert CARDS_PER_PLAYER == 14
    pieces = DOUBLE.pieces(opts(players))
    for dealer in range(players):
        layout = deal(pieces, list(range(106)), players, dealer, opts(players))
        first = (dealer + 1) % players
        assert layout.first_seat == first
        for k in range(players):
            assert layout.racks[(first + k) % players] == tuple(range(k, players * 14, players))
        assert layout.discard == (players * 14,)
        assert layout.stock == tuple(range(players * 14 + 1, 106))
        assert len(layout.stock) == {2: 77, 3: 63, 4: 49, 5: 35, 6: 21}[players]


# ------------------------------------------------------------------ scoring §4.9


def test_score_deal_winner_collects_all_hands() -> None:
    """§4.9, DBL-09: the winner scores every opponent's hand; nobody else scores."""
    outcomes = [outcome(closed=True), outcome("JK AS KD 5C"), outcome("AH AD")]
    assert score_deal(outcomes, False, None, opts(3)) == (73, 0, 0)
    outcomes = [outcome("QS"), outcome("2H"), outcome(closed=True)]
    assert score_deal(outcomes, False, None, opts(3)) == (0, 0, 12)


@pytest.mark.parametrize(("multiplier", "expected"), [(2, 146), (1, 73), (3, 219)])
def test_score_deal_hand_multiplier(multiplier: int, expected: int) -> None:
    """§4.7: a Hand multiplies the sum by ``hand_bonus_multiplier`` (default 2)."""
    hands = [outcome("JK AS KD 5C"), outcome("AH AD")]
    options = opts(3, hand_bonus_multiplier=multiplier)
    assert score_deal([outcome(closed=True, hand_=True), *hands], False, None, options) == (
        expected,
        0,
        0,
    )
    assert score_deal([outcome(closed=True), *hands], False, None, options) == (73, 0, 0)


def test_score_deal_without_a_winner_is_zero() -> None:
    """§2.4/A-05: a void deal scores nothing."""
    assert score_deal([outcome("KS"), outcome("JK")], False, None, opts(2)) == (0, 0)


# ------------------------------------------------------------------ match, turn switches


def test_match_over_is_basics_target_or_deals() -> None:
    """§4.9, A-12: Basic's match rules, first to reach 750 or an agreed number of deals."""
    assert DOUBLE.match_over is target_or_deals_over
    assert not DOUBLE.match_over([749, 0, 0], 20, opts(3))
    assert DOUBLE.match_over([0, 750, 0], 1, opts(3))
    assert DOUBLE.match_over([0, 0], 4, opts(2, match_mode="deals"))
    assert not DOUBLE.match_over([0, 0], 3, opts(2, match_mode="deals"))


def test_play_rules_defaults() -> None:
    """§4.3-§4.8: draw each turn (stock or top discard), no opening, lay off without a
    meld of one's own, go out with or without a discard, recycle the pile; jokers on the
    table shift and relocate and are never exchanged into a hand."""
    play = DOUBLE.play_rules(opts())
    assert play.first_turn_draws and play.take_use is TakeUse.NONE
    assert not play.take_any_column_tile and not play.discard_taken_allowed
    assert play.recycle_stock and play.layoff_before_opening and play.go_out_without_discard
    assert play.opening_min_points == 0 and not play.hand_waives_opening
    assert play.joker_shift and play.joker_relocation and not play.joker_exchange
    assert not play.preplay and not play.three_announcement and not play.board_play
    assert play.match_winner == "highest"


def test_play_rules_follow_options() -> None:
    """§4.10: "forbidden" relocation turns the relocation switch off; A-03 as an option."""
    play = DOUBLE.play_rules(
        opts(joker_complete_run_relocation="forbidden", allow_discard_of_taken_discard=True)
    )
    assert play.joker_shift and not play.joker_relocation
    assert play.discard_taken_allowed


def test_citations_stay_within_section_4() -> None:
    """Error messages cite Double Rummy's own sections (or the shared §2)."""
    for rule in DOUBLE.play_rules(opts()).sections.values():
        head = rule.split("/")[0]
        assert head.startswith(("§4", "§2")), rule
