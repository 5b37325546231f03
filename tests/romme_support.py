"""Shared helpers for the German Rommé tests (``romme``, RULES §8): stacked deals from
card notation and scripted play.

A stacked deal names the cards each seat is dealt, the up-card and the first cards
of the stock; every slot left unnamed is a *filler*.  Fillers are never jokers and
form no figure with anything else in the same hand, even with the jokers the test
named for it: a filler shares its rank with no other card of the hand, and no other
card of its suit lies within ``max(2, jokers + 1)`` ranks of it (the ace counting as
1 and as 14).  Where the named cards leave too few ranks free, one other card of the
rank is tolerated (only a 14-card hand holding a joker ever needs it).  The stock is
the named cards in order (``-`` for a filler), then the other fillers, jokers last.

Seats are numbered in play order (clockwise for Rommé).  By default the dealer is
chosen so that seat 0 (``P1``) acts first: seat ``n-1`` deals in up-card mode (his
left-hand neighbour, seat 0, is the forehand), seat 0 deals when the dealer receives
the fourteenth card.  A token ``7C#2`` names one physical copy; a plain ``7C`` takes
the first copy not yet used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from card_support import _conflicts, faces, first_player_dealer
from kit import PieceAllocator, draw, pass_turn, play
from rummykit.engine import Game
from rummykit.model.pieces import Face, Material, PieceSet
from rummykit.rules.cards import stack_cards
from rummykit.rules.options import Options
from rummykit.rules.romme import JOKER_PENALTY, PENALTY, ROMME

MAT = Material.CARDS

__all__ = [
    "MAT",
    "first_dealer",
    "penalty",
    "piece",
    "resolve",
    "romme_after_openings",
    "romme_game",
    "romme_match",
    "romme_order",
]


# ------------------------------------------------------------------ notation


def resolve(players: int = 2, options: Mapping[str, Any] | None = None) -> Options:
    """Every Rommé option for ``players``, defaults filled in."""
    return ROMME.resolve(players, options)


def piece(token: str, options: Mapping[str, Any] | None = None) -> int:
    """The id of the physical card ``7C#2`` / ``JK#3`` in a pack built with ``options``."""
    return ROMME.pieces(resolve(2, options)).parse_piece(token)


def penalty(cards: Iterable[Face] | str) -> int:
    """RULES §8.8 value of cards left in hand: A 11, K/Q/J 10, 2-10 face, joker 30."""
    items = faces(cards) if isinstance(cards, str) else list(cards)
    return sum(JOKER_PENALTY if f.is_joker else PENALTY[f.rank] for f in items)


# ------------------------------------------------------------------ stacked deals


def first_dealer(players: int, options: Mapping[str, Any] | None = None) -> int:
    """The dealer seat for which seat 0 is the first player of the deal."""
    return first_player_dealer(ROMME, players, options)


def _spread(pieces: PieceSet, reach: int) -> Callable[[int], tuple[int, int, int]]:
    # Ranks ``reach + 1`` apart in each suit, suits offset by one rank, so that greedy
    # filling packs many figure-free cards into one hand.
    def key(pid: int) -> tuple[int, int, int]:
        f = pieces.faces[pid]
        return ((f.rank - 1 - f.suit_index) % (reach + 1), pieces.copy_number(pid), pid)

    return key


def _fill(named: list[int], size: int, free: list[int], pieces: PieceSet, seat: int) -> list[int]:
    rack = list(named)
    if len(rack) > size:
        raise ValueError(f"seat {seat} is dealt {size} cards, {len(rack)} were named")
    hand = [pieces.faces[p] for p in rack]
    jokers = sum(f.is_joker for f in hand)
    # Strict first; then a pair where no joker could complete a set; a pair beside a
    # joker only as the last resort (a hand of 14 has no 14 distinct ranks).
    for reach, allow_pair in ((max(2, jokers + 1), False), (2, jokers == 0), (2, True)):
        for pid in sorted(free, key=_spread(pieces, reach)):
            if len(rack) == size:
                return rack
            f = pieces.faces[pid]
            if _conflicts(f, hand, allow_pair=allow_pair, reach=reach):
                continue
            rack.append(pid)
            hand.append(f)
            free.remove(pid)
    if len(rack) != size:
        raise ValueError(f"cannot fill seat {seat}'s hand with figure-free cards")
    return rack


