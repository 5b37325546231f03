"""Shared helpers for the card-variant tests: stacked deals from notation and scripted play.

A stacked card game names the cards each seat is dealt, the discard pile (a
``basic`` up-card) and the first cards of the stock; every slot left unnamed
is a *filler*.  A filler never forms a meld with anything else in the same
hand: no other card of its suit lies within two ranks of it (the ace counting
as 1 and as 14), and at most one other card shares its rank, so no run and no
set can contain it.  The stock is the named cards in order (``-`` for a
filler), then the remaining cards.

Seats are numbered in play order of the deal: by default the dealer is chosen
so that seat 0 (``P1``) acts first (``basic``: seat ``n-1`` deals; ``german2``:
seat 0 deals and plays first).  A token ``7C#2`` names one physical copy; a
plain ``7C`` takes the first copy not yet used.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kit import CARD_NOTATION, PieceAllocator
from rummykit.engine import Game
from rummykit.model.pieces import Face, Material, PieceSet
from rummykit.rules.cards import stack_cards
from rummykit.rules.double import JOKER_VALUE, VALUES
from rummykit.rules.variant import Variant, find_variant

MAT = Material.CARDS

__all__ = [
    "MAT",
    "act",
    "card_game",
    "card_match",
    "card_order",
    "cards",
    "double_hand_points",
    "face",
    "faces",
    "first_player_dealer",
    "foreign_sections",
    "legal_texts",
]

face = CARD_NOTATION.face
faces = CARD_NOTATION.faces
act = CARD_NOTATION.act


def cards(text: str) -> list[str]:
    """``text``'s cards sorted like ``kit.rack`` sorts a hand (suits S H D C, then rank)."""
    return [str(f) for f in sorted(faces(text))]


def first_player_dealer(
    variant: Variant | str, players: int, options: Mapping[str, Any] | None = None
) -> int:
    """The dealer seat for which seat 0 is the first player of the deal."""
    v = find_variant(variant) if isinstance(variant, str) else variant
    resolved = v.resolve(players, options)
    pieces = v.pieces(resolved)
    for dealer in range(players):
        layout = v.deal(pieces, list(range(len(pieces))), players, dealer, resolved)
        if layout.first_seat == 0:
            return dealer
    raise ValueError(f"no dealer makes seat 0 the first player of {v.name}")


def _positions(f: Face) -> tuple[int, ...]:
    return (1, 14) if f.rank == 1 else (f.rank,)


def _conflicts(candidate: Face, hand: Sequence[Face], *, allow_pair: bool, reach: int = 2) -> bool:
    """Whether ``candidate`` could share a meld with a natural card of ``hand``: one of its
    rank (two with ``allow_pair``), or one of its suit within ``reach`` ranks."""
    same_rank = sum(1 for f in hand if not f.is_joker and f.rank == candidate.rank)
    if same_rank > (1 if allow_pair else 0):
        return True
    return any(
        not f.is_joker
        and f.suit_index == candidate.suit_index
        and any(abs(a - b) <= reach for a in _positions(f) for b in _positions(candidate))
        for f in hand
    )


def _filler_order(pieces: PieceSet) -> list[int]:
    # Spread the ranks: every third rank per suit, suits offset, so that greedy
    # filling packs many meld-free cards into one hand.
    def key(pid: int) -> tuple[int, int, int]:
        f = pieces.faces[pid]
        return ((f.rank - 1 + f.suit_index) % 3, pieces.copy_number(pid), pid)

    return sorted((p for p in range(len(pieces)) if not pieces.faces[p].is_joker), key=key)


def _fill(named: list[int], size: int, free: list[int], pieces: PieceSet, seat: int) -> list[int]:
    rack = list(named)
    hand = [pieces.faces[p] for p in rack]
    for allow_pair in (False, True):
        for pid in list(free):
            if len(rack) == size:
                return rack
            f = pieces.faces[pid]
            if _conflicts(f, hand, allow_pair=allow_pair):
                continue
            rack.append(pid)
            hand.append(f)
            free.remove(pid)
    if len(rack) != size:
        raise ValueError(f"cannot fill seat {seat}'s hand with meld-free cards")
    return rack


