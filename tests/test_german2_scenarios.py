"""German Rummy for two (``german2``, RULES §5) through real play from stacked deals.

Every scenario of RULES §12.3 (GER-nn) has a test named after it; the other tests
cover the remaining rules of §5 and the ambiguity resolutions A-14 … A-20.  Seat 0
(P1) deals the first deal and, as dealer, plays first; seat 1 is P2.
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
from rummykit.engine import Game
from rummykit.engine.actions import Discard, Draw, NextDeal
from rummykit.engine.game import Phase
from rummykit.model import read_meld
from rummykit.rules.german2 import MELD_RULES, PENALTY

QUICK14 = ("AS 2S 3S 4S 5S", "6H 7H 8H 9H 10H", "QC QD QH QS")
"""Three melds that make up a whole 14-card hand."""


def penalty(game: Game, seat: int) -> int:
    """RULES §5.9 value of ``seat``'s hand (A = 10)."""
    return sum(PENALTY[f.rank] for f in game.rack_faces(seat))


def top(game: Game) -> str:
    """``take N`` for the top of the discard pile."""
    return f"take {len(game.column) - 1}"


def lay_out(game: Game, melds: tuple[str, ...]) -> None:
    """Draw, lay ``melds`` and discard the drawn card."""
    drawn = draw(game)
    play(game, *(f"meld [{m}]" for m in melds), f"discard {drawn}")


# ================================================================== §12.3 scenarios


def reference_packets(order: list[int], dealer: int) -> tuple[list[int], list[int]]:
    """An independent reading of §5.2: D3, then O2, D2 six times, then O2."""
    packets = [("D", 3)] + [("O", 2), ("D", 2)] * 6 + [("O", 2)]
    assert [f"{who}{size}" for who, size in packets] == (
        ["D3", "O2", "D2", "O2", "D2", "O2", "D2", "O2", "D2", "O2", "D2", "O2", "D2", "O2"]
    )
    hands: dict[str, list[int]] = {"D": [], "O": []}
    i = 0
    for who, size in packets:
        hands[who] += order[i : i + size]
        i += size
    return hands["D"], hands["O"]


@pytest.mark.parametrize("dealer", [0, 1])
def test_ger_01_packet_deal(dealer: int) -> None:
    """GER-01, §5.2: the dealer takes 3, then 2 at a time alternately to the opponent and
    himself (D3 O2 D2 … O2): dealer 15, opponent 14, stock 75, no up-card; the dealer acts
    first."""
    order = list(range(104))
    game = Game("german2", 2, walls=[order], maker=dealer, seed=0)
    dealt, other = reference_packets(order, dealer)
    assert sorted(game.racks[dealer]) == dealt and len(dealt) == 15
    assert sorted(game.racks[1 - dealer]) == other and len(other) == 14
    assert list(reversed(game.stock)) == list(range(29, 104))
    assert len(game.stock) == 75 and game.column == []
    assert game.first_seat == game.to_move == dealer and game.maker == dealer
    assert_conserved(game)


def test_ger_01_random_deals() -> None:
    """GER-01: with shuffled packs too: 15 and 14 cards, 75 in stock, no discard pile."""
    for seed in range(5):
        game = Game("german2", 2, seed=seed)
        assert len(game.racks[game.maker]) == 15 and len(game.racks[1 - game.maker]) == 14
        assert len(game.stock) == 75 and game.column == []
        assert game.to_move == game.maker


@pytest.mark.parametrize(
    ("meld", "legal"),
    [("8H 8H 8S", False), ("8H 8S 8D 8C", True), ("QD KD AD", True), ("KD AD 2D", False)],
)
def test_ger_03_meld_validation(meld: str, legal: bool) -> None:
    """GER-03, §5.4: sets need different suits (two packs: [8H 8H 8S] is no set); the ace
    is low or high, never in the middle ([KD AD 2D] is no run)."""
    assert bool(read_meld(tuple(map(face, meld.split())), MELD_RULES)) is legal
    game = card_game("german2", racks={1: "8H 8H 8S 8D 8C QD KD AD 2D"})
    pass_turn(game)
    draw(game)
    assert game.can(act(f"meld [{meld}]")) is legal
    assert listed(game, f"meld [{meld}]") is legal


