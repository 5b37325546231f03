"""Basic Rummy (``basic``, RULES §3) through real play from stacked deals.

Every scenario of RULES §12.1 (BAS-nn) has a test named after it; the other tests
cover the remaining rules of §3 and the shared rules it uses (§2.4–§2.6).  Seats
are in play order: unless a test says otherwise the last seat deals, so seat 0
is P1, the first player.
"""

from __future__ import annotations

import pytest

from card_support import act, card_game, card_match, cards, face, foreign_sections
from kit import (
    assert_conserved,
    column,
    draw,
    illegal,
    listed,
    pass_turn,
    pass_turns,
    play,
    rack,
    stock_top,
    table,
)
from rummykit.engine import Game, view
from rummykit.engine.actions import Discard, Draw, Meld, NextDeal, TakeColumn
from rummykit.engine.game import Phase
from rummykit.rules.basic import VALUES

DEALT = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
STOCK = {2: 31, 3: 30, 4: 23, 5: 21, 6: 15}


def hand_points(game: Game, seat: int) -> int:
    """RULES §3.8 value of the cards in ``seat``'s hand."""
    return sum(VALUES[f.rank] for f in game.rack_faces(seat))


QUICK_MELDS = {
    10: ("AH 2H 3H 4H", "KS KH KD", "7C 7D 7S"),
    7: ("AH 2H 3H 4H", "KS KH KD"),
    6: ("AH 2H 3H", "KS KH KD"),
}
"""Melds that make up a whole dealt hand, by hand size."""


def quick_out_rack(players: int) -> str:
    """Cards that the first player lays out at once (draw, meld all, discard the draw)."""
    return " ".join(QUICK_MELDS[DEALT[players]])


def quick_out(game: Game, players: int) -> None:
    """The first player of the deal goes out in his first turn: a Hand."""
    drawn = draw(game)
    play(game, *(f"meld [{m}]" for m in QUICK_MELDS[DEALT[players]]), f"discard {drawn}")


# ================================================================== §12.1 scenarios


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bas_01_deal_sizes_up_card_stock_and_first_player(players: int) -> None:
    """BAS-01, §3.2: 10/7/7/6/6 cards each, one up-card starting the discard pile, a stock
    of 31/30/23/21/15, and the dealer's right-hand neighbour, (dealer + 1) in play order,
    acts first."""
    for dealer in range(players):
        game = Game("basic", players, maker=dealer, seed=100 * players + dealer)
        assert [len(r) for r in game.racks] == [DEALT[players]] * players
        assert len(game.column) == 1
        assert len(game.stock) == STOCK[players]
        assert game.maker == dealer
        assert game.first_seat == game.to_move == (dealer + 1) % players
        assert game.phase is Phase.TURNS
        assert_conserved(game)
        seen = view(game, game.to_move)
        assert seen.stock_count == STOCK[players] and len(seen.column) == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bas_01_cards_are_dealt_one_at_a_time_from_the_dealers_right(players: int) -> None:
    """BAS-01, §3.2: one card at a time, starting with the dealer's right-hand neighbour
    and going round in play order; the next card is turned up; the rest is the stock."""
    dealer = players - 2
    order = list(range(52))
    game = Game("basic", players, walls=[order], maker=dealer, seed=0)
    first = (dealer + 1) % players
    size = DEALT[players]
    for k in range(players):
        seat = (first + k) % players
        assert sorted(game.racks[seat]) == [k + players * i for i in range(size)]
    assert game.column == [players * size]
    assert list(reversed(game.stock)) == list(range(players * size + 1, 52))


