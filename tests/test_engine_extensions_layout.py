"""The ``layout`` extension (Continental Rummy, RULES §7.6): going out by laying out the
whole hand, before the first draw with a dealt layout or with a closing discard.
"""

from __future__ import annotations

from card_support import cards
from continental_support import FIVE_THREES, WITH_WILDS, con_game
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
    table,
)
from rummykit.engine.actions import GoOut

# ------------------------------------------------------------------ §7.6 going out


def test_rule_7_6_going_out_before_the_first_draw() -> None:
    """A-28: a dealt layout is laid at the start of the first turn, no draw, no discard."""
    game = con_game(3, racks={0: WITH_WILDS})
    assert listed(game, "out")
    pile = column(game)
    play(game, "P1: out")
    result = game.results[-1]
    assert result.end == "out" and result.closing_face is None
    assert column(game) == pile
    # 1 + 1 (2D) + 2 (JK) + 10 (before the first draw) from each of two opponents.
    assert result.scores == (28, -14, -14)
    laid = table(game)
    assert {"[3H 4H 5H]", "[9C 10C JC]", "[QD KD AD]"} <= set(laid)
    # The 2D and the joker complete 6S-8S and 5C-6C, one each.
    wild = sorted(m for m in laid if "(" in m)
    assert len(wild) == 2
    assert "6S" in wild[0] and "8S" in wild[0] and "5C 6C" in wild[1]
    assert {m.count("2D") + 2 * m.count("JK") for m in wild} == {1, 2}
    assert_conserved(game)


def test_rule_7_6_a_later_player_may_go_out_before_his_first_draw() -> None:
    game = con_game(3, racks={1: FIVE_THREES})
    assert not listed(game, "out")
    pass_turn(game)
    assert listed(game, "out")
    play(game, "P2: out")
    assert game.results[-1].scores == (-21, 42, -21)  # 1 + 10 + 10 each


def test_rule_7_6_only_the_dealt_hand_goes_out_without_a_draw() -> None:
    game = con_game(2, racks={0: FIVE_THREES.replace("7C", "KC")}, stock="- - 7C")
    pass_turns(game, 2)  # P1 and P2 draw a quiet card and discard it
    play(game, "P1: draw", "P1: discard KC")  # P1 draws the 7C
    pass_turn(game)
    assert rack(game, 0) == cards(FIVE_THREES)
    error = illegal(game, "out")
    assert "dealt hand" in str(error)
    assert listed(game, "draw")


def test_rule_7_6_going_out_before_the_draw_can_be_disabled() -> None:
    options = {"allow_go_out_before_first_draw": False}
    game = con_game(2, racks={0: FIVE_THREES.replace("7C", "2C")}, stock="KC", options=options)
    error = illegal(game, "out")
    assert "disabled" in str(error)
    play(game, "P1: draw", "P1: out KC")
    assert game.results[-1].scores == (1 + 1 + 7, -9)  # first turn after a draw


def test_rule_7_6_after_drawing_the_bare_out_is_illegal() -> None:
    game = con_game(2, racks={0: FIVE_THREES})
    play(game, "P1: draw")
    illegal(game, "out")


def test_rule_7_6_out_is_illegal_without_a_layout() -> None:
    game = con_game(2)
    illegal(game, "out")
    draw(game)
    assert not any(isinstance(a, GoOut) for a in game.legal_actions())