def romme_order(
    players: int = 2,
    racks: Mapping[int, str] | Sequence[str] | None = None,
    discard: str | None = None,
    stock: str = "",
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
) -> tuple[list[int], int]:
    """(shuffled order, dealer) that deals ``racks`` (seat → cards), turns up ``discard``
    (up-card mode) and draws ``stock`` first (``-`` for a filler).

    With ``rauben`` the cutter (the dealer's right, seat ``dealer - 1``) must be named a
    joker: it is put at the bottom of the pack, so he robs it at the cut.
    """
    resolved = resolve(players, options)
    pieces = ROMME.pieces(resolved)
    dealer = first_dealer(players, options) if dealer is None else dealer
    probe = ROMME.deal(pieces, list(range(len(pieces))), players, dealer, resolved)
    given: dict[int, str] = (
        dict(enumerate(racks)) if isinstance(racks, Sequence) else dict(racks or {})
    )
    alloc = PieceAllocator(pieces)
    named = {seat: alloc.take_all(given.get(seat, "")) for seat in range(players)}
    pile_named = alloc.take_all(discard or "")
    stock_named = [None if t == "-" else alloc.take(t) for t in stock.split()]
    free = sorted(
        (p for p in range(len(pieces)) if not pieces.faces[p].is_joker and p not in alloc.used),
        key=_spread(pieces, 2),
    )
    jokers = [p for p in range(len(pieces)) if pieces.faces[p].is_joker and p not in alloc.used]
    # Hands holding jokers are the hardest to keep figure-free: they choose first.
    by_need = sorted(
        range(players), key=lambda s: (-sum(pieces.faces[p].is_joker for p in named[s]), s)
    )
    filled = {s: _fill(named[s], len(probe.racks[s]), free, pieces, s) for s in by_need}
    rack_ids = [filled[s] for s in range(players)]
    if resolved["rauben"] and pieces.joker_count:
        # stack_cards probes with the identity order, whose last card (a joker) is
        # robbed: the cutter's last slot is the bottom of the pack.
        cutter = (dealer - 1) % players
        robbed = [p for p in rack_ids[cutter] if pieces.faces[p].is_joker]
        if not robbed:
            raise ValueError("with rauben the cutter must be named a joker to rob")
        rack_ids[cutter].remove(robbed[-1])
        rack_ids[cutter].append(robbed[-1])
    pile = pile_named + [free.pop(0) for _ in range(len(probe.discard) - len(pile_named))]
    stock_ids = [free.pop(0) if p is None else p for p in stock_named] + free + jokers
    order = stack_cards(
        ROMME, players, dealer, resolved, racks=rack_ids, discard=pile, stock=stock_ids
    )
    return order, dealer


def romme_game(
    players: int = 2,
    racks: Mapping[int, str] | Sequence[str] | None = None,
    discard: str | None = None,
    stock: str = "",
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
) -> Game:
    """A Rommé game whose first deal is stacked (see :func:`romme_order`)."""
    order, dealer = romme_order(players, racks, discard, stock, options, dealer)
    return Game(ROMME, players, options, walls=[order], maker=dealer, seed=0)


def romme_match(
    players: int = 2,
    deals: Sequence[Mapping[str, Any]] = (),
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
) -> Game:
    """A match whose first deals are stacked: ``deals[k]`` holds ``racks``, ``discard``
    and ``stock`` of :func:`romme_order` for deal ``k``.  The deal passes to the next
    seat in play order (clockwise) after every deal."""
    first = first_dealer(players, options) if dealer is None else dealer
    walls = [
        romme_order(players, options=options, dealer=(first + k) % players, **spec)[0]
        for k, spec in enumerate(deals)
    ]
    return Game(ROMME, players, options, walls=walls, maker=first, seed=0)


# ------------------------------------------------------------------ scripted play


def romme_after_openings(
    players: int = 2,
    racks: Mapping[int, str] | Sequence[str] | None = None,
    openings: Mapping[int, Sequence[str]] | None = None,
    *,
    discard: str | None = None,
    stock: str = "",
    options: Mapping[str, Any] | None = None,
) -> Game:
    """A stacked up-card game after one round: each seat of ``openings`` draws, plays
    its lines (melds) and discards the card it drew; the other seats pass.  Returns the
    game at the start of P1's second turn, every seat of ``openings`` opened in an
    earlier turn.  ``stock`` names the round's draws first (``-`` for fillers)."""
    game = romme_game(players, racks, discard, stock, options)
    for seat in range(players):
        assert game.to_move == seat
        lines = (openings or {}).get(seat)
        if lines:
            drawn = draw(game)
            play(game, *lines, f"discard {drawn}")
            assert game.opened[seat]
        else:
            pass_turn(game)
    return game
