"""The Basic Rummy profile (``rummykit.rules.basic``, RULES §3): registration, options
(§3.9), values (§3.8), melds (§3.4, BAS-03), the deal (§3.2), deal scoring (§3.8),
the match end and the turn switches (§3.3-§3.7)."""

from __future__ import annotations

from typing import Any

import pytest

from rummykit.model import MeldKind, read_meld
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.rules import OptionError, OptionKind, find_variant
from rummykit.rules.basic import BASIC, CARDS_PER_PLAYER, VALUES, deal, score_deal
from rummykit.rules.cards import target_or_deals_over
from rummykit.rules.options import VariantOptions
from rummykit.rules.variant import SeatOutcome, TakeUse

CARDS = Material.CARDS


def hand(text: str) -> tuple[Face, ...]:
    return parse_faces(text, CARDS)


def outcome(
    rack: str = "", *, closed: bool = False, hand_: bool = False, opened: bool = True
) -> SeatOutcome:
    faces = hand(rack)
    return SeatOutcome(
        rack=faces,
        hand=hand_,
        opened=opened,
        board=False,
        three_violation=False,
        atu=False,
        closed=closed,
        table_value=0,
        rack_value=sum(VALUES[f.rank] for f in faces),
    )


def opts(players: int = 4, **given: Any) -> VariantOptions:
    return BASIC.resolve(players, given)


# ------------------------------------------------------------------ registration


@pytest.mark.parametrize(
    "name", ["basic", "rummy", "obican", "obican-remi", "Obican_Remi", "BASIC"]
)
def test_found_by_name_and_aliases(name: str) -> None:
    """§1 catalogue row 1: engine id ``basic`` ("Običan Remi")."""
    assert find_variant(name) is BASIC


def test_profile() -> None:
    """§3.1: one 52-card pack, no jokers, 2-6 players."""
    assert BASIC.rules_section == "§3" and BASIC.material is CARDS
    assert (BASIC.min_players, BASIC.max_players) == (2, 6)
    pieces = BASIC.pieces(opts())
    assert len(pieces) == 52 and not any(f.is_joker for f in pieces.faces)
    assert len(set(pieces.faces)) == 52
    for players in (1, 7):
        with pytest.raises(OptionError):
            BASIC.resolve(players)


# ------------------------------------------------------------------ options §3.9


@pytest.mark.parametrize(
    ("name", "default", "kind"),
    [
        ("match_mode", "target", OptionKind.DOCUMENTED),
        ("target_score", 750, OptionKind.DOCUMENTED),
        ("match_deals", 4, OptionKind.ENGINE),
        ("allow_go_out_without_discard", True, OptionKind.DOCUMENTED),
        ("hand_bonus_multiplier", 2, OptionKind.DOCUMENTED),
        ("recycle_shuffle", False, OptionKind.DOCUMENTED),
        ("max_stock_recycles", None, OptionKind.ENGINE),
        ("allow_discard_of_taken_discard", False, OptionKind.ENGINE),
    ],
)
def test_option_defaults_follow_section_3_9(name: str, default: object, kind: OptionKind) -> None:
    """§3.9: every option, its default and its kind."""
    spec = next(s for s in BASIC.options if s.name == name)
    assert spec.kind is kind
    for players in range(2, 7):
        assert opts(players)[name] == default


def test_option_set_is_exactly_section_3_9() -> None:
    """§3.9 lists eight options; the profile has no others."""
    assert {s.name for s in BASIC.options} == {
        "match_mode",
        "target_score",
        "match_deals",
        "allow_go_out_without_discard",
        "hand_bonus_multiplier",
        "recycle_shuffle",
        "max_stock_recycles",
        "allow_discard_of_taken_discard",
    }