def test_bas_03_ace_is_low_only_and_there_is_no_wrap() -> None:
    """BAS-03, §3.4: [QS KS AS] and [KD AD 2D] are not runs (ace low only, no wrap)."""
    game = card_game("basic", 3, racks={0: "QS KS AS KD AD 2D 3D"})
    draw(game)
    for text in ("meld [QS KS AS]", "meld [KD AD 2D]", "meld [AS KS QS]"):
        illegal(game, text)
    for action in game.legal_actions():
        if isinstance(action, Meld) and len({f.suit for f in action.faces}) == 1:
            assert not {1, 13} <= {f.rank for f in action.faces}, action
    play(game, "meld [AD 2D 3D]")  # the low ace is fine
    assert table(game) == ["[AD 2D 3D]"]


def bas_05_game() -> Game:
    """P2 lays [4S 5S 6S] (m1) and [3C 4C 5C] (m2); P1 lays off 6C..10C on m2 and is left
    with 7S 9D; in his third turn he draws KC."""
    game = card_game(
        "basic",
        3,
        racks={0: "6C 7C 8C 9C 10C 7S 9D", 1: "4S 5S 6S 3C 4C 5C"},
        stock="- - - - - - KC",
    )
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [4S 5S 6S]", "meld [3C 4C 5C]", f"discard {drawn}")
    pass_turn(game)
    drawn = draw(game)
    play(game, *(f"attach {c} -> m2" for c in ("6C", "7C", "8C", "9C", "10C")), f"discard {drawn}")
    pass_turns(game, 2)
    assert game.to_move == 0
    draw(game)
    return game


def test_bas_05_lay_off_before_own_first_meld() -> None:
    """BAS-05, §3.3: a player who never melded lays off onto another player's meld."""
    game = bas_05_game()
    assert rack(game, 0) == cards("7S 9D KC")
    assert not game.opened[0] and table(game)[0] == "[4S 5S 6S]"
    assert listed(game, "attach 7S -> m1")
    play(game, "attach 7S -> m1", "discard 9D")
    assert table(game)[0] == "[4S 5S 6S 7S]"
    assert rack(game, 0) == ["KC"]
    assert column(game)[-1] == "9D" and game.to_move == 1
    assert game.table[0].owner == 1
    assert_conserved(game)


def test_lay_off_onto_own_meld_and_at_both_ends() -> None:
    """§3.3: lay-offs go onto any meld, including one's own, at either end of a run."""
    game = card_game("basic", 3, racks={0: "5H 6H 7H 4H 8H 9S 9D"})
    draw(game)
    play(game, "meld [5H 6H 7H]", "attach 4H -> m1", "attach 8H -> m1")
    assert table(game) == ["[4H 5H 6H 7H 8H]"]
    illegal(game, "attach 9S -> m1")


def test_bas_07_going_out_without_a_discard_ends_the_deal() -> None:
    """BAS-07, §3.6, A-06: with 9C 9D in hand, P1 draws 9H and melds all three: the deal
    ends at once, without a discard, and P1 wins it."""
    game = card_game("basic", 3, racks={0: "2H 3H 4H 5H 6H 9C 9D"}, stock="- - - 9H")
    drawn = draw(game)
    play(game, "meld [2H 3H 4H 5H 6H]", f"discard {drawn}")
    pass_turns(game, 2)
    assert rack(game, 0) == cards("9C 9D")
    assert draw(game) == "9H"
    meld = act("meld [9C 9D 9H]")
    assert listed(game, meld)
    losers = hand_points(game, 1) + hand_points(game, 2)
    before_pile = column(game)
    game.apply(meld)
    assert game.phase is Phase.DEAL_END
    result = game.results[-1]
    assert result.end == "out" and result.closer == 0 and result.closing_face is None
    assert not result.hand  # P1 melded in an earlier turn
    assert result.scores == (losers, 0, 0)
    assert column(game) == before_pile  # nothing was discarded
    assert game.legal_actions() == [NextDeal()]