def test_ger_05_opening_without_a_run_is_illegal() -> None:
    """GER-05, §5.5: [KS KH KD] + [QS QH QD] make 60 points but have no run: the turn
    cannot be committed; ``reset`` takes the melds back."""
    game = card_game("german2", racks={1: "KS KH KD QS QH QD"})
    pass_turn(game)
    drawn = draw(game)
    before = rack(game, 1)
    play(game, "P2: meld [KS KH KD]", "meld [QS QH QD]")
    assert game.turn.laid_points == 60
    err = illegal(game, f"discard {drawn}")
    assert err.rule == "§5.5" and "run" in err.reason
    assert not any(isinstance(a, Discard) for a in game.legal_actions())
    play(game, "reset")
    assert rack(game, 1) == before and game.table == [] and not game.opened[1]


def test_ger_07_opening_with_a_high_ace_run() -> None:
    """GER-07, §5.5, A-16: [QD KD AD] (the high ace counts 10: 30) + [9S 9H 9C] (27) make
    57 with a run: a legal opening."""
    game = card_game("german2", racks={1: "QD KD AD 9S 9H 9C"})
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [QD KD AD]", "meld [9S 9H 9C]")
    assert game.turn.laid_points == 57
    play(game, f"discard {drawn}")
    assert game.opened == [False, True]
    assert table(game) == ["[QD KD AD]", "[9S 9H 9C]"]
    assert game.table[0].positions == (12, 13, 14)


def ger_09_game(options: dict[str, object] | None = None) -> Game:
    """P1 opens in his second turn with [4H 5H 6H] (m1), [KS KH KD], [QS QH QD] and keeps
    7C 7S; P2 then discards 7H.  Returns the game at the start of P1's third turn."""
    game = card_game(
        "german2",
        racks={0: "4H 5H 6H KS KH KD QS QH QD 7C 7S 2D", 1: "7H"},
        options=options,
    )
    pass_turn(game, "2D")
    pass_turn(game)
    lay_out(game, ("4H 5H 6H", "KS KH KD", "QS QH QD"))
    assert game.opened[0]
    draw(game)
    play(game, "P2: discard 7H")
    assert column(game)[-1] == "7H" and game.to_move == 0
    return game


def test_ger_09a_taking_the_discard_to_lay_it_off_is_illegal() -> None:
    """GER-09 (a), §5.3, A-15: an opened P1 takes 7H to lay it off on [4H 5H 6H]: a lay-off
    is no new meld, so the turn cannot be committed."""
    game = ger_09_game()
    play(game, top(game), "attach 7H -> m1")
    assert table(game)[0] == "[4H 5H 6H 7H]"
    err = illegal(game, "discard 7C")
    assert err.rule == "§5.3/A-15" and "7H" in err.reason
    assert not any(isinstance(a, Discard) for a in game.legal_actions())
    play(game, "reset")
    assert column(game)[-1] == "7H" and table(game)[0] == "[4H 5H 6H]"


def test_ger_09b_taking_the_discard_for_a_new_meld_is_legal() -> None:
    """GER-09 (b), §5.3: P1 takes 7H and lays the new meld [7H 7C 7S]."""
    game = ger_09_game()
    play(game, top(game), "meld [7H 7C 7S]")
    out = rack(game, 0)[0]
    play(game, f"discard {out}")
    assert table(game)[-1] == "[7H 7C 7S]"
    assert game.table[-1].pieces[0] not in game.racks[0]
    assert game.to_move == 1 and column(game)[-1] == out


def test_taking_the_discard_needs_no_meld_without_the_option() -> None:
    """§5.10: with ``discard_take_requires_new_meld`` false the taken card may be laid off
    (or simply kept)."""
    game = ger_09_game({"discard_take_requires_new_meld": False})
    play(game, top(game), "attach 7H -> m1", "discard 7C")
    assert table(game)[0] == "[4H 5H 6H 7H]" and game.to_move == 1


