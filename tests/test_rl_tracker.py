"""The observation tracker (rl/tracker.py): its vectors equal a from-scratch encoding.

:class:`ObservationTracker` keeps each observer's vector and rewrites only the blocks
whose inputs changed.  Every test here holds it against ``encoder.encode`` of a fresh
seat view (the definition of the observation) over random deals, observers taken in
the orders environments use them: only the seat to move (AEC), every seat at every
step, a seat skipped for a while, games replaced from outside.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from rummykit.engine import Game
from rummykit.rl import Table, seat_view
from rummykit.rl.conformance import variant_tables
from rummykit.rl.memory import PublicMemory
from rummykit.rl.tracker import ObservationTracker

TABLES = variant_tables()


def _expected(table: Table, seat: int, memory: PublicMemory | None) -> np.ndarray:
    return table.encoder.encode(seat_view(table.game, seat), memory)


def _check(table: Table, tracker: ObservationTracker, seat: int, with_memory: bool) -> None:
    memory = table.memory if with_memory else None
    if memory is not None:
        memory.sync(table.game)
    got = tracker.observe(table.game, seat, memory)
    want = _expected(table, seat, memory)
    assert got.dtype == want.dtype and got.shape == want.shape
    if not np.array_equal(got, want):
        wrong = np.flatnonzero(got != want)
        names = {b.name for b in table.encoder.blocks for i in wrong if b.start <= i < b.stop}
        raise AssertionError(f"seat {seat}: blocks {sorted(names)} differ at {wrong[:8]}")


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_every_seat_at_every_step_equals_a_fresh_encoding(variant: str, players: int) -> None:
    table = Table(variant, players, {})
    tracker = ObservationTracker(table.encoder)
    checked = 0
    for seed in range(2):
        table.new_game(seed)
        rng = random.Random(seed)
        while True:
            for seat in range(players):
                _check(table, tracker, seat, with_memory=True)
                checked += 1
            if table.is_over or table.steps_in_deal >= 150:
                break  # the final state (a deal's end) was compared too
            legal = list(table.legal())
            table.play(legal[rng.randrange(len(legal))])
    assert checked > 3 * players


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_observers_in_any_order_equal_a_fresh_encoding(variant: str, players: int) -> None:
    """The seat to move (as the AEC env asks), now and then another seat, with and
    without the memory, over several deals: every rewritten block is exact."""
    table = Table(variant, players, {})
    tracker = ObservationTracker(table.encoder)
    rng = random.Random(7)
    for seed in range(10, 14):
        table.new_game(seed)
        while True:
            with_memory = rng.random() < 0.8
            _check(table, tracker, table.to_move, with_memory)
            if rng.random() < 0.2:
                _check(table, tracker, rng.randrange(players), with_memory)
            if table.is_over or table.steps_in_deal >= 250:
                break
            legal = list(table.legal())
            table.play(legal[rng.randrange(len(legal))])
        for seat in range(players):
            _check(table, tracker, seat, with_memory=True)


@pytest.mark.parametrize("variant", ["remi_ro", "romme", "basic", "continental"])
def test_a_game_replaced_from_outside_is_observed_afresh(variant: str) -> None:
    """Caches follow the state, not the game object: a copy taken earlier, a
    different deal and back again all read as a fresh encoding."""
    table = Table(variant, None, {})
    tracker = ObservationTracker(table.encoder)
    rng = random.Random(3)
    saved: list[Game] = []
    for step in range(300):
        if table.is_over:
            table.new_game(step)
        if step % 37 == 0:
            saved.append(table.game.copy())
        if step % 53 == 52:
            table.game = rng.choice(saved).copy()  # back to an earlier state
        table.truncated = table.finished = False
        for seat in {table.to_move, rng.randrange(table.players)}:
            _check(table, tracker, seat, with_memory=rng.random() < 0.7)
        legal = list(table.legal())
        if not legal:
            table.new_game(step)
            continue
        table.play(legal[rng.randrange(len(legal))])


def test_observations_are_new_arrays() -> None:
    """A kept observation does not change when the game moves on."""
    table = Table("remi_ro", 4, {})
    table.new_game(1)
    first = table.observation(table.to_move)
    kept = first.copy()
    table.play(next(iter(table.legal())))
    second = table.observation(table.to_move)
    assert second is not first
    np.testing.assert_array_equal(first, kept)
    first[:] = 0.5  # writing to a returned vector leaves the tracker's own intact
    np.testing.assert_array_equal(table.observation(table.to_move), second)


def test_a_copied_or_pickled_tracker_starts_afresh_and_agrees() -> None:
    table = Table("romme", 4, {})
    table.new_game(2)
    rng = random.Random(2)
    for _ in range(60):
        table.play(list(table.legal())[rng.randrange(len(table.legal()))])
    table.observation(table.to_move)
    for other in (copy.deepcopy(table), pickle.loads(pickle.dumps(table))):
        assert other.tracker is not table.tracker
        np.testing.assert_array_equal(
            other.observation(other.to_move), table.observation(table.to_move)
        )
