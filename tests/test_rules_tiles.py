"""rummykit.rules.tiles: the 106 tiles and the wall shared by remi_ro and remmi_de."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from rummykit.model.pieces import kind_of
from rummykit.rules.remi_ro import REMI_RO, build_wall
from rummykit.rules.remmi_de import REMMI_DE
from rummykit.rules.remmi_de import build_wall as build_remmi_wall
from rummykit.rules.tiles import (
    STACK_HEIGHT,
    STACKS,
    TILES_106,
    alone_kinds,
    lay_wall,
    one_joker_refutes,
    stack_wall,
)
from rummykit.rules.variant import DealLayout


def test_the_tile_set() -> None:
    """§9.1/§10.1: four colours × 1..13 × 2, plus two jokers; 15 stacks of 7 and one more."""
    assert len(TILES_106) == 106 == STACKS * STACK_HEIGHT + 1
    assert sum(f.is_joker for f in TILES_106.faces) == 2


@pytest.mark.parametrize("bad", [list(range(105)), [0, *range(105)]])
def test_a_wall_lists_every_tile_once(bad: list[int]) -> None:
    with pytest.raises(ValueError, match="each of the 106 tiles"):
        lay_wall(bad, 4, 0)


def test_stacks_go_round_robin_or_in_pairs() -> None:
    """§9.2-9.3/A-65: a joker indicator marks stack ``joker_count``; stacks go one at a
    time by default, two at a time with ``pairs``; the stock ends with the marked stack."""
    order = list(range(106))
    assert TILES_106.faces[105].is_joker
    stacks = [order[7 * i : 7 * i + 7] for i in range(15)]
    wall = lay_wall(order, 2, 1)  # N = 14: stack 15 gets 8 tiles
    assert wall.count == 14
    assert list(wall.racks[1]) == [*stacks[14], stacks[13][-1], *stacks[1]]
    assert list(wall.racks[0]) == [*stacks[0], *stacks[2]]
    pairs = lay_wall(order, 2, 1, pairs=True)
    assert list(pairs.racks[1]) == [*stacks[14], stacks[13][-1], *stacks[0]]
    assert wall.stock[-7:] == (105, *reversed(stacks[13][:-1]))
    assert lay_wall(order, 2, 0, joker_count=3).count == 3


@pytest.mark.parametrize("variant", [REMI_RO, REMMI_DE])
def test_stack_wall_inverts_each_tile_variants_deal(variant: object) -> None:
    """A stacked wall deals exactly the racks and first draws it was asked for."""
    rng = random.Random(4)
    ids = list(range(106))
    rng.shuffle(ids)
    indicator = ids.pop()
    racks = [ids[:15], ids[15:29], ids[29:43]]
    stock = ids[43:50]
    build = build_wall if variant is REMI_RO else build_remmi_wall
    options = REMI_RO.resolve(3) if variant is REMI_RO else REMMI_DE.resolve(3)
    dealer = 2

    def deal(order: Sequence[int]) -> DealLayout:
        return build(order, 3, dealer, options)

    order = stack_wall(deal, indicator=indicator, racks=racks, stock=stock)
    layout = deal(order)
    assert [list(r) for r in layout.racks] == racks
    assert list(layout.stock[:7]) == stock
    assert layout.indicator == indicator


def test_stack_wall_rejects_wrong_rack_sizes_and_repeats() -> None:
    options = REMMI_DE.resolve(2)

    def deal(order: Sequence[int]) -> DealLayout:
        return build_remmi_wall(order, 2, 1, options)

    with pytest.raises(ValueError, match="is dealt 15 tiles, not 14"):
        stack_wall(deal, indicator=105, racks=[list(range(14)), list(range(14, 28))])
    with pytest.raises(ValueError, match="named once"):
        stack_wall(deal, indicator=105, racks=[list(range(15)), list(range(14))])


def test_one_joker_refutes_only_racks_the_joker_cannot_save() -> None:
    """The board closing pre-check (remi_ro §9.12, remmi_de 8B): one joker holds one
    formation, of one colour or one number; the discard may carry one odd tile."""
    r5, r6, b5, k9 = kind_of(0, 5), kind_of(0, 6), kind_of(1, 5), kind_of(2, 9)
    assert one_joker_refutes([], 2)  # two tiles in no formation: one discard is not enough
    assert not one_joker_refutes([], 1)
    assert not one_joker_refutes([r5], 1)
    assert not one_joker_refutes([r5, r6], 1)  # one colour: the joker's run
    assert not one_joker_refutes([r5, b5], 1)  # one number: the joker's set
    assert one_joker_refutes([r6, b5], 1)  # neither, and the discard is taken
    assert not one_joker_refutes([r5, r6, k9], 0)  # k9 is the discard
    assert one_joker_refutes([r6, b5, k9], 0)


def test_alone_kinds_reads_run_positions_lowest_first() -> None:
    """Bit p is run position p; the 1 counts only with both of its bits (1 and 14)."""
    base = kind_of(2, 1)
    assert alone_kinds(0, base) == ()
    assert alone_kinds(1 << 2 | 1 << 13 | 1 << 5, base) == (base + 1, base + 4, base + 12)
    assert alone_kinds(1 << 1 | 1 << 14, base) == (base,)
    assert alone_kinds(1 << 1, base) == alone_kinds(1 << 14, base) == ()
    assert alone_kinds(1 << 1 | 1 << 14 | 1 << 3, base) == (base, base + 2)
    assert alone_kinds(1 << 0 | 1 << 15, base) == ()  # outside positions 1..14
