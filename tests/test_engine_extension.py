"""Variant extensions (rummykit.engine.extension): generic state copies, copy-on-write
between games, the registry, and the dispatch a game builds from its extensions."""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from kit import play, preplay, state_key
from remi_ro_support import act, stacked_game
from rummykit.engine import Game
from rummykit.engine.actions import AnnounceAtu, CallRemi, Draw, Meld, Ready
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.extension import (
    Extension,
    ExtensionState,
    extension_class,
    phase_owners,
    register_extension,
)
from rummykit.engine.extensions.call import call_state
from rummykit.engine.extensions.preplay import PrePlay
from rummykit.engine.game import Phase
from rummykit.rules.variant import all_variants


@dataclass(slots=True)
class _Nested(ExtensionState):
    flags: list[bool]
    seen: list[set[int]] = field(default_factory=list)
    by_seat: dict[int, list[int]] = field(default_factory=dict)
    pairs: tuple[list[int], ...] = ()
    fixed: tuple[int, ...] = ()


def test_a_state_copy_copies_every_container_at_every_depth() -> None:
    state = _Nested([True], [{1}], {0: [2]}, ([3],), (4, 5))
    copy = state.copy()
    assert copy == state and type(copy) is _Nested
    copy.flags[0] = False
    copy.seen[0].add(9)
    copy.by_seat[0].append(9)
    copy.pairs[0].append(9)
    assert state == _Nested([True], [{1}], {0: [2]}, ([3],), (4, 5))
    assert copy.fixed is state.fixed  # immutable values are shared, not copied


def test_a_copy_of_a_game_shares_extension_states_until_one_side_changes_them() -> None:
    """Copy-on-write: a change through either game never shows in the other."""
    game = stacked_game(4, {1: "K4"}, indicator="K4", ready=False)
    copy = game.copy()
    assert copy.ext_states["preplay"] is game.ext_states["preplay"]
    before = state_key(game)
    play(copy, "P1: ready", "P2: atu")
    assert preplay(copy).atu == [False, True, False, False]
    assert preplay(game).atu == [False] * 4 and state_key(game) == before
    # And the other way round: the original's change stays out of the copy.
    other = game.copy()
    play(game, "P1: ready")
    assert preplay(game).index == 1 and preplay(other).index == 0


def test_pickle_keeps_the_extension_state_and_rebuilds_the_dispatch() -> None:
    game = stacked_game(4, {1: "K4"}, indicator="K4", ready=False)
    play(game, "P1: ready", "P2: atu")
    back = pickle.loads(pickle.dumps(game))
    assert state_key(back) == state_key(game)
    assert back.legal_actions() == game.legal_actions()
    back.apply(Ready())
    assert preplay(back).index == 2 and preplay(game).index == 1


def test_a_variant_without_the_extension_has_neither_its_state_nor_its_actions() -> None:
    game = Game("basic", 2, seed=3)
    assert game.ext_states == {} and game.extensions == ()
    with pytest.raises(IllegalActionError) as err:
        game.verify(AnnounceAtu())
    assert err.value.rule == "§2.3" and "basic has no such action" in str(err.value)


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_every_extension_a_variant_names_is_registered(variant: str) -> None:
    game = Game(variant, seed=0)
    names = game.play.extensions
    assert tuple(e.name for e in game.extensions) == names
    for name in names:
        assert extension_class(name).name == name


def test_an_unknown_extension_name_is_an_error_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown extension 'nope'.*preplay"):
        extension_class("nope")


def test_a_name_is_registered_once() -> None:
    class Clash(Extension[Any]):
        name = "preplay"

    with pytest.raises(ValueError, match="already registered"):
        register_extension(Clash)
    assert extension_class("preplay") is PrePlay


def test_two_extensions_cannot_hold_one_phase() -> None:
    game = stacked_game(4, ready=False)
    with pytest.raises(ValueError, match="held by preplay and preplay"):
        phase_owners((PrePlay(game), PrePlay(game)))


def test_the_phase_owner_lists_the_candidates() -> None:
    """RULES §9.4: in pre-play the legal list is the extension's candidates that verify."""
    game = stacked_game(4, {0: "R7 R7"}, ready=False)
    legal = game.legal_actions()
    assert act("ready") in legal and act("doubles small") in legal
    assert all(game.can(a) for a in legal)


def _showdown() -> Game:
    """A Vienna deal (A-24: players arrange) played at random into its showdown."""
    rng = random.Random(5)
    for seed in range(200):
        game = Game("vienna", 2, {"auto_arrange_deadwood": False}, seed=seed)
        while not game.is_over and not game.results:
            if game.phase is Phase.SHOWDOWN:
                return game
            legal = game.legal_actions()
            calls = [a for a in legal if isinstance(a, CallRemi)]
            game.apply(calls[0] if calls and rng.random() < 0.3 else rng.choice(legal))
    raise AssertionError("no showdown in 200 deals")


def test_the_phase_an_extension_holds_takes_every_action_whatever_its_type() -> None:
    """RULES §6.6/A-24: at the showdown only melds and 'ready' are played; the call
    extension answers for every action there, a draw included."""
    game = _showdown()
    with pytest.raises(IllegalActionError) as err:
        game.verify(Draw())
    assert err.value.rule == "§6.6" and "lay out melds" in str(err.value)
    legal = game.legal_actions()
    assert legal[-1] == Ready() and all(isinstance(a, Meld) for a in legal[:-1])
    queue = call_state(game).queue  # type: ignore[union-attr]
    copy = game.copy()
    copy.apply(Ready())
    assert call_state(game).queue == queue  # type: ignore[union-attr]


def test_only_the_call_extension_hides_a_discard() -> None:
    assert Game("basic", 2, seed=1).hidden_discard() == (None, -1)
    assert Game("vienna", 2, seed=1).hidden_discard() == (None, -1)


CORE_PHASES = frozenset({Phase.ROUND1, Phase.TURNS, Phase.DEAL_END, Phase.MATCH_END})


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_a_phase_outside_the_core_is_entered_only_by_an_extension_holding_it(
    variant: str,
) -> None:
    # Phase lists the extensions' phases too (its values and order are part of the RL
    # observation and the protocol): PREPLAY belongs to preplay, SHOWDOWN to call and gin.
    game = Game(variant, seed=11)
    held = {phase for ext in game.extensions for phase in ext.phases}
    rng = random.Random(5)
    seen = {game.phase}
    for _ in range(3000):
        if game.is_over or len(game.results) >= 2:
            break
        game.apply(rng.choice(game.legal_actions()))
        seen.add(game.phase)
    assert {p.value for p in seen - CORE_PHASES} <= held
