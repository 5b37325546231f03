"""Vienna / Rauber Rummy (``vienna``): every scenario of RULES §12.4 (VIE-nn), played
from stacked deals.  Seats are in play order; unless a test says otherwise the last
seat deals, so seat 0 is P1, the first player.  Racks named in full have a known
deadwood (RULES §6.8: A 11, joker 25, K/Q/J 10, 2-10 face value).
"""

from __future__ import annotations

import pytest

from kit import assert_conserved, draw, illegal, listed, pass_turn, play, rack
from rummykit.engine import Game, view
from rummykit.engine.game import Phase
from vienna_support import deadwood_of, shown, vienna_game, vienna_match

STOCK = {2: 87, 6: 47}

MELDED = "3H 4H 5H 7C 7C 7D 10S JS QS KS"
"""[3H 4H 5H] [7C 7C 7D] [10S JS QS KS]: ten cards, all melded."""


@pytest.mark.parametrize("players", [2, 6])
def test_vie_01_deal(players: int) -> None:
    """VIE-01, §6.1-§6.2: 108 cards; 10 each; an up-card; stock 87 / 47."""
    game = Game("vienna", players, seed=players)
    assert len(game.pieces) == 108
    assert [len(r) for r in game.racks] == [10] * players
    assert len(game.column) == 1
    assert len(game.stock) == STOCK[players]
    assert_conserved(game)
    seen = view(game, 0)
    assert seen.stock_count == STOCK[players] and len(seen.column) == 1


def test_vie_03_no_meld_on_the_table() -> None:
    """VIE-03, §6.3: in a normal turn P1 may not lay [3H 4H 5H] on the table."""
    game = vienna_game(3, racks={0: MELDED}, stock="2C")
    draw(game)
    error = illegal(game, "meld [3H 4H 5H]")
    assert error.rule == "§6.3"
    assert game.table == []
    play(game, "discard 2C")  # the turn goes on normally
    assert game.to_move == 1


def test_vie_05_close_face_down() -> None:
    """VIE-05, §6.6/§6.8: after drawing, P1's 10 cards form melds and the 11th, 9D, is
    unmatched; d(P2) = 12, d(P3) = 8.  Calling and discarding 9D face down is legal:
    d(P1) = 0 and P1 scores +20."""
    game = vienna_game(
        3,
        racks={
            0: MELDED,
            1: "AS 2S 3S 4S 8H 8D 8C 8S 2D KH",  # [AS..4S] [8S 8H 8D 8C], 2D + KH = 12
            2: "5D 6D 7D 8D QC QC QH QS 3C 5S",  # [5D..8D] [QS QH QC QC], 3C + 5S = 8
        },
        stock="9D",
    )
    assert draw(game) == "9D"
    assert listed(game, "remi 9D")
    play(game, "remi 9D")
    result = game.results[-1]
    assert result.end == "close" and result.closer == 0
    assert result.rack_values == (0, 12, 8)
    assert result.scores == (20, 0, 0)
    assert game.totals == [20, 0, 0]
    assert shown(game, 0) == "[10S JS QS KS] [3H 4H 5H] [7D 7C 7C] /"
    assert shown(game, 1) == "[AS 2S 3S 4S] [8S 8H 8D 8C] / KH 2D"
    assert shown(game, 2) == "[QS QH QC QC] [5D 6D 7D 8D] / 5S 3C"


def test_vie_07_caller_not_strictly_lower_fails() -> None:
    """VIE-07, §6.8/A-22: caller P1 d = 9, P2 d = 9, P3 d = 20.  P1 fails (not strictly
    lower); P2 scores 0 + 11 + 10 = 21; P1 records -20."""
    game = vienna_game(
        3,
        racks={
            0: "3H 4H 5H 7C 7C 7D 10S JS QS 4S",  # three melds; 4S and the draw 5D = 9
            1: "AS 2S 3S 8H 8D 8C JC QC KC 9H",  # three melds and 9H = 9
            2: "2H 3H 4H 5H 6D 6S 6H 6C JD KS",  # [2H..5H] [6D 6S 6H 6C], JD + KS = 20
        },
        stock="5D",
    )
    draw(game)
    play(game, "remi")
    result = game.results[-1]
    assert result.end == "call"
    assert result.rack_values == (9, 9, 20)
    assert result.scores == (-20, 21, 0)


