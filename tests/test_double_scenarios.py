"""Double Rummy (``double``, RULES §4) through real play from stacked deals.

Every scenario of RULES §12.2 (DBL-nn) has a test named after it; the other tests
cover the remaining rules of §4 and the ambiguities it resolves (A-04, A-09 to A-13).
Seats are in play order: unless a test says otherwise the last seat deals, so seat 0
is P1, the first player.

A lay-off that replaces a joker in a run (§4.5) is two actions in the engine (see
tests/test_engine_extensions_joker_shift.py, which holds the other joker-shift tests).
"""

from __future__ import annotations

import random

import pytest

from card_support import act, card_game, card_match, cards, double_hand_points, face, legal_texts
from kit import (
    assert_conserved,
    column,
    draw,
    illegal,
    listed,
    pass_turn,
    play,
    rack,
    stock_top,
    table,
)
from rummykit.engine import Game, view
from rummykit.engine.actions import Attach, Discard, Draw, Meld, NextDeal
from rummykit.engine.extensions.joker_shift import lifted_joker
from rummykit.engine.game import Phase
from rummykit.engine.record import record_of, replay
from rummykit.model import MeldKind, read_meld
from rummykit.rl.actions import action_codec

STOCK = {2: 77, 3: 63, 4: 49, 5: 35, 6: 21}
"""RULES §4.2: 106 − 14·n − 1."""


# ================================================================== §12.2 scenarios


@pytest.mark.parametrize("players", [4, 6, 2, 3, 5])
def test_dbl_01_deal(players: int) -> None:
    """DBL-01, §4.1-§4.2: 106 cards (two packs and two jokers), 14 each, one up-card and
    a stock of 49 (4 players) / 21 (6 players); the dealer's right-hand neighbour starts."""
    for dealer in range(players):
        game = Game("double", players, maker=dealer, seed=10 * players + dealer)
        assert len(game.pieces) == 106
        assert sum(f.is_joker for f in game.pieces.faces) == 2
        assert [len(r) for r in game.racks] == [14] * players
        assert len(game.column) == 1
        assert len(game.stock) == STOCK[players] == 106 - 14 * players - 1
        assert game.first_seat == game.to_move == (dealer + 1) % players
        assert game.phase is Phase.TURNS
        assert_conserved(game)


def test_dbl_01_cards_are_dealt_one_at_a_time() -> None:
    """§4.2: one card at a time from the first player round the table, then the up-card."""
    game = Game("double", 4, walls=[list(range(106))], maker=3, seed=0)
    for seat in range(4):
        assert sorted(game.racks[seat]) == [seat + 4 * i for i in range(14)]
    assert game.column == [56]
    assert list(reversed(game.stock)) == list(range(57, 106))


def test_dbl_03_sets_may_repeat_suits_up_to_ten_cards() -> None:
    """DBL-03, §4.4: `[7C 7C 7D]` is a set; so is `7C 7C 7D 7D 7H 7H 7S 7S JK JK` (10
    cards, the most there can be); both kinds are laid in play, and a set of repeated
    suits takes lay-offs of any suit."""
    game = card_game(
        "double",
        2,
        racks={0: "7C 7C 7D 7D 7H 7H 7S 7S JK JK", 1: "8C 8C 8D 8D"},
        stock="KD KD",
    )
    rules = game.rules
    assert [r.kind for r in read_meld(tuple(face(c) for c in ["7C", "7C", "7D"]), rules)] == [
        MeldKind.SET
    ]
    ten = tuple(face(c) for c in ["7C", "7C", "7D", "7D", "7H", "7H", "7S", "7S", "JK", "JK"])
    assert [r.kind for r in read_meld(ten, rules)] == [MeldKind.SET]
    draw(game)
    play(game, "meld [7C 7C 7D 7D 7H 7H 7S 7S JK(7S) JK(7H)]", "discard KD")
    assert table(game) == ["[7C 7C 7D 7D 7H 7H 7S 7S JK JK]"]
    draw(game)
    play(game, "P2: meld [8C 8C 8D]", "attach 8D -> m2")
    assert table(game)[1] == "[8C 8C 8D 8D]"


