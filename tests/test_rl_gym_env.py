"""The Gymnasium single-agent environment (rl/gym_env.py): one learner against bots."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from rummykit import rl
from rummykit.engine import IllegalActionError
from rummykit.rl.conformance import variant_tables
from rummykit.rules import OptionError, all_variants

TABLES = variant_tables()


def _episode(env: rl.RummyGymEnv, seed: int) -> tuple[float, list[int], dict[str, Any]]:
    """Play one episode with a seeded masked random learner."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total = 0.0
    actions = []
    while True:
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        action = int(legal[rng.integers(len(legal))])
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        if terminated or truncated:
            return total, actions, info


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_gymnasium_check_env(variant: str, players: int) -> None:
    """Through gymnasium.make, so the render modes are checked too.  check_env samples
    actions without the mask, which the 'random' illegal-action mode is for."""
    env = gymnasium.make(rl.gymnasium_id(variant), players=players, illegal_action="random")
    check_env(env.unwrapped)


def test_every_variant_is_registered() -> None:
    for variant in all_variants():
        assert rl.gymnasium_id(variant.name) in gymnasium.registry
    assert rl.register_gymnasium_envs() == [rl.gymnasium_id(v.name) for v in all_variants()]


@pytest.mark.parametrize("opponents", ["random", "greedy", ("greedy", "random", "random")])
def test_the_learner_receives_its_deal_score(opponents: str | tuple[str, ...]) -> None:
    env = rl.RummyGymEnv("remi_ro", 4, opponents=opponents, learner_seat=2)
    total, actions, info = _episode(env, seed=3)
    result = env.game.results[-1]
    assert env.table.finished and len(env.game.results) == 1
    assert total == result.scores[2]
    assert info["deal_scores"] == result.scores
    learner_actions = sum(1 for seat, _ in env.game.log if seat == 2)
    assert learner_actions == len(actions)


def test_episodes_reproduce_from_the_seed() -> None:
    env = rl.RummyGymEnv("remi_ro", 3, opponents="random", learner_seat=None)
    first = _episode(env, seed=21)
    log = [str(a) for _, a in env.game.log]
    again = _episode(rl.RummyGymEnv("remi_ro", 3, opponents="random", learner_seat=None), 21)
    assert first == again
    env.reset(seed=21)
    assert env.learner_seat in range(3)
    assert log  # the bots' choices were part of what reproduced


def test_illegal_actions_raise_by_default_and_can_be_replaced() -> None:
    env = rl.RummyGymEnv("remi_ro", 2)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    forgiving = rl.RummyGymEnv("remi_ro", 2, illegal_action="random")
    forgiving.reset(seed=1)
    _, reward, _, _, info = forgiving.step(illegal)
    assert info["illegal_action"] is True and reward == 0.0
    assert env.action_masks().dtype == np.bool_
    assert env.action_masks().sum() == obs["action_mask"].sum()


def test_construction_errors_name_the_problem() -> None:
    with pytest.raises(OptionError, match="opponents"):
        rl.RummyGymEnv("remi_ro", 4, opponents=("random",))
    with pytest.raises(ValueError, match="unknown bot"):
        rl.RummyGymEnv("remi_ro", 2, opponents="alphazero")
    with pytest.raises(OptionError, match="learner_seat"):
        rl.RummyGymEnv("remi_ro", 2, learner_seat=2)
    with pytest.raises(OptionError, match="illegal_action"):
        rl.RummyGymEnv("remi_ro", 2, illegal_action="ignore")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="unknown option"):
        rl.RummyGymEnv("remi_ro", 2, colour="red")


