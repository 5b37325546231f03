# mypy: disable-error-code="comparison-overlap"
# (a phase asserted, an action applied, the phase asserted again: mypy keeps the first
# narrowing across the call that changes it.)
"""The end of a deal and of a match (engine/deal_end.py): closing scores and multipliers,
exhaustion, match totals and the target score (RULES §9.12–9.14), in remi_ro.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from kit import (
    draw,
    illegal,
    pass_turn,
    pass_turns,
    play,
    rack,
    run_out,
)
from remi_ro_support import stacked_game
from rummykit.engine import Game
from rummykit.engine.actions import (
    NextDeal,
    Ready,
)
from rummykit.engine.game import Phase
from rummykit.rules.remi_ro import REMI_RO


def _quiet_deal(game: Game) -> None:
    while game.phase is Phase.PREPLAY:
        game.apply(Ready())
    run_out(game)


def closing_game(
    closing: str,
    indicator: str = "K4",
    options: Mapping[str, object] | None = None,
    atu: int | None = None,
) -> Game:
    """3 players; P1 closes in round 3 by discarding ``closing``, with 100 credited on the
    table; P2 opened with 90 and keeps R13 B12 Y4 R9 B2 Y11 K6 Y12 (60); P3 never opens.
    Seat ``atu`` announces atu in pre-play."""
    game = stacked_game(
        3,
        {
            0: f"K9 R3 R4 R5 B10 Y10 K10 K11 K12 K13 Y9 B5 B6 B7 {closing}",
            1: "Y6 Y7 Y8 R1 B1 K1 R13 B12 Y4 R9 B2 Y11 K6 Y12",
        },
        stock="- - - - - R6",
        indicator=indicator,
        options=options,
        ready=False,
    )
    while game.phase is Phase.PREPLAY:
        play(game, *(["atu"] if game.to_move == atu else []), "ready")
    pass_turn(game, "K9")
    pass_turns(game, 2)
    drawn = draw(game)
    play(game, "meld [R3 R4 R5]", "meld [B10 Y10 K10]", "meld [K11 K12 K13]", f"discard {drawn}")
    drawn = draw(game)
    play(game, "meld [Y6 Y7 Y8]", "meld [R1 B1 K1]", f"discard {drawn}")
    pass_turn(game)
    play(
        game,
        "P1: draw",
        "attach Y9 -> m4",
        "attach R6 -> m1",
        "meld [B5 B6 B7]",
        f"discard {closing}",
    )
    return game


@pytest.mark.parametrize(
    ("closing", "indicator", "options", "expected"),
    [
        ("R8", "K4", {}, (150, 30, -100)),
        ("R8", "B12", {"atu": 1}, (150, 80, -100)),  # P2 holds the twin B12: +50
        ("R1", "B12", {"atu": 1}, (300, 80, -100)),
        ("K1", "K4", {}, (300, 30, -100)),
        ("J", "K4", {}, (300, 30, -100)),
        ("R8", "Y1", {}, (300, 60, -200)),
        ("J", "J", {}, (600, 60, -200)),
        ("R8", "Y1", {"double_game_applies_to_penalties": False}, (300, 60, -100)),
        ("R8", "K4", {"closing_bonus": 20}, (120, 30, -100)),
        ("R1", "K4", {"closing_with_1_or_joker_multiplier": 3}, (450, 30, -100)),
    ],
)
def test_closing_scores_and_multipliers(
    closing: str, indicator: str, options: dict[str, object], expected: tuple[int, ...]
) -> None:
    """§9.11–9.12, A-59: +50 closing, ×2 for a closing 1 or joker, ×2 for everyone in a
    double game (indicator 1 or joker), both → ×4.  P1: 100 + 50; P2: 90 − 60."""
    options = dict(options)
    atu = options.pop("atu", None)
    assert atu is None or isinstance(atu, int)
    game = closing_game(closing, indicator, options, atu=atu)
    result = game.results[-1]
    assert (result.end, result.closer, result.closing_face) == ("close", 0, closing)
    assert result.table_values == (100, 90, 0) and result.rack_values[:2] == (0, 60)
    assert result.scores == expected


# ================================================================== §9.11 exhaustion


def test_exhaustion_ends_the_deal_after_the_last_drawers_turn() -> None:
    """§9.11, A-60: the player who draws the last stock tile finishes his turn (he may
    still lay out), then the deal ends; nobody gets a closing bonus."""
    game = stacked_game(3, {0: "K9 R10 R11 R12 B10 Y10 K10"}, options={"match_deals": 1})
    pass_turn(game, "K9")
    while len(game.stock) > 1:
        pass_turn(game)
    assert game.to_move == 0 and not game.opened[0]
    play(game, "draw")
    assert game.stock == [] and game.phase is Phase.TURNS
    play(game, "meld [R10 R11 R12]", "meld [B10 Y10 K10]")
    play(game, f"discard {rack(game, 0)[0]}")
    result = game.results[-1]
    assert (result.end, result.closer) == ("exhaustion", None)
    assert game.phase is Phase.MATCH_END and game.legal_actions() == []
    rest = sum(REMI_RO.score_value(game.faces[p]) for p in game.racks[0])
    assert result.scores == (60 - rest, -100, -100)


def test_unopened_on_exhaustion_rack_option() -> None:
    """A-58: with ``unopened_on_exhaustion = "rack"`` the unopened lose their rack value."""
    game = stacked_game(2, {1: "R1 J K13"}, options={"unopened_on_exhaustion": "rack"})
    run_out(game)
    result = game.results[-1]
    assert result.scores == (-result.rack_values[0], -result.rack_values[1])
    assert result.rack_values[1] >= 25 + 50 + 10


@pytest.mark.parametrize("direction", ["counterclockwise", "clockwise"])
def test_match_deals_maker_rotates_and_totals_accumulate(direction: str) -> None:
    """§9.1, §9.12, A-63: ``match_deals`` deals; the maker passes to his right (the previous
    first player); totals accumulate; ``next`` starts each deal."""
    game = Game("remi_ro", 3, {"direction": direction}, seed=7)
    assert game.options["match_deals"] == 3
    makers, firsts = [], []
    for deal in range(3):
        makers.append(game.maker)
        firsts.append(game.first_seat)
        assert game.deal_number == deal
        _quiet_deal(game)
        assert len(game.results) == deal + 1
        result = game.results[-1]
        assert result.scores == (-100 * (2 if result.double_game else 1),) * 3
        assert list(result.totals) == game.totals
        if deal < 2:
            assert game.phase is Phase.DEAL_END and game.legal_actions() == [NextDeal()]
            assert illegal(game, "draw").rule == "§2.3"
            game.apply(NextDeal())
    assert game.phase is Phase.MATCH_END and game.is_over and game.legal_actions() == []
    assert illegal(game, "next").rule == "§9.12"
    assert [r.maker for r in game.results] == makers
    step = 1 if direction == "counterclockwise" else -1
    assert makers[1:] == [(m + step) % 3 for m in makers[:-1]]
    assert makers[1:] == firsts[:-1]  # the previous first player makes the next deal
    assert [sum(r.scores[s] for r in game.results) for s in range(3)] == game.totals


def test_target_score_ends_the_match_early() -> None:
    """A-63: with ``target_score`` the match ends once a total reaches it."""
    game = closing_game("R8", options={"target_score": 150})
    assert game.totals == [150, 30, -100]
    assert game.phase is Phase.MATCH_END and game.legal_actions() == []
    game = closing_game("R8", options={"target_score": 151})
    assert game.phase is Phase.DEAL_END
    play(game, "next")
    assert game.phase is Phase.PREPLAY and game.deal_number == 1
