# mypy: disable-error-code="comparison-overlap"
# (a phase asserted, an action applied, the phase asserted again: mypy keeps the first
# narrowing across the call that changes it.)
"""RULES §12.8 (RMD-nn) scenarios of "Remmi" as described in German, played through the engine.

Every position is reached by legal play from a stacked wall (tests/remmi_de_support.py):
seat 0 is P1, the first player (left of the dealer), and the other seats follow in play
order.
"""

from __future__ import annotations

import pytest

from kit import assert_conserved, column, draw, illegal, pass_turn, pass_turns, play, rack, table
from remmi_de_support import act, stacked_game
from rummykit.engine import Game
from rummykit.engine.actions import CloseBoard, Ready
from rummykit.engine.game import Phase
from rummykit.model.pieces import Face, Material
from rummykit.rules.meldcheck import check_meld
from rummykit.rules.remmi_de import REMMI_DE, build_wall, score_deal
from rummykit.rules.tiles import TILES_106
from rummykit.rules.variant import SeatOutcome


def spare(game: Game, seat: int, keep: str = "") -> str:
    """A tile of ``seat``'s rack outside ``keep`` (a filler to discard)."""
    kept = keep.split()
    return next(t for t in rack(game, seat) if t not in kept)


# ------------------------------------------------------------------ RMD-01


def _wall_with_indicator(token: str) -> list[int]:
    indicator = TILES_106.pieces_of(Face.parse(token, Material.TILES))[0]
    return [p for p in range(len(TILES_106)) if p != indicator] + [indicator]


def test_rmd01_setup_with_extra_tile_r4() -> None:
    """RMD-01 / §10.2: stack 4's top tile goes onto stack 5, which the dealer's left
    neighbour receives first; 15 tiles for him, 14 for the others; the rest is the stock,
    ending with stack 4 under the face-up extra tile."""
    order = _wall_with_indicator("R4")
    stacks = [order[7 * i : 7 * i + 7] for i in range(15)]
    options = REMMI_DE.resolve(4)
    layout = build_wall(order, 4, 3, options)
    # clockwise, so the dealer's (seat 3) left neighbour is the next seat, 0.
    assert layout.first_seat == 0
    assert list(layout.racks[0]) == [*stacks[4], stacks[3][-1], *stacks[8]]
    assert [list(r) for r in layout.racks[1:]] == [
        [*stacks[5], *stacks[9]],
        [*stacks[6], *stacks[10]],
        [*stacks[7], *stacks[11]],
    ]
    assert [len(r) for r in layout.racks] == [15, 14, 14, 14]
    assert len(layout.stock) == 49
    # Stacks 13, 14, 15, 1, 2, 3, then 4: the extra tile is the first of the last stack.
    assert list(layout.stock[:7]) == stacks[12][::-1]
    assert layout.stock[42] == order[-1]
    assert list(layout.stock[43:]) == stacks[3][:-1][::-1]
    assert layout.indicator == order[-1]
    assert not layout.double_game


@pytest.mark.parametrize("indicator", ["R4", "Y1", "J"])
def test_rmd01_no_double_game_and_no_atu(indicator: str) -> None:
    """RMD-01 / §10.2(5): no double game and no atu, even for an extra tile Y1 or J whose
    twin a player holds."""
    twin = "J" if indicator == "J" else indicator
    game = stacked_game(4, {1: twin}, indicator=indicator, ready=False)
    assert game.double_game is False and game.indicator is not None
    assert str(game.faces[game.indicator]) == indicator
    play(game, "P1: ready")
    assert illegal(game, "atu").rule == "§9.4"
    assert "atu" not in [str(a) for a in game.legal_actions()]


def test_rmd01_first_player_gets_the_8_tile_stack_through_the_engine() -> None:
    """RMD-01 / §10.1-10.3: in a game the first player holds 15 tiles and starts by
    discarding, without drawing."""
    game = stacked_game(4)
    assert game.first_seat == 0 and game.maker == 3
    assert [len(r) for r in game.racks] == [15, 14, 14, 14]
    assert len(game.stock) == 49
    assert game.phase is Phase.TURNS and game.turn.acquired == "none"
    assert illegal(game, "draw").rule == "§10.3"


