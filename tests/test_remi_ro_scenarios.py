"""RULES §12.7 (RRT-nn) scenarios of Romanian tile Rummy, played through the engine.

Every position is reached by legal play from a stacked wall (tests/remi_ro_support.py):
seat 0 is P1, the first player, and the other seats follow in play order.
"""

from __future__ import annotations

import pytest

from kit import (
    assert_conserved,
    column,
    draw,
    illegal,
    on_board,
    pass_turn,
    pass_turns,
    play,
    preplay,
    rack,
    run_out,
    table,
    three,
)
from remi_ro_support import act, faces, stacked_game
from rummykit.engine import Game, IllegalActionError
from rummykit.engine.actions import Ready
from rummykit.engine.game import Phase
from rummykit.rules.remi_ro import REMI_RO, score_deal, score_value
from rummykit.rules.variant import SeatOutcome

# ------------------------------------------------------------------ RRT-05


def test_rrt05_three_doubles_reshuffle_rebuilds_with_the_same_maker() -> None:
    """RRT-05 / §9.4(2), A-49: three dealt doubles may break the game; the same maker rebuilds."""
    game = stacked_game(4, {1: "R5 R5 K11 K11 B1 B1"}, ready=False)
    maker, first, dealt = game.maker, game.first_seat, [r[:] for r in game.racks]
    play(game, "P1: ready", "P2: reshuffle")
    assert game.phase is Phase.PREPLAY
    assert (game.maker, game.first_seat, game.deal_number) == (maker, first, 0)
    assert game.to_move == first and preplay(game).index == 0
    assert len(game.walls_used) == 2 and game.results == []
    assert [r[:] for r in game.racks] != dealt
    assert [len(r) for r in game.racks] == [15, 14, 14, 14]
    assert_conserved(game)
    # The rebuilt deal is played as usual.
    while game.phase is Phase.PREPLAY:
        game.apply(Ready())
    assert game.phase is Phase.ROUND1


@pytest.mark.parametrize("dealt", ["R5 R5 K11 K11", "R5 R5 K11 K11 J J"])
def test_rrt05_two_doubles_cannot_reshuffle(dealt: str) -> None:
    """RRT-05 / A-49: with two doubles (jokers never form a double) a reshuffle is illegal."""
    game = stacked_game(4, {1: dealt}, ready=False)
    play(game, "P1: ready")
    err = illegal(game, "reshuffle")
    assert err.rule == "§9.4/A-49"


def test_rrt05_doubles_are_counted_as_dealt_before_a_swap() -> None:
    """RRT-05 / A-49: the three-doubles right is judged on the racks as dealt, before swaps."""
    game = stacked_game(4, {0: "R7 R7", 1: "R5 R5 K11 K11 B1 B1"}, ready=False)
    play(
        game,
        "P1: doubles small",
        "P1: ready",
        "P2: doubles small",
        "P2: swap R5 P1",
        "P1: accept R7",
    )
    assert rack(game, 1).count("R5") == 1 and "R7" in rack(game, 1)
    play(game, "P2: reshuffle")
    assert game.phase is Phase.PREPLAY and preplay(game).index == 0


# ------------------------------------------------------------------ RRT-07


def test_rrt07_formations_validated_by_meld_actions() -> None:
    """RRT-07 / §9.7, A-64, A-66: 1 low or high, never inside; 1..13-1; sets; jokers."""
    game = stacked_game(
        4,
        {0: "R1 R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K9", 1: "B7 B7 R7 Y7 R5 J J"},
        stock="K2 K5 K8 Y4 Y6",
    )
    play(game, "P1: discard K9")
    pass_turns(game, 3)
    play(game, "P1: draw")
    assert game.can(act("meld [R12 R13 R1]"))
    assert illegal(game, "meld [R13 R1 R2]").rule == "§9.7"
    assert game.can(act("meld [R1 R2 R3]"))
    full = "meld [R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1]"
    assert game.can(act(full))
    # Laying the complete run is a legal opening and, keeping only the drawn Y4, a close.
    closing = game.copy()
    play(closing, full)
    assert table(closing) == ["[R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1]"]
    assert closing.table[0].positions == tuple(range(1, 15))
    play(closing, "discard Y4")
    result = closing.results[-1]
    assert (result.end, result.closer) == ("close", 0)
    assert result.scores == (130 + 50, -100, -100, -100)
    # P2's formations.
    play(game, "P1: discard Y4", "P2: draw")
    assert game.can(act("meld [B7 R7 Y7]"))
    assert illegal(game, "meld [B7 B7 R7]").rule == "§9.7"
    assert game.can(act("meld [R5 J J]"))
    assert game.can(act("meld [R5 J(R6) J(R7)]"))
    assert game.can(act("meld [R5 J(B5) J(Y5)]"))


