"""Pictures of the table (rl/render.py): text and RGB arrays from one seat's view."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest

from rummykit import rl
from rummykit.engine import Game
from rummykit.rl.render import RgbCanvas, render_rgb
from rummykit.rules import all_variants

VARIANTS = [v.name for v in all_variants()]


@pytest.mark.parametrize("variant", VARIANTS)
def test_rgb_pictures_have_one_shape_and_follow_the_play(variant: str) -> None:
    env = rl.env(variant, render_mode="rgb_array")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    shapes, pictures = set(), []
    for _agent in env.agent_iter(60):
        picture = env.render()
        assert isinstance(picture, np.ndarray) and picture.dtype == np.uint8
        assert picture.ndim == 3 and picture.shape[2] == 3
        shapes.add(picture.shape)
        pictures.append(picture.tobytes())
        obs, _r, terminated, truncated, _i = env.last()
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        env.step(None if terminated or truncated else int(legal[rng.integers(len(legal))]))
    assert len(shapes) == 1  # video recorders need one frame size
    assert len(set(pictures)) > 1


def test_the_picture_shows_the_observers_rack_and_hides_the_others() -> None:
    """Two games that differ only in another seat's rack draw the same picture for
    seat 0; a change in seat 0's own rack changes it."""
    base = Game("remi_ro", 4, {"match_deals": 1}, seed=4)
    canvas = RgbCanvas(4, 106, 35)
    order = list(base.walls_used[0])

    def picture(swap: tuple[int, int]) -> bytes:
        a, b = swap
        wall = [b if p == a else a if p == b else p for p in order]
        game = Game("remi_ro", 4, {"match_deals": 1}, walls=[wall], maker=base.first_maker)
        return render_rgb(canvas, game, 0).tobytes()

    same = picture((0, 0))
    p1, p2 = base.racks[1], base.racks[2]
    other = next(
        (a, b) for a in p1 for b in p2 if base.faces[a] != base.faces[b]
    )  # two hidden pieces
    assert picture(other) == same
    mine = base.racks[0][0]
    hidden = next(p for p in p1 if base.faces[p] != base.faces[mine])
    assert picture((mine, hidden)) != same


def test_gymnasium_render_modes() -> None:
    for mode, kind in (("ansi", str), ("rgb_array", np.ndarray), (None, type(None))):
        env = gymnasium.make("rummykit/basic-v0", render_mode=mode)
        env.reset(seed=1)
        assert isinstance(env.render(), kind)
    with pytest.raises(ValueError, match="render_mode"):
        rl.RummyGymEnv("basic", render_mode="rgb")


def test_a_random_rgb_state_draws_every_table_size() -> None:
    game = Game("continental", 12, seed=1)
    rng = random.Random(1)
    for _ in range(40):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    canvas = RgbCanvas(12, len(game.pieces), 0)
    assert render_rgb(canvas, game, 3).shape == canvas.shape
