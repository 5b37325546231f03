# mypy: disable-error-code="comparison-overlap"
# (a phase asserted, an action applied, the phase asserted again: mypy keeps the first
# narrowing across the call that changes it.)
"""Vienna / Rauber Rummy (``vienna``, RULES §6) rule by rule, with every option of §6.10
and the shared card rules it uses (§2.4 stock recycling, §2.5 the taken discard, §2.6
the deal passing on).  The §12.4 scenarios are in ``test_vienna_scenarios.py``.

Seats are in play order (counter-clockwise).  Unless a test says otherwise the last
seat deals, so seat 0 (P1), his right-hand neighbour, acts first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit import assert_conserved, column, draw, illegal, listed, pass_turn, play, rack, stock_top
from rummykit.engine import Game
from rummykit.engine.actions import CallRemi, Discard, Draw, TakeColumn
from rummykit.engine.game import Phase
from rummykit.model.candidates import counts_of
from rummykit.model.melds import read_meld
from rummykit.model.pieces import Face, Material
from rummykit.rules.options import OptionError
from rummykit.rules.variant import SeatOutcome, find_variant
from rummykit.rules.vienna import (
    VIENNA,
    _cannot_close,
    _partnerless,
    arrange,
    closing_discards,
    meld_rules_for,
    score_deal,
)
from rummykit.rules.vienna import _face_table as face_table
from rummykit.rules.vienna import _shown as arrange_shown
from vienna_support import (
    D8,
    D12,
    MELDED,
    brute_closes,
    brute_deadwood,
    face,
    faces,
    options,
    value,
    vienna_game,
)

STOCK = {2: 87, 3: 77, 4: 67, 5: 57, 6: 47}
RULES = meld_rules_for(options())

# Ten cards in three melds, and racks with a known deadwood (RULES §6.8 values).


# ================================================================== §6.1 components


def test_pack_is_two_decks_and_four_jokers() -> None:
    """§6.1: two 52-card packs plus 4 jokers, 108 cards."""
    pieces = VIENNA.pieces(options())
    assert len(pieces) == 108
    assert sum(f.is_joker for f in pieces.faces) == 4
    assert all(
        sum(1 for f in pieces.faces if f == g) == 2 for g in set(pieces.faces) if not g.is_joker
    )


@pytest.mark.parametrize("jokers", [0, 2, 6])
def test_joker_count_option(jokers: int) -> None:
    """§6.10 ``joker_count``: the jokers added to the two packs."""
    game = Game("vienna", 2, {"joker_count": jokers}, seed=1)
    assert len(game.pieces) == 104 + jokers
    assert len(game.stock) == 104 + jokers - 21


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players: int) -> None:
    """§6.1: 2 to 6 players."""
    with pytest.raises(OptionError, match="2 to 6 players"):
        Game("vienna", players)


def test_names() -> None:
    """The variant answers to its aliases."""
    for name in ("vienna", "rauber", "becki", "Becki-Remi", "rauber_rummy"):
        assert find_variant(name) is VIENNA


def test_option_defaults() -> None:
    """§6.10: every documented option with its default."""
    given = options()
    assert {k: given[k] for k in given} == {
        "joker_count": 4,
        "max_jokers_per_meld": 1,
        "set_distinct_suits": False,
        "caller_failure_penalty": -20,
        "non_caller_winner_bonus": 10,
        "close_discard_any_card": True,
        "tie_winner_rule": "first_after_caller",
        "auto_arrange_deadwood": True,
        "match_deals": 5,
        "recycle_shuffle": False,
        "max_stock_recycles": None,
        "allow_discard_of_taken_discard": False,
    }


@pytest.mark.parametrize(
    "bad",
    [
        {"joker_count": 9},
        {"max_jokers_per_meld": -1},
        {"caller_failure_penalty": 5},
        {"non_caller_winner_bonus": -1},
        {"tie_winner_rule": "split"},
        {"match_deals": 0},
        {"close_discard_any_card": "yes"},
        {"hand_card_exposed": True},
    ],
)
def test_bad_options_are_rejected(bad: Mapping[str, Any]) -> None:
    """Unknown options and values out of range are errors that name the option."""
    with pytest.raises(OptionError, match=next(iter(bad))):
        Game("vienna", 3, bad)


# ================================================================== §6.2 dealing


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_ten_cards_each_an_up_card_and_the_stock(players: int) -> None:
    """§6.2: 10 cards each, one up-card starts the discard pile, stock 108 - 10n - 1; the
    dealer's right-hand neighbour (the next seat in play order) acts first."""
    for dealer in range(players):
        game = Game("vienna", players, maker=dealer, seed=dealer)
        assert [len(r) for r in game.racks] == [10] * players
        assert len(game.column) == 1
        assert len(game.stock) == STOCK[players]
        assert game.to_move == game.first_seat == (dealer + 1) % players
        assert_conserved(game)


