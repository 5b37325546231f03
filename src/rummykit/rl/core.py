"""The game driver shared by the PettingZoo and Gymnasium environments.

:class:`Table` owns one :class:`~rummykit.engine.Game` and speaks integers:
it lists the legal action numbers, applies one, plays ``next`` between deals,
turns deal scores into rewards and counts steps for truncation.  It never
reads hidden state: observations come from :func:`seat_view` only.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, NoReturn

import numpy as np
import numpy.typing as npt

from rummykit.engine import (
    DealResult,
    Game,
    IllegalActionError,
    Phase,
    SeatView,
    seat_legal_actions,
)
from rummykit.engine.actions import Action, NextDeal
from rummykit.model.pieces import PieceSet
from rummykit.rl.actions import ActionCodec, action_codec
from rummykit.rl.memory import PublicMemory
from rummykit.rl.observation import ObservationEncoder, seat_view
from rummykit.rl.tracker import ObservationTracker
from rummykit.rules.options import OptionError
from rummykit.rules.variant import Variant, find_variant

__all__ = [
    "DEFAULT_MAX_STEPS_PER_DEAL",
    "REWARD_MODES",
    "InvalidActionError",
    "RewardMode",
    "Table",
    "is_match_option",
    "observation_encoder",
]

RewardMode = Literal["score", "relative"]
REWARD_MODES: tuple[RewardMode, ...] = ("score", "relative")
"""``score``: each seat's true deal score; ``relative``: its score minus the mean of
the other seats' scores (an explicit, opt-in shaping that makes the game zero-sum).
In variants whose match is won with the *lowest* total (penalty points), rewards
are the negated scores, so that more reward is always better."""


def is_match_option(name: str) -> bool:
    """Whether a variant option sets a match's length (``match_deals``, ``match_mode``,
    ``match_loss_threshold``, ``target_score``, ...): passing any of them makes an
    episode the whole match, ended by the variant's rules; otherwise it is one deal."""
    return name.startswith("match_") or name == "target_score"


EPISODE_RECYCLE_LIMIT = 3
"""``max_stock_recycles`` the environments pass when the caller gives none (RULES §2.4/
A-05: after this many recycles an empty stock voids the deal).  Without a limit a card
deal in which nobody can go out turns its discard pile over forever (random Continental
play rarely forms a whole-hand layout); pass ``max_stock_recycles=None`` for the
unlimited rule.  See docs/rl.md, "Episode length"."""


