"""Shared helpers for the remi_ro engine tests: stacked deals and scripted play.

A stacked deal names the faces each seat is dealt (seat 0 is the first player,
who gets 15 tiles, the others 14) and the first tiles of the stock; every
tile left unnamed is a filler.  Fillers never repeat a face within one rack
(so they create no doubles) and are never 1s or jokers, unless the named
tiles used those up; a rack's fillers alone form no formation.  The stock
is the named tiles (``-`` for a filler), then fillers, 1s and jokers last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kit import TILE_NOTATION, PieceAllocator
from rummykit.engine import Game
from rummykit.engine.actions import Ready
from rummykit.engine.game import Phase
from rummykit.model.melds import read_meld
from rummykit.rules.remi_ro import MELD_RULES, REMI_RO, TILES_106, stack_wall

MAT = TILE_NOTATION.material
ALL_PIECES = frozenset(range(len(TILES_106)))

face = TILE_NOTATION.face
faces = TILE_NOTATION.faces
act = TILE_NOTATION.act


def _filler_key(pid: int) -> tuple[int, int, int, int]:
    # 1s and jokers last; otherwise classes of (rank + colour) mod 3, each of which
    # holds no two tiles of one colour within 2 ranks and no three of one rank,
    # so a rack filled from one class forms no formation on its own.
    f = TILES_106.faces[pid]
    if f.is_joker or f.rank == 1:
        return (1, 0, 0, pid)
    return (0, (f.rank + f.suit_index) % 3, TILES_106.copy_number(pid), pid)


def default_maker(players: int, options: Mapping[str, Any] | None = None) -> int:
    """The maker whose right-hand neighbour (the first player) is seat 0."""
    clockwise = (options or {}).get("direction") == "clockwise"
    return 1 % players if clockwise else players - 1


def stacked_wall(
    players: int = 4,
    racks: Mapping[int, str] | Sequence[str] | None = None,
    stock: str = "",
    indicator: str = "K4",
    options: Mapping[str, Any] | None = None,
    maker: int | None = None,
) -> tuple[list[int], int]:
    """(wall order, maker) dealing ``racks`` (seat → faces) and drawing ``stock`` first.

    ``stock`` lists the first draws in order; ``-`` stands for any filler tile.
    """
    resolved = REMI_RO.resolve(players, options)
    maker = default_maker(players, options) if maker is None else maker
    first = (
        (maker + 1) % players
        if resolved["direction"] == "counterclockwise"
        else ((maker - 1) % players)
    )
    given: dict[int, str] = (
        dict(enumerate(racks)) if isinstance(racks, Sequence) else dict(racks or {})
    )
    alloc = PieceAllocator(TILES_106)
    ind = alloc.take(indicator)
    named = {seat: alloc.take_all(given.get(seat, "")) for seat in range(players)}
    stock_tokens = stock.split()
    stock_named = [None if t == "-" else alloc.take(t) for t in stock_tokens]
    free = sorted(ALL_PIECES - alloc.used, key=_filler_key)
    rack_ids: list[list[int]] = []
    for seat in range(players):
        rack = named[seat]
        size = 15 if seat == first else 14
        if len(rack) > size:
            raise ValueError(f"seat {seat} is dealt {size} tiles, {len(rack)} were named")
        kinds = {TILES_106.faces[p].kind for p in rack}
        for pid in list(free):
            if len(rack) == size:
                break
            kind = TILES_106.faces[pid].kind
            if kind in kinds:
                continue
            rack.append(pid)
            kinds.add(kind)
            free.remove(pid)
        if len(rack) != size:
            raise ValueError(f"cannot fill seat {seat}'s rack without doubles")
        rack_ids.append(rack)
    stock_ids = [free.pop(0) if p is None else p for p in stock_named]
    stock_ids += free  # fillers, 1s and jokers last
    order = stack_wall(players, maker, resolved, indicator=ind, racks=rack_ids, stock=stock_ids)
    return order, maker


def stacked_game(
    players: int = 4,
    racks: Mapping[int, str] | Sequence[str] | None = None,
    stock: str = "",
    indicator: str = "K4",
    options: Mapping[str, Any] | None = None,
    *,
    maker: int | None = None,
    ready: bool = True,
) -> Game:
    """A game whose first deal is stacked; with ``ready`` the pre-play phase is passed."""
    order, maker = stacked_wall(players, racks, stock, indicator, options, maker)
    game = Game("remi_ro", players, options, walls=[order], maker=maker, seed=0)
    if ready:
        while game.phase is Phase.PREPLAY:
            game.apply(Ready())
    return game


def assert_table_valid(game: Game) -> None:
    """Every formation on the table reads as a formation with its joker positions."""
    for formation in game.table:
        fs = [game.faces[p] for p in formation.pieces]
        declared = [
            formation.represented(game.pieces, i) if f.is_joker else None for i, f in enumerate(fs)
        ]
        readings = read_meld(fs, MELD_RULES, declared)
        assert readings, f"m{formation.id} {formation.notation(game.pieces)} is not a formation"
        assert any(r.kind is formation.kind for r in readings)
        if formation.kind.value == "run":
            assert list(formation.positions) == list(
                range(formation.positions[0], formation.positions[0] + len(fs))
            ), formation