def test_cards_are_dealt_one_at_a_time() -> None:
    """§6.2: one card at a time from the dealer's right; the next card is turned up."""
    order = list(range(108))
    game = Game("vienna", 3, walls=[order], maker=1, seed=0)
    first = 2
    for k in range(3):
        assert sorted(game.racks[(first + k) % 3]) == [k + 3 * i for i in range(10)]
    assert game.column == [30]
    assert list(reversed(game.stock)) == list(range(31, 108))


def test_the_deal_passes_to_the_next_player() -> None:
    """§2.6/A-02: the next deal is dealt by the next seat in play order."""
    game = vienna_game(3, racks={0: MELDED}, stock="9D")
    draw(game)
    play(game, "remi 9D", "next")
    assert game.maker == 0 and game.to_move == 1


# ================================================================== §6.3 turns


def test_draw_from_the_stock_or_the_discard_pile() -> None:
    """§6.3: the top of the stock or of the discard pile, always, with no condition."""
    game = vienna_game(3, discard="KD", stock="2C")
    assert listed(game, "draw") and listed(game, "take 0")
    play(game, "take 0")
    assert "KD" in rack(game, 0) and column(game) == []
    discarded = next(c for c in rack(game, 0) if c != "KD")
    play(game, f"discard {discarded}")
    assert listed(game, "take 0")
    play(game, "P2: take 0")
    assert discarded in rack(game, 1)


def test_a_turn_is_a_draw_then_a_discard() -> None:
    """§6.3: after drawing, a discard (back to 10 cards) passes the turn."""
    game = vienna_game(3, stock="2C")
    illegal(game, "discard 2C")
    assert draw(game) == "2C"
    illegal(game, "draw")
    illegal(game, "take 0")
    play(game, "discard 2C")
    assert len(game.racks[0]) == 10 and game.to_move == 1 and column(game)[-1] == "2C"


def test_legal_actions_after_drawing_are_discards_and_the_call() -> None:
    """§6.3: after drawing only a discard or 'Remi!' remains (no meld of any kind)."""
    game = vienna_game(3, racks={0: MELDED}, stock="KD")
    assert game.legal_actions() == [Draw(), TakeColumn(0)]
    draw(game)
    legal = game.legal_actions()
    kinds = sorted({f.kind for f in game.rack_faces(0)})
    assert legal[: len(kinds)] == [game._discards[k] for k in kinds]
    assert legal[len(kinds) :] == [CallRemi(), CallRemi(face("KD"))]


@pytest.mark.parametrize(
    "text", ["meld [3H 4H 5H]", "meld [7C 7C 7D]", "attach 6H -> m1", "exchange 6H -> m1"]
)
def test_nothing_is_laid_on_the_table(text: str) -> None:
    """§6.3: melds are never laid during play; no laying off, no joker exchange."""
    game = vienna_game(3, racks={0: MELDED}, stock="6H")
    draw(game)
    assert illegal(game, text).rule == "§6.3"


def test_taken_discard_is_not_discarded_again() -> None:
    """§2.5/A-03: the card taken from the discard pile stays for the turn."""
    game = vienna_game(3, discard="KD")
    play(game, "take 0")
    assert illegal(game, "discard KD").rule == "§2.5/A-03"
    allowed = Game("vienna", 3, {"allow_discard_of_taken_discard": True}, seed=3)
    top = str(allowed.faces[allowed.column[-1]])
    play(allowed, "take 0", f"discard {top}")