def ger_11_game() -> Game:
    """GER-11 set-up: P1 opens with [4H 5H 6H 7H] (m1) and [KS KH KD] (m2) and discards
    JH; P2, unopened with 14 cards, is to move."""
    p2 = "2S 3S 4S 5S 6D 7D 8D AH 2H 3H 8H 9H 10H KC"
    game = card_game(
        "german2",
        racks={0: "4H 5H 6H 7H KS KH KD JH 2C 9S 9D QD 10C AS 3C", 1: p2},
        stock="- 5C",
    )
    play(game, "P1: discard 2C")
    pass_turn(game)
    play(game, "P1: draw", "meld [4H 5H 6H 7H]", "meld [KS KH KD]", "discard JH")
    assert rack(game, 0) == cards("9S 9D QD 10C AS 3C 5C")
    assert rack(game, 1) == cards(p2) and not game.opened[1]
    return game


@pytest.mark.parametrize("with_discard", [False, True])
def test_ger_11_hand_needs_no_opening(with_discard: bool) -> None:
    """GER-11, §5.6, A-18: unopened P2 takes the top discard, lays melds worth only 35
    and lays off the rest (the taken card too) onto P1's melds, emptying his hand with or
    without a final discard: a Hand; P2 wins, with no bonus; P1 is charged his hand
    (A counts 10): 9+9+10+10+10+3+5 = 56."""
    game = ger_11_game()
    play(game, f"P2: {top(game)}", "meld [2S 3S 4S 5S]", "meld [6D 7D 8D]")
    assert game.turn.laid_points == 35
    for card in ("3H", "2H", "AH", "8H", "9H", "10H", "JH"):
        play(game, f"attach {card} -> m1")
    assert table(game)[0] == "[AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH]"
    play(game, "discard KC" if with_discard else "attach KC -> m2")
    result = game.results[-1]
    assert result.closer == 1 and result.hand
    assert result.end == ("close" if with_discard else "out")
    assert result.scores == (56, 0) and game.totals == [56, 0]
    assert game.phase is Phase.DEAL_END


def test_unopened_lay_off_is_only_for_a_hand() -> None:
    """§5.3, §5.6: the GER-11 lay-offs without emptying the hand are no Hand, and as an
    opening the 35 points fall short: the turn cannot be committed."""
    game = ger_11_game()
    play(game, f"P2: {top(game)}", "meld [2S 3S 4S 5S]", "meld [6D 7D 8D]")
    for card in ("3H", "2H", "AH", "8H", "9H", "10H", "JH"):
        play(game, f"attach {card} -> m1")
    assert len(game.racks[1]) == 1 and game.phase is Phase.TURNS
    play(game, "reset")
    drawn = draw(game)
    play(game, "attach 3H -> m1")
    err = illegal(game, f"discard {drawn}")
    assert err.reason == "laying off before opening is allowed only in a Hand"


def test_ger_13_unopened_loser_pays_100() -> None:
    """GER-13, §5.9: P1 goes out while P2 never opened: P2 is charged a flat 100, whatever
    his hand (here it holds 2C 3D among its 14 cards)."""
    game = card_game("german2", racks={0: " ".join(QUICK14) + " 9D", 1: "2C 3D"})
    pass_turn(game, "9D")
    pass_turn(game)
    assert "2C" in rack(game, 1) and "3D" in rack(game, 1) and len(game.racks[1]) == 14
    assert penalty(game, 1) != 100
    lay_out(game, QUICK14)
    result = game.results[-1]
    assert result.closer == 0 and result.hand and result.scores == (0, 100)


def test_unopened_loser_penalty_option() -> None:
    """§5.10: ``unopened_loser_penalty`` replaces the flat 100."""
    game = card_game(
        "german2", racks={0: " ".join(QUICK14) + " 9D"}, options={"unopened_loser_penalty": 70}
    )
    pass_turn(game, "9D")
    pass_turn(game)
    lay_out(game, QUICK14)
    assert game.results[-1].scores == (0, 70)


# ================================================================== §5.2 dealer's first turn


OPENING = ("4H 5H 6H", "KS KH KD", "QS QH QD")