# ------------------------------------------------------------------ RRT-09

OPENINGS = {
    "a": ("meld [Y3 Y4 Y5]", "meld [R10 B10 K10]"),
    "b": ("meld [R10 B10 K10]", "meld [R11 B11 Y11]"),
    "c": ("meld [R1 B1 K1]",),
    "d": ("meld [R1 B1 K1]", "meld [R9 B9 Y9]"),
    "e": ("meld [R9 R10 R11 R12 R13]",),
}


def _p2_round2(
    melds: tuple[str, ...], options: dict[str, str] | None = None, extra: str = ""
) -> Game:
    """Round 2, P2 (unopened) has drawn K5 and laid ``melds``."""
    tiles = " ".join(m.removeprefix("meld [").removesuffix("]") for m in melds)
    game = stacked_game(4, {1: f"{tiles} {extra}"}, stock="- - - - K5", options=options)
    pass_turns(game, 5)  # round 1, then P1's round-2 turn
    play(game, "P2: draw", *melds)
    return game


@pytest.mark.parametrize(
    ("case", "structure", "legal"),
    [
        ("a", "run_or_ones_set", True),
        ("b", "run_or_ones_set", False),
        ("c", "run_or_ones_set", True),
        ("d", "run_or_ones_set", False),
        ("e", "run_or_ones_set", True),
        ("a", "run_and_set", True),
        ("b", "run_and_set", False),
        ("c", "run_and_set", False),
        ("d", "run_and_set", False),
        ("e", "run_and_set", False),
    ],
)
def test_rrt09_openings(case: str, structure: str, legal: bool) -> None:
    """RRT-09 / §9.8, A-45, A-46: 45 points with a run, or a lone set of 1s (RO default);
    with ``run_and_set`` a run and a set (no 1s exception).  Checked when P2 discards."""
    game = _p2_round2(OPENINGS[case], {"opening_structure": structure})
    if legal:
        play(game, "P2: discard K5")
        assert game.opened[1]
        assert [f.owner for f in game.table] == [1] * len(OPENINGS[case])
    else:
        err = illegal(game, "discard K5")
        assert err.rule.startswith("§9.8")
        assert not game.opened[1]
        # The laid formations are taken back by a reset; the drawn tile stays.
        play(game, "reset")
        assert game.table == [] and len(game.racks[1]) == 15
        play(game, "P2: discard K5")
        assert not game.opened[1]


def test_rrt09_points() -> None:
    """RRT-09 / §9.8: the opening points of (a) 15+30, (c) 75 and (e) 5+10+10+10+10."""
    for case, points in (("a", 45), ("c", 75), ("e", 45)):
        game = _p2_round2(OPENINGS[case])
        assert game.turn.laid_points == points


def test_rrt09_40_points_is_not_enough() -> None:
    """§9.8: fewer than 45 opening points do not open, even with a run."""
    game = _p2_round2(("meld [Y2 Y3 Y4 Y5 Y6]", "meld [R9 B9 K9]"), extra="Y7")
    assert game.turn.laid_points == 25 + 15
    assert illegal(game, "discard K5").rule == "§9.8"
    play(game, "reset", "meld [Y2 Y3 Y4 Y5 Y6 Y7]", "meld [R9 B9 K9]", "discard K5")
    assert game.opened[1]


# ------------------------------------------------------------------ RRT-11


