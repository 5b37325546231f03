"""The ``three`` extension (RULES §9.11): announcing "three" with three tiles or fewer,
and the flat penalty for not announcing it, through real remi_ro play.
"""

from __future__ import annotations

import pytest

from engine_game_support import small_rack
from kit import (
    draw,
    illegal,
    pass_turn,
    pass_turns,
    play,
    run_out,
    three,
)
from remi_ro_support import stacked_game

# ================================================================== §9.11 three, closing


@pytest.mark.parametrize("left", [1, 2, 3])
def test_three_violation_is_a_flat_minus_500(left: int) -> None:
    """§9.11, §9.12(1), A-56: ending a turn with 1–3 tiles unannounced costs a flat −500
    (not multiplied in a double game)."""
    game = small_rack(left, announce=False, indicator="Y1")
    assert three(game).violation[0]
    run_out(game)
    assert game.results[-1].double_game
    assert game.results[-1].scores[0] == -500


def test_announcing_three_avoids_the_penalty() -> None:
    """§9.11: announcing keeps the normal score."""
    game = small_rack(2)
    assert not three(game).violation[0] and three(game).announced[0]
    run_out(game)
    result = game.results[-1]
    # [R7 R8 R9] 15 + [K11 K12 K13] 30 + [B2..B7] 30 − R5 R6 10.
    assert result.scores[0] == 15 + 30 + 30 - 10


def test_three_add_mode() -> None:
    """§9.15 ``three_tile_penalty_mode = "add"``: the penalty is subtracted from the score."""
    game = small_rack(2, announce=False, options={"three_tile_penalty_mode": "add"})
    run_out(game)
    assert game.results[-1].scores[0] == 15 + 30 + 30 - 10 - 500


def test_three_announcement_timing() -> None:
    """§9.11: "three" only with at most 4 tiles during one's turn (3 after the discard),
    and only once."""
    game = small_rack(5)
    assert illegal(game, "three").rule == "§9.11"
    game = small_rack(4, announce=False)
    assert not three(game).violation[0]
    play(game, "three")
    assert three(game).announced[0]
    assert illegal(game, "three").rule == "§9.11"


def test_closing_turn_has_no_announcement_obligation() -> None:
    """§9.11: a player who closes in the same turn owes no announcement."""
    game = stacked_game(
        4, {0: "K9 R7 R8 R9 K11 K12 K13 B2 B3 B4 B5 B6 R4 R5 R6"}, stock="- - - - - - - Y5"
    )
    pass_turn(game, "K9")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [R7 R8 R9]", "meld [K11 K12 K13]", f"discard {drawn}")
    pass_turns(game, 3)
    # 8 tiles: B2..B6 R4 R5 R6; draw Y5, lay everything but Y5, discard it: a close.
    play(
        game,
        "draw",
        "meld [B2 B3 B4 B5 B6]",
        "attach R6 -> m1",
        "attach R5 -> m1",
        "attach R4 -> m1",
        "discard Y5",
    )
    result = game.results[-1]
    assert not three(game).violation[0] and (result.end, result.closer) == ("close", 0)
    assert result.scores[0] == 30 + 30 + 25 + 50
