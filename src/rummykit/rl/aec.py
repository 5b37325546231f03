"""The PettingZoo AEC environment: every variant, every player count.

Agents ``player_0`` … ``player_{n-1}`` are engine seats ``0`` … ``n-1``.  Each
observation is ``{"observation": float32 vector, "action_mask": int8 vector}``
built from that seat's view alone.  Rewards are true deal scores: when a deal
ends every agent receives its deal score (read it from ``last()`` on its next
turn, or at the end); nothing is given in between.  An episode is one deal
unless an option setting the match's length (``match_deals``, ``target_score``,
any ``match_*``) is passed; then it is the match, and between deals the
environment plays ``next`` itself.  See ``docs/rl.md``.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from rummykit.engine import Game
from rummykit.rl.core import DEFAULT_MAX_STEPS_PER_DEAL, RewardMode, Table
from rummykit.rl.features import DEFAULT_MAX_LEGAL_ACTIONS, LegalRows
from rummykit.rl.observation import OBSERVATION_VERSION
from rummykit.rl.render import RgbCanvas, render_rgb, render_text
from rummykit.rules.options import OptionError
from rummykit.rules.variant import Variant

__all__ = ["RummyEnv", "agent_name", "env", "observation_space", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]


def agent_name(seat: int) -> str:
    """The agent id of engine seat ``seat``: ``player_{seat}``."""
    return f"player_{seat}"


def observation_space(observation_size: int, action_count: int) -> spaces.Dict:
    """The Dict space of the environments' observations."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-1.0, 1.0, (observation_size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (action_count,), dtype=np.int8),
        }
    )


class RummyEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment for one rummykit variant and player count.

    Parameters beyond the variant's options (keyword-only):

    ``reward``
        ``"score"`` (default): the true deal score.  ``"relative"``: the deal
        score minus the mean of the other seats' scores (opt-in shaping).
    ``reward_scale``
        Multiplies every reward (default 1.0).
    ``max_steps_per_deal``
        Agent actions allowed in one deal; reaching it truncates the episode for
        every agent with no reward for the unfinished deal (default 5,000).
    ``render_mode``
        ``None``, ``"human"`` (print), ``"ansi"`` (return text) or
        ``"rgb_array"`` (an ``H x W x 3`` ``uint8`` picture): what the seat to
        move sees.
    ``action_space``
        ``"flat"`` (default): the codec's numbers.  ``"features"``: the legal
        actions as rows of feature vectors (``observation["action_features"]``,
        :mod:`rummykit.rl.features`) and the action a row index, with
        ``max_legal_actions`` rows (default 64).
    """

    # An instance attribute, as in AECEnv; each instance names its variant.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["human", "ansi", "rgb_array"],
        "render_fps": 4,
        "name": "rummykit_v0",
        "is_parallelizable": False,
        "observation_version": OBSERVATION_VERSION,
    }

    def __init__(
        self,
        variant: Variant | str = "remi_ro",
        players: int | None = None,
        *,
        render_mode: str | None = None,
        reward: RewardMode = "score",
        reward_scale: float = 1.0,
        max_steps_per_deal: int = DEFAULT_MAX_STEPS_PER_DEAL,
        action_space: Literal["flat", "features"] = "flat",
        max_legal_actions: int = DEFAULT_MAX_LEGAL_ACTIONS,
        **options: Any,
    ) -> None:
        super().__init__()
        if action_space not in ("flat", "features"):
            raise OptionError(
                f"action_space = {action_space!r} is not allowed; use 'flat' | 'features'"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}"
            )
        self.table = Table(
            variant,
            players,
            options,
            reward=reward,
            reward_scale=reward_scale,
            max_steps_per_deal=max_steps_per_deal,
        )
        self.render_mode = render_mode
        self._canvas = RgbCanvas(
            self.table.players, self.table.encoder.piece_count, self.table.encoder.max_formations
        )
        self.metadata = {**self.metadata, "name": f"rummykit_{self.table.variant.name}_v0"}
        self.possible_agents: list[str] = [agent_name(s) for s in range(self.table.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        space = observation_space(self.table.encoder.size, self.table.codec.size)
        self.rows: LegalRows | None = None
        """With ``action_space="features"``: the rows of the agent to move."""
        actions = self.table.codec.size
        if action_space == "features":
            self.rows = LegalRows(self.table, max_legal_actions)
            space = self.rows.spaces(space["observation"], True)
            actions = self.rows.max_rows
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.agents: list[str] = []

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The (shared) observation space."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(N)`` with N fixed per variant (see :mod:`rummykit.rl.actions`)."""
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        """The engine game (full state: for analysis, never for observations)."""
        return self.table.game

    # ------------------------------------------------------------------ API

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode.

        With ``seed`` the episode deals exactly as ``Game(variant, players,
        options, seed=seed)``, and later unseeded resets follow a sequence fixed
        by it.  ``options`` is accepted for API compatibility and unused: the
        variant's options are fixed when the environment is built.
        """
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(2**63))
        self.table.new_game(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._rewards_set = False
        self.agent_selection = self.possible_agents[self.table.to_move]

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation and action mask (all 0 unless it is to move)."""
        seat = self._seat[agent]
        if self.rows is not None:
            return self.rows.observe(self.table.observation(seat), seat, True)
        return {
            "observation": self.table.observation(seat),
            "action_mask": self.table.action_mask(seat),
        }

    def step(self, action: Any) -> None:
        """Play action number ``action`` for ``agent_selection``.

        A finished agent must step with ``None``.  A number outside the space
        raises :class:`~rummykit.rl.InvalidActionError`; a masked-out one raises
        the engine's :class:`~rummykit.engine.IllegalActionError`.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # The agent has seen its accumulated reward and info through last().
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        if self.rows is not None:
            action = self.rows.number(self._seat[agent], action)
        outcome = self.table.play(action)
        # Rewards are non-zero only on a deal's last step, so the reward dicts are
        # touched only then and on the step after it.
        if self._rewards_set:
            self._clear_rewards()
            self._rewards_set = False
        if outcome.deal is not None:
            for a, r in zip(self.possible_agents, self.table.rewards(outcome.deal), strict=True):
                self.rewards[a] = r
                self.infos[a] = {"deal": outcome.deal.deal, "deal_scores": outcome.deal.scores}
            self._accumulate_rewards()
            self._rewards_set = True
        if outcome.finished:
            self.terminations = dict.fromkeys(self.agents, True)
        elif outcome.truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[self.table.to_move]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """What the seat to move sees: text (``"ansi"``), printed (``"human"``) or an
        ``H x W x 3`` ``uint8`` picture (``"rgb_array"``)."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return render_rgb(self._canvas, self.table.game, self.table.to_move)
        text = render_text(self.table.game, self.table.to_move)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    variant: Variant | str = "remi_ro", players: int | None = None, **kwargs: Any
) -> RummyEnv:
    """The unwrapped :class:`RummyEnv`."""
    return RummyEnv(variant, players, **kwargs)


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper with a direct :meth:`last`.

    PettingZoo's ``AECEnv.last`` run on the wrapper reads five attributes and the
    observation through the wrapper's ``__getattr__`` chain, a measurable part of an
    environment step here.  This ``last`` checks the same order (nothing before
    ``reset``) and asks the wrapped environment, which answers the same.
    """

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to move's observation, reward, termination, truncation and info."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return str(self.env)


def env(variant: Variant | str = "remi_ro", players: int | None = None, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment for ``variant`` with ``players`` seats.

    ``kwargs`` are the variant's options (validated by the variant) plus the
    environment's ``reward``, ``reward_scale``, ``max_steps_per_deal`` and
    ``render_mode``.  The result is wrapped in PettingZoo's order-enforcing
    wrapper, as PettingZoo's own environments are.
    """
    return OrderEnforcingWrapper(raw_env(variant, players, **kwargs))
