"""A Gymnasium single-agent environment: one learner against rummykit bots.

The learner plays one seat; the other seats are played by opponents
(:mod:`rummykit.rl.opponents`): bots from :func:`rummykit.bots.make_bot`
(``"random"``, ``"greedy"``), each given its seat's view and the legal actions as
in :func:`rummykit.bots.play_turn`, callables ``view -> action``, or policies
drawn from a :class:`~rummykit.rl.opponents.SelfPlayPool`.
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

from rummykit.engine import Game, view
from rummykit.rl.aec import observation_space
from rummykit.rl.core import (
    DEFAULT_MAX_STEPS_PER_DEAL,
    RewardMode,
    StepOutcome,
    Table,
)
from rummykit.rl.features import DEFAULT_MAX_LEGAL_ACTIONS, ActionFeatures, LegalRows
from rummykit.rl.observation import OBSERVATION_VERSION, seat_view
from rummykit.rl.opponents import Opponent, OpponentSpec
from rummykit.rl.render import RgbCanvas, render_rgb, render_text
from rummykit.rules.options import OptionError
from rummykit.rules.variant import Variant, all_variants

__all__ = [
    "ActionSpaceMode",
    "IllegalActionMode",
    "RummyGymEnv",
    "gymnasium_id",
    "register_gymnasium_envs",
]

IllegalActionMode = Literal["raise", "random"]
ActionSpaceMode = Literal["flat", "features"]


_MAX_SKIPPED_DEALS = 100
"""Deals in a row that may end before the learner's first move before reset gives up."""


def gymnasium_id(variant: str) -> str:
    """The Gymnasium id of ``variant``'s environment: ``rummykit/<name>-v0``."""
    return f"rummykit/{variant}-v0"


