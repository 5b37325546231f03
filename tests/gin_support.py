"""Stacked Gin Rummy deals the gin test modules share (docs/rules/gin.md)."""

from __future__ import annotations

from typing import Any

from kit import CARD_NOTATION, PieceAllocator
from rummykit.engine import Game
from rummykit.rules.cards import stack_cards
from rummykit.rules.variant import find_variant

__all__ = ["DEALER", "DEFENDER", "JUNK", "JUNK2", "KNOCKER", "deal", "face", "kinds"]


face = CARD_NOTATION.face

DEALER = 1
"""Seat 1 deals, so seat 0 (P1) is the non-dealer (§G.2)."""

KNOCKER = "AS 2S 3S 5H 5D 5C 9C 10C JC 4D"
"""Three melds and 4D: deadwood 4 (§G.3)."""

DEFENDER = "4S 5S 2H 3H 6D 8D QD KD QH 7C"
"""No meld; 4S and 5S lay off onto the knocker's melds (§G.5)."""

JUNK = "KS QH 9D 7C 5S 2H JD 8H 3C 10S"
"""No two cards share a meld: deadwood 74 (§G.3)."""

JUNK2 = "KH QD 9C 7S 5H 2D JC 8S 3D 10H"
"""Deadwood 74 as well, disjoint from JUNK."""


def kinds(text: str) -> list[int]:
    return [face(t).kind for t in text.split()]


def deal(
    p1: str, p2: str, upcard: str, stock: str = "", options: dict[str, Any] | None = None
) -> Game:
    """A gin game dealt ``p1`` (non-dealer), ``p2`` (dealer), the up-card and the stock's
    first cards (the rest follows in pack order)."""
    variant = find_variant("gin")
    resolved = variant.resolve(2, options)
    alloc = PieceAllocator(variant.pieces(resolved))
    order = stack_cards(
        variant,
        2,
        DEALER,
        resolved,
        racks=[alloc.take_all(p1), alloc.take_all(p2)],
        discard=alloc.take_all(upcard),
        stock=alloc.take_all(stock),
    )
    return Game("gin", 2, options, seed=0, walls=[order], maker=DEALER)
