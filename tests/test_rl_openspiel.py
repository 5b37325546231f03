"""The OpenSpiel games (rl/openspiel.py): registration, explicit chance dealing, views,
serialization, resampling, returns, and OpenSpiel's own tests and bots."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from rummykit.engine import Game, view  # noqa: E402
from rummykit.rl import action_codec, is_match_option, seat_view  # noqa: E402
from rummykit.rl import openspiel as ros  # noqa: E402
from rummykit.rules import OptionError, all_variants, find_variant  # noqa: E402

VARIANTS = [v.name for v in all_variants()]
SIM_STEPS = 150
"""``max_steps_per_deal`` for OpenSpiel's random simulation test: it asks every seat
for every string and tensor at every step, so deals are bounded to keep it fast."""


def _deal(state: Any, rng: np.random.RandomState) -> None:
    """Resolve chance nodes by sampling their outcomes."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))


def _play_random(state: Any, rng: np.random.RandomState, steps: int) -> None:
    for _ in range(steps):
        _deal(state, rng)
        if state.is_terminal():
            return
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_every_variant_is_registered_with_its_options_and_player_count() -> None:
    types = {t.short_name: t for t in pyspiel.registered_games()}
    for variant in all_variants():
        game_type = types[f"rummykit_{variant.name}"]
        assert (game_type.min_num_players, game_type.max_num_players) == (
            variant.min_players,
            variant.max_players,
        )
        params = game_type.parameter_specification
        assert params["players"] == variant.default_players
        for spec in variant.options:
            # An episode is one deal: options that set a match's length are no parameters.
            assert (spec.name in params) != is_match_option(spec.name), spec.name
    game = pyspiel.load_game("rummykit_basic(players=3,hand_bonus_multiplier=3)")
    assert game.num_players() == 3
    assert game.spec.options["hand_bonus_multiplier"] == 3


def test_parameters_are_validated_by_the_variant() -> None:
    with pytest.raises(OptionError, match="direction"):
        ros.load("remi_ro", direction="sideways")
    with pytest.raises(OptionError, match="recycle_shuffle"):
        ros.load("basic", recycle_shuffle=True)
    with pytest.raises(OptionError, match="played by 2 to 4"):
        ros.load("remi_ro", players=5)
    # -1 stands for None (no recycle limit) where the option may be None.
    assert (
        ros.load("basic", players=2, max_stock_recycles=-1).spec.options["max_stock_recycles"]
        is None
    )
    assert ros.load("basic", players=2).spec.options["max_stock_recycles"] == 3


def test_action_numbers_are_the_flat_codec() -> None:
    game = ros.load("remi_ro", players=2)
    codec = game.spec.codec
    assert (
        game.num_distinct_actions()
        == codec.size
        == len(action_codec(find_variant("remi_ro"), game.spec.pieces))
    )
    state = game.new_initial_state()
    _deal(state, np.random.RandomState(0))
    for number in state.legal_actions():
        assert state.action_to_string(number) == str(codec.decode(number))


@pytest.mark.parametrize("variant", ["remi_ro", "romme", "continental"])
def test_chance_nodes_deal_exactly_the_engine_deal_of_their_wall(variant: str) -> None:
    # RULES §2.1: the chance outcomes are the maker and the face kind of each piece of
    # the wall in turn; the deal is the engine's deal of that wall.
    seeded = Game(variant, 2, ros.load(variant, players=2).spec.options, seed=11)
    game = ros.load(variant, players=2)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert [o for o, _ in state.chance_outcomes()] == [0, 1]
    state.apply_action(seeded.first_maker)
    faces = seeded.faces
    for piece in seeded.walls_used[0]:
        outcomes = dict(state.chance_outcomes())
        assert sum(outcomes.values()) == pytest.approx(1.0)
        assert faces[piece].kind in outcomes
        state.apply_action(faces[piece].kind)
    assert not state.is_chance_node()
    dealt = state.deal.game
    for seat in range(2):
        assert view(dealt, seat) == view(seeded, seat)
        assert state.information_state_string(seat) == ros._view_text(view(seeded, seat), True)


@pytest.mark.parametrize(
    ("variant", "players"),
    [*((v, 2) for v in VARIANTS), ("remi_ro", 4), ("continental", 6)],
)
def test_openspiel_random_simulation_test_passes(variant: str, players: int) -> None:
    game = ros.load(variant, players=players, max_steps_per_deal=SIM_STEPS)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_a_played_out_deal_returns_its_scores_and_relative_is_zero_sum() -> None:
    rng = np.random.RandomState(3)
    for reward in ("score", "relative"):
        game = ros.load("vienna", players=3, reward=reward)
        state = game.new_initial_state()
        _play_random(state, rng, 3000)
        assert state.is_terminal()
        scores = state.deal.game.results[0].scores
        returns = state.returns()
        assert state.rewards() == returns
        if reward == "score":
            assert returns == [float(s) for s in scores]
        else:
            assert sum(returns) == pytest.approx(0.0)
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


def test_penalty_variants_return_negated_points() -> None:
    state = ros.load("german2").new_initial_state()
    _play_random(state, np.random.RandomState(5), 5000)
    assert state.is_terminal()
    scores = state.deal.game.results[0].scores
    assert state.returns() == [-float(s) for s in scores]


