"""The bot driver: play_turn, play_to_end (max_actions, on_action, stop_at_deal_end), make_bot."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from rummykit.bots import BOTS, GreedyBot, RandomBot, make_bot, play_to_end, play_turn
from rummykit.engine.actions import Action, NextDeal, Ready
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import SeatView, view


class Recorder:
    """A bot that plays the first legal action and records what it was shown."""

    name = "recorder"

    def __init__(self) -> None:
        self.calls: list[tuple[SeatView, list[Action]]] = []

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        self.calls.append((view, list(legal)))
        return legal[0]


def _greedy(n: int) -> list[GreedyBot]:
    return [GreedyBot() for _ in range(n)]


# --------------------------------------------------------------------- play_turn


def test_play_turn_applies_and_returns_the_bots_choice() -> None:
    game = Game("remi_ro", 3, seed=11)
    bot = Recorder()
    seat = game.to_move
    legal = game.legal_actions()
    action = play_turn(game, bot, random.Random(0))
    assert action == legal[0]
    assert game.log == [(seat, action)]
    ((shown, shown_legal),) = bot.calls
    assert shown.seat == seat
    assert shown.to_move == seat
    assert shown_legal == legal


def test_play_turn_always_shows_the_seat_to_move() -> None:
    game = Game("remi_ro", 4, {"match_deals": 1}, seed=2)
    bot = Recorder()
    for _ in range(30):
        seat = game.to_move
        play_turn(game, bot, random.Random(0))
        assert bot.calls[-1][0].seat == seat


# --------------------------------------------------------------------- play_to_end


def test_play_to_end_finishes_and_counts_actions() -> None:
    game = Game("remi_ro", 2, seed=5)
    count = play_to_end(game, _greedy(2), random.Random(5))
    assert game.is_over
    assert game.phase is Phase.MATCH_END
    assert count == len(game.log)
    assert len(game.results) == 2  # match_deals defaults to the player count


def test_on_action_sees_every_action_with_its_seat() -> None:
    game = Game("remi_ro", 3, {"match_deals": 1}, seed=8)
    seen: list[tuple[int, Action]] = []
    count = play_to_end(
        game, _greedy(3), random.Random(8), on_action=lambda s, a: seen.append((s, a))
    )
    assert count == len(seen)
    assert seen == game.log


def test_max_actions_stops_early() -> None:
    game = Game("remi_ro", 4, seed=3)
    seen: list[tuple[int, Action]] = []
    count = play_to_end(
        game,
        _greedy(4),
        random.Random(3),
        max_actions=25,
        on_action=lambda s, a: seen.append((s, a)),
    )
    assert count == 25
    assert len(game.log) == 25
    assert len(seen) == 25
    assert not game.is_over


def test_max_actions_zero_does_nothing() -> None:
    game = Game("remi_ro", 2, seed=3)
    assert play_to_end(game, _greedy(2), random.Random(3), max_actions=0) == 0
    assert game.log == []


def test_play_to_end_resumes_where_it_stopped() -> None:
    # Stopping and resuming gives the same game as one uninterrupted run.
    a = Game("remi_ro", 2, seed=21)
    b = Game("remi_ro", 2, seed=21)
    bots_a, bots_b = _greedy(2), _greedy(2)
    play_to_end(a, bots_a, random.Random(1))
    rng = random.Random(1)
    total = play_to_end(b, bots_b, rng, max_actions=17)
    total += play_to_end(b, bots_b, rng, max_actions=40)
    total += play_to_end(b, bots_b, rng)
    assert b.is_over
    assert total == len(b.log)
    assert b.log == a.log
    assert b.totals == a.totals


def test_play_to_end_on_a_finished_game_is_a_no_op() -> None:
    game = Game("remi_ro", 2, {"match_deals": 1}, seed=4)
    play_to_end(game, _greedy(2), random.Random(4))
    before = list(game.log)
    assert play_to_end(game, _greedy(2), random.Random(4)) == 0
    assert game.log == before


def test_stop_at_deal_end_stops_after_one_deal() -> None:
    game = Game("remi_ro", 3, seed=6)  # three deals
    bots = _greedy(3)
    rng = random.Random(6)
    play_to_end(game, bots, rng, stop_at_deal_end=True)
    assert game.phase is Phase.DEAL_END
    assert len(game.results) == 1
    assert not game.is_over
    assert game.legal_actions() == [NextDeal()]
    # Called again from the deal end it plays `next` and the whole second deal.
    count = play_to_end(game, bots, rng, stop_at_deal_end=True)
    assert count > 1
    assert game.phase is Phase.DEAL_END
    assert len(game.results) == 2
    # The last deal ends the match; the loop stops because the match is over.
    play_to_end(game, bots, rng, stop_at_deal_end=True)
    assert game.is_over
    assert len(game.results) == 3


def test_stop_at_deal_end_with_max_actions() -> None:
    game = Game("remi_ro", 2, seed=6)
    count = play_to_end(game, _greedy(2), random.Random(6), max_actions=5, stop_at_deal_end=True)
    assert count == 5
    assert game.results == []


def test_bots_are_indexed_by_seat() -> None:
    game = Game("remi_ro", 3, {"match_deals": 1}, seed=9)
    recorders = [Recorder(), Recorder(), Recorder()]
    play_to_end(game, recorders, random.Random(0), max_actions=200)
    for seat, bot in enumerate(recorders):
        assert bot.calls, f"seat {seat} never played"
        assert all(v.seat == seat for v, _ in bot.calls)


# --------------------------------------------------------------------- registry


def test_bot_registry() -> None:
    assert list(BOTS) == ["random", "greedy", "easy", "medium", "hard"]
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("greedy"), GreedyBot)
    assert isinstance(make_bot("  Greedy "), GreedyBot)
    assert make_bot("random").name == "random"
    assert make_bot("greedy").name == "greedy"


def test_make_bot_returns_a_fresh_instance_each_time() -> None:
    assert make_bot("greedy") is not make_bot("greedy")


def test_unknown_bot_names_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown bot 'alphazero'; choose from random, greedy"):
        make_bot("alphazero")


# --------------------------------------------------------------------- views only


def twin_deals() -> tuple[Game, Game, int]:
    """Two 4-seat Remi deals that differ only in hidden pieces (a piece of another
    seat's rack traded with a stock piece), at the first player's first turn: his
    views of both are equal."""
    game = Game("remi_ro", 4, seed=14)
    order = list(game.walls_used[0])
    first = game.first_seat
    other = (first + 1) % 4
    hidden_rack = game.racks[other][0]
    hidden_stock = next(
        p for p in game.stock if p != game.indicator and game.faces[p] != game.faces[hidden_rack]
    )
    swapped = [
        hidden_stock if p == hidden_rack else hidden_rack if p == hidden_stock else p for p in order
    ]
    a = Game("remi_ro", 4, walls=[order], maker=game.first_maker, seed=1)
    b = Game("remi_ro", 4, walls=[swapped], maker=game.first_maker, seed=1)
    assert a.rack_faces(other) != b.rack_faces(other)
    for g in (a, b):
        while g.phase is Phase.PREPLAY:
            g.apply(Ready())
    return a, b, first


# ``hard`` searches against the clock, so its world count varies from run to run: the
# same search with a fixed count (hard@3) stands for it.
@pytest.mark.parametrize("name", [*(n for n in BOTS if n != "hard"), "hard@3"])
def test_every_level_chooses_the_same_for_the_same_view(name: str) -> None:
    """Hidden information has one door (STYLE 7): a bot's choice depends only on its
    seat's view, the legal list and its rng, never on pieces it cannot see."""
    a, b, seat = twin_deals()
    assert view(a, seat) == view(b, seat)
    assert a.legal_actions() == b.legal_actions()
    assert a.racks != b.racks
    for _ in range(3):
        choice_a = make_bot(name).choose(view(a, seat), a.legal_actions(), random.Random(9))
        choice_b = make_bot(name).choose(view(b, seat), b.legal_actions(), random.Random(9))
        assert choice_a == choice_b
        if a.to_move != seat:
            break
        a.apply(choice_a)
        b.apply(choice_b)
        if a.to_move != seat:
            break


def test_register_bot_adds_a_name_and_refuses_a_built_in_one() -> None:
    from rummykit.bots import register_bot

    with pytest.raises(ValueError, match="taken by a built-in bot"):
        register_bot("greedy", RandomBot)
    with pytest.raises(ValueError, match="taken by a built-in bot"):
        register_bot("hard@3", RandomBot)
    assert make_bot("greedy").__class__ is GreedyBot  # unchanged
    register_bot("Test-Registered", RandomBot)
    try:
        assert isinstance(make_bot("test-registered"), RandomBot)
    finally:
        del BOTS["test-registered"]