# ------------------------------------------------------------------ RMD-03


def test_rmd03_open_then_attach_to_another_players_run_in_the_same_turn() -> None:
    """RMD-03 / §10.5 example, §10.3(3): 39 + 21 = 60 opens, and the same turn may attach
    K4, K3 and K8 to P1's run."""
    game = stacked_game(
        4,
        {0: "K5 K6 K7 R13 B13 Y13 Y5", 3: "B12 B13 B1 R7 B7 K7 K3 K4 K8"},
    )
    # P1 opens in his discard-only first turn: 18 + 39 = 57.
    play(game, "P1: meld [K5 K6 K7]", "P1: meld [R13 B13 Y13]", "P1: discard Y5")
    assert game.opened[0]
    pass_turns(game, 2)
    drawn = draw(game)
    assert game.to_move == 3 and not game.opened[3]
    # Not before his own formations (§10.3(3)).
    assert illegal(game, "attach K4 -> m1").rule == "§10.3(3)"
    play(game, "P4: meld [B12 B13 B1]", "P4: meld [R7 B7 K7]")
    assert game.turn.laid_points == 39 + 21
    play(game, "P4: attach K4 -> m1", "P4: attach K3 -> m1", "P4: attach K8 -> m1")
    play(game, f"P4: discard {drawn}")
    assert table(game)[0] == "[K3 K4 K5 K6 K7 K8]"
    assert game.opened[3] and len(game.racks[3]) == 14 - 9
    assert_conserved(game)


# ------------------------------------------------------------------ RMD-05


def test_rmd05_a_run_alone_is_no_opening() -> None:
    """RMD-05 / §10.5: [R9 R10 R11 R12 R13] is 55 points but has no Kunst."""
    game = stacked_game(4, {1: "R9 R10 R11 R12 R13"})
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [R9 R10 R11 R12 R13]")
    assert game.turn.laid_points == 55
    err = illegal(game, f"discard {drawn}")
    assert "§10.5" in err.rule and "run and a set" in str(err)
    # Without the opening formation the turn is an ordinary one.
    play(game, "reset", f"discard {drawn}")
    assert not game.opened[1]


# ------------------------------------------------------------------ RMD-07


def test_rmd07_jokers_never_outnumber_numbered_tiles() -> None:
    """RMD-07 / §10.4: [R1 J J] illegal; [R5 R6 J J] and [B9 Y9 J] legal."""
    game = stacked_game(4, {0: "R1 R5 R6 B9 Y9 J J"})
    assert illegal(game, "meld [R1 J J]").rule == "§10.4"
    assert game.can(act("meld [R5 R6 J J]"))
    assert game.can(act("meld [B9 Y9 J]"))
    verdicts = [
        check_meld(REMMI_DE, [Face.parse(t, Material.TILES) for t in text.split()])
        for text in ("R1 J J", "R5 R6 J J", "B9 Y9 J")
    ]
    assert [v.valid for v in verdicts] == [False, True, True]
    assert verdicts[0].reason == "jokers may not outnumber the natural pieces"


# ------------------------------------------------------------------ RMD-09


def _rmd09() -> Game:
    game = stacked_game(4, {0: "B8", 1: "B6 B7 R10 Y10 K10 R9 Y9 K9 Y11 Y12 Y13"})
    play(game, "P1: discard B8")
    assert column(game) == ["B8"]
    return game


def test_rmd09a_unopened_takes_the_predecessors_tile_to_open_with_it() -> None:
    """RMD-09(a) / §10.3(1): B8 taken, [B6 B7 B8] + [R10 Y10 K10] = 21 + 30 = 51 opens."""
    game = _rmd09()
    play(game, "P2: take 0", "P2: meld [B6 B7 B8]", "P2: meld [R10 Y10 K10]")
    assert game.turn.laid_points == 51
    play(game, "P2: discard Y13")
    assert game.opened[1] and len(game.racks[1]) == 14 - 6
    assert column(game) == ["Y13"]