def test_a_deal_is_truncated_after_max_steps_with_zero_returns() -> None:
    state = ros.load("remi_ro", players=2, max_steps_per_deal=10).new_initial_state()
    _play_random(state, np.random.RandomState(1), 10)
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert state.legal_actions() == []


def test_clone_and_serialize_continue_exactly_as_the_original() -> None:
    game = ros.load("remi_ro", players=2)
    state = game.new_initial_state()
    _play_random(state, np.random.RandomState(2), 40)
    copies = [state.clone(), game.deserialize_state(state.serialize())]
    for other in copies:
        for seat in range(2):
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
        assert other.legal_actions() == state.legal_actions()
    before = state.information_state_string(0)
    for other in copies:
        _play_random(other, np.random.RandomState(9), 30)
    assert state.information_state_string(0) == before  # copies are independent
    assert copies[0].history_str() == copies[1].history_str()
    assert copies[0].information_state_string(1) == copies[1].information_state_string(1)


def test_strings_and_tensors_hold_what_the_seat_sees_and_nothing_else() -> None:
    state = ros.load("remi_ro", players=2).new_initial_state()
    assert state.information_state_tensor(0) == [0.0] * len(state.information_state_tensor(0))
    _play_random(state, np.random.RandomState(4), 30)
    dealt = state.deal.game
    for seat in range(2):
        assert state.observation_tensor(seat) == pytest.approx(
            state.deal.spec.encoder.encode(seat_view(dealt, seat), state.deal.memory).tolist()
        )
        recall = state.information_state_string(seat)
        assert '"history":' in recall
        assert '"history":' not in state.observation_string(seat)
        # The other seat's rack is in neither string (only its size is).
        own = ros._view_text(view(dealt, seat), True)
        assert recall == own


@pytest.mark.parametrize("variant", ["remi_ro", "basic", "romme"])
def test_resample_from_infostate_keeps_the_information_state_and_varies_the_rest(
    variant: str,
) -> None:
    game = ros.load(variant, players=3)
    state = game.new_initial_state()
    _play_random(state, np.random.RandomState(6), 25)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(4)]
    other = (seat + 1) % 3
    for world in worlds:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.legal_actions() == state.legal_actions()
    hidden = {tuple(w.deal.game.racks[other]) for w in worlds}
    assert len(hidden) > 1, "the opponents' racks are drawn anew"
    # A sampled world plays on.
    _play_random(worlds[0], np.random.RandomState(7), 20)


def test_resample_after_taking_the_upcard_draws_new_worlds() -> None:
    """Rommé's upcard taken with ``take 0`` (the log does not name it): the worlds are
    real draws (the opponent's rack varies), not the fallback clone."""
    game = ros.load("romme", players=2)
    for seed in range(20):
        state = game.new_initial_state()
        rng = np.random.RandomState(seed)
        while state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        seat = state.current_player()
        take = [a for a in state.legal_actions() if state.action_to_string(seat, a) == "take 0"]
        if take:
            break
    else:
        pytest.fail("no deal let its first seat take the upcard")
    state.apply_action(take[0])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(4)]
    for world in worlds:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
    # The clone would keep the true hidden rack; a drawn world of 13+ hidden cards
    # matching it is vanishingly rare.
    truth = sorted(state.deal.game.rack_faces(1 - seat))
    assert all(sorted(w.deal.game.rack_faces(1 - seat)) != truth for w in worlds)


def test_resample_while_dealing_keeps_the_public_maker() -> None:
    state = ros.load("basic", players=2).new_initial_state()
    state.apply_action(1)
    for _ in range(5):
        state.apply_action(state.chance_outcomes()[0][0])
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.deal.maker == 1
    assert len(world.deal.wall) == 5


def _bots(game: Any) -> list[Any]:
    evaluator = mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(0), max_length=4
    )
    return [
        ismcts.ISMCTSBot(
            game,
            evaluator,
            uct_c=2.0,
            max_simulations=2,
            max_world_samples=1,
            random_state=np.random.RandomState(1),
        ),
        mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=2,
            evaluator=evaluator,
            solve=False,
            random_state=np.random.RandomState(2),
        ),
    ]


# Deals of a few hundred moves: ISMCTS resamples the world at every decision by
# replaying the deal, so its cost grows with the deal's length.
@pytest.mark.parametrize(("variant", "seed"), [("remi_ro", 4), ("romme", 1)])
def test_openspiel_ismcts_and_mcts_bots_play_a_whole_deal(variant: str, seed: int) -> None:
    game = ros.load(variant, players=2)
    bots = _bots(game)
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        _deal(state, rng)
        if state.is_terminal():
            break
        action = int(bots[state.current_player()].step(state))
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 10
    assert state.deal.game.results, "the deal was played to its score, not truncated"


def test_importing_the_module_leaves_a_clean_interpreter_exit() -> None:
    # OpenSpiel's registry releases its game creators after Python has shut down: a
    # creator that were an ordinary object would crash the process at exit.
    code = "from rummykit.rl import openspiel as o; o.load('basic', players=2).new_initial_state()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-500:]
