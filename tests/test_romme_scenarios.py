"""German Rommé (``romme``): every scenario of RULES §12.6 (ROM-nn), through real play
from stacked deals.

Seats are in play order (clockwise).  Unless a test says otherwise the dealer is the
last seat, so seat 0 (P1), his left-hand neighbour, acts first; "opened" means the
player laid his first meld in an earlier turn.  Options are at their defaults unless
a test sets them.
"""

from __future__ import annotations

import pytest

from card_support import act, cards, faces
from kit import assert_conserved, column, draw, illegal, pass_turn, play, rack, table
from romme_support import penalty, romme_after_openings, romme_game
from rummykit.engine import Game, view
from rummykit.engine.actions import Draw, NextDeal, TakeColumn
from rummykit.engine.game import Phase
from rummykit.model.melds import read_meld
from rummykit.rules.romme import ROMME

STOCK = {2: 83, 3: 70, 4: 57, 5: 44, 6: 31}


# ------------------------------------------------------------------ ROM-01


@pytest.mark.parametrize("players", [4, 6])
def test_rom_01_deal_packets_up_card_stock_and_first_player(players: int) -> None:
    """ROM-01, §8.1, §8.2, A-33: 110 cards; 13 each in packets of 3, 3, 3 and 4 dealt
    clockwise from the dealer's left; the next card is turned up; the stock holds
    57 (4 players) / 31 (6 players); the dealer's left neighbour acts first and draws
    normally (the up-card or the stock)."""
    options = ROMME.resolve(players)
    assert len(ROMME.pieces(options)) == 110
    order = list(range(110))
    for dealer in range(players):
        game = Game(ROMME, players, walls=[order], maker=dealer, seed=0)
        forehand = (dealer + 1) % players
        for k in range(players):
            seat = (forehand + k) % players
            dealt = [order[3 * (r * players + k) + i] for r in range(3) for i in range(3)]
            dealt += order[9 * players + 4 * k : 9 * players + 4 * k + 4]
            assert sorted(game.racks[seat]) == sorted(dealt)
        assert [len(r) for r in game.racks] == [13] * players
        assert game.column == [order[13 * players]]
        assert len(game.stock) == STOCK[players]
        assert game.stock[-1] == order[13 * players + 1]  # drawn first
        assert game.first_seat == game.to_move == forehand != dealer
        assert game.legal_actions() == [Draw(), TakeColumn(0)]
        assert_conserved(game)
        seen = view(game, forehand)
        assert seen.stock_count == STOCK[players] and len(seen.column) == 1
    # A normal first turn: draw a stock card, then discard to pass the turn clockwise.
    game = Game(ROMME, players, seed=players, maker=players - 1)
    assert game.to_move == 0
    pass_turn(game)
    assert len(game.racks[0]) == 13 and len(game.column) == 2 and game.to_move == 1


# ------------------------------------------------------------------ ROM-03


def test_rom_03_ace_high_or_low_but_no_wrap() -> None:
    """ROM-03, §8.4: [QD KD AD] is a run (high ace), [KD AD 2D] is not (no K-A-2 wrap),
    [AD 2D 3D] is a run (low ace)."""
    rules = ROMME.rules_for(ROMME.resolve(2))
    assert read_meld(faces("QD KD AD"), rules)
    assert not read_meld(faces("KD AD 2D"), rules)
    assert read_meld(faces("AD 2D 3D"), rules)
    game = romme_game(2, racks={0: "QD KD AD#1 AD#2 2D 3D"})
    draw(game)
    illegal(game, "meld [KD AD 2D]")
    assert game.can(act("meld [QD KD AD]")) and game.can(act("meld [AD 2D 3D]"))
    play(game, "meld [QD KD AD]", "meld [AD 2D 3D]")
    assert table(game) == ["[QD KD AD]", "[AD 2D 3D]"]
    assert [f.positions for f in view(game, 0).table] == [(12, 13, 14), (1, 2, 3)]


# ------------------------------------------------------------------ ROM-05


def test_rom_05_opening_needs_40_points() -> None:
    """ROM-05, §8.5: unopened P1 opens with [10H JH QH] + [2C 2D 2S] = 30 + 6 = 36: the
    turn is rejected (illegal, state unchanged); [10H JH QH KH] = 40 is a legal opening."""
    game = romme_game(2, racks={0: "10H JH QH KH 2C 2D 2S"})
    drawn = draw(game)
    play(game, "meld [10H JH QH]", "meld [2C 2D 2S]")
    assert game.turn.laid_points == 36 and view(game, 0).laid_points == 36
    error = illegal(game, f"discard {drawn}")
    assert error.rule.startswith("§8.5") and "40" in error.reason
    assert not any(str(a).startswith("discard") for a in game.legal_actions())
    play(game, "reset")
    assert table(game) == [] and len(game.racks[0]) == 14
    play(game, "meld [10H JH QH KH]")
    assert game.turn.laid_points == 40
    play(game, f"discard {drawn}")
    assert game.opened[0] and table(game) == ["[10H JH QH KH]"] and game.to_move == 1
    assert_conserved(game)


