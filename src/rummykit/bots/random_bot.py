"""The weakest bot: a uniformly random legal action."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummykit.engine.actions import Action
from rummykit.engine.view import SeatView

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """A uniformly random legal action (:class:`ValueError` when there is none)."""
        if not legal:
            raise ValueError(f"no move to choose: no legal action ({view.phase})")
        return legal[rng.randrange(len(legal))]
