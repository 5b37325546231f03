"""ExpertBot: legal moves in every variant from views only, levels as budgets, searched
discards among greedy's best, and the names make_bot accepts."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from kit import on_board, pass_turn
from remi_ro_support import face, faces, stacked_game
from rummykit.bots import (
    BOTS,
    LEVELS,
    Bot,
    ExpertBot,
    GreedyBot,
    bot_names,
    make_bot,
    play_to_end,
    play_turn,
)
from rummykit.bots.board import closing_tile_action, tiles_short
from rummykit.bots.expert import CARD_WEIGHT, Level, RackCost, _world_draws, unseen_faces
from rummykit.bots.greedy import tile_usefulness
from rummykit.engine.actions import (
    Action,
    Attach,
    CloseBoard,
    DeclareBoard,
    Discard,
    Draw,
    TakeColumn,
)
from rummykit.engine.game import Game, Phase
from rummykit.engine.position import analysis_game
from rummykit.engine.view import SeatView, view
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.rules.remi_ro import REMI_RO, RemiRoOptions
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
    checked = Checked(Level(worlds=1, top_k=2))
    bots: list[Bot] = [checked, GreedyBot()]
    play_to_end(game, bots, random.Random(1), stop_at_deal_end=True, max_actions=800)
    assert game.results, "the deal ended"
    assert checked.problems == []


@pytest.mark.parametrize("variant", sorted(v.name for v in all_variants()))
def test_default_expert_finishes_deals_of_every_variant_legally(variant: str) -> None:
    # The named level: board play, the closing tile and shedding run where they apply.
    for seed in (3, 4):
        game = Game(variant, 2, seed=seed)
        checked = Checked("medium")
        bots: list[Bot] = [GreedyBot(), checked]
        play_to_end(game, bots, random.Random(seed), stop_at_deal_end=True, max_actions=800)
        assert game.results, "the deal ended"
        assert checked.problems == []
        assert on_board(game)[1] is (variant == "remi_ro")


def test_levels_are_budgets_weakest_first() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard"]
    easy, medium, hard = LEVELS.values()
    # Each level searches more candidates over more draws than the one before.
    assert easy.top_k < medium.top_k < hard.top_k
    assert easy.draws < medium.draws < hard.draws
    assert easy.board < medium.board <= hard.board
    # Continental's layout count (§7.6) from medium up; easy plays greedy's there.
    assert not easy.layout and medium.layout and hard.layout


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
    plain = GreedyBot().choose(seen, legal, random.Random(0))
    assert isinstance(plain, Discard)
    ranked = expert._discard_candidates(seen, legal, plain, game.variant)
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


# --------------------------------------------------------------------- Remi tactics

READY = "R1 R2 R3 R4 B5 Y5 K5 R7 R8 R9 Y10 Y11 Y12 Y13"
"""Fourteen tiles in runs and sets: a "Simple" board contract (RULES §9.13)."""


def test_tiles_short_counts_tiles_outside_runs_sets_or_pairs() -> None:
    rules = REMI_RO.meld_rules
    assert tiles_short([f.kind for f in faces(READY)], rules) == 0
    # A 15th tile that fits nowhere is the closing discard: still 0 short.
    assert tiles_short([f.kind for f in faces(READY + " K12")], rules) == 0
    assert tiles_short([f.kind for f in faces(READY.replace("R8", "K12"))], rules) == 3
    pairs = "R2 R2 B4 B4 Y6 Y6 K8 K8 R10 R10 B12 B12 Y13 J"
    assert tiles_short([f.kind for f in faces(pairs)], rules) == 0
    assert tiles_short([f.kind for f in faces(pairs.replace("J", "K3"))], rules) == 2


def _first_turn(rack0: str, stock: str = "") -> Game:
    game = stacked_game(2, {0: rack0}, stock=stock)
    assert game.phase is Phase.ROUND1 and game.to_move == 0
    return game


@pytest.mark.parametrize(
    ("level", "rack0", "declares"),
    [
        ("medium", READY, True),
        ("easy", READY, True),
        # Fillers alone form nothing: easy waits for a hand near a contract, medium
        # plays on the board from any hand (greedy never does: docs/strength.md).
        ("easy", "", False),
        ("medium", "", True),
        (Level(worlds=0, top_k=3), READY, False),
    ],
)
def test_expert_declares_board_play_by_its_level(
    level: str | Level, rack0: str, declares: bool
) -> None:
    game = _first_turn(rack0)
    action = ExpertBot(level).choose(view(game, 0), game.legal_actions(), random.Random(0))
    assert (action == DeclareBoard()) is declares
    assert action in game.legal_actions()


def test_board_player_completes_the_contract_and_closes_with_a_1() -> None:
    # Seat 0 holds READY and a stray K12, its dead tile; the stock's second tile Y9
    # lets it close by discarding R1, R4, Y9 or Y13: the 1 doubles the contract
    # (RULES §9.12).
    game = _first_turn(READY + " K12", stock="- Y9")
    expert, rng = ExpertBot("medium"), random.Random(0)
    assert play_turn(game, expert, rng) == DeclareBoard()
    assert play_turn(game, expert, rng) == Discard(face("K12"))
    pass_turn(game)
    assert play_turn(game, expert, rng) == Draw()
    assert play_turn(game, expert, rng) == CloseBoard(face("R1"))
    result = game.results[0]
    assert result.end == "board" and result.closer == 0
    assert result.scores[0] == 1000


def _opened_view(rack_faces: str) -> SeatView:
    game = Game("remi_ro", 2, seed=5)
    return replace(view(game, 0), rack=tuple(faces(rack_faces)))


def test_closing_tile_is_kept_back_and_attached_last() -> None:
    seen = _opened_view("K1 R6")
    order = _order_of(seen)
    attach_one, attach_six = Attach(face("K1"), 1), Attach(face("R6"), 2)
    legal: list[Action] = [attach_one, attach_six, Discard(face("K1")), Discard(face("R6"))]
    # Greedy attaches the 1 (worth most) and closes with the 6; the expert closes with the 1.
    assert closing_tile_action(seen, legal, attach_one, REMI_RO, order) == attach_six
    assert closing_tile_action(seen, legal, attach_six, REMI_RO, order) is None
    seen = _opened_view("K1 B7 Y9")
    legal = [Discard(f) for f in faces("K1 B7 Y9")]
    kept = closing_tile_action(seen, legal, Discard(face("K1")), REMI_RO, order)
    assert isinstance(kept, Discard) and kept.face != face("K1")
    # Two 1s: only one can close, the other is 25 points at risk.
    seen = _opened_view("K1 B1 Y9")
    legal = [Discard(f) for f in faces("K1 B1 Y9")]
    assert closing_tile_action(seen, legal, Discard(face("K1")), REMI_RO, order) is None


def test_closing_tile_rule_needs_the_multiplier() -> None:
    seen = _opened_view("K1 R6")
    options = RemiRoOptions.of(seen.options)
    plain = replace(seen, options=replace(options, closing_with_1_or_joker_multiplier=1))
    legal: list[Action] = [Attach(face("K1"), 1), Attach(face("R6"), 2)]
    assert closing_tile_action(plain, legal, legal[0], REMI_RO, _order_of(plain)) is None


def _order_of(seen: SeatView) -> Callable[[Face], tuple[int, int, Face]]:
    rack = list(seen.rack)
    return lambda f: (tile_usefulness(f, rack, REMI_RO), -REMI_RO.score_value(f), f)


# --------------------------------------------------------------------- Rommé: shedding


def _romme_discard_view(rack_text: str, opponent_pieces: int) -> tuple[SeatView, list[Action]]:
    """Seat 0 and the opponent both opened, seat 0 to discard from ``rack_text``."""
    hand = [Face.parse(t, Material.CARDS) for t in rack_text.split()]
    seen = replace(
        view(Game("romme", 2, seed=5), 0),
        rack=tuple(hand),
        opened=(True, True),
        rack_sizes=(len(hand), opponent_pieces),
    )
    return seen, [Discard(f) for f in sorted(set(hand))]


def test_expert_sheds_points_when_the_opponent_may_go_out() -> None:
    # KH QH may become a run, so greedy and a calm expert keep them and let 7D go; with
    # the opponent down to 2 cards the hand is about to be charged: shed a 10.
    seen, legal = _romme_discard_view("KH QH 3C 7D", opponent_pieces=2)
    action = ExpertBot("medium").choose(seen, legal, random.Random(0))
    assert action in (
        Discard(Face.parse("KH", Material.CARDS)),
        Discard(Face.parse("QH", Material.CARDS)),
    )
    calm, legal = _romme_discard_view("KH QH 3C 7D", opponent_pieces=8)
    assert GreedyBot().choose(calm, legal, random.Random(0)) == Discard(
        Face.parse("7D", Material.CARDS)
    )
    assert ExpertBot("medium").choose(calm, legal, random.Random(0)) == Discard(
        Face.parse("7D", Material.CARDS)
    )


def test_expert_lays_off_a_joker_when_the_opponent_may_go_out() -> None:
    seen, legal = _romme_discard_view("JK 2C 5D 9S 10H", opponent_pieces=1)
    lay_off = Attach(Face.parse("JK", Material.CARDS), 1)
    assert ExpertBot("medium").choose(seen, [*legal, lay_off], random.Random(0)) == lay_off
    calm, legal = _romme_discard_view("JK 2C 5D 9S 10H", opponent_pieces=9)
    assert isinstance(
        ExpertBot("medium").choose(calm, [*legal, lay_off], random.Random(0)), Discard
    )


def test_hard_draws_from_worlds_leave_out_a_discard_the_opponent_took() -> None:
    """RULES §8: the taken top discard sits in the taker's hand.  Rommé has two packs:
    once the other QD is in sight, the unseen faces still count the QD P2 took as a
    possible draw, while every resampled world knows it is in P2's hand."""
    game = Game("romme", 2, {}, seed=4)
    bots = [GreedyBot(), GreedyBot()]
    rng = random.Random(4)
    while len(game.log) < 16:
        seat = game.to_move
        game.apply(bots[seat].choose(view(game, seat), game.legal_actions(), rng))
    assert str(game.log[-1][1]).startswith("take") and game.log[-1][0] == 1
    qd = Face.parse("QD")
    seen = view(game, 0)
    assert Counter(unseen_faces(seen))[qd] == 1
    assert qd in [game.faces[p] for p in game.racks[1]]
    drawn = _world_draws(seen, random.Random(0), 20, 120)
    assert sum(weight for _, weight in drawn) == 120
    assert qd not in {face for face, _ in drawn}
    assert {face for face, _ in drawn} <= set(unseen_faces(seen))
    assert LEVELS["hard"].draw_worlds > 0 and LEVELS["medium"].draw_worlds == 0


