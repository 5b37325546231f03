# mypy: disable-error-code="comparison-overlap"
# (a phase asserted, an action applied, the phase asserted again: mypy keeps the first
# narrowing across the call that changes it.)
"""German Rommé (``romme``, RULES §8) rule by rule, with every option of §8.9 and the
shared card rules it uses (§2.4 stock recycling, §2.5 the taken discard, §2.6 the
deal passing on).

Seats are in play order (clockwise).  Unless a test says otherwise the dealer is the
last seat, so seat 0 (P1), his left-hand neighbour, acts first.  The §12.6 scenarios
themselves are in ``test_romme_scenarios.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from card_support import act, cards, face, faces
from kit import (
    assert_conserved,
    column,
    draw,
    illegal,
    in_play,
    pass_turn,
    pass_turns,
    play,
    rack,
    stock_top,
    table,
)
from romme_support import penalty, resolve, romme_after_openings, romme_game, romme_match
from rummykit.engine import Game, view
from rummykit.engine.actions import Discard, Draw, NextDeal, ResetTurn, TakeColumn
from rummykit.engine.game import Phase
from rummykit.model.candidates import candidates, counts_of
from rummykit.model.melds import MeldKind, read_meld
from rummykit.model.pieces import Material
from rummykit.rules.options import OptionError
from rummykit.rules.romme import ROMME, match_over, opening_value, score_deal
from rummykit.rules.variant import SeatOutcome, TakeUse

STOCK = {2: 83, 3: 70, 4: 57, 5: 44, 6: 31}
FOURTEENTH = {"start_mode": "fourteenth_card"}
PICKUP = {"discard_pickup_requires_immediate_meld": True}


def spare(game: Game, seat: int, *keep: str) -> str:
    """A card of ``seat``'s hand not among ``keep`` (to discard)."""
    return next(c for c in rack(game, seat) if c not in keep)


# ================================================================== §8.1 components


def test_pack_is_two_decks_with_three_jokers_each() -> None:
    """§8.1, A-34: two 52-card packs and 3 jokers per pack, 110 cards; every natural
    card exists twice."""
    pieces = ROMME.pieces(resolve())
    assert len(pieces) == 110 and pieces.joker_count == 6
    counts = Counter(pieces.faces)
    assert counts[face("JK")] == 6
    assert all(counts[f] == 2 for f in counts if not f.is_joker) and len(counts) == 53
    assert ROMME.material is Material.CARDS
    assert (ROMME.min_players, ROMME.max_players) == (2, 6)


@pytest.mark.parametrize(("per_deck", "size"), [(3, 110), (2, 108), (1, 106), (0, 104)])
def test_jokers_per_deck(per_deck: int, size: int) -> None:
    """§8.9, A-34: ``jokers_per_deck`` = 2 gives the commercial 108-card pack; the
    stock shrinks with it."""
    options = {"jokers_per_deck": per_deck}
    assert len(ROMME.pieces(resolve(2, options))) == size
    game = Game(ROMME, 4, options, seed=per_deck)
    assert len(game.stock) == size - 4 * 13 - 1
    assert sum(f.is_joker for f in game.faces) == 2 * per_deck
    assert_conserved(game)


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players: int) -> None:
    """§8.1: 2-6 players."""
    with pytest.raises(OptionError):
        Game(ROMME, players, seed=0)


def test_option_defaults() -> None:
    """§8.9: the documented defaults; ``match_deals`` is the number of players."""
    for players in (2, 5):
        options = resolve(players)
        assert {
            k: options[k]
            for k in (
                "jokers_per_deck",
                "start_mode",
                "fourteenth_card_to",
                "rauben",
                "rauben_reduces_deal",
                "discard_pickup_requires_immediate_meld",
                "opening_min_points",
                "layoff_on_opening_turn",
                "dskv_strict_set_exchange",
                "joker_exchange_use",
                "min_naturals_per_figure",
                "winner_collects",
                "match_deals",
                "loss_limit",
                "recycle_shuffle",
                "max_stock_recycles",
                "allow_discard_of_taken_discard",
                "jokers_le_naturals",
            )
        } == {
            "jokers_per_deck": 3,
            "start_mode": "upcard",
            "fourteenth_card_to": "dealer",
            "rauben": False,
            "rauben_reduces_deal": False,
            "discard_pickup_requires_immediate_meld": False,
            "opening_min_points": 40,
            "layoff_on_opening_turn": False,
            "dskv_strict_set_exchange": False,
            "joker_exchange_use": "new_meld",
            "min_naturals_per_figure": 2,
            "winner_collects": False,
            "match_deals": players,
            "loss_limit": None,
            "recycle_shuffle": False,
            "max_stock_recycles": None,
            "allow_discard_of_taken_discard": False,
            "jokers_le_naturals": False,
        }


@pytest.mark.parametrize(
    "given",
    [
        {"jokers_per_deck": 4},
        {"start_mode": "thirteenth_card"},
        {"fourteenth_card_to": "cutter"},
        {"min_naturals_per_figure": 0},
        {"min_naturals_per_figure": 4},
        {"joker_exchange_use": "hand"},
        {"loss_limit": 0},
        {"hand_bonus_multiplier": 2},
    ],
)
def test_bad_options_are_rejected(given: Mapping[str, Any]) -> None:
    """§8.9: values outside an option's range, and options of other variants, are errors."""
    with pytest.raises(OptionError):
        resolve(4, given)


# ================================================================== §8.2 dealing


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_packets_of_3_3_3_4_clockwise_from_the_dealers_left(players: int) -> None:
    """§8.2: three rounds of 3 cards and one of 4, each round starting with the dealer's
    left neighbour (the next seat in play order); the next card is the up-card; the stock
    holds 110 − 13n − 1 cards and the forehand plays first."""
    order = list(range(110))
    for dealer in range(players):
        layout = ROMME.deal(
            ROMME.pieces(resolve(players)), order, players, dealer, resolve(players)
        )
        forehand = (dealer + 1) % players
        for k in range(players):
            seat = (forehand + k) % players
            expected = [
                *(order[3 * (r * players + k) + i] for r in range(3) for i in range(3)),
                *order[9 * players + 4 * k : 9 * players + 4 * k + 4],
            ]
            assert list(layout.racks[seat]) == expected
        assert layout.discard == (13 * players,)
        assert len(layout.stock) == STOCK[players] == 110 - 13 * players - 1
        assert layout.first_seat == forehand


