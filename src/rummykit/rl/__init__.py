"""Reinforcement-learning environments for every rummykit variant.

Install the extra first: ``pip install 'rummykit[rl]'`` (PettingZoo, Gymnasium,
NumPy).  Then::

    from rummykit import rl

    env = rl.env("remi_ro", players=4)          # PettingZoo AEC, one deal per episode
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else policy(obs)   # obs["action_mask"]
        env.step(action)

    single = rl.RummyGymEnv("remi_ro", players=4, opponents="greedy")   # Gymnasium

Observations come from one seat's view only; action numbers are a fixed table
per variant; rewards are true deal scores.  ``docs/rl.md`` has the details.
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium  # noqa: F401
    import numpy as _numpy  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"rummykit.rl needs the 'rl' extra ({exc.name} is missing): pip install 'rummykit[rl]'"
    ) from exc

from rummykit.rl.actions import ActionBlock, ActionCodec, UnencodableActionError, action_codec
from rummykit.rl.aec import RummyEnv, agent_name, env, raw_env
from rummykit.rl.core import (
    DEFAULT_MAX_STEPS_PER_DEAL,
    EPISODE_RECYCLE_LIMIT,
    REWARD_MODES,
    InvalidActionError,
    RewardMode,
    Table,
    episode_options,
    is_match_option,
    observation_encoder,
)
from rummykit.rl.features import ActionFeatures, action_features
from rummykit.rl.gym_env import RummyGymEnv, gymnasium_id, register_gymnasium_envs
from rummykit.rl.memory import PublicMemory
from rummykit.rl.observation import (
    OBSERVATION_VERSION,
    ObservationBlock,
    ObservationEncoder,
    seat_view,
)
from rummykit.rl.opponents import SelfPlayPool

__all__ = [
    "DEFAULT_MAX_STEPS_PER_DEAL",
    "EPISODE_RECYCLE_LIMIT",
    "OBSERVATION_VERSION",
    "REWARD_MODES",
    "ActionBlock",
    "ActionCodec",
    "ActionFeatures",
    "InvalidActionError",
    "ObservationBlock",
    "ObservationEncoder",
    "PublicMemory",
    "RewardMode",
    "RummyEnv",
    "RummyGymEnv",
    "SelfPlayPool",
    "Table",
    "UnencodableActionError",
    "action_codec",
    "action_features",
    "agent_name",
    "env",
    "episode_options",
    "gymnasium_id",
    "is_match_option",
    "observation_encoder",
    "raw_env",
    "register_gymnasium_envs",
    "seat_view",
]

register_gymnasium_envs()
