"""GreedyBot: finishes every deal without loops, opens when it can, takes a column tile that
completes an opening, keeps its jokers, announces "three", beats random play, and sees only
its seat's view."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

import rummykit.bots.greedy as greedy_module
from kit import pass_turn, rack, table, three
from remi_ro_support import face, stacked_game
from rummykit.bots import GreedyBot, play_to_end, play_turn
from rummykit.bots.greedy import CALL_LINES, call_line, pieces_outside
from rummykit.cli.simulate import run_simulation, simulate_one
from rummykit.engine.actions import (
    Action,
    AnnounceThree,
    CallRemi,
    CloseBoard,
    DeclareBoard,
    Discard,
    Draw,
    Meld,
    TakeColumn,
)
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import SeatView, view
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.rules.continental import CONTINENTAL
from rummykit.rules.remi_ro import REMI_RO
from rummykit.solver.opening import best_opening
from test_bots_base import twin_deals

MAX_ACTIONS_PER_DEAL = 600
"""Greedy deals take about 60-140 actions; anything near this bound would be a loop."""


class CheckedGreedy(GreedyBot):
    """A GreedyBot that checks, on every choice, the promises the greedy bot makes."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        action = super().choose(view, legal, rng)
        where = f"deal {view.deal_number + 1}, P{view.seat + 1}, rack {list(map(str, view.rack))}"
        if action not in legal:
            self.problems.append(f"{where}: illegal {action}")
        if isinstance(action, Discard):
            if action.face.is_joker and any(
                isinstance(a, Discard) and not a.face.is_joker for a in legal
            ):
                self.problems.append(f"{where}: discarded a joker with other tiles available")
            left = len(view.rack) - 1
            if 1 <= left <= 3 and not view.announced_three[view.seat]:
                self.problems.append(f"{where}: ends its turn on {left} tiles without 'three'")
        return action


def _deal_ok(players: int, seed: int) -> tuple[Game, int, list[str]]:
    game = Game("remi_ro", players, {"match_deals": 1}, seed=seed)
    bots = [CheckedGreedy() for _ in range(players)]
    count = play_to_end(game, bots, random.Random(seed), max_actions=MAX_ACTIONS_PER_DEAL)
    return game, count, [p for b in bots for p in b.problems]


# --------------------------------------------------------------------- termination


@pytest.mark.parametrize(("players", "deals"), [(4, 200), (2, 100)])
def test_greedy_completes_many_deals_without_loops(players: int, deals: int) -> None:
    failures: list[str] = []
    announced = 0
    for seed in range(deals):
        game, count, problems = _deal_ok(players, seed)
        if not game.is_over:
            failures.append(f"seed {seed}: unfinished after {count} actions ({game.describe()})")
            continue
        failures.extend(f"seed {seed}: {p}" for p in problems)
        if any(three(game).violation):
            failures.append(f"seed {seed}: a 'three' violation {three(game).violation}")
        announced += any(isinstance(a, AnnounceThree) for _, a in game.log)
    assert not failures, "\n".join(failures[:20])
    # Greedy players get down to a few tiles in practically every deal.
    assert announced >= deals * 0.9


def test_greedy_deals_are_reproducible() -> None:
    a, _, _ = _deal_ok(4, 12)
    b, _, _ = _deal_ok(4, 12)
    assert a.log == b.log
    assert a.results == b.results


# --------------------------------------------------------------------- opening


def test_greedy_opens_when_it_holds_a_valid_opening() -> None:
    # P1 holds [Y3 Y4 Y5] + [R10 B10 K10] = 45 (RRT-09 a); the other racks are fillers.
    game = stacked_game(4, {0: "Y3 Y4 Y5 R10 B10 K10"})
    bot = GreedyBot()
    rng = random.Random(0)
    discarded = play_turn(game, bot, rng)  # round 1: discard only
    assert isinstance(discarded, Discard)
    assert discarded.face not in {face(t) for t in ["Y3", "Y4", "Y5", "R10", "B10", "K10"]}
    for _ in range(3):
        pass_turn(game)
    assert game.to_move == 0
    assert game.phase is Phase.TURNS
    actions = []
    while game.to_move == 0:
        actions.append(play_turn(game, bot, rng))
    assert game.opened[0]
    assert isinstance(actions[-1], Discard)
    assert sum(isinstance(a, Meld) for a in actions) >= 2
    laid = " ".join(table(game))
    for tile in ("Y3", "Y4", "Y5", "R10", "B10", "K10"):
        assert tile in laid.replace("[", " ").replace("]", " ").split()
    assert game.turns_taken[0] == 2