# ------------------------------------------------------- Rommé: going out, rack cost


def _romme_position(rack: str, table: Sequence[str], *, opened: bool = True) -> Game:
    """Seat 0 to play after drawing, holding ``rack``; ``table`` laid by seat 1."""
    formations = [[(f, None) for f in parse_faces(t, Material.CARDS)] for t in table]
    return analysis_game(
        "romme", parse_faces(rack, Material.CARDS), formations, players=2, opened=opened
    )


def _play_turn_out(game: Game, bot: ExpertBot | GreedyBot) -> list[Action]:
    """Seat 0's actions until its turn ends (the deal ends or the turn passes)."""
    played: list[Action] = []
    rng = random.Random(0)
    while not game.results and game.to_move == 0 and len(played) < 20:
        action = bot.choose(view(game, 0), game.legal_actions(), rng)
        game.apply(action)
        played.append(action)
    return played


def test_expert_goes_out_with_a_rack_that_is_one_figure() -> None:
    """RULES §8 (going out): a meld that empties the hand ends the deal, no discard
    needed.  Greedy keeps a card back for a discard, so it throws a piece of the run."""
    game = _romme_position("2C 3C 4C", ["5H 6H 7H"])
    played = _play_turn_out(game, ExpertBot("medium"))
    assert [type(a).__name__ for a in played] == ["Meld"]
    assert game.results and game.results[0].scores[0] == 0
    greedy = _romme_position("2C 3C 4C", ["5H 6H 7H"])
    assert isinstance(_play_turn_out(greedy, GreedyBot())[-1], Discard)
    assert not greedy.results