def test_bas_09_winner_collects_every_opponents_hand() -> None:
    """BAS-09, §3.8: P1 goes out normally (with a final discard, having melded earlier);
    P2 holds KH 5D AC and P3 2S 3S: P1 scores 10+5+1+2+3 = 21, the others 0."""
    game = card_game(
        "basic",
        3,
        racks={0: "3H 4H 5H 6H JS QS KS", 1: "KH 5D AC 7D 8D 9D 10D", 2: "2S 3S 6C 7C 8C 9C 10C"},
    )
    for seat, meld in enumerate(("[3H 4H 5H 6H]", "[7D 8D 9D 10D]", "[6C 7C 8C 9C 10C]")):
        drawn = draw(game)
        play(game, f"P{seat + 1}: meld {meld}", f"discard {drawn}")
    assert rack(game, 1) == cards("KH 5D AC") and rack(game, 2) == cards("2S 3S")
    drawn = draw(game)
    play(game, "P1: meld [JS QS KS]", f"discard {drawn}")
    result = game.results[-1]
    assert result.end == "close" and result.closer == 0 and result.closing_face == drawn
    assert not result.hand
    assert result.scores == (21, 0, 0) and game.totals == [21, 0, 0]
    assert result.rack_values == (0, 16, 5)


def bas_10_game(options: dict[str, object] | None = None) -> Game:
    """BAS-10 set-up: P1 holds 3H 4H 5H 6H 8C 8D 8S as dealt at the start of his second
    turn; P2 holds KS QS JD 10C and P3 AS 2D; the stock top is 7H."""
    game = card_game(
        "basic",
        3,
        racks={0: "3H 4H 5H 6H 8C 8D 8S", 1: "KS QS JD 10C 4D 5D 6D", 2: "AS 2D 2C 3C 4C 5C 6C"},
        stock="- - - 7H",
        options=options,
    )
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [4D 5D 6D]", f"discard {drawn}")
    drawn = draw(game)
    play(game, "P3: meld [2C 3C 4C 5C 6C]", f"discard {drawn}")
    assert rack(game, 1) == cards("KS QS JD 10C")
    assert rack(game, 2) == cards("AS 2D")
    assert game.to_move == 0 and len(game.racks[0]) == 7
    return game


def test_bas_10_hand_doubles_the_score() -> None:
    """BAS-10, §3.6, §3.8, A-07: P1, who has laid nothing yet and holds as many cards as he
    was dealt, draws 7H and melds everything with no discard: a Hand, 43 × 2 = 86."""
    game = bas_10_game()
    play(game, "P1: draw", "meld [3H 4H 5H 6H 7H]", "meld [8C 8D 8S]")
    result = game.results[-1]
    assert result.end == "out" and result.closer == 0 and result.hand
    assert result.scores == (86, 0, 0) and game.totals == [86, 0, 0]


def test_hand_with_a_final_discard_is_doubled_too() -> None:
    """§3.6, A-07: a Hand may end with a final discard; it still doubles."""
    game = bas_10_game()
    drawn = draw(game)
    assert drawn == "7H"
    play(game, "meld [3H 4H 5H 6H]", "meld [8C 8D 8S]", "discard 7H")
    result = game.results[-1]
    assert result.end == "close" and result.hand and result.closing_face == "7H"
    assert result.scores == (86, 0, 0)


@pytest.mark.parametrize(("multiplier", "expected"), [(1, 43), (3, 129)])
def test_hand_bonus_multiplier_option(multiplier: int, expected: int) -> None:
    """§3.9: ``hand_bonus_multiplier`` replaces the ×2 of a Hand."""
    game = bas_10_game({"hand_bonus_multiplier": multiplier})
    play(game, "P1: draw", "meld [3H 4H 5H 6H 7H]", "meld [8C 8D 8S]")
    assert game.results[-1].hand and game.results[-1].scores == (expected, 0, 0)