def test_greedy_does_not_lay_an_opening_below_45() -> None:
    # [Y3 Y4 Y5] + [R9 B9 K9] is only 30, and neither the stock's K13 nor the column's
    # B3 lifts it to 45: greedy must draw, lay nothing and discard.
    rack0 = "Y3 Y4 Y5 R9 B9 K9 R1 K2 B6 R7 Y8 K10 B11 R12 Y13"
    game = stacked_game(4, {0: rack0, 3: "B3"}, stock="- - - K13")
    bot = GreedyBot()
    rng = random.Random(0)
    play_turn(game, bot, rng)  # round-1 discard
    pass_turn(game)
    pass_turn(game)
    pass_turn(game, "B3")
    assert game.to_move == 0
    rack_faces = [face(t) for t in rack(game, 0)]
    for extra in ("K13", "B3"):
        lay = best_opening([*rack_faces, face(extra)], REMI_RO, game.options, keep=1)
        assert not lay.valid_opening, (extra, lay)
    actions = []
    while game.to_move == 0:
        actions.append(play_turn(game, bot, rng))
    assert actions[0] == Draw()
    assert isinstance(actions[-1], Discard)
    assert len(actions) == 2
    assert not game.opened[0]
    assert game.table == []


def _column_tile_game(discard: str) -> Game:
    """P2 holds R3 R4 + [K10 B10 Y10]: the column's R5 would complete a 45 opening."""
    game = stacked_game(4, {0: "R5 K13", 1: "R3 R4 K10 B10 Y10"})
    pass_turn(game, "K13")  # P1, round 1
    for _ in range(3):
        pass_turn(game)  # P2..P4 draw and discard
    pass_turn(game, discard)  # P1, round 2
    assert game.to_move == 1
    return game


def test_greedy_takes_the_last_column_tile_to_complete_an_opening() -> None:
    game = _column_tile_game("R5")
    bot = GreedyBot()
    rng = random.Random(0)
    last = len(game.column) - 1
    assert str(game.faces[game.column[last]]) == "R5"
    assert not game.opened[1]
    choice = play_turn(game, bot, rng)
    assert choice == TakeColumn(last)
    while game.to_move == 1:
        play_turn(game, bot, rng)
    assert game.opened[1]
    runs_with_r5 = [m for m in table(game) if "R5" in m.strip("[]").split()]
    assert runs_with_r5, table(game)
    assert "R5" not in rack(game, 1)


def test_greedy_draws_when_the_column_tile_does_not_open() -> None:
    # As above, but P1 discards B2, which opens nothing for P2.
    game = stacked_game(4, {0: "R5 K13 B2", 1: "R3 R4 K10 B10 Y10"})
    pass_turn(game, "K13")
    for _ in range(3):
        pass_turn(game)
    pass_turn(game, "B2")
    assert game.to_move == 1
    assert play_turn(game, GreedyBot(), random.Random(0)) == Draw()


# --------------------------------------------------------------------- jokers and "three"


def test_greedy_keeps_a_joker_in_its_discard() -> None:
    game = stacked_game(4, {0: "J K13 B2 Y6"})
    action = play_turn(game, GreedyBot(), random.Random(0))  # round-1 discard
    assert isinstance(action, Discard)
    assert not action.face.is_joker
    assert "J" in rack(game, 0)