def test_dealers_first_turn_is_a_discard_only() -> None:
    """§5.2, A-14: the dealer neither draws nor melds on his first turn, even holding a
    valid opening; his discard starts the pile; then both hold 14."""
    game = card_game("german2", racks={0: " ".join(OPENING) + " 2D"})
    legal = game.legal_actions()
    assert legal and all(isinstance(a, Discard) for a in legal)
    assert illegal(game, "draw").rule == "§5.2/A-14"
    assert illegal(game, "meld [4H 5H 6H]").rule == "§5.2/A-14"
    assert illegal(game, "take 0").rule == "§5.2/A-14"
    play(game, "discard 2D")
    assert column(game) == ["2D"] and [len(r) for r in game.racks] == [14, 14]
    assert len(game.stock) == 75 and game.to_move == 1
    assert game.legal_actions() == [Draw(), act("take 0")]


def test_dealer_may_meld_first_turn_option() -> None:
    """A-14, §5.10: with ``dealer_may_meld_first_turn`` the dealer may open on his
    discard-only first turn (still without a draw)."""
    game = card_game(
        "german2",
        racks={0: " ".join(OPENING) + " 2D"},
        options={"dealer_may_meld_first_turn": True},
    )
    assert illegal(game, "draw").rule == "§5.2/A-14"
    play(game, *(f"meld [{m}]" for m in OPENING), "discard 2D")
    assert game.opened[0] and len(game.racks[0]) == 5 and len(game.stock) == 75


def test_dealer_first_turn_discard_only_option() -> None:
    """§5.10: with ``dealer_first_turn_discard_only`` false the dealer's first turn is a
    normal turn that starts with a draw."""
    game = card_game("german2", options={"dealer_first_turn_discard_only": False})
    assert game.legal_actions() == [Draw()]
    pass_turn(game)
    assert [len(r) for r in game.racks] == [15, 14] and len(game.stock) == 74


# ================================================================== §5.3 taking the discard


def test_unopened_take_must_be_part_of_a_full_opening() -> None:
    """§5.3, A-15, A-17: an unopened player who takes the discard must open with it this
    turn: [7H 7C 7S] + [9D 10D JD] make 50, and a lay-off does not count towards 51;
    [7H 7C 7S] + [9D 10D JD QD] make 60 and open."""
    game = card_game("german2", racks={0: "7H", 1: "7C 7S 9D 10D JD QD"})
    play(game, "P1: discard 7H", "P2: take 0", "meld [7H 7C 7S]")
    err = illegal(game, f"discard {rack(game, 1)[0]}")
    assert err.rule == "§5.5" and "21" in err.reason
    play(game, "meld [9D 10D JD]", "attach QD -> m2")
    assert game.turn.laid_points == 50
    err = illegal(game, f"discard {rack(game, 1)[0]}")
    assert err.rule == "§5.5" and "50" in err.reason
    play(game, "reset", "take 0", "meld [7H 7C 7S]", "meld [9D 10D JD QD]")
    assert game.turn.laid_points == 60
    play(game, f"discard {rack(game, 1)[0]}")
    assert game.opened[1] and len(game.racks[1]) == 14 + 1 - 7 - 1


def test_unopened_take_without_a_meld_is_illegal() -> None:
    """§5.3, A-15: an unopened player cannot take the top discard just to keep it."""
    game = card_game("german2", racks={0: "7H"})
    play(game, "P1: discard 7H", "P2: take 0")
    err = illegal(game, f"discard {rack(game, 1)[0]}")
    assert err.rule == "§5.3/A-15"
    assert game.legal_actions() == [act("reset")]


# ================================================================== §5.5 opening values


