# mypy: disable-error-code="comparison-overlap"
# (a phase asserted, an action applied, the phase asserted again: mypy keeps the first
# narrowing across the call that changes it.)
"""The ``call`` extension (Vienna Rummy, RULES §6.6 and A-24): calling "Remi!" right after
the draw, closing with a card face down, and the showdown in which each seat lays out
its own melds (the A-24 alternative).
"""

from __future__ import annotations

import json
import random

from card_support import act
from kit import assert_conserved, column, draw, illegal, listed, play
from rummykit.bots import make_bot
from rummykit.engine import Game, view
from rummykit.engine.actions import CallRemi
from rummykit.engine.game import Phase
from rummykit.engine.record import record_of, replay
from rummykit.engine.view import public_notation
from vienna_support import (
    D8,
    D12,
    MELDED,
    deadwood_of,
    face,
    shown,
    vienna_game,
)

# ================================================================== A-24 alternative

PLAYERS_ARRANGE = {"auto_arrange_deadwood": False}


# ================================================================== §6.6 the call


def test_call_comes_right_after_drawing() -> None:
    """§6.6: 'Remi!' is called after the draw, never before it."""
    game = vienna_game(3, racks={0: MELDED}, stock="9D")
    assert illegal(game, "remi").rule == "§6.6"
    assert illegal(game, "remi 3H").rule == "§6.6"
    draw(game)
    assert game.can(act("remi"))


def test_call_shows_all_eleven_cards() -> None:
    """§6.6: the caller does not discard; his 11 cards are shown and the drawn card is
    unmatched unless it fits one of his melds."""
    game = vienna_game(3, racks={0: MELDED, 1: D12, 2: D8}, stock="9D")
    draw(game)
    play(game, "remi")
    result = game.results[-1]
    assert result.end == "call" and result.closer == 0 and result.closing_face is None
    assert deadwood_of(game, 0) == 9
    assert shown(game, 0) == "[10S JS QS KS] [3H 4H 5H] [7D 7C 7C] / 9D"
    assert result.rack_values == (9, 12, 8)
    # P3 (8) is below the caller: the caller fails.
    assert result.scores == (-20, 0, (9 - 8) + (12 - 8) + 10)
    assert game.phase is Phase.DEAL_END


def test_drawn_card_counts_in_a_meld_when_it_fits() -> None:
    """§6.6: a drawn card that extends a meld is not deadwood."""
    game = vienna_game(3, racks={0: MELDED, 1: D12, 2: D8}, stock="6H")
    draw(game)
    play(game, "remi")
    assert deadwood_of(game, 0) == 0
    assert game.results[-1].scores == (12 + 8, 0, 0)


def test_close_needs_the_other_ten_cards_melded() -> None:
    """§6.6: the face-down discard is allowed only when the other 10 cards are melded."""
    game = vienna_game(3, racks={0: "3H 4H 5H 7C 7C 7D 10S JS QS 2D"}, stock="KD")
    draw(game)
    assert not listed(game, "remi KD") and not listed(game, "remi 2D")
    assert illegal(game, "remi 2D").rule == "§6.6"
    illegal(game, "remi 9S")  # not in the hand


def test_any_card_may_close() -> None:
    """A-21 (default): any one of the 11 cards may be the closing card."""
    game = vienna_game(3, racks={0: "3H 4H 5H 6H 7C 7C 7D 10S JS QS"}, stock="KS")
    draw(game)
    closes = {str(a) for a in game.legal_actions() if isinstance(a, CallRemi)}
    # KS completes [10S JS QS KS]: then 3H or 6H may go; or 10S or KS, leaving three.
    assert closes == {"remi", "remi 3H", "remi 6H", "remi 10S", "remi KS"}
    play(game, "remi 3H")
    assert game.results[-1].rack_values[0] == 0


def test_close_with_the_drawn_card_only_option() -> None:
    """A-21 alternative (``close_discard_any_card = false``): only the card drawn closes."""
    opts = {"close_discard_any_card": False}
    game = vienna_game(3, racks={0: "3H 4H 5H 6H 7C 7C 7D 10S JS QS"}, stock="KS", options=opts)
    draw(game)
    assert illegal(game, "remi 3H").rule == "§6.6/A-21"
    assert {str(a) for a in game.legal_actions() if isinstance(a, CallRemi)} == {
        "remi",
        "remi KS",
    }
    game = vienna_game(3, racks={0: MELDED}, stock="9D", options=opts)
    draw(game)
    play(game, "remi 9D")
    assert game.results[-1].end == "close"


