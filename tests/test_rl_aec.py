"""The PettingZoo AEC environment (rl/aec.py): API conformance, seeding, rewards, errors."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest
from gymnasium.spaces import Dict, Discrete
from pettingzoo.test import api_test, seed_test

from rummykit import rl
from rummykit.engine import IllegalActionError, Phase
from rummykit.rl.conformance import variant_tables
from rummykit.rules import OptionError, all_variants

TABLES = variant_tables()

# api_test warns about things PettingZoo's own classic games do too: dict observations
# with an action mask (it exempts chess, go, ... by name) and the all-zero mask of an
# agent whose episode is over.  The suite turns warnings into errors, so these three
# are allowed here and every other warning still fails the test.
API_TEST_WARNINGS = (
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
    "ignore:Action mask numpy array is all zeros",
)


def _masked_random_episode(
    env: rl.RummyEnv, seed: int, policy_seed: int = 0
) -> list[tuple[Any, ...]]:
    """Play one episode with a seeded masked random policy; return the trajectory."""
    rng = np.random.default_rng(policy_seed)
    env.reset(seed=seed)
    trajectory = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            action = int(legal[rng.integers(len(legal))])
        trajectory.append(
            (agent, obs["observation"].tobytes(), reward, terminated, truncated, action)
        )
        env.step(action)
    return trajectory


@pytest.mark.filterwarnings(*API_TEST_WARNINGS)
@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_pettingzoo_api_test(variant: str, players: int) -> None:
    api_test(rl.env(variant, players), num_cycles=300)


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_pettingzoo_seed_test(variant: str, players: int) -> None:
    seed_test(lambda: rl.env(variant, players), num_cycles=200)


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_the_same_seed_reproduces_an_episode_exactly(variant: str, players: int) -> None:
    # Card variants recycle their stock, so random deals can be long: cap them.
    def make() -> Any:
        return rl.env(variant, players, max_steps_per_deal=400)

    first = _masked_random_episode(make(), seed=11)
    again = _masked_random_episode(make(), seed=11)
    assert first == again
    assert first != _masked_random_episode(make(), seed=12)


def test_a_seeded_episode_deals_as_the_seeded_game() -> None:
    env = rl.raw_env("remi_ro", 4)
    env.reset(seed=5)
    from rummykit.engine import Game

    game = Game("remi_ro", 4, {"match_deals": 1}, seed=5)
    assert env.game.walls_used == game.walls_used
    assert env.agent_selection == f"player_{game.to_move}"


def test_unseeded_resets_follow_the_last_seed() -> None:
    a, b = rl.raw_env("remi_ro", 2), rl.raw_env("remi_ro", 2)
    a.reset(seed=3)
    b.reset(seed=3)
    a.reset()
    b.reset()
    assert a.game.walls_used == b.game.walls_used
    assert a.game.seed != 3


def test_agents_are_engine_seats() -> None:
    env = rl.raw_env("remi_ro", 3)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    assert env.agent_selection == f"player_{env.game.to_move}"
    actions, observations = env.action_space("player_1"), env.observation_space("player_2")
    assert isinstance(actions, Discrete) and actions.n == 20982
    assert isinstance(observations, Dict)
    assert observations["observation"].shape == (2224,)  # version 2
    assert str(env) == "rummykit_remi_ro_v0"


def test_only_the_agent_to_move_has_legal_actions() -> None:
    env = rl.raw_env("remi_ro", 4)
    env.reset(seed=2)
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8
        assert bool(mask.any()) == (agent == env.agent_selection)


@pytest.mark.parametrize("deals", [1, 3])
def test_each_deal_pays_every_agent_its_deal_score(deals: int) -> None:
    env = rl.raw_env("remi_ro", 3, match_deals=deals)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    received = dict.fromkeys(env.possible_agents, 0.0)
    deal_infos = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        received[agent] += reward
        if "deal" in info:
            deal_infos.append((agent, info["deal"]))
        assert not truncated
        if terminated:
            env.step(None)
            continue
        assert env.game.phase is not Phase.DEAL_END  # the environment plays 'next'
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        env.step(int(legal[rng.integers(len(legal))]))
    game = env.game
    assert len(game.results) == deals and game.is_over
    assert [received[f"player_{s}"] for s in range(3)] == list(game.totals)
    assert {d for _, d in deal_infos} == set(range(1, deals + 1))


def test_relative_reward_is_score_minus_the_others_mean() -> None:
    env = rl.raw_env("remi_ro", 4, reward="relative", reward_scale=0.01)
    trajectory = _masked_random_episode(env, seed=4)
    final = {agent: reward for agent, _, reward, terminated, _, _ in trajectory if terminated}
    scores = env.game.results[-1].scores
    for seat, score in enumerate(scores):
        others = (sum(scores) - score) / 3
        assert final[f"player_{seat}"] == pytest.approx((score - others) * 0.01)
    assert sum(final.values()) == pytest.approx(0.0)


def test_long_deals_are_truncated_for_every_agent() -> None:
    env = rl.raw_env("remi_ro", 4, max_steps_per_deal=25)
    trajectory = _masked_random_episode(env, seed=1)
    assert sum(1 for step in trajectory if step[-1] is not None) == 25
    ends = [step for step in trajectory if step[4]]
    assert len(ends) == 4 and all(step[2] == 0.0 for step in ends)
    assert not env.game.results  # the unfinished deal is not scored


def test_options_are_validated_by_the_variant() -> None:
    with pytest.raises(OptionError, match="unknown option"):
        rl.env("remi_ro", 4, no_such_option=True)
    with pytest.raises(OptionError, match="opening_min_points"):
        rl.env("remi_ro", 4, opening_min_points=-5)
    with pytest.raises(OptionError, match="2 to 4 players"):
        rl.env("remi_ro", 5)
    with pytest.raises(OptionError, match="reward"):
        rl.env("remi_ro", 4, reward="shaped")
    with pytest.raises(OptionError, match="max_steps_per_deal"):
        rl.env("remi_ro", 4, max_steps_per_deal=0)
    with pytest.raises(ValueError, match="render_mode"):
        rl.env("remi_ro", 4, render_mode="svg")
    env = rl.raw_env("remi", 2, opening_min_points=30)
    assert env.game.options["opening_min_points"] == 30


def test_illegal_numbers_raise_and_change_nothing() -> None:
    env = rl.raw_env("remi_ro", 4)
    env.reset(seed=6)
    before = len(env.game.log)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    for bad in (-1, 20982, 1.0, "3", None, True):
        with pytest.raises(rl.InvalidActionError):
            env.step(bad)
    assert len(env.game.log) == before
    legal = int(np.flatnonzero(mask)[0])
    env.step(np.int64(legal))
    env.step(np.array(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])))
    assert len(env.game.log) == before + 2


def test_render_shows_only_what_the_seat_to_move_sees() -> None:
    env = rl.raw_env("remi_ro", 4, render_mode="ansi")
    env.reset(seed=9)
    text = env.render()
    assert isinstance(text, str)
    seat = env.game.to_move
    own = " ".join(str(f) for f in sorted(env.game.rack_faces(seat)))
    assert own in text
    for other in range(4):
        if other != seat:
            assert f"P{other + 1}: {len(env.game.racks[other])} pieces" in text
    assert rl.raw_env("remi_ro", 4).render() is None


def _final_rewards(env: rl.RummyEnv, seed: int) -> dict[str, float]:
    trajectory = _masked_random_episode(env, seed=seed)
    return {agent: reward for agent, _, reward, terminated, _, _ in trajectory if terminated}


def test_an_episode_is_one_deal_even_where_the_match_is_longer() -> None:
    """Basic Rummy plays to 750 points; without a match option an episode is one deal."""
    env = rl.raw_env("basic", 2)
    final = _final_rewards(env, seed=2)
    assert len(env.game.results) == 1 and env.game.phase is Phase.DEAL_END
    assert [final["player_0"], final["player_1"]] == list(env.game.results[0].scores)


def test_a_match_option_makes_the_episode_the_match() -> None:
    assert not rl.Table("basic", 2, {}).whole_match
    assert rl.Table("basic", 2, {"target_score": 100}).whole_match
    assert rl.Table("german2", 2, {"match_loss_threshold": 50}).whole_match
    env = rl.raw_env("basic", 2, match_mode="deals", match_deals=2)
    _final_rewards(env, seed=2)
    assert len(env.game.results) == 2 and env.game.is_over


def test_penalty_points_are_negative_rewards() -> None:
    """German Rummy for two is won with the lowest total: a deal's points are bad news."""
    env = rl.raw_env("german2", 2)
    final = _final_rewards(env, seed=2)
    scores = env.game.results[0].scores
    assert any(scores)
    assert [final["player_0"], final["player_1"]] == [-s for s in scores]


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_a_pickled_or_copied_env_plays_on_as_the_original(variant: str) -> None:
    """Mid-episode copies (pickle and deepcopy) give the same observations, masks and
    rewards for the same actions, through PettingZoo's wrappers."""
    env = rl.env(variant)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _agent in env.agent_iter(30):
        obs, _r, terminated, truncated, _i = env.last()
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        env.step(None if terminated or truncated else int(legal[rng.integers(len(legal))]))
    twins = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for _agent in env.agent_iter(40):
        obs, reward, terminated, truncated, _i = env.last()
        for twin in twins:
            other = twin.last()
            assert twin.agent_selection == env.agent_selection
            assert (other[0]["observation"] == obs["observation"]).all()
            assert (other[0]["action_mask"] == obs["action_mask"]).all()
            assert other[1:4] == (reward, terminated, truncated)
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        action = None if terminated or truncated else int(legal[rng.integers(len(legal))])
        for e in (env, *twins):
            e.step(action)