def test_taken_discard_may_close() -> None:
    """§6.6/A-21: the closing card may be the one just taken from the pile ("the one he
    bought"); §2.5 forbids only an ordinary discard of it."""
    game = vienna_game(3, racks={0: MELDED}, discard="9D")
    play(game, "take 0", "remi 9D")
    assert game.results[-1].end == "close" and game.results[-1].scores[0] > 0


# ================================================================== §6.4 melds


@pytest.mark.parametrize(
    ("text", "legal"),
    [
        ("7C 7C 7D", True),  # suits may repeat
        ("7C 7C 7D 7D 7H 7H 7S 7S JK", True),  # every natural of the rank + one joker
        ("7C 7D JK JK", False),  # one joker per meld
        ("AH 2H 3H", True),  # ace low
        ("QH KH AH", True),  # ace high
        ("KH AH 2H", False),  # no wrap
        ("5D JK 7D", True),
        ("5D JK JK 8D", False),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", False),  # not both ends
        ("7C 7D", False),  # three cards at least
    ],
)
def test_melds(text: str, legal: bool) -> None:
    """§6.4: runs with the ace high or low (not both, no wrap); sets of any suits; at most
    one joker per meld."""
    assert bool(read_meld(faces(text), RULES)) is legal


def test_distinct_suit_and_joker_options() -> None:
    """§6.10 ``set_distinct_suits`` and ``max_jokers_per_meld``."""
    distinct = meld_rules_for(options(set_distinct_suits=True))
    assert not read_meld(faces("7C 7C 7D"), distinct)
    assert read_meld(faces("7C 7H 7D JK"), distinct)
    two = meld_rules_for(options(max_jokers_per_meld=2))
    assert read_meld(faces("7C JK JK"), two)
    none = meld_rules_for(options(max_jokers_per_meld=0))
    assert not read_meld(faces("7C 7D JK"), none)


# ================================================================== §6.6 arrangement


@pytest.mark.parametrize(
    ("hand", "points", "layout"),
    [
        (MELDED, 0, "[10S JS QS KS] [3H 4H 5H] [7D 7C 7C] /"),
        (D12, 12, "[AS 2S 3S 4S] [8S 8H 8D 8C] / KH 2D"),
        (D8, 8, "[QS QH QC QC] [5D 6D 7D 8D] / 5S 3C"),
        ("JK AS KD", 46, "/ AS KD JK"),
    ],
)
def test_arrangement_has_the_least_deadwood(hand: str, points: int, layout: str) -> None:
    """§6.6/A-24: the hand is laid out with the least deadwood (A 11, joker 25)."""
    result = arrange(faces(hand), options())
    assert result.points == points
    assert result.notation == layout


def test_a_card_counts_in_only_one_meld() -> None:
    """§6.6: the arrangement is a partition; QS KS AS AH AD is one meld and two aces."""
    result = arrange(faces("QS KS AS AH AD 2H 3H"), options())
    # [AS AH AD] leaves QS KS 2H 3H = 25; [QS KS AS] + [AH 2H 3H] leaves AD = 11.
    assert result.points == 11
    assert sorted(map(str, result.deadwood)) == ["AD"]


def test_joker_stays_unmatched_when_no_meld_takes_it() -> None:
    """§6.4/§6.8: a joker needs two naturals of a meld beside it; unmatched it counts 25."""
    assert arrange(faces("JK 2C 9H KD"), options()).points == 25 + 2 + 9 + 10
    assert arrange(faces("JK 2C 9H 9D"), options()).points == 2


hands = st.lists(
    st.integers(0, 52).map(lambda k: Face.from_kind(Material.CARDS, k)),
    min_size=0,
    max_size=8,
).filter(lambda fs: all(fs.count(f) <= (4 if f.is_joker else 2) for f in fs))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(hand=hands)
def test_arrangement_matches_an_exhaustive_search(hand: list[Face]) -> None:
    """A-24: the least deadwood equals that of an exhaustive search over every meld
    (``read_meld`` as the independent judge), and the shown melds are valid and use
    exactly the hand's cards."""
    result = arrange(hand, options())
    assert result.points == brute_deadwood(hand, RULES)
    assert all(read_meld(m, RULES) for m in result.melds)
    used = sorted([*(f for m in result.melds for f in m), *result.deadwood])
    assert used == sorted(hand)
    assert sum(value(f) for f in result.deadwood) == result.points


