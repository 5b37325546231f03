"""Bots, weakest to strongest, and the driver that plays them."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from rummykit.bots.base import Bot, play_to_end, play_turn
from rummykit.bots.expert import LEVELS, ExpertBot
from rummykit.bots.greedy import GreedyBot
from rummykit.bots.random_bot import RandomBot
from rummykit.bots.search import Budget, SearchBot

__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "Budget",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "bot_names",
    "is_bot_name",
    "make_bot",
    "play_to_end",
    "play_turn",
    "register_bot",
]


def _level(level: str) -> Bot:
    """The bot a difficulty names: ``hard`` searches (:class:`SearchBot`), the others
    are the one-ply expert at that level."""
    return SearchBot() if level == "hard" else ExpertBot(level)


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    **{level: partial(_level, level) for level in LEVELS},
}
"""The bots players choose from, by name, weakest first: ``easy``/``medium``/``hard``
are the difficulty levels."""

_ALIASES: dict[str, Callable[[], Bot]] = {
    "expert": ExpertBot,
    **{f"expert-{level}": partial(_level, level) for level in LEVELS},
}

_BUILT_IN = frozenset([*BOTS, *_ALIASES])

SEARCH_PREFIX = "hard@"
"""``hard@N``: ``hard`` with exactly ``N`` worlds a decision and no clock (reproducible
from the seed; benchmarks and tests)."""


def _fixed_search(key: str) -> Bot | None:
    if not key.startswith(SEARCH_PREFIX):
        return None
    count = key[len(SEARCH_PREFIX) :]
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"{key!r}: hard@N needs a whole number of worlds N >= 1")
    return SearchBot(Budget(seconds=None, worlds=int(count)))


def register_bot(name: str, factory: Callable[[], Bot]) -> None:
    """Make :func:`make_bot` (and so tournaments) know ``name``: ``factory()`` builds one
    seat's bot.  For bots defined outside the core, such as a trained policy
    (``rummykit.rl.policy_bot``): the core never imports them.  A built-in name is
    refused (ValueError); registering a name again replaces its factory.  Worker
    processes started by fork inherit the registration."""
    key = name.strip().lower()
    if not key or key in _BUILT_IN or key.startswith(SEARCH_PREFIX):
        raise ValueError(f"bot name {name!r} is empty or taken by a built-in bot")
    BOTS[key] = factory


def is_bot_name(name: str) -> bool:
    """Whether :func:`make_bot` accepts ``name``."""
    key = name.strip().lower()
    if key in BOTS or key in _ALIASES:
        return True
    try:
        return _fixed_search(key) is not None
    except ValueError:
        return False


def bot_names() -> list[str]:
    """Every name :func:`make_bot` accepts: :data:`BOTS` and ``expert``, ``expert-LEVEL``."""
    return [*BOTS, *_ALIASES, f"{SEARCH_PREFIX}N"]


def make_bot(name: str, *, level: str | None = None) -> Bot:
    """A new bot called ``name`` (one instance per seat: bots may keep a turn plan).

    ``level`` picks the expert's difficulty (``easy``, ``medium``, ``hard``); it is an
    error with any other bot.  ``hard@N`` is ``hard`` searching exactly ``N`` worlds a
    decision instead of for a time.
    """
    key = name.strip().lower()
    if level is not None:
        if key != "expert":
            raise ValueError(f"only the expert bot has levels, not {name!r}")
        if level.strip().lower() == "hard":
            return SearchBot()
        return ExpertBot(level)
    fixed = _fixed_search(key)
    if fixed is not None:
        return fixed
    factory = BOTS.get(key) or _ALIASES.get(key)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")
    return factory()