def test_rrt11_nothing_is_taken_or_laid_in_round_1() -> None:
    """RRT-11 / §9.5, A-67: in round 1 the dead tile cannot be taken, nobody lays out,
    and nobody takes a round-1 discard."""
    game = stacked_game(4, {0: "R2", 1: "Y3 Y4 Y5 R10 B10 K10 K7", 2: "K8 K9"})
    play(game, "P1: discard R2")
    assert column(game) == ["R2"]
    assert illegal(game, "take 0").rule in ("§9.5(3)", "§9.5(1)")
    play(game, "P2: draw")
    assert illegal(game, "meld [Y3 Y4 Y5]").rule == "§9.5(3)"
    play(game, "P2: discard K7")
    assert illegal(game, "take 1").rule == "§9.5(3)"
    assert illegal(game, "take 1").rule == "§9.5(3)"


# ------------------------------------------------------------------ RRT-12 / RRT-13


def _rrt12(options: dict[str, object] | None = None) -> Game:
    """Round 2, column [dead R2, K7, B11, Y9], P3 (unopened) to move.

    P1 and P2 keep the column at four tiles by playing on the board (declared in
    round 1) and taking its last tile: P1 takes P4's K6 and discards K5, P2 takes K5
    and discards Y9.
    """
    game = stacked_game(
        4,
        {0: "R2 K5", 1: "K7 Y9", 2: "B11 Y7 Y8 R12 B12 K12", 3: "K6"},
        options=options,
    )
    play(
        game,
        "P1: board",
        "P1: discard R2",
        "P2: board",
        "P2: draw",
        "P2: discard K7",
        "P3: draw",
        "P3: discard B11",
        "P4: draw",
        "P4: discard K6",
    )
    play(game, "P1: take 3", "P1: discard K5", "P2: take 3", "P2: discard Y9")
    assert column(game) == ["R2", "K7", "B11", "Y9"]
    assert game.to_move == 2 and game.round == 2 and game.turns_taken[2] == 2
    return game


def test_rrt12_take_last_tile_and_open_with_it() -> None:
    """RRT-12 / §9.6(b): the last tile, used in a new formation, counts toward 45."""
    game = _rrt12()
    play(game, "P3: take 3")
    assert column(game) == ["R2", "K7", "B11"]
    play(game, "meld [Y7 Y8 Y9]", "meld [R12 B12 K12]")
    assert game.turn.laid_points == 45
    discard = rack(game, 2)[0]
    play(game, f"discard {discard}")
    assert column(game) == ["R2", "K7", "B11", discard]
    assert game.opened[2] and table(game) == ["[Y7 Y8 Y9]", "[R12 B12 K12]"]
    assert [f.owner for f in game.table] == [2, 2]
    assert len(game.racks[2]) == 14 + 1 - 6 - 1


def test_rrt13a_taken_tile_unused_without_board_is_illegal() -> None:
    """RRT-13(a) / §9.6(b), A-51: the last tile must go into a new formation this turn."""
    game = _rrt12()
    play(game, "P3: take 3")
    err = illegal(game, "discard K12")
    assert err.rule == "§9.6(b)/(c)"
    # Laying a formation without the taken tile does not help.
    play(game, "meld [R12 B12 K12]")
    assert illegal(game, "discard Y8").rule == "§9.6(b)/(c)"


@pytest.mark.parametrize("board_first", [False, True])
def test_rrt13b_taken_tile_kept_by_declaring_board(board_first: bool) -> None:
    """RRT-13(b) / §9.6(b), §9.13: keeping the last tile forces a board declaration."""
    game = _rrt12()
    play(game, *(("P3: board", "P3: take 3") if board_first else ("P3: take 3", "P3: board")))
    play(game, "discard K12")
    assert on_board(game)[2] and not game.opened[2]
    assert "Y9" in rack(game, 2)
    assert column(game) == ["R2", "K7", "B11", "K12"]


def test_rrt13_board_window_closed_keeps_the_last_tile_out() -> None:
    """A-52: after the declaration window a player may not keep the last tile unused."""
    game = _rrt12({"board_declare_within_turns": 1})
    play(game, "P3: take 3")
    assert illegal(game, "board").rule == "§9.13/A-62"
    assert illegal(game, "discard K12").rule == "§9.6(b)/(c)"


# ------------------------------------------------------------------ RRT-15


