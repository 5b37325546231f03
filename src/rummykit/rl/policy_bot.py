"""A trained policy as a rummykit bot, for the tournament and every other bot driver.

:class:`PolicyBot` is an ordinary :class:`~rummykit.bots.Bot`: it sees only the seat's
view and the legal actions.  It builds what :class:`~rummykit.rl.RummyGymEnv` with
``action_space="features"`` and ``public_memory=False`` shows a learner — the
observation vector of the view, and one feature row per legal action in the
environment's row order (``rummykit.rl.features.LegalRows``) — asks the policy for a
row, and returns that row's action.  The environment's public memory is left out
because a bot receives no record of the deal beyond its view; a policy trained with
``public_memory=False`` sees exactly the same inputs here as in training (a test
compares them).

Two inference rules, both off unless asked for (``docs/baselines.md`` says which the
published baselines use):

* ``scores``: instead of a row policy, a function giving one score (logit) per row;
  the bot samples a row from their softmax with the ``rng`` the driver hands to
  :meth:`PolicyBot.choose`, so a tournament deal is reproducible from its seed
  whatever the number of worker processes.
* ``max_resets_per_turn``: once the seat has taken its turn back (``reset``) that many
  times in the current turn, ``reset`` is no longer offered to the policy, unless it
  is the only legal action.  A scoring network scores every row on its own, so
  leaving a row out is the same as masking it.  A sampled policy trained without a
  step cost can otherwise lay formations and take them back for hundreds of actions.

The core never imports this module: a script that wants the bot in a tournament
registers a factory with :func:`rummykit.bots.register_bot`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from rummykit.engine import Action, SeatView
from rummykit.engine.actions import ResetTurn
from rummykit.model.pieces import PieceSet
from rummykit.rl.actions import ActionCodec, action_codec
from rummykit.rl.core import observation_encoder
from rummykit.rl.features import (
    _TABLE_PLAY_BLOCKS,
    DEFAULT_MAX_LEGAL_ACTIONS,
    ActionFeatures,
    action_features,
)
from rummykit.rl.observation import ObservationEncoder
from rummykit.rules import find_variant

__all__ = ["PolicyBot", "RowPolicy", "RowScores", "resets_this_turn"]

RowPolicy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.float32]], int]
"""``policy(observation, rows) -> row index``: ``rows`` is ``(legal rows, F)``."""

RowScores = Callable[[npt.NDArray[np.float32], npt.NDArray[np.float32]], npt.NDArray[np.floating]]
"""``scores(observation, rows) -> one logit per row``."""

_RESET = str(ResetTurn())


def resets_this_turn(view: SeatView) -> int:
    """How many times the seat has reset in its current turn: the ``reset`` entries in
    the run of its own actions that ends the history (another seat's entry, such as an
    answer to a swap offer, ends the run)."""
    count = 0
    for actor, text in reversed(view.history):
        if actor != view.seat:
            break
        count += text == _RESET
    return count


def _sample(logits: npt.NDArray[np.floating], rng: random.Random) -> int:
    """A row drawn from the softmax of ``logits`` with one ``rng.random()``."""
    p = np.exp(np.asarray(logits, dtype=np.float64) - np.max(logits))
    cumulative = np.cumsum(p)
    row = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
    return min(row, len(p) - 1)


class _Encoders:
    """The codec, observation encoder and row encoder of one variant and piece set."""

    def __init__(self, view: SeatView) -> None:
        variant = find_variant(view.variant)
        pieces: PieceSet = variant.pieces(variant.resolve(view.players, view.options))
        self.codec: ActionCodec = action_codec(variant, pieces)
        self.observation: ObservationEncoder = observation_encoder(variant, pieces)
        self.rows: ActionFeatures = action_features(variant, pieces)
        late = np.zeros(self.codec.size, dtype=np.bool_)
        for name in _TABLE_PLAY_BLOCKS:
            block = self.codec.block(name)
            late[block.start : block.stop] = True
        self.late = late


class PolicyBot:
    """A bot that plays ``policy``, or samples ``scores`` (see the module docstring).

    ``max_rows`` is the environment's ``max_legal_actions`` the policy was trained
    with: as there, legal actions past it (table plays only) are not offered.
    ``max_resets_per_turn`` (``None``: no limit) stops offering ``reset`` once the
    seat has reset that many times this turn.
    """

    def __init__(
        self,
        policy: RowPolicy | None = None,
        name: str = "policy",
        max_rows: int = DEFAULT_MAX_LEGAL_ACTIONS,
        *,
        scores: RowScores | None = None,
        max_resets_per_turn: int | None = None,
    ) -> None:
        if (policy is None) == (scores is None):
            raise ValueError("give exactly one of policy and scores")
        if max_resets_per_turn is not None and max_resets_per_turn < 0:
            raise ValueError(f"max_resets_per_turn = {max_resets_per_turn} must be >= 0")
        self.policy = policy
        self.scores = scores
        self.name = name
        self.max_rows = int(max_rows)
        self.max_resets_per_turn = max_resets_per_turn
        self._encoders: dict[tuple[str, int, str], _Encoders] = {}

    def inputs(
        self, view: SeatView, legal: Sequence[Action]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], list[Action]]:
        """The observation vector, the rows' features and the actions in row order."""
        key = (view.variant, view.players, repr(sorted(view.options.items())))
        enc = self._encoders.get(key)
        if enc is None:
            enc = self._encoders[key] = _Encoders(view)
        numbered = sorted((enc.codec.encode(a), i) for i, a in enumerate(legal))
        late = enc.late
        ordered = [legal[i] for n, i in numbered if not late[n]]
        ordered += [legal[i] for n, i in numbered if late[n]]
        ordered = ordered[: self.max_rows]
        return enc.observation.encode(view), enc.rows.encode(view, ordered), ordered

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action of the row the policy picks (or samples from the scores with
        ``rng``); a row out of range raises ValueError."""
        cap = self.max_resets_per_turn
        if cap is not None and resets_this_turn(view) >= cap:
            kept = [a for a in legal if not isinstance(a, ResetTurn)]
            legal = kept or legal
        observation, rows, ordered = self.inputs(view, legal)
        if self.scores is not None:
            row = _sample(self.scores(observation, rows), rng)
        else:
            assert self.policy is not None
            row = int(self.policy(observation, rows))
        if not 0 <= row < len(ordered):
            raise ValueError(f"policy chose row {row}; this state lists {len(ordered)}")
        return ordered[row]

    def __repr__(self) -> str:
        return f"PolicyBot({self.name!r})"
