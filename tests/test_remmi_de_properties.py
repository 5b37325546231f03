"""Random-play properties of remmi_de under non-default options (RULES §10.11).

tests/test_variants_properties.py checks every variant at its defaults; these walks
cover the settings that switch other engine paths on: the board game 8B, taking tiles
back (A-75), the stricter joker-exchange options, and counter-clockwise play with
other formation limits.  Along each walk: every tile is in one place, the table is
valid, every listed action verifies, the record replays to the same state, and a
seat's view does not depend on another seat's hidden tiles.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit import assert_conserved, state_key
from rummykit.engine import Game, view
from rummykit.engine.actions import Attach, ExchangeJoker, Meld, Reclaim
from rummykit.engine.record import record_of, replay
from test_variants_properties import assert_table_valid, hidden_swap

SETTINGS: dict[str, dict[str, Any]] = {
    "board": {"board_variant": True},
    "board-deadwood": {
        "board_variant": True,
        "board_count_all_rack_tiles": False,
        "board_joker_close_multiplier": 3,
    },
    "reclaim": {"allow_reclaim_own_end_tiles": True},
    "strict-exchange": {
        "joker_exchange_by_unopened": False,
        "joker_exchange_must_use_immediately": True,
        "first_player_may_open_first_turn": False,
    },
    "loose": {
        "direction": "counterclockwise",
        "max_jokers_rule": "one_natural",
        "set_max_size": 3,
        "opening_requires_set_and_run": False,
        "opening_min_points": 30,
        "allow_discard_of_taken_discard": True,
    },
}
CASES = [pytest.param(name, n, id=f"{name}-{n}") for name in SETTINGS for n in (2, 3, 4)]
PROPERTY = settings(
    max_examples=2,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
TABLE_ACTIONS = (Meld, Attach, ExchangeJoker, Reclaim)


def options(name: str) -> dict[str, Any]:
    return {**SETTINGS[name], "match_deals": 2}


def walk(name: str, players: int, seed: int, steps: int = 400) -> Iterator[Game]:
    """The game before the first action and after each one, eager for table actions."""
    game = Game("remmi_de", players, options(name), seed=seed)
    rng = random.Random(seed)
    yield game
    for _ in range(steps):
        if game.is_over:
            return
        legal = game.legal_actions()
        laying = [a for a in legal if isinstance(a, TABLE_ACTIONS)]
        closing = [a for a in legal if str(a).startswith("close")]
        pool = closing or (laying if laying and rng.random() < 0.8 else legal)
        game.apply(rng.choice(pool))
        yield game


@pytest.mark.parametrize(("name", "players"), CASES)
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_every_invariant(name: str, players: int, seed: int) -> None:
    """Conservation, a valid table, listed actions verify, views hide other racks."""
    rng = random.Random(seed ^ 0x5EED)
    game = None
    for step, game in enumerate(walk(name, players, seed)):
        assert_conserved(game)
        assert_table_valid(game)
        for action in game.legal_actions():
            assert game.can(action), f"listed but rejected: {action} ({game.describe()})"
        if step % 7 == 0:
            for seat in range(players):
                other = hidden_swap(game, seat, rng)
                if other is not None:
                    assert view(other, seat).to_json() == view(game, seat).to_json()
    assert game is not None
    totals = [sum(r.scores[s] for r in game.results) for s in range(players)]
    assert game.totals == totals and all(t >= 0 for t in totals)
    record = json.loads(json.dumps(record_of(game)))
    assert state_key(replay(record).game) == state_key(game)