def test_rmd09b_the_opening_with_the_taken_tile_must_reach_50() -> None:
    """RMD-09(b) / §10.3(1), §10.5: [B6 B7 B8] + [R9 Y9 K9] = 48 is too little."""
    game = _rmd09()
    play(game, "P2: take 0", "P2: meld [B6 B7 B8]", "P2: meld [R9 Y9 K9]")
    assert game.turn.laid_points == 48
    assert "§10.5" in illegal(game, "discard Y13").rule


def test_rmd09_the_taken_tile_must_be_in_the_opening() -> None:
    """§10.3(1): an unopened player takes the tile only to open with it, so keeping it,
    or opening without it ([Y11 Y12 Y13] + [R10 Y10 K10] = 66), is illegal."""
    game = _rmd09()
    play(game, "P2: take 0")
    assert illegal(game, "discard Y13").rule == "§10.3(1)"
    play(game, "P2: meld [Y11 Y12 Y13]", "P2: meld [R10 Y10 K10]")
    assert illegal(game, "discard R9").rule == "§10.3(1)"


# ------------------------------------------------------------------ RMD-11


def _rmd11() -> Game:
    game = stacked_game(
        4,
        {
            0: "R1 K1 J Y11 Y12 Y13",
            1: "B10 B11 B12 R8 Y8 K8 K12 B1 Y1",
            2: "K11 J K13 K1 R9 B9 Y9",
        },
    )
    play(game, "P1: meld [R1 K1 J]", "P1: meld [Y11 Y12 Y13]")
    pass_turn(game)
    play(game, "P2: draw", "P2: meld [B10 B11 B12]", "P2: meld [R8 Y8 K8]")
    play(game, f"P2: discard {spare(game, 1, 'K12 B1 Y1')}")
    play(game, "P3: draw", "P3: meld [K11 J K13 K1]", "P3: meld [R9 B9 Y9]")
    play(game, f"P3: discard {spare(game, 2)}")
    pass_turns(game, 2)
    play(game, "P2: draw")
    assert table(game)[0] == "[R1 K1 J]" and table(game)[4] == "[K11 J(K12) K13 K1]"
    return game


def test_rmd11_joker_exchange_in_a_laufend_and_a_kunst() -> None:
    """RMD-11 / §10.6: K12 frees P3's joker; B1 + Y1 free P1's, B1 alone does not."""
    game = _rmd11()
    assert game.opened[1]
    assert illegal(game, "exchange B1 -> m1").rule == "§10.6"
    play(game, "P2: exchange K12 -> m5", "P2: exchange B1 Y1 -> m1")
    assert table(game)[4] == "[K11 K12 K13 K1]"
    assert sorted(table(game)[0].strip("[]").split()) == ["B1", "K1", "R1", "Y1"]
    assert rack(game, 1).count("J") == 2
    # no obligation to use the jokers in this turn.
    discard = next(t for t in rack(game, 1) if t != "J")
    play(game, f"P2: discard {discard}")
    assert rack(game, 1).count("J") == 2
    assert_conserved(game)


# ------------------------------------------------------------------ RMD-13


def test_rmd13_going_out_needs_a_final_discard() -> None:
    """RMD-13 / §10.7: everything can be laid or attached, but the last tile must be
    discarded; that discard wins the deal."""
    game = stacked_game(
        4,
        {1: "B10 B11 B12 R8 Y8 K8 Y2 Y3 Y4 R5 B5 K5 B13 B9"},
        stock="- - - - B8",
    )
    pass_turn(game)
    play(game, "P2: draw", "P2: meld [B10 B11 B12]", "P2: meld [R8 Y8 K8]")
    play(game, f"P2: discard {spare(game, 1, 'Y2 Y3 Y4 R5 B5 K5 B13 B9')}")
    pass_turns(game, 3)
    assert draw(game) == "B8"
    assert sorted(rack(game, 1)) == sorted(["Y2", "Y3", "Y4", "R5", "B5", "K5", "B13", "B9", "B8"])
    play(game, "P2: meld [Y2 Y3 Y4]", "P2: meld [R5 B5 K5]", "P2: attach B13 -> m1")
    play(game, "P2: attach B8 -> m2")
    assert rack(game, 1) == ["B9"]
    # B9 fits [B10 B11 B12 B13], but the last tile must be discarded.
    assert illegal(game, "attach B9 -> m1").rule == "§10.7"
    play(game, "P2: discard B9")
    result = game.results[-1]
    assert (result.end, result.closer, result.scores[1]) == ("close", 1, 0)
    assert game.phase is Phase.DEAL_END