def test_dbl_03_a_set_never_exceeds_set_max_size() -> None:
    """§4.4, §4.10 set_max_size = 10: with a third joker (joker_count = 3) an 11-card set
    is still illegal, as a meld or as a lay-off; lowering the option caps sets lower."""
    game = card_game(
        "double", 2, racks={0: "7C 7C 7D 7D 7H 7H 7S 7S JK JK JK"}, options={"joker_count": 3}
    )
    draw(game)
    illegal(game, "meld [7C 7C 7D 7D 7H 7H 7S 7S JK(7S) JK(7H) JK(7D)]")
    play(game, "meld [7C 7C 7D 7D 7H 7H 7S 7S JK(7S) JK(7H)]")
    illegal(game, "attach JK -> m1")
    big = tuple(face(c) for c in ["7C", "7C", "7D", "7D", "7H", "7H", "7S"])
    capped = Game("double", 2, {"set_max_size": 6}, seed=1)
    assert read_meld(big[:6], capped.rules) and not read_meld(big, capped.rules)


def dbl_05_game() -> Game:
    """P2 lays `[AD 2D JK(3D)]` (m1); P1, holding 3D, is to play after drawing."""
    game = card_game("double", 2, racks={0: "3D", 1: "AD 2D JK"})
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [AD 2D JK(3D)]", f"discard {drawn}")
    draw(game)
    return game


def test_dbl_05_the_joker_shifts_past_the_laid_card_never_below_the_ace() -> None:
    """DBL-05, §4.5: laying off 3D on `[AD 2D JK(3D)]` gives `[AD 2D 3D JK(4D)]`; the joker
    stays on the table (it cannot go below the ace) and P1's hand loses only 3D."""
    game = dbl_05_game()
    before = rack(game, 0)
    assert listed(game, "attach 3D -> m1")
    play(game, "P1: attach 3D -> m1")
    assert table(game) == ["[AD 2D 3D]"]
    # The lifted joker must go back at once, and only to the free end of its run.
    assert legal_texts(game) == {"attach JK(4D) -> m1", "reset"}
    for text in ("discard JK", "meld [JK 5C 6C]", f"discard {before[0]}", "draw"):
        illegal(game, text)
    illegal(game, "attach JK(AD) -> m1")
    play(game, "attach JK(4D) -> m1")
    assert table(game) == ["[AD 2D 3D JK(4D)]"]
    after = rack(game, 0)
    assert sorted(before) == sorted([*after, "3D"])
    assert "JK" not in after
    assert_conserved(game)


def test_dbl_05_reset_undoes_the_lay_off_and_the_lift() -> None:
    """§2.3: resetting the turn after the lift puts 3D back in hand and the joker back."""
    game = dbl_05_game()
    before = rack(game, 0)
    play(game, "attach 3D -> m1", "reset")
    assert table(game) == ["[AD 2D JK(3D)]"] and rack(game, 0) == before
    assert lifted_joker(game) is None and Draw() not in game.legal_actions()


def dbl_07_game(options: dict[str, object] | None = None) -> Game:
    """Table: m1 `AS..KS` with JK(7S) (P2), m2 `[9H 9D 9C]` and m3 `[4H 5H 6H]` (P3);
    P1 holds 7S and has drawn."""
    run = "AS 2S 3S 4S 5S 6S JK 8S 9S 10S JS QS KS"
    game = card_game("double", 3, racks={0: "7S", 1: run, 2: "9H 9D 9C 4H 5H 6H"}, options=options)
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [AS 2S 3S 4S 5S 6S JK(7S) 8S 9S 10S JS QS KS]", f"discard {drawn}")
    drawn = draw(game)
    play(game, "P3: meld [9H 9D 9C]", "meld [4H 5H 6H]", f"discard {drawn}")
    draw(game)
    return game


def test_dbl_07_the_joker_of_a_complete_run_goes_to_any_other_meld() -> None:
    """DBL-07, §4.5, A-10: 7S completes A..K, so the joker cannot shift; its legal
    destinations are `[9H 9D 9C JK]`, `[JK(3H) 4H 5H 6H]` and `[4H 5H 6H JK(7H)]`, at the
    laying-off player's choice; it can never go to his hand."""
    game = dbl_07_game()
    play(game, "P1: attach 7S -> m1")
    assert table(game)[0] == "[AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS]"
    assert legal_texts(game) == {
        "attach JK -> m2",
        "attach JK(3H) -> m3",
        "attach JK(7H) -> m3",
        "reset",
    }
    # Into the hand: keeping it (discarding something else), melding it, discarding it.
    keep = next(c for c in rack(game, 0) if c != "JK")
    for text in (f"discard {keep}", "discard JK", "attach JK(8S) -> m1", "attach JK(7S) -> m1"):
        illegal(game, text)
    expected = {
        "attach JK -> m2": ["[9H 9D 9C JK]", "[4H 5H 6H]"],
        "attach JK(3H) -> m3": ["[9H 9D 9C]", "[JK(3H) 4H 5H 6H]"],
        "attach JK(7H) -> m3": ["[9H 9D 9C]", "[4H 5H 6H JK(7H)]"],
    }
    for text, melds in expected.items():
        trial = game.copy()
        play(trial, text)
        assert table(trial)[1:] == melds
        assert "JK" not in rack(trial, 0)
        assert_conserved(trial)
        play(trial, f"discard {keep}")
        assert trial.to_move == 1


