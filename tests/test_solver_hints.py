"""Hints (issue 4, item 4): laydown, attachments, joker exchanges and a discard, with reasons."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from kit import draw, pass_turn, play, run_out, three
from remi_ro_support import faces, stacked_game
from romme_support import romme_game
from rummykit.bots import GreedyBot, RandomBot
from rummykit.engine.actions import Action, ProposeSwap, parse_action
from rummykit.engine.extensions.three import three_state
from rummykit.engine.game import Game, Phase
from rummykit.engine.position import analysis_game
from rummykit.engine.view import SeatView, view
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.solver.hints import (
    REASONS,
    TOPICS,
    Hint,
    advise,
    hints,
    hints_json,
    penalty_warning,
)

CARDS = Material.CARDS
VARIANTS = ("basic", "continental", "double", "german2", "remi_ro", "remmi_de", "romme", "vienna")


def tiles(text: str) -> tuple[Face, ...]:
    return parse_faces(text, Material.TILES)


def group(text: str) -> list[tuple[Face, Face | None]]:
    return [(f, None) for f in tiles(text)]


def topics(found: list[Hint]) -> list[str]:
    return [h.topic for h in found]


def test_opened_player_gets_every_kind_of_hint() -> None:
    game = analysis_game(
        "remi_ro",
        tiles("Y3 Y4 Y5 R8 R6 K13 B2"),
        [group("R5 R6 R7"), [(f, None) for f in tiles("B9 J B11")]],
        opened=True,
    )
    found = hints(game)
    assert topics(found) == ["laydown", "attach", "discard"]
    # 7 - 3 = 4 tiles stay, so the turn will end with 3: the laydown ends with the
    # announcement (RULES §9.11).
    assert found[0].actions == ("meld [Y3 Y4 Y5]", "three")
    assert "15 points" in found[0].reason
    # The joker of m2 stands for B10, which the rack lacks: no exchange.
    assert found[1].actions == ("attach R8 -> m1",)
    assert found[1].reason == "extends m1 [R5 R6 R7]"
    # The discard keeps Y3 Y4 Y5 and sheds the highest unmatched tile (K13, worth 10).
    assert found[-1].actions == ("discard K13",)
    assert all(h.reason for h in found)


def test_exchange_hint_and_json() -> None:
    run = [(f, None) for f in tiles("R5 J R7")]
    found = hints(analysis_game("remi_ro", tiles("R6 B2 B3 K9"), [run], opened=True))
    assert ("exchange", ("exchange R6 -> m1",)) in [(h.topic, h.actions) for h in found]
    # RULES §9.10: the freed joker must go into a formation this turn and a tile must
    # stay for the discard; from R6 B2 B3 only [B2 B3 J] could take it, leaving none.
    tight = hints(analysis_game("remi_ro", tiles("R6 B2 B3"), [run], opened=True))
    assert "exchange" not in topics(tight)
    data = hints_json(found)
    assert {"topic", "actions", "reason", "code", "params"} == set(data[0])
    assert all(h.topic in TOPICS for h in found)


def test_unopened_player_is_told_the_opening_minimum() -> None:
    game = analysis_game("remi_ro", tiles("Y3 Y4 Y5 R10 B10 K10 B2"), opened=False)
    laydown = hints(game)[0]
    assert laydown.reason == "opens with 45 points (minimum 45)"
    short = hints(analysis_game("remi_ro", tiles("Y3 Y4 Y5 B2 K7"), opened=False))[0]
    # Issue 12 (11): a laydown short of the opening is a note, never a move.
    assert short.actions == ()
    assert "short of the 45 needed: wait" in short.reason
    none = hints(analysis_game("remi_ro", tiles("B2 K7 R11"), opened=False))
    assert topics(none) == ["discard"]


def test_no_hints_outside_a_turn_of_play() -> None:
    game = Game("remi_ro", 4, seed=1)  # pre-play announcements
    assert hints(game) == []


# ------------------------------------------------------------- issue 12: trusted advice


def _follow_turn(game: Game) -> list[str]:
    """Play the seat to move's whole turn by always following the first hint that has
    actions, checking that each action is legal when it is played; return them."""
    seat = game.to_move
    played: list[str] = []
    while game.to_move == seat and game.phase in (Phase.ROUND1, Phase.TURNS):
        found = [h for h in hints(game) if h.actions]
        assert found, f"no actionable hint after {played}"
        for text in found[0].actions:
            action = parse_action(text, game.pieces.material)
            assert game.can(action), f"hinted {text!r} is illegal after {played}"
            game.apply(action)
            played.append(text)
        assert len(played) < 40
    return played


def test_following_the_hints_never_costs_the_three_penalty() -> None:
    # Issue 12 (10), RULES §9.11/§9.12(1): P1 opens with 11 of his 15 tiles and keeps 4;
    # his discard leaves 3, so 'three' must be announced first, or the deal scores -500.
    game = stacked_game(2, {0: "R5 R6 R7 R8 B10 Y10 K10 Y2 Y3 Y4 Y5"}, indicator="K4")
    mine = set(faces("R5 R6 R7 R8 B10 Y10 K10 Y2 Y3 Y4 Y5"))
    dead = next(f for f in game.rack_faces(0) if f not in mine)
    play(game, f"P1: discard {dead}")
    pass_turn(game)
    played = _follow_turn(game)
    assert "three" in played
    assert played.index("three") < len(played) - 1
    assert played[-1].startswith("discard")
    assert 1 <= len(game.racks[0]) <= 3
    assert not three(game).violation[0]
    run_out(game)
    assert game.results[-1].scores[0] != -500
    assert game.results[-1].opened[0]


def test_discard_hint_announces_three_when_the_turn_ends_with_three_tiles() -> None:
    # RULES §9.11: the prompt offers `three, discard, reset`; the hint says both, in order.
    game = analysis_game(
        "remi_ro", tiles("Y9 R2 B5 K11"), [group("R5 R6 R7")], players=2, opened=True
    )
    discard = hints(game)[-1]
    assert discard.topic == "discard"
    assert discard.actions[0] == "three"
    assert discard.actions[1].startswith("discard")
    assert "-500" in discard.reason and "§9.11" in discard.reason
    for text in discard.actions:
        game.apply(parse_action(text, Material.TILES))
    assert not three(game).violation[0]
    # With the announcement made, the discard needs nothing more.
    announced = analysis_game("remi_ro", tiles("Y9 R2 B5 K11"), players=2, opened=True)
    announced.apply(parse_action("three", Material.TILES))
    assert hints(announced)[-1].actions[0].startswith("discard")
    # Closing (the last tile) creates no obligation.
    closing = analysis_game("remi_ro", tiles("Y9"), players=2, opened=True)
    assert hints(closing)[-1].actions == ("discard Y9",)


def test_penalty_warning_names_the_three_penalty_and_the_risky_calls() -> None:
    game = analysis_game("remi_ro", tiles("Y9 R2 B5 K11"), players=2, opened=True)
    seen = view(game, 0)
    warning = penalty_warning(seen, parse_action("discard Y9", Material.TILES))
    assert warning is not None and "-500" in warning and "three" in warning
    assert penalty_warning(seen, parse_action("three", Material.TILES)) is None
    game.apply(parse_action("three", Material.TILES))
    assert penalty_warning(view(game, 0), parse_action("discard Y9", Material.TILES)) is None
    # Four tiles left after the discard: no obligation yet.
    five = analysis_game("remi_ro", tiles("Y9 R2 B5 K11 K12"), players=2, opened=True)
    assert penalty_warning(view(five, 0), parse_action("discard Y9", Material.TILES)) is None
    # RULES §9.13: the board declaration is final and risks the unopened penalty.
    fresh = stacked_game(2)
    play(fresh, f"P1: discard {fresh.rack_faces(0)[0]}")
    board = penalty_warning(view(fresh, 1), parse_action("board", Material.TILES))
    assert board is not None and "§9.13" in board
    # RULES §6.8: a "Remi!" call that does not close risks -20.
    vienna = analysis_game("vienna", parse_faces("AH 2H 3H 7S 7D 7C 9S JD QC KC KS", CARDS))
    call = penalty_warning(view(vienna, 0), parse_action("remi", CARDS))
    assert call is not None and "-20" in call and "§6.8" in call


def test_hints_count_what_this_turn_already_laid_toward_the_opening() -> None:
    # Issue 12 (11), RULES §8.5: 9 + 27 points are down this turn; [QS QH QD] brings
    # the opening to 66 >= 40, so the hint is that meld, not "short of 40: wait".
    game = romme_game(2, {0: "2H 3H 4H 9S 9D 9C QS QH QD"})
    draw(game)
    play(game, "meld [2H 3H 4H]", "meld [9S 9D 9C]")
    assert game.turn.laid_points == 36
    laydown = hints(game)[0]
    assert laydown.topic == "laydown"
    assert laydown.actions == ("meld [QS QH QD]",)
    assert "36 points laid this turn" in laydown.reason
    _follow_turn(game)
    assert game.opened[0]


def test_a_turn_that_cannot_reach_the_opening_is_told_to_reset() -> None:
    # RULES §8.5: 9 points are down and the rest of the hand adds nothing: take it back.
    game = romme_game(2, {0: "2H 3H 4H"})
    draw(game)
    play(game, "meld [2H 3H 4H]")
    found = [h for h in hints(game) if h.actions]
    assert found[0].topic == "reset", found
    assert found[0].actions == ("reset",)
    _follow_turn(game)
    assert not game.opened[0]
    assert len(game.racks[0]) == 13


def test_before_drawing_the_hint_says_draw_or_take_and_why() -> None:
    # RULES §8.3: the top discard 5H joins 2H 3H 4H: take it; the stock otherwise.
    game = romme_game(2, {0: "2H 3H 4H KS"}, discard="5H")
    (advice,) = hints(game)
    assert advice.topic == "take"
    assert advice.actions == ("take 0",)
    assert "5H" in advice.reason
    other = romme_game(2, {0: "2H 3H 4H KS"}, discard="9C")
    (advice,) = hints(other)
    assert (advice.topic, advice.actions) == ("draw", ("draw",))
    assert "9C" in advice.reason
    # RULES §9.6(b): in remi_ro a taken tile must open with it this turn, or it stays.
    remi = stacked_game(2, {1: "Y3 Y4 R10 B10 K10 K11 K12"})
    play(remi, f"P1: discard {next(f for f in remi.rack_faces(0) if str(f) != 'Y5')}")
    assert [h.topic for h in hints(remi)] in (["draw"], ["take"])


def test_continental_hints_count_cards_not_points() -> None:
    # RULES §7.6/§7.8: what counts is the layout; cards have no point value.
    game = analysis_game(
        "continental", parse_faces("4H 5H 6H 9S 10S JS KD 8C 3C 4D 7D QH AS 5S 6C 9D", CARDS)
    )
    discard = hints(game)[-1]
    assert discard.topic == "discard"
    assert "points" not in discard.reason
    assert "outside runs" in discard.reason


# ------------------------------------------------------------- property: every variant


class HintFollower:
    """A bot that always follows the first hint with actions, step by step, and falls
    back to the greedy bot only where no hint applies (pre-play, deal end)."""

    name = "hint-follower"

    def __init__(self) -> None:
        self.plan: list[str] = []
        self.fallback = GreedyBot()
        self.followed = 0

    def choose(self, seen: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        by_text = {str(a): a for a in legal}
        if self.plan and self.plan[0] in by_text:
            return by_text[self.plan.pop(0)]
        self.plan = []
        for hint in advise(seen, [a for a in legal if not isinstance(a, ProposeSwap)]):
            if hint.actions:
                self.plan = list(hint.actions)
                self.followed += 1
                return by_text[self.plan.pop(0)]
        return self.fallback.choose(seen, legal, rng)


def _check_hints_are_legal(game: Game) -> int:
    """Play every action of every hint from ``game`` on a copy, checking each is legal
    at that moment; return the number of hints checked."""
    found = hints(game)
    for hint in found:
        # Issue 13 item 6: every reason has a code interfaces translate, and the
        # parameters its message names.
        assert hint.code in REASONS, f"{game.variant.name}: {hint} has no reason code"
        assert all(isinstance(v, (str, int)) for _, v in hint.params), hint
        trial = game.copy()
        for text in hint.actions:
            action = parse_action(text, game.pieces.material)
            assert trial.can(action), f"{game.variant.name}: hint {hint} step {text!r} illegal"
            trial.apply(action)
    return len(found)


@pytest.mark.parametrize("variant", VARIANTS)
def test_hints_are_legal_and_following_them_costs_no_announcement_penalty(
    variant: str,
) -> None:
    # Issue 12 (11): >= 1,000 positions from seeded games of a hint follower (seat 0)
    # against greedy and random bots; every hinted action is legal in turn, and the
    # follower never ends a turn owing an announcement (RULES §9.11, -500).
    positions = 0
    seed = 0
    followed = 0
    announced = 0
    while positions < 1000:
        game = Game(variant, seed=seed)
        rng = random.Random(seed)
        follower = HintFollower()
        bots: list[Any] = [follower] + [
            GreedyBot() if s % 2 else RandomBot() for s in range(1, game.players)
        ]
        steps = 0
        while game.phase not in (Phase.DEAL_END, Phase.MATCH_END) and steps < 250:
            seat = game.to_move
            if game.phase is not Phase.SHOWDOWN:
                _check_hints_are_legal(game)
                positions += 1
            legal = game.legal_actions()
            action = bots[seat].choose(view(game, seat), legal, rng)
            game.apply(action)
            said = three_state(game)
            assert not (said and said.violation[0]), f"{variant} seed {seed}: -500 after hints"
            steps += 1
        if game.results:
            outcome = game.results[-1]
            assert outcome.scores[0] != -500 or not game.play.three_announcement
        followed += follower.followed
        announced += sum(s == 0 and str(a) == "three" for s, a in game.log)
        seed += 1
    assert followed > 100
    if variant == "remi_ro":
        # The property is not vacuous: the follower reached 1-3 tiles and announced.
        assert announced > 0
