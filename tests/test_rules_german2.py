"""The German Rummy for two profile (``rummykit.rules.german2``, RULES §5): registration,
options (§5.10), values (§5.5, §5.9, A-16), melds (§5.4, GER-03), the packet deal
(§5.2, GER-01), deal scoring (§5.9, GER-13), the match end (A-19) and the turn
switches (§5.2-§5.8, A-14 … A-18)."""

from __future__ import annotations

from typing import Any

import pytest

from rummykit.model import HIGH_ACE, MeldKind, best_reading, read_meld
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.rules import OptionError, OptionKind, find_variant
from rummykit.rules.german2 import (
    GERMAN2,
    PENALTY,
    deal,
    match_over,
    opening_value,
    score_deal,
)
from rummykit.rules.variant import OpeningStructure, SeatOutcome, TakeUse

CARDS = Material.CARDS


def hand(text: str) -> tuple[Face, ...]:
    return parse_faces(text, CARDS)


def outcome(
    rack: str = "", *, closed: bool = False, opened: bool = True, hand_: bool = False
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
        rack_value=sum(PENALTY[f.rank] for f in faces),
    )


def opts(**given: Any) -> dict[str, Any]:
    return dict(GERMAN2.resolve(2, given))


def points(meld: str) -> int:
    """Opening points of ``meld`` as the engine reads it (the best reading)."""
    faces = hand(meld)
    reading = best_reading(faces, read_meld(faces, GERMAN2.meld_rules), opening_value)
    return sum(opening_value(reading.kind, p) for p in reading.positions)


# ------------------------------------------------------------------ registration


@pytest.mark.parametrize(
    "name", ["german2", "njemacki", "njemacki-remi", "german-two", "Njemacki_Remi", "GERMAN2"]
)
def test_found_by_name_and_aliases(name: str) -> None:
    """§1 catalogue row 3: engine id ``german2`` ("Njemački Remi")."""
    assert find_variant(name) is GERMAN2


def test_profile() -> None:
    """§5.1: two 52-card packs, no jokers, exactly two players."""
    assert GERMAN2.rules_section == "§5" and GERMAN2.material is CARDS
    assert (GERMAN2.min_players, GERMAN2.max_players, GERMAN2.default_players) == (2, 2, 2)
    pieces = GERMAN2.pieces(opts())
    assert len(pieces) == 104 and not any(f.is_joker for f in pieces.faces)
    assert pieces.faces[pieces.parse_piece("7C#2")] == Face.parse("7C")
    for players in (1, 3):
        with pytest.raises(OptionError):
            GERMAN2.resolve(players)


# ------------------------------------------------------------------ options §5.10


@pytest.mark.parametrize(
    ("name", "default", "kind"),
    [
        ("opening_min_points", 51, OptionKind.DOCUMENTED),
        ("opening_requires_run", True, OptionKind.DOCUMENTED),
        ("discard_take_requires_new_meld", True, OptionKind.DOCUMENTED),
        ("dealer_first_turn_discard_only", True, OptionKind.DOCUMENTED),
        ("dealer_may_meld_first_turn", False, OptionKind.ENGINE),
        ("layoff_on_opening_turn", True, OptionKind.ENGINE),
        ("allow_go_out_without_discard", True, OptionKind.ENGINE),
        ("unopened_loser_penalty", 100, OptionKind.DOCUMENTED),
        ("match_loss_threshold", 200, OptionKind.DOCUMENTED),
        ("recycle_shuffle", False, OptionKind.DOCUMENTED),
        ("max_stock_recycles", None, OptionKind.ENGINE),
        ("allow_discard_of_taken_discard", False, OptionKind.ENGINE),
    ],
)
def test_option_defaults_follow_section_5_10(name: str, default: object, kind: OptionKind) -> None:
    """§5.10 (and the shared §2.4/§2.5 options): each default and kind."""
    spec = next(s for s in GERMAN2.options if s.name == name)
    assert spec.kind is kind and opts()[name] == default