def test_first_player_draws_the_up_card_or_the_stock() -> None:
    """§8.2, A-33: in up-card mode the forehand (not the dealer) plays a normal first
    turn: he may take the up-card instead of a stock card."""
    game = romme_game(4, discard="KS")
    assert game.maker == 3 and game.to_move == 0
    assert game.legal_actions() == [Draw(), TakeColumn(0)]
    play(game, "take 0")
    assert "KS" in rack(game, 0) and column(game) == [] and len(game.racks[0]) == 14
    assert len(game.stock) == STOCK[4]
    play(game, f"discard {spare(game, 0, 'KS')}")
    assert game.to_move == 1 and len(game.racks[0]) == 13


# ------------------------------------------------------------------ fourteenth card


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("to", ["dealer", "forehand"])
def test_fourteenth_card_mode(players: int, to: str) -> None:
    """§8.2: with ``start_mode = "fourteenth_card"`` no card is turned up; the dealer (or,
    with ``fourteenth_card_to = "forehand"``, the forehand) gets a 14th card, the next one
    after the packets, and plays first without drawing; his discard starts the pile."""
    options = {**FOURTEENTH, "fourteenth_card_to": to}
    order = list(range(110))
    dealer = 1
    game = Game(ROMME, players, options, walls=[order], maker=dealer, seed=0)
    first = dealer if to == "dealer" else (dealer + 1) % players
    assert [len(r) for r in game.racks] == [14 if s == first else 13 for s in range(players)]
    assert 13 * players in game.racks[first]
    assert game.column == [] and len(game.stock) == STOCK[players]
    assert game.first_seat == game.to_move == first
    actions = game.legal_actions()
    assert Draw() not in actions and not any(isinstance(a, TakeColumn) for a in actions)
    error = illegal(game, "draw")
    assert error.rule == "§8.2"
    gone = pass_turn(game)
    assert column(game) == [gone] and len(game.racks[first]) == 13
    nxt = (first + 1) % players
    assert game.to_move == nxt
    assert game.legal_actions()[:2] == [Draw(), TakeColumn(0)]
    play(game, "take 0")
    assert gone in rack(game, nxt)


def test_fourteenth_card_player_may_open_on_his_first_turn() -> None:
    """§8.2: the 14th-card player may make his first meld before his first discard if it
    reaches 40 points; a smaller opening is rejected."""
    game = romme_game(3, racks={0: "10S JS QS KS 2H 3H 4H"}, options=FOURTEENTH)
    assert game.maker == 0 and game.to_move == 0 and len(game.racks[0]) == 14
    play(game, "meld [2H 3H 4H]")
    illegal(game, f"discard {spare(game, 0, '10S', 'JS', 'QS', 'KS')}")
    play(game, "meld [10S JS QS KS]", f"discard {spare(game, 0)}")
    assert game.opened[0] and len(game.racks[0]) == 6 and len(game.column) == 1


# ------------------------------------------------------------------ rauben


def _robbed_layout(players: int, dealer: int, **options: Any) -> Any:
    resolved = resolve(players, {"rauben": True, **options})
    return ROMME.deal(ROMME.pieces(resolved), list(range(110)), players, dealer, resolved)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_rauben_joker_at_the_bottom_goes_to_the_cutter(players: int) -> None:
    """§8.2, A-35: with ``rauben`` a joker at the bottom of the cut (the last card of the
    shuffled order) is kept by the cutter, the dealer's right neighbour (seat
    dealer − 1), in addition to his 13 cards; the forehand still plays first."""
    for dealer in range(players):
        layout = _robbed_layout(players, dealer)
        cutter = (dealer - 1) % players
        assert [len(r) for r in layout.racks] == [14 if s == cutter else 13 for s in range(players)]
        assert layout.racks[cutter][-1] == 109  # the last card, a joker
        assert layout.discard == (13 * players,)
        assert len(layout.stock) == STOCK[players] - 1 and 109 not in layout.stock
        assert layout.first_seat == (dealer + 1) % players
        assert f"P{cutter + 1}" in layout.notes[0]


@pytest.mark.parametrize("players", [2, 4])
def test_rauben_reduces_deal(players: int) -> None:
    """§8.9, A-35: with ``rauben_reduces_deal`` the robbing cutter is dealt only 12 cards:
    the card he would have got last goes back on top of the stock."""
    dealer = 1
    plain = ROMME.deal(
        ROMME.pieces(resolve(players)), list(range(110)), players, dealer, resolve(players)
    )
    layout = _robbed_layout(players, dealer, rauben_reduces_deal=True)
    cutter = (dealer - 1) % players
    assert [len(r) for r in layout.racks] == [13] * players
    assert 109 in layout.racks[cutter]
    assert layout.stock[0] == plain.racks[cutter][-1]
    assert sorted(layout.racks[cutter]) == sorted([*plain.racks[cutter][:-1], 109])
    assert len(layout.stock) == STOCK[players]


def test_no_robbing_without_a_joker_at_the_bottom_or_without_the_option() -> None:
    """§8.2: a natural card at the bottom of the cut changes nothing; without ``rauben`` a
    joker at the bottom simply stays the last card of the stock."""
    order = list(range(110))
    order[0], order[-1] = order[-1], order[0]  # a joker on top, AS#1 at the bottom
    game = Game(ROMME, 4, {"rauben": True}, walls=[order], maker=3, seed=0)
    assert [len(r) for r in game.racks] == [13] * 4 and len(game.stock) == STOCK[4]
    assert 109 in game.racks[0] and game.stock[0] == 0  # the forehand got the top card
    game = Game(ROMME, 4, walls=[list(range(110))], maker=3, seed=0)
    assert [len(r) for r in game.racks] == [13] * 4
    assert game.stock[0] == 109  # drawn last


def test_robbing_cutter_plays_with_fourteen_cards() -> None:
    """§8.2, A-35: in play the cutter (seat 2 when seat 3 deals to 4 players) holds 14
    cards, draws to 15 and discards back to 14; nobody else is affected."""
    game = romme_game(4, racks={2: "5H JK"}, options={"rauben": True})
    assert [len(r) for r in game.racks] == [13, 13, 14, 13] and "JK" in rack(game, 2)
    assert game.to_move == 0
    pass_turns(game, 2)
    assert game.to_move == 2
    draw(game)
    assert len(game.racks[2]) == 15
    play(game, "discard 5H")
    assert len(game.racks[2]) == 14 and game.to_move == 3
    assert_conserved(game)


# ================================================================== §8.3 turn structure


def test_turn_passes_clockwise_to_the_next_seat() -> None:
    """§8.1, §8.3: a turn is a draw and a discard; the turn then passes to the left
    neighbour, the next seat in play order."""
    game = romme_game(4)
    for expected in (0, 1, 2, 3, 0, 1):
        assert game.to_move == expected
        pass_turn(game)
    assert [len(r) for r in game.racks] == [13] * 4 and len(game.column) == 7