def _rrt15() -> Game:
    """P1 opened (own [R7 R8 R9] is m1), announced, rack R4 R5; stock top R6; column ends K10."""
    game = stacked_game(
        4,
        {0: "K9 R7 R8 R9 K11 K12 K13 B2 B3 B4 Y2 Y3 Y4 R4 R5", 3: "K10"},
        stock="- - - - - - - - - - - R6",
    )
    play(game, "P1: discard K9")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [R7 R8 R9]", "meld [K11 K12 K13]", f"discard {drawn}")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [B2 B3 B4]", "meld [Y2 Y3 Y4]", "three", f"discard {drawn}")
    pass_turns(game, 2)
    pass_turn(game, "K10")
    assert rack(game, 0) == ["R4", "R5"] and three(game).announced[0] and game.opened[0]
    assert table(game)[0] == "[R7 R8 R9]" and column(game)[-1] == "K10"
    assert str(game.faces[game.stock[-1]]) == "R6" and game.to_move == 0
    return game


def test_rrt15a_two_tiles_only_draw() -> None:
    """RRT-15(a) / §9.6(1): with 1 or 2 tiles only the stock may be drawn."""
    game = _rrt15()
    last = len(game.column) - 1
    assert illegal(game, f"take {last}").rule == "§9.6(1)"


def test_rrt15b_no_new_formation_with_two_tiles() -> None:
    """RRT-15(b) / §9.6: a new formation would leave no tile to discard."""
    game = _rrt15()
    play(game, "draw")
    assert illegal(game, "meld [R4 R5 R6]").rule == "§9.6/§9.11"


def test_rrt15c_attach_and_discard() -> None:
    """RRT-15(c) / §9.6: draw R6, attach it to own [R7 R8 R9], discard R4."""
    game = _rrt15()
    play(game, "draw", "attach R6 -> m1", "discard R4")
    assert rack(game, 0) == ["R5"]
    assert table(game)[0] == "[R6 R7 R8 R9]"
    assert game.phase is Phase.TURNS and not three(game).violation[0]


def test_rrt15d_attach_twice_and_close() -> None:
    """RRT-15(d) / §9.11, §9.12: attaching R6 then R5 leaves R4, whose discard closes."""
    game = _rrt15()
    play(game, "draw", "attach R6 -> m1", "attach R5 -> m1", "discard R4")
    assert table(game)[0] == "[R5 R6 R7 R8 R9]"
    result = game.results[-1]
    assert (result.end, result.closer, result.closing_face) == ("close", 0, "R4")
    # 25 + 30 + 15 + 15 on the table, +50 for closing; the others never opened.
    assert result.scores == (85 + 50, -100, -100, -100)
    assert game.phase is Phase.DEAL_END


# ------------------------------------------------------------------ RRT-17


def _rrt17() -> Game:
    """P2 owns m1 [K11 J(K12) K13 K1] and m2; P3 opened (m3, m4) and holds K12 Y5 Y6."""
    game = stacked_game(
        4,
        {
            1: "K11 J K13 K1 R2 R3 R4 B2 B5 Y8 Y11 R6 R9 K7",
            2: "K12 Y5 Y6 B9 B10 B11 B12 R3 Y3 K3 R8 Y9 B6 K5",
            3: "Y7",
        },
    )
    pass_turns(game, 5)
    drawn = draw(game)
    play(game, "meld [K11 J(K12) K13 K1]", "meld [R2 R3 R4]", f"discard {drawn}")
    drawn = draw(game)
    play(game, "meld [B9 B10 B11 B12]", "meld [R3 Y3 K3]", f"discard {drawn}")
    pass_turns(game, 3)
    assert game.to_move == 2 and game.opened[1] and game.opened[2]
    game.drawn = draw(game)  # type: ignore[attr-defined]
    return game


