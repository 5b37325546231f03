"""Continental Rummy (``continental``, RULES §7) through real play from stacked deals.

Every scenario of RULES §12.5 (CON-nn) has a test named after it; the other tests
cover the remaining rules of §7 and the ambiguities A-26 to A-32.  Seats are in
play order: unless a test says otherwise the last seat deals, so seat 0 is P1.
"""

from __future__ import annotations

import pytest

from card_support import act, face
from continental_support import FIVE_THREES, WITH_WILDS, con_game, con_match
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
from rummykit.engine.actions import Discard, Draw, GoOut, NextDeal, TakeColumn
from rummykit.engine.game import Phase
from rummykit.model.melds import MeldKind, read_meld
from rummykit.model.pieces import Material, parse_faces
from rummykit.rules.continental import CONTINENTAL
from rummykit.rules.meldcheck import check_meld


def out_on_second_turn(players: int, hand: str, last: str, **options: object) -> Game:
    """P1 holds ``hand`` less ``last`` plus a dead card ``KC``, passes one round, then
    draws ``last`` and goes out by discarding ``KC``."""
    cards = hand.split()
    cards.remove(last)
    game = con_game(
        players,
        racks={0: " ".join([*cards, "KC"])},
        stock=" ".join(["-"] * players + [last]),
        options=options or None,
    )
    pass_turns(game, players)
    play(game, "P1: draw", "P1: out KC")
    return game


# ------------------------------------------------------------------ RULES §12.5


@pytest.mark.parametrize(
    ("players", "packs", "stock"),
    [(2, 2, 75), (5, 2, 30), (6, 3, 68), (9, 3, 23), (10, 4, 61), (12, 4, 31)],
)
def test_con01_packs_jokers_and_deal(players: int, packs: int, stock: int) -> None:
    """CON-01: packs 2/2/3/3/4/4, one joker per pack, 15 cards each, the stock."""
    game = Game("continental", players, seed=players)
    pieces = game.pieces
    assert (pieces.copies, pieces.joker_count, len(pieces)) == (packs, packs, 53 * packs)
    assert [len(r) for r in game.racks] == [15] * players
    assert len(game.column) == 1
    assert len(game.stock) == stock


def test_con03_sets_do_not_exist() -> None:
    """CON-03: [7H 7D 7S] is no formation, and nothing is melded during play (§7.3)."""
    verdict = check_meld(CONTINENTAL, parse_faces("7H 7D 7S", Material.CARDS))
    assert not verdict.valid and "only runs" in (verdict.reason or "")
    game = con_game(4, racks={0: "7H 7D 7S 5H 6H 7H"})
    draw(game)
    error = illegal(game, "meld [7H 7D 7S]")
    assert error.rule == "§7.3"
    illegal(game, "meld [5H 6H 7H]")


def test_con05_lay_out_fifteen_and_close_with_the_sixteenth() -> None:
    """CON-05: five 3-card runs + KC after the draw; lay out 15, discard KC: P1 wins."""
    game = con_game(4, racks={0: FIVE_THREES.replace("7C", "KC")}, stock="7C")
    draw(game)
    assert listed(game, "out KC")
    play(game, "P1: out KC")
    assert game.phase is Phase.DEAL_END
    result = game.results[-1]
    assert result.closer == 0 and result.end == "close" and result.closing_face == "KC"
    assert column(game)[-1] == "KC"
    assert sorted(table(game)) == sorted(
        ["[3H 4H 5H]", "[6S 7S 8S]", "[9C 10C JC]", "[QD KD AD]", "[5C 6C 7C]"]
    )
    assert_conserved(game)


def test_con05_the_closing_card_is_never_part_of_the_layout() -> None:
    """§7.6: laying out all 16 is illegal, and a layout card cannot close."""
    game = con_game(4, racks={0: FIVE_THREES.replace("7C", "KC")}, stock="7C")
    draw(game)
    illegal(game, "out")  # all 16, no discard
    error = illegal(game, "out 7C")  # the other 15 form no layout
    assert error.rule == "§7.6"
    illegal(game, "out 3H")


def test_con07_settlement_with_a_deuce_and_a_joker() -> None:
    """CON-07: 4 players at 20; P1 out (not first turn) with 2D and JK: P = 4."""
    game = out_on_second_turn(4, WITH_WILDS, "3H")
    result = game.results[-1]
    assert result.scores == (12, -4, -4, -4)
    assert game.totals == [32, 16, 16, 16]


def test_con09_first_turn_after_the_first_draw_without_wild_cards() -> None:
    """CON-09: 2 players at 20; P1 out on his first turn after drawing; P = 18."""
    game = con_game(2, racks={0: FIVE_THREES.replace("7C", "KC")}, stock="7C")
    play(game, "P1: draw", "P1: out KC")
    assert game.results[-1].scores == (18, -18)
    assert game.totals == [38, 2]


def test_con11_a_balance_below_zero_ends_the_match() -> None:
    """CON-11: P2 has 5 and must pay 11: P2 = -6 <= 0, the match ends, P1 wins."""
    game = out_on_second_turn(2, FIVE_THREES, "3H", starting_chips=5)
    assert game.totals == [16, -6]
    assert game.phase is Phase.MATCH_END
    assert game.winners() == [0]