def test_dbl_07_forbidden_relocation_makes_the_lay_off_illegal() -> None:
    """§4.10 joker_complete_run_relocation = "forbidden": the joker of a complete run has
    nowhere to go, so the lay-off of the card it stands for is illegal."""
    game = dbl_07_game({"joker_complete_run_relocation": "forbidden"})
    error = illegal(game, "attach 7S -> m1")
    assert error.rule == "§4.5/A-10"


def test_dbl_07_no_meld_can_take_the_joker() -> None:
    """A-10: when no other meld on the table can take the joker, that lay-off is illegal."""
    run = "AS 2S 3S 4S 5S 6S JK 8S 9S 10S JS QS KS"
    game = card_game("double", 2, racks={0: "7S", 1: run})
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [AS 2S 3S 4S 5S 6S JK(7S) 8S 9S 10S JS QS KS]", f"discard {drawn}")
    draw(game)
    assert not listed(game, "attach 7S -> m1")
    assert illegal(game, "attach 7S -> m1").rule == "§4.5/A-10"


def test_dbl_09_the_winner_collects_jokers_25_and_aces_11() -> None:
    """DBL-09, §4.9: P1 goes out (not a Hand); P2 holds `JK AS KD 5C` (51) and P3 `AH AD`
    (22): P1 scores +73, the others nothing."""
    game = card_game(
        "double",
        3,
        racks={
            0: "2D 3D 4D 5D 6S 7S 8S JC QC KC 10D 10C 10S 6D",
            1: "JK AS KD 5C 2H 3H 4H 5H 6C 7C 8C 9S 9S 9D",
            2: "AH AD 10H JH QH KH 3S 4S 5S 6S 8D 8D 8H 8H",
        },
    )
    drawn = draw(game)
    play(
        game,
        "P1: meld [2D 3D 4D 5D]",
        "meld [6S 7S 8S]",
        "meld [JC QC KC]",
        "meld [10D 10C 10S]",
        f"discard {drawn}",
    )
    drawn = draw(game)
    play(game, "P2: meld [2H 3H 4H 5H]", "meld [6C 7C 8C]", "meld [9S 9S 9D]", f"discard {drawn}")
    drawn = draw(game)
    play(
        game,
        "P3: meld [10H JH QH KH]",
        "meld [3S 4S 5S 6S]",
        "meld [8D 8D 8H 8H]",
        f"discard {drawn}",
    )
    assert rack(game, 1) == cards("JK AS KD 5C") and rack(game, 2) == cards("AH AD")
    assert (double_hand_points(game, 1), double_hand_points(game, 2)) == (51, 22)
    drawn = draw(game)
    play(game, "P1: attach 6D -> m1", f"discard {drawn}")
    (result,) = game.results
    assert result.closer == 0 and not result.hand
    assert result.scores == (73, 0, 0)
    assert game.totals == [73, 0, 0]


def test_dbl_11_one_card_and_two_jokers_is_a_set() -> None:
    """DBL-11, §4.4, A-13: `[9H JK JK]` may be laid as a set (min_naturals_per_meld = 1)."""
    game = card_game("double", 2, racks={0: "9H JK JK"})
    draw(game)
    as_set = "meld [9H JK(9S) JK(9D)]"
    assert listed(game, as_set)
    play(game, as_set)
    assert table(game) == ["[9H JK JK]"]
    assert game.table[0].kind is MeldKind.SET
    strict = card_game("double", 2, racks={0: "9H JK JK"}, options={"min_naturals_per_meld": 2})
    draw(strict)
    illegal(strict, as_set)
    illegal(strict, "meld [9H JK(10H) JK(JH)]")


def test_an_undeclared_joker_meld_takes_the_most_valuable_reading() -> None:
    """§2.2: `meld [9H JK JK]` without declarations is read as the run 9-10-J (29 points
    beats the set's 27); declaring the jokers as nines makes it a set."""
    game = card_game("double", 2, racks={0: "9H JK JK"})
    draw(game)
    play(game, "meld [9H JK JK]")
    assert table(game) == ["[9H JK(10H) JK(JH)]"]