def test_exactly_one_draw_then_table_play_then_a_discard() -> None:
    """§8.3: nothing is melded or discarded before the draw; only one card is drawn or
    taken per turn."""
    game = romme_game(2, racks={0: "10S JS QS KS"})
    for text in ("meld [10S JS QS KS]", "discard 10S"):
        assert illegal(game, text).rule == "§8.3"
    draw(game)
    for text in ("draw", "take 0"):
        assert illegal(game, text).rule == "§8.3"


def test_only_the_top_discard_may_be_taken() -> None:
    """§8.3: the draw is the top card of the discard pile (the previous player's discard)
    or of the stock; older discards are out of reach."""
    game = romme_game(2)
    gone = pass_turn(game)
    assert len(game.column) == 2
    illegal(game, "take 0")
    play(game, "take 1")
    assert gone in rack(game, 1) and len(game.column) == 1


def test_taken_discard_cannot_be_discarded_again() -> None:
    """§2.5, A-03: the card taken from the discard pile may not be discarded in the same
    turn (by default); an identical copy from the hand may be; the option
    ``allow_discard_of_taken_discard`` lifts the rule."""
    game = romme_game(2, racks={1: "9C#2"}, discard="9C#1")
    play(game, "take 0")
    error = illegal(game, "discard 9C")
    assert error.rule == "§2.5/A-03"
    play(game, f"discard {spare(game, 0, '9C')}")
    assert "9C" in rack(game, 0)

    game = romme_game(2, racks={0: "9C#2"}, discard="9C#1")
    play(game, "take 0", "discard 9C")
    assert rack(game, 0).count("9C") == 1 and column(game) == ["9C"]

    game = romme_game(2, discard="9C", options={"allow_discard_of_taken_discard": True})
    play(game, "take 0", "discard 9C")
    assert column(game) == ["9C"] and game.to_move == 1


def test_taken_discard_may_be_kept_by_default() -> None:
    """§8.3: without the pick-up variation the taken card need not be melded."""
    assert ROMME.play_rules(resolve()).take_use is TakeUse.NONE
    game = romme_game(2, discard="9C")
    play(game, "take 0", f"discard {spare(game, 0, '9C')}")
    assert "9C" in rack(game, 0) and game.to_move == 1


def test_cards_on_the_table_never_return_to_the_hand() -> None:
    """§8.3: once a turn is committed its melds stay on the table: they cannot be reset,
    discarded or taken back."""
    game = romme_game(2, racks={0: "10S JS QS KS", 1: "10S JS QS KS"})
    drawn = draw(game)
    play(game, "meld [10S JS QS KS]", f"discard {drawn}")
    pass_turn(game)
    illegal(game, "reset")
    draw(game)
    assert "KS" not in rack(game, 0)
    illegal(game, "discard KS")
    assert table(game) == ["[10S JS QS KS]"]


# ------------------------------------------------------------------ pick-up variation


def pickup_game(p1: str, options: Mapping[str, Any] | None = None, p1_opens: bool = True) -> Game:
    """``discard_pickup_requires_immediate_meld``: P1 (opened with [10S JS QS KS] m1 if
    ``p1_opens``) and P2 (opened with [5H 6H 7H] m2 and [KC KD KH] m3, holding 8H#2);
    P2 discarded 8H#1, the top discard at the start of P1's second turn."""
    openings: dict[int, list[str]] = {1: ["meld [5H 6H 7H]", "meld [KC KD KH]"]}
    if p1_opens:
        openings[0] = ["meld [10S JS QS KS]"]
    game = romme_after_openings(
        2,
        racks={0: ("10S JS QS KS " if p1_opens else "") + p1, 1: "5H 6H 7H KC KD KH 8H#2"},
        openings=openings,
        stock="- 8H#1",
        options={**PICKUP, **(options or {})},
    )
    assert column(game)[-1] == "8H" and "8H" not in rack(game, 0)
    play(game, f"take {len(game.column) - 1}")
    return game


def test_pickup_rule_opened_player_may_lay_off_the_taken_card() -> None:
    """§8.3, A-37: a player opened before this turn may put the taken card on the table by
    laying it off."""
    game = pickup_game("")
    play(game, "attach 8H -> m2", f"discard {spare(game, 0)}")
    assert table(game)[1] == "[5H 6H 7H 8H]" and game.to_move == 1


def test_pickup_rule_opened_player_may_meld_the_taken_card() -> None:
    """§8.3, A-37: ... or by melding it in a new figure (no minimum once opened)."""
    game = pickup_game("8S 8D")
    play(game, "meld [8S 8D 8H]", f"discard {spare(game, 0)}")
    assert table(game)[-1] == "[8S 8D 8H]"


def test_pickup_rule_opened_player_cannot_keep_the_taken_card() -> None:
    """§8.3, A-37: keeping the taken card in hand rejects the turn."""
    game = pickup_game("")
    error = illegal(game, f"discard {spare(game, 0, '8H')}")
    assert error.rule == "§8.3/A-37"


def test_pickup_rule_unopened_player_must_open_with_the_taken_card() -> None:
    """A-37: an unopened player must open with the taken card; laying it off after an
    opening without it does not count, even where ``layoff_on_opening_turn`` allows the
    lay-off itself."""
    game = pickup_game("QS QH QD 4C 5C 6C", {"layoff_on_opening_turn": True}, p1_opens=False)
    play(game, "meld [QS QH QD]", "meld [4C 5C 6C]", "attach 8H -> m1")
    assert table(game)[0] == "[5H 6H 7H 8H]"
    error = illegal(game, f"discard {spare(game, 0)}")
    assert error.rule == "§8.3/A-37"


def test_pickup_rule_lay_off_while_holding_an_identical_copy() -> None:
    """§0.1, §8.3, A-37: P1 (opened) holds 8H#2, takes P2's discard 8H#1 and lays off one
    8H onto [5H 6H 7H]: an 8H reached the table and identical cards are equivalent, so
    the turn is legal."""
    game = romme_after_openings(
        2,
        racks={0: "10S JS QS KS 8H#2", 1: "5H 6H 7H KC KD KH"},
        openings={0: ["meld [10S JS QS KS]"], 1: ["meld [5H 6H 7H]", "meld [KC KD KH]"]},
        stock="- 8H#1",
        options=PICKUP,
    )
    play(game, f"take {len(game.column) - 1}", "attach 8H -> m2")
    play(game, f"discard {spare(game, 0, '8H')}")
    assert game.to_move == 1


# ================================================================== §8.4 figures


