"""PolicyBot: a row policy plays as a bot from the view alone, with the inputs it was
trained on (the Gymnasium environment's features mode without the public memory)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rummykit.bots import BOTS, register_bot
from rummykit.bots.tournament import TournamentSpec, play_duplicate
from rummykit.engine import seat_legal_actions, view
from rummykit.rl import RummyGymEnv
from rummykit.rl.policy_bot import PolicyBot


def _first_row(_observation: np.ndarray, _rows: np.ndarray) -> int:
    return 0


@pytest.mark.parametrize("variant", ["remi_ro", "romme"])
def test_the_bot_sees_what_the_environment_showed_the_learner(variant: str) -> None:
    env = RummyGymEnv(variant, 2, action_space="features", public_memory=False)
    bot = PolicyBot(_first_row)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(40):
        seat = env.learner_seat
        legal = seat_legal_actions(env.game, seat)
        observation, rows, ordered = bot.inputs(view(env.game, seat), legal)
        assert np.array_equal(observation, obs["observation"])
        assert np.array_equal(rows, obs["action_features"][: len(ordered)])
        decode = env.table.codec.decode
        assert ordered == [decode(n) for n in env.legal_rows()]
        checked += 1
        obs, _r, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks())))
        )
        if terminated or truncated:
            obs, _ = env.reset()
    assert checked == 40


def test_with_the_memory_the_observation_differs_once_a_discard_is_taken() -> None:
    """public_memory=False is a real switch: the memory blocks stay 0 without it."""
    with_memory = RummyGymEnv("remi_ro", 2, action_space="features")
    without = RummyGymEnv("remi_ro", 2, action_space="features", public_memory=False)
    a, _ = with_memory.reset(seed=1)
    b, _ = without.reset(seed=1)
    rng = np.random.default_rng(1)
    differed = False
    for _ in range(60):
        differed |= not np.array_equal(a["observation"], b["observation"])
        row = int(rng.choice(np.flatnonzero(with_memory.action_masks())))
        a, _, done, cut, _ = with_memory.step(row)
        b, _, done_b, cut_b, _ = without.step(row)
        assert (done, cut) == (done_b, cut_b)
        if done or cut:
            break
    assert differed


def test_a_policy_bot_plays_duplicate_deals_in_the_tournament() -> None:
    register_bot("test-policy", lambda: PolicyBot(_first_row, name="test-policy"))
    try:
        spec = TournamentSpec("remi_ro", ("test-policy", "random"), {}, seed=5)
        outcome = play_duplicate(spec, 0)
    finally:
        del BOTS["test-policy"]
    assert set(outcome.scores) == {"test-policy", "random"}
    assert all(len(s) == 2 for s in outcome.scores.values())


def test_a_row_out_of_range_is_refused() -> None:
    env = RummyGymEnv("remi_ro", 2)
    env.reset(seed=0)
    seat = env.learner_seat
    bot = PolicyBot(lambda _o, rows: len(rows))
    with pytest.raises(ValueError, match="policy chose row"):
        bot.choose(view(env.game, seat), seat_legal_actions(env.game, seat), random.Random(0))