class RummyGymEnv(gymnasium.Env[Any, np.int64]):
    """One learner seat of a rummykit variant against bots.

    ``opponents`` is one opponent for every other seat, or one per other seat in
    seat order: a bot name, a :class:`~rummykit.bots.Bot`, a callable ``view ->
    action`` (engine action or number) or a
    :class:`~rummykit.rl.opponents.SelfPlayPool` (see :mod:`rummykit.rl.opponents`).
    ``mask_in_observation=False`` makes the observation the bare vector (a
    ``Box``), the mask staying available from :meth:`action_masks` (sb3-contrib's
    MaskablePPO convention).  ``learner_seat`` is fixed (default 0) or ``None`` for a
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
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["human", "ansi", "rgb_array"],
        "render_fps": 4,
        "observation_version": OBSERVATION_VERSION,
    }

    def __init__(
        self,
        variant: Variant | str = "remi_ro",
        players: int | None = None,
        *,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        learner_seat: int | None = 0,
        illegal_action: IllegalActionMode = "raise",
        bot_history: bool = False,
        mask_in_observation: bool = True,
        action_space: ActionSpaceMode = "flat",
        max_legal_actions: int = DEFAULT_MAX_LEGAL_ACTIONS,
        render_mode: str | None = None,
        reward: RewardMode = "score",
        reward_scale: float = 1.0,
        max_steps_per_deal: int = DEFAULT_MAX_STEPS_PER_DEAL,
        public_memory: bool = True,
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
            public_memory=public_memory,
        )
        n = self.table.players
        if learner_seat is not None and not 0 <= learner_seat < n:
            raise OptionError(f"learner_seat = {learner_seat} must be a seat 0..{n - 1} or None")
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            specs: list[OpponentSpec] = [opponents] * (n - 1)
        else:
            specs = list(opponents)
        if len(specs) != n - 1:
            raise OptionError(f"opponents: give one opponent or {n - 1}, not {len(specs)}")
        # A bot may keep a turn plan, so a name or pool gives each seat its own instance.
        self.opponents: list[Opponent] = [Opponent(spec) for spec in specs]
        self.opponent_names = tuple(o.name for o in self.opponents)
        self.mask_in_observation = bool(mask_in_observation)
        self.fixed_seat = learner_seat
        self.learner_seat = 0 if learner_seat is None else learner_seat
        self.illegal_action: IllegalActionMode = illegal_action
        self._bot_view = view if bot_history else seat_view
        self.render_mode = render_mode
        self._canvas = RgbCanvas(
            n, self.table.encoder.piece_count, self.table.encoder.max_formations
        )
        if action_space not in ("flat", "features"):
            raise OptionError(
                f"action_space = {action_space!r} is not allowed; use 'flat' | 'features'"
            )
        self.action_mode: ActionSpaceMode = action_space
        self.rows: LegalRows | None = None
        full = observation_space(self.table.encoder.size, self.table.codec.size)
        if action_space == "features":
            self.rows = LegalRows(self.table, max_legal_actions)
            self.observation_space = cast(
                spaces.Space[Any],
                self.rows.spaces(full["observation"], self.mask_in_observation),
            )
            self.action_space = spaces.Discrete(self.rows.max_rows)
        else:
            self.observation_space = cast(
                spaces.Space[Any], full if self.mask_in_observation else full["observation"]
            )
            self.action_space = spaces.Discrete(self.table.codec.size)
        self._seat_opponents: dict[int, Opponent] = {}
        self._bot_rng = random.Random(0)

    @property
    def game(self) -> Game:
        """The engine game (full state: for analysis, never for observations)."""
        return self.table.game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start a new episode; bots play until the learner is to move.

        With ``seed``, the deal is that of ``Game(variant, players, options,
        seed=seed)`` and the bots' choices are fixed too.  ``options`` is unused
        (the variant's options are fixed when the environment is built).

        A deal that ends before the learner's first move (a seat before it lays a
        dealt Continental layout, a Vienna call on the first turn) asks nothing of
        the learner: it is dealt again from a seed drawn from the first one, and
        ``info["skipped_deals"]`` lists the skipped deals' scores.
        """
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63))
        if self.fixed_seat is None:
            self.learner_seat = int(self.np_random.integers(self.table.players))
        others = [s for s in range(self.table.players) if s != self.learner_seat]
        self._seat_opponents = dict(zip(others, self.opponents, strict=True))
        for opponent in self.opponents:
            opponent.reset(self.np_random)
        skipped: list[tuple[int, ...]] = []
        reseed = np.random.default_rng(game_seed)
        while True:
            self._bot_rng = random.Random(f"rummykit-bots-{game_seed}")
            self.table.new_game(game_seed)
            _reward, info = self._play_bots()
            if not self.table.is_over:
                break
            # An episode that is over at reset would give the learner an all-zero mask.
            skipped.append(tuple(info.get("deal_scores", ())))
            if len(skipped) >= _MAX_SKIPPED_DEALS:
                raise RuntimeError(
                    f"{len(skipped)} deals in a row ended before the learner's first move"
                )
            game_seed = int(reseed.integers(2**63))
        if skipped:
            info = {"skipped_deals": skipped}
        return self._observe(), info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' until the learner is to move."""
        table = self.table
        if table.is_over:
            raise RuntimeError("the episode is over: call reset()")
        info: dict[str, Any] = {}
        if self.illegal_action == "random" and not self._is_legal(action):
            legal = sorted(table.legal())
            action = legal[int(self.np_random.integers(len(legal)))]
            info["illegal_action"] = True
        elif self.rows is not None:
            action = self.rows.number(self.learner_seat, action)
        reward = self._credit(table.play(action), info)
        more, bot_info = self._play_bots()
        info.update(bot_info)
        if self.render_mode == "human":
            self.render()
        observation = self._observe()
        if self.rows is not None and self.rows.overflow:
            info["legal_overflow"] = self.rows.overflow
        return (
            observation,
            reward + more,
            table.finished,
            table.truncated,
            info,
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as booleans (the sb3-contrib convention); with
        ``action_space="features"`` one per row."""
        if self.rows is not None:
            return self.rows.mask(self.learner_seat).astype(bool)
        return self.table.action_mask(self.learner_seat).astype(bool)

    def legal_rows(self) -> list[int]:
        """With ``action_space="features"``: the flat action number of each row now (row
        ``i`` of ``action_features`` describes ``codec.decode(legal_rows()[i])``)."""
        return [] if self.rows is None else list(self.rows.rows(self.learner_seat))

    @property
    def features(self) -> ActionFeatures | None:
        """The action-feature encoder with ``action_space="features"``, else None."""
        return None if self.rows is None else self.rows.encoder

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """What the learner sees: text (``"ansi"``), printed (``"human"``) or an
        ``H x W x 3`` ``uint8`` picture (``"rgb_array"``)."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return render_rgb(self._canvas, self.table.game, self.learner_seat)
        text = render_text(self.table.game, self.learner_seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    # ------------------------------------------------------------------ helpers

    def _is_legal(self, action: Any) -> bool:
        try:
            if self.rows is not None:
                return 0 <= int(action) < len(self.rows.rows(self.learner_seat))
            return int(action) in self.table.legal()
        except (TypeError, ValueError):
            return False

    def _observe(self) -> Any:
        return self._observe_seat(self.learner_seat)

    def _observe_seat(self, seat: int) -> Any:
        vector = self.table.observation(seat)
        if self.rows is not None:
            return self.rows.observe(vector, seat, self.mask_in_observation)
        if not self.mask_in_observation:
            return vector
        return {"observation": vector, "action_mask": self.table.action_mask(seat)}

    def _observe_seat_with_mask(self, seat: int) -> Any:
        observation = self._observe_seat(seat)
        if self.rows is not None and "action_mask" not in observation:
            observation["action_mask"] = self.rows.mask(seat)
        return observation

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
            # As in play_turn: the seat's view (and the legal actions), nothing else.
            number = self._seat_opponents[seat].act(
                table,
                seat,
                self._bot_view,
                self._observe_seat_with_mask,
                self._bot_rng,
                None if self.rows is None else self.rows.number,
            )
            reward += self._credit(table.play(number), info)
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