def readable(text: str, options: Mapping[str, Any] | None = None) -> bool:
    """Whether ``text`` (``"3S JK JK 6S"``, ``JK(5S)`` to declare) is a figure."""
    tokens = text.split()
    faces_ = [face(t.split("(")[0]) for t in tokens]
    declared = [face(t[t.index("(") + 1 : -1]) if "(" in t else None for t in tokens]
    return bool(read_meld(faces_, ROMME.rules_for(resolve(2, options)), declared))


@pytest.mark.parametrize(
    ("text", "legal"),
    [
        ("KS KH KC", True),
        ("3S 3H 3D 3C", True),
        ("KS KS KH", False),  # a suit twice
        ("3S 3H 3D 3C 3S", False),  # five cards
        ("KS KH", False),  # too short
        ("6H 6S JK", True),
        ("KS KH JK(KH)", False),  # the joker cannot be a suit already there
        ("5H 6H 7H", True),
        ("5H 6H 8H", False),
        ("5H 6S 7H", False),
        ("JH QH JK AH", True),  # JK = KH
        ("QD KD AD", True),
        ("AD 2D 3D", True),
        ("KD AD 2D", False),  # no wrap
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", True),  # 13 cards
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", True),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", False),  # an ace at both ends
        ("2S 3S JK(5S)", False),
        ("6H JK JK", False),  # one natural and two jokers
        ("JK JK JK", False),
        ("3S JK JK 6S", True),  # two adjacent jokers in a run of four
        ("3S JK JK JK 7S", True),  # two naturals suffice
        ("6H 6S JK JK", True),
    ],
)
def test_figures(text: str, legal: bool) -> None:
    """§8.4, A-11, A-38: sets are 3-4 cards of one rank in different suits; runs are 3+
    cards of one suit in sequence, the ace low or high but never both and no K-A-2; a
    joker stands for any card; every figure holds at least two natural cards."""
    assert readable(text) is legal


@pytest.mark.parametrize(
    ("options", "text", "legal"),
    [
        ({"min_naturals_per_figure": 1}, "6H JK JK", True),
        ({"min_naturals_per_figure": 3}, "3S JK JK 6S", False),
        ({"min_naturals_per_figure": 3}, "3S 4S JK 6S", True),
        ({"min_naturals_per_figure": 3}, "6H 6S JK", False),
        ({"jokers_le_naturals": True}, "3S JK JK JK 7S", False),
        ({"jokers_le_naturals": True}, "3S JK JK 6S", True),
        ({"jokers_le_naturals": True}, "6H 6S JK JK", True),
    ],
)
def test_joker_limit_options(options: Mapping[str, Any], text: str, legal: bool) -> None:
    """§8.9, A-38: ``min_naturals_per_figure`` and the stricter ``jokers_le_naturals``."""
    assert readable(text, options) is legal


def test_figures_in_play() -> None:
    """§8.4: the engine lays exactly the legal figures; jokers take the declared or the
    most valuable position (two adjacent jokers in a run of four)."""
    game = romme_game(2, racks={0: "KS#1 KS#2 KH 3S 6S JK JK 9D"})
    draw(game)
    illegal(game, "meld [KS KS KH]")
    illegal(game, "meld [9D JK JK]")
    play(game, "meld [3S JK JK 6S]")
    assert table(game) == ["[3S JK(4S) JK(5S) 6S]"]
    assert game.turn.laid_points == 18


def joker_rich_game(options: Mapping[str, Any]) -> Game:
    """P1 opened with [10S JS QS KS] (m1), [3D JK 5D] (m2) and [8H 8C JK] (m3); he keeps
    two jokers and has drawn for his second turn."""
    game = romme_after_openings(
        2,
        racks={0: "10S JS QS KS 3D 5D 8H 8C JK JK JK JK"},
        openings={0: ["meld [10S JS QS KS]", "meld [3D JK 5D]", "meld [8H 8C JK]"]},
        options=options,
    )
    assert table(game)[1:] == ["[3D JK(4D) 5D]", "[8H 8C JK]"]
    draw(game)
    return game


def test_lay_offs_keep_the_joker_limit_on_sets() -> None:
    """§8.5: every figure must stay valid after a lay-off; with ``jokers_le_naturals`` a
    set [8H 8C JK] takes one more joker (2 ≤ 2); by default the figure limit is only
    the two naturals."""
    game = joker_rich_game({"jokers_le_naturals": True})
    play(game, "attach JK -> m3")
    assert table(game)[2] == "[8H 8C JK JK]"
    illegal(game, "attach JK -> m3")  # a set has at most 4 cards


def test_lay_offs_keep_the_joker_limit_on_runs() -> None:
    """§8.5, A-38: with ``jokers_le_naturals`` the run [3D JK 5D JK] (2 jokers, 2
    naturals) cannot take a third joker."""
    game = joker_rich_game({"jokers_le_naturals": True})
    play(game, "attach JK(6D) -> m2")
    assert table(game)[1] == "[3D JK(4D) 5D JK(6D)]"
    illegal(game, "attach JK(7D) -> m2")


def test_lay_offs_may_add_jokers_by_default() -> None:
    """A-38: by default a run with two naturals may carry three jokers."""
    game = joker_rich_game({})
    play(game, "attach JK(6D) -> m2", "attach JK(7D) -> m2")
    assert table(game)[1] == "[3D JK(4D) 5D JK(6D) JK(7D)]"


# ================================================================== §8.5 opening


@pytest.mark.parametrize(
    ("kind", "position", "value"),
    [
        (MeldKind.RUN, 1, 1),  # low ace of A-2-3
        (MeldKind.RUN, 14, 11),  # ace after the king
        (MeldKind.SET, 1, 11),  # ace in a set
        (MeldKind.RUN, 13, 10),
        (MeldKind.RUN, 12, 10),
        (MeldKind.SET, 11, 10),
        (MeldKind.RUN, 10, 10),
        (MeldKind.SET, 7, 7),
        (MeldKind.RUN, 2, 2),
    ],
)
def test_opening_values(kind: MeldKind, position: int, value: int) -> None:
    """§8.5, Appendix A: K/Q/J 10, 2-10 face value, ace 1 only as the low ace of a run,
    else 11 (a joker takes the value of its position)."""
    assert opening_value(kind, position) == value