def test_bas_11_going_out_after_an_earlier_lay_off_is_not_a_hand() -> None:
    """BAS-11, §3.6: P1 laid off one card in an earlier turn (6 cards at the start of this
    turn); going out now is not a Hand: P1 scores 43, undoubled."""
    game = card_game(
        "basic",
        3,
        racks={0: "4H 5H 6H 8C 8D 8S 7D", 1: "KS QS JD 10C 4D 5D 6D", 2: "AS 2D 2C 3C 4C 5C 6C"},
        stock="- - - - - - 7H",
    )
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [4D 5D 6D]", f"discard {drawn}")
    drawn = draw(game)
    play(game, "P3: meld [2C 3C 4C 5C 6C]", f"discard {drawn}")
    drawn = draw(game)
    play(game, "P1: attach 7D -> m1", f"discard {drawn}")
    pass_turns(game, 2)
    assert len(game.racks[0]) == 6 and not game.opened[0]
    play(game, "P1: draw", "meld [4H 5H 6H 7H]", "meld [8C 8D 8S]")
    result = game.results[-1]
    assert result.end == "out" and result.closer == 0 and not result.hand
    assert result.scores == (43, 0, 0)


def test_bas_13_first_player_may_take_the_up_card() -> None:
    """BAS-13, §3.3: at the start of the deal P1 may take the turned-up card."""
    game = card_game("basic", 3, discard="8H")
    assert column(game) == ["8H"]
    assert game.legal_actions() == [Draw(), TakeColumn(0)]
    play(game, "P1: take 0")
    assert "8H" in rack(game, 0) and column(game) == [] and len(game.racks[0]) == 8
    out = next(c for c in rack(game, 0) if c != "8H")
    play(game, f"discard {out}")
    assert column(game) == [out]


def test_bas_15_empty_stock_turns_the_discard_pile_over() -> None:
    """BAS-15, §2.4, §3.7: at the start of P3's turn the stock is empty and the discard
    pile (oldest → newest) is 4C 9H QS: it is turned over without a shuffle, so the stock
    reads 4C 9H QS from the top, the pile is empty, P3 can only draw, and draws 4C.

    The set-up takes the rest of the stock out of play just before P2's discard (the
    engine cannot otherwise reach a 3-card pile at exhaustion)."""
    game = card_game("basic", 3, racks={0: "9H", 1: "QS"}, discard="4C")
    pass_turn(game, "9H")
    draw(game)
    game.stock.clear()
    play(game, "P2: discard QS")
    assert game.to_move == 2 and game.recycles == 1
    assert stock_top(game) == ["4C", "9H", "QS"]
    assert column(game) == [] and view(game, 2).stock_count == 3
    assert game.legal_actions() == [Draw()]
    illegal(game, "take 0")
    assert draw(game) == "4C"


# ================================================================== §3.3 drawing


def test_only_the_top_discard_may_be_taken() -> None:
    """§3.3: the draw is the stock top or the top discard; no deeper discard."""
    game = card_game("basic", 3)
    pass_turns(game, 2)
    assert game.to_move == 2 and len(game.column) == 3
    assert game.legal_actions() == [Draw(), TakeColumn(2)]
    for index in (0, 1, 3):
        illegal(game, f"take {index}")
    top = column(game)[-1]
    play(game, "take 2")
    assert top in rack(game, 2) and len(game.column) == 2


def test_exactly_one_draw_per_turn() -> None:
    """§3.3: exactly one card is drawn; nothing is laid or discarded before it."""
    game = card_game("basic", 3, racks={0: "9C 9D 9H"})
    illegal(game, "discard 9C")
    illegal(game, "meld [9C 9D 9H]")
    draw(game)
    illegal(game, "draw")
    illegal(game, "take 0")


def test_taken_discard_cannot_be_discarded_again_by_default() -> None:
    """§2.5, A-03: the card taken from the discard pile is not discarded the same turn."""
    game = card_game("basic", 3, racks={0: "2C"}, discard="8H")
    play(game, "take 0")
    err = illegal(game, "discard 8H")
    assert err.rule == "§2.5/A-03"
    assert Discard(face("8H")) not in game.legal_actions()
    assert Discard(face("2C")) in game.legal_actions()
    play(game, "discard 2C")
    assert column(game) == ["2C"]