@pytest.mark.parametrize(
    ("melds", "points", "legal"),
    [
        (("AS 2S 3S", "KH KD KC", "5H 5D 5C"), 51, True),
        (("AS 2S 3S", "KH KD KC", "2D 3D 4D 5D"), 50, False),
        (("AS 2S 3S 4S", "AH AD AC", "6H 6D 6C"), 58, True),
        (("JS QS KS AS", "2H 3H 4H"), 49, False),
        (("JS QS KS AS", "2H 3H 4H 5H"), 54, True),
    ],
)
def test_opening_needs_51_points_and_counts_the_low_ace_as_1(
    melds: tuple[str, ...], points: int, legal: bool
) -> None:
    """§5.5, A-16: the ace counts 1 as the low ace of a run (A-2-3…), 10 in a set or high
    in a run; courts 10, pips face value; the opening needs at least 51 (exactly 51 is
    enough)."""
    game = card_game("german2", racks={1: " ".join(melds)})
    pass_turn(game)
    drawn = draw(game)
    play(game, *(f"P2: meld [{m}]" for m in melds))
    assert game.turn.laid_points == points
    if legal:
        play(game, f"discard {drawn}")
        assert game.opened[1]
    else:
        err = illegal(game, f"discard {drawn}")
        assert err.rule == "§5.5" and str(points) in err.reason


@pytest.mark.parametrize(
    ("options", "legal"),
    [
        ({"opening_requires_run": False}, True),
        ({"opening_min_points": 61}, False),
        ({"opening_min_points": 60, "opening_requires_run": False}, True),
    ],
)
def test_opening_options(options: dict[str, object], legal: bool) -> None:
    """§5.10: ``opening_requires_run`` and ``opening_min_points`` change GER-05's verdict
    (60 points of sets)."""
    game = card_game("german2", racks={1: "KS KH KD QS QH QD"}, options=options)
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [KS KH KD]", "meld [QS QH QD]")
    assert game.can(Discard(face(drawn))) is legal


# ================================================================== §5.3 lay-offs


def test_lay_offs_after_opening_on_own_and_opponents_melds() -> None:
    """§5.3: once opened (in an earlier turn) a player lays off onto his own and the
    opponent's melds."""
    game = card_game(
        "german2",
        racks={0: "4H 5H 6H KS KH KD QS QH QD 2D", 1: "9C 10C JC QC KC AC 8S 8D 8H 7H 3H"},
    )
    pass_turn(game, "2D")
    lay_out(game, ("9C 10C JC QC KC AC", "8S 8D 8H"))  # 9+10+10+10+10+10 + 24 = 83
    lay_out(game, OPENING)
    drawn = draw(game)
    play(game, "P2: attach 7H -> m3", "attach 3H -> m3")
    assert table(game)[2] == "[3H 4H 5H 6H 7H]"
    play(game, f"discard {drawn}")
    assert game.table[2].owner == 0


def test_lay_off_in_the_opening_turn_is_allowed_but_not_counted() -> None:
    """A-17: right after the opening melds the player may lay off in the same turn; the
    lay-off does not count towards the 51."""
    game = card_game("german2", racks={1: "4H 5H 6H KS KH KD QS QH QD 7H"})
    pass_turn(game)
    drawn = draw(game)
    play(game, *(f"P2: meld [{m}]" for m in OPENING))
    assert game.turn.laid_points == 75
    play(game, "attach 7H -> m1")
    assert game.turn.laid_points == 75
    play(game, f"discard {drawn}")
    assert game.opened[1] and table(game)[0] == "[4H 5H 6H 7H]"


def test_layoff_on_opening_turn_option() -> None:
    """§5.10: with ``layoff_on_opening_turn`` false, lay-offs wait for a later turn."""
    game = card_game(
        "german2",
        racks={1: "4H 5H 6H KS KH KD QS QH QD 7H"},
        options={"layoff_on_opening_turn": False},
    )
    pass_turn(game)
    drawn = draw(game)
    play(game, *(f"P2: meld [{m}]" for m in OPENING), "attach 7H -> m1")
    illegal(game, f"discard {drawn}")
    play(game, "reset", *(f"meld [{m}]" for m in OPENING), f"discard {drawn}")
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: attach 7H -> m1", f"discard {drawn}")
    assert table(game)[0] == "[4H 5H 6H 7H]"


# ================================================================== §5.7 going out


