"""The ``preplay`` extension (RULES §9.4–9.5): atu and doubles announcements, swaps and
their options, and every seat's pre-play turn, in remi_ro.
"""

from __future__ import annotations

import pytest

from kit import (
    assert_conserved,
    illegal,
    play,
    preplay,
    rack,
    run_out,
)
from remi_ro_support import act, stacked_game
from rummykit.engine import view
from rummykit.engine.actions import (
    Ready,
)
from rummykit.engine.game import Phase

# ================================================================== §9.4 atu, doubles


def test_atu_announcement() -> None:
    """§9.4(3), A-48: the holder of the indicator's twin may announce atu in pre-play only;
    +50 at the end whether or not he opened."""
    game = stacked_game(4, {1: "K4"}, indicator="K4", ready=False)
    assert illegal(game, "atu").rule == "§9.4"  # P1 has no twin
    play(game, "P1: ready", "P2: atu")
    assert illegal(game, "atu").rule == "§9.4"  # twice
    play(game, "P2: ready", "P3: ready", "P4: ready")
    assert preplay(game).atu == [False, True, False, False]
    assert illegal(game, "atu").rule == "§9.4"  # no longer pre-play
    run_out(game)
    assert game.results[-1].scores == (-100, -50, -100, -100)


def test_atu_mandatory() -> None:
    """§9.4(3): with ``atu_mandatory`` the twin's holder is announced automatically."""
    game = stacked_game(4, {2: "K4"}, indicator="K4", options={"atu_mandatory": True}, ready=False)
    assert preplay(game).atu == [False, False, True, False]
    play(game, "P1: ready", "P2: ready")
    assert illegal(game, "atu").rule == "§9.4"


@pytest.mark.parametrize("allowed", [True, False])
def test_atu_with_a_joker_indicator(allowed: bool) -> None:
    """§9.4(3), A-48: with a joker indicator the other joker's holder may announce atu."""
    game = stacked_game(
        3, {1: "J"}, indicator="J", ready=False, options={"atu_on_joker_indicator": allowed}
    )
    assert game.double_game
    play(game, "P1: ready")
    assert game.can(act("atu")) is allowed


def test_doubles_announce_swap_accept() -> None:
    """§9.4(1), A-49: announce the category; swap one tile of same-category doubles,
    face down, with consent; each double swaps once; a seat offers a given seat once."""
    game = stacked_game(4, {0: "R7 R7 B12 B12", 1: "K5 K5 Y3 Y3", 2: "Y9 Y9"}, ready=False)
    assert illegal(game, "doubles key").rule == "§9.4"
    play(game, "P1: doubles small", "P1: doubles big")
    assert illegal(game, "doubles small").rule == "§9.4"
    assert illegal(game, "swap R7 P2").rule == "§9.4/A-49"  # P2 has announced nothing
    play(game, "P1: ready", "P2: doubles small")
    assert illegal(game, "swap K5 P2").rule == "§9.4"  # not with oneself
    assert illegal(game, "swap Y9 P1").rule == "§9.4/A-49"  # no such double
    play(game, "P2: swap K5 P1")
    assert game.to_move == 0 and preplay(game).pending_swap is not None
    assert illegal(game, "ready").rule == "§9.4"  # the offer awaits an answer
    assert illegal(game, "accept B12").rule == "§9.4/A-49"  # a big double for a small one
    play(game, "P1: accept R7")
    assert game.to_move == 1
    assert rack(game, 0).count("K5") == 1 and rack(game, 0).count("R7") == 1
    assert rack(game, 1).count("R7") == 1 and rack(game, 1).count("K5") == 1
    assert illegal(game, "swap K5 P1").rule == "§9.4/A-49"  # offered once already
    play(game, "P2: ready", "P3: doubles small")
    # P1's only small double took part in a swap already, but that is P1's secret:
    # P3 may offer on P1's announcement, and P1 can only decline.
    play(game, "P3: swap Y9 P1")
    assert game.legal_actions() == [act("decline")]
    assert illegal(game, "accept R7").rule == "§9.4/A-49"
    play(game, "P1: decline")
    assert game.to_move == 2
    play(game, "P3: swap Y9 P2")
    assert illegal(game, "accept K5").rule == "§9.4/A-49"  # K5 was swapped once
    play(game, "P2: decline")
    assert game.to_move == 2 and rack(game, 2).count("Y9") == 2
    assert illegal(game, "swap Y9 P2").rule == "§9.4/A-49"  # offered once already
    play(game, "P3: ready", "P4: ready")
    assert game.phase is Phase.ROUND1
    # Only the two seats involved see the swapped tiles.
    outsider = [a for _, a in view(game, 3).history]
    assert {"swap ? P1", "accept ?", "swap ? P2", "decline"} <= set(outsider)
    assert outsider.count("decline") == 2
    assert not any("K5" in a or "R7" in a or "Y9" in a for a in outsider)
    assert "accept R7" in [a for _, a in view(game, 0).history]
    assert "swap K5 P1" in [a for _, a in view(game, 0).history]
    assert "accept ?" in [a for _, a in view(game, 1).history]
    assert_conserved(game)


def test_doubles_swap_across_categories_option() -> None:
    """A-49: ``doubles_swap_same_category_only = false`` lets a big double go for a small one."""
    for same_only in (True, False):
        game = stacked_game(
            4,
            {0: "R7 R7", 1: "B12 B12"},
            ready=False,
            options={"doubles_swap_same_category_only": same_only},
        )
        play(game, "P1: doubles small", "P1: ready", "P2: doubles big")
        assert game.can(act("swap B12 P1")) is not same_only


def test_doubles_swap_disabled() -> None:
    """§9.15 ``doubles_swap_enabled = false``."""
    game = stacked_game(
        4, {0: "R7 R7", 1: "K5 K5"}, ready=False, options={"doubles_swap_enabled": False}
    )
    play(game, "P1: doubles small", "P1: ready", "P2: doubles small")
    assert illegal(game, "swap K5 P1").rule == "§9.4"


def test_every_seat_gets_a_preplay_turn() -> None:
    """Engine decision: every seat, from the first player on, ends pre-play with ``ready``."""
    game = stacked_game(3, ready=False, maker=0)
    assert game.first_seat == 1
    order = []
    while game.phase is Phase.PREPLAY:
        order.append(game.to_move)
        game.apply(Ready())
    assert order == [1, 2, 0] and game.to_move == 1