def test_taken_discard_may_be_discarded_with_the_option() -> None:
    """§2.5: ``allow_discard_of_taken_discard`` lets the taken card go straight back."""
    game = card_game("basic", 3, discard="8H", options={"allow_discard_of_taken_discard": True})
    before = rack(game, 0)
    play(game, "take 0")
    assert Discard(face("8H")) in game.legal_actions()
    play(game, "discard 8H")
    assert column(game) == ["8H"] and rack(game, 0) == before and game.to_move == 1


def test_a_drawn_stock_card_may_be_discarded() -> None:
    """§3.3: a player with nothing to meld draws and discards, even the card drawn."""
    game = card_game("basic", 3)
    drawn = draw(game)
    assert Discard(face(drawn)) in game.legal_actions()
    play(game, f"discard {drawn}")
    assert column(game)[-1] == drawn


# ================================================================== §3.4 melds


def test_melds_need_three_cards_and_sets_distinct_suits() -> None:
    """§3.4: at least 3 cards; a run is one suit; a set is one rank (at most 4)."""
    game = card_game("basic", 3, racks={0: "7C 7D 7H 7S 8C 9C 10D"})
    draw(game)
    for text in ("meld [7C 7D]", "meld [8C 9C 10D]", "meld [7C 8C]", "meld [7D 8C 9C]"):
        illegal(game, text)
    play(game, "meld [7C 7D 7H 7S]")
    assert table(game) == ["[7C 7D 7H 7S]"]


def test_ace_low_run_and_lay_offs_respect_the_low_ace() -> None:
    """§3.4: A-2-3 is a run; an ace is laid off below a 2, never above a king."""
    game = card_game("basic", 3, racks={0: "2S 3S 4S AS", 1: "JD QD KD AD"})
    drawn = draw(game)
    play(game, "meld [2S 3S 4S]", "attach AS -> m1", f"discard {drawn}")
    assert table(game) == ["[AS 2S 3S 4S]"]
    assert game.table[0].positions == (1, 2, 3, 4)
    draw(game)
    play(game, "P2: meld [JD QD KD]")
    illegal(game, "attach AD -> m2")


# ================================================================== §3.6 going out


def test_going_out_without_a_discard_can_be_switched_off() -> None:
    """§3.9: with ``allow_go_out_without_discard`` false the last card must be discarded,
    so melding the whole hand is illegal; melding all but one and discarding works."""
    game = card_game(
        "basic",
        3,
        racks={0: "2H 3H 4H 5H 6H 9C 9D"},
        stock="- - - 9H",
        options={"allow_go_out_without_discard": False},
    )
    drawn = draw(game)
    play(game, "meld [2H 3H 4H 5H 6H]", f"discard {drawn}")
    pass_turns(game, 2)
    draw(game)
    illegal(game, "meld [9C 9D 9H]")
    assert not any(str(a).startswith("meld") for a in game.legal_actions())
    play(game, "discard 9H")
    assert game.phase is Phase.TURNS


def test_going_out_by_a_final_lay_off() -> None:
    """§3.6, A-06: going out also works by laying off the last cards, with no discard."""
    game = card_game("basic", 3, racks={0: "2H 3H 4H 5H 6H 7H 8H"}, stock="- - - 9H")
    drawn = draw(game)
    play(game, "meld [2H 3H 4H 5H 6H]", f"discard {drawn}")
    pass_turns(game, 2)
    losers = hand_points(game, 1) + hand_points(game, 2)
    play(game, "P1: draw", "attach 7H -> m1", "attach 8H -> m1")
    assert game.phase is Phase.TURNS and rack(game, 0) == ["9H"]
    play(game, "attach 9H -> m1")
    result = game.results[-1]
    assert result.end == "out" and result.closer == 0 and not result.hand
    assert result.scores == (losers, 0, 0)
    assert table(game) == ["[2H 3H 4H 5H 6H 7H 8H 9H]"]