def opened_p1_with(keep: str, stock: str, options: dict[str, object] | None = None) -> Game:
    """P1 opens in his second turn (OPENING) keeping the five cards ``keep``; P2 passes;
    P1 is to move."""
    game = card_game(
        "german2", racks={0: " ".join(OPENING) + f" {keep} 2D"}, stock=stock, options=options
    )
    pass_turn(game, "2D")
    pass_turn(game)
    lay_out(game, OPENING)
    assert rack(game, 0) == cards(keep)
    pass_turn(game)
    return game


def test_going_out_without_a_discard_after_opening() -> None:
    """§5.7, A-18: going out by melding the last cards needs no discard."""
    game = opened_p1_with("9S 9D 9H 10C JC", "- - - QC")
    play(game, "P1: draw", "meld [9S 9D 9H]", "meld [10C JC QC]")
    result = game.results[-1]
    assert result.end == "out" and result.closer == 0 and not result.hand
    assert result.scores == (0, 100)


def test_going_out_without_a_discard_can_be_switched_off() -> None:
    """§5.10: with ``allow_go_out_without_discard`` false the last card is discarded."""
    game = opened_p1_with("9S 9D 9H 10C JC", "- - - QC", {"allow_go_out_without_discard": False})
    play(game, "P1: draw", "meld [9S 9D 9H]")
    illegal(game, "meld [10C JC QC]")
    play(game, "discard QC")
    assert game.phase is Phase.TURNS


# ================================================================== §5.8 exhaustion


def test_stock_exhaustion_turns_the_pile_over() -> None:
    """A-20, §2.4: the whole discard pile, oldest card on top, becomes the new stock."""
    game = card_game("german2")
    pass_turn(game)
    while len(game.stock) > 1:
        pass_turn(game)
    drawn = draw(game)
    pile = [*column(game), drawn]
    assert len(pile) == 76
    play(game, f"discard {drawn}")
    assert game.recycles == 1 and column(game) == [] and stock_top(game) == pile
    assert game.legal_actions() == [Draw()]
    assert_conserved(game)


def test_max_stock_recycles_voids_the_deal() -> None:
    """A-05, A-20: with ``max_stock_recycles`` 0 an empty stock ends the deal unscored."""
    game = card_game("german2", options={"max_stock_recycles": 0})
    pass_turn(game)
    pass_turns(game, 75)
    assert game.phase is Phase.DEAL_END
    assert game.results[-1].end == "void" and game.results[-1].scores == (0, 0)


# ================================================================== §5.9 match


def test_match_ends_strictly_above_200_and_the_deal_alternates() -> None:
    """§5.1, §5.9, A-02, A-19: penalties accumulate; exactly 200 does not end the match,
    more does; the other player wins (lowest total).  The deal alternates, and each
    dealer plays first."""
    dealer_rack = {0: " ".join(QUICK14) + " 9D"}
    deals = [
        {"racks": dealer_rack},
        {"racks": {0: " ".join(QUICK14)}},
        {"racks": dealer_rack},
    ]
    game = card_match("german2", 2, deals)
    expected_totals = ([0, 100], [0, 200], [0, 300])
    for k in range(3):
        assert game.maker == k % 2 and game.first_seat == game.to_move == k % 2
        if k % 2 == 0:
            pass_turn(game, "9D")
            pass_turn(game)
        else:
            pass_turn(game)
        assert game.to_move == 0
        lay_out(game, QUICK14)
        assert game.totals == expected_totals[k]
        if k < 2:
            assert game.phase is Phase.DEAL_END
            game.apply(NextDeal())
    assert game.phase is Phase.MATCH_END
    assert game.winners() == [0]


def test_match_loss_threshold_option() -> None:
    """§5.10: ``match_loss_threshold`` moves the line: a total above it ends the match."""
    game = card_game(
        "german2", racks={0: " ".join(QUICK14) + " 9D"}, options={"match_loss_threshold": 99}
    )
    pass_turn(game, "9D")
    pass_turn(game)
    lay_out(game, QUICK14)
    assert game.phase is Phase.MATCH_END and game.winners() == [0]


# ================================================================== rule citations, bugs