def test_rmd13_a_last_formation_cannot_empty_the_rack() -> None:
    """RMD-13 / §10.7: laying a formation of the last tiles is illegal too."""
    game = stacked_game(4, {0: "R2 R3 R4 B6 Y6 K6 R10 B10 Y10 K11 K12 K13 Y7 Y8 Y9"})
    play(game, "P1: meld [R2 R3 R4]", "P1: meld [B6 Y6 K6]", "P1: meld [R10 B10 Y10]")
    play(game, "P1: meld [K11 K12 K13]")
    assert illegal(game, "meld [Y7 Y8 Y9]").rule == "§10.7"
    assert "meld [Y7 Y8 Y9]" not in [str(a) for a in game.legal_actions()]


# ------------------------------------------------------------------ RMD-15


def _rmd15(options: dict[str, object] | None = None) -> Game:
    game = stacked_game(
        3,
        {
            0: "R3 R4 R5 R6 R7 R8 R9 K5 B3 B4 B5 B6 B7 B8 Y13",
            1: "R1 B1 Y1 K1 R2 B2 Y2 K2 R3 B3 Y3 K3 R4 Y7",
            2: "R10 B10 Y10 K9 K10 K11 K12 K13 Y11 Y12 Y13 B11 B12 B13",
        },
        stock="- J",
        options={"board_variant": True, **(options or {})},
    )
    play(game, "P1: discard Y13")
    pass_turn(game)
    assert draw(game) == "J"
    return game


def test_rmd15_board_winner_discarding_a_joker_doubles_the_charges() -> None:
    """RMD-15 / §10.10: P3 finishes by discarding J; P1 (80) pays 160, P2 (35) pays 70."""
    game = _rmd15()
    assert CloseBoard(Face.parse("J", Material.TILES)) in game.legal_actions()
    play(game, "P3: close J")
    result = game.results[-1]
    assert (result.end, result.closer, result.closing_face) == ("board", 2, "J")
    assert result.rack_values[:2] == (80, 35)
    assert result.scores == (160, 70, 0)


def test_rmd15_other_closing_tiles_are_not_doubled() -> None:
    """§10.10: only a joker as the final discard doubles; K13 leaves [K9 K10 K11 K12 J]."""
    game = _rmd15()
    play(game, "P3: close K13")
    assert game.results[-1].scores == (80, 35, 0)


def test_rmd15_score_table() -> None:
    """RMD-15 / §10.10 on the scoring hook alone."""
    options = REMMI_DE.resolve(3, {"board_variant": True})

    def seat(rack_value: int, closed: bool = False) -> SeatOutcome:
        return SeatOutcome(
            opened=False,
            board=True,
            three_violation=False,
            atu=False,
            closed=closed,
            table_value=0,
            rack_value=rack_value,
        )

    joker = Face.joker(Material.TILES)
    outcomes = [seat(80), seat(35), seat(0, closed=True)]
    assert score_deal(outcomes, False, joker, options) == (160, 70, 0)


# ------------------------------------------------------------------ RMD-17


def test_rmd17_an_unopened_player_cannot_attach() -> None:
    """RMD-17 / §10.3: P2 is unopened, so attaching K8 to P1's [K5 K6 K7] is illegal."""
    game = stacked_game(4, {0: "K5 K6 K7 R13 B13 Y13 Y5", 1: "K8"})
    play(game, "P1: meld [K5 K6 K7]", "P1: meld [R13 B13 Y13]", "P1: discard Y5")
    play(game, "P2: draw")
    err = illegal(game, "attach K8 -> m1")
    assert err.rule == "§10.3(3)"
    assert "attach K8 -> m1" not in [str(a) for a in game.legal_actions()]


def test_stacked_games_start_after_the_swap_phase() -> None:
    """Support check: ``ready`` passes the §10.2(6) swap phase for every seat."""
    game = stacked_game(2, ready=False)
    assert game.phase is Phase.PREPLAY
    game.apply(Ready())
    game.apply(Ready())
    assert game.phase is Phase.TURNS