def test_vie_09_close_needs_ten_melded_cards() -> None:
    """VIE-09, §6.6: P1's 11 cards are 9 in melds plus KH and 3C.  Calling and discarding
    KH is illegal; the plain call leaves d(P1) = 13."""
    game = vienna_game(3, racks={0: "3H 4H 5H 7C 7C 7D 10S JS QS KH"}, stock="3C")
    draw(game)
    assert rack(game, 0).count("KH") == 1 and "3C" in rack(game, 0)
    error = illegal(game, "remi KH")
    assert error.rule == "§6.6"
    illegal(game, "remi 3C")
    play(game, "remi")
    assert deadwood_of(game, 0) == 13
    assert shown(game, 0) == "[10S JS QS] [3H 4H 5H] [7D 7C 7C] / KH 3C"


def test_vie_11_two_players_tie() -> None:
    """VIE-11, §6.8: two players; caller d = 4, opponent d = 4.  The caller fails: the
    opponent scores 0 + 10, the caller -20."""
    game = vienna_game(
        2,
        racks={
            0: "3H 4H 5H 7C 7C 7D 10S JS QS 2D",  # draws 2C: 2D + 2C = 4
            1: "AS 2S 3S 8H 8D 8C JC QC KC 4D",  # 4D = 4
        },
        stock="2C",
    )
    draw(game)
    play(game, "remi")
    result = game.results[-1]
    assert result.rack_values == (4, 4)
    assert result.scores == (-20, 10)


def test_vie_13_highest_total_after_five_deals_wins() -> None:
    """VIE-13, §6.9: after five deals the totals are P1 40, P2 63, P3 -20: P2 wins.

    Deal 1 (P1 first): P1 closes; P2 and P3 hold 15 each: P1 +30.
    Deal 2 (P2 first): P2 closes; P1 and P3 hold 20 each: P2 +40.
    Deal 3 (P3 first): P3 calls with 5 against 5 and 5: he fails (-20), and P1, the
    first tied player after him, scores 0 + 0 + 10 (A-22).
    Deal 4 (P1 first): P1 draws and discards; P2 closes; P1 holds 10, P3 13: P2 +23.
    Deal 5 (P2 first): nobody calls; the stock runs out and, with
    ``max_stock_recycles = 0``, the deal is void (§2.4/A-05).
    """
    deals = [
        {
            "racks": {
                0: MELDED,
                1: "AS 2S 3S 4S 8H 8D 8C 8S 10D 5C",  # 10D + 5C = 15
                2: "5D 6D 7D 8D QC QC QH QS 9H 6C",  # 9H + 6C = 15
            },
            "stock": "9D",
        },
        {
            "racks": {
                1: MELDED,
                0: "AS 2S 3S 4S 8H 8D 8C 8S 10D KC",  # 10D + KC = 20
                2: "5D 6D 7D 8D QC QC QH QS 10H JC",  # 10H + JC = 20
            },
            "stock": "9D",
        },
        {
            "racks": {
                2: "3H 4H 5H 7C 7C 7D 10S JS QS 2C",  # draws 3D: 2C + 3D = 5
                0: "AS 2S 3S 8H 8D 8C JC QC KC 5H",  # 5H = 5
                1: "2H 3H 4H 6D 6S 6H JD QD KD 5C",  # 5C = 5
            },
            "stock": "3D",
        },
        {
            "racks": {
                1: MELDED,
                0: "AS 2S 3S 4S 8H 8D 8C 8S 6D 4C",  # 6D + 4C = 10
                2: "5D 6D 7D 8D QC QC QH QS 9H 4H",  # 9H + 4H = 13
            },
            "stock": "2C 9D",
        },
    ]
    game = vienna_match(3, deals, {"max_stock_recycles": 0})
    draw(game)
    play(game, "P1: remi 9D", "next")
    draw(game)
    play(game, "P2: remi 9D", "next")
    draw(game)
    play(game, "P3: remi", "next")
    pass_turn(game)
    draw(game)
    play(game, "P2: remi 9D", "next")
    assert [r.scores for r in game.results] == [
        (30, 0, 0),
        (0, 40, 0),
        (10, 0, -20),
        (0, 23, 0),
    ]
    assert [r.rack_values for r in game.results] == [
        (0, 15, 15),
        (20, 0, 20),
        (5, 5, 5),
        (10, 0, 13),
    ]
    assert game.to_move == 1 and not game.is_over
    while game.phase is Phase.TURNS:
        pass_turn(game)
    assert game.results[-1].end == "void" and game.results[-1].scores == (0, 0, 0)
    assert game.is_over and len(game.results) == 5
    assert game.totals == [40, 63, -20]
    assert game.winners() == [1]
    assert game.legal_actions() == []