def test_dbl_13_empty_stock_turns_the_discard_pile_over() -> None:
    """DBL-13, §4.8, A-04: at the start of a turn with an empty stock and the discard pile
    `2C 5H`, the pile is turned over unshuffled: the stock reads 2C 5H from the top and the
    pile is empty, so the only draw is 2C from the stock.

    The set-up takes the rest of the stock out of play after P1's draw (the engine cannot
    otherwise reach a 2-card pile at exhaustion)."""
    game = card_game("double", 2, racks={0: "5H"}, discard="2C")
    draw(game)
    game.stock.clear()
    play(game, "P1: discard 5H")
    assert game.to_move == 1 and game.recycles == 1
    assert stock_top(game) == ["2C", "5H"]
    assert column(game) == [] and view(game, 1).stock_count == 2
    assert game.legal_actions() == [Draw()]
    illegal(game, "take 0")
    assert draw(game) == "2C"


def test_the_stock_runs_out_in_real_play() -> None:
    """§4.8/§2.4: playing the 77 cards of a two-player stock through, the first turn that
    finds it empty turns the whole pile over, oldest card on top."""
    game = Game("double", 2, seed=5)
    while len(game.stock) > 1:
        pass_turn(game)
    assert game.recycles == 0
    last = draw(game)
    pile = [*column(game), last]
    assert len(pile) == 1 + 77 - 1 + 1  # the up-card and one discard per draw
    game.apply(Discard(face(last)))
    assert game.recycles == 1 and column(game) == []
    assert stock_top(game) == pile
    assert_conserved(game)


# ================================================================== §4.3 turns, lay-offs

LAY_OFF_ALL = "7S 8S 9S 10S 7H 8H 9H 10H 7D 8D 9D 7C 8C 9C"
"""P1's hand in :func:`test_a_hand_made_by_laying_off_only`: it extends P2's four runs."""


def test_a_hand_made_by_laying_off_only() -> None:
    """§4.3, §4.7: a player who never melded lays off on an opponent's melds, wins the deal
    that way without a meld of his own, and, having disposed of all 14 cards in one turn,
    makes a Hand: the opponent's hand counts double."""
    game = card_game(
        "double",
        2,
        racks={0: LAY_OFF_ALL, 1: "4S 5S 6S 4H 5H 6H 4D 5D 6D 4C 5C 6C"},
    )
    pass_turn(game)
    drawn = draw(game)
    play(
        game,
        "P2: meld [4S 5S 6S]",
        "meld [4H 5H 6H]",
        "meld [4D 5D 6D]",
        "meld [4C 5C 6C]",
        f"discard {drawn}",
    )
    drawn = draw(game)
    targets = {"S": 1, "H": 2, "D": 3, "C": 4}
    for card in LAY_OFF_ALL.split():
        play(game, f"P1: attach {card} -> m{targets[card[-1]]}")
    assert rack(game, 0) == [drawn] and not game.opened[0]
    left = double_hand_points(game, 1)
    play(game, f"discard {drawn}")
    (result,) = game.results
    assert result.closer == 0 and result.hand and result.end == "close"
    assert result.scores == (2 * left, 0)


def test_a_run_is_never_extended_beyond_its_ace() -> None:
    """§4.4-§4.5: an ace ends a run: nothing is laid off below a low ace or above a high
    ace; the other end stays open."""
    game = card_game("double", 2, racks={0: "KS 2H 4S JH", 1: "AS 2S 3S QH KH AH"})
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [AS 2S 3S]", "meld [QH KH AH]", f"discard {drawn}")
    draw(game)
    illegal(game, "attach KS -> m1")  # below the low ace (no wrap)
    illegal(game, "attach 2H -> m2")  # above the high ace
    assert listed(game, "attach 4S -> m1") and listed(game, "attach JH -> m2")
    play(game, "attach 4S -> m1", "attach JH -> m2")
    assert table(game) == ["[AS 2S 3S 4S]", "[JH QH KH AH]"]


def test_a_hand_joker_is_laid_off_at_a_run_end_or_on_a_set() -> None:
    """§4.4-§4.5: a joker from the hand is laid off like any card: at a free run end
    (declared) or on a set."""
    game = card_game("double", 2, racks={0: "JK JK", 1: "5C 6C 7C 8H 8D 8S"})
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [5C 6C 7C]", "meld [8H 8D 8S]", f"discard {drawn}")
    draw(game)
    assert {"attach JK(4C) -> m1", "attach JK(8C) -> m1", "attach JK -> m2"} <= legal_texts(game)
    play(game, "attach JK(8C) -> m1", "attach JK -> m2")
    assert table(game) == ["[5C 6C 7C JK(8C)]", "[8H 8D 8S JK]"]


# ================================================================== shared rules, match