# ================================================================== §2.4/§3.7 exhaustion


def exhaust(game: Game) -> list[str]:
    """Pass turns until the stock is empty; return the pile (oldest first) just after the
    last discard (read before the next turn recycles it)."""
    while len(game.stock) > 1 or game.turn.acquired is not None:
        pass_turn(game)
    drawn = draw(game)
    assert not game.stock
    return [*column(game), drawn]


def test_stock_exhaustion_turns_the_pile_over_oldest_first() -> None:
    """§2.4, §3.7: when the stock runs out the whole pile becomes the stock with its oldest
    card on top; the pile is empty and the next player can only draw."""
    game = card_game("basic", 2)
    pile = exhaust(game)
    assert len(pile) == STOCK[2] + 1
    mover = game.to_move
    play(game, f"discard {pile[-1]}")
    assert game.to_move == 1 - mover
    assert game.recycles == 1 and column(game) == []
    assert stock_top(game) == pile
    assert game.legal_actions() == [Draw()]
    assert draw(game) == pile[0]
    assert_conserved(game)


def test_recycle_shuffle_shuffles_the_turned_pile() -> None:
    """§2.4: with ``recycle_shuffle`` the new stock is the old pile in a random order
    (taken from the game's seeded RNG, so replays agree)."""
    orders = []
    for _ in range(2):
        game = card_game("basic", 2, options={"recycle_shuffle": True})
        pile = exhaust(game)
        play(game, f"discard {pile[-1]}")
        assert sorted(stock_top(game)) == sorted(pile) and column(game) == []
        orders.append(stock_top(game))
    assert orders[0] == orders[1]
    assert orders[0] != pile


@pytest.mark.parametrize("limit", [0, 1])
def test_max_stock_recycles_voids_the_deal(limit: int) -> None:
    """§2.4, A-05: once ``max_stock_recycles`` recycles have happened, the next empty stock
    ends the deal with no winner and no score."""
    game = card_game("basic", 2, options={"max_stock_recycles": limit})
    for _ in range(limit):
        pile = exhaust(game)
        play(game, f"discard {pile[-1]}")
        assert game.phase is Phase.TURNS and game.recycles == 1
    pile = exhaust(game)
    play(game, f"discard {pile[-1]}")
    assert game.phase is Phase.DEAL_END
    result = game.results[-1]
    assert result.end == "void" and result.closer is None
    assert result.scores == (0, 0) and game.totals == [0, 0]
    assert game.legal_actions() == [NextDeal()]


# ================================================================== §3.8 match


def test_target_score_is_reached_or_exceeded() -> None:
    """§3.8, A-08: in ``target`` mode the match ends as soon as a total reaches the target
    (equal counts); below it the next deal follows."""
    assert Game("basic", 3, seed=1).options["target_score"] == 750
    game = bas_10_game({"target_score": 86})
    play(game, "P1: draw", "meld [3H 4H 5H 6H 7H]", "meld [8C 8D 8S]")
    assert game.phase is Phase.MATCH_END and game.is_over
    assert game.winners() == [0] and game.legal_actions() == []
    game = bas_10_game({"target_score": 87})
    play(game, "P1: draw", "meld [3H 4H 5H 6H 7H]", "meld [8C 8D 8S]")
    assert game.phase is Phase.DEAL_END and not game.is_over


