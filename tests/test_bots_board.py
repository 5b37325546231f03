"""bots/board.py: what the bots read of Remi's board play and closing rules (RULES §9.11–§9.13)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummykit.bots.board import _special_close_multiplier, closing_multiplier, plays_board
from rummykit.engine.game import Game
from rummykit.engine.view import view
from rummykit.rules.variant import find_variant


@pytest.mark.parametrize("factor", [1, 2, 3])
def test_closing_multiplier_follows_the_option(factor: int) -> None:
    """§9.11: closing with a 1 or a joker multiplies the closer's score (option
    ``closing_with_1_or_joker_multiplier``); a bot reads it through its view."""
    game = Game("remi_ro", 2, {"closing_with_1_or_joker_multiplier": factor}, seed=1)
    assert closing_multiplier(view(game, 0)) == factor


def test_closing_multiplier_is_one_where_the_variant_has_none() -> None:
    assert closing_multiplier(view(Game("romme", 2, seed=1), 0)) == 1


def test_closing_multiplier_is_worked_out_once_per_variant_and_options() -> None:
    """Bots ask at every decision; equal options (equal, hashable typed objects) find
    the first answer."""
    _special_close_multiplier.cache_clear()
    first = view(Game("remi_ro", 2, seed=1), 0)
    second = view(Game("remi_ro", 2, seed=2), 1)
    assert first.options == second.options
    closing_multiplier(first)
    closing_multiplier(second)
    info = _special_close_multiplier.cache_info()
    assert (info.misses, info.hits) == (1, 1)


def test_only_board_variants_play_the_board() -> None:
    """§9.13 is Remi's; a view of another variant never plays it."""
    assert plays_board(view(Game("remi_ro", 2, seed=1), 0), find_variant("remi_ro"))
    romme = view(Game("romme", 2, seed=1), 0)
    assert not plays_board(romme, find_variant("romme"))
    assert not plays_board(replace(romme, variant="romme"), find_variant("romme"))
