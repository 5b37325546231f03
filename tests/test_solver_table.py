"""Attachments and joker exchanges from a view agree with the engine's own legal moves."""

from __future__ import annotations

import random

import pytest

from rummykit.bots import make_bot
from rummykit.engine.actions import Attach, ExchangeJoker
from rummykit.engine.game import Game, Phase
from rummykit.engine.position import analysis_game
from rummykit.engine.view import view
from rummykit.model.pieces import Material, parse_faces
from rummykit.solver.table import TableMoves, table_moves


def test_moves_from_a_view_of_an_analysis_position() -> None:
    rack = parse_faces("R8 R6 B2 B3 K13", Material.TILES)
    run = [(f, None) for f in parse_faces("R5 J R7", Material.TILES)]
    game = analysis_game("remi_ro", rack, [run], opened=True)
    moves = table_moves(view(game, 0))
    assert isinstance(moves, TableMoves)
    assert [str(a) for a in moves.attachments] == ["attach R8 -> m1"]
    assert [str(a) for a in moves.exchanges] == ["exchange R6 -> m1"]


@pytest.mark.parametrize("variant", ["remi_ro", "double", "romme"])
def test_moves_match_the_engine_in_real_games(variant: str) -> None:
    """At the start of every turn after the draw, the view's moves are the engine's moves."""
    checked = 0
    for seed in range(3):
        game = Game(variant, seed=seed, options={"match_deals": 1} if variant != "double" else {})
        bots = [make_bot("greedy") for _ in range(game.players)]
        rng = random.Random(seed)
        steps = 0
        while not game.is_over and game.phase is not Phase.DEAL_END and steps < 400:
            steps += 1
            legal = game.legal_actions()
            fresh = game.turn.acquired not in (None, "none") and not game.turn.dirty
            if fresh and game.phase is Phase.TURNS and game.table and not game.turn.must_use:
                seat = game.to_move
                moves = table_moves(view(game, seat))
                assert set(moves.attachments) == {a for a in legal if isinstance(a, Attach)}
                assert set(moves.exchanges) == {a for a in legal if isinstance(a, ExchangeJoker)}
                checked += 1
            game.apply(bots[game.to_move].choose(view(game, game.to_move), legal, rng))
    assert checked > 0
