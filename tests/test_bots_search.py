"""SearchBot (``hard``): determinized search over resampled worlds — candidates, the
paired pick, budgets (time or worlds), reproducibility and reuse of worlds in a turn."""

from __future__ import annotations

import math
import random

import pytest

import rummykit.bots.search as search_module
from remi_ro_support import stacked_game
from rummykit.bots import Bot, Budget, ExpertBot, GreedyBot, SearchBot, make_bot, play_to_end
from rummykit.bots.search import _pick, rollout_margin
from rummykit.engine.actions import (
    Action,
    CallRemi,
    DeclareBoard,
    Discard,
    Draw,
    TakeColumn,
)
from rummykit.engine.game import Game
from rummykit.engine.view import SeatView, view
from rummykit.rules.variant import all_variants
from vienna_support import vienna_game

FIXED = Budget(seconds=None, worlds=6)
"""A reproducible budget: six worlds a decision, no clock."""


def test_make_bot_hard_searches_and_hard_at_n_fixes_the_worlds() -> None:
    hard = make_bot("hard")
    assert isinstance(hard, SearchBot) and hard.budget.seconds is not None
    assert isinstance(make_bot("expert", level="hard"), SearchBot)
    fixed = make_bot("hard@5")
    assert isinstance(fixed, SearchBot)
    assert fixed.budget.seconds is None and fixed.budget.worlds == 5
    with pytest.raises(ValueError, match="hard@N"):
        make_bot("hard@0")
    assert isinstance(make_bot("medium"), ExpertBot)


def _vienna_early_call() -> tuple[Game, list[Action]]:
    """Vienna, 2 seats: P1 has drawn on his first turn and holds 20 deadwood (QC KH);
    P2 was dealt a hand with none (three runs and a set of 8s)."""
    game = vienna_game(
        2,
        racks={0: "2H 3H 4H 5S 6S 7S 9D 10D JD QC", 1: "5C 6C 7C 8D 8H 8S JS QS KS AS"},
        stock="KH",
    )
    game.apply(Draw())
    return game, game.legal_actions()


def test_hard_plays_on_where_medium_calls_vienna_too_early_and_loses() -> None:
    """RULES §6.6, §6.8: a call wins only below every opponent's deadwood, and a failed
    call scores -20.  On its first turn with 20 points medium calls (greedy's line is
    30); hard plays the call and the discards out in 16 worlds and finds that playing
    on is worth more than calling now.  Here P2 holds 0 deadwood: the call loses."""
    game, legal = _vienna_early_call()
    seen = view(game, 0)
    assert CallRemi() in legal
    assert ExpertBot("medium").choose(seen, legal, random.Random(0)) == CallRemi()
    hard = SearchBot(Budget(seconds=None, worlds=16))
    choice = hard.choose(seen, legal, random.Random(0))
    assert isinstance(choice, Discard)
    assert hard.last_worlds == 16
    called = game.copy()
    called.apply(CallRemi())
    while not called.results:
        called.apply(
            GreedyBot().choose(
                view(called, called.to_move), called.legal_actions(), random.Random(0)
            )
        )
    assert called.results[0].scores[0] < 0


def test_search_is_reproducible_from_its_seed() -> None:
    game, legal = _vienna_early_call()
    seen = view(game, 0)
    bots = [SearchBot(Budget(seconds=None, worlds=4)) for _ in range(2)]
    picks = {bot.choose(seen, legal, random.Random(7)) for bot in bots}
    assert len(picks) == 1 and bots[0].last_worlds == bots[1].last_worlds == 4
    # And a whole deal with hard@N at a seat replays move for move.
    logs = []
    for _ in range(2):
        g = Game("basic", 2, seed=12)
        play_to_end(
            g,
            [SearchBot(Budget(seconds=None, worlds=2)), GreedyBot()],
            random.Random(12),
            stop_at_deal_end=True,
            max_actions=30,
        )
        logs.append(list(g.log))
    assert logs[0] == logs[1]


