"""Bots, weakest to strongest, and the driver that plays them."""

from __future__ import annotations

from collections.abc import Callable

from rummykit.bots.base import Bot, play_to_end, play_turn
from rummykit.bots.greedy import GreedyBot
from rummykit.bots.random_bot import RandomBot

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot", "play_to_end", "play_turn"]

BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot}
"""Bot factories by name."""


def make_bot(name: str) -> Bot:
    """A new bot called ``name`` (one instance per seat: bots may keep a turn plan)."""
    try:
        return BOTS[name.strip().lower()]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}") from None