def test_rrt17_exchange_lock_and_credit() -> None:
    """RRT-17 / §9.10, A-54: P3 frees P2's joker with K12 and uses it; the joker is
    locked; at scoring its 50 stay with P2, K12 and Y5 Y6 count for P3."""
    game = _rrt17()
    joker = next(p for p in game.table[0].pieces if game.faces[p].is_joker)
    play(game, "exchange K12 -> m1")
    assert table(game)[0] == "[K11 K12 K13 K1]"
    assert joker in game.racks[2] and joker in game.locked
    play(game, "meld [Y5 Y6 J(Y7)]", f"discard {game.drawn}")  # type: ignore[attr-defined]
    assert table(game)[4] == "[Y5 Y6 J(Y7)]"
    # P4 cannot exchange the locked joker.
    drawn = draw(game)
    err = illegal(game, "exchange Y7 -> m5")
    assert err.rule == "§9.10" and "once" in err.reason
    play(game, f"discard {drawn}")
    run_out(game)
    result = game.results[-1]
    assert result.end == "exhaustion" and result.closer is None
    assert game.credit[joker] == 1
    k12 = next(p for p in game.table[0].pieces if str(game.faces[p]) == "K12")
    assert game.credit[k12] == 2
    # P2: K11 J K13 K1 (10+50+10+25) + R2 R3 R4 (15); rack B2 B5 Y8 Y11 R6 R9 K7 (40).
    # P3: B9..B12 (35) + R3 Y3 K3 (15) + K12 (10) + Y5 Y6 (10); rack R8 Y9 B6 K5 (20).
    assert result.table_values == (0, 110, 70, 0)
    assert result.rack_values[1:3] == (40, 20)
    assert result.scores == (-100, 70, 50, -100)


def test_rrt17_freed_joker_must_be_used() -> None:
    """RRT-17 / §9.10: taking the joker without using it this turn is illegal."""
    game = _rrt17()
    play(game, "exchange K12 -> m1")
    err = illegal(game, "discard R8")
    assert err.rule == "§9.10"
    # Not onto another player's formation (§9.6(2)); onto an own one it is used too.
    assert illegal(game, "attach J(R5) -> m2").rule == "§9.6(2)"
    play(game, "attach J(B13) -> m3")
    assert table(game)[2] == "[B9 B10 B11 B12 J(B13)]"
    play(game, "discard R8")
    assert game.to_move == 3


# ------------------------------------------------------------------ RRT-19


def test_rrt19_joker_attaches_only_to_own_formations() -> None:
    """RRT-19 / §9.6(2): a joker goes only onto the attacher's own formations."""
    game = stacked_game(
        4,
        {0: "K9 Y9 Y10 Y11 R11 R12 R13 J", 1: "B3 B4 B5 K10 K11 K12"},
    )
    play(game, "P1: discard K9")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [Y9 Y10 Y11]", "meld [R11 R12 R13]", f"discard {drawn}")
    drawn = draw(game)
    play(game, "meld [B3 B4 B5]", "meld [K10 K11 K12]", f"discard {drawn}")
    pass_turns(game, 2)
    play(game, "P1: draw")
    for text in ("attach J -> m3", "attach J(B6) -> m3", "attach J(B2) -> m3"):
        assert illegal(game, text).rule == "§9.6(2)"
    play(game, "attach J(Y12) -> m1")
    assert table(game)[0] == "[Y9 Y10 Y11 J(Y12)]"
    assert game.credit[game.table[0].pieces[-1]] == 0


# ------------------------------------------------------------------ RRT-20 / 21 / 23


def _value(text: str) -> int:
    return sum(score_value(f) for f in faces(text))


def _outcome(**kw: object) -> SeatOutcome:
    base: dict[str, object] = {
        "opened": True,
        "board": False,
        "three_violation": False,
        "atu": False,
        "closed": False,
        "table_value": 0,
        "rack_value": 0,
    }
    base.update(kw)
    return SeatOutcome(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("closing", "double_game", "p3_atu", "expected"),
    [
        ("R8", False, False, (130, 25, -100)),  # RRT-20
        ("R8", False, True, (130, 25, -50)),  # RRT-20, P3 announced atu
        ("R1", False, False, (260, 25, -100)),  # RRT-21(a)
        ("J", True, False, (520, 50, -200)),  # RRT-21(b)
    ],
)
def test_rrt20_21_scoring(
    closing: str, double_game: bool, p3_atu: bool, expected: tuple[int, ...]
) -> None:
    """RRT-20/21 / §9.12: the scenario's exact numbers through the variant's scorer.

    (No legal deal ends with these racks — P2 dealt 14 tiles cannot keep only 3 after
    laying 6 — so the played versions below use reachable racks.)"""
    options = REMI_RO.resolve(3)
    p1 = _value("R3 R4 R5 B10 Y10 K10 K11 K12 K13 Y9")
    p2 = _value("Y6 Y7 Y8 R1 B1 K1")
    assert (p1, p2, _value("J B12 Y4")) == (80, 90, 65)
    outcomes = [
        _outcome(closed=True, table_value=p1),
        _outcome(table_value=p2, rack_value=_value("J B12 Y4")),
        _outcome(opened=False, atu=p3_atu, rack_value=_value("R2 R3 K9 K10")),
    ]
    assert score_deal(outcomes, double_game, faces(closing)[0], options) == expected


