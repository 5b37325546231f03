"""A Gymnasium single-agent environment: one learner against rummykit bots.

The learner plays one seat; the other seats are played by bots from
:func:`rummykit.bots.make_bot` (``"random"``, ``"greedy"``), each given its
seat's view and the legal actions, as in :func:`rummykit.bots.play_turn`.
``step`` applies the learner's action, then lets the bots play until the
learner is to move again or the episode ends.  Observations and action
numbers are those of the PettingZoo environment (``docs/rl.md``).

Registered with Gymnasium as ``rummykit/<variant>-v0``::

    env = gymnasium.make("rummykit/remi_ro-v0", players=4, opponents="random")
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rummykit.bots import Bot, make_bot
from rummykit.engine import Game, view
from rummykit.rl.aec import Observation, observation_space
from rummykit.rl.core import DEFAULT_MAX_STEPS_PER_DEAL, RewardMode, StepOutcome, Table
from rummykit.rl.observation import seat_view
from rummykit.rl.render import render_text
from rummykit.rules.options import OptionError
from rummykit.rules.variant import Variant, all_variants

__all__ = ["IllegalActionMode", "RummyGymEnv", "gymnasium_id", "register_gymnasium_envs"]

IllegalActionMode = Literal["raise", "random"]


def gymnasium_id(variant: str) -> str:
    """The Gymnasium id of ``variant``'s environment: ``rummykit/<name>-v0``."""
    return f"rummykit/{variant}-v0"


