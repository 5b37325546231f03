"""The game's declared fields and the copy generated from them (engine/core.py)."""

from __future__ import annotations

import random

import pytest

from rummykit.engine import Game
from rummykit.engine.core import RESET_FIELDS, SHARED_FIELDS, GameFields, copy_plan
from rummykit.rules.variant import all_variants

VARIANTS = sorted(v.name for v in all_variants())


def _mid_deal(variant: str) -> Game:
    game = Game(variant, None, seed=3)
    rng = random.Random(3)
    for _ in range(40):
        if game.is_over or game.results:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_field_a_game_sets_is_declared(variant: str) -> None:
    """A field set on a game but not declared in GameFields would be shared by copies
    without anyone deciding so: the generated copy only knows declared fields."""
    game = _mid_deal(variant)
    game.copy()
    assert set(vars(game)) <= set(GameFields.__annotations__)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_copy_shares_no_container_but_the_declared_ones(variant: str) -> None:
    game = _mid_deal(variant)
    twin = game.copy()
    for name, value in vars(game).items():
        if name in SHARED_FIELDS or name in RESET_FIELDS:
            continue
        if isinstance(value, list | set | dict):
            assert getattr(twin, name) is not value, name
            if isinstance(value, list):
                for inner, copied in zip(value, getattr(twin, name), strict=True):
                    if isinstance(inner, list | set | dict):
                        assert copied is not inner, name
    assert twin.turn is not game.turn
    for name in RESET_FIELDS:
        assert getattr(twin, name) in (None, {})


def test_a_new_mutable_field_must_say_whether_copies_share_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(GameFields.__annotations__, "seen_by", "dict[int, int]")
    with pytest.raises(TypeError, match="seen_by"):
        copy_plan()
    monkeypatch.setitem(GameFields.__annotations__, "seen_by", "list[int]")
    assert ("seen_by", "self.seen_by[:]") in copy_plan()