@pytest.mark.parametrize(
    ("melds", "points"),
    [
        (["AD 2D 3D", "KS KH KC"], 36),  # the low ace counts 1
        (["AD 2D 3D 4D", "KS KH KC"], 40),
        (["QS KS JK", "2C 3C 4C"], 40),  # the joker is the high ace, 11
        (["QS KS JK(JS)", "2C 3C 4C"], 39),  # declared as the jack, 10
        (["AS AH AD", "2C 3C 4C"], 42),  # aces in a set count 11
        (["JK(10S) JS QS KS"], 40),
        (["KS KH JK", "2C 3C 4C"], 39),  # a joker in a set of kings is worth 10
        (["AS AH JK", "2C 3C JK(4C)"], 42),
    ],
)
def test_opening_needs_40_points(melds: list[str], points: int) -> None:
    """§8.5, A-42: the figures of the first melding turn together reach 40 points, with
    the opening values above; below 40 the turn is rejected."""
    names = " ".join(t.split("(")[0] for m in melds for t in m.split())
    game = romme_game(2, racks={0: names})
    draw(game)
    play(game, *(f"meld [{m}]" for m in melds))
    assert game.turn.laid_points == points == view(game, 0).laid_points
    out = spare(game, 0)
    if points >= 40:
        play(game, f"discard {out}")
        assert game.opened[0] and game.to_move == 1
    else:
        error = illegal(game, f"discard {out}")
        assert error.rule == "§8.5" and str(points) in error.reason


def test_opening_min_points_option() -> None:
    """§8.9, A-42: ``opening_min_points`` = 30 lets [KS KH KC] open alone."""
    for minimum, legal in ((40, False), (30, True)):
        game = romme_game(2, racks={0: "KS KH KC"}, options={"opening_min_points": minimum})
        drawn = draw(game)
        play(game, "meld [KS KH KC]")
        assert game.can(Discard(face(drawn))) is legal


def test_later_melds_have_no_minimum() -> None:
    """§8.5: once open, a player melds figures of any value on later turns."""
    game = romme_after_openings(
        2, racks={0: "10S JS QS KS 2C 3C 4C"}, openings={0: ["meld [10S JS QS KS]"]}
    )
    drawn = draw(game)
    play(game, "meld [2C 3C 4C]", f"discard {drawn}")
    assert table(game) == ["[10S JS QS KS]", "[2C 3C 4C]"]


def test_lay_off_on_opening_turn_option() -> None:
    """§8.9, A-36: with ``layoff_on_opening_turn`` a player may lay off in his opening
    turn, but only after the opening figures; lay-offs do not count toward 40."""
    game = romme_after_openings(
        2,
        racks={0: "QH QS QD 4C 5C 6C 5H 2D 3D 4D", 1: "2H 3H 4H 10S JS QS KS"},
        openings={1: ["meld [2H 3H 4H]", "meld [10S JS QS KS]"]},
        options={"layoff_on_opening_turn": True},
    )
    draw(game)
    short = game.copy()
    illegal(game, "attach 5H -> m1")
    play(game, "meld [QH QS QD]", "meld [4C 5C 6C]", "attach 5H -> m1")
    assert table(game)[0] == "[2H 3H 4H 5H]"
    play(game, f"discard {spare(game, 0)}")
    assert game.opened[0]

    play(short, "meld [QH QS QD]", "meld [2D 3D 4D]", "attach 5H -> m1")
    assert short.turn.laid_points == 39  # the 5H does not count
    assert illegal(short, f"discard {spare(short, 0)}").rule == "§8.5"


# ------------------------------------------------------------------ lay-offs


def layoff_game() -> Game:
    """P1 opened with [10S JS QS KS] (m1); P2 opened with [2H 3H 4H] (m2), [KC KD KH]
    (m3) and [JD QD KD] (m4); P1 holds AH 5H 9S KS#2 AD 2D 7H 5D KH#2 and has drawn."""
    game = romme_after_openings(
        2,
        racks={0: "10S JS QS KS AH 5H 9S KS#2 AD 2D 7H 5D KH#2", 1: "2H 3H 4H KC KD KH JD QD KD"},
        openings={
            0: ["meld [10S JS QS KS]"],
            1: ["meld [2H 3H 4H]", "meld [KC KD KH]", "meld [JD QD KD]"],
        },
    )
    draw(game)
    return game


def test_lay_off_onto_any_figure_after_opening() -> None:
    """§8.5: an opened player adds single cards to any figure, his own or an opponent's,
    several in one turn: AH and 5H onto [2H 3H 4H], 9S onto his own run, KS onto the
    kings, AD after the king of diamonds."""
    game = layoff_game()
    play(
        game,
        "attach AH -> m2",
        "attach 5H -> m2",
        "attach 9S -> m1",
        "attach KS -> m3",
        "attach AD -> m4",
    )
    assert table(game) == [
        "[9S 10S JS QS KS]",
        "[AH 2H 3H 4H 5H]",
        "[KC KD KH KS]",
        "[JD QD KD AD]",
    ]
    assert game.table[1].owner == 1  # the figure stays P2's
    play(game, f"discard {spare(game, 0)}")
    assert game.to_move == 1


def test_lay_off_must_leave_a_valid_figure() -> None:
    """§8.4, §8.5: a lay-off must fit: no gap, no other suit, no second card of a suit in
    a set, no fifth card in a set, no K-A-2 and no ace at both ends."""
    game = layoff_game()
    for text in ("attach 7H -> m2", "attach 5D -> m2", "attach KH -> m3", "attach 2D -> m4"):
        illegal(game, text)
    play(game, "attach KS -> m3", "attach AH -> m2")
    illegal(game, "attach KS -> m3")  # a fifth king
    play(game, "attach AD -> m4")
    illegal(game, "attach 2D -> m4")  # K-A-2
    assert table(game)[1:] == ["[AH 2H 3H 4H]", "[KC KD KH KS]", "[JD QD KD AD]"]


def test_unopened_player_never_lays_off() -> None:
    """§8.3, §8.5: laying off needs a player who has made his first meld."""
    game = romme_after_openings(
        2,
        racks={0: "5H", 1: "2H 3H 4H 10S JS QS KS"},
        openings={1: ["meld [2H 3H 4H]", "meld [10S JS QS KS]"]},
    )
    draw(game)
    illegal(game, "attach 5H -> m1")


# ------------------------------------------------------------------ joker exchange


def exchange_game(
    p1: str,
    p2: str,
    p2_melds: list[str],
    *,
    p1_opens: bool = True,
    options: Mapping[str, Any] | None = None,
) -> Game:
    """P1 (opened with [10S JS QS KS] m1 if ``p1_opens``) holds ``p1``; P2 opened with
    ``p2_melds`` (m2, m3, ... or m1, m2, ...); P1 has drawn for his second turn."""
    openings: dict[int, list[str]] = {1: [f"meld [{m}]" for m in p2_melds]}
    if p1_opens:
        openings[0] = ["meld [10S JS QS KS]"]
    game = romme_after_openings(
        2,
        racks={0: ("10S JS QS KS " if p1_opens else "") + p1, 1: p2},
        openings=openings,
        options=options,
    )
    draw(game)
    return game