def episode_options(variant: Variant, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` plus the environments' recycle limit where the variant has the option
    and the caller did not set it (a documented rule option, never a hidden change)."""
    given = dict(options)
    if "max_stock_recycles" not in given and any(
        spec.name == "max_stock_recycles" for spec in variant.options
    ):
        given["max_stock_recycles"] = EPISODE_RECYCLE_LIMIT
    return given


DEFAULT_MAX_STEPS_PER_DEAL = 5_000
"""Agent actions allowed in one deal before the episode is truncated.

A random policy can loop on ``reset`` (undoing a turn's table play) for a long
time; typical random deals take a few hundred actions."""


class InvalidActionError(ValueError):
    """An action number is not an integer of the action space."""


@dataclass(frozen=True, slots=True)
class StepOutcome:
    """What one applied action did: the deal it ended (if any) and the episode's state."""

    deal: DealResult | None
    finished: bool
    """The episode is over: its deal, or its match, has ended."""
    truncated: bool


_ENCODERS: dict[tuple[str, PieceSet], tuple[Variant, ObservationEncoder]] = {}


def observation_encoder(variant: Variant, pieces: PieceSet) -> ObservationEncoder:
    """The observation encoder of ``variant`` with ``pieces``, built once and cached."""
    key = (variant.name, pieces)
    known = _ENCODERS.get(key)
    if known is None or known[0] is not variant:
        known = _ENCODERS[key] = (variant, ObservationEncoder(variant, pieces))
    return known[1]


class Table:
    """A match of one variant driven by action numbers.

    ``options`` are the variant's options, validated by the variant (an unknown
    name or a bad value raises :class:`~rummykit.rules.OptionError`) and passed
    to the engine, with :func:`episode_options`' recycle limit where none is given.
    An episode is one deal unless ``options`` sets the
    match's length (:func:`is_match_option`); then it is the whole match.
    """

    def __init__(
        self,
        variant: Variant | str,
        players: int | None,
        options: Mapping[str, Any],
        *,
        reward: RewardMode = "score",
        reward_scale: float = 1.0,
        max_steps_per_deal: int = DEFAULT_MAX_STEPS_PER_DEAL,
        public_memory: bool = True,
    ) -> None:
        self.variant = find_variant(variant) if isinstance(variant, str) else variant
        self.players = self.variant.default_players if players is None else int(players)
        given = episode_options(self.variant, options)
        self.options: dict[str, Any] = given
        resolved = self.variant.resolve(self.players, given)  # raises OptionError
        self.whole_match = any(is_match_option(name) for name in given)
        """Episodes are matches (else single deals)."""
        if reward not in REWARD_MODES:
            raise OptionError(f"reward = {reward!r} is not allowed; use 'score' | 'relative'")
        if max_steps_per_deal < 1:
            raise OptionError(f"max_steps_per_deal = {max_steps_per_deal} must be >= 1")
        self.reward_mode: RewardMode = reward
        self.reward_scale = float(reward_scale)
        self.max_steps_per_deal = int(max_steps_per_deal)
        pieces = self.variant.pieces(resolved)
        self.codec: ActionCodec = action_codec(self.variant, pieces)
        self.encoder: ObservationEncoder = observation_encoder(self.variant, pieces)
        self.tracker = ObservationTracker(self.encoder)
        """Builds the observations block by block as the game changes (equal to
        ``encoder.encode`` of a fresh seat view, without building the view)."""
        self.game: Game = Game(self.variant, self.players, given, seed=0)
        self.memory = PublicMemory(self.game)
        """The public record of the current deal (observations read it); kept in step
        with ``game`` by :meth:`play` and, for a game set from outside, by replay."""
        self.public_memory = bool(public_memory)
        """Observations read the memory; with False its blocks are 0 and ``unseen``
        counts every piece out of sight: the observation a bot can build from its view
        alone (:class:`~rummykit.rl.policy_bot.PolicyBot`)."""
        # Penalty variants (lowest total wins) count a deal's points against a seat.
        self.reward_sign = -1.0 if self.game.play.match_winner == "lowest" else 1.0
        self.steps_in_deal = 0
        self.truncated = False
        self.finished = False
        self._legal_key = -1
        self._legal: dict[int, Action] = {}
        self._view_of: tuple[Game | None, int, int] = (None, -1, -1)
        self._view: SeatView | None = None

    # ------------------------------------------------------------------ episode

    def new_game(self, seed: int) -> None:
        """Start a new match from ``seed`` (the same deal as ``Game(..., seed=seed)``)."""
        self.game = Game(self.variant, self.players, self.options, seed=seed)
        self.steps_in_deal = 0
        self.truncated = False
        self.finished = False
        self._legal_key = -1

    @property
    def is_over(self) -> bool:
        """The episode has ended (its deal or match is over) or was truncated."""
        return self.finished or self.truncated

    @property
    def to_move(self) -> int:
        """The seat to move."""
        return self.game.to_move

    # ------------------------------------------------------------------ actions

    def legal(self) -> dict[int, Action]:
        """Legal action numbers of the seat to move, mapped to the engine's actions."""
        game = self.game
        if self._legal_key != len(game.log):
            if self.is_over:
                self._legal = {}
            else:
                encode = self.codec.encode
                legal = seat_legal_actions(game, game.to_move)
                self._legal = {encode(a): a for a in legal}
            self._legal_key = len(game.log)
        return self._legal

    def action_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """1 for each legal action number of ``seat`` (all 0 when it is not to move)."""
        mask = np.zeros(self.codec.size, dtype=np.int8)
        if seat == self.game.to_move and not self.is_over:
            mask[list(self.legal())] = 1
        return mask

    def seat_view(self, seat: int) -> SeatView:
        """:func:`~rummykit.rl.observation.seat_view` of ``seat`` now, built once per
        state (the observation and the feature rows of one step share it)."""
        game = self.game
        view_of = (game, len(game.log), seat)
        if self._view is None or self._view_of[0] is not game or self._view_of[1:] != view_of[1:]:
            self._view = seat_view(game, seat)
            self._view_of = view_of
        return self._view

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat``: what its view shows, and the public memory
        (:class:`~rummykit.rl.tracker.ObservationTracker`: equal to
        ``encoder.encode(seat_view(seat), memory)``, rebuilt only where the game changed)."""
        if not self.public_memory:
            return self.tracker.observe(self.game, seat)
        self.memory.sync(self.game)
        return self.tracker.observe(self.game, seat, self.memory)

    def play(self, action: Any) -> StepOutcome:
        """Apply action number ``action`` for the seat to move.

        Raises :class:`InvalidActionError` for a number outside the space and the
        engine's :class:`~rummykit.engine.IllegalActionError` (naming the rule)
        for a number that is masked out; the game is then unchanged.
        """
        index = self._index(action)
        chosen = self.legal().get(index)
        if chosen is None:
            self._reject(index)
        game = self.game
        deals = len(game.results)
        game.apply(chosen)
        if self.public_memory:
            self.memory.sync(game)
        self.steps_in_deal += 1
        deal = game.results[-1] if len(game.results) > deals else None
        if deal is not None:
            self.steps_in_deal = 0
            if game.is_over or not self.whole_match:
                self.finished = True
            elif game.phase is Phase.DEAL_END:
                # Starting the next deal is no one's decision: the environment plays it.
                game.apply(NextDeal())
                if self.public_memory:
                    self.memory.sync(game)
        elif self.steps_in_deal >= self.max_steps_per_deal:
            self.truncated = True
        return StepOutcome(deal, self.finished, self.truncated)

    def _index(self, action: Any) -> int:
        if isinstance(action, bool | float) or action is None:
            raise InvalidActionError(f"action must be an integer, not {action!r}")
        try:
            index = operator.index(action)
        except TypeError:
            if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
                return self._index(action.reshape(()).item())
            raise InvalidActionError(f"action must be an integer, not {action!r}") from None
        if not 0 <= index < self.codec.size:
            raise InvalidActionError(
                f"action {index} is outside the {self.variant.name} action space "
                f"0..{self.codec.size - 1}"
            )
        return index

    def _reject(self, index: int) -> NoReturn:
        action = self.codec.decode(index)
        if self.is_over:
            raise IllegalActionError(str(action), "§2.3", "the episode is over", "")
        # The engine names the rule the action breaks.
        self.game.verify(action)
        raise IllegalActionError(
            str(action), "§2.3", "not among the legal actions", self.game.describe()
        )

    # ------------------------------------------------------------------ rewards

    def rewards(self, deal: DealResult) -> list[float]:
        """Each seat's reward for ``deal`` under the reward mode and scale."""
        scale = self.reward_scale * self.reward_sign
        scores = deal.scores
        if self.reward_mode == "score":
            return [s * scale for s in scores]
        total = sum(scores)
        others = max(1, len(scores) - 1)
        return [(s - (total - s) / others) * scale for s in scores]
