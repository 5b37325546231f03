"""RandomBot: only legal actions, deterministic in its RNG, and it finishes games."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from rummykit.bots import RandomBot, play_to_end
from rummykit.engine.actions import Action
from rummykit.engine.game import Game
from rummykit.engine.view import SeatView, view


class CheckedRandom(RandomBot):
    """A RandomBot that asserts its choice is one of the legal actions it was shown."""

    def __init__(self) -> None:
        self.choices = 0

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        action = super().choose(view, legal, rng)
        assert action in legal
        assert any(action is a for a in legal), "the bot must return one of the given objects"
        self.choices += 1
        return action


def test_choose_returns_an_element_of_legal() -> None:
    game = Game("remi_ro", 4, seed=1)
    bot = RandomBot()
    legal = game.legal_actions()
    rng = random.Random(0)
    for _ in range(50):
        assert bot.choose(view(game, game.to_move), legal, rng) in legal


def test_choose_is_uniform_over_legal() -> None:
    game = Game("remi_ro", 4, seed=1)
    legal = ["a", "b", "c"]  # the bot only indexes the list
    rng = random.Random(123)
    counts = dict.fromkeys(legal, 0)
    bot = RandomBot()
    v = view(game, 0)
    for _ in range(3000):
        counts[bot.choose(v, legal, rng)] += 1  # type: ignore[arg-type,index]
    assert all(800 < c < 1200 for c in counts.values()), counts


def test_single_legal_action_is_taken() -> None:
    game = Game("remi_ro", 2, seed=1)
    legal = game.legal_actions()[:1]
    assert RandomBot().choose(view(game, game.to_move), legal, random.Random(0)) is legal[0]


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2)])
def test_random_games_are_legal_and_finish(players: int, seed: int) -> None:
    game = Game("remi_ro", players, {"match_deals": 1}, seed=seed)
    bots = [CheckedRandom() for _ in range(players)]
    count = play_to_end(game, bots, random.Random(seed), max_actions=20_000)
    assert game.is_over, f"not finished after {count} actions"
    assert len(game.results) == 1
    assert count == sum(b.choices for b in bots) == len(game.log)


def test_a_full_random_match_finishes() -> None:
    game = Game("remi_ro", 4, seed=17)  # 4 deals
    count = play_to_end(game, [CheckedRandom() for _ in range(4)], random.Random(17))
    assert game.is_over
    assert len(game.results) == 4
    assert game.totals == list(game.results[-1].totals)
    assert count == len(game.log)


def _random_log(game_seed: int, rng_seed: int, limit: int = 400) -> list[tuple[int, Action]]:
    game = Game("remi_ro", 3, {"match_deals": 1}, seed=game_seed)
    play_to_end(game, [RandomBot() for _ in range(3)], random.Random(rng_seed), max_actions=limit)
    return game.log


def test_deterministic_for_a_given_rng_seed() -> None:
    assert _random_log(5, 42) == _random_log(5, 42)


def test_different_rng_seeds_play_differently() -> None:
    assert _random_log(5, 42) != _random_log(5, 43)


def test_choices_depend_only_on_the_rng_stream() -> None:
    # Same legal list and same RNG state → same pick, whatever the view.
    a, b = Game("remi_ro", 2, seed=1), Game("remi_ro", 4, seed=9)
    legal = a.legal_actions()
    rng_a, rng_b = random.Random(7), random.Random(7)
    picks_a = [RandomBot().choose(view(a, 0), legal, rng_a) for _ in range(20)]
    picks_b = [RandomBot().choose(view(b, 3), legal, rng_b) for _ in range(20)]
    assert picks_a == picks_b


def test_random_bot_refuses_an_empty_choice() -> None:
    game = Game("basic", 2, seed=1)
    with pytest.raises(ValueError, match="no legal action"):
        RandomBot().choose(view(game, 0), [], random.Random(0))
