"""Observations (rl/observation.py): built from one seat's view, blind to hidden pieces.

The hidden-information tests play two games whose walls differ only by exchanging two
pieces a seat cannot see; as long as both games accept the same actions and neither
piece has reached that seat's eyes, the seat's observation must be identical.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from kit import pass_turns, play
from remi_ro_support import stacked_game
from rummykit.engine import Game, view
from rummykit.rl import Table, seat_view
from rummykit.rl.conformance import variant_tables

TABLES = variant_tables()


def _random_states(variant: str, players: int, seed: int, steps: int) -> list[Game]:
    """Copies of a game at every step of a random playout (one deal)."""
    game = Game(variant, players, seed=seed)
    rng = random.Random(seed)
    states = []
    for _ in range(steps):
        if game.results:
            break
        states.append(game.copy())
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return states


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_seat_view_is_the_view_without_history(variant: str, players: int) -> None:
    """The fast view equals view() field for field, except the (unused) history text."""
    for game in _random_states(variant, players, seed=players, steps=400)[::7]:
        log_start = game.deal_log_start
        for seat in range(players):
            fast = seat_view(game, seat)
            assert fast == dataclasses.replace(view(game, seat), history=())
        assert game.deal_log_start == log_start


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_observations_fit_their_space(variant: str, players: int) -> None:
    table = Table(variant, players, {})
    table.new_game(10 + players)
    game = table.game
    rng = random.Random(10 + players)
    for step in range(600):
        if table.is_over:
            break
        legal = sorted(table.legal())
        table.play(legal[rng.randrange(len(legal))])
        if step % 5:
            continue
        for seat in range(players):
            obs = table.observation(seat)
            assert obs.dtype == np.float32 and obs.shape == (table.encoder.size,)
            assert obs.min() >= -1.0 and obs.max() <= 1.0
            assert obs[table.encoder.block("seat").start + seat] == 1.0
            rack = obs[table.encoder.block("rack").start : table.encoder.block("rack").stop]
            assert round(float(rack @ _copies(table)), 4) == len(game.racks[seat])


def _copies(table: Table) -> np.ndarray:
    counts = np.zeros(53)
    for f in table.game.pieces.faces:
        counts[f.kind] += 1
    return counts


def test_blocks_tile_the_vector() -> None:
    encoder = Table("remi_ro", 4, {}).encoder
    position = 0
    for block in encoder.blocks:
        assert block.start == position and block.size > 0 and block.doc
        position = block.stop
    # Version 2: the 1,164 values of version 1, then five memory blocks of S x K.
    assert position == encoder.size == 1164 + 5 * 4 * 53
    assert encoder.block("known").start == 1164
    assert encoder.block("seats").size == 4 * len(encoder.SEAT)
    assert encoder.block("scalars").size == len(encoder.SCALARS)
    with pytest.raises(KeyError):
        encoder.block("stock_order")


def test_other_seats_appear_in_play_order_from_the_observer() -> None:
    table = Table("remi_ro", 4, {})
    table.new_game(3)
    # Feature-major: feature 1 (rack size) has one slot per relative seat.
    sizes = table.encoder.block("seats").start + 1 * table.encoder.max_players
    game = table.game
    for seat in range(4):
        obs = table.observation(seat)
        for rel in range(4):
            assert round(float(obs[sizes + rel] * 30)) == len(game.racks[(seat + rel) % 4])


# ------------------------------------------------------------------ hidden information


def _visible(game: Game, seat: int) -> set[int]:
    """Piece ids ``seat`` can see: its rack, the column, the table, the indicator."""
    seen = set(game.racks[seat]) | set(game.column)
    seen.update(p for f in game.table for p in f.pieces)
    if game.indicator is not None:
        seen.add(game.indicator)
    return seen


def _twins(variant: str, players: int, seed: int, seat: int) -> tuple[Game, Game, int, int]:
    """Two games whose walls differ by exchanging two pieces of different faces that
    ``seat`` cannot see at the start (in other racks or the stock)."""
    base = Game(variant, players, seed=seed)
    rng = random.Random(seed)
    hidden = sorted(set(range(len(base.pieces))) - _visible(base, seat))
    first = rng.choice(hidden)
    home = next((r for r in base.racks if first in r), ())  # swapping within a rack is no swap
    second = rng.choice([p for p in hidden if base.faces[p] != base.faces[first] and p not in home])
    order = list(base.walls_used[0])
    swapped = [second if p == first else first if p == second else p for p in order]
    games = tuple(
        Game(variant, players, walls=[w], maker=base.first_maker, seed=seed)
        for w in (order, swapped)
    )
    return games[0], games[1], first, second


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_observations_ignore_hidden_pieces(variant: str, players: int) -> None:
    # One table per twin: each keeps its game's public memory in step with it.
    table_a, table_b = Table(variant, players, {}), Table(variant, players, {})
    compared = 0
    # At least 6 deals; more where random deals are short (a Vienna call can end one at
    # any turn), until the comparison has run deep enough.
    for seed in range(40):
        if seed >= 6 and compared > 100:
            break
        seat = seed % players
        a, b, first, second = _twins(variant, players, seed, seat)
        table_a.game, table_b.game = a, b
        assert [sorted(map(str, a.rack_faces(s))) for s in range(players)] != [
            sorted(map(str, b.rack_faces(s))) for s in range(players)
        ] or a.stock != b.stock
        rng = random.Random(seed)
        # Card variants recycle the stock, so a random deal may never end: cap it.
        for _ in range(600):
            if a.results:
                break
            if {first, second} & (_visible(a, seat) | _visible(b, seat)):
                break  # a swapped piece is now in sight of the seat
            obs_a, mask_a = table_a.observation(seat), table_a.action_mask(seat)
            obs_b, mask_b = table_b.observation(seat), table_b.action_mask(seat)
            np.testing.assert_array_equal(obs_a, obs_b)
            if a.to_move == seat:
                np.testing.assert_array_equal(mask_a, mask_b)
            compared += 1
            # Play on with actions both games accept, so the public record stays equal.
            shared = [x for x in a.legal_actions() if b.can(x)]
            if not shared or a.to_move != b.to_move:
                break
            action = shared[rng.randrange(len(shared))]
            a.apply(action)
            b.apply(action)
    assert compared > 100  # the comparison ran deep into the deals


def test_the_rack_of_the_observer_does_change_its_observation() -> None:
    """The converse, so the test above is not vacuous: swapping a piece of the observer's
    own rack with a hidden one changes its observation at once."""
    table = Table("remi_ro", 4, {})
    base = Game("remi_ro", 4, {"match_deals": 1}, seed=4)
    mine = base.racks[0][0]
    other = next(p for p in base.stock if p != base.indicator and base.faces[p] != base.faces[mine])
    order = list(base.walls_used[0])
    swapped = [other if p == mine else mine if p == other else p for p in order]
    table.game = Game("remi_ro", 4, {"match_deals": 1}, walls=[order], maker=base.first_maker)
    before = table.observation(0)
    table.game = Game("remi_ro", 4, {"match_deals": 1}, walls=[swapped], maker=base.first_maker)
    assert not np.array_equal(before, table.observation(0))


def test_a_laid_run_fills_its_formation_slot() -> None:
    """RRT-07's complete run laid by P1 reads as formation m1: a red run over positions
    1..14 with no joker, owned by the observer (P1) or by the seat before (P2's view)."""
    game = stacked_game(
        4,
        {0: "R1 R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K9"},
        stock="K2 K5 K8 Y4 Y6",
    )
    play(game, "P1: discard K9")
    pass_turns(game, 3)
    play(game, "P1: draw", "meld [R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1]")
    table = Table("remi_ro", 4, {})
    table.game = game
    encoder = table.encoder
    m1 = encoder.block("formations").start
    for seat, owner_slot in ((0, 0), (1, 3)):
        row = table.observation(seat)[m1 : m1 + 19]
        expected = [1, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 / 14, 1, 1, 0, 0, 0, 0, 0]
        expected[15 + owner_slot] = 1
        np.testing.assert_allclose(row, expected, rtol=1e-6)
        laid = table.observation(seat)[encoder.block("table").start]
        assert laid == 1.0  # both R1 copies are on the table
    stop = encoder.block("formations").stop
    assert not table.observation(0)[m1 + 19 : stop].any()  # no other formation
