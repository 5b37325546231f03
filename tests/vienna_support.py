"""Helpers for the Vienna tests: stacked deals, showdown figures and reference searches.

Seats are in play order.  Unless a test says otherwise the last seat deals, so seat 0
(P1) is the first player.  A rack named in full (10 cards) has an exactly known
deadwood; unnamed slots are meld-free fillers (see ``card_support``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from card_support import card_game, card_match, face, faces
from rummykit.engine import Game
from rummykit.model.melds import MeldRules, read_meld
from rummykit.model.pieces import Face
from rummykit.rules.vienna import JOKER_VALUE, VALUES, VIENNA

__all__ = [
    "D8",
    "D12",
    "MELDED",
    "brute_closes",
    "brute_covers",
    "brute_deadwood",
    "deadwood_of",
    "options",
    "shown",
    "vienna_game",
    "vienna_match",
]


def options(**given: Any) -> Mapping[str, Any]:
    """Every Vienna option at 3 players, with ``given`` applied."""
    return VIENNA.resolve(3, given)


def vienna_game(
    players: int = 3,
    racks: Mapping[int, str] | Sequence[str] | None = None,
    discard: str | None = None,
    stock: str = "",
    options: Mapping[str, Any] | None = None,
) -> Game:
    """A Vienna game whose first deal is stacked."""
    return card_game("vienna", players, racks=racks, discard=discard, stock=stock, options=options)


def vienna_match(
    players: int, deals: Sequence[Mapping[str, Any]], options: Mapping[str, Any] | None = None
) -> Game:
    """A Vienna match whose first deals are stacked (``card_match``)."""
    return card_match("vienna", players, deals, options)


def value(f: Face) -> int:
    """RULES §6.8 deadwood value of one card."""
    return JOKER_VALUE if f.is_joker else VALUES[f.rank]


def deadwood_of(game: Game, seat: int) -> int:
    """The deadwood the last deal's showdown charged ``seat``."""
    return game.results[-1].rack_values[seat]


def shown(game: Game, seat: int) -> str:
    """``seat``'s hand as laid out at the last showdown."""
    return game.results[-1].showdown[seat]


def brute_deadwood(hand: Sequence[Face], rules: MeldRules) -> int:
    """Least deadwood by trying every meld containing the first card (slow reference)."""
    if not hand:
        return 0
    first, rest = hand[0], list(hand[1:])
    best = value(first) + brute_deadwood(rest, rules)
    n = len(rest)
    for mask in range(1, 1 << n):
        chosen = [rest[i] for i in range(n) if mask >> i & 1]
        if len(chosen) + 1 < rules.min_size or not read_meld([first, *chosen], rules):
            continue
        left = [rest[i] for i in range(n) if not mask >> i & 1]
        best = min(best, brute_deadwood(left, rules))
    return best


def brute_covers(hand: Sequence[Face], rules: MeldRules) -> bool:
    """Whether ``hand`` splits into melds with nothing left (slow reference)."""
    if not hand:
        return True
    first, rest = hand[0], list(hand[1:])
    n = len(rest)
    for mask in range(1, 1 << n):
        chosen = [rest[i] for i in range(n) if mask >> i & 1]
        if len(chosen) + 1 < rules.min_size or not read_meld([first, *chosen], rules):
            continue
        if brute_covers([rest[i] for i in range(n) if not mask >> i & 1], rules):
            return True
    return False


def brute_closes(hand: Sequence[Face], rules: MeldRules) -> set[Face]:
    """Cards whose removal leaves every other card in a meld (slow reference)."""
    return {f for i, f in enumerate(hand) if brute_covers([*hand[:i], *hand[i + 1 :]], rules)}


__all__ += ["face", "faces", "value"]


MELDED = "3H 4H 5H 7C 7C 7D 10S JS QS KS"
"""[3H 4H 5H] [7C 7C 7D] [10S JS QS KS]: no deadwood."""

D12 = "AS 2S 3S 4S 8H 8D 8C 8S 2D KH"
"""[AS 2S 3S 4S] [8H 8D 8C 8S], 2D + KH = 12."""

D8 = "5D 6D 7D 8D QC QC QH QS 3C 5S"
"""[5D 6D 7D 8D] [QC QC QH QS], 3C + 5S = 8."""