def test_default_target_match_goes_on_below_750() -> None:
    """§3.8: the default match is a race to 750; one deal does not end it."""
    game = bas_10_game()
    play(game, "P1: draw", "meld [3H 4H 5H 6H 7H]", "meld [8C 8D 8S]")
    assert game.totals == [86, 0, 0] and game.phase is Phase.DEAL_END


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_deals_mode_and_dealer_rotation(players: int) -> None:
    """§3.8, §2.6, A-02: ``match_mode = "deals"`` ends after ``match_deals`` deals, highest
    total wins; each deal the dealer is the next seat in play order, and the first player
    is the new dealer's right-hand neighbour."""
    n_deals = players
    deals = []
    for k in range(n_deals):
        first = k % players  # dealer players-1+k, so the first player is seat k
        deals.append({"racks": {first: quick_out_rack(players)}})
    game = card_match(
        "basic", players, deals, options={"match_mode": "deals", "match_deals": n_deals}
    )
    scores = []
    for k in range(n_deals):
        assert game.maker == (players - 1 + k) % players
        assert game.first_seat == game.to_move == k % players
        others = sum(hand_points(game, s) for s in range(players) if s != game.to_move)
        quick_out(game, players)
        result = game.results[-1]
        assert result.hand and result.closer == k % players
        assert result.scores[k % players] == 2 * others
        scores.append(result.scores)
        if k < n_deals - 1:
            assert game.phase is Phase.DEAL_END
            game.apply(NextDeal())
    assert game.phase is Phase.MATCH_END
    totals = [sum(s[i] for s in scores) for i in range(players)]
    assert game.totals == totals
    assert game.winners() == [s for s, t in enumerate(totals) if t == max(totals)]


def test_next_deal_rotates_the_dealer_after_a_void_deal() -> None:
    """§2.6: a void deal (A-05) also passes the deal on."""
    game = card_game("basic", 4, options={"max_stock_recycles": 0}, dealer=1)
    assert game.first_seat == 2
    pile = exhaust(game)
    play(game, f"discard {pile[-1]}")
    assert game.results[-1].end == "void"
    game.apply(NextDeal())
    assert game.maker == 2 and game.first_seat == game.to_move == 3
    assert game.deal_number == 1 and len(game.column) == 1


# ================================================================== illegal actions


def test_illegal_actions_leave_the_state_unchanged_and_name_the_rule() -> None:
    """§2.3: a rejected action changes nothing and names its rule."""
    game = card_game("basic", 3, racks={0: "9C 9D 2S"}, discard="8H")
    assert illegal(game, "discard 9C").rule == "§3.3"
    assert illegal(game, "take 1").rule.startswith("§2")
    play(game, "take 0")
    assert illegal(game, "draw").rule == "§3.3"
    assert illegal(game, "discard 8H").rule == "§2.5/A-03"
    assert illegal(game, "discard KC").rule == "§2.3"
    assert illegal(game, "next").rule
    play(game, "reset")
    assert column(game) == ["8H"] and game.turn.acquired is None


BASIC_RULES = (("§2", "§3"), range(1, 9))
"""Basic Rummy's own sections and the ambiguities A-01 … A-08 it uses."""


def test_foreign_sections_helper() -> None:
    """The helper accepts §2.x, §3.x and A-01…A-08 and flags the rest."""
    assert foreign_sections("§2.5/A-03", *BASIC_RULES) == []
    assert foreign_sections("§3.3", *BASIC_RULES) == []
    assert foreign_sections("§9.6(2)", *BASIC_RULES) == ["§9.6(2)"]
    assert foreign_sections("§5.6/§9.6(2)", *BASIC_RULES) == ["§5.6", "§9.6(2)"]
    assert foreign_sections("§12.1/A-15", *BASIC_RULES) == ["§12.1", "A-15"]


CITATION_BUG = (
    "BUG: in a basic game the engine cites remi_ro sections (§9.x) for this rejection "
    "instead of the Basic Rummy rule (§3.x)"
)


def two_card_game(options: dict[str, object] | None = None) -> Game:
    """P1 has laid [2H 3H 4H 5H 6H] (m1), keeps 9C 9D and has just drawn 9H."""
    game = card_game(
        "basic", 3, racks={0: "2H 3H 4H 5H 6H 9C 9D"}, stock="- - - 9H", options=options
    )
    drawn = draw(game)
    play(game, "meld [2H 3H 4H 5H 6H]", f"discard {drawn}")
    pass_turns(game, 2)
    draw(game)
    return game