class RummyGymEnv(gymnasium.Env[Observation, np.int64]):
    """One learner seat of a rummykit variant against bots.

    ``opponents`` is one bot name for every other seat, or one name per other
    seat in seat order.  ``learner_seat`` is fixed (default 0) or ``None`` for a
    seat drawn at each reset.  ``illegal_action`` says what a masked-out action
    does: ``"raise"`` (default) raises the engine's error naming the rule;
    ``"random"`` plays a uniformly random legal action instead and sets
    ``info["illegal_action"]`` (for agents that ignore the mask, such as
    Gymnasium's ``check_env``).  ``bot_history`` gives the bots complete views;
    by default their ``view.history`` is empty, because the engine formats the
    whole public log as text on every :func:`~rummykit.engine.view` call (the
    cost grows with the deal) and rummykit's bots never read it.  ``reward``,
    ``reward_scale``,
    ``max_steps_per_deal`` and the variant ``options`` are as for
    :class:`~rummykit.rl.RummyEnv`; the reward of a step is the learner's share
    of every deal that ended during it.
    """

    # An instance attribute in gymnasium.Env, so not a ClassVar here either.
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        variant: Variant | str = "remi_ro",
        players: int | None = None,
        *,
        opponents: str | Sequence[str] = "random",
        learner_seat: int | None = 0,
        illegal_action: IllegalActionMode = "raise",
        bot_history: bool = False,
        render_mode: str | None = None,
        reward: RewardMode = "score",
        reward_scale: float = 1.0,
        max_steps_per_deal: int = DEFAULT_MAX_STEPS_PER_DEAL,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}"
            )
        if illegal_action not in ("raise", "random"):
            raise OptionError(
                f"illegal_action = {illegal_action!r} is not allowed; use 'raise' | 'random'"
            )
        self.table = Table(
            variant,
            players,
            options,
            reward=reward,
            reward_scale=reward_scale,
            max_steps_per_deal=max_steps_per_deal,
        )
        n = self.table.players
        if learner_seat is not None and not 0 <= learner_seat < n:
            raise OptionError(f"learner_seat = {learner_seat} must be a seat 0..{n - 1} or None")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise OptionError(f"opponents: give one bot name or {n - 1} names, not {len(names)}")
        self.opponent_names = tuple(names)
        self.bots: list[Bot] = [make_bot(name) for name in names]  # raises on unknown names
        self.fixed_seat = learner_seat
        self.learner_seat = 0 if learner_seat is None else learner_seat
        self.illegal_action: IllegalActionMode = illegal_action
        self._bot_view = view if bot_history else seat_view
        self.render_mode = render_mode
        self.observation_space = cast(
            spaces.Space[Observation],
            observation_space(self.table.encoder.size, self.table.codec.size),
        )
        self.action_space = spaces.Discrete(self.table.codec.size)
        self._seat_bots: dict[int, Bot] = {}
        self._bot_rng = random.Random(0)

    @property
    def game(self) -> Game:
        """The engine game (full state: for analysis, never for observations)."""
        return self.table.game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a new episode; bots play until the learner is to move.

        With ``seed``, the deal is that of ``Game(variant, players, options,
        seed=seed)`` and the bots' choices are fixed too.  ``options`` is unused
        (the variant's options are fixed when the environment is built).
        """
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63))
        if self.fixed_seat is None:
            self.learner_seat = int(self.np_random.integers(self.table.players))
        others = [s for s in range(self.table.players) if s != self.learner_seat]
        self._seat_bots = dict(zip(others, self.bots, strict=True))
        self._bot_rng = random.Random(f"rummykit-bots-{game_seed}")
        self.table.new_game(game_seed)
        reward, info = self._play_bots()
        del reward  # no deal can end before everyone has acted
        return self._observe(), info

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' until the learner is to move."""
        table = self.table
        if table.is_over:
            raise RuntimeError("the episode is over: call reset()")
        info: dict[str, Any] = {}
        if self.illegal_action == "random" and not self._is_legal(action):
            legal = sorted(table.legal())
            action = legal[int(self.np_random.integers(len(legal)))]
            info["illegal_action"] = True
        reward = self._credit(table.play(action), info)
        more, bot_info = self._play_bots()
        info.update(bot_info)
        if self.render_mode == "human":
            self.render()
        return (
            self._observe(),
            reward + more,
            table.finished,
            table.truncated,
            info,
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as booleans (the sb3-contrib convention)."""
        return self.table.action_mask(self.learner_seat).astype(bool)

    def render(self) -> str | None:
        """Text of what the learner sees (``"ansi"``), or print it (``"human"``)."""
        if self.render_mode is None:
            return None
        text = render_text(self.table.game, self.learner_seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    # ------------------------------------------------------------------ helpers

    def _is_legal(self, action: Any) -> bool:
        try:
            return int(action) in self.table.legal()
        except (TypeError, ValueError):
            return False

    def _observe(self) -> Observation:
        seat = self.learner_seat
        return {
            "observation": self.table.observation(seat),
            "action_mask": self.table.action_mask(seat),
        }

    def _credit(self, outcome: StepOutcome, info: dict[str, Any]) -> float:
        if outcome.deal is None:
            return 0.0
        info["deal"] = outcome.deal.deal
        info["deal_scores"] = outcome.deal.scores
        return self.table.rewards(outcome.deal)[self.learner_seat]

    def _play_bots(self) -> tuple[float, dict[str, Any]]:
        table = self.table
        reward = 0.0
        info: dict[str, Any] = {}
        while not table.is_over and table.to_move != self.learner_seat:
            seat = table.to_move
            legal = table.legal()
            # As in play_turn: the seat's view and the legal actions, nothing else.
            chosen = self._seat_bots[seat].choose(
                self._bot_view(table.game, seat), list(legal.values()), self._bot_rng
            )
            reward += self._credit(table.play(table.codec.encode(chosen)), info)
        return reward, info


def register_gymnasium_envs() -> list[str]:
    """Register ``rummykit/<variant>-v0`` for every variant not yet registered."""
    ids = []
    for variant in all_variants():
        env_id = gymnasium_id(variant.name)
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="rummykit.rl.gym_env:RummyGymEnv",
                kwargs={"variant": variant.name},
            )
        ids.append(env_id)
    return ids