def test_stepping_after_the_end_needs_a_reset() -> None:
    env = rl.RummyGymEnv("remi_ro", 2, max_steps_per_deal=10)
    _episode(env, seed=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    assert env.table.truncated and not env.game.results


def test_render_is_the_learners_view() -> None:
    env = rl.RummyGymEnv("remi_ro", 4, learner_seat=1, render_mode="ansi")
    env.reset(seed=5)
    text = env.render()
    assert isinstance(text, str) and "seen by P2" in text


def test_bots_choose_the_same_without_the_history_text() -> None:
    """rummykit's bots never read view.history, so the fast default changes nothing."""
    runs: list[object] = []
    for history in (False, True):
        env = rl.RummyGymEnv("remi_ro", 4, opponents="greedy", bot_history=history)
        runs.append(_episode(env, seed=4))
        runs.append([str(a) for _, a in env.game.log])
    assert runs[0] == runs[2] and runs[1] == runs[3]


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_a_pickled_or_copied_env_plays_on_as_the_original(variant: str) -> None:
    env = gymnasium.make(rl.gymnasium_id(variant), opponents="greedy")
    obs, _info = env.reset(seed=8)
    rng = np.random.default_rng(8)
    envs = [env]
    for step in range(40):
        if step == 0:  # vienna with greedy bots can end within two learner steps
            envs += [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        action = int(legal[rng.integers(len(legal))])
        outcomes = [e.step(action) for e in envs]
        obs = outcomes[0][0]
        for other in outcomes[1:]:
            assert (other[0]["observation"] == obs["observation"]).all()
            assert other[1:4] == outcomes[0][1:4]
        if outcomes[0][2] or outcomes[0][3]:
            break
    assert len(envs) == 3


def test_a_gymnasium_vector_env_steps_with_masks() -> None:
    envs = gymnasium.make_vec("rummykit/remi_ro-v0", num_envs=2, vectorization_mode="sync")
    obs, _info = envs.reset(seed=3)
    assert obs["observation"].shape[0] == 2 and obs["action_mask"].shape[0] == 2
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(400):
        actions = [
            int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0
            for mask in obs["action_mask"]
        ]
        obs, rewards, terminated, truncated, _info = envs.step(np.array(actions))
        ended += int(terminated.sum() + truncated.sum())
        assert rewards.shape == (2,)
        if ended >= 2:
            break
    assert ended >= 1  # a deal finished and the vector env reset it
    envs.close()


def test_the_mask_can_stay_out_of_the_observation() -> None:
    """sb3-contrib's MaskablePPO reads the mask from action_masks(), so the network's
    input can be the bare vector."""
    bare = gymnasium.make("rummykit/remi_ro-v0", mask_in_observation=False)
    full = gymnasium.make("rummykit/remi_ro-v0")
    assert isinstance(bare.observation_space, gymnasium.spaces.Box)
    obs, _ = bare.reset(seed=4)
    reference, _ = full.reset(seed=4)
    assert isinstance(obs, np.ndarray) and bare.observation_space.contains(obs)
    np.testing.assert_array_equal(obs, reference["observation"])
    np.testing.assert_array_equal(
        bare.get_wrapper_attr("action_masks")(), reference["action_mask"].astype(bool)
    )
    check_env(
        gymnasium.make(
            "rummykit/remi_ro-v0", mask_in_observation=False, illegal_action="random"
        ).unwrapped
    )


@pytest.mark.parametrize(("variant", "seed"), [("continental", 4), ("vienna", 8)])
def test_reset_never_returns_a_finished_episode(variant: str, seed: int) -> None:
    """With these seeds a random bot ends the deal before the learner's first move (a
    dealt Continental layout, RULES §7.6; a Vienna call, §6.6): reset deals again, so the
    learner always has a legal action (an all-zero mask breaks masked learners)."""
    env = rl.RummyGymEnv(variant, None, opponents="random", match_deals=1)
    obs, info = env.reset(seed=seed)
    assert obs["action_mask"].any() and not env.table.is_over
    assert len(info["skipped_deals"]) >= 1
    again, _ = env.reset(seed=seed)
    np.testing.assert_array_equal(again["observation"], obs["observation"])