def test_hard_weighs_board_play_against_laying_out() -> None:
    """RULES §9.13: board play is declared within the first three turns; hard searches
    declaring against greedy's move without it."""
    game = stacked_game(2, {0: "R1 R2 R3 R4 B5 Y5 K5 R7 R8 R9 Y10 Y11 Y12 Y13"})
    seen, legal = view(game, 0), game.legal_actions()
    bot = SearchBot(FIXED)
    candidates = bot._candidates(seen, legal, DeclareBoard(), game.variant, random.Random(0))
    assert candidates[0] == DeclareBoard()
    assert len(candidates) >= 2 and all(c in legal for c in candidates)
    assert bot.choose(seen, legal, random.Random(0)) in legal


def test_a_spent_time_budget_leaves_the_experts_pick() -> None:
    game, legal = _vienna_early_call()
    seen = view(game, 0)
    bot = SearchBot(Budget(seconds=0.0))
    assert bot.choose(seen, legal, random.Random(0)) == CallRemi()
    assert bot.last_worlds == 0


def test_pick_needs_a_clear_paired_gain() -> None:
    budget = Budget(seconds=None, worlds=8, min_worlds=4, confidence=1.5)
    base = [0.0, 10.0, -5.0, 3.0]
    assert _pick([base, [b + 2 for b in base]], budget) == 1
    noisy = [base, [2.0, 8.0, -1.0, 3.0]]
    assert _pick(noisy, budget) == 0
    assert _pick([base[:3], [b + 2 for b in base[:3]]], budget) == 0  # too few worlds
    assert _pick([base, [-math.inf, 0.0, 0.0, 0.0]], budget) == 0


def test_rollout_margin_scores_the_seat_against_the_others() -> None:
    game = Game("romme", 2, {"match_deals": 1}, seed=3)
    a = rollout_margin(game.copy(), 0, random.Random(1), 2_000)
    b = rollout_margin(game.copy(), 1, random.Random(1), 2_000)
    assert a is not None and b is not None and a == -b
    assert rollout_margin(game.copy(), 0, random.Random(1), 2_000, deadline=0.0) is None


def test_worlds_are_reused_within_a_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES §9.13: declaring board play is public and shows no hidden piece, so the
    worlds drawn for that decision, advanced by it, serve the discard that follows in
    the same turn; a draw shows a piece, and the worlds go."""
    calls: list[int] = []
    real = search_module.resample  # type: ignore[attr-defined]

    def counting(view_: SeatView, rng: random.Random) -> Game:
        calls.append(1)
        return real(view_, rng)

    monkeypatch.setattr(search_module, "resample", counting)
    game = stacked_game(2, {0: "R1 R2 R3 R4 B5 Y5 K5 R7 R8 R9 Y10 Y11 Y12 Y13"})
    bot = SearchBot(Budget(seconds=None, worlds=3))
    seen = view(game, 0)
    bot._search(seen, [DeclareBoard(), *(Discard(f) for f in seen.rack[:1])], random.Random(0))
    assert len(calls) == 3 and len(bot._worlds) == 3
    bot._advance_worlds(seen, DeclareBoard())
    game.apply(DeclareBoard())
    after = view(game, 0)
    assert len(bot._reused(after)) == 3
    bot._search(after, [Discard(f) for f in after.rack[:2]], random.Random(0))
    assert len(calls) == 3, "no world drawn again"
    bot._advance_worlds(after, Draw())
    assert bot._worlds == []


def test_search_candidates_for_a_take_where_taking_carries_no_obligation() -> None:
    """Rommé (RULES §8): the top discard may be taken freely, so hard plays out both."""
    game = Game("romme", 2, {"match_deals": 1}, seed=5)
    seen, legal = view(game, game.to_move), game.legal_actions()
    take = TakeColumn(len(seen.column) - 1)
    assert take in legal
    candidates = SearchBot(FIXED)._candidates(seen, legal, Draw(), game.variant, random.Random(0))
    assert set(candidates) == {Draw(), take}


@pytest.mark.parametrize("variant", sorted(v.name for v in all_variants()))
def test_hard_plays_legally_in_every_variant(variant: str) -> None:
    # The engine refuses an illegal action (apply raises), so 40 actions played are legal.
    game = Game(variant, 2, seed=2)
    bots: list[Bot] = [SearchBot(Budget(seconds=None, worlds=1)), GreedyBot()]
    played = play_to_end(game, bots, random.Random(2), stop_at_deal_end=True, max_actions=40)
    assert played == 40 or game.results