SIX_SET = ("6H 6S JK KC KH KD", ["6H 6S JK", "KC KH KD"])


def test_joker_exchange_needs_an_opened_player() -> None:
    """§8.5, A-39: a player who has not opened cannot exchange a joker."""
    game = exchange_game("6C 9D 10D", *SIX_SET, p1_opens=False)
    assert table(game)[0] == "[6H 6S JK]"
    error = illegal(game, "exchange 6C -> m1")
    assert error.rule == "§8.5/A-39"


def test_no_joker_exchange_in_the_opening_turn() -> None:
    """§8.5, A-39, Appendix B: the first meld must have been made in an earlier turn:
    opening with 45 points and then exchanging in the same turn is illegal."""
    game = exchange_game("QH QS QD 4C 5C 6C 6D 8D 9D", *SIX_SET, p1_opens=False)
    play(game, "meld [QH QS QD]", "meld [4C 5C 6C]")
    assert illegal(game, "exchange 6D -> m1").rule == "§8.5/A-39"


def test_joker_exchange_on_the_opening_turn_follows_the_lay_off_option() -> None:
    """§8.5 ("A-39; tied to layoff_on_opening_turn"): where lay-offs are allowed in the
    opening turn, so is a joker exchange after the opening figures."""
    game = exchange_game(
        "QH QS QD 4C 5C 6C 6D 8D 9D",
        *SIX_SET,
        p1_opens=False,
        options={"layoff_on_opening_turn": True},
    )
    play(game, "meld [QH QS QD]", "meld [4C 5C 6C]", "exchange 6D -> m1", "meld [8D 9D JK]")
    play(game, f"discard {spare(game, 0)}")
    assert table(game)[0] == "[6H 6S 6D]"


def test_set_joker_is_exchanged_for_either_missing_suit() -> None:
    """§8.5: [6H 6S JK] gives up its joker for 6C or for 6D, one card; a suit already in
    the set, another rank or two cards at once do not free it."""
    for card in ("6C", "6D"):
        game = exchange_game(f"{card} 9D 10D 6H#2 7C", *SIX_SET)
        for text in ("exchange 6H -> m2", "exchange 7C -> m2", "exchange 9D -> m3"):
            illegal(game, text)
        play(game, f"exchange {card} -> m2", "meld [9D 10D JK]")
        assert table(game)[1] == f"[6H 6S {card}]"
        play(game, f"discard {spare(game, 0)}")
    game = exchange_game("6C 6D", *SIX_SET)
    illegal(game, "exchange 6C 6D -> m2")


def test_run_joker_is_exchanged_only_for_the_card_it_represents() -> None:
    """§2.1(8), §8.5: in [8D JK(9D) 10D] only 9D frees the joker."""
    game = exchange_game("9D 9H 4C 5C", "8D JK 10D KC KH KD", ["8D JK 10D", "KC KH KD"])
    assert table(game)[1] == "[8D JK(9D) 10D]"
    illegal(game, "exchange 9H -> m2")
    play(game, "exchange 9D -> m2", "meld [4C 5C JK]")
    assert table(game)[1] == "[8D 9D 10D]"


def test_dskv_rule_on_a_four_card_set_and_on_runs() -> None:
    """§8.5, A-40: under ``dskv_strict_set_exchange`` [6H 6S 6C JK] is completed by 6D
    alone; runs are not affected."""
    options = {"dskv_strict_set_exchange": True}
    game = exchange_game(
        "6D 9D 4C 5C", "6H 6S 6C JK 8D JK 10D", ["6H 6S 6C JK", "8D JK 10D"], options=options
    )
    play(game, "exchange 6D -> m2", "exchange 9D -> m3", "meld [4C 5C JK JK]")
    assert table(game)[1:3] == ["[6H 6S 6C 6D]", "[8D 9D 10D]"]
    play(game, f"discard {spare(game, 0)}")


def test_exchanged_joker_may_not_be_laid_off() -> None:
    """§8.5, A-39: the freed joker must go into a new meld; a lay-off does not count and
    the turn is rejected."""
    game = exchange_game("6C 4H", *SIX_SET)
    play(game, "exchange 6C -> m2", "attach JK -> m1")
    error = illegal(game, f"discard {spare(game, 0)}")
    assert error.rule == "§8.5/A-39"


def test_joker_exchange_use_any_formation() -> None:
    """§8.9, A-39: ``joker_exchange_use = "any_formation"`` accepts a lay-off of the
    freed joker."""
    game = exchange_game("6C 4H", *SIX_SET, options={"joker_exchange_use": "any_formation"})
    play(game, "exchange 6C -> m2", "attach JK -> m1", f"discard {spare(game, 0)}")
    assert table(game)[0] == "[10S JS QS KS JK(AS)]" and game.to_move == 1


def test_freed_joker_may_go_into_a_new_meld_in_any_order() -> None:
    """§8.5: the new meld holding the freed joker is laid after the exchange, in the
    same turn, along with other table play."""
    game = exchange_game("6C 9D 10D 9S", *SIX_SET)
    play(game, "exchange 6C -> m2", "attach 9S -> m1", "meld [9D 10D JK]")
    play(game, f"discard {spare(game, 0)}")
    assert table(game)[-1] == "[9D 10D JK(JD)]"


def test_freed_joker_with_a_second_joker_in_hand() -> None:
    """§0.1, §8.5, A-39: P1 holds a joker and frees another: one joker is laid off and one
    goes into a new meld; as jokers are identical the order does not matter."""
    game = exchange_game("6C 9D 10D JK", *SIX_SET)
    other_order = game.copy()
    play(other_order, "exchange 6C -> m2", "meld [9D 10D JK]", "attach JK -> m1")
    assert other_order.can(Discard(face(spare(other_order, 0))))
    play(game, "exchange 6C -> m2", "attach JK -> m1", "meld [9D 10D JK]")
    assert table(game) == table(other_order)
    play(game, f"discard {spare(game, 0)}")


# ================================================================== §8.6 going out


def test_going_out_in_the_opening_turn_needs_40_points() -> None:
    """§8.5, §8.6: a player may meld his whole hand in his first melding turn and go out
    without a discard, but only if the figures reach 40 points; there is no Hand bonus."""
    game = romme_game(2, racks={0: "AH 2H 3H 4H 2S 2D 2C 3S 3D 3C AD 2D 3D"}, stock="4D")
    draw(game)
    play(game, "meld [AH 2H 3H 4H]", "meld [2S 2D 2C]", "meld [3S 3D 3C]")
    assert illegal(game, "meld [AD 2D 3D 4D]").rule == "§8.5"  # 35 points

    game = romme_game(2, racks={0: "AH 2H 3H 4H KS KD KC 3S 3D 3C AD 2D 3D"}, stock="4D")
    loser = penalty(game.rack_faces(1))
    draw(game)
    play(game, "meld [AH 2H 3H 4H]", "meld [KS KD KC]", "meld [3S 3D 3C]", "meld [AD 2D 3D 4D]")
    result = game.results[-1]
    assert game.phase is Phase.DEAL_END
    assert result.end == "out" and result.closer == 0 and result.closing_face is None
    assert result.scores == (0, -loser)  # not doubled


