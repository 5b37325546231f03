"""Shared pieces of the card variants (RULES §2, §3-§8): packs, dealing, values, options."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from rummykit.model.pieces import Face, Material, PieceSet
from rummykit.rules.options import (
    OptionKind,
    Options,
    VariantOptions,
    option,
    target_match,
)
from rummykit.rules.variant import DealLayout, Variant

__all__ = [
    "RECYCLE_OPTIONS",
    "card_pack",
    "deal_in_packets",
    "hand_value",
    "stack_cards",
    "target_or_deals_length",
    "target_or_deals_over",
]

ENGINE = OptionKind.ENGINE


@dataclass(frozen=True, kw_only=True, eq=False)
class RecycleOptions(VariantOptions):
    """Options every card variant shares (stock exhaustion and the taken discard)."""

    recycle_shuffle: bool = option(
        False,
        doc="§2.4: the turned-over discard pile is shuffled (and cut) before it becomes the stock.",
    )
    max_stock_recycles: int | None = option(
        None,
        minimum=0,
        maximum=1000,
        nullable=True,
        kind=ENGINE,
        doc="§2.4/A-05: after this many recycles an empty stock voids the deal (null: no limit).",
    )
    allow_discard_of_taken_discard: bool = option(
        False,
        kind=ENGINE,
        doc="§2.5/A-03: the card taken from the discard pile may be discarded the same turn.",
    )


RECYCLE_OPTIONS = RecycleOptions.specs()


@cache
def card_pack(decks: int, jokers: int) -> PieceSet:
    """``decks`` 52-card packs shuffled together plus ``jokers`` jokers.

    One frozen set per size: variants whose pack depends on an option ask on every
    new game.
    """
    return PieceSet.build(Material.CARDS, copies=decks, jokers=jokers)


def deal_in_packets(
    order: Sequence[int],
    players: int,
    first: int,
    packets: Sequence[int],
    *,
    upcard: bool,
    extra: dict[int, int] | None = None,
) -> DealLayout:
    """Deal ``order`` (top of the shuffled pack first) round by round.

    Round ``r`` gives every seat ``packets[r]`` cards, starting with ``first`` and
    going in play order; ``extra`` maps a seat to cards it receives after the
    rounds (a 14th card).  With ``upcard`` the next card starts the discard pile.
    The rest is the stock, drawn from its top.
    """
    racks: list[list[int]] = [[] for _ in range(players)]
    i = 0
    for size in packets:
        for k in range(players):
            seat = (first + k) % players
            racks[seat].extend(order[i : i + size])
            i += size
    for seat, count in (extra or {}).items():
        racks[seat].extend(order[i : i + count])
        i += count
    discard: tuple[int, ...] = ()
    if upcard:
        discard = (order[i],)
        i += 1
    return DealLayout(
        racks=tuple(tuple(r) for r in racks),
        stock=tuple(order[i:]),
        first_seat=first,
        discard=discard,
    )


def hand_value(rack: Sequence[Face], value: dict[int, int], joker: int = 0) -> int:
    """Sum of card values: ``value[rank]`` for naturals, ``joker`` for jokers."""
    return sum(joker if f.is_joker else value[f.rank] for f in rack)


def target_or_deals_length(options: Options) -> int | None:
    """RULES §3.8: ``match_deals`` deals with ``match_mode`` "deals", else no fixed number."""
    match = target_match(options)
    return match.match_deals if match.match_mode == "deals" else None


def target_or_deals_over(totals: Sequence[int], deals: int, options: Options) -> bool:
    """RULES §3.8: ``match_mode`` "target" (reach ``target_score``) or "deals"."""
    match = target_match(options)
    if match.match_mode == "deals":
        return deals >= match.match_deals
    return max(totals) >= match.target_score


def stack_cards(
    variant: Variant,
    players: int,
    dealer: int,
    options: Options,
    *,
    racks: Sequence[Sequence[int]],
    discard: Sequence[int] = (),
    stock: Sequence[int] = (),
) -> list[int]:
    """The shuffled order that deals ``racks`` (seat order), the ``discard`` pile and
    draws ``stock`` first, for stacked deals in tests (card variants).

    Every piece not named fills the rest of the stock in id order.
    """
    pieces = variant.pieces(options)
    size = len(pieces)
    probe = variant.deal(pieces, list(range(size)), players, dealer, options)
    order: list[int | None] = [None] * size
    used: set[int] = set()

    def place(slots: Sequence[int], chosen: Sequence[int], what: str) -> None:
        if len(chosen) > len(slots):
            raise ValueError(f"{what}: {len(chosen)} pieces named, {len(slots)} dealt")
        for slot, piece in zip(slots, chosen, strict=False):
            if piece in used:
                raise ValueError(f"piece {pieces.name(piece)} is named twice")
            order[slot] = piece
            used.add(piece)

    for seat, rack in enumerate(racks):
        if len(rack) != len(probe.racks[seat]):
            raise ValueError(
                f"seat {seat} is dealt {len(probe.racks[seat])} cards, not {len(rack)}"
            )
        place(probe.racks[seat], rack, f"seat {seat}")
    place(probe.discard, discard, "discard pile")
    place(probe.stock, stock, "stock")
    rest = iter(p for p in range(size) if p not in used)
    return [p if p is not None else next(rest) for p in order]