# ------------------------------------------------------------------ ROM-07


def rom_07_game(options: dict[str, object] | None = None) -> Game:
    """P1 passes, P2 opens with [2H 3H 4H] (m1) and [10S JS QS KS] (m2); P1, unopened,
    holds QH QS QD 4C 5C 6C (45 points) and 5H, and has drawn for his second turn."""
    game = romme_after_openings(
        2,
        racks={0: "QH QS QD 4C 5C 6C 5H", 1: "2H 3H 4H 10S JS QS KS"},
        openings={1: ["meld [2H 3H 4H]", "meld [10S JS QS KS]"]},
        options=options,
    )
    assert table(game) == ["[2H 3H 4H]", "[10S JS QS KS]"] and not game.opened[0]
    draw(game)
    return game


def test_rom_07_no_lay_off_in_the_opening_turn() -> None:
    """ROM-07, §8.5, A-36: unopened P1 opens with 45 points and in the same turn lays off
    5H on P2's [2H 3H 4H]: illegal; the lay-off waits for a later turn."""
    game = rom_07_game()
    illegal(game, "attach 5H -> m1")  # not before the opening melds...
    play(game, "meld [QH QS QD]", "meld [4C 5C 6C]")
    assert game.turn.laid_points == 45
    error = illegal(game, "attach 5H -> m1")  # ...nor after them
    assert "opened" in error.reason
    play(game, f"discard {next(c for c in rack(game, 0) if c != '5H')}")
    assert game.opened[0] and table(game)[0] == "[2H 3H 4H]"
    pass_turn(game)
    draw(game)
    play(game, "P1: attach 5H -> m1")  # opened in an earlier turn: now legal
    assert table(game)[0] == "[2H 3H 4H 5H]"


# ------------------------------------------------------------------ ROM-09


def rom_09_game() -> Game:
    """P1 opened with [10S JS QS KS] (m1); P2 opened with [6H 6S JK] (m2) and
    [KC KH KD] (m3); P1 holds 6C 9D 10D and has drawn for his second turn."""
    game = romme_after_openings(
        2,
        racks={0: "10S JS QS KS 6C 9D 10D", 1: "6H 6S JK KC KH KD"},
        openings={0: ["meld [10S JS QS KS]"], 1: ["meld [6H 6S JK]", "meld [KC KH KD]"]},
    )
    assert table(game)[1] == "[6H 6S JK]" and game.opened == [True, True]
    draw(game)
    return game


def test_rom_09_exchanged_joker_goes_into_a_new_meld() -> None:
    """ROM-09, §8.5, A-39: opened P1 exchanges 6C for the joker of [6H 6S JK] and melds
    [9D 10D JK(JD)]: legal, the table shows [6H 6S 6C]; keeping the joker in hand
    instead is illegal (the turn is rejected)."""
    game = rom_09_game()
    kept = game.copy()
    play(game, "exchange 6C -> m2", "meld [9D 10D JK(JD)]")
    assert table(game)[1] == "[6H 6S 6C]" and table(game)[3] == "[9D 10D JK(JD)]"
    out = next(c for c in rack(game, 0) if c not in ("9D", "10D"))
    play(game, f"discard {out}")
    assert game.to_move == 1 and "JK" not in rack(game, 0)
    assert_conserved(game)

    play(kept, "exchange 6C -> m2")
    assert "JK" in rack(kept, 0) and table(kept)[1] == "[6H 6S 6C]"
    before = rack(kept, 0)
    for card in ("10D", "JK"):
        error = illegal(kept, f"discard {card}")
        assert error.rule.startswith("§8.5") and "joker" in error.reason
    assert rack(kept, 0) == before
    play(kept, "reset")
    assert table(kept)[1] == "[6H 6S JK]" and "JK" not in rack(kept, 0)


# ------------------------------------------------------------------ ROM-11


def rom_11_game() -> Game:
    """``dskv_strict_set_exchange``: P1 opened with [10S JS QS KS] (m1); P2 opened with
    [6H 6S JK] (m2) and [9C 9D 9H JK] (m3); P1 holds 6C 6D 9S and 4H 5H / 7C 8C for new
    melds, and has drawn for his second turn."""
    game = romme_after_openings(
        2,
        racks={0: "10S JS QS KS 6C 6D 9S 4H 5H 7C 8C", 1: "6H 6S JK 9C 9D 9H JK"},
        openings={0: ["meld [10S JS QS KS]"], 1: ["meld [6H 6S JK]", "meld [9C 9D 9H JK]"]},
        options={"dskv_strict_set_exchange": True},
    )
    assert table(game)[1:] == ["[6H 6S JK]", "[9C 9D 9H JK]"]
    draw(game)
    return game


