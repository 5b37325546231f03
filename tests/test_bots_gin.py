"""The gin player of the greedy bot (``bots/gin.py``; docs/rules/gin.md): it knocks
as soon as it may, takes the up-card only when that lowers its deadwood, discards the
card whose loss leaves the least deadwood, lays off at the showdown, and finishes every
deal legally from its view alone."""

from __future__ import annotations

import random

import pytest

from gin_support import DEFENDER, JUNK, JUNK2, KNOCKER, deal, kinds
from kit import play
from rummykit.bots import GreedyBot, play_to_end
from rummykit.bots.gin import gin_action, plays_gin
from rummykit.engine import Game, view
from rummykit.engine.actions import Discard
from rummykit.rules.gin import deadwood
from rummykit.rules.variant import all_variants, find_variant


def choose(game: Game) -> str:
    return str(gin_action(view(game, game.to_move), game.legal_actions()))


def test_only_gin_is_played_by_the_gin_player() -> None:
    for variant in all_variants():
        game = Game(variant, variant.default_players, seed=1)
        assert plays_gin(variant, view(game, 0)) is (variant.name == "gin")


def test_it_takes_the_upcard_only_when_that_lowers_its_deadwood() -> None:
    """§G.2: 8C extends KNOCKER's 9-10-J of clubs and 4D can go (deadwood 4 to 0): it
    takes the up-card; KD helps JUNK nothing, so it passes the offer."""
    assert choose(deal(KNOCKER, DEFENDER, "8C")) == "take 0"
    assert choose(deal(JUNK, JUNK2, "KD")) == "pass"


def test_it_knocks_as_soon_as_it_may() -> None:
    """§G.4: after the draw KNOCKER's deadwood is 4 (at most 10): it knocks."""
    game = deal(KNOCKER, DEFENDER, "2D", "KH")
    game.apply(game.legal_actions()[-1])  # P1 passes the offer
    game.apply(game.legal_actions()[-1])  # P2 passes
    game.apply(next(a for a in game.legal_actions() if str(a) == "draw"))
    assert choose(game) == "knock"


def test_it_discards_the_card_that_leaves_the_least_deadwood() -> None:
    """§G.3: of JUNK plus a drawn card, the discard chosen leaves the least deadwood of
    every discard (ties: the higher card goes)."""
    game = deal(JUNK, JUNK2, "2C", "9H")
    for _ in range(2):
        game.apply(next(a for a in game.legal_actions() if str(a) == "pass"))
    game.apply(next(a for a in game.legal_actions() if str(a) == "draw"))
    action = gin_action(view(game, 0), game.legal_actions())
    assert isinstance(action, Discard)
    hand = kinds(JUNK + " 9H")

    def left(kind: int) -> int:
        rest = list(hand)
        rest.remove(kind)
        return deadwood(rest)

    assert left(action.face.kind) == min(left(k) for k in set(hand))


def test_the_defender_lays_off_what_fits() -> None:
    """§G.5: at the showdown the defender lays off 4S and 5S onto the knocker's melds."""
    game = deal(KNOCKER, DEFENDER, "2D", "KH")
    play(game, "P1: pass", "P2: pass", "P1: draw", "P1: knock", "P1: discard KH")
    play(game, "P1: meld [AS 2S 3S]", "P1: meld [5H 5D 5C]", "P1: meld [9C 10C JC]")
    play(game, "P1: ready")
    assert choose(game) in ("layoff 4S", "layoff 5S")
    play(game, f"P2: {choose(game)}")
    assert choose(game) in ("layoff 4S", "layoff 5S")


@pytest.mark.parametrize("seed", range(6))
def test_greedy_finishes_gin_deals_legally(seed: int) -> None:
    """The engine refuses an illegal action, so a finished deal was played legally."""
    game = Game(find_variant("gin"), 2, seed=seed)
    play_to_end(game, [GreedyBot(), GreedyBot()], random.Random(seed), stop_at_deal_end=True)
    assert game.results and game.results[-1].end in ("knock", "exhaustion", "void")