def test_con13_wild_only_runs() -> None:
    """CON-13: [JK 2C 2D] has no natural card; [JK 2C 5D] is JK(3D) 2C(4D) 5D."""
    rules = CONTINENTAL.meld_rules
    assert not read_meld(parse_faces("JK 2C 2D", Material.CARDS), rules)
    readings = read_meld(parse_faces("JK 2C 5D", Material.CARDS), rules)
    assert readings and all(r.kind is MeldKind.RUN for r in readings)
    faces = parse_faces("JK 2C 5D", Material.CARDS)
    declared = parse_faces("3D 4D", Material.CARDS)
    assert read_meld(faces, rules, (declared[0], declared[1], None))
    assert not check_meld(CONTINENTAL, parse_faces("JK 2C 2D", Material.CARDS)).valid


# ------------------------------------------------------------------ §7.2-§7.3


def test_rule_7_2_the_first_player_is_on_the_dealers_right() -> None:
    game = Game("continental", 5, seed=3, maker=2)
    assert game.first_seat == game.to_move == 3
    game.apply(Draw())
    game.apply(game.legal_actions()[0])
    assert game.to_move == 4


def test_rule_7_3_draw_the_stock_or_the_top_discard() -> None:
    game = con_game(3, discard="9H")
    assert set(map(str, game.legal_actions())) == {"draw", "take 0"}
    play(game, "P1: take 0")
    assert "9H" in rack(game, 0)
    # §2.5/A-03: the taken card stays this turn, also as a closing card.
    illegal(game, "discard 9H")
    assert not any(isinstance(a, GoOut) for a in game.legal_actions())


def test_rule_7_3_nothing_is_laid_or_added_during_play() -> None:
    game = con_game(4, racks={0: "5H 6H 7H 8H"})
    draw(game)
    assert all(isinstance(a, Discard | GoOut) for a in game.legal_actions())
    illegal(game, "meld [5H 6H 7H]")
    illegal(game, "attach 8H -> m1")


def test_a03_the_taken_discard_cannot_close() -> None:
    game = con_game(4, racks={0: FIVE_THREES.replace("7C", "KC")}, discard="KH")
    play(game, "P1: take 0")
    illegal(game, "out KH")
    assert listed(game, "out KC") is False  # the 15 with KH are no layout
    game = con_game(
        4,
        racks={0: FIVE_THREES.replace("7C", "KC")},
        discard="7C",
        options={"allow_discard_of_taken_discard": True},
    )
    play(game, "P1: take 0")
    assert listed(game, "out KC")


def test_rule_7_8_item_5_applies_on_any_players_first_turn() -> None:
    game = con_game(3, racks={2: FIVE_THREES.replace("7C", "KC")}, stock="- - 7C")
    pass_turns(game, 2)
    play(game, "P3: draw", "P3: out KC")
    assert game.results[-1].scores == (-18, -18, 36)


def test_rule_7_8_no_first_turn_bonus_later() -> None:
    game = out_on_second_turn(3, FIVE_THREES, "3H")
    assert game.results[-1].scores == (22, -11, -11)


# ------------------------------------------------------------------ §7.7 stock


def test_rule_7_7_the_discard_pile_is_turned_over() -> None:
    """§7.7 applies §2.4: the empty stock is replaced by the pile, oldest card on top."""
    game = con_game(2, discard="9H")
    while len(game.stock) > 1:
        pass_turn(game)
    last = pass_turn(game)  # draws and discards the last stock card
    # The next turn began with the recycled stock: the oldest discard (the up-card) on top.
    assert game.recycles == 1 and column(game) == []
    assert stock_top(game)[0] == "9H" and stock_top(game)[-1] == last
    assert len(game.stock) == 76  # 75 after the deal, plus the up-card
    assert game.legal_actions() == [Draw()]


# ------------------------------------------------------------------ §7.9 match


def test_rule_7_9_chips_carry_over_and_the_deal_rotates() -> None:
    """Deal 2 is dealt by P1 (A-32: the next player), so P2 plays first."""
    game = con_match(
        3,
        [
            {"racks": {0: FIVE_THREES.replace("7C", "KC")}, "stock": "7C"},
            {"racks": {1: WITH_WILDS}},
        ],
    )
    play(game, "P1: draw", "P1: out KC")
    assert game.totals == [56, 2, 2]
    game.apply(NextDeal())
    assert game.maker == 0 and game.to_move == 1
    play(game, "P2: out")
    assert game.totals == [42, 30, -12]
    assert game.phase is Phase.MATCH_END
    assert game.winners() == [0]


def test_a32_the_winner_deals_next() -> None:
    game = con_game(
        3,
        racks={1: FIVE_THREES.replace("7C", "KC")},
        stock="- 7C",
        options={"dealer_rotation": "winner_deals"},
    )
    pass_turn(game)
    play(game, "P2: draw", "P2: out KC")
    game.apply(NextDeal())
    assert game.maker == 1 and game.to_move == 2


def test_a30_capped_payments_stop_at_zero() -> None:
    game = out_on_second_turn(2, FIVE_THREES, "3H", starting_chips=5, cap_payment_at_balance=True)
    assert game.totals == [10, 0]
    assert game.phase is Phase.MATCH_END


def test_view_shows_the_winners_layout_and_the_closing_card() -> None:
    game = con_game(2, racks={0: FIVE_THREES.replace("7C", "KC")}, stock="7C")
    before = view(game, 1)
    assert len(before.rack) == 15 and before.rack_sizes == (15, 15) and before.table == ()
    play(game, "P1: draw", "P1: out KC")
    seen = view(game, 1)
    assert len(seen.table) == 5 and {f.owner for f in seen.table} == {0}
    assert seen.column[-1] == face("KC")
    assert seen.rack_sizes[0] == 0


def test_every_action_notation_round_trips() -> None:
    for text in ("out", "out KC", "out JK"):
        assert str(act(text)) == text
    assert act("out 10H") == GoOut(face("10H"))
    assert TakeColumn(0) == act("take 0")