def test_rom_11_dskv_strict_set_exchange() -> None:
    """ROM-11, §8.5, A-40: under the DSKV rule a set's joker leaves only when the set
    becomes four naturals: 6C alone on [6H 6S JK] is illegal, 6C + 6D is legal
    ([6H 6S 6C 6D]); 9S on [9C 9D 9H JK] is legal ([9C 9D 9H 9S])."""
    game = rom_11_game()
    error = illegal(game, "exchange 6C -> m2")
    assert "four" in error.reason
    illegal(game, "exchange 6D -> m2")
    nines = game.copy()
    play(game, "exchange 6C 6D -> m2")
    assert table(game)[1] == "[6H 6S 6C 6D]" and rack(game, 0).count("JK") == 1
    play(game, "meld [4H 5H JK]", "discard 9S")
    assert game.to_move == 1 and table(game)[3] == "[4H 5H JK(6H)]"

    play(nines, "exchange 9S -> m3")
    assert table(nines)[2] == "[9C 9D 9H 9S]"
    play(nines, "meld [7C 8C JK]", "discard 6C")
    assert nines.to_move == 1
    assert_conserved(nines)


# ------------------------------------------------------------------ ROM-13


def rom_13_game(second_draw: str) -> Game:
    """P1 opens with 12 cards and keeps 5S; P2 opens with [2S 3S 4S] (m4) and
    [JC QC KC AC] (m5); P1 draws ``second_draw`` for his second turn."""
    game = romme_after_openings(
        2,
        racks={0: "10H JH QH KH 7C 8C 9C 10C AD AS AH AC 5S", 1: "2S 3S 4S JC QC KC AC"},
        openings={
            0: ["meld [10H JH QH KH]", "meld [7C 8C 9C 10C]", "meld [AD AS AH AC]"],
            1: ["meld [2S 3S 4S]", "meld [JC QC KC AC]"],
        },
        stock=f"- - {second_draw}",
    )
    assert rack(game, 0) == ["5S"] and table(game)[3] == "[2S 3S 4S]"
    assert draw(game) == second_draw
    return game


def test_rom_13_going_out_with_or_without_a_final_discard() -> None:
    """ROM-13, §8.6: P1 holds 5S and KD with [2S 3S 4S] on the table: he lays off 5S and
    discards KD face down, and wins; holding 5S 6S instead he lays off both and wins
    without a discard.  The loser is charged his hand, the winner records 0 (§8.8)."""
    game = rom_13_game("KD")
    loser = penalty(game.rack_faces(1))
    pile = column(game)
    play(game, "attach 5S -> m4", "discard KD")
    result = game.results[-1]
    assert game.phase is Phase.DEAL_END
    assert result.end == "close" and result.closer == 0 and result.closing_face == "KD"
    assert result.scores == (0, -loser) and game.totals == [0, -loser]
    assert column(game) == [*pile, "KD"] and table(game)[3] == "[2S 3S 4S 5S]"
    assert game.legal_actions() == [NextDeal()]

    game = rom_13_game("6S")
    assert rack(game, 0) == cards("5S 6S")
    pile = column(game)
    play(game, "attach 5S -> m4", "attach 6S -> m4")
    result = game.results[-1]
    assert game.phase is Phase.DEAL_END
    assert result.end == "out" and result.closer == 0 and result.closing_face is None
    assert result.scores == (0, -loser)
    assert table(game)[3] == "[2S 3S 4S 5S 6S]" and column(game) == pile
    assert_conserved(game)


# ------------------------------------------------------------------ ROM-15


def rom_15_game() -> Game:
    """``discard_pickup_requires_immediate_meld``: unopened P1 holds 6S 7S KH KD KC; the
    top discard (the up-card) is 8S."""
    game = romme_game(
        2,
        racks={0: "6S 7S KH KD KC"},
        discard="8S",
        options={"discard_pickup_requires_immediate_meld": True},
    )
    assert column(game) == ["8S"] and game.to_move == 0
    play(game, "take 0")
    assert "8S" in rack(game, 0) and column(game) == []
    return game


def _spare(game: Game) -> str:
    """A card of P1's hand that is neither named in ROM-15 nor the taken 8S."""
    return next(c for c in rack(game, 0) if c not in ("6S", "7S", "8S", "KH", "KD", "KC"))


def test_rom_15_taken_discard_must_be_melded_at_once() -> None:
    """ROM-15, §8.3, A-37: (a) taking 8S and opening [6S 7S 8S] + [KH KD KC] = 21 + 30
    = 51 is legal; (b) taking 8S and melding only [6S 7S 8S] (21 < 40) is illegal;
    (c) taking 8S and keeping it is illegal."""
    game = rom_15_game()
    play(game, "meld [6S 7S 8S]", "meld [KH KD KC]")
    assert game.turn.laid_points == 51
    play(game, f"discard {_spare(game)}")
    assert game.opened[0] and table(game) == ["[6S 7S 8S]", "[KH KD KC]"]

    game = rom_15_game()
    play(game, "meld [6S 7S 8S]")
    error = illegal(game, f"discard {_spare(game)}")
    assert error.rule.startswith("§8.5") and "21" in error.reason

    game = rom_15_game()
    error = illegal(game, f"discard {_spare(game)}")
    assert error.rule == "§8.3/A-37" and "8S" in error.reason
    illegal(game, "discard 8S")  # §2.5: nor may it go straight back
    assert rack(game, 0).count("8S") == 1
