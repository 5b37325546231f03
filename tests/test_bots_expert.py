"""ExpertBot: legal moves in every variant from views only, levels as budgets, searched
discards among greedy's best, and the names make_bot accepts."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from rummykit.bots import BOTS, LEVELS, ExpertBot, GreedyBot, bot_names, make_bot, play_to_end
from rummykit.bots.expert import Level, unseen_faces
from rummykit.engine.actions import Action, Discard, Draw
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import SeatView, view
from rummykit.rules.variant import all_variants


class Checked(ExpertBot):
    """An expert that records what it was shown and checks its answers are legal."""

    def __init__(self, level: str | Level) -> None:
        super().__init__(level)
        self.problems: list[str] = []
        self.searched = 0

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, SeatView)
        action = super().choose(view, legal, rng)
        if action not in legal:
            self.problems.append(f"illegal {action}")
        if isinstance(action, Discard | Draw):
            self.searched += 1
        return action


@pytest.mark.parametrize("variant", sorted(v.name for v in all_variants()))
def test_expert_finishes_a_deal_of_every_variant_legally(variant: str) -> None:
    game = Game(variant, 2, seed=11)
    # One world, two candidates: every search path runs, cheaply.
    bots = [Checked(Level(worlds=1, top_k=2)), GreedyBot()]
    play_to_end(game, bots, random.Random(1), stop_at_deal_end=True, max_actions=800)
    assert game.results, "the deal ended"
    assert bots[0].problems == []


def test_levels_are_budgets_weakest_first() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard"]
    budgets = [(lv.worlds, lv.top_k) for lv in LEVELS.values()]
    assert budgets == sorted(budgets)
    assert LEVELS["easy"].worlds == 0 < LEVELS["hard"].worlds


def test_make_bot_names_and_levels() -> None:
    assert set(BOTS) == {"random", "greedy", "easy", "medium", "hard"}
    assert {"expert", "expert-easy", "expert-medium", "expert-hard"} <= set(bot_names())
    assert make_bot("greedy").name == "greedy"
    assert make_bot("hard").name == "expert-hard"
    assert make_bot("expert-easy").name == "expert-easy"
    assert make_bot("Expert", level="easy").name == "expert-easy"
    assert make_bot("expert").name == "expert-medium"
    with pytest.raises(ValueError, match="only the expert"):
        make_bot("greedy", level="hard")
    with pytest.raises(ValueError, match="unknown expert level"):
        make_bot("expert", level="grandmaster")
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("alphazero")


def _discard_position(seed: int) -> tuple[Game, SeatView, list[Action]]:
    game = Game("romme", 2, seed=seed)
    rng = random.Random(seed)
    greedy = [GreedyBot(), GreedyBot()]
    for _ in range(400):
        legal = game.legal_actions()
        seat = game.to_move
        seen = view(game, seat)
        if (
            game.turns_taken[seat] > 3
            and sum(isinstance(a, Discard) for a in legal) > 3
            and isinstance(GreedyBot().choose(seen, legal, rng), Discard)
        ):
            return game, seen, legal
        game.apply(greedy[seat].choose(view(game, seat), legal, rng))
    raise AssertionError("no discard position")


@pytest.mark.parametrize("level", list(LEVELS))
def test_searched_discard_is_among_greedys_best(level: str) -> None:
    game, seen, legal = _discard_position(4)
    expert = ExpertBot(level)
    action = expert.choose(seen, legal, random.Random(0))
    assert isinstance(action, Discard)
    ranked = expert._discard_candidates(
        seen, legal, GreedyBot().choose(seen, legal, random.Random(0)), game.variant
    )  # type: ignore[arg-type]
    assert action in ranked[: LEVELS[level].top_k]


def test_unseen_faces_exclude_everything_the_seat_sees() -> None:
    game, seen, _ = _discard_position(2)
    unseen = unseen_faces(seen)
    hidden = [game.faces[p] for p in game.stock] + game.rack_faces(1 - seen.seat)
    assert sorted(unseen) == sorted(hidden)


def test_expert_refuses_a_finished_game() -> None:
    game = Game("basic", 2, {"match_mode": "deals", "match_deals": 1}, seed=3)
    play_to_end(game, [GreedyBot(), GreedyBot()], random.Random(3), max_actions=2_000)
    assert game.phase is Phase.MATCH_END
    with pytest.raises(ValueError, match="game is over"):
        ExpertBot("easy").choose(view(game, 0), game.legal_actions(), random.Random(0))
