"""Shared helpers for the remmi_de tests: stacked deals and scripted play.

Stacked deals work as in :mod:`remi_ro_support` (named tiles per seat, fillers
that form nothing and make no doubles, the named first draws of the stock);
seat 0 is the first player (15 tiles), sitting left of the dealer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kit import TILE_NOTATION, PieceAllocator
from remi_ro_support import ALL_PIECES, _filler_key
from rummykit.engine import Game
from rummykit.engine.actions import Ready
from rummykit.engine.game import Phase
from rummykit.rules.remmi_de import REMMI_DE, stack_wall
from rummykit.rules.tiles import TILES_106

face = TILE_NOTATION.face
faces = TILE_NOTATION.faces
act = TILE_NOTATION.act


def default_dealer(players: int, options: Mapping[str, Any] | None = None) -> int:
    """The dealer whose left-hand neighbour (the first player) is seat 0."""
    counterclockwise = (options or {}).get("direction") == "counterclockwise"
    return 1 % players if counterclockwise else players - 1


def stacked_wall(
    players: int = 4,
    racks: Mapping[int, str] | Sequence[str] | None = None,
    stock: str = "",
    indicator: str = "K4",
    options: Mapping[str, Any] | None = None,
    dealer: int | None = None,
) -> tuple[list[int], int]:
    """(wall order, dealer) dealing ``racks`` (seat → faces) and drawing ``stock`` first.

    ``stock`` lists the first draws in order; ``-`` stands for any filler tile.
    """
    resolved = REMMI_DE.resolve(players, options)
    dealer = default_dealer(players, options) if dealer is None else dealer
    layout = REMMI_DE.deal(TILES_106, list(range(len(TILES_106))), players, dealer, resolved)
    first = layout.first_seat
    given: dict[int, str] = (
        dict(enumerate(racks)) if isinstance(racks, Sequence) else dict(racks or {})
    )
    alloc = PieceAllocator(TILES_106)
    ind = alloc.take(indicator)
    named = {seat: alloc.take_all(given.get(seat, "")) for seat in range(players)}
    stock_named = [None if t == "-" else alloc.take(t) for t in stock.split()]
    free = sorted(ALL_PIECES - alloc.used, key=_filler_key)
    rack_ids: list[list[int]] = []
    for seat in range(players):
        rack_ids.append(_fill(named[seat], 15 if seat == first else 14, free, seat))
    stock_ids = [free.pop(0) if p is None else p for p in stock_named]
    stock_ids += free
    order = stack_wall(players, dealer, resolved, indicator=ind, racks=rack_ids, stock=stock_ids)
    return order, dealer


def _fill(rack: list[int], size: int, free: list[int], seat: int) -> list[int]:
    if len(rack) > size:
        raise ValueError(f"seat {seat} is dealt {size} tiles, {len(rack)} were named")
    kinds = {TILES_106.faces[p].kind for p in rack}
    for pid in list(free):
        if len(rack) == size:
            break
        kind = TILES_106.faces[pid].kind
        if kind not in kinds:
            rack.append(pid)
            kinds.add(kind)
            free.remove(pid)
    if len(rack) != size:
        raise ValueError(f"cannot fill seat {seat}'s rack without doubles")
    return rack


def stacked_game(
    players: int = 4,
    racks: Mapping[int, str] | Sequence[str] | None = None,
    stock: str = "",
    indicator: str = "K4",
    options: Mapping[str, Any] | None = None,
    *,
    dealer: int | None = None,
    ready: bool = True,
) -> Game:
    """A remmi_de game whose first deal is stacked; ``ready`` passes the double swap."""
    order, dealer = stacked_wall(players, racks, stock, indicator, options, dealer)
    game = Game("remmi_de", players, options, walls=[order], maker=dealer, seed=0)
    if ready:
        while game.phase is Phase.PREPLAY:
            game.apply(Ready())
    return game