def test_expert_goes_out_through_a_chain_of_lay_offs_and_a_closing_discard() -> None:
    """RULES §8 (laying off, going out): 8H then 9H extend the hearts run, the clubs go
    down as a figure, KS closes."""
    game = _romme_position("9H 8H 2C 3C 4C KS", ["5H 6H 7H"])
    played = _play_turn_out(game, ExpertBot("medium"))
    assert game.results and game.results[0].scores[0] == 0
    assert played[-1] == Discard(Face.parse("KS"))
    assert sum(isinstance(a, Attach) for a in played) == 2


def test_expert_does_not_go_out_from_its_opening_turn_with_lay_offs() -> None:
    """RULES §8.5 (A-36): no lay-offs in the opening turn, so the rack cannot all go;
    the expert plays on as usual and stays legal."""
    game = _romme_position("9H 8H KS QS JS 2D", ["5H 6H 7H"], opened=False)
    played = _play_turn_out(game, ExpertBot("medium"))
    assert not any(isinstance(a, Attach) for a in played)
    assert isinstance(played[-1], Discard)


def _cost(rack: str, table: Sequence[str], *, opened: bool = True) -> tuple[RackCost, int]:
    game = _romme_position(rack, table, opened=opened)
    cost = RackCost(view(game, 0), game.variant)
    return cost, cost.after_discard(parse_faces(rack, Material.CARDS))


