"""Opponents of the Gymnasium environment (rl/opponents.py): bots, callables, self-play."""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
import pytest

from rummykit import rl
from rummykit.bots import make_bot
from rummykit.engine import IllegalActionError, SeatView
from rummykit.engine.actions import Action, Discard, Draw
from rummykit.rules import OptionError


def _play(env: rl.RummyGymEnv, seed: int, steps: int = 200) -> list[float]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards = []
    for _ in range(steps):
        legal = np.flatnonzero(env.action_masks())
        _obs, reward, terminated, truncated, _info = env.step(int(rng.choice(legal)))
        rewards.append(reward)
        if terminated or truncated:
            break
    return rewards


def test_a_callable_opponent_gets_its_seats_view_and_its_action_is_played() -> None:
    """A view -> action callable: draw, then throw the highest card (RULES §3)."""
    seen: list[SeatView] = []

    def draw_and_throw(view: SeatView) -> Action:
        seen.append(view)
        if len(view.rack) == view.rack_sizes[view.seat] and len(view.rack) % 7 == 0:
            return Draw()
        return Discard(max(view.rack))

    env = rl.RummyGymEnv("basic", 4, opponents=draw_and_throw)
    _play(env, 1, steps=30)
    assert seen and {v.seat for v in seen} == {1, 2, 3}
    assert all(v.to_move == v.seat for v in seen)
    log = env.game.log
    assert any(seat != 0 and isinstance(a, Draw) for seat, a in log)


def test_a_callable_may_answer_with_an_action_number_and_an_illegal_one_raises() -> None:
    def numbered(view: SeatView) -> int:
        # Basic Rummy for two: 10 cards (RULES §3.2); draw, then throw the highest.
        action = Draw() if len(view.rack) == 10 else Discard(max(view.rack))
        return env.table.codec.encode(action)

    env = rl.RummyGymEnv("basic", 2, opponents=numbered)
    _play(env, 3, steps=6)
    assert sum(seat == 1 and isinstance(a, Discard) for seat, a in env.game.log) >= 3
    stubborn = rl.RummyGymEnv("basic", 2, opponents=lambda view: Draw())
    with pytest.raises(IllegalActionError):
        _play(stubborn, 3, steps=5)  # a second draw in one turn names its rule


def test_bot_instances_and_names_mix() -> None:
    env = rl.RummyGymEnv("basic", 3, opponents=[make_bot("greedy"), "random"])
    assert env.opponent_names == ("greedy", "random")
    _play(env, 2)


def test_a_self_play_pool_draws_a_policy_per_seat_and_reset() -> None:
    calls: list[tuple[int, Any]] = []

    def policy(index: int) -> Any:
        def act(observation: Any, mask: np.ndarray) -> int:
            assert observation["observation"].shape == (env.table.encoder.size,)
            assert mask.dtype == np.bool_ and mask.any()
            calls.append((index, observation))
            # A deterministic but varied choice: the first legal number loops on take/reset.
            legal = np.flatnonzero(mask)
            return int(legal[zlib.crc32(observation["observation"].tobytes()) % len(legal)])

        return act

    pool = rl.SelfPlayPool([policy(0), policy(1)])
    env = rl.RummyGymEnv("remi_ro", 4, opponents=pool)
    assert env.opponent_names == ("self-play",) * 3
    _play(env, 5, steps=20)
    first = [i for i, _ in calls]
    calls.clear()
    _play(env, 5, steps=20)
    assert [i for i, _ in calls] == first  # the draw is fixed by the reset seed
    pool.add(policy(2))
    assert len(pool.policies) == 3


def test_pool_and_opponent_errors() -> None:
    with pytest.raises(OptionError, match="empty"):
        rl.RummyGymEnv("basic", 2, opponents=rl.SelfPlayPool()).reset(seed=1)
    with pytest.raises(OptionError, match="one weight per policy"):
        rl.SelfPlayPool([lambda o, m: 0], weights=[1.0, 2.0])
    with pytest.raises(OptionError, match="opponent 3"):
        rl.RummyGymEnv("basic", 2, opponents=[3])  # type: ignore[list-item]
    with pytest.raises(OptionError, match="give one opponent or 3"):
        rl.RummyGymEnv("basic", 4, opponents=["random", "random"])


def test_the_random_bot_plays_as_through_its_view() -> None:
    """The random bot is asked without a view (it reads none); a subclass takes the
    general path with a view: the same seeds give the same episodes."""
    from rummykit.bots.random_bot import RandomBot

    class ViewedRandom(RandomBot):
        seen = 0

        def choose(self, view: SeatView, legal: Any, rng: Any) -> Action:
            ViewedRandom.seen += 1
            return super().choose(view, legal, rng)

    for variant in ("remi_ro", "romme"):
        fast = rl.RummyGymEnv(variant, 3, opponents="random")
        viewed = rl.RummyGymEnv(variant, 3, opponents=[ViewedRandom(), ViewedRandom()])
        for seed in range(3):
            assert _play(fast, seed) == _play(viewed, seed)
            assert fast.table.game.log == viewed.table.game.log
            np.testing.assert_array_equal(fast.table.observation(0), viewed.table.observation(0))
    assert ViewedRandom.seen > 0