GERMAN2_RULES = (("§2", "§5"), [*range(1, 6), *range(14, 21)])
"""German Rummy's own sections, the shared ones, and the ambiguities it uses."""
CITATION_BUG = (
    "BUG: in a german2 game the engine cites remi_ro sections (§9.x) for this rejection "
    "instead of the German Rummy rule (§5.x)"
)


def opened_p1_turn(options: dict[str, object] | None = None) -> Game:
    """P1 opened in his second turn keeping 9S 9D 9H 10C JC, and has just drawn QC."""
    game = opened_p1_with("9S 9D 9H 10C JC", "- - - QC", options)
    draw(game)
    return game


@pytest.mark.parametrize(
    ("text", "options"),
    [
        pytest.param("draw", None, id="second-draw"),
        pytest.param("discard 2S", None, id="discard-not-held"),
        pytest.param("meld [9S 9D]", None, id="short-meld"),
        pytest.param("attach 10C -> m1", None, id="misfit-lay-off"),
        pytest.param("meld [9S 9D 10C]", None, id="mixed-meld"),
        pytest.param("next", None, id="next-mid-deal"),
    ],
)
def test_rejections_cite_german2_rules(text: str, options: dict[str, object] | None) -> None:
    """§2.3: a rejected action names its rule: a section of German Rummy (§5), a shared one
    (§2) or one of its ambiguities, not a rule of another variant."""
    game = opened_p1_turn(options)
    err = illegal(game, text)
    assert not foreign_sections(err.rule, *GERMAN2_RULES), f"{text!r} cites {err.rule}"


def test_go_out_switched_off_cites_german2_rules() -> None:
    """A-18: with ``allow_go_out_without_discard`` false the rejection of a last meld cites
    A-18/§5.7."""
    game = opened_p1_with("9S 9D 9H 10C JC", "- - - QC", {"allow_go_out_without_discard": False})
    play(game, "P1: draw", "meld [9S 9D 9H]")
    err = illegal(game, "meld [10C JC QC]")
    assert not foreign_sections(err.rule, *GERMAN2_RULES), err.rule


def test_unopened_lay_off_cites_german2_rules() -> None:
    """§5.3, §5.6: the rejection of an unopened lay-off (no Hand) cites German Rummy only."""
    game = ger_11_game()
    drawn = draw(game)
    play(game, "P2: attach 3H -> m1")
    err = illegal(game, f"discard {drawn}")
    assert not foreign_sections(err.rule, *GERMAN2_RULES), err.rule


def test_discarding_a_copy_of_the_laid_taken_card() -> None:
    """§2.5, §5.3: P1 holds 7H 7C 7S, takes P2's 7H (the second copy) and lays it in
    [7H 7C 7S]; his own 7H stays in hand.  Whether or not that discard is allowed,
    ``legal_actions()`` and ``can()`` must agree about it."""
    game = card_game(
        "german2",
        racks={0: " ".join(OPENING) + " 7H#1 7C 7S 9C 2D", 1: "7H#2"},
    )
    pass_turn(game, "2D")
    pass_turn(game)
    lay_out(game, OPENING)
    draw(game)
    play(game, "P2: discard 7H")
    play(game, f"P1: {top(game)}", "meld [7H 7C 7S]")
    taken = game.pieces.parse_piece("7H#2")
    assert taken in game.table[-1].pieces and game.pieces.parse_piece("7H#1") in game.racks[0]
    assert game.can(Discard(face("7H"))) == listed(game, "discard 7H")


def test_stacked_deal_record_replays() -> None:
    """GER-11's record (with its explicit deal order) replays to the same result."""
    import json

    from rummykit.engine.record import record_of, replay

    game = ger_11_game()
    play(
        game,
        f"P2: {top(game)}",
        "meld [2S 3S 4S 5S]",
        "meld [6D 7D 8D]",
        *(f"attach {c} -> m1" for c in ("3H", "2H", "AH", "8H", "9H", "10H", "JH")),
        "attach KC -> m2",
    )
    again = replay(json.loads(json.dumps(record_of(game))))
    assert again.results == tuple(game.results) and again.game.totals == [56, 0]