def test_going_out_by_discarding_the_last_card() -> None:
    """§8.6: the last card may be discarded (face down): it goes to the pile and is the
    closing card; the deal ends at once."""
    game = romme_game(2, racks={0: "10S JS QS KS 2H 3H 4H AC AD AH 7C 8C 9C"}, stock="QD")
    draw(game)
    play(game, "meld [10S JS QS KS]", "meld [2H 3H 4H]", "meld [AC AD AH]", "meld [7C 8C 9C]")
    assert rack(game, 0) == ["QD"]
    play(game, "discard QD")
    result = game.results[-1]
    assert result.end == "close" and result.closing_face == "QD" and column(game)[-1] == "QD"
    assert result.scores == (0, -penalty(game.rack_faces(1)))


# ================================================================== §8.8 scoring, match


def outcome(hand: str, closed: bool = False) -> SeatOutcome:
    return SeatOutcome(
        rack=tuple(faces(hand)),
        opened=True,
        board=False,
        three_violation=False,
        atu=False,
        closed=closed,
        table_value=0,
        rack_value=0,
    )


@pytest.mark.parametrize(
    ("hand", "value"),
    [
        ("AS", 11),
        ("KH", 10),
        ("QD", 10),
        ("JC", 10),
        ("10S", 10),
        ("7H", 7),
        ("2D", 2),
        ("JK", 30),
        ("AS KH 7H 2D JK", 60),
    ],
)
def test_penalty_values(hand: str, value: int) -> None:
    """§8.8, Appendix A: A 11, K/Q/J 10, 2-10 face value, joker 30."""
    scores = score_deal([outcome("", closed=True), outcome(hand)], False, None, resolve())
    assert scores == (0, -value)
    assert ROMME.score_value(face(hand.split()[0])) == penalty(hand.split()[0])


def test_losers_negative_winner_zero_or_collects() -> None:
    """§8.8, A-41: every loser is charged his hand as negative points and the winner
    records 0; with ``winner_collects`` the winner is credited with the sum; a deal with
    no winner scores nothing."""
    seats = [outcome("KS 2H"), outcome("", closed=True), outcome("JK AD")]
    assert score_deal(seats, False, None, resolve(3)) == (-12, 0, -41)
    assert score_deal(seats, False, None, resolve(3, {"winner_collects": True})) == (-12, 53, -41)
    nobody = [outcome("KS"), outcome("AD")]
    assert score_deal(nobody, False, None, resolve()) == (0, 0)


QUICK = "10H JH QH KH 7C 8C 9C AD AS AH 4D 5D 6D"


def quick_out(hand_seat: int, **others: str) -> dict[str, Any]:
    """A deal in which seat ``hand_seat`` (the first player) melds 13 cards in his first
    turn and discards the card he drew; ``others`` maps ``"p2"`` etc. to named cards."""
    racks = {int(k[1:]) - 1: v for k, v in others.items()}
    return {"racks": {hand_seat: QUICK, **racks}}


def play_quick_out(game: Game) -> None:
    drawn = draw(game)
    play(
        game,
        "meld [10H JH QH KH]",
        "meld [7C 8C 9C]",
        "meld [AD AS AH]",
        "meld [4D 5D 6D]",
        f"discard {drawn}",
    )


def test_played_deal_charges_every_loser() -> None:
    """§8.8: after P1 goes out, P2 and P3 are charged exactly their hands."""
    game = romme_match(3, [quick_out(0, p2="AS KH JK 2D", p3="JK 10C")])
    hands = [penalty(game.rack_faces(s)) for s in range(3)]
    play_quick_out(game)
    result = game.results[-1]
    assert result.scores == (0, -hands[1], -hands[2]) and game.totals == [0, -hands[1], -hands[2]]
    assert result.rack_values == (0, hands[1], hands[2])
    assert game.winners() == [0]


def test_match_lasts_one_deal_per_player_and_the_deal_passes_clockwise() -> None:
    """§8.1, §8.8, A-41, A-02: by default a match has as many deals as players; the deal
    passes to the next seat clockwise; the highest (least negative) total wins."""
    game = romme_match(2, [quick_out(0), quick_out(1, p1="JK JK")])
    assert game.maker == 1 and game.to_move == 0
    play_quick_out(game)
    assert game.phase is Phase.DEAL_END and game.winners() == [0]
    play(game, "next")
    assert game.maker == 0 and game.first_seat == game.to_move == 1
    play_quick_out(game)
    assert game.phase is Phase.MATCH_END and game.is_over and game.legal_actions() == []
    assert len(game.results) == 2 and game.totals[0] == game.results[1].scores[0]
    assert game.totals[0] < game.totals[1] < 0 and game.winners() == [1]
    assert match_over([0, 0, 0], 2, resolve(3)) is False
    assert match_over([0, 0, 0], 3, resolve(3)) is True
    assert match_over([0, 0], 1, resolve(2, {"match_deals": 1})) is True


def test_loss_limit_ends_the_match() -> None:
    """§8.9, A-41: with ``loss_limit`` the match ends once a total falls below −limit."""
    options = resolve(4, {"loss_limit": 100})
    assert match_over([-100, 0, 0, 0], 1, options) is False
    assert match_over([-101, 0, 0, 0], 1, options) is True
    game = romme_match(2, [quick_out(0), quick_out(1)], options={"loss_limit": 10})
    play_quick_out(game)
    assert game.totals[1] < -10 and game.phase is Phase.MATCH_END


def test_deal_passes_clockwise_with_four_players() -> None:
    """§8.1, §2.6: after each deal the next seat clockwise deals, and his left neighbour
    plays first."""
    game = romme_match(4, [quick_out(0), quick_out(1)])
    assert game.maker == 3
    play_quick_out(game)
    game.apply(NextDeal())
    assert game.maker == 0 and game.to_move == game.first_seat == 1
    assert len(game.column) == 1 and [len(r) for r in game.racks] == [13] * 4


# ================================================================== §8.7 stock exhaustion