@settings(max_examples=100, deadline=None, derandomize=True)
@given(hand=hands.filter(lambda fs: len(fs) >= 4))
def test_closing_discards_match_an_exhaustive_search(hand: list[Face]) -> None:
    """§6.6: a card may close exactly when every other card lies in a meld."""
    assert closing_discards(hand, options()) == brute_closes(hand, RULES)


def _meld_pieces(draw: st.DrawFn) -> list[Face]:
    """A random run or set (at most one joker) of 3-5 cards."""
    size = draw(st.integers(3, 5))
    suit = draw(st.integers(0, 3))
    if draw(st.booleans()):
        start = draw(st.integers(1, 14 - size + 1))
        meld = [
            Face.of(Material.CARDS, suit, 1 if p == 14 else p) for p in range(start, start + size)
        ]
    else:
        rank = draw(st.integers(1, 13))
        meld = [Face.of(Material.CARDS, draw(st.integers(0, 3)), rank) for _ in range(size)]
    if draw(st.booleans()):
        meld[draw(st.integers(0, size - 1))] = Face.joker(Material.CARDS)
    return meld


@st.composite
def nearly_melded(draw: st.DrawFn) -> tuple[list[Face], Face]:
    """(hand, extra): melds of 9 to 13 cards plus one more card, in any order."""
    hand: list[Face] = []
    while len(hand) < 9:
        hand += _meld_pieces(draw)
    extra = Face.of(Material.CARDS, draw(st.integers(0, 3)), draw(st.integers(1, 13)))
    return draw(st.permutations([*hand, extra])), extra


@settings(max_examples=40, deadline=None, derandomize=True)
@given(drawn=nearly_melded())
def test_closing_discards_of_nearly_melded_hands(drawn: tuple[list[Face], Face]) -> None:
    """§6.6: on hands made of melds plus one card, the closing cards are exactly those an
    exhaustive search finds, and the extra card is always one of them."""
    hand, extra = drawn
    closes = closing_discards(hand, options())
    assert closes == brute_closes(hand, RULES)
    assert extra in closes


@pytest.mark.parametrize(
    ("hand", "given", "alone"),
    [
        ("3H 9S KD", {}, 3),  # nothing near anything
        ("3H 5H 9S KD", {}, 2),  # 3H-5H: one gap for the joker
        ("3H 6H 9S 9D", {}, 2),  # 3H and 6H are too far apart; the 9s make a set's pair
        ("QH AH 2C 2C", {}, 0),  # Q-K-A: the ace is high; two 2C make a pair in a set
        ("QH AH 2C 2C", {"set_distinct_suits": True}, 2),  # ... but not when suits differ
        ("3H 9S JK JK", {"max_jokers_per_meld": 2}, 0),  # two jokers: a card melds alone
        ("3H 9S JK JK", {}, 2),  # one joker a meld: still alone
    ],
)
def test_cards_with_no_possible_meld_partner(
    hand: str, given: dict[str, object], alone: int
) -> None:
    """The quick refutation of §6.6 closing: the naturals no other natural can join in a
    meld with at most one joker (two of them and the hand cannot close)."""
    counts = counts_of([f.kind for f in faces(hand)])
    assert _partnerless(counts, meld_rules_for(options(**given))) == alone


@settings(max_examples=40, deadline=None, derandomize=True)
@given(drawn=nearly_melded(), joker=st.booleans())
def test_the_closing_pre_check_passes_every_closing_hand(
    drawn: tuple[list[Face], Face], joker: bool
) -> None:
    """§6.6: the quick check run first on every turn never refutes a hand that closes
    (with a joker in place of one card too)."""
    hand, _ = drawn
    if joker:
        hand = [Face.joker(Material.CARDS), *hand[1:]]
    if closing_discards(hand, options()):  # without the joker, the extra card closes it
        assert not _cannot_close([f.kind for f in hand], RULES)
    if not joker:
        assert closing_discards(hand, options())


