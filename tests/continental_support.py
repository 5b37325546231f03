"""Stacked Continental deals (RULES §7): 15-card hands named in notation.

Fifteen meld-free fillers per hand do not exist for most tables, so unnamed
cards here are only *quiet*: natural cards (never a 2 or a joker, which are
wild) spread over ranks and suits, checked to form no layout.  Scenario tests
play unnamed seats with draw-and-discard turns only, so they never go out.
Seats are in play order; by default the last seat deals, so seat 0 (P1) acts first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kit import (
    PieceAllocator,
)
from rummykit.engine import Game
from rummykit.model.pieces import PieceSet
from rummykit.rules.cards import stack_cards
from rummykit.rules.continental import CONTINENTAL

__all__ = ["FIVE_THREES", "WITH_WILDS", "con_game", "con_match", "con_order"]


def _quiet_order(pieces: PieceSet) -> list[int]:
    """Natural non-deuce cards, spread so that consecutive ones rarely share a run."""

    def key(pid: int) -> tuple[int, int, int, int]:
        f = pieces.faces[pid]
        return ((f.rank * 5 + f.suit_index) % 7, f.suit_index, pieces.copy_number(pid), pid)

    return sorted(
        (
            p
            for p in range(len(pieces))
            if not pieces.faces[p].is_joker and pieces.faces[p].rank != 2
        ),
        key=key,
    )


def con_order(
    players: int = 4,
    racks: Mapping[int, str] | None = None,
    discard: str | None = None,
    stock: str = "",
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
) -> tuple[list[int], int]:
    """(shuffled order, dealer) dealing ``racks`` (seat → cards), the up-card
    ``discard`` and drawing ``stock`` first (``-`` for a quiet card)."""
    v = CONTINENTAL
    resolved = v.resolve(players, options)
    pieces = v.pieces(resolved)
    dealer = players - 1 if dealer is None else dealer
    alloc = PieceAllocator(pieces)
    used = alloc.used
    named = {seat: alloc.take_all(text) for seat, text in (racks or {}).items()}
    pile = alloc.take_all(discard or "")
    stock_named = [None if t == "-" else alloc.take(t) for t in stock.split()]
    quiet = [p for p in _quiet_order(pieces) if p not in used]
    find_layout = v.find_layout
    assert find_layout is not None  # Continental goes out with a layout (RULES §7.6)
    hands = []
    for seat in range(players):
        hand = named.get(seat, [])
        if len(hand) > 15:
            raise ValueError(f"seat {seat} is dealt 15 cards, not {len(hand)}")
        hand = hand + [quiet.pop(0) for _ in range(15 - len(hand))]
        if seat not in named and find_layout([pieces.faces[p] for p in hand], resolved):
            raise ValueError(f"the quiet hand of seat {seat} forms a layout")
        hands.append(hand)
    pile = pile or [quiet.pop(0)]
    rest = [p for p in range(len(pieces)) if p not in used and p not in quiet]
    draws = [quiet.pop(0) if p is None else p for p in stock_named]
    hands_used = {p for h in hands for p in h} | set(pile) | set(draws)
    tail = [p for p in quiet + rest if p not in hands_used]
    order = stack_cards(v, players, dealer, resolved, racks=hands, discard=pile, stock=draws + tail)
    return order, dealer


def con_game(
    players: int = 4,
    racks: Mapping[int, str] | None = None,
    discard: str | None = None,
    stock: str = "",
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
) -> Game:
    """A Continental game whose first deal is stacked (see :func:`con_order`)."""
    order, dealer = con_order(players, racks, discard, stock, options, dealer)
    return Game(CONTINENTAL, players, options, walls=[order], maker=dealer, seed=0)


def con_match(
    players: int, deals: Sequence[Mapping[str, Any]], options: Mapping[str, Any] | None = None
) -> Game:
    """A match whose deal ``k`` is stacked with ``deals[k]`` (``racks``, ``discard``,
    ``stock``); the dealer passes to the next seat (RULES §7.1, A-32), so in deal ``k``
    seat ``k`` acts first."""
    first = players - 1
    walls = [
        con_order(players, options=options, dealer=(first + k) % players, **spec)[0]
        for k, spec in enumerate(deals)
    ]
    return Game(CONTINENTAL, players, options, walls=walls, maker=first, seed=0)


FIVE_THREES = "3H 4H 5H 6S 7S 8S 9C 10C JC QD KD AD 5C 6C 7C"
"""Five natural runs of three (RULES §7.6 pattern 1)."""

WITH_WILDS = "3H 4H 5H 6S 2D 8S 9C 10C JC QD KD AD 5C 6C JK"
"""Pattern 1 with a 2 for the 7S and a joker for the 7C."""