@pytest.mark.parametrize("double_game", [False, True])
def test_rrt23_scoring(double_game: bool) -> None:
    """RRT-23 / §9.11, §9.12, A-58: exhaustion: 80 − 15 = 65, unopened −100 (×2 doubled)."""
    outcomes = [
        _outcome(table_value=80, rack_value=_value("R2 K13")),
        _outcome(opened=False, rack_value=_value("K5 K6")),
    ]
    expected = (130, -200) if double_game else (65, -100)
    assert score_deal(outcomes, double_game, None, REMI_RO.resolve(2)) == expected


@pytest.mark.parametrize(
    ("indicator", "closing", "p3", "expected"),
    [
        ("Y6", "R8", "", (150, -10, -100)),
        ("R7", "R8", "R7", (150, -10, -50)),  # P3 holds the indicator's twin: atu
        ("Y6", "R1", "", (300, -10, -100)),  # closing with a 1
        ("Y1", "J", "", (600, -20, -200)),  # double game, closing with a joker
    ],
)
def test_rrt20_21_played_close(
    indicator: str, closing: str, p3: str, expected: tuple[int, ...]
) -> None:
    """RRT-20/21 played (3 players): P1 opens with [R3 R4 R5] [B10 Y10 K10] [K11 K12 K13],
    then attaches Y9 to P2's [Y6 Y7 Y8] and R6 to his run, lays [B5 B6 B7] and closes.

    P1: 20 + 30 + 30 + 5 + 15 + 50 = 150.  P2: [Y6 Y7 Y8] 15 + [R1 B1 K1] 75 minus the
    rack J B12 Y4 R9 B2 Y11 K6 R13 (100) = −10.  P3 never opened: −100 (−50 with atu).
    """
    game = stacked_game(
        3,
        {
            0: f"K9 R3 R4 R5 B10 Y10 K10 K11 K12 K13 Y9 B5 B6 B7 {closing}",
            1: "Y6 Y7 Y8 R1 B1 K1 J B12 Y4 R9 B2 Y11 K6 R13",
            2: p3,
        },
        stock="- - - - - R6",
        indicator=indicator,
        ready=False,
    )
    play(game, "P1: ready", "P2: ready", *(["P3: atu"] if p3 else []), "P3: ready")
    play(game, "P1: discard K9")
    pass_turns(game, 2)
    drawn = draw(game)
    play(game, "meld [R3 R4 R5]", "meld [B10 Y10 K10]", "meld [K11 K12 K13]", f"discard {drawn}")
    drawn = draw(game)
    play(game, "meld [Y6 Y7 Y8]", "meld [R1 B1 K1]", f"discard {drawn}")
    pass_turn(game)
    play(game, "P1: draw", "attach Y9 -> m4", "attach R6 -> m1", "meld [B5 B6 B7]")
    assert rack(game, 0) == [closing]
    play(game, f"discard {closing}")
    result = game.results[-1]
    assert (result.end, result.closer, result.closing_face) == ("close", 0, closing)
    assert result.double_game is (indicator == "Y1")
    assert result.table_values == (100, 90, 0)
    assert result.scores == expected
    assert tuple(game.totals) == expected


@pytest.mark.parametrize(("indicator", "expected"), [("K4", (65, -100)), ("Y1", (130, -200))])
def test_rrt23_played_exhaustion(indicator: str, expected: tuple[int, int]) -> None:
    """RRT-23 played (4 players): P1 opens by taking P4's R12, lays 80 in all and keeps
    R2 K13 (announced); nobody else opens; P3 draws the last stock tile and does not close."""
    game = stacked_game(
        4,
        {0: "K9 R10 R11 B7 B8 B9 Y8 Y9 Y10 K3 K4 K5 R2 K13 R5", 3: "R12"},
        indicator=indicator,
    )
    play(game, "P1: discard K9")
    pass_turns(game, 2)
    pass_turn(game, "R12")
    play(game, "P1: take 3", "meld [R10 R11 R12]", "meld [B7 B8 B9]", "discard R5")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [Y8 Y9 Y10]", "meld [K3 K4 K5]", "three", f"discard {drawn}")
    assert rack(game, 0) == ["R2", "K13"]
    while game.phase is Phase.TURNS:
        mover = game.to_move
        pass_turn(game)
    assert mover == 2 and game.stock == []
    result = game.results[-1]
    assert (result.end, result.closer) == ("exhaustion", None)
    assert result.table_values[0] == 80 and result.rack_values[0] == 15
    assert result.scores == (expected[0], expected[1], expected[1], expected[1])


