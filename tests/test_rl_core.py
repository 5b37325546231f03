"""The driver (rl/core.py) and what it holds: games, views and tables pickle and deep-copy.

Search and RL tooling (RLlib checkpoints, multiprocessing, PettingZoo's pickle checks)
copy live states: a copy taken mid-deal must list the same legal actions, show every
seat the same view and play on exactly as the original.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable

import pytest

from rummykit.engine import Game, view
from rummykit.rl import EPISODE_RECYCLE_LIMIT, Table, episode_options
from rummykit.rules import all_variants, find_variant

VARIANTS = [v.name for v in all_variants()]
POSITIONS = (0, 7, 40, 150)
"""Steps of a seeded random playout at which a state is copied."""

Copier = Callable[[Game], Game]
COPIERS: dict[str, Copier] = {
    "pickle": lambda game: pickle.loads(pickle.dumps(game)),
    "deepcopy": copy.deepcopy,
}


def _play(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over or game.results:
            return
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


def _same_state(a: Game, b: Game) -> None:
    assert list(map(str, a.legal_actions())) == list(map(str, b.legal_actions()))
    for seat in range(a.players):
        assert view(a, seat) == view(b, seat)
    assert a.log == b.log and a.racks == b.racks and a.stock == b.stock


@pytest.mark.parametrize("how", sorted(COPIERS))
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_copied_mid_deal_game_plays_on_as_the_original(variant: str, how: str) -> None:
    game = Game(variant, seed=11)
    rng = random.Random(5)
    done = 0
    for position in POSITIONS:
        _play(game, rng, position - done)
        done = position
        twin = COPIERS[how](game)
        assert twin is not game and twin.variant is game.variant
        assert type(twin.options) is type(game.options) and twin.options == game.options
        _same_state(game, twin)
        # The same choices (and the copied RNG) carry both to the same future.
        future = random.Random(position)
        original = game.copy()
        _play(original, random.Random(position), 60)
        _play(twin, future, 60)
        _same_state(original, twin)
        assert original.results == twin.results


@pytest.mark.parametrize("variant", VARIANTS)
def test_views_pickle_and_deep_copy(variant: str) -> None:
    game = Game(variant, seed=3)
    _play(game, random.Random(3), 30)
    for seat in range(game.players):
        seen = view(game, seat)
        assert pickle.loads(pickle.dumps(seen)) == seen
        assert copy.deepcopy(seen) == seen


def test_a_pickled_table_shares_the_process_codec_and_encoder() -> None:
    table = Table("remi_ro", 4, {})
    table.new_game(2)
    table.play(sorted(table.legal())[0])
    twin = pickle.loads(pickle.dumps(table))
    # The action table is rebuilt from the cache, not carried (romme: 141,050 entries).
    assert twin.codec is table.codec and twin.encoder is table.encoder
    assert copy.deepcopy(table).codec is table.codec
    assert sorted(twin.legal()) == sorted(table.legal())
    for seat in range(4):
        assert (twin.observation(seat) == table.observation(seat)).all()
        assert (twin.action_mask(seat) == table.action_mask(seat)).all()


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_deals_end_at_default_options(variant: str) -> None:
    """Masked random play finishes its deals (no truncation) in every variant: card
    variants run with the environments' recycle limit (RULES §2.4/A-05)."""
    for seed in range(3):
        table = Table(variant, None, {})
        table.new_game(seed)
        rng = random.Random(seed)
        steps = 0
        while not table.is_over:
            legal = sorted(table.legal())
            table.play(legal[rng.randrange(len(legal))])
            steps += 1
        assert table.finished and not table.truncated, (variant, seed, steps)


def test_the_recycle_limit_is_an_explicit_overridable_option() -> None:
    table = Table("continental", None, {})
    assert table.options["max_stock_recycles"] == EPISODE_RECYCLE_LIMIT
    assert table.game.options["max_stock_recycles"] == EPISODE_RECYCLE_LIMIT
    unlimited = Table("continental", None, {"max_stock_recycles": None})
    assert unlimited.game.options["max_stock_recycles"] is None
    assert "max_stock_recycles" not in Table("remi_ro", None, {}).options  # no recycling
    assert episode_options(find_variant("basic"), {"max_stock_recycles": 7}) == {
        "max_stock_recycles": 7
    }