def test_the_taken_discard_is_not_discarded_again() -> None:
    """§2.5/A-03: the card taken from the discard pile stays in hand that turn."""
    game = card_game("double", 2, discard="KD")
    play(game, "take 0")
    illegal(game, "discard KD")
    assert Discard(face("KD")) not in game.legal_actions()


QUICK_OUT = "AH 2H 3H 4H 5H 6H 7H 8C 8D 8S 9C 9D 9S 9H"
QUICK_MELDS = ("meld [AH 2H 3H 4H 5H 6H 7H]", "meld [8C 8D 8S]", "meld [9C 9D 9S 9H]")


def test_the_deal_rotates_and_the_match_ends_at_the_target() -> None:
    """§4.9/A-12, §2.6: the next deal is dealt by the next player in play order (so the
    other seat starts); the match ends once a total reaches target_score, highest wins."""
    deals = [{"racks": {0: QUICK_OUT}}, {"racks": {1: QUICK_OUT}}]
    game = card_match("double", 2, deals, options={"target_score": 1000})
    assert game.maker == 1 and game.to_move == 0
    drawn = draw(game)
    play(game, *QUICK_MELDS)
    first = 2 * double_hand_points(game, 1)
    play(game, f"discard {drawn}")
    assert game.phase is Phase.DEAL_END and game.totals == [first, 0]
    assert game.results[0].hand  # all 14 cards in the first turn
    game.apply(NextDeal())
    assert game.maker == 0 and game.to_move == 1
    drawn = draw(game)
    play(game, *(f"P2: {m}" for m in QUICK_MELDS))
    second = 2 * double_hand_points(game, 0)
    play(game, f"discard {drawn}")
    assert game.totals == [first, second] and game.phase is Phase.DEAL_END

    short = card_match("double", 2, deals[:1], options={"target_score": first})
    drawn = draw(short)
    play(short, *QUICK_MELDS, f"discard {drawn}")
    assert short.is_over and short.winners() == [0]
    assert short.legal_actions() == []


def test_joker_shifts_are_encoded_by_the_rl_codec() -> None:
    """The lift and the placement are ordinary attach actions with explicit targets, so
    the RL action codec gives each a number that decodes back to it (docs/rl.md)."""
    game = dbl_07_game()
    codec = action_codec(game.variant, game.pieces)
    shift = act("attach 7S -> m1")
    assert codec.decode(codec.encode(shift)) == shift
    play(game, "attach 7S -> m1")
    legal = game.legal_actions()
    numbers = codec.encode_all(legal)
    assert len(set(numbers)) == len(legal)
    assert [codec.decode(i) for i in numbers] == legal


def test_a_record_with_shifts_replays() -> None:
    """Records: the two-step lay-off replays from its notation and from the JSON record."""
    game = dbl_07_game()
    play(game, "attach 7S -> m1", "attach JK(3H) -> m3")
    again = replay(record_of(game)).game
    assert table(again) == table(game)
    assert [str(a) for _, a in again.log][-2:] == ["attach 7S -> m1", "attach JK(3H) -> m3"]


def test_a_joker_on_the_table_never_returns_to_a_hand() -> None:
    """§4.5: in random eager play (melds and lay-offs preferred), every joker on the table
    at the start of a turn is still on the table at the start of every later turn of the
    deal, and a lifted joker is always placed by the very next action (or the turn is
    reset)."""
    lifts = 0
    for seed in range(8):
        game = Game(
            "double",
            3,
            {"max_stock_recycles": 1, "match_mode": "deals", "match_deals": 1},
            seed=seed,
        )
        rng = random.Random(seed)
        committed: set[int] = set()
        while game.phase is Phase.TURNS:
            if game.turn.acquired is None:
                placed = {p for f in game.table for p in f.pieces if game.faces[p].is_joker}
                assert committed <= placed
                committed = placed
            legal = game.legal_actions()
            laying = [a for a in legal if isinstance(a, Meld | Attach)]
            lifted_before = lifted_joker(game) is not None
            game.apply(rng.choice(laying) if laying and rng.random() < 0.9 else rng.choice(legal))
            if lifted_joker(game) is not None:
                assert not lifted_before, "a lifted joker must be placed by the next action"
                lifts += 1
    assert lifts >= 3


def test_no_opening_requirement() -> None:
    """§4.6: there is no opening: a first meld worth 9 points is as good as any."""
    game = card_game("double", 2, racks={0: "2C 3C 4C"})
    draw(game)
    assert listed(game, "meld [2C 3C 4C]")
    play(game, "meld [2C 3C 4C]")
    assert table(game) == ["[2C 3C 4C]"] and game.turn.laid_points == 9