def test_closing_card_is_face_down() -> None:
    """§6.6: the closing card lies face down: the other seats see neither it nor its
    name, the closer does."""
    game = vienna_game(3, racks={0: MELDED}, stock="9D")
    draw(game)
    play(game, "remi 9D")
    assert column(game)[-1] == "9D"
    assert game.results[-1].closing_face is None
    assert face("9D") in view(game, 0).column
    for seat in (1, 2):
        seen = view(game, seat)
        assert face("9D") not in seen.column
        assert seen.history[-1] == (0, "remi ?")
        assert "9D" not in str(seen.to_json())
    assert public_notation(act("remi 9D"), 0, 0) == "remi 9D"


def test_other_variants_have_no_call() -> None:
    """'Remi!' belongs to Vienna only: the other variants do not know the action (§2.3)."""
    game = Game("basic", 2, seed=1)
    play(game, "draw")
    error = illegal(game, "remi")
    assert error.rule == "§2.3" and "basic has no such action" in str(error)


def test_players_arrange_caller_first_then_in_play_order() -> None:
    """A-24 alternative (``auto_arrange_deadwood = false``): after the call the caller,
    then each opponent in play order, lays out his own melds and says ready; whatever he
    leaves unmatched is his deadwood, even where a better arrangement existed."""
    game = vienna_game(3, racks={0: MELDED, 1: D12, 2: D8}, stock="9D", options=PLAYERS_ARRANGE)
    draw(game)
    play(game, "remi")
    assert game.phase is Phase.SHOWDOWN and game.to_move == 0 and game.results == []
    assert listed(game, "ready") and listed(game, "meld [7C 7C 7D]")
    assert illegal(game, "discard 9D").rule == "§6.6"
    illegal(game, "meld [9D 3H 4H]")
    play(game, "P1: meld [3H 4H 5H]", "P1: meld [7C 7C 7D]", "P1: meld [10S JS QS KS]")
    play(game, "P1: ready")
    assert game.to_move == 1
    # P2 shows only one of his two melds: 8S 8H 8D 8C stay unmatched.
    play(game, "P2: meld [AS 2S 3S 4S]", "P2: ready")
    play(game, "P3: meld [5D 6D 7D 8D]", "P3: meld [QC QC QH QS]", "P3: ready")
    result = game.results[-1]
    assert game.phase is Phase.DEAL_END
    assert result.rack_values == (9, 12 + 32, 8)
    assert result.scores == (-20, 0, 1 + 36 + 10)
    assert result.showdown[1] == "[AS 2S 3S 4S] / 8S 8H KH 2D 8D 8C"
    assert_conserved(game)


def test_players_arrange_closer_is_laid_out_for_him() -> None:
    """A-24 alternative: a closer's ten cards are melded by rule, so the engine lays them
    out and the showdown starts with the next player."""
    game = vienna_game(3, racks={0: MELDED, 1: D12, 2: D8}, stock="9D", options=PLAYERS_ARRANGE)
    draw(game)
    play(game, "remi 9D")
    assert game.phase is Phase.SHOWDOWN and game.to_move == 1
    assert len(game.table) == 3 and all(f.owner == 0 for f in game.table)
    assert face("9D") not in view(game, 1).column
    play(game, "P2: ready", "P3: ready")
    result = game.results[-1]
    assert result.end == "close" and result.rack_values == (0, 64, 74)
    assert result.scores == (64 + 74, 0, 0)


def test_players_arrange_greedy_lays_its_best_arrangement() -> None:
    """The greedy bot shows the least-deadwood arrangement when players arrange."""
    game = vienna_game(3, racks={0: MELDED, 1: D12, 2: D8}, stock="9D", options=PLAYERS_ARRANGE)
    draw(game)
    play(game, "remi")
    bot = make_bot("greedy")
    rng = random.Random(0)
    while game.phase is Phase.SHOWDOWN:
        game.apply(bot.choose(view(game, game.to_move), game.legal_actions(), rng))
    assert game.results[-1].rack_values == (9, 12, 8)


def test_players_arrange_random_matches_stay_consistent() -> None:
    """Random matches with players arranging: every listed action verifies, pieces are
    conserved, and the record replays."""
    for seed in range(3):
        game = Game("vienna", 3, {**PLAYERS_ARRANGE, "max_stock_recycles": 1}, seed=seed)
        rng = random.Random(seed)
        shown = 0
        while not game.is_over:
            legal = game.legal_actions()
            assert all(game.can(a) for a in legal)
            shown += game.phase is Phase.SHOWDOWN
            game.apply(rng.choice(legal))
            assert_conserved(game)
        assert shown
        again = replay(json.loads(json.dumps(record_of(game))))
        assert again.results == tuple(game.results)
