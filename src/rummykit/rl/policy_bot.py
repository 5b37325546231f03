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

The core never imports this module: a script that wants the bot in a tournament
registers a factory with :func:`rummykit.bots.register_bot`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from rummykit.engine import Action, SeatView
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

__all__ = ["PolicyBot", "RowPolicy"]

RowPolicy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.float32]], int]
"""``policy(observation, rows) -> row index``: ``rows`` is ``(legal rows, F)``."""


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
    """A bot that plays ``policy`` (see the module docstring).

    ``max_rows`` is the environment's ``max_legal_actions`` the policy was trained
    with: as there, legal actions past it (table plays only) are not offered.
    """

    def __init__(
        self, policy: RowPolicy, name: str = "policy", max_rows: int = DEFAULT_MAX_LEGAL_ACTIONS
    ) -> None:
        self.policy = policy
        self.name = name
        self.max_rows = int(max_rows)
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
        """The action of the row the policy picks; a row out of range raises ValueError."""
        observation, rows, ordered = self.inputs(view, legal)
        row = int(self.policy(observation, rows))
        if not 0 <= row < len(ordered):
            raise ValueError(f"policy chose row {row}; this state lists {len(ordered)}")
        return ordered[row]

    def __repr__(self) -> str:
        return f"PolicyBot({self.name!r})"