def test_empty_stock_is_replaced_by_the_turned_over_discard_pile() -> None:
    """§8.7, §2.4, A-04: when the stock is empty at the start of a turn the whole discard
    pile is turned over (its oldest card on top) without shuffling; that turn the player
    must draw from the new stock."""
    game = romme_game(2, discard="QC")
    pass_turns(game, STOCK[2])
    assert game.stock and game.recycles == 1 and game.column == []
    assert len(game.stock) == STOCK[2] + 1
    assert stock_top(game, 1) == ["QC"]
    assert game.legal_actions() == [Draw()]
    illegal(game, "take 0")
    assert draw(game) == "QC"
    assert_conserved(game)


def test_recycle_shuffle_option() -> None:
    """§2.4: with ``recycle_shuffle`` the turned-over pile is shuffled; no card is lost."""
    game = romme_game(2, options={"recycle_shuffle": True})
    pass_turns(game, STOCK[2] - 1)
    pile = [*column(game), pass_turn(game)]
    assert game.recycles == 1 and game.column == []
    assert Counter(stock_top(game)) == Counter(pile) and stock_top(game) != pile
    assert_conserved(game)


@pytest.mark.parametrize("limit", [0, 1])
def test_max_stock_recycles_voids_the_deal(limit: int) -> None:
    """§2.4, A-05: once ``max_stock_recycles`` recycles happened, an empty stock ends the
    deal with no winner and no score."""
    game = romme_game(2, options={"max_stock_recycles": limit})
    turns = 0
    while in_play(game):
        pass_turn(game)
        turns += 1
    result = game.results[-1]
    assert result.end == "void" and result.closer is None and result.scores == (0, 0)
    assert game.recycles == limit
    assert turns == STOCK[2] + limit * (STOCK[2] + 1)


# ================================================================== illegal actions


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("draw", "§8.3"),
        ("take 0", "§8.3"),
        ("discard 8S", "§8.5"),
    ],
)
def test_illegal_actions_leave_the_state_unchanged_and_name_the_rule(text: str, rule: str) -> None:
    """§2.3: an illegal action is rejected with its rule and the game is unchanged
    (checked by ``illegal`` for every rejection in these tests)."""
    game = romme_game(2, racks={0: "QS QH QD 8S"})
    draw(game)
    play(game, "meld [QS QH QD]")
    error = illegal(game, text)
    assert error.rule.startswith(rule) and "RULES" in str(error)


def citation_game() -> Game:
    """P1 opened with [10S JS QS KS] (m1); P2 opened with [6H 6S JK] (m2) and
    [KC KH KD] (m3); P1 holds 6H 5C 9C KD 2C and has drawn."""
    return exchange_game("6H#2 5C 9C KD#2 2C", *SIX_SET)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("meld [KD 5C 9C]", "§8.4"),
        pytest.param("attach 2C -> m1", "§8.5"),
        pytest.param("exchange 6H -> m2", "§8.5"),
        ("draw", "§8.3"),
    ],
)
def test_rejections_cite_the_romme_rules(text: str, expected: str) -> None:
    """§8: an illegal Rommé action names the Rommé rule it breaks, not another
    variant's section."""
    error = illegal(citation_game(), text)
    assert error.rule.startswith(expected), error.rule


def test_lay_off_in_the_opening_turn_cites_a_36() -> None:
    """§8.5, A-36: the rejection of ROM-07's lay-off names A-36."""
    game = romme_after_openings(
        2,
        racks={0: "QH QS QD 4C 5C 6C 5H", 1: "2H 3H 4H 10S JS QS KS"},
        openings={1: ["meld [2H 3H 4H]", "meld [10S JS QS KS]"]},
    )
    draw(game)
    play(game, "meld [QH QS QD]", "meld [4C 5C 6C]")
    assert "A-36" in illegal(game, "attach 5H -> m1").rule


def test_dskv_rejection_cites_a_40() -> None:
    """§8.5, A-40: the rejected one-card exchange under the DSKV rule names A-40."""
    game = exchange_game("6C 6D", *SIX_SET, options={"dskv_strict_set_exchange": True})
    assert "A-40" in illegal(game, "exchange 6C -> m2").rule


# ================================================================== random play


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {**FOURTEENTH, "dskv_strict_set_exchange": True}),
        (4, {**PICKUP, "layoff_on_opening_turn": True, "rauben": True}),
        (
            5,
            {
                "jokers_per_deck": 2,
                "fourteenth_card_to": "forehand",
                **FOURTEENTH,
                "joker_exchange_use": "any_formation",
            },
        ),
    ],
)
def test_random_play_keeps_the_rules(players: int, options: Mapping[str, Any]) -> None:
    """Every listed action verifies and applies; no card is ever lost or duplicated; each
    deal's scores are the losers' hands, negated (§8.8)."""
    options = {**options, "max_stock_recycles": 1}
    rng = random.Random(players)
    game = Game(ROMME, players, options, seed=players)
    steps = 0
    while not game.is_over and steps < 4000:
        listed = game.legal_actions()
        # A turn can get stuck (e.g. melds short of 40 points): only then reset it.
        actions = [a for a in listed if not isinstance(a, ResetTurn)] or listed
        progress = [a for a in actions if not isinstance(a, Discard)]
        action = rng.choice(progress if progress and rng.random() < 0.8 else actions)
        game.verify(action)
        deals = len(game.results)
        game.apply(action)
        steps += 1
        assert_conserved(game)
        if len(game.results) > deals and (result := game.results[-1]).end != "void":
            assert result.scores == tuple(
                0 if s == result.closer else -penalty(game.rack_faces(s)) for s in range(players)
            )
    assert game.is_over and len(game.results) == players


def test_cards_notation_helpers() -> None:
    """The helpers read card notation as the engine does."""
    assert cards("KS 2S JK") == ["2S", "KS", "JK"]
    assert str(act("meld [9D 10D JK(JD)]")) == "meld [9D 10D JK(JD)]"


@pytest.mark.parametrize(
    ("players", "named"),
    [
        (2, {}),
        (2, {0: "JK", 1: "JK JK"}),
        (4, {0: "JK JK JK", 2: "JK JK"}),
        (6, {0: "5H JK", 3: "5H JK", 5: "JK JK"}),
    ],
)
def test_support_fillers_form_no_figure(players: int, named: Mapping[int, str]) -> None:
    """The stacked-deal helper's promise: with only jokers and lone named cards, no hand
    dealt to a seat can lay any figure (fillers never combine, even with the jokers)."""
    game = romme_game(players, racks=named)
    rules = ROMME.rules_for(game.options)
    for seat in range(players):
        kinds = [f.kind for f in game.rack_faces(seat)]
        assert candidates(counts_of(kinds), rules) == (), rack(game, seat)