@pytest.mark.parametrize(
    "given",
    [
        {"opening_min_points": -1},
        {"match_loss_threshold": 0},
        {"unopened_loser_penalty": -5},
        {"opening_requires_run": "yes"},
        {"target_score": 750},
    ],
)
def test_bad_option_values_are_rejected(given: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        GERMAN2.resolve(2, given)


# ------------------------------------------------------------------ values


def test_penalty_values() -> None:
    """§5.9: A = 10, K/Q/J = 10, 2-10 face value."""
    assert PENALTY == {
        1: 10,
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
    assert [GERMAN2.score_value(f) for f in hand("AS 2H 10C JS KD")] == [10, 2, 10, 10, 10]


@pytest.mark.parametrize(
    ("kind", "position", "value"),
    [
        (MeldKind.RUN, 1, 1),
        (MeldKind.RUN, HIGH_ACE, 10),
        (MeldKind.SET, 1, 10),
        (MeldKind.RUN, 13, 10),
        (MeldKind.RUN, 11, 10),
        (MeldKind.SET, 12, 10),
        (MeldKind.RUN, 7, 7),
        (MeldKind.SET, 2, 2),
    ],
)
def test_opening_values(kind: MeldKind, position: int, value: int) -> None:
    """§5.5, A-16: the ace is 1 only as the low ace of a run, else 10; others as scored."""
    assert opening_value(kind, position) == value
    assert GERMAN2.opening_value(kind, position) == value


@pytest.mark.parametrize(
    ("meld", "value"),
    [
        ("QD KD AD", 30),
        ("9S 9H 9C", 27),
        ("AS 2S 3S", 6),
        ("AS 2S 3S 4S 5S", 15),
        ("AH AD AC", 30),
        ("KS KH KD", 30),
        ("10H JH QH KH AH", 50),
    ],
)
def test_opening_points_of_melds(meld: str, value: int) -> None:
    """GER-05/07, A-16: [QD KD AD] = 30 (high ace 10), [AS 2S 3S] = 6 (low ace 1)."""
    assert points(meld) == value


# ------------------------------------------------------------------ melds §5.4


@pytest.mark.parametrize(
    ("meld", "kind"),
    [
        ("8H 8H 8S", None),  # GER-03: a set needs different suits
        ("8H 8S 8D 8C", MeldKind.SET),  # GER-03
        ("QD KD AD", MeldKind.RUN),  # GER-03: high ace
        ("KD AD 2D", None),  # GER-03: no wrap
        ("AD 2D 3D", MeldKind.RUN),
        ("8H 8S 8D 8C 8H", None),
        ("8H 8S", None),
        ("5H 5H 6H 7H", None),
        ("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD", MeldKind.RUN),
        ("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD", None),  # low or high, not both
    ],
)
def test_meld_rules(meld: str, kind: MeldKind | None) -> None:
    """§5.4, GER-03: runs of one suit with the ace low or high (not both, no wrap); sets
    of 3-4 cards of one rank in different suits."""
    readings = read_meld(hand(meld), GERMAN2.meld_rules)
    if kind is None:
        assert readings == []
    else:
        assert readings and {r.kind for r in readings} == {kind}


def test_high_and_low_ace_positions() -> None:
    (high,) = read_meld(hand("QD KD AD"), GERMAN2.meld_rules)
    (low,) = read_meld(hand("AD 2D 3D"), GERMAN2.meld_rules)
    assert sorted(high.positions) == [12, 13, HIGH_ACE] and sorted(low.positions) == [1, 2, 3]


# ------------------------------------------------------------------ deal §5.2


@pytest.mark.parametrize("dealer", [0, 1])
def test_packet_deal(dealer: int) -> None:
    """§5.2, GER-01: D3, then O2/D2 six times, then O2; 75 in stock; no up-card; the
    dealer plays first."""
    layout = deal(list(range(104)), 2, dealer, opts())
    expected_dealer = [0, 1, 2] + [p for i in range(6) for p in (5 + 4 * i, 6 + 4 * i)]
    expected_other = [p for i in range(6) for p in (3 + 4 * i, 4 + 4 * i)] + [27, 28]
    assert list(layout.racks[dealer]) == expected_dealer
    assert list(layout.racks[1 - dealer]) == expected_other
    assert layout.stock == tuple(range(29, 104)) and layout.discard == ()
    assert layout.first_seat == dealer


# ------------------------------------------------------------------ scoring §5.9


def test_score_deal_loser_pays_his_hand() -> None:
    """§5.9: the winner records nothing; an opened loser his hand (A = 10)."""
    assert score_deal([outcome(closed=True), outcome("AS KC 5D")], False, None, opts()) == (0, 25)
    assert score_deal([outcome("2C 3D 9H"), outcome(closed=True)], False, None, opts()) == (14, 0)


def test_score_deal_unopened_loser_pays_100() -> None:
    """§5.9, GER-13: an unopened loser records a flat 100 (``unopened_loser_penalty``)."""
    outcomes = [outcome(closed=True), outcome("2C 3D", opened=False)]
    assert score_deal(outcomes, False, None, opts()) == (0, 100)
    assert score_deal(outcomes, False, None, opts(unopened_loser_penalty=60)) == (0, 60)


def test_score_deal_hand_has_no_bonus() -> None:
    """§5.6: no bonus for a Hand."""
    outcomes = [outcome("AS KC 5D"), outcome(closed=True, hand_=True, opened=False)]
    assert score_deal(outcomes, False, None, opts()) == (25, 0)


def test_score_deal_without_a_winner_is_zero() -> None:
    assert score_deal([outcome("KS"), outcome("QS", opened=False)], False, None, opts()) == (0, 0)


@pytest.mark.parametrize(
    ("totals", "threshold", "over"),
    [
        ([200, 0], 200, False),
        ([201, 0], 200, True),
        ([150, 199], 200, False),
        ([0, 300], 200, True),
        ([51, 0], 50, True),
        ([50, 50], 50, False),
    ],
)
def test_match_over_strictly_above_the_threshold(
    totals: list[int], threshold: int, over: bool
) -> None:
    """§5.9, A-19: a total strictly above 200 (``match_loss_threshold``) ends the match."""
    options = opts(match_loss_threshold=threshold)
    assert match_over(totals, 3, options) is over
    assert GERMAN2.match_over(totals, 3, options) is over


# ------------------------------------------------------------------ turn switches


def test_play_rules_defaults() -> None:
    """§5.2-§5.8, A-14 … A-18: a discard-only dealer's first turn with no meld; a taken
    discard must go into a new meld; 51 points with a run to open; lay-offs from the
    opening turn on; a Hand waives the opening; going out without a discard; recycling;
    the lowest total wins."""
    play = GERMAN2.play_rules(opts())
    assert not play.first_turn_draws and not play.first_turn_may_meld
    assert play.take_use is TakeUse.NEW_FORMATION and not play.take_any_column_tile
    assert not play.discard_taken_allowed and play.recycle_stock
    assert not play.layoff_before_opening and play.layoff_on_opening_turn
    assert play.go_out_without_discard and play.hand_waives_opening
    assert play.opening_min_points == 51 and play.opening_structure is OpeningStructure.RUN
    assert not play.joker_exchange and play.match_winner == "lowest"


def test_play_rules_follow_options() -> None:
    """§5.10: each option switches its turn rule."""
    play = GERMAN2.play_rules(
        opts(
            dealer_first_turn_discard_only=False,
            dealer_may_meld_first_turn=True,
            discard_take_requires_new_meld=False,
            layoff_on_opening_turn=False,
            allow_go_out_without_discard=False,
            opening_min_points=40,
            opening_requires_run=False,
            allow_discard_of_taken_discard=True,
        )
    )
    assert play.first_turn_draws and play.first_turn_may_meld
    assert play.take_use is TakeUse.NONE and play.discard_taken_allowed
    assert not play.layoff_on_opening_turn and not play.go_out_without_discard
    assert play.opening_min_points == 40 and play.opening_structure is OpeningStructure.NONE
