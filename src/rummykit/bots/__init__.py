"""Bots, weakest to strongest, and the driver that plays them."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from rummykit.bots.base import Bot, play_to_end, play_turn
from rummykit.bots.expert import LEVELS, ExpertBot
from rummykit.bots.greedy import GreedyBot
from rummykit.bots.random_bot import RandomBot

__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "bot_names",
    "make_bot",
    "play_to_end",
    "play_turn",
]

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    **{level: partial(ExpertBot, level) for level in LEVELS},
}
"""The bots players choose from, by name: ``easy``/``medium``/``hard`` are the expert's
levels."""

_ALIASES: dict[str, Callable[[], Bot]] = {
    "expert": ExpertBot,
    **{f"expert-{level}": partial(ExpertBot, level) for level in LEVELS},
}


def bot_names() -> list[str]:
    """Every name :func:`make_bot` accepts: :data:`BOTS` and ``expert``, ``expert-LEVEL``."""
    return [*BOTS, *_ALIASES]


def make_bot(name: str, *, level: str | None = None) -> Bot:
    """A new bot called ``name`` (one instance per seat: bots may keep a turn plan).

    ``level`` picks the expert's difficulty (``easy``, ``medium``, ``hard``); it is an
    error with any other bot.
    """
    key = name.strip().lower()
    if level is not None:
        if key != "expert":
            raise ValueError(f"only the expert bot has levels, not {name!r}")
        return ExpertBot(level)
    factory = BOTS.get(key) or _ALIASES.get(key)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")
    return factory()
