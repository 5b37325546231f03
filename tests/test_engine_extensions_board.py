"""The ``board`` extension (RULES §9.13): declaring board play, its window and
conditions, the board closer keeping the last tile, and its scores, in remi_ro.
"""

from __future__ import annotations

import pytest

from kit import (
    illegal,
    on_board,
    pass_turn,
    pass_turns,
    play,
    run_out,
)
from remi_ro_support import act, stacked_game

# ================================================================== §9.13 board play


@pytest.mark.parametrize(
    ("seat", "turn", "allowed"),
    [(0, 1, True), (0, 3, True), (0, 4, False), (2, 3, True), (2, 4, False)],
)
def test_board_declaration_window(seat: int, turn: int, allowed: bool) -> None:
    """§9.13, A-62: within a player's first 3 turns; P1's discard-only turn is his turn 1."""
    game = stacked_game(3)
    while not (game.to_move == seat and game.turns_taken[seat] == turn):
        pass_turn(game)
    if allowed:
        play(game, "board")
        assert on_board(game)[seat]
    else:
        assert illegal(game, "board").rule == "§9.13/A-62"


def test_board_declaration_conditions() -> None:
    """§9.13: not twice, not once opened or after laying out this turn, not when disabled."""
    game = stacked_game(4, {1: "Y7 Y8 Y9 R12 B12 K12"}, stock="- - - - K5")
    pass_turns(game, 5)
    play(game, "P2: draw", "meld [Y7 Y8 Y9]")
    assert illegal(game, "board").rule == "§9.13"
    play(game, "reset", "board")
    assert illegal(game, "board").rule == "§9.13"
    play(game, "discard K5")
    game = stacked_game(4, options={"board_play_enabled": False})
    assert illegal(game, "board").rule == "§9.13"


def test_board_player_keeps_the_last_tile_and_never_lays_out() -> None:
    """§9.13: a board player may keep the column's last tile; he never lays out or attaches
    and takes no middle tiles; he scores −100 (+50 atu) when he does not close."""
    game = stacked_game(4, {1: "R7 R8 R9 K11", 3: "K4"}, ready=False)
    play(game, "P1: ready", "P2: ready", "P3: ready", "P4: atu", "P4: ready")
    pass_turn(game)
    play(game, "P2: board")
    pass_turns(game, 3)
    pass_turn(game)  # P1
    last = len(game.column) - 1
    assert illegal(game, f"take {last - 1}").rule == "§9.13"
    play(game, f"take {last}")
    assert illegal(game, "meld [R7 R8 R9]").rule == "§9.13"
    play(game, "discard K11")
    assert on_board(game)[1] and not game.opened[1]
    run_out(game)
    assert game.results[-1].scores == (-100, -100, -100, -50)


@pytest.mark.parametrize(("bonus", "expected"), [(False, (700 + 50) * 4), (True, 800 * 4)])
def test_board_closer_score_with_atu_and_multipliers(bonus: bool, expected: int) -> None:
    """§9.13, A-61: contract value + atu, ×2 for closing with a 1, ×2 in a double game; no
    +50 closing bonus unless ``board_closing_bonus``.  P2 holds Y1, the indicator's twin."""
    game = stacked_game(
        4,
        {1: "R5 B5 Y5 K5 R9 B9 Y9 K9 R12 B12 Y12 B2 Y2 Y1"},
        stock="- - - - K2",
        indicator="Y1",
        ready=False,
        options={"board_closing_bonus": bonus},
    )
    play(game, "P1: ready", "P2: atu", "P2: ready", "P3: ready", "P4: ready")
    pass_turn(game)
    play(game, "P2: board")
    pass_turns(game, 4)
    play(game, "P2: draw", "close Y1")
    result = game.results[-1]
    assert (result.contract, result.double_game) == ("bete", True)
    assert result.scores == (-200, expected, -200, -200)


@pytest.mark.parametrize("jokers", [True, False])
def test_board_contract_with_a_joker(jokers: bool) -> None:
    """§9.13, A-61: a joker stands for any tile of a contract (Monocolour here), unless
    ``board_jokers_allowed`` is off."""
    game = stacked_game(
        4,
        {1: "R1 R2 R3 R4 R5 R6 J R8 R9 R10 R11 R12 R13 K6"},
        stock="- - - - R1",
        options={"board_jokers_allowed": jokers},
    )
    pass_turn(game)
    play(game, "P2: board")
    pass_turns(game, 4)
    play(game, "P2: draw")
    assert game.can(act("close K6")) is jokers
    if jokers:
        play(game, "close K6")
        assert game.results[-1].contract == "monocolour"
        assert game.results[-1].scores[1] == 1500