@pytest.mark.parametrize(
    ("text", "options"),
    [
        pytest.param("meld [9C 9H 2H]", None, id="card-not-held"),
        pytest.param("discard 9S", None, id="discard-not-held"),
        pytest.param("draw", None, id="second-draw"),
        pytest.param("meld [9C 9D]", None, id="short-meld"),
        pytest.param("attach 9C -> m1", None, id="misfit-lay-off"),
        pytest.param("attach 9C -> m7", None, id="no-such-meld"),
        pytest.param(
            "meld [9C 9D 9H]", {"allow_go_out_without_discard": False}, id="go-out-switched-off"
        ),
        pytest.param("next", None, id="next-mid-deal"),
    ],
)
def test_rejections_cite_basic_rules(text: str, options: dict[str, object] | None) -> None:
    """§2.3: a rejected action names the rule it breaks: a section of Basic Rummy (§3) or a
    shared one (§2, A-01…A-08), not a rule of another variant."""
    game = two_card_game(options)
    err = illegal(game, text)
    assert not foreign_sections(err.rule, *BASIC_RULES), f"{text!r} cites {err.rule}"


# ================================================================== engine bugs


def test_invalid_meld_of_the_whole_hand_is_rejected() -> None:
    """§3.4, §3.6: melding the whole hand as a non-meld ([9C 9D 2H] is neither a run nor a
    set) is illegal: ``can`` is False and ``apply`` raises IllegalActionError."""
    game = card_game("basic", 3, racks={0: "2S 3S 4S 5S 6S 9C 9D"}, stock="- - - 2H")
    drawn = draw(game)
    play(game, "meld [2S 3S 4S 5S 6S]", f"discard {drawn}")
    pass_turns(game, 2)
    draw(game)
    assert rack(game, 0) == cards("2H 9C 9D")
    illegal(game, "meld [9C 9D 2H]")


def test_misfit_lay_off_of_the_last_card_is_rejected() -> None:
    """§3.3, §3.6: laying off a last card that fits no meld is illegal, and ``can`` says so
    without raising."""
    game = card_game("basic", 3, racks={0: "2H 3H 4H 5H 6H 7H 8H"}, stock="- - - KC")
    drawn = draw(game)
    play(game, "meld [2H 3H 4H 5H 6H]", f"discard {drawn}")
    pass_turns(game, 2)
    play(game, "P1: draw", "attach 7H -> m1", "attach 8H -> m1")
    assert rack(game, 0) == ["KC"]
    err = illegal(game, "attach KC -> m1")
    assert "fit" in err.reason


def test_a_copy_played_ahead_leaves_the_hand_intact() -> None:
    """BAS-10 once more, after a search copy played a different (laying) turn for P1: the
    original is unchanged, so P1's going out is still a Hand worth 86."""
    game = bas_10_game()
    other = game.copy()
    drawn = draw(other)
    play(other, "meld [3H 4H 5H 6H]", f"discard {drawn}")
    assert other.has_laid[0]
    assert not game.has_laid[0], "the copy's turn leaked into the original"
    play(game, "P1: draw", "meld [3H 4H 5H 6H 7H]", "meld [8C 8D 8S]")
    assert game.results[-1].hand and game.results[-1].scores == (86, 0, 0)


def test_stacked_deal_record_replays() -> None:
    """A stacked deal's record (with its explicit deal order) replays to the same result."""
    import json

    from rummykit.engine.record import record_of, replay

    game = bas_10_game()
    play(game, "P1: draw", "meld [3H 4H 5H 6H 7H]", "meld [8C 8D 8S]")
    record = json.loads(json.dumps(record_of(game)))
    assert record["walls"] is not None
    again = replay(record)
    assert again.results == tuple(game.results) and again.game.totals == game.totals
