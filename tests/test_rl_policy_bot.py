"""PolicyBot: a row policy plays as a bot from the view alone, with the inputs it was
trained on (the Gymnasium environment's features mode without the public memory)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest

from rummykit.bots import BOTS, Bot, RandomBot, play_turn, register_bot
from rummykit.bots.tournament import TournamentSpec, play_duplicate
from rummykit.engine import Action, SeatView, seat_legal_actions, view
from rummykit.engine.actions import DeclareBoard, ResetTurn, TakeColumn
from rummykit.engine.game import Game
from rummykit.rl import RummyGymEnv
from rummykit.rl.policy_bot import PolicyBot, resets_this_turn


def _first_row(_observation: np.ndarray, _rows: np.ndarray) -> int:
    return 0


@pytest.mark.parametrize("variant", ["remi_ro", "romme"])
def test_the_bot_sees_what_the_environment_showed_the_learner(variant: str) -> None:
    env = RummyGymEnv(variant, 2, action_space="features", public_memory=False)
    bot = PolicyBot(_first_row)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(40):
        seat = env.learner_seat
        legal = seat_legal_actions(env.game, seat)
        observation, rows, ordered = bot.inputs(view(env.game, seat), legal)
        assert np.array_equal(observation, obs["observation"])
        assert np.array_equal(rows, obs["action_features"][: len(ordered)])
        decode = env.table.codec.decode
        assert ordered == [decode(n) for n in env.legal_rows()]
        checked += 1
        obs, _r, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks())))
        )
        if terminated or truncated:
            obs, _ = env.reset()
    assert checked == 40


def test_with_the_memory_the_observation_differs_once_a_discard_is_taken() -> None:
    """public_memory=False is a real switch: the memory blocks stay 0 without it."""
    with_memory = RummyGymEnv("remi_ro", 2, action_space="features")
    without = RummyGymEnv("remi_ro", 2, action_space="features", public_memory=False)
    a, _ = with_memory.reset(seed=1)
    b, _ = without.reset(seed=1)
    rng = np.random.default_rng(1)
    differed = False
    for _ in range(60):
        differed |= not np.array_equal(a["observation"], b["observation"])
        row = int(rng.choice(np.flatnonzero(with_memory.action_masks())))
        a, _, done, cut, _ = with_memory.step(row)
        b, _, done_b, cut_b, _ = without.step(row)
        assert (done, cut) == (done_b, cut_b)
        if done or cut:
            break
    assert differed


def test_a_policy_bot_plays_duplicate_deals_in_the_tournament() -> None:
    register_bot("test-policy", lambda: PolicyBot(_first_row, name="test-policy"))
    try:
        spec = TournamentSpec("remi_ro", ("test-policy", "random"), {}, seed=5)
        outcome = play_duplicate(spec, 0)
    finally:
        del BOTS["test-policy"]
    assert set(outcome.scores) == {"test-policy", "random"}
    assert all(len(s) == 2 for s in outcome.scores.values())


def test_a_row_out_of_range_is_refused() -> None:
    env = RummyGymEnv("remi_ro", 2)
    env.reset(seed=0)
    seat = env.learner_seat
    bot = PolicyBot(lambda _o, rows: len(rows))
    with pytest.raises(ValueError, match="policy chose row"):
        bot.choose(view(env.game, seat), seat_legal_actions(env.game, seat), random.Random(0))


class _ResetSeeker(PolicyBot):
    """Picks ``reset`` whenever it is offered, else (three times a turn) a take from
    the column, which ``reset`` undoes, else the first row that does not declare board
    play: the worst case for the reset cap."""

    def __init__(self, cap: int | None) -> None:
        super().__init__(self._pick, name="reset-seeker", max_resets_per_turn=cap)
        self.ordered: list[Action] = []
        self.resets = 0

    def inputs(
        self, view: SeatView, legal: Sequence[Action]
    ) -> tuple[np.ndarray, np.ndarray, list[Action]]:
        out = super().inputs(view, legal)
        self.ordered, self.resets = out[2], resets_this_turn(view)
        return out

    def _pick(self, _observation: np.ndarray, _rows: np.ndarray) -> int:
        kinds: tuple[type, ...] = (ResetTurn, TakeColumn) if self.resets < 3 else (ResetTurn,)
        for kind in kinds:
            rows = [i for i, a in enumerate(self.ordered) if isinstance(a, kind)]
            if rows:
                return rows[0]
        return next(i for i, a in enumerate(self.ordered) if not isinstance(a, DeclareBoard))


def _drive(cap: int | None, actions: int = 400) -> tuple[int, int]:
    """Drive remi_ro with the reset seeker in seat 0 and random in seat 1: the resets
    the seeker made past the cap while something else was legal, and its turns."""
    game = Game("remi_ro", 2, {}, seed=2, maker=0)
    players: list[Bot] = [_ResetSeeker(cap), RandomBot()]
    rng = random.Random(2)
    past_cap = 0
    for _ in range(actions):
        if game.results:
            break
        seat = game.to_move
        before = resets_this_turn(view(game, seat))
        legal = seat_legal_actions(game, seat)
        action = play_turn(game, players[seat], rng)
        if seat == 0 and isinstance(action, ResetTurn) and len(legal) > 1:
            past_cap += cap is not None and before >= cap
            past_cap += cap is None and before >= 2
    return past_cap, game.turns_taken[0]


def test_the_reset_cap_holds() -> None:
    """docs/baselines.md: past the cap, reset is offered only when nothing else is legal
    (a meld short of the opening total can leave reset as the only way on)."""
    past, _turns = _drive(None)
    assert past > 0  # without a cap the seeker resets a third time with other choices
    for cap in (0, 2):
        past, turns = _drive(cap)
        assert past == 0
        assert turns >= 10


def test_resets_this_turn_counts_the_seats_own_run_of_actions() -> None:
    game = Game("remi_ro", 2, {}, seed=0, maker=0)
    rng = random.Random(1)
    seen = 0
    for _ in range(2000):
        if game.results:
            break
        seat = game.to_move
        legal = seat_legal_actions(game, seat)
        before = resets_this_turn(view(game, seat))
        reset = ResetTurn()
        action = reset if reset in legal and rng.random() < 0.5 else rng.choice(legal)
        game.apply(action)
        if game.to_move == seat and action == reset:
            assert resets_this_turn(view(game, seat)) == before + 1
            seen += 1
    assert seen > 0


def test_scores_are_sampled_from_their_softmax_with_the_drivers_rng() -> None:
    env = RummyGymEnv("remi_ro", 2)
    env.reset(seed=0)
    seat = env.learner_seat
    v, legal = view(env.game, seat), seat_legal_actions(env.game, seat)
    assert len(legal) >= 2

    def two_to_one(_observation: np.ndarray, rows: np.ndarray) -> np.ndarray:
        logits = np.full(len(rows), -50.0)
        logits[:2] = [np.log(2.0), 0.0]
        return logits

    bot = PolicyBot(scores=two_to_one)
    ordered = bot.inputs(v, legal)[2]
    rng = random.Random(7)
    picks = [bot.choose(v, legal, rng) for _ in range(3000)]
    share = picks.count(ordered[0]) / len(picks)
    assert abs(share - 2 / 3) < 0.04
    assert set(picks) == {ordered[0], ordered[1]}
    # The same rng seed, the same choices: a deal replays whatever the job count.
    again = random.Random(7)
    assert [bot.choose(v, legal, again) for _ in range(50)] == picks[:50]


def test_exactly_one_of_policy_and_scores() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        PolicyBot()
    with pytest.raises(ValueError, match="exactly one"):
        PolicyBot(_first_row, scores=lambda _o, rows: np.zeros(len(rows)))
    with pytest.raises(ValueError, match="max_resets_per_turn"):
        PolicyBot(_first_row, max_resets_per_turn=-1)
