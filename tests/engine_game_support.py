"""Stacked remi_ro positions the engine's test modules share (RULES §9)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kit import (
    draw,
    pass_turn,
    pass_turns,
    play,
    rack,
)
from remi_ro_support import face, stacked_game
from rummykit.engine import Game

__all__ = ["exchange_table", "opened_game", "small_rack"]


def opened_game(
    racks: Mapping[int, str],
    openings: Mapping[int, Sequence[str]],
    *,
    players: int = 4,
    dead: str = "K9",
    stock: str = "",
    indicator: str = "K4",
    options: Mapping[str, object] | None = None,
    discards: Mapping[int, str] | None = None,
) -> Game:
    """Round 1 passes (P1's dead tile is ``dead``; ``discards`` names other seats'
    round-1 discards); in round 2 each seat of ``openings`` draws, lays its formations
    and discards the drawn tile, the others pass.  Returns the game at the start of
    P1's round-3 turn."""
    dealt = dict(racks)
    dealt[0] = f"{dead} {dealt.get(0, '')}"
    game = stacked_game(players, dealt, stock=stock, indicator=indicator, options=options)
    pass_turn(game, dead)
    for seat in range(1, players):
        pass_turn(game, (discards or {}).get(seat))
    for seat in range(players):
        assert game.to_move == seat
        if seat in openings:
            drawn = draw(game)
            play(game, *openings[seat], f"discard {drawn}")
            assert game.opened[seat]
        else:
            pass_turn(game)
    return game


def small_rack(
    left: int,
    *,
    announce: bool = True,
    indicator: str = "K4",
    options: Mapping[str, object] | None = None,
    draw_next: str = "-",
) -> Game:
    """P1 opens in round 2 with [R7 R8 R9] (m1) and [K11 K12 K13] (m2), lays a blue run in
    round 3 and keeps ``left`` of R5 R6 Y6 Y11 K2 (announcing "three" if asked and
    ``left`` ≤ 3).  Returns the game at the start of P1's round-4 turn (the column then
    holds 12 tiles); his next draw is ``draw_next``."""
    run = " ".join(f"B{r}" for r in range(2, 2 + 8 - left))
    keep = " ".join(["R5", "R6", "Y6", "Y11", "K2"][:left])
    game = stacked_game(
        4,
        {0: f"K9 R7 R8 R9 K11 K12 K13 {run} {keep}"},
        stock="- " * 11 + draw_next,
        indicator=indicator,
        options=options,
    )
    pass_turn(game, "K9")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [R7 R8 R9]", "meld [K11 K12 K13]", f"discard {drawn}")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, f"meld [{run}]", *(["three"] if announce and left <= 3 else []), f"discard {drawn}")
    assert rack(game, 0) == sorted(keep.split(), key=face)
    pass_turns(game, 3)
    assert game.to_move == 0 and len(game.column) == 12
    return game


def exchange_table() -> Game:
    """P1 (m1 [R10 R11 R12], m2 [B10 Y10 K10]); P2 (m3 [R5 B5 J], m4 [K10 K11 K12]);
    P3 (m5 [R8 B8 Y8 J], m6 [Y11 Y12 Y13]).  P1 to move in round 3, holding Y5 K5 K8;
    P2 holds K5 R10."""
    return opened_game(
        {
            0: "R10 R11 R12 B10 Y10 K10 Y5 K5 K8",
            1: "R5 B5 J K10 K11 K12 K5 R10",
            2: "R8 B8 Y8 J Y11 Y12 Y13",
        },
        {
            0: ["meld [R10 R11 R12]", "meld [B10 Y10 K10]"],
            1: ["meld [R5 B5 J]", "meld [K10 K11 K12]"],
            2: ["meld [R8 B8 Y8 J]", "meld [Y11 Y12 Y13]"],
        },
    )