def test_greedy_announces_three_before_ending_on_three_tiles() -> None:
    # A greedy match (the checks of CheckedGreedy run on every choice) where every seat
    # that ends a turn on 1-3 tiles has announced first.
    game = Game("remi_ro", 3, seed=31)
    bots = [CheckedGreedy() for _ in range(3)]
    play_to_end(game, bots, random.Random(31), max_actions=3 * MAX_ACTIONS_PER_DEAL)
    assert game.is_over
    assert [p for b in bots for p in b.problems] == []
    assert all(r.scores[s] != -500 for r in game.results for s in range(3))
    assert any(isinstance(a, AnnounceThree) for _, a in game.log)


# --------------------------------------------------------------------- strength


@pytest.mark.parametrize("bots", [["greedy", "random"] * 2, ["random", "greedy"] * 2])
def test_greedy_beats_random(bots: list[str]) -> None:
    summary = run_simulation("remi_ro", 4, {}, bots, games=10, seed=0, jobs=1)
    data = summary.to_json()
    assert data["deals"] == 40
    mean = data["mean_deal_score"]
    greedy = [mean[s] for s in range(4) if bots[s] == "greedy"]
    randoms = [mean[s] for s in range(4) if bots[s] == "random"]
    assert sum(greedy) / 2 > sum(randoms) / 2 + 100, mean
    assert min(greedy) > max(randoms), mean
    wins = data["wins"]
    assert sum(wins[s] for s in range(4) if bots[s] == "greedy") >= 8, wins


# --------------------------------------------------------------------- information


def test_greedy_module_does_not_reach_for_the_game() -> None:
    assert not hasattr(greedy_module, "Game")
    assert not hasattr(greedy_module, "play_turn")


def test_greedy_choose_receives_only_a_view_and_the_legal_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = GreedyBot.choose
    seen: list[tuple[Any, ...]] = []

    def spy(self: GreedyBot, *args: Any, **kwargs: Any) -> Action:
        seen.append((*args, *kwargs.values()))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(GreedyBot, "choose", spy)
    game = Game("remi_ro", 3, {"match_deals": 1}, seed=4)
    play_to_end(game, [GreedyBot() for _ in range(3)], random.Random(4))
    assert game.is_over
    simulate_one("remi_ro", 2, {"match_deals": 1}, ["greedy", "greedy"], 7, 0, None)
    assert len(seen) > 100
    for args in seen:
        assert len(args) == 3
        v, legal, rng = args
        assert isinstance(v, SeatView)
        assert isinstance(legal, list | tuple)
        assert legal, "greedy is only asked when there is a legal action"
        assert isinstance(rng, random.Random)
        assert not any(isinstance(a, Game) for a in args)
        assert not any(isinstance(a, Game) for a in legal)
        assert not any(isinstance(getattr(v, name), Game) for name in v.__dataclass_fields__)


def test_greedy_chooses_the_same_for_the_same_view() -> None:
    # Two deals that differ only in hidden pieces (another seat's rack vs the stock): the
    # first player's view, and so greedy's choice for him, are the same.
    a, b, first = twin_deals()
    assert a.to_move == b.to_move == first
    assert view(a, first) == view(b, first)
    choice_a = GreedyBot().choose(view(a, first), a.legal_actions(), random.Random(0))
    choice_b = GreedyBot().choose(view(b, first), b.legal_actions(), random.Random(0))
    assert choice_a == choice_b


def test_vienna_greedy_never_passes_the_same_cards_round_for_ever() -> None:
    """RULES §6 with A-03 (a card just taken may not be discarded): after taking the top
    discard, greedy discards the best *legal* card, so each take lowers its deadwood.  This
    deal (found by the server's canary scan) used to loop for ever: both bots took the top
    ace and threw another ace back."""
    game = Game("vienna", 2, {"match_deals": 1, "max_stock_recycles": 0}, seed=291795863671947108)
    bots = [GreedyBot(), GreedyBot()]
    actions = play_to_end(game, bots, random.Random(0.3373422487630071), max_actions=3_000)
    assert game.is_over and actions < 3_000