# ------------------------------------------------------------------ RRT-25

CONTRACTS = [
    # (14 contract tiles, the one drawn in round 2, the junk closing tile, contract, value)
    ("R5 B5 Y5 K5 R9 B9 Y9 K9 R12 B12 Y12 B2 Y2", "K2", "R7", "bete", 700),
    ("R3 R3 B7 B7 Y11 Y11 K1 K1 R13 R13 B5 B5 Y9", "Y9", "K6", "doubles", 1300),
    ("R1 R2 R3 R4 R5 R6 R7 B8 B9 B10 B11 B12 B13", "B1", "K5", "bicolour", 1200),
    ("R3 R3 B7 B7 Y11 Y11 K1 K1 R13 R13 B5 B5 Y9", "Y9", "J", "doubles", 2600),
    ("R5 B5 Y5 K5 R9 B9 Y9 K9 R12 B12 Y12 B2 Y2", "K2", "R1", "bete", 1400),
]


@pytest.mark.parametrize(("tiles", "drawn", "junk", "contract", "score"), CONTRACTS)
def test_rrt25_board_player_closes_with_a_contract(
    tiles: str, drawn: str, junk: str, contract: str, score: int
) -> None:
    """RRT-25 / §9.13, A-61: P2 declares board in his first turn, draws the 15th tile in
    round 2 and closes; the best contract is scored (×2 when closing with a 1 or joker)."""
    game = stacked_game(4, {1: f"{tiles} {junk}"}, stock=f"- - - - {drawn}")
    pass_turn(game)
    play(game, "P2: board")
    pass_turns(game, 4)
    play(game, "P2: draw")
    assert game.can(act(f"close {junk}"))
    play(game, f"P2: close {junk}")
    result = game.results[-1]
    assert (result.end, result.closer, result.contract) == ("board", 1, contract)
    assert result.closing_face == junk
    assert result.scores == (-100, score, -100, -100)


def test_rrt25_close_needs_a_contract() -> None:
    """§9.13: the other 14 tiles must form a contract; a non-board player cannot close."""
    game = stacked_game(4, {1: "R5 B5 Y5 K5 R9 B9 Y9 K9 R12 B12 Y12 B2 Y2 R7"}, stock="K6 - - - K2")
    pass_turn(game)
    play(game, "P2: draw")
    assert illegal(game, "close R7").rule == "§9.13"  # not a board player
    play(game, "board")
    assert illegal(game, "close R7").rule == "§9.13"  # K6 spoils every contract
    play(game, "discard K6")
    pass_turns(game, 3)
    play(game, "P2: draw")
    assert illegal(game, "close K2").rule == "§9.13"  # the other 14 form no contract
    assert game.can(act("close R7"))


# ------------------------------------------------------------------ RRT-27