@pytest.mark.parametrize(
    "given",
    [
        {"match_mode": "points"},
        {"target_score": 0},
        {"match_deals": 0},
        {"hand_bonus_multiplier": 0},
        {"allow_go_out_without_discard": 1},
        {"jokers": 2},
    ],
)
def test_bad_option_values_are_rejected(given: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        BASIC.resolve(4, given)


# ------------------------------------------------------------------ values §3.8


def test_card_values() -> None:
    """§3.8: K, Q, J = 10; A = 1; 2-10 face value."""
    assert VALUES == {
        1: 1,
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
    assert [BASIC.score_value(f) for f in hand("AS 2H 9D 10C JS QH KD")] == [
        1,
        2,
        9,
        10,
        10,
        10,
        10,
    ]


def test_opening_values_are_card_values() -> None:
    """§3.5: no opening requirement; the opening value (used by solvers and bots) is the
    card value, the ace 1 wherever it sits."""
    assert BASIC.opening_value(MeldKind.RUN, 1) == 1
    assert BASIC.opening_value(MeldKind.RUN, 14) == 1
    assert BASIC.opening_value(MeldKind.SET, 1) == 1
    assert BASIC.opening_value(MeldKind.RUN, 12) == 10
    assert BASIC.opening_value(MeldKind.SET, 7) == 7


# ------------------------------------------------------------------ melds §3.4


@pytest.mark.parametrize(
    ("meld", "kind"),
    [
        ("QS KS AS", None),  # BAS-03: the ace is low only
        ("KD AD 2D", None),  # BAS-03: no wrap
        ("AS 2S 3S", MeldKind.RUN),
        ("9H 10H JH QH KH", MeldKind.RUN),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", MeldKind.RUN),
        ("7C 7D 7H", MeldKind.SET),
        ("7C 7D 7H 7S", MeldKind.SET),
        ("AS AH AD", MeldKind.SET),
        ("7C 7D", None),
        ("5H 6H", None),
        ("5H 6H 8H", None),
        ("5H 6D 7H", None),
        ("7C 7D 8C", None),
    ],
)
def test_meld_rules(meld: str, kind: MeldKind | None) -> None:
    """§3.4, BAS-03: runs of 3+ in one suit with the ace low only (A..K at most), sets of
    3-4 of one rank; nothing shorter than 3."""
    readings = read_meld(hand(meld), BASIC.meld_rules)
    if kind is None:
        assert readings == []
    else:
        assert readings and {r.kind for r in readings} == {kind}


def test_ace_low_run_positions() -> None:
    """§3.4: in A-2-3 the ace takes position 1."""
    (reading,) = read_meld(hand("3S AS 2S"), BASIC.meld_rules)
    assert sorted(reading.positions) == [1, 2, 3]
    rules = BASIC.meld_rules
    assert rules.ace_low and not rules.ace_high and not rules.ace_both_ends
    assert rules.min_size == 3 and rules.set_max_size == 4 and rules.set_distinct_suits


# ------------------------------------------------------------------ deal §3.2


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal(players: int) -> None:
    """§3.2: 10/7/7/6/6 one at a time from the dealer's right, one up-card, the rest stock."""
    size = CARDS_PER_PLAYER[players]
    assert size == {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}[players]
    for dealer in range(players):
        layout = deal(list(range(52)), players, dealer, opts(players))
        first = (dealer + 1) % players
        assert layout.first_seat == first
        for k in range(players):
            assert layout.racks[(first + k) % players] == tuple(range(k, players * size, players))
        assert layout.discard == (players * size,)
        assert len(layout.stock) == 52 - players * size - 1
        assert layout.stock == tuple(range(players * size + 1, 52))


# ------------------------------------------------------------------ scoring §3.8


def test_score_deal_winner_collects_all_hands() -> None:
    """§3.8, BAS-09: the winner scores every opponent's hand; the others score 0."""
    outcomes = [outcome(closed=True), outcome("KH 5D AC"), outcome("2S 3S")]
    assert score_deal(outcomes, False, None, opts(3)) == (21, 0, 0)
    outcomes = [outcome("QS"), outcome("KH 5D AC"), outcome(closed=True)]
    assert score_deal(outcomes, False, None, opts(3)) == (0, 0, 26)


@pytest.mark.parametrize(("multiplier", "expected"), [(2, 86), (1, 43), (5, 215)])
def test_score_deal_hand_multiplier(multiplier: int, expected: int) -> None:
    """§3.8, BAS-10/11: a Hand multiplies the sum by ``hand_bonus_multiplier`` (default 2)."""
    hands = [outcome("KS QS JD 10C"), outcome("AS 2D")]
    options = opts(3, hand_bonus_multiplier=multiplier)
    assert score_deal([outcome(closed=True, hand_=True), *hands], False, None, options) == (
        expected,
        0,
        0,
    )
    assert score_deal([outcome(closed=True), *hands], False, None, options) == (43, 0, 0)


def test_score_deal_without_a_winner_is_zero() -> None:
    """§2.4: a deal nobody wins scores nothing."""
    assert score_deal([outcome("KS"), outcome("QS")], False, None, opts(2)) == (0, 0)


# ------------------------------------------------------------------ match, turn switches


def test_match_over_is_target_or_deals() -> None:
    """§3.8, A-08: the match hook is the shared target/deals rule (750 by default)."""
    assert BASIC.match_over is target_or_deals_over
    assert not BASIC.match_over([749, 0, 0], 20, opts(3))
    assert BASIC.match_over([0, 750, 0], 1, opts(3))
    assert BASIC.match_over([0, 0], 4, opts(2, match_mode="deals"))


def test_play_rules_defaults() -> None:
    """§3.3-§3.7: draw each turn (stock or top discard, nothing owed for a take), no
    opening requirement, lay off before one's first meld, go out without a discard,
    recycle the pile, the taken discard stays (§2.5), highest total wins."""
    play = BASIC.play_rules(opts())
    assert play.first_turn_draws and play.first_turn_may_meld
    assert play.take_use is TakeUse.NONE and not play.take_any_column_tile
    assert not play.first_discard_dead and not play.first_round_restricted
    assert not play.discard_taken_allowed
    assert play.recycle_stock and play.layoff_before_opening and play.go_out_without_discard
    assert play.opening_min_points == 0 and not play.hand_waives_opening
    assert not play.joker_exchange and not play.preplay and not play.three_announcement
    assert play.match_winner == "highest"


def test_play_rules_follow_options() -> None:
    """§3.9: the engine options switch the matching turn rules."""
    play = BASIC.play_rules(
        opts(allow_discard_of_taken_discard=True, allow_go_out_without_discard=False)
    )
    assert play.discard_taken_allowed and not play.go_out_without_discard
