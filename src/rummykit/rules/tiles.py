"""The 106-tile set and its wall, shared by the tile variants (RULES §9.1-9.3, §10.1-10.2).

Both tile games build the same wall of 15 stacks of 7 with one extra tile, the
face-up indicator, move the top tile of stack N (the indicator's number) onto
stack N+1, hand out two stacks per player starting with that 8-tile stack, and
draw the rest stack by stack, ending with stack N.  They differ only in who
plays first and what the indicator means, which each variant's ``deal`` hook
decides around :func:`lay_wall`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rummykit.model.melds import HIGH_ACE
from rummykit.model.pieces import RANKS_PER_SUIT, Material, PieceSet
from rummykit.rules.variant import DealLayout

__all__ = [
    "STACKS",
    "STACK_HEIGHT",
    "TILES_106",
    "Wall",
    "alone_kinds",
    "lay_wall",
    "stack_wall",
]

TILES_106 = PieceSet.build(Material.TILES, copies=2, jokers=2)
"""RULES §9.1/§10.1: four colours × 1..13 × two copies, plus two jokers."""

STACKS = 15
STACK_HEIGHT = 7


@dataclass(frozen=True, slots=True)
class Wall:
    """A laid-out wall: racks in seat order, the stock in draw order, the indicator."""

    racks: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    indicator: int
    count: int
    """N: the stack the indicator marks (its number, or the joker count)."""


def lay_wall(
    order: Sequence[int],
    players: int,
    first: int,
    *,
    joker_count: int = 14,
    pairs: bool = False,
) -> Wall:
    """Build the wall from ``order`` and hand it out (RULES §9.2-9.3, §10.2).

    ``order[7*i : 7*i+7]`` is stack ``i+1`` from bottom to top and ``order[105]``
    is the indicator; ``first`` is the seat receiving the 8-tile stack; stacks go
    one at a time round the table (``pairs``: two at a time, A-65).
    """
    if len(order) != len(TILES_106) or sorted(order) != list(range(len(TILES_106))):
        raise ValueError("a tile wall lists each of the 106 tiles exactly once")
    stacks = [list(order[STACK_HEIGHT * i : STACK_HEIGHT * (i + 1)]) for i in range(STACKS)]
    indicator = order[-1]
    face = TILES_106.faces[indicator]
    n = joker_count if face.is_joker else face.rank
    # §9.2(2)/§10.2(2): the top of stack N goes onto stack N+1; the indicator stays
    # face up on stack N and is drawn last among the stacks.
    lifted = stacks[n - 1].pop()
    stacks[n - 1].append(indicator)
    stacks[n % STACKS].append(lifted)
    racks: list[list[int]] = [[] for _ in range(players)]
    dealt = 2 * players
    for k in range(dealt):
        seat = (first + (k // 2 if pairs else k)) % players
        racks[seat].extend(stacks[(n + k) % STACKS])
    # Drawing runs along the wall from the first stack not handed out, each stack
    # top down, ending with stack N.  (Raising one stack onto the next, §9.3(3),
    # does not change this order.)
    stock: list[int] = []
    for k in range(dealt, STACKS):
        stock.extend(reversed(stacks[(n + k) % STACKS]))
    return Wall(tuple(tuple(r) for r in racks), tuple(stock), indicator, n)


def stack_wall(
    build: Callable[[Sequence[int]], DealLayout],
    *,
    indicator: int,
    racks: Sequence[Sequence[int]],
    stock: Sequence[int] = (),
) -> list[int]:
    """The wall order that ``build`` turns into ``racks`` (seat order) and ``stock``.

    The inverse of a tile variant's deal, for stacked deals in tests and puzzles:
    each rack must have the size ``build`` deals to that seat; ``stock`` lists the
    first pieces to be drawn (the indicator excluded); every piece not named fills
    the rest of the stock in id order.
    """
    named = [indicator, *(p for rack in racks for p in rack), *stock]
    if len(set(named)) != len(named):
        raise ValueError("each tile may be named once")
    probe_ids = [p for p in range(len(TILES_106)) if p != indicator]
    probe = build([*probe_ids, indicator])
    slot_of = {pid: i for i, pid in enumerate(probe_ids)}
    order: list[int | None] = [None] * len(TILES_106)
    order[-1] = indicator
    used = {indicator}
    for seat, rack in enumerate(racks):
        if len(rack) != len(probe.racks[seat]):
            raise ValueError(
                f"seat {seat} is dealt {len(probe.racks[seat])} tiles, not {len(rack)}"
            )
        for pid, slot_pid in zip(rack, probe.racks[seat], strict=True):
            order[slot_of[slot_pid]] = pid
            used.add(pid)
    stock_slots = [p for p in probe.stock if p != indicator]
    rest = [p for p in range(len(TILES_106)) if p not in used and p not in stock]
    for pid, slot_pid in zip([*stock, *rest], stock_slots, strict=True):
        order[slot_of[slot_pid]] = pid
    return [p for p in order if p is not None]


def one_joker_refutes(helped: list[int], alone: int) -> bool:
    """Whether a rack with one joker surely cannot be laid out whole but for one discard:
    ``alone`` tiles fit in no formation even with the joker, and ``helped`` (their
    kinds) fit only in the joker's formation.  More than one tile alone is refuted; else
    the tiles the joker must hold (all of ``helped`` but the discard, when nothing is
    alone) must be of one colour or one number, as one formation's are."""
    if alone > 1:
        return True
    if len(helped) < 2:
        return False
    if alone:  # the discard is the tile in no formation
        return not _one_formation(helped)
    return not (
        _one_formation(helped)
        or any(_one_formation(helped[:i] + helped[i + 1 :]) for i in range(len(helped)))
    )


def _one_formation(kinds: list[int]) -> bool:
    """Whether the natural ``kinds`` are of one colour or one number (as a formation's are)."""
    return (
        len({k // RANKS_PER_SUIT for k in kinds}) <= 1
        or len({k % RANKS_PER_SUIT for k in kinds}) <= 1
    )


_ONE_BITS = 1 << 1 | 1 << HIGH_ACE
_MIDDLE_BITS = sum(1 << position for position in range(2, HIGH_ACE))


@lru_cache(maxsize=65536)  # masks of positions 1..14, four colours
def alone_kinds(alone: int, base: int) -> tuple[int, ...]:
    """The kinds of one colour whose run positions are set in the bit mask ``alone``,
    lowest first; ``base`` is the colour's 1.

    Bit p stands for run position p (1..14), the 1 sitting at both 1 and 14: it
    counts only when both of its bits are set.  Shared by the tile variants' bit-mask
    refutations of racks with tiles in no formation, asked on every board player's
    turn: kept, as a scan costs more than the look-up.
    """
    found = [base] if alone & _ONE_BITS == _ONE_BITS else []
    rest = alone & _MIDDLE_BITS
    while rest:  # positions 2..13, lowest first
        low = rest & -rest
        found.append(base + low.bit_length() - 2)  # position p is tile base + p - 1
        rest ^= low
    return tuple(found)
