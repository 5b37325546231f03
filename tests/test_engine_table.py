"""Formations on the table (engine/table.py): where a run takes a piece, and the copies a
formation makes of itself when a piece is added, swapped for a joker or taken back.

Pieces here are ids of the 106-tile remi_ro set (``TILES_106``): ids only matter to the
copies, faces to the run's ends.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummykit.engine.table import Formation
from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules
from rummykit.model.pieces import JOKER_KIND, Face, Material, kind_of
from rummykit.rules.remi_ro import TILES_106

TILES = Material.TILES
RED = 0
ENDS = MeldRules(ace_low=True, ace_high=True, ace_both_ends=False)


def _run(positions: tuple[int, ...], owner: int = 0) -> Formation:
    """A red run of naturals at ``positions`` (14: the high one), ids 100 + position."""
    kinds = tuple(kind_of(RED, 1 if p == HIGH_ACE else p) for p in positions)
    return Formation(
        1, owner, MeldKind.RUN, RED, tuple(100 + p for p in positions), positions, kinds
    )


def _red(rank: int) -> Face:
    return Face.of(TILES, RED, rank)


def test_a_run_takes_the_next_natural_at_either_end_high_end_first() -> None:
    """RULES §2.2: a run grows by the next number of its colour at either end."""
    run = _run((5, 6, 7))
    assert run.run_slot_for(_red(8), ENDS, None) == 8
    assert run.run_slot_for(_red(4), ENDS, None) == 4
    assert run.run_slot_for(_red(9), ENDS, None) is None
    assert run.run_slot_for(Face.of(TILES, 1, 8), ENDS, None) is None  # another colour
    # A joker goes where it is declared, or to the high end if it is not.
    joker = Face.joker(TILES)
    assert run.run_slot_for(joker, ENDS, _red(4)) == 4
    assert run.run_slot_for(joker, ENDS, None) == 8


@pytest.mark.parametrize(
    ("positions", "rules", "slot"),
    [
        ((2, 3, 4), ENDS, 1),  # the one below the 2 (ace_low)
        ((11, 12, 13), ENDS, HIGH_ACE),  # the one above the 13 (ace_high)
        ((2, 3, 4), replace(ENDS, ace_low=False), None),
        ((11, 12, 13), replace(ENDS, ace_high=False), None),
    ],
)
def test_the_one_sits_below_the_2_or_above_the_13_as_the_rules_allow(
    positions: tuple[int, ...], rules: MeldRules, slot: int | None
) -> None:
    """RULES §2.2 (and §9.7 for Remi): the ace/one at either end of a run."""
    assert _run(positions).run_slot_for(_red(1), rules, None) == slot


def test_a_run_holds_a_one_at_both_ends_only_where_the_rules_say_so() -> None:
    """A-64: the complete run 1-2-…-13-1 is legal in remi_ro (``ace_both_ends``) and
    nowhere else: the second one is refused otherwise."""
    almost = _run((1, *range(2, 14)))
    assert almost.run_slot_for(_red(1), ENDS, None) is None
    both = replace(ENDS, ace_both_ends=True)
    assert almost.run_slot_for(_red(1), both, None) == HIGH_ACE


def test_copies_add_swap_and_remove_pieces_and_keep_runs_sorted() -> None:
    """A formation is immutable: each change is a new formation, the old one unchanged;
    a piece added below a run goes first, so runs stay in ascending order."""
    run = _run((5, 6, 7))
    lower = run.with_piece(104, kind_of(RED, 4), 4)
    assert lower.pieces == (104, 105, 106, 107) and lower.positions == (4, 5, 6, 7)
    higher = run.with_piece(108, kind_of(RED, 8), 8)
    assert higher.pieces[-1] == 108 and higher.kinds[-1] == kind_of(RED, 8)
    assert run.pieces == (105, 106, 107)  # unchanged
    with_joker = run.replacing(106, 200, JOKER_KIND)
    assert with_joker.pieces == (105, 200, 107) and with_joker.positions == run.positions
    assert with_joker.kinds == (kind_of(RED, 5), JOKER_KIND, kind_of(RED, 7))
    shorter = higher.without_piece(105)
    assert shorter.pieces == (106, 107, 108) and shorter.positions == (6, 7, 8)
    assert (shorter.id, shorter.owner, shorter.suit) == (run.id, run.owner, run.suit)


def test_notation_shows_what_a_joker_stands_for_in_a_run_not_in_a_set() -> None:
    """``[R5 J(R6) R7]``: a run's joker names its place; a set's joker does not."""
    joker = next(p for p, f in enumerate(TILES_106.faces) if f.is_joker)
    run = _run((5, 6, 7)).replacing(106, joker, JOKER_KIND)
    assert run.notation(TILES_106) == "[R5 J(R6) R7]"
    assert run.represented(TILES_106, 1) == _red(6)
    fives = [p for p, f in enumerate(TILES_106.faces) if not f.is_joker and f.rank == 5]
    first, second = (next(p for p in fives if TILES_106.faces[p].suit_index == s) for s in (1, 2))
    kinds = (TILES_106.faces[first].kind, TILES_106.faces[second].kind, JOKER_KIND)
    a_set = Formation(2, 1, MeldKind.SET, 0, (first, second, joker), (5, 5, 5), kinds)
    named = f"{TILES_106.faces[first]} {TILES_106.faces[second]}"
    assert a_set.notation(TILES_106) == f"[{named} J]"
    assert a_set.represented(TILES_106, 2) is None
    assert a_set.natural_suits(TILES_106) == {1, 2} and a_set.rank == 5