def test_rack_cost_counts_pieces_before_points() -> None:
    # The costliest piece goes as the discard: a king left beats 2C and 3D left.
    _, one_king = _cost("AS KD", [])
    _, two_small = _cost("2C 3D 9S", [])
    assert one_king == CARD_WEIGHT + 10 < two_small == 2 * CARD_WEIGHT + 5


def test_rack_cost_lays_off_onto_the_table_in_chains() -> None:
    cost, left = _cost("8H 9H KS", ["5H 6H 7H"])
    assert left == 0
    _, unopened = _cost("8H 9H KS", ["5H 6H 7H"], opened=False)
    assert unopened == 2 * CARD_WEIGHT + 17
    spots = {f for f in parse_faces("4H 8H QC AH 4D JK", Material.CARDS) if cost.is_spot(f)}
    assert spots == set(parse_faces("4H 8H JK", Material.CARDS))
    sets_and_aces, _ = _cost("2C", ["QS QH QD", "7S 7H 7C 7D", "AD 2D 3D", "JH QH KH"])
    # The set takes its missing suit, the low-ace run only its top, J Q K the high ace.
    assert {
        str(f) for f in parse_faces("QC 4D AH 6D AC 8D", Material.CARDS) if sets_and_aces.is_spot(f)
    } == {"QC", "4D", "AH"}


def test_expected_cost_shortcut_is_exact() -> None:
    """A draw touching neither the rack nor a lay-off spot is scored without a solve;
    that must equal the full solve, over positions from real Rommé games."""
    bot = ExpertBot("medium")
    checked = 0
    for seed in range(12):
        game = Game("romme", 2, seed=seed)
        bots = [GreedyBot(), GreedyBot()]
        rng = random.Random(seed)
        while not game.results and checked < 400:
            seat = game.to_move
            seen = view(game, seat)
            if seen.opened[seat] and seen.table and len(seen.rack) > 1:
                cost = RackCost(seen, game.variant)
                rack = list(seen.rack)
                for drawn in sorted(set(unseen_faces(seen)))[::5]:
                    assert bot._expected(rack, [(drawn, 1.0)], cost) == cost.after_discard(
                        [*rack, drawn]
                    ), (rack, drawn)
                    checked += 1
            game.apply(bots[seat].choose(seen, game.legal_actions(), rng))
    assert checked >= 400


# ------------------------------------------- Vienna and Continental: the next draw counted


def _cards(text: str) -> list[Face]:
    return list(parse_faces(text, Material.CARDS))


def _turn_start(variant: str, hand: str, top: str) -> tuple[SeatView, list[Action]]:
    """Seat 0 of a 2-seat ``variant`` deal at the start of its turn, holding ``hand``,
    ``top`` on the discard pile; it may draw or take the top discard."""
    seen = replace(
        view(Game(variant, 2, seed=5), 0),
        rack=tuple(_cards(hand)),
        column=tuple(_cards(top)),
        phase=Phase.TURNS,
    )
    return seen, [Draw(), TakeColumn(0)]