@pytest.mark.parametrize(
    ("hand", "refuted"),
    [
        ("3H 5H JK 7C 7C 7D 2D 3D 4D 9S 10S", True),  # 3H-5H and 9S-10S both want the joker
        ("3H 5H JK 7C 7C 7D 2D 3D 4D 5D KS", False),  # KS closes: 3H JK 5H
        ("3H 5H JK 7C 7C 7D 2D 3D 4D 5D 9S", False),  # 9S closes too
        ("3H 5H JK 7C 7C 7D 2D 3D 4D 9S KS", True),  # two cards in no meld
        ("3H 4H 5H 7C 7C 7D 2D 3D 4D 5D KS", False),  # no joker: KS closes
    ],
)
def test_the_closing_pre_check_with_one_joker(hand: str, refuted: bool) -> None:
    """§6.6: with one joker, the naturals that only the joker's meld can hold (all but the
    closing card) must be of one suit or one rank."""
    cards = faces(hand)
    assert _cannot_close([f.kind for f in cards], RULES) is refuted
    if refuted:
        assert closing_discards(cards, options()) == frozenset()
    assert (brute_closes(cards, RULES) == set()) is (closing_discards(cards, options()) == set())


def test_closing_discards_under_options() -> None:
    """§6.10: closing follows the meld options."""
    hand = faces("7C 7C 7D 2S 3S 4S KH")
    assert closing_discards(hand, options()) == {face("KH")}
    assert closing_discards(hand, options(set_distinct_suits=True)) == frozenset()


# ================================================================== §6.7 stock


def test_empty_stock_turns_the_discard_pile_over() -> None:
    """§6.7/A-04 (§2.4): at the start of a turn an empty stock is replaced by the discard
    pile turned over (no shuffle), so its oldest card is drawn first."""
    game = Game("vienna", 6, seed=5)
    pile = column(game)
    while len(game.stock) > 1:
        pile.append(pass_turn(game))
    pile.append(pass_turn(game))  # draws the last stock card; the next turn recycles
    assert column(game) == [] and game.recycles == 1
    assert stock_top(game) == pile and len(pile) == 48
    assert game.legal_actions() == [Draw()]
    assert draw(game) == pile[0]


def test_recycle_limit_voids_the_deal() -> None:
    """§2.4/A-05: with the recycle limit reached, an empty stock ends the deal unscored."""
    game = Game("vienna", 6, {"max_stock_recycles": 0}, seed=5)
    while game.phase is Phase.TURNS:
        pass_turn(game)
    result = game.results[-1]
    assert result.end == "void" and result.scores == (0,) * 6 and result.showdown == ()


# ================================================================== §6.8 scoring


def outcomes(dead: list[int], caller: int | None) -> list[SeatOutcome]:
    return [
        SeatOutcome(
            opened=False,
            board=False,
            three_violation=False,
            atu=False,
            closed=seat == caller,
            table_value=0,
            rack_value=d,
        )
        for seat, d in enumerate(dead)
    ]


@pytest.mark.parametrize(
    ("dead", "caller", "given", "scores"),
    [
        ([0, 12, 8], 0, {}, (20, 0, 0)),
        ([5, 12, 8], 0, {}, (7 + 3, 0, 0)),
        ([9, 9, 20], 0, {}, (-20, 21, 0)),  # a tie fails
        ([4, 4], 0, {}, (-20, 10)),
        ([9, 3, 3], 0, {}, (-20, 6 + 0 + 10, 0)),  # first tied after the caller
        ([3, 9, 3], 1, {}, (0, -20, 6 + 0 + 10)),  # P3 comes before P1 after P2
        ([9, 3, 3], 0, {"tie_winner_rule": "all_tied_win"}, (-20, 16, 16)),
        ([9, 3, 5], 0, {"caller_failure_penalty": -50, "non_caller_winner_bonus": 0}, (-50, 8, 0)),
        ([0, 0, 7], 2, {}, (0 + 7 + 10, 0, -20)),
        ([3, 1, 2, 8], 3, {}, (0, 2 + 1 + 7 + 10, 0, -20)),
    ],
)
def test_scoring(
    dead: list[int], caller: int, given: dict[str, Any], scores: tuple[int, ...]
) -> None:
    """§6.8: a strictly lowest caller collects every difference; otherwise the lowest
    non-caller collects the differences to everyone (caller included) plus 10, and the
    caller records -20 (A-22 for ties)."""
    opts = VIENNA.resolve(len(dead), given)
    assert score_deal(outcomes(dead, caller), False, None, opts) == scores


