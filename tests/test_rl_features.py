"""Action features (rl/features.py) and the Gymnasium option ``action_space="features"``."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.spaces import Dict, Discrete
from gymnasium.utils.env_checker import check_env

from rummykit.engine import view
from rummykit.engine.actions import Discard, Draw, Meld, TakeColumn
from rummykit.rl import RummyGymEnv, SelfPlayPool, Table, action_codec
from rummykit.rl.features import KINDS, VERBS, action_features
from rummykit.rules import all_variants


def _blocks(encoder: object, row: np.ndarray, name: str) -> np.ndarray:
    b = encoder.block(name)  # type: ignore[attr-defined]
    return row[b.start : b.stop]


def test_the_width_is_fixed_by_the_players_not_the_meld_catalogue() -> None:
    for variant in all_variants():
        table = Table(variant, None, {})
        encoder = action_features(table.variant, table.game.pieces)
        assert encoder.size == len(VERBS) + 5 * KINDS + 5 + variant.max_players + 3 + 5
        assert encoder.size < 320 < action_codec(table.variant, table.game.pieces).size / 3


def _random_states(variant: str, seed: int, steps: int) -> list[Table]:
    table = Table(variant, 2, {})
    table.new_game(seed)
    rng = random.Random(seed)
    seen = []
    for _ in range(steps):
        if table.is_over:
            break
        seen.append(table)
        table.play(rng.choice(sorted(table.legal())))
    return seen


def test_each_row_says_what_the_move_lays_takes_gives_and_keeps() -> None:
    checked = {TakeColumn: 0, Discard: 0, Meld: 0, Draw: 0}
    for seed in range(6):
        table = Table("remi_ro", 2, {})
        table.new_game(seed)
        encoder = action_features(table.variant, table.game.pieces)
        copies = np.bincount([f.kind for f in table.game.pieces.faces], minlength=KINDS)
        rng = random.Random(seed)
        while not table.is_over:
            seat = table.to_move
            seen = view(table.game, seat)
            actions = list(table.legal().values())
            rows = encoder.encode(seen, actions)
            rack = np.bincount([f.kind for f in seen.rack], minlength=KINDS)
            for action, row in zip(actions, rows, strict=True):
                kind = type(action)
                assert row[VERBS.index(kind)] == 1.0
                assert _blocks(encoder, row, "verb").sum() == 1.0
                lays = np.zeros(KINDS)
                takes = np.zeros(KINDS)
                gives = np.zeros(KINDS)
                if isinstance(action, TakeColumn):
                    for face in seen.column[action.index :]:
                        takes[face.kind] += 1
                elif isinstance(action, Discard):
                    gives[action.face.kind] = 1
                elif isinstance(action, Meld):
                    for face in action.faces:
                        lays[face.kind] += 1
                else:
                    continue
                checked[kind] += 1
                np.testing.assert_allclose(_blocks(encoder, row, "lays"), lays / copies)
                np.testing.assert_allclose(_blocks(encoder, row, "takes"), takes / copies)
                np.testing.assert_allclose(_blocks(encoder, row, "gives"), gives / copies)
                keeps = rack + takes - lays - gives
                np.testing.assert_allclose(
                    _blocks(encoder, row, "keeps"), np.minimum(keeps / copies, 1), rtol=1e-6
                )
                assert _blocks(encoder, row, "scalars")[4] == pytest.approx(keeps.sum() / 30)
            table.play(rng.choice(sorted(table.legal())))
    assert all(checked[k] for k in (TakeColumn, Discard, Meld)), checked


def test_gym_features_mode_lists_legal_actions_as_rows() -> None:
    env = RummyGymEnv("remi_ro", players=2, action_space="features", max_legal_actions=48)
    encoder = env.features
    assert encoder is not None
    assert isinstance(env.action_space, Discrete) and env.action_space.n == 48
    assert isinstance(env.observation_space, Dict)
    assert env.observation_space["action_features"].shape == (48, encoder.size)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    done = False
    while not done:
        rows = env.legal_rows()
        mask = obs["action_mask"]
        assert mask.sum() == len(rows) == env.action_masks().sum()
        assert not obs["action_features"][len(rows) :].any()
        legal = env.table.legal()
        assert set(rows) <= set(legal)
        expected = encoder.encode(view(env.game, env.learner_seat), [legal[n] for n in rows])
        np.testing.assert_array_equal(obs["action_features"][: len(rows)], expected)
        obs, _reward, terminated, truncated, _info = env.step(int(rng.integers(len(rows))))
        done = terminated or truncated
        steps += 1
    assert steps > 10


def test_too_many_legal_actions_drop_table_plays_first_and_are_counted() -> None:
    env = RummyGymEnv("remi_ro", players=2, action_space="features", max_legal_actions=2)
    env.reset(seed=1)
    codec = env.table.codec
    overflowed = False
    for _ in range(300):
        rows = env.legal_rows()
        legal = sorted(env.table.legal())
        if len(legal) > 2:
            plain = [n for n in legal if codec.block_of(n).name not in ("meld", "attach")]
            assert rows == (plain + [n for n in legal if n not in plain])[:2]
        _obs, _r, terminated, truncated, info = env.step(0)
        overflowed |= "legal_overflow" in info
        if terminated or truncated:
            env.reset()
    assert overflowed


def test_a_row_outside_the_legal_list_is_refused() -> None:
    env = RummyGymEnv("basic", players=2, action_space="features")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not a legal action"):
        env.step(63)


def test_self_play_pool_policies_choose_rows_in_features_mode() -> None:
    seen_shapes = []

    def first_row(observation: dict[str, np.ndarray], mask: np.ndarray) -> int:
        seen_shapes.append(observation["action_features"].shape)
        assert mask.shape == (16,)
        return int(np.flatnonzero(mask)[0])

    env = RummyGymEnv(
        "basic",
        players=2,
        opponents=SelfPlayPool([first_row]),
        action_space="features",
        max_legal_actions=16,
        mask_in_observation=False,
    )
    obs, _ = env.reset(seed=2)
    assert "action_mask" not in obs
    for _ in range(20):
        obs, _r, terminated, truncated, _info = env.step(0)
        if terminated or truncated:
            break
    assert seen_shapes and seen_shapes[0] == (16, env.features.size)  # type: ignore[union-attr]


def test_gymnasium_check_env_accepts_features_mode() -> None:
    env = RummyGymEnv("basic", players=2, action_space="features", illegal_action="random")
    check_env(env, skip_render_check=True)


# The warnings PettingZoo's api_test gives its own classic games too (test_rl_aec.py).
@pytest.mark.filterwarnings(
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
    "ignore:Action mask numpy array is all zeros",
)
def test_pettingzoo_features_mode_passes_the_api_test_and_plays_rows() -> None:
    from pettingzoo.test import api_test

    from rummykit.rl import raw_env

    env = raw_env("basic", players=3, action_space="features", max_legal_actions=24)
    api_test(env, num_cycles=200)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for agent in env.agent_iter(max_iter=400):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert env.rows is not None
        rows = env.rows.rows(env.table.to_move)
        assert obs["action_mask"].sum() == len(rows) > 0
        assert obs["action_features"].shape == (24, env.rows.encoder.size)
        space = env.action_space(agent)
        assert isinstance(space, Discrete) and space.n == 24
        env.step(int(rng.integers(len(rows))))