def test_greedy_refuses_a_finished_game_with_a_clear_error() -> None:
    game = Game("basic", 2, {"match_mode": "deals", "match_deals": 1}, seed=3)
    play_to_end(game, [GreedyBot(), GreedyBot()], random.Random(3), max_actions=2_000)
    assert game.phase is Phase.MATCH_END and game.legal_actions() == []
    with pytest.raises(ValueError, match="game is over"):
        GreedyBot().choose(view(game, 0), [], random.Random(0))


def test_greedy_opens_under_the_options_meld_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Options may change the meld rules (variant.rules_for): greedy passes them on."""
    seen: list[Any] = []
    real = greedy_module.best_opening  # type: ignore[attr-defined]

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("rules"))
        return real(*args, **kwargs)

    monkeypatch.setattr(greedy_module, "best_opening", spy)
    game = Game("remi_ro", 2, seed=8)
    play_to_end(game, [GreedyBot(), GreedyBot()], random.Random(8), stop_at_deal_end=True)
    assert seen, "greedy looked for an opening"
    assert all(r == REMI_RO.rules_for(game.options) for r in seen)


def test_greedy_takes_back_a_turn_it_cannot_finish_and_says_so_for_that_turn_only() -> None:
    """RULES §8 (joker exchange, A-39): the freed joker must go into a new figure.
    Greedy lays it off, cannot finish the turn, resets and discards; the expert reads
    :meth:`GreedyBot.reset_this_turn` so it never replays the same moves."""
    from rummykit.engine.actions import ExchangeJoker, ResetTurn
    from rummykit.engine.position import analysis_game
    from rummykit.model.pieces import Face, Material, parse_faces

    run: list[tuple[Face, Face | None]] = [
        (f, None) for f in parse_faces("5H JK 7H", Material.CARDS)
    ]
    run[1] = (Face.parse("JK"), Face.parse("6H"))
    game = analysis_game("romme", parse_faces("6H 2C 9D", Material.CARDS), [run], players=2)
    game.apply(next(a for a in game.legal_actions() if isinstance(a, ExchangeJoker)))
    bot, rng = GreedyBot(), random.Random(0)
    played: list[Action] = []
    while game.to_move == 0:
        seen = view(game, 0)
        played.append(bot.choose(seen, game.legal_actions(), rng))
        game.apply(played[-1])
        if played[-1] == ResetTurn():
            assert bot.reset_this_turn(view(game, 0))
    assert ResetTurn() in played and isinstance(played[-1], Discard)
    # The seat's next turn starts afresh.
    later = view(game, 0)
    turns = (later.turns_taken[0] + 1, *later.turns_taken[1:])
    assert not bot.reset_this_turn(replace(later, turns_taken=turns))


# --------------------------------------------------- the scoring rules a casual player knows

READY = "R1 R2 R3 R4 B5 Y5 K5 R7 R8 R9 Y10 Y11 Y12 Y13"
"""Fourteen tiles in runs and sets: a "Simple" board contract (RULES §9.13)."""


@pytest.mark.parametrize(
    ("rack0", "declares"),
    [
        (READY, True),
        # K12 for Y13 fits nothing: a tile short, still close.
        (READY.replace("Y13", "K12"), True),
        # Fillers form nothing: far from any contract, greedy lays out as usual.
        ("", False),
    ],
)
def test_greedy_plays_on_the_board_when_its_rack_is_near_a_contract(
    rack0: str, declares: bool
) -> None:
    """RULES §9.13: a board contract pays 500 or more; greedy declares within its first
    turns from a rack at most BOARD_AT tiles short of one."""
    game = stacked_game(2, {0: rack0})
    assert game.to_move == 0
    action = GreedyBot().choose(view(game, 0), game.legal_actions(), random.Random(0))
    assert (action == DeclareBoard()) is declares
    assert (
        GreedyBot(board_play=False).choose(view(game, 0), game.legal_actions(), random.Random(0))
        != DeclareBoard()
    )


def test_greedy_completes_its_board_contract_and_closes_with_a_1() -> None:
    """RULES §9.13 and §9.11: the board player closes when 14 tiles form a contract; the
    1 as the closing tile doubles it."""
    game = stacked_game(2, {0: READY + " K12"}, stock="- Y9")
    bot, rng = GreedyBot(), random.Random(0)
    assert play_turn(game, bot, rng) == DeclareBoard()
    assert play_turn(game, bot, rng) == Discard(face("K12"))
    pass_turn(game)
    assert play_turn(game, bot, rng) == Draw()
    assert play_turn(game, bot, rng) == CloseBoard(face("R1"))
    assert game.results[0].end == "board" and game.results[0].scores[0] == 1000


def _vienna_call_view(turns: int) -> tuple[SeatView, list[Action]]:
    """Seat 0 of 2-seat Vienna after its draw, 11 cards, deadwood 16 (9C 7D)."""
    hand = faces_of("2H 3H 4H 5S 5D 5C JC QC KC 9C 7D")
    seen = replace(
        view(Game("vienna", 2, seed=5), 0),
        rack=tuple(hand),
        turns_taken=(turns, turns),
        phase=Phase.TURNS,
    )
    return seen, [CallRemi(), *(Discard(f) for f in sorted(set(hand)))]


def test_greedy_calls_in_vienna_early_with_a_hand_an_opponent_rarely_beats() -> None:
    """RULES §6.6: the caller must hold less deadwood than every opponent.  Two turns in,
    an opponent rarely holds under 17 (CALL_LINES): 16 is worth a call; eight turns in,
    most opponents are lower, so greedy discards 9C and plays on."""
    early, legal = _vienna_call_view(turns=2)
    assert call_line(early) == CALL_LINES[2] == 17
    assert GreedyBot().choose(early, legal, random.Random(0)) == CallRemi()
    late, legal = _vienna_call_view(turns=8)
    assert GreedyBot().choose(late, legal, random.Random(0)) == Discard(faces_of("9C")[0])
    # A third seat must be beaten too: the line drops.
    assert call_line(replace(early, players=3, turns_taken=(2, 2, 2))) == 14


def test_greedy_keeps_the_cards_nearest_a_continental_layout() -> None:
    """RULES §7.6: only a whole hand of runs goes out.  Greedy discards a card that
    leaves the fewest cards outside runs (13 of the 16 lie in four runs)."""
    hand = faces_of("3H 4H 5H 6H 7C 8C 9C 10D JD QD 5S 6S 7S AD 9H KS")
    seen = replace(view(Game("continental", 2, seed=5), 0), rack=tuple(hand))
    legal: list[Action] = [Discard(f) for f in sorted(set(hand))]
    action = GreedyBot().choose(seen, legal, random.Random(0))
    rules = CONTINENTAL.rules_for(seen.options)
    left = [f for f in hand if f != action.face]  # type: ignore[union-attr]
    assert pieces_outside(left, rules) == 2
    assert action in (
        Discard(faces_of("KS")[0]),
        Discard(faces_of("AD")[0]),
        Discard(faces_of("9H")[0]),
    )


def test_greedy_takes_a_continental_discard_that_joins_a_run() -> None:
    """RULES §7.3: the top discard may be taken freely; greedy takes it when it brings
    the hand nearer a layout, and draws otherwise."""
    hand = faces_of("3H 4H 5H 6H 7C 8C 9C 10D JD QD 5S 6S AD 9H KS")
    base = replace(view(Game("continental", 2, seed=5), 0), rack=tuple(hand))
    fits = replace(base, column=(*base.column[:-1], faces_of("7S")[0]))
    legal: list[Action] = [Draw(), TakeColumn(len(fits.column) - 1)]
    assert GreedyBot().choose(fits, legal, random.Random(0)) == TakeColumn(len(fits.column) - 1)
    stray = replace(base, column=(*base.column[:-1], faces_of("10S")[0]))
    legal = [Draw(), TakeColumn(len(stray.column) - 1)]
    assert GreedyBot().choose(stray, legal, random.Random(0)) == Draw()


def faces_of(text: str) -> list[Face]:
    return list(parse_faces(text, Material.CARDS))
