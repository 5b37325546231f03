"""Who plays the other seats of the Gymnasium environment: bots, callables, a self-play pool.

Every opponent sees only its seat's view (or, for pool policies, that seat's
observation and mask, exactly what the learner would get in that seat):

* a bot name (``"random"``, ``"greedy"``, ``"expert"``) or a :class:`~rummykit.bots.Bot`
  instance: ``bot.choose(view, legal_actions, rng)``, as :func:`rummykit.bots.play_turn`;
* any other callable ``policy(view) -> action``: an engine action or an action number;
* a :class:`SelfPlayPool`: at every reset each pool seat draws one of the pool's
  policies ``policy(observation, action_mask) -> action number`` (the call
  ``model.predict(obs, action_masks=mask)[0]`` of sb3-contrib fits it), so a
  learner can play against snapshots of itself.

An action an opponent returns that is not legal raises the engine's
:class:`~rummykit.engine.IllegalActionError` naming the rule, as for the learner.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from rummykit.bots import Bot, make_bot
from rummykit.bots.random_bot import RandomBot
from rummykit.engine import SeatView
from rummykit.engine.actions import Action
from rummykit.rl.core import Table
from rummykit.rules.options import OptionError

__all__ = ["Opponent", "OpponentSpec", "PoolPolicy", "SelfPlayPool", "ViewPolicy", "opponent"]

ViewPolicy = Callable[[SeatView], Any]
"""``policy(view) -> engine action or action number``."""
PoolPolicy = Callable[[Any, npt.NDArray[np.bool_]], Any]
"""``policy(observation, action_mask) -> action number``."""


class SelfPlayPool:
    """Policies to draw opponents from; add the learner's snapshots as it trains.

    ``weights`` (optional, one per policy) bias the draw; by default it is uniform.
    The pool is shared by reference: policies added after the environment was
    built are drawn from the next reset on.
    """

    def __init__(
        self, policies: Sequence[PoolPolicy] = (), weights: Sequence[float] | None = None
    ) -> None:
        self.policies: list[PoolPolicy] = list(policies)
        self.weights: list[float] | None = None if weights is None else list(weights)
        if self.weights is not None and len(self.weights) != len(self.policies):
            raise OptionError("SelfPlayPool: give one weight per policy")

    def add(self, policy: PoolPolicy, weight: float = 1.0) -> None:
        """Add ``policy`` (with ``weight`` when the pool is weighted)."""
        self.policies.append(policy)
        if self.weights is not None:
            self.weights.append(weight)

    def draw(self, rng: np.random.Generator) -> PoolPolicy:
        """One policy, drawn with ``rng``."""
        if not self.policies:
            raise OptionError("the self-play pool is empty: add a policy before reset()")
        if self.weights is None:
            return self.policies[int(rng.integers(len(self.policies)))]
        p = np.asarray(self.weights, dtype=np.float64)
        return self.policies[int(rng.choice(len(self.policies), p=p / p.sum()))]


OpponentSpec = str | Bot | ViewPolicy | SelfPlayPool
"""What ``RummyGymEnv(opponents=...)`` accepts for one seat."""


class Opponent:
    """One opponent seat: chooses an action number for the seat to move."""

    def __init__(self, spec: OpponentSpec) -> None:
        self.spec = spec
        self._bot: Bot | None = None
        self._view_policy: ViewPolicy | None = None
        self._pool_policy: PoolPolicy | None = None
        if isinstance(spec, str):
            self._bot = make_bot(spec)  # raises on unknown names
        elif isinstance(spec, SelfPlayPool):
            pass
        elif hasattr(spec, "choose"):
            self._bot = cast(Bot, spec)
        elif callable(spec):
            self._view_policy = spec
        else:
            raise OptionError(
                f"opponent {spec!r}: give a bot name, a Bot, a callable view -> action "
                "or a SelfPlayPool"
            )

    @property
    def name(self) -> str:
        """A readable name: the bot's, the callable's or ``self-play``."""
        if self._bot is not None:
            return str(getattr(self._bot, "name", type(self._bot).__name__))
        if isinstance(self.spec, SelfPlayPool):
            return "self-play"
        return str(getattr(self.spec, "__name__", type(self.spec).__name__))

    def reset(self, rng: np.random.Generator) -> None:
        """A new episode: a pool seat draws its policy."""
        if isinstance(self.spec, SelfPlayPool):
            self._pool_policy = self.spec.draw(rng)

    def act(
        self,
        table: Table,
        seat: int,
        view: Callable[[Any, int], SeatView],
        observe: Callable[[int], Any],
        rng: random.Random,
        pool_action: Callable[[int, Any], int] | None = None,
    ) -> int:
        """The action number this opponent plays for ``seat`` (the seat to move).

        ``pool_action(seat, choice)`` turns a pool policy's choice into an action number
        where the environment's actions are not numbers of the flat codec (features)."""
        if self._bot is not None:
            legal = table.legal()
            if type(self._bot) is RandomBot and legal:
                # The random bot reads no view (only its error for an empty list): the
                # same draw from the same list, without building a view per turn.
                numbers = list(legal)
                return numbers[rng.randrange(len(numbers))]
            chosen = self._bot.choose(view(table.game, seat), list(legal.values()), rng)
            return table.codec.encode(chosen)
        if self._view_policy is not None:
            choice = self._view_policy(view(table.game, seat))
            return table.codec.encode(choice) if isinstance(choice, Action) else choice
        assert self._pool_policy is not None
        observation = observe(seat)
        if pool_action is not None:
            mask = observation["action_mask"].astype(np.bool_)
            return pool_action(seat, self._pool_policy(observation, mask))
        mask = table.action_mask(seat).astype(np.bool_)
        return self._pool_policy(observation, mask)  # type: ignore[no-any-return]


def opponent(spec: OpponentSpec) -> Opponent:
    """The :class:`Opponent` for ``spec`` (raises :class:`OptionError` on a bad one)."""
    return Opponent(spec)
