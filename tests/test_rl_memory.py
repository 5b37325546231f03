"""The deal's public memory (rl/memory.py) and its observation blocks.

When a seat takes from the discard pile every seat sees what it took: the piece is
known to be in that hand, so no observer may count it unseen.  These tests hold the
memory against the engine's racks (which the memory never reads) in seeded random
deals of every variant.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from card_support import card_game
from kit import pass_turn, play
from rummykit.engine import Game
from rummykit.engine.actions import Discard
from rummykit.engine.extensions.joker_shift import lifted_joker
from rummykit.engine.view import spectator_view
from rummykit.rl import Table
from rummykit.rl.memory import KINDS, PublicMemory, public_state
from rummykit.rl.observation import OBSERVATION_VERSION
from rummykit.rules import all_variants

VARIANTS = [v.name for v in all_variants()]


def _kinds(game: Game, pieces: object) -> Counter[int]:
    return Counter(game.faces[p].kind for p in pieces)  # type: ignore[attr-defined]


def _held(game: Game, seat: int) -> list[int]:
    """The seat's pieces, with a joker lifted by a lay-off that it must place at once
    (RULES §4.5; a joker freed by an exchange is on the rack already)."""
    held = list(game.racks[seat])
    lifted = lifted_joker(game)
    if game.to_move == seat and lifted is not None:
        held.append(lifted[0])
    return held


def _block(table: Table, observation: np.ndarray, name: str) -> np.ndarray:
    block = table.encoder.block(name)
    return observation[block.start : block.stop]


def _copies(game: Game) -> np.ndarray:
    copies = np.zeros(KINDS, dtype=np.int64)
    for f in game.faces:
        copies[f.kind] += 1
    return copies


class _Reference:
    """Known pieces from the engine's racks: pieces that entered a hand from the pile,
    the table or the face-up indicator, less pieces of that kind that left it."""

    def __init__(self, game: Game) -> None:
        self.known = [Counter[int]() for _ in range(game.players)]

    def step(self, before: Game, after: Game) -> None:
        actor = before.to_move
        held_before, held_after = set(_held(before, actor)), set(_held(after, actor))
        public = set(before.column) | {p for f in before.table for p in f.pieces}
        if before.indicator is not None and before.indicator in before.stock:
            public.add(before.indicator)
        net = _kinds(before, held_after - held_before & public)
        net.subtract(_kinds(before, held_before - held_after))
        for kind, change in net.items():
            self.known[actor][kind] = max(0, self.known[actor][kind] + change)


@pytest.mark.parametrize("variant", VARIANTS)
def test_known_pieces_match_the_racks_and_are_never_unseen(variant: str) -> None:
    """Seeded random deals: the memory's known counts equal the reference computed from
    the racks and never exceed what a seat holds; every observer's ``unseen`` leaves out
    the pieces known in other hands; a piece taken from the pile and still held (no
    piece of its kind has left that hand since) is unseen by nobody."""
    takes = 0
    for seed in range(2):
        table = Table(variant, None, {})
        table.new_game(seed)
        game = table.game
        copies = _copies(game)
        reference = _Reference(game)
        rng = random.Random(seed)
        taken_held: list[set[int]] = [set() for _ in range(game.players)]
        for _ in range(250):
            if table.is_over:
                break
            before = game.copy()
            actor = game.to_move
            legal = sorted(table.legal())
            table.play(legal[rng.randrange(len(legal))])
            if game.deal_log_start != before.deal_log_start:
                break
            reference.step(before, game)
            held_before, held_after = set(_held(before, actor)), set(_held(game, actor))
            from_pile = (held_after - held_before) & set(before.column)
            takes += bool(from_pile)
            for gone in held_before - held_after:  # that kind is now ambiguous
                kind = game.faces[gone].kind
                taken_held[actor] -= {p for p in taken_held[actor] if game.faces[p].kind == kind}
            taken_held[actor] |= from_pile
            memory = table.memory
            for seat in range(game.players):
                rack = _kinds(game, _held(game, seat))
                assert dict(+reference.known[seat]) == {
                    k: int(c) for k, c in enumerate(memory.known[seat]) if c
                }
                assert all(memory.known[seat][k] <= rack[k] for k in range(KINDS))
            for observer in range(game.players):
                obs = table.observation(observer)
                unseen = np.rint(_block(table, obs, "unseen") * copies).astype(np.int64)
                visible = _kinds(game, game.racks[observer])
                visible.update(_kinds(game, public_state_ids(game)))
                others = memory.known.sum(axis=0) - memory.known[observer]
                expected = np.array([copies[k] - visible[k] for k in range(KINDS)]) - others
                np.testing.assert_array_equal(unseen, np.maximum(expected, 0))
                for seat in range(game.players):
                    if seat == observer:
                        continue
                    for kind, count in _kinds(game, taken_held[seat]).items():
                        assert memory.known[seat][kind] >= count
    assert takes > 0  # the deals did take from the pile


def public_state_ids(game: Game) -> list[int]:
    """Piece ids every seat sees: the pile (a face-down close excepted), the table and
    the indicator while it lies in the stock."""
    ids = [p for p in game.column if p != game.hidden_discard()[0]]
    ids += [p for f in game.table for p in f.pieces]
    if game.indicator is not None and game.indicator in game.stock:
        ids.append(game.indicator)
    return ids


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_memory_reads_what_a_spectator_sees(variant: str) -> None:
    game = Game(variant, seed=7)
    rng = random.Random(7)
    kinds = np.array([f.kind for f in game.faces], dtype=np.int64)
    for _ in range(120):
        if game.results:
            break
        state, seen = public_state(game, kinds), spectator_view(game)
        assert Counter(f.kind for f in seen.column) == Counter(
            {k: int(c) for k, c in enumerate(state.column) if c}
        )
        assert Counter(f.kind for t in seen.table for f in t.faces) == Counter(
            {k: int(c) for k, c in enumerate(state.table) if c}
        )
        assert (seen.stock_count, seen.indicator_in_stock) == (
            state.stock_count,
            state.indicator_in_stock,
        )
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


def test_rule_3_3_a_taken_discard_is_known_in_the_takers_hand() -> None:
    """RULES §3.3: P2 takes P1's discard 9H.  Every other seat sees 9H go into P2's hand:
    P3's observation shows it in P2's slot and not among its unseen cards; P2's own
    observation shows what the others know of its hand (slot 0)."""
    game = card_game("basic", 4, racks={0: "9H KS", 1: "2C 3D"}, stock="5S 6S")
    pass_turn(game, "9H")
    play(game, "P2: take 1")
    table = Table("basic", 4, {})
    table.game = game
    nine = game.faces[game.column[-1]].kind if game.column else None
    kind = next(f.kind for f in game.rack_faces(1) if str(f) == "9H")
    assert nine != kind  # 9H left the pile
    p3 = table.observation(2)
    known = _block(table, p3, "known").reshape(-1, KINDS)
    assert known[(1 - 2) % 4][kind] == 1.0 and known.sum() == 1.0
    assert _block(table, p3, "unseen")[kind] == 0.0
    taken = _block(table, p3, "taken").reshape(-1, KINDS)
    assert taken[(1 - 2) % 4][kind] == 1.0
    discarded = _block(table, p3, "discarded").reshape(-1, KINDS)
    last = _block(table, p3, "last_discard").reshape(-1, KINDS)
    assert discarded[(0 - 2) % 4][kind] == 1.0 and last[(0 - 2) % 4][kind] == 1.0
    own = _block(table, table.observation(1), "known").reshape(-1, KINDS)
    assert own[0][kind] == 1.0
    # P2 keeps it (§2.5/A-03: not discardable this turn) and discards 2C.
    two = next(f for f in game.rack_faces(1) if str(f) == "2C")
    game.apply(Discard(two))
    p3 = table.observation(2)
    assert _block(table, p3, "known").reshape(-1, KINDS)[3][kind] == 1.0
    assert _block(table, p3, "last_discard").reshape(-1, KINDS)[3][two.kind] == 1.0


def test_a_game_set_from_outside_is_replayed_and_an_unreplayable_one_remembered_from_now() -> None:
    table = Table("remi_ro", 4, {})
    table.new_game(5)
    rng = random.Random(5)
    for _ in range(120):
        legal = sorted(table.legal())
        table.play(legal[rng.randrange(len(legal))])
    kept = table.memory.known.copy(), table.memory.discarded.copy()
    other = Table("remi_ro", 4, {})
    other.game = table.game.copy()
    other.observation(0)
    np.testing.assert_array_equal(other.memory.known, kept[0])
    np.testing.assert_array_equal(other.memory.discarded, kept[1])
    blind = Game("remi_ro", 4, rng=random.Random(1))
    memory = PublicMemory(blind)
    assert not memory.discarded.any()


def test_the_observation_is_versioned() -> None:
    table = Table("remi_ro", 4, {})
    assert OBSERVATION_VERSION == table.encoder.version == 2
    assert table.encoder.size == 1164 + 5 * 4 * KINDS


@pytest.mark.parametrize("variant", ["remi_ro", "romme"])
def test_a_copied_memory_follows_its_copied_game_like_a_replayed_one(variant: str) -> None:
    game = Game(variant, 3, {}, seed=21)
    rng = random.Random(21)
    memory = PublicMemory(game)
    for _ in range(60):
        if game.results:
            break
        game.apply(rng.choice(game.legal_actions()))
        memory.sync(game)
    twin = game.copy()
    copied = memory.copy(twin)
    before = memory.counts.copy()
    for _ in range(60):
        if twin.results:
            break
        twin.apply(rng.choice(twin.legal_actions()))
        copied.sync(twin)
    replayed = PublicMemory(twin)  # rebuilt from the game's seed and log
    np.testing.assert_array_equal(copied.counts, replayed.counts)
    assert copied.last_discard == replayed.last_discard
    np.testing.assert_array_equal(memory.counts, before)  # the original is untouched
    assert copied._game is twin  # followed step by step, never replayed