def test_rrt27_board_player_restrictions_and_failure() -> None:
    """RRT-27 / §9.13: a board player never attaches, exchanges or takes from the middle;
    when another player closes he scores −100."""
    game = stacked_game(
        4,
        {0: "K9 R10 J R12 B5 B6 B7 Y2 Y3 Y4 K7 K8 K9 R13 B8", 1: "R11 R9 B4 R10"},
        stock="- - - - - - - - - - - Y12",
    )
    play(game, "P1: discard K9", "P2: board")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [R10 J(R11) R12]", "meld [B5 B6 B7]", f"discard {drawn}")
    assert illegal(game, "take 2").rule == "§9.13"  # a middle tile
    play(game, "P2: draw")
    assert illegal(game, "attach R9 -> m1").rule == "§9.13"
    assert illegal(game, "attach B4 -> m2").rule == "§9.13"
    assert illegal(game, "exchange R11 -> m1").rule == "§9.13"
    assert illegal(game, "meld [R9 R10 R11]").rule == "§9.13"
    play(game, "discard B4")
    pass_turns(game, 2)
    drawn = draw(game)
    play(game, "meld [Y2 Y3 Y4]", "meld [K7 K8 K9]", "three", f"discard {drawn}")
    pass_turns(game, 3)
    play(game, "P1: draw", "attach R13 -> m1", "attach B8 -> m2", "discard Y12")
    result = game.results[-1]
    assert (result.end, result.closer) == ("close", 0)
    # P1: J 50 + R10 R12 R13 30 + B5..B8 20 + Y2 Y3 Y4 15 + K7 K8 K9 15, +50.
    assert result.scores == (130 + 50, -100, -100, -100)
    assert on_board(game)[1] and not result.opened[1]


# ------------------------------------------------------------------ RRT-29


def _rrt29() -> Game:
    """3 players.  P1 opened with [R1 B1 K1] in round 2 and holds 11 tiles; in round 4
    the column is [dead, Y9 (P2's round-1 discard), 7 more tiles]."""
    game = stacked_game(
        3,
        {0: "K9 R1 B1 K1 Y7 Y8 K2 K3 K4 R5 R8 B11 B13 Y12 R10", 1: "Y9"},
    )
    play(game, "P1: discard K9")
    pass_turn(game, "Y9")
    pass_turn(game)
    drawn = draw(game)
    play(game, "meld [R1 B1 K1]", f"discard {drawn}")
    pass_turns(game, 5)
    assert len(game.racks[0]) == 11 and game.to_move == 0
    assert column(game)[1] == "Y9" and len(game.column) == 9
    play(game, "P1: take 1")
    assert len(game.racks[0]) == 19
    play(game, "meld [Y7 Y8 Y9]")
    return game


def test_rrt29_rack_cap_after_a_middle_take() -> None:
    """RRT-29 / §9.6, A-50: 19 tiles after the take, 16 after one formation: the discard
    would leave 15 > 14, so it is rejected; one more formation makes it legal (12)."""
    game = _rrt29()
    assert len(game.racks[0]) == 16
    err = illegal(game, "discard R5")
    assert err.rule == "§9.6/A-50"
    play(game, "meld [K2 K3 K4]", "discard R5")
    assert len(game.racks[0]) == 12
    assert column(game) == ["K9", "R5"]


def test_rrt29_the_error_is_raised_by_the_engine() -> None:
    """The rejected discard raises IllegalActionError naming the action, rule and state."""
    game = _rrt29()
    with pytest.raises(IllegalActionError) as info:
        game.apply(act("discard R5"))
    text = str(info.value)
    assert "discard R5" in text and "§9.6/A-50" in text and "P1 to move" in text


def test_the_deal_result_names_who_did_not_announce_three() -> None:
    """§9.11/A-56 on the score sheet (issue 13 §4): the deal result says which seat
    bears the "three" penalty, so a sheet can name it."""
    game = stacked_game(
        4,
        {0: "K9 R7 R8 R9 K11 K12 K13 B2 B3 B4 Y2 Y3 Y4 R4 R5", 3: "K10"},
        stock="- - - - - - - - - - - R6",
    )
    play(game, "P1: discard K9")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [R7 R8 R9]", "meld [K11 K12 K13]", f"discard {drawn}")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [B2 B3 B4]", "meld [Y2 Y3 Y4]", f"discard {drawn}")  # no "three"
    pass_turns(game, 2)
    pass_turn(game, "K10")
    play(game, "draw", "attach R6 -> m1", "attach R5 -> m1", "discard R4")
    result = game.results[-1]
    assert result.three_penalty == (True, False, False, False)
    assert result.to_json()["three_penalty"] == [True, False, False, False]
    assert result.scores[0] < 0  # the penalty replaces the closer's score


def test_a_deal_without_a_three_penalty_does_not_list_one() -> None:
    game = _rrt15()
    play(game, "draw", "attach R6 -> m1", "attach R5 -> m1", "discard R4")
    assert not any(game.results[-1].three_penalty)
    assert "three_penalty" not in game.results[-1].to_json()