def card_order(
    variant: Variant | str,
    players: int | None = None,
    dealer: int | None = None,
    racks: Mapping[int, str] | Sequence[str] | None = None,
    discard: str | None = None,
    stock: str = "",
    options: Mapping[str, Any] | None = None,
) -> tuple[list[int], int]:
    """(shuffled order, dealer) that deals ``racks`` (seat → cards), starts the discard
    pile with ``discard`` and draws ``stock`` first (``-`` for a filler)."""
    v = find_variant(variant) if isinstance(variant, str) else variant
    n = v.default_players if players is None else players
    resolved = v.resolve(n, options)
    pieces = v.pieces(resolved)
    dealer = first_player_dealer(v, n) if dealer is None else dealer
    probe = v.deal(pieces, list(range(len(pieces))), n, dealer, resolved)
    given: dict[int, str] = (
        dict(enumerate(racks)) if isinstance(racks, Sequence) else dict(racks or {})
    )
    alloc = PieceAllocator(pieces)
    named = {seat: alloc.take_all(given.get(seat, "")) for seat in range(n)}
    pile_named = alloc.take_all(discard or "")
    stock_named = [None if t == "-" else alloc.take(t) for t in stock.split()]
    free = [p for p in _filler_order(pieces) if p not in alloc.used]
    jokers = [p for p in range(len(pieces)) if pieces.faces[p].is_joker and p not in alloc.used]
    rack_ids = [_fill(named[s], len(probe.racks[s]), free, pieces, s) for s in range(n)]
    pile = pile_named + [free.pop(0) for _ in range(len(probe.discard) - len(pile_named))]
    stock_ids = [free.pop(0) if p is None else p for p in stock_named] + free + jokers
    order = stack_cards(v, n, dealer, resolved, racks=rack_ids, discard=pile, stock=stock_ids)
    return order, dealer


def card_game(
    variant: Variant | str,
    players: int | None = None,
    dealer: int | None = None,
    racks: Mapping[int, str] | Sequence[str] | None = None,
    discard: str | None = None,
    stock: str = "",
    options: Mapping[str, Any] | None = None,
) -> Game:
    """A game whose first deal is stacked (see :func:`card_order`)."""
    order, dealer = card_order(variant, players, dealer, racks, discard, stock, options)
    return Game(variant, players, options, walls=[order], maker=dealer, seed=0)


def card_match(
    variant: Variant | str,
    players: int | None = None,
    deals: Sequence[Mapping[str, Any]] = (),
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
) -> Game:
    """A match whose first deals are stacked: ``deals[k]`` holds the keyword arguments
    ``racks``, ``discard`` and ``stock`` of :func:`card_order` for deal ``k``.  The first
    dealer defaults to the one that makes seat 0 the first player; later dealers follow
    the engine's rotation (the next seat in play order)."""
    v = find_variant(variant) if isinstance(variant, str) else variant
    n = v.default_players if players is None else players
    first = first_player_dealer(v, n) if dealer is None else dealer
    walls = [
        card_order(v, n, (first + k) % n, options=options, **spec)[0]
        for k, spec in enumerate(deals)
    ]
    return Game(v, n, options, walls=walls, maker=first, seed=0)


def foreign_sections(rule: str, own: Sequence[str], ambiguities: Iterable[int]) -> list[str]:
    """The parts of a cited ``rule`` (``"§5.6/§9.6(2)"``) that are neither one of the
    ``own`` sections (``"§2"`` covers §2 and §2.x) nor an ambiguity A-nn of ``ambiguities``."""
    allowed = {f"A-{k:02d}" for k in ambiguities}
    out = []
    for part in rule.replace(",", "/").split("/"):
        part = part.strip()
        head = part.split(".")[0].split("(")[0]
        if head in own or part in allowed:
            continue
        out.append(part)
    return out


def double_hand_points(game: Game, seat: int) -> int:
    """RULES §4.9 value of the cards in ``seat``'s hand."""
    return sum(JOKER_VALUE if f.is_joker else VALUES[f.rank] for f in game.rack_faces(seat))


def legal_texts(game: Game) -> set[str]:
    """The legal actions in notation."""
    return {str(a) for a in game.legal_actions()}