def test_medium_draws_in_vienna_where_the_stock_promises_more_than_the_top_card() -> None:
    """RULES §6.3: a player draws from the stock or takes the top discard, and only the
    deadwood shown at the call counts (§6.6).  Taking 3S and discarding a 6 leaves 17
    instead of 20: greedy takes.  Two pairs wait for a third card (six 4s, six 6s and
    four jokers unseen), so the stock's next card leaves less on average: medium
    draws."""
    seen, legal = _turn_start("vienna", "5S 5D 5C 7H 8H 9H 4C 4D 6S 6D", "3S")
    assert GreedyBot().choose(seen, legal, random.Random(0)) == TakeColumn(0)
    assert ExpertBot("medium").choose(seen, legal, random.Random(0)) == Draw()


def test_medium_still_takes_a_vienna_discard_that_completes_a_meld() -> None:
    """RULES §6.4: the top discard 4S makes a set of the pair 4C 4D, leaving 6 6: no
    draw does as well on average, so medium takes it like greedy."""
    seen, legal = _turn_start("vienna", "5S 5D 5C 7H 8H 9H 4C 4D 6S 6D", "4S")
    assert GreedyBot().choose(seen, legal, random.Random(0)) == TakeColumn(0)
    assert ExpertBot("medium").choose(seen, legal, random.Random(0)) == TakeColumn(0)


def test_medium_vienna_discard_keeps_the_pair_with_outs() -> None:
    """RULES §6.6: after the draw, of two discards leaving the same deadwood now (a
    10-point card), greedy breaks the pair JH JH; medium keeps it (six jacks and four
    jokers unseen would make it a set, §6.4) and lets KD go."""
    hand = _cards("QS QS 4H 7H 8H JH JH 4D QD KD 10C")
    seen = replace(view(Game("vienna", 2, seed=5), 0), rack=tuple(hand), phase=Phase.TURNS)
    legal: list[Action] = [Discard(f) for f in sorted(set(hand))]
    assert GreedyBot().choose(seen, legal, random.Random(0)) == Discard(_cards("JH")[0])
    assert ExpertBot("medium").choose(seen, legal, random.Random(0)) == Discard(_cards("KD")[0])


def test_medium_takes_a_continental_discard_that_brings_a_layout_nearer() -> None:
    """RULES §7.6: the hand goes out only as a whole layout.  Four runs of 3 are held;
    KS makes QS KS two cards of a fifth run (one card short, §7.4: K-A or J-Q-K), so
    the hand is one card from a layout instead of two.  It completes no run, so
    greedy's count of cards outside runs does not fall and greedy draws; medium
    takes."""
    hand = "3S 4S 5S 6H 7H 8H 9D 10D JD 4C 5C 6C QS KH 8D"
    seen, legal = _turn_start("continental", hand, "KS")
    assert GreedyBot().choose(seen, legal, random.Random(0)) == Draw()
    assert ExpertBot("medium").choose(seen, legal, random.Random(0)) == TakeColumn(0)
    # JC, far from every club held, brings the layout no nearer: medium draws.
    seen, legal = _turn_start("continental", hand, "JC")
    assert ExpertBot("medium").choose(seen, legal, random.Random(0)) == Draw()


def test_medium_continental_discard_keeps_the_ace_of_a_low_run() -> None:
    """RULES §7.4: the 2 is wild and has no place of its own, so A-3-4 is the lowest
    run and AS 4S 5S miss only 3S (or a wild card) of A-3-4-5.  Greedy's partner
    count takes the ace and the 4 for three ranks apart and discards AS; medium keeps
    it and lets a lone 4D go: two cards from a layout (§7.6) instead of three."""
    hand = _cards("AS 4S 5S AH 3H 4H 9H 10H QH 4D QD AC 9C JC QC KC")
    seen = replace(view(Game("continental", 2, seed=5), 0), rack=tuple(hand), phase=Phase.TURNS)
    legal: list[Action] = [Discard(f) for f in sorted(set(hand))]
    assert GreedyBot().choose(seen, legal, random.Random(0)) == Discard(_cards("AS")[0])
    assert ExpertBot("medium").choose(seen, legal, random.Random(0)) == Discard(_cards("4D")[0])