def test_no_caller_no_score() -> None:
    """A deal without a call scores nothing."""
    assert score_deal(outcomes([5, 6], None), False, None, options()) == (0, 0)


def test_deadwood_values() -> None:
    """§6.8: A 11, joker 25, K/Q/J 10, 2-10 face value."""
    assert [VIENNA.score_value(f) for f in faces("AS 2H 9D 10C JS QH KD JK")] == [
        11,
        2,
        9,
        10,
        10,
        10,
        10,
        25,
    ]


# ================================================================== §6.9 match


def test_match_is_five_deals_and_the_highest_total_wins() -> None:
    """§6.9/A-23: five deals; then the highest total wins."""
    game = Game("vienna", 3, seed=2)
    deals = 0
    while not game.is_over:
        if game.phase is Phase.DEAL_END:
            play(game, "next")
            continue
        draw(game)
        play(game, "remi")
        deals += 1
    assert deals == 5 and len(game.results) == 5
    assert game.winners() == [s for s in range(3) if game.totals[s] == max(game.totals)]


def test_match_deals_option() -> None:
    """§6.9: players may agree on more or fewer deals."""
    game = Game("vienna", 2, {"match_deals": 1}, seed=2)
    draw(game)
    play(game, "remi")
    assert game.is_over


def test_discard_actions_match_a_discard() -> None:
    """A discard of a card not in the hand is refused."""
    game = vienna_game(3, stock="2C")
    draw(game)
    illegal(game, Discard(face("JK")))


def test_meld_options_never_share_a_cached_arrangement() -> None:
    """§6.10: the arrangement is cached by the sorted hand and the two meld options;
    each option's answer stands whichever was asked first."""
    repeats = faces("7H 7H 7S KD")  # a set only where suits may repeat (§6.4)
    two_jokers = faces("JK JK 5H KD")  # a meld only with two jokers a meld
    for first, second in ((False, True), (True, False)):
        arrange_shown.cache_clear()
        found = [arrange(repeats, options(set_distinct_suits=d)) for d in (first, second)]
        assert [r.points for r in found] == [10 if not d else 31 for d in (first, second)]
        arrange_shown.cache_clear()
        jokers = (1, 2) if first is False else (2, 1)
        found = [arrange(two_jokers, options(max_jokers_per_meld=j)) for j in jokers]
        assert [r.points for r in found] == [65 if j == 1 else 5 for j in jokers]


@settings(max_examples=100, deadline=None, derandomize=True)
@given(hand=hands, distinct=st.booleans(), jokers=st.integers(0, 2))
def test_cached_arrangement_equals_a_fresh_one(
    hand: list[Face], distinct: bool, jokers: int
) -> None:
    """A-24: an arrangement from the cache is the one computed afresh, in any card order,
    and lays the cards out as the shown hand expects (melds and deadwood sorted)."""
    opts = options(set_distinct_suits=distinct, max_jokers_per_meld=jokers)
    fresh = arrange_shown.__wrapped__(
        tuple(sorted(f.kind for f in hand)), Material.CARDS, distinct, jokers
    )
    assert arrange(hand, opts) == fresh
    assert arrange(list(reversed(hand)), opts) == fresh
    assert list(fresh.melds) == sorted(fresh.melds)
    assert list(fresh.deadwood) == sorted(fresh.deadwood)
    assert fresh.points == brute_deadwood(hand, meld_rules_for(opts))


def test_face_table_lists_every_face_by_kind() -> None:
    for material in Material:
        table = face_table(material)
        assert [f.kind for f in table] == list(range(53))
        assert {f.material for f in table} == {material}
