# mypy: disable-error-code="comparison-overlap"
# (a phase asserted, an action applied, the phase asserted again: mypy keeps the first
# narrowing across the call that changes it.)
"""The remi_ro game engine, rule by rule (RULES §9), through real play from stacked walls.

Seat 0 is P1, the first player; the other seats follow in play order.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Mapping, Sequence

import pytest

from card_support import card_game
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
    state_key,
    table,
    three,
)
from remi_ro_support import act, face, stacked_game
from rummykit.engine import Game, IllegalActionError, view
from rummykit.engine.actions import (
    Discard,
    Draw,
    NextDeal,
    Ready,
    TakeColumn,
)
from rummykit.engine.game import Phase
from rummykit.rules.options import OptionError
from rummykit.rules.remi_ro import REMI_RO, TILES_106


def opened_game(
    racks: Mapping[int, str],
    openings: Mapping[int, Sequence[str]],
    *,
    players: int = 4,
    dead: str = "K9",
    stock: str = "",
    indicator: str = "K4",
    options: Mapping[str, object] | None = None,
    discards: Mapping[int, str] | None = None,
) -> Game:
    """Round 1 passes (P1's dead tile is ``dead``; ``discards`` names other seats'
    round-1 discards); in round 2 each seat of ``openings`` draws, lays its formations
    and discards the drawn tile, the others pass.  Returns the game at the start of
    P1's round-3 turn."""
    dealt = dict(racks)
    dealt[0] = f"{dead} {dealt.get(0, '')}"
    game = stacked_game(players, dealt, stock=stock, indicator=indicator, options=options)
    pass_turn(game, dead)
    for seat in range(1, players):
        pass_turn(game, (discards or {}).get(seat))
    for seat in range(players):
        assert game.to_move == seat
        if seat in openings:
            drawn = draw(game)
            play(game, *openings[seat], f"discard {drawn}")
            assert game.opened[seat]
        else:
            pass_turn(game)
    return game


def small_rack(
    left: int,
    *,
    announce: bool = True,
    indicator: str = "K4",
    options: Mapping[str, object] | None = None,
    draw_next: str = "-",
) -> Game:
    """P1 opens in round 2 with [R7 R8 R9] (m1) and [K11 K12 K13] (m2), lays a blue run in
    round 3 and keeps ``left`` of R5 R6 Y6 Y11 K2 (announcing "three" if asked and
    ``left`` ≤ 3).  Returns the game at the start of P1's round-4 turn (the column then
    holds 12 tiles); his next draw is ``draw_next``."""
    run = " ".join(f"B{r}" for r in range(2, 2 + 8 - left))
    keep = " ".join(["R5", "R6", "Y6", "Y11", "K2"][:left])
    game = stacked_game(
        4,
        {0: f"K9 R7 R8 R9 K11 K12 K13 {run} {keep}"},
        stock="- " * 11 + draw_next,
        indicator=indicator,
        options=options,
    )
    pass_turn(game, "K9")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [R7 R8 R9]", "meld [K11 K12 K13]", f"discard {drawn}")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, f"meld [{run}]", *(["three"] if announce and left <= 3 else []), f"discard {drawn}")
    assert rack(game, 0) == sorted(keep.split(), key=face)
    pass_turns(game, 3)
    assert game.to_move == 0 and len(game.column) == 12
    return game


# ================================================================== §9.2–9.3 the wall


def reference_deal(
    order: Sequence[int],
    players: int,
    maker: int,
    clockwise: bool = False,
    pairs: bool = False,
    joker_count: int = 14,
) -> tuple[list[set[int]], list[int]]:
    """An independent reading of §9.2–9.3: racks (as sets) and the draw order."""
    stacks = {i + 1: list(order[7 * i : 7 * i + 7]) for i in range(15)}  # bottom → top
    indicator = order[105]
    f = TILES_106.faces[indicator]
    n = joker_count if f.is_joker else f.rank

    def number(k: int) -> int:
        return (k - 1) % 15 + 1

    lifted = stacks[n].pop()
    stacks[n].append(indicator)
    stacks[number(n + 1)].append(lifted)
    first = (maker - 1) % players if clockwise else (maker + 1) % players
    racks: list[set[int]] = [set() for _ in range(players)]
    for k in range(2 * players):
        seat = (first + (k // 2 if pairs else k)) % players
        racks[seat].update(stacks[number(n + 1 + k)])
    draws: list[int] = []
    for k in range(2 * players, 15):
        draws += reversed(stacks[number(n + 1 + k)])  # the raised stack, then along the wall
    return racks, draws


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    ("clockwise", "pairs", "joker_count"), [(False, False, 14), (True, False, 14), (False, True, 3)]
)
def test_wall_racks_and_draw_order_follow_section_9_3(
    players: int, clockwise: bool, pairs: bool, joker_count: int
) -> None:
    """§9.2–9.3, A-47, A-65: stack N+1 (8 tiles) to the first player, stacks one at a time
    (or in pairs); the next stack is raised; drawing runs along the wall and ends with
    stack N, indicator first; a joker indicator counts ``joker_indicator_count``."""
    rng = random.Random(players * 10 + clockwise + 2 * pairs)
    options: dict[str, object] = {"joker_indicator_count": joker_count}
    if clockwise:
        options["direction"] = "clockwise"
    if pairs:
        options["stack_deal_order"] = "pairs"
    for indicator_rank in [*range(1, 14), 0]:
        order = list(range(106))
        rng.shuffle(order)
        # Put a tile of the wanted number (0: a joker) last, as the indicator.
        wanted = next(p for p in order if TILES_106.faces[p].rank == indicator_rank)
        order.remove(wanted)
        order.append(wanted)
        maker = rng.randrange(players)
        game = Game("remi_ro", players, options, walls=[order], maker=maker, seed=0)
        racks, draws = reference_deal(order, players, maker, clockwise, pairs, joker_count)
        assert [set(r) for r in game.racks] == racks
        assert list(reversed(game.stock)) == draws
        assert len(game.stock) == {2: 77, 3: 63, 4: 49}[players]
        assert draws[-7] == wanted  # the indicator is the first tile of stack N
        assert game.double_game is (indicator_rank in (0, 1))
        assert game.first_seat == ((maker - 1) if clockwise else (maker + 1)) % players
        assert len(game.racks[game.first_seat]) == 15


def test_indicator_is_the_43rd_draw_and_an_ordinary_tile() -> None:
    """§9.3(3), §9.11: with 4 players and K4 the indicator is drawn 43rd, then plays normally."""
    game = stacked_game(4, indicator="K4")
    assert view(game, 0).indicator_in_stock
    pass_turn(game)
    draws = 0
    while game.stock[-1] != game.indicator:
        pass_turn(game)
        draws += 1
    assert draws == 42
    mover = game.to_move
    play(game, "draw")
    assert game.indicator in game.racks[mover] and not view(game, 0).indicator_in_stock
    play(game, "discard K4")
    assert column(game)[-1] == "K4"


# ================================================================== §9.5 round 1


def test_round1_first_player_only_discards() -> None:
    """§9.5(1): the first player does not draw; his discard is the dead tile."""
    game = stacked_game(4, {0: "R2"})
    assert game.phase is Phase.ROUND1 and game.to_move == 0
    assert illegal(game, "draw").rule == "§9.5"
    assert illegal(game, "take 0").rule == "§9.5"
    legal = game.legal_actions()
    assert Discard(face("R2")) in legal
    assert all(isinstance(a, Discard) or str(a) == "board" for a in legal)
    play(game, "discard R2")
    assert column(game) == ["R2"] and len(game.racks[0]) == 14
    assert len(game.stock) == 49


def test_round1_others_draw_and_discard_then_round2() -> None:
    """§9.5(2), A-67: every other player draws and discards; then round 2 starts with P1."""
    game = stacked_game(3)
    pass_turn(game)
    for seat in (1, 2):
        assert game.phase is Phase.ROUND1 and game.to_move == seat
        assert illegal(game, f"discard {rack(game, seat)[0]}").rule == "§9.6(1)"
        legal = game.legal_actions()
        assert Draw() in legal and not any(isinstance(a, TakeColumn) for a in legal)
        pass_turn(game)
    assert game.phase is Phase.TURNS and game.to_move == 0 and game.round == 2
    assert len(game.column) == 3


def test_round1_no_take_no_laydown_no_exchange() -> None:
    """§9.5(3): in round 1 nobody takes from the column, lays out, attaches or exchanges."""
    game = stacked_game(4, {0: "R2", 1: "Y3 Y4 Y5 R10 B10 K10 K7", 2: "Y6"})
    play(game, "P1: discard R2", "P2: draw")
    assert illegal(game, "meld [Y3 Y4 Y5]").rule == "§9.5(3)"
    assert illegal(game, "attach Y6 -> m1").rule == "§9.5(3)"
    assert illegal(game, "exchange Y6 -> m1").rule == "§9.5(3)"
    play(game, "discard K7")
    assert illegal(game, "take 1").rule == "§9.5(3)"


def test_dead_tile_is_never_taken() -> None:
    """§9.5(1): the dead tile cannot be taken in any round, not even by a middle take."""
    game = opened_game(
        {0: "R10 R11 R12 B10 Y10 K10"}, {0: ["meld [R10 R11 R12]", "meld [B10 Y10 K10]"]}
    )
    assert game.round == 3
    err = illegal(game, "take 0")
    assert err.rule == "§9.5(1)" and "dead" in err.reason
    assert TakeColumn(0) not in game.legal_actions()
    play(game, "take 1")
    assert column(game) == ["K9"]


# ================================================================== §9.6 acquiring


def test_take_last_tile_must_be_in_a_new_formation_and_reset_undoes_it() -> None:
    """§9.6(b), §2.3: the taken tile must be in a new formation at the discard; ``reset``
    undoes the take, while a stock draw survives a reset."""
    game = stacked_game(4, {0: "K9 Y9", 1: "Y7 Y8 R12 B12 K12 K6"})
    pass_turn(game, "K9")
    pass_turns(game, 3)
    pass_turn(game, "Y9")
    before_rack, before_column = rack(game, 1), column(game)
    play(game, "P2: take 4")
    assert game.turn.acquired == "last" and view(game, 1).must_use == (face("Y9"),)
    assert illegal(game, "discard K6").rule == "§9.6(b)/(c)"
    play(game, "meld [R12 B12 K12]")
    assert illegal(game, "discard K6").rule == "§9.6(b)/(c)"
    play(game, "reset")
    assert rack(game, 1) == before_rack and column(game) == before_column
    assert game.table == [] and game.turn.acquired is None
    drawn = draw(game)
    play(game, "meld [R12 B12 K12]")
    play(game, "reset")
    assert drawn in rack(game, 1) and len(game.racks[1]) == 15 and game.table == []
    assert illegal(game, "reset").rule == "§2.3"
    assert illegal(game, "take 4").rule == "§9.6(1)"


def test_middle_take_takes_every_later_tile_and_cuts_the_column() -> None:
    """§9.6(c): the chosen tile and every later one go to the rack; the column is cut back;
    the chosen tile must be in a new formation, the others may stay on the rack."""
    game = opened_game(
        {0: "R10 R11 R12 B10 Y10 K10 Y7 Y8", 1: "Y9"},
        {0: ["meld [R10 R11 R12]", "meld [B10 Y10 K10]"]},
        discards={1: "Y9"},
    )
    # Column: dead K9, P2's Y9 is index 1 ... P4's round-2 discard is last.
    assert column(game)[1] == "Y9"
    old = column(game)
    play(game, "P1: take 1")
    assert column(game) == ["K9"]
    assert len(game.racks[0]) == 8 + len(old) - 1
    assert game.turn.acquired == "middle"
    taken_faces = old[1:]
    assert all(f in rack(game, 0) for f in taken_faces)
    assert illegal(game, "discard Y7").rule == "§9.6(b)/(c)"
    play(game, "meld [Y7 Y8 Y9]")
    out = rack(game, 0)[0]
    play(game, f"discard {out}")
    assert column(game) == ["K9", out] and len(game.racks[0]) == 15 - 3 - 1


def test_middle_take_needs_an_opened_player() -> None:
    """§9.6(c), A-50: RO default: only a player opened before this turn takes from the
    middle; with the BG options an unopened player may."""
    game = opened_game(
        {0: "R10 R11 R12 B10 Y10 K10"}, {0: ["meld [R10 R11 R12]", "meld [B10 Y10 K10]"]}
    )
    pass_turn(game)
    assert game.to_move == 1 and not game.opened[1]
    err = illegal(game, "take 1")
    assert err.rule == "§9.6(c)/A-50" and "opened" in err.reason
    assert game.can(TakeColumn(len(game.column) - 1))
    bg = {"column_take_middle_requires_opened": False, "column_take_middle_min_rack": 1}
    game = opened_game(
        {0: "R10 R11 R12 B10 Y10 K10"},
        {0: ["meld [R10 R11 R12]", "meld [B10 Y10 K10]"]},
        options=bg,
    )
    pass_turn(game)
    assert game.can(TakeColumn(1))


def test_middle_take_minimum_rack_option() -> None:
    """§9.6(c), A-50: ``column_take_middle_min_rack`` tiles are needed before the take."""
    game = opened_game(
        {0: "R10 R11 R12 B10 Y10 K10"},
        {0: ["meld [R10 R11 R12]", "meld [B10 Y10 K10]"]},
        options={"column_take_middle_min_rack": 9},
    )
    assert len(game.racks[0]) == 8
    err = illegal(game, "take 1")
    assert err.rule == "§9.6(c)/A-50" and "9" in err.reason


@pytest.mark.parametrize(
    ("left", "last", "middle"),
    [(5, True, True), (4, True, True), (3, True, False), (2, False, False), (1, False, False)],
)
def test_rack_size_limits_on_acquiring(left: int, last: bool, middle: bool) -> None:
    """§9.6(1): with 3 tiles only a draw or the last tile; with 1–2 tiles only a draw."""
    game = small_rack(left)
    assert len(game.racks[0]) == left
    last_index = len(game.column) - 1
    assert game.can(TakeColumn(last_index)) is last
    assert game.can(TakeColumn(2)) is middle
    if not last:
        assert illegal(game, f"take {last_index}").rule == "§9.6(1)"
    if not middle:
        assert illegal(game, "take 2").rule == "§9.6(1)"
    legal = game.legal_actions()
    assert (TakeColumn(last_index) in legal) is last and (TakeColumn(2) in legal) is middle
    assert game.can(Draw())


def test_one_or_two_tiles_allow_only_attaching() -> None:
    """§9.6, §9.11, A-57: with 1–2 tiles the player draws and may only attach, keeping one
    tile for the discard; discarding it closes."""
    game = small_rack(2, draw_next="R4")  # R5 R6; own m1 [R7 R8 R9]
    play(game, "draw")
    assert illegal(game, "meld [R4 R5 R6]").rule == "§9.6/§9.11"
    play(game, "attach R6 -> m1", "attach R5 -> m1")
    assert illegal(game, "attach R4 -> m1").rule == "§9.6/§9.11"
    play(game, "discard R4")
    assert game.results[-1].closer == 0
    game = small_rack(1, draw_next="R6")  # R5
    play(game, "draw", "attach R6 -> m1")
    assert illegal(game, "attach R5 -> m1").rule == "§9.6/§9.11"
    play(game, "discard R5")
    assert game.results[-1].closer == 0 and game.results[-1].closing_face == "R5"


def test_rack_cap_after_the_turn() -> None:
    """§9.6, A-50: at most ``rack_max_after_turn`` tiles may stay after the discard."""
    game = opened_game(
        {0: "R10 R11 R12 B10 Y10 K10 Y7 Y8", 1: "Y9"},
        {0: ["meld [R10 R11 R12]", "meld [B10 Y10 K10]"]},
        discards={1: "Y9"},
    )
    pass_turns(game, 4)
    assert len(game.column) == 12 and column(game)[1] == "Y9"
    play(game, "P1: take 1", "meld [Y7 Y8 Y9]")
    assert len(game.racks[0]) == 8 + 11 - 3
    err = illegal(game, f"discard {rack(game, 0)[0]}")
    assert err.rule == "§9.6/A-50" and "14" in err.reason
    assert not any(isinstance(a, Discard) for a in game.legal_actions())


# ================================================================== §9.6(2) attaching


def test_attach_to_another_players_formation_is_credited_to_the_attacher() -> None:
    """§9.6(2), §9.12, A-54: a tile attached to another's formation scores for the attacher."""
    game = opened_game(
        {0: "R10 R11 R12 B10 Y10 K10 B6", 1: "B3 B4 B5 K11 K12 K13"},
        {
            0: ["meld [R10 R11 R12]", "meld [B10 Y10 K10]"],
            1: ["meld [B3 B4 B5]", "meld [K11 K12 K13]"],
        },
    )
    drawn = draw(game)
    play(game, "attach B6 -> m3", f"discard {drawn}")
    formation = game.table[2]
    assert table(game)[2] == "[B3 B4 B5 B6]" and formation.owner == 1
    b6 = formation.pieces[-1]
    assert game.credit[b6] == 0 and all(game.credit[p] == 1 for p in formation.pieces[:3])
    run_out(game)
    result = game.results[-1]
    assert result.table_values[:2] == (30 + 30 + 5, 15 + 30)


def test_attach_needs_an_earlier_opening() -> None:
    """§9.6(2), A-53: an unopened player cannot attach, nor in his opening turn by default;
    ``attach_on_opening_turn`` allows it once his opening formations are down."""
    racks = {0: "R10 R11 R12 B10 Y10 K10 R13 B6", 1: "B3 B4 B5 K11 K12 K13"}
    for allowed in (False, True):
        game = opened_game(
            racks,
            {1: ["meld [B3 B4 B5]", "meld [K11 K12 K13]"]},
            options={"attach_on_opening_turn": allowed},
        )
        drawn = draw(game)
        assert illegal(game, "attach B6 -> m1").rule == "§9.6(2)/A-53"
        play(game, "meld [R10 R11 R12]", "meld [B10 Y10 K10]")
        if allowed:
            play(game, "attach R13 -> m3", "attach B6 -> m1", f"discard {drawn}")
            assert table(game)[2] == "[R10 R11 R12 R13]" and game.opened[0]
            assert table(game)[0] == "[B3 B4 B5 B6]"
        else:
            err = illegal(game, "attach R13 -> m3")
            assert err.rule == "§9.6(2)/A-53"
            play(game, f"discard {drawn}")
            pass_turns(game, 3)
            drawn = draw(game)
            play(game, "attach R13 -> m3", f"discard {drawn}")


def test_unopened_player_cannot_attach_even_with_the_option() -> None:
    """§9.6(2): attaching needs an opened player (the option only covers the opening turn)."""
    game = opened_game(
        {1: "B3 B4 B5 K11 K12 K13", 0: "B6"},
        {1: ["meld [B3 B4 B5]", "meld [K11 K12 K13]"]},
        options={"attach_on_opening_turn": True},
    )
    play(game, "draw")
    err = illegal(game, "attach B6 -> m1")
    assert err.rule == "§9.6(2)/A-53"


def test_joker_attaches_only_to_own_formations() -> None:
    """§9.6(2): a joker may be attached only to the attacher's own formations."""
    game = opened_game(
        {0: "R10 R11 R12 B10 Y10 K10 J", 1: "B3 B4 B5 K11 K12 K13"},
        {
            0: ["meld [R10 R11 R12]", "meld [B10 Y10 K10]"],
            1: ["meld [B3 B4 B5]", "meld [K11 K12 K13]"],
        },
    )
    play(game, "draw")
    for target in (3, 4):
        assert illegal(game, f"attach J -> m{target}").rule == "§9.6(2)"
    play(game, "attach J -> m2")
    assert table(game)[1] == "[B10 Y10 K10 J]"


def test_formations_are_never_rearranged() -> None:
    """§9.6(2): a tile that does not extend a formation cannot be attached to it."""
    game = opened_game(
        {0: "R10 R11 R12 B10 Y10 K10 R9 R5 B11 R10 B10"},
        {0: ["meld [R10 R11 R12]", "meld [B10 Y10 K10]"]},
    )
    play(game, "draw")
    for text in ("attach R5 -> m1", "attach B11 -> m2", "attach R10 -> m1", "attach B10 -> m2"):
        assert illegal(game, text).rule == "§9.6(2)"
    assert illegal(game, "attach R9 -> m9").rule == "§9.6(2)"
    play(game, "attach R9 -> m1")
    assert table(game)[0] == "[R9 R10 R11 R12]"


# ================================================================== §9.8 opening


def test_opening_turn_counts_undeclared_jokers_at_their_best() -> None:
    """§2.2, §9.8: undeclared jokers read the way worth most; ties go to higher positions."""
    game = stacked_game(4, {1: "R12 J J K7 K8 K9"}, stock="- - - - B4")
    pass_turns(game, 5)
    play(game, "P2: draw", "meld [R12 J J]", "meld [K7 K8 K9]")
    assert table(game)[0] == "[R12 J(R13) J(R1)]"
    assert game.turn.laid_points == 30 + 15
    play(game, "discard B4")
    assert game.opened[1]


def test_exchange_can_feed_the_opening() -> None:
    """§9.10, A-55: an unopened player may exchange a joker if the freed joker goes into
    his opening formations this turn; with the option off he may not."""
    for allowed in (True, False):
        game = opened_game(
            {0: "K12 R10 R11 Y12 B12 R12", 1: "K11 J K13 R2 R3 R4"},
            {1: ["meld [K11 J(K12) K13]", "meld [R2 R3 R4]"]},
            options={"joker_exchange_on_opening_turn": allowed},
        )
        drawn = draw(game)
        if not allowed:
            assert illegal(game, "exchange K12 -> m1").rule == "§9.10/A-55"
            continue
        play(game, "exchange K12 -> m1")
        assert illegal(game, f"discard {drawn}").rule == "§9.10"
        play(game, "meld [Y12 B12 J]")
        # A set of 12s alone is no opening.
        assert illegal(game, f"discard {drawn}").rule.startswith("§9.8")
        play(game, "reset", "exchange K12 -> m1", "meld [R10 R11 J(R12)]", "meld [Y12 B12 R12]")
        assert game.turn.laid_points == 60
        play(game, f"discard {drawn}")
        assert game.opened[0] and table(game)[0] == "[K11 K12 K13]"
        joker = game.table[2].pieces[-1]
        assert game.faces[joker].is_joker and game.credit[joker] == 1


# ================================================================== §9.10 joker exchange


def _exchange_table() -> Game:
    """P1 (m1 [R10 R11 R12], m2 [B10 Y10 K10]); P2 (m3 [R5 B5 J], m4 [K10 K11 K12]);
    P3 (m5 [R8 B8 Y8 J], m6 [Y11 Y12 Y13]).  P1 to move in round 3, holding Y5 K5 K8;
    P2 holds K5 R10."""
    return opened_game(
        {
            0: "R10 R11 R12 B10 Y10 K10 Y5 K5 K8",
            1: "R5 B5 J K10 K11 K12 K5 R10",
            2: "R8 B8 Y8 J Y11 Y12 Y13",
        },
        {
            0: ["meld [R10 R11 R12]", "meld [B10 Y10 K10]"],
            1: ["meld [R5 B5 J]", "meld [K10 K11 K12]"],
            2: ["meld [R8 B8 Y8 J]", "meld [Y11 Y12 Y13]"],
        },
    )


def test_exchange_in_sets_needs_all_four_colours() -> None:
    """§9.10: [R5 B5 J] frees its joker only with Y5 and K5 together; [R8 B8 Y8 J] with K8."""
    game = _exchange_table()
    drawn = draw(game)
    err = illegal(game, "exchange Y5 -> m3")
    assert err.rule == "§9.10" and "four suits/colours" in err.reason
    assert illegal(game, "exchange R5 K5 -> m3").rule in ("§9.10", "§2.3")
    play(game, "exchange Y5 K5 -> m3")
    assert table(game)[2] == "[R5 B5 Y5 K5]"
    assert illegal(game, f"discard {drawn}").rule == "§9.10"
    play(game, "attach J(R13) -> m1", "exchange K8 -> m5")
    assert table(game)[4] == "[R8 B8 Y8 K8]"
    play(game, "attach J(R9) -> m1", f"discard {drawn}")
    assert table(game)[0] == "[J(R9) R10 R11 R12 J(R13)]"
    jokers = [p for p in game.table[0].pieces if game.faces[p].is_joker]
    assert sorted(game.credit[j] for j in jokers) == [1, 2]
    assert set(jokers) <= game.locked


def test_single_tile_to_a_two_natural_set_only_attaches() -> None:
    """§9.10: Y5 alone is attached to [R5 B5 J] and frees nothing; whoever later adds the
    fourth colour (here the owner, P2) takes the joker and must use it."""
    game = _exchange_table()
    drawn = draw(game)
    play(game, "attach Y5 -> m3", f"discard {drawn}")
    assert table(game)[2] == "[R5 B5 J Y5]" and game.turn.pending_jokers == []
    drawn = draw(game)
    assert game.to_move == 1
    play(game, "exchange K5 -> m3")
    assert table(game)[2] == "[R5 B5 Y5 K5]"
    play(game, "attach J(K13) -> m4", f"discard {drawn}")
    assert table(game)[3] == "[K10 K11 K12 J(K13)]"


def test_locked_joker_cannot_be_exchanged_again() -> None:
    """§9.10: a joker that was exchanged once is locked for good, also inside a set: P1
    frees P3's joker and puts it on his set [B10 Y10 K10]; P2's R10 cannot free it."""
    game = _exchange_table()
    drawn = draw(game)
    play(game, "exchange K8 -> m5", "attach J -> m2", f"discard {drawn}")
    assert table(game)[1] == "[B10 Y10 K10 J]"
    play(game, "P2: draw")
    err = illegal(game, "exchange R10 -> m2")
    assert err.rule == "§9.10" and "once" in err.reason
    assert illegal(game, "attach R10 -> m2").rule == "§9.6(2)"
    assert not any(str(a).startswith("exchange R10") for a in game.legal_actions())


def test_run_joker_exchange_takes_exactly_the_represented_tile() -> None:
    """§9.10: a run's joker is freed only by the tile it represents."""
    game = opened_game(
        {0: "R10 R11 R12 B10 Y10 K10 K12 K13 B12", 1: "K11 J K13 R2 R3 R4"},
        {
            0: ["meld [R10 R11 R12]", "meld [B10 Y10 K10]"],
            1: ["meld [K11 J(K12) K13]", "meld [R2 R3 R4]"],
        },
    )
    play(game, "draw")
    assert illegal(game, "exchange K13 -> m3").rule == "§9.10"
    assert illegal(game, "exchange B12 -> m3").rule == "§9.10"
    assert illegal(game, "exchange K12 -> m1").rule == "§9.10"
    assert illegal(game, "exchange K12 K13 -> m3").rule == "§9.10"
    play(game, "exchange K12 -> m3")
    assert table(game)[2] == "[K11 K12 K13]"


# ================================================================== §9.11 three, closing


@pytest.mark.parametrize("left", [1, 2, 3])
def test_three_violation_is_a_flat_minus_500(left: int) -> None:
    """§9.11, §9.12(1), A-56: ending a turn with 1–3 tiles unannounced costs a flat −500
    (not multiplied in a double game)."""
    game = small_rack(left, announce=False, indicator="Y1")
    assert three(game).violation[0]
    run_out(game)
    assert game.results[-1].double_game
    assert game.results[-1].scores[0] == -500


def test_announcing_three_avoids_the_penalty() -> None:
    """§9.11: announcing keeps the normal score."""
    game = small_rack(2)
    assert not three(game).violation[0] and three(game).announced[0]
    run_out(game)
    result = game.results[-1]
    # [R7 R8 R9] 15 + [K11 K12 K13] 30 + [B2..B7] 30 − R5 R6 10.
    assert result.scores[0] == 15 + 30 + 30 - 10


def test_three_add_mode() -> None:
    """§9.15 ``three_tile_penalty_mode = "add"``: the penalty is subtracted from the score."""
    game = small_rack(2, announce=False, options={"three_tile_penalty_mode": "add"})
    run_out(game)
    assert game.results[-1].scores[0] == 15 + 30 + 30 - 10 - 500


def test_three_announcement_timing() -> None:
    """§9.11: "three" only with at most 4 tiles during one's turn (3 after the discard),
    and only once."""
    game = small_rack(5)
    assert illegal(game, "three").rule == "§9.11"
    game = small_rack(4, announce=False)
    assert not three(game).violation[0]
    play(game, "three")
    assert three(game).announced[0]
    assert illegal(game, "three").rule == "§9.11"


def test_closing_turn_has_no_announcement_obligation() -> None:
    """§9.11: a player who closes in the same turn owes no announcement."""
    game = stacked_game(
        4, {0: "K9 R7 R8 R9 K11 K12 K13 B2 B3 B4 B5 B6 R4 R5 R6"}, stock="- - - - - - - Y5"
    )
    pass_turn(game, "K9")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [R7 R8 R9]", "meld [K11 K12 K13]", f"discard {drawn}")
    pass_turns(game, 3)
    # 8 tiles: B2..B6 R4 R5 R6; draw Y5, lay everything but Y5, discard it: a close.
    play(
        game,
        "draw",
        "meld [B2 B3 B4 B5 B6]",
        "attach R6 -> m1",
        "attach R5 -> m1",
        "attach R4 -> m1",
        "discard Y5",
    )
    result = game.results[-1]
    assert not three(game).violation[0] and (result.end, result.closer) == ("close", 0)
    assert result.scores[0] == 30 + 30 + 25 + 50


def closing_game(
    closing: str,
    indicator: str = "K4",
    options: Mapping[str, object] | None = None,
    atu: int | None = None,
) -> Game:
    """3 players; P1 closes in round 3 by discarding ``closing``, with 100 credited on the
    table; P2 opened with 90 and keeps R13 B12 Y4 R9 B2 Y11 K6 Y12 (60); P3 never opens.
    Seat ``atu`` announces atu in pre-play."""
    game = stacked_game(
        3,
        {
            0: f"K9 R3 R4 R5 B10 Y10 K10 K11 K12 K13 Y9 B5 B6 B7 {closing}",
            1: "Y6 Y7 Y8 R1 B1 K1 R13 B12 Y4 R9 B2 Y11 K6 Y12",
        },
        stock="- - - - - R6",
        indicator=indicator,
        options=options,
        ready=False,
    )
    while game.phase is Phase.PREPLAY:
        play(game, *(["atu"] if game.to_move == atu else []), "ready")
    pass_turn(game, "K9")
    pass_turns(game, 2)
    drawn = draw(game)
    play(game, "meld [R3 R4 R5]", "meld [B10 Y10 K10]", "meld [K11 K12 K13]", f"discard {drawn}")
    drawn = draw(game)
    play(game, "meld [Y6 Y7 Y8]", "meld [R1 B1 K1]", f"discard {drawn}")
    pass_turn(game)
    play(
        game,
        "P1: draw",
        "attach Y9 -> m4",
        "attach R6 -> m1",
        "meld [B5 B6 B7]",
        f"discard {closing}",
    )
    return game


@pytest.mark.parametrize(
    ("closing", "indicator", "options", "expected"),
    [
        ("R8", "K4", {}, (150, 30, -100)),
        ("R8", "B12", {"atu": 1}, (150, 80, -100)),  # P2 holds the twin B12: +50
        ("R1", "B12", {"atu": 1}, (300, 80, -100)),
        ("K1", "K4", {}, (300, 30, -100)),
        ("J", "K4", {}, (300, 30, -100)),
        ("R8", "Y1", {}, (300, 60, -200)),
        ("J", "J", {}, (600, 60, -200)),
        ("R8", "Y1", {"double_game_applies_to_penalties": False}, (300, 60, -100)),
        ("R8", "K4", {"closing_bonus": 20}, (120, 30, -100)),
        ("R1", "K4", {"closing_with_1_or_joker_multiplier": 3}, (450, 30, -100)),
    ],
)
def test_closing_scores_and_multipliers(
    closing: str, indicator: str, options: dict[str, object], expected: tuple[int, ...]
) -> None:
    """§9.11–9.12, A-59: +50 closing, ×2 for a closing 1 or joker, ×2 for everyone in a
    double game (indicator 1 or joker), both → ×4.  P1: 100 + 50; P2: 90 − 60."""
    options = dict(options)
    atu = options.pop("atu", None)
    assert atu is None or isinstance(atu, int)
    game = closing_game(closing, indicator, options, atu=atu)
    result = game.results[-1]
    assert (result.end, result.closer, result.closing_face) == ("close", 0, closing)
    assert result.table_values == (100, 90, 0) and result.rack_values[:2] == (0, 60)
    assert result.scores == expected


# ================================================================== §9.11 exhaustion


def test_exhaustion_ends_the_deal_after_the_last_drawers_turn() -> None:
    """§9.11, A-60: the player who draws the last stock tile finishes his turn (he may
    still lay out), then the deal ends; nobody gets a closing bonus."""
    game = stacked_game(3, {0: "K9 R10 R11 R12 B10 Y10 K10"}, options={"match_deals": 1})
    pass_turn(game, "K9")
    while len(game.stock) > 1:
        pass_turn(game)
    assert game.to_move == 0 and not game.opened[0]
    play(game, "draw")
    assert game.stock == [] and game.phase is Phase.TURNS
    play(game, "meld [R10 R11 R12]", "meld [B10 Y10 K10]")
    play(game, f"discard {rack(game, 0)[0]}")
    result = game.results[-1]
    assert (result.end, result.closer) == ("exhaustion", None)
    assert game.phase is Phase.MATCH_END and game.legal_actions() == []
    rest = sum(REMI_RO.score_value(game.faces[p]) for p in game.racks[0])
    assert result.scores == (60 - rest, -100, -100)


def test_unopened_on_exhaustion_rack_option() -> None:
    """A-58: with ``unopened_on_exhaustion = "rack"`` the unopened lose their rack value."""
    game = stacked_game(2, {1: "R1 J K13"}, options={"unopened_on_exhaustion": "rack"})
    run_out(game)
    result = game.results[-1]
    assert result.scores == (-result.rack_values[0], -result.rack_values[1])
    assert result.rack_values[1] >= 25 + 50 + 10


# ================================================================== §9.13 board play


@pytest.mark.parametrize(
    ("seat", "turn", "allowed"),
    [(0, 1, True), (0, 3, True), (0, 4, False), (2, 3, True), (2, 4, False)],
)
def test_board_declaration_window(seat: int, turn: int, allowed: bool) -> None:
    """§9.13, A-62: within a player's first 3 turns; P1's discard-only turn is his turn 1."""
    game = stacked_game(3)
    while not (game.to_move == seat and game.turns_taken[seat] == turn):
        pass_turn(game)
    if allowed:
        play(game, "board")
        assert on_board(game)[seat]
    else:
        assert illegal(game, "board").rule == "§9.13/A-62"


def test_board_declaration_conditions() -> None:
    """§9.13: not twice, not once opened or after laying out this turn, not when disabled."""
    game = stacked_game(4, {1: "Y7 Y8 Y9 R12 B12 K12"}, stock="- - - - K5")
    pass_turns(game, 5)
    play(game, "P2: draw", "meld [Y7 Y8 Y9]")
    assert illegal(game, "board").rule == "§9.13"
    play(game, "reset", "board")
    assert illegal(game, "board").rule == "§9.13"
    play(game, "discard K5")
    game = stacked_game(4, options={"board_play_enabled": False})
    assert illegal(game, "board").rule == "§9.13"


def test_board_player_keeps_the_last_tile_and_never_lays_out() -> None:
    """§9.13: a board player may keep the column's last tile; he never lays out or attaches
    and takes no middle tiles; he scores −100 (+50 atu) when he does not close."""
    game = stacked_game(4, {1: "R7 R8 R9 K11", 3: "K4"}, ready=False)
    play(game, "P1: ready", "P2: ready", "P3: ready", "P4: atu", "P4: ready")
    pass_turn(game)
    play(game, "P2: board")
    pass_turns(game, 3)
    pass_turn(game)  # P1
    last = len(game.column) - 1
    assert illegal(game, f"take {last - 1}").rule == "§9.13"
    play(game, f"take {last}")
    assert illegal(game, "meld [R7 R8 R9]").rule == "§9.13"
    play(game, "discard K11")
    assert on_board(game)[1] and not game.opened[1]
    run_out(game)
    assert game.results[-1].scores == (-100, -100, -100, -50)


@pytest.mark.parametrize(("bonus", "expected"), [(False, (700 + 50) * 4), (True, 800 * 4)])
def test_board_closer_score_with_atu_and_multipliers(bonus: bool, expected: int) -> None:
    """§9.13, A-61: contract value + atu, ×2 for closing with a 1, ×2 in a double game; no
    +50 closing bonus unless ``board_closing_bonus``.  P2 holds Y1, the indicator's twin."""
    game = stacked_game(
        4,
        {1: "R5 B5 Y5 K5 R9 B9 Y9 K9 R12 B12 Y12 B2 Y2 Y1"},
        stock="- - - - K2",
        indicator="Y1",
        ready=False,
        options={"board_closing_bonus": bonus},
    )
    play(game, "P1: ready", "P2: atu", "P2: ready", "P3: ready", "P4: ready")
    pass_turn(game)
    play(game, "P2: board")
    pass_turns(game, 4)
    play(game, "P2: draw", "close Y1")
    result = game.results[-1]
    assert (result.contract, result.double_game) == ("bete", True)
    assert result.scores == (-200, expected, -200, -200)


@pytest.mark.parametrize("jokers", [True, False])
def test_board_contract_with_a_joker(jokers: bool) -> None:
    """§9.13, A-61: a joker stands for any tile of a contract (Monocolour here), unless
    ``board_jokers_allowed`` is off."""
    game = stacked_game(
        4,
        {1: "R1 R2 R3 R4 R5 R6 J R8 R9 R10 R11 R12 R13 K6"},
        stock="- - - - R1",
        options={"board_jokers_allowed": jokers},
    )
    pass_turn(game)
    play(game, "P2: board")
    pass_turns(game, 4)
    play(game, "P2: draw")
    assert game.can(act("close K6")) is jokers
    if jokers:
        play(game, "close K6")
        assert game.results[-1].contract == "monocolour"
        assert game.results[-1].scores[1] == 1500


# ================================================================== §9.4 atu, doubles


def test_atu_announcement() -> None:
    """§9.4(3), A-48: the holder of the indicator's twin may announce atu in pre-play only;
    +50 at the end whether or not he opened."""
    game = stacked_game(4, {1: "K4"}, indicator="K4", ready=False)
    assert illegal(game, "atu").rule == "§9.4"  # P1 has no twin
    play(game, "P1: ready", "P2: atu")
    assert illegal(game, "atu").rule == "§9.4"  # twice
    play(game, "P2: ready", "P3: ready", "P4: ready")
    assert preplay(game).atu == [False, True, False, False]
    assert illegal(game, "atu").rule == "§9.4"  # no longer pre-play
    run_out(game)
    assert game.results[-1].scores == (-100, -50, -100, -100)


def test_atu_mandatory() -> None:
    """§9.4(3): with ``atu_mandatory`` the twin's holder is announced automatically."""
    game = stacked_game(4, {2: "K4"}, indicator="K4", options={"atu_mandatory": True}, ready=False)
    assert preplay(game).atu == [False, False, True, False]
    play(game, "P1: ready", "P2: ready")
    assert illegal(game, "atu").rule == "§9.4"


@pytest.mark.parametrize("allowed", [True, False])
def test_atu_with_a_joker_indicator(allowed: bool) -> None:
    """§9.4(3), A-48: with a joker indicator the other joker's holder may announce atu."""
    game = stacked_game(
        3, {1: "J"}, indicator="J", ready=False, options={"atu_on_joker_indicator": allowed}
    )
    assert game.double_game
    play(game, "P1: ready")
    assert game.can(act("atu")) is allowed


def test_doubles_announce_swap_accept() -> None:
    """§9.4(1), A-49: announce the category; swap one tile of same-category doubles,
    face down, with consent; each double swaps once; a seat offers a given seat once."""
    game = stacked_game(4, {0: "R7 R7 B12 B12", 1: "K5 K5 Y3 Y3", 2: "Y9 Y9"}, ready=False)
    assert illegal(game, "doubles key").rule == "§9.4"
    play(game, "P1: doubles small", "P1: doubles big")
    assert illegal(game, "doubles small").rule == "§9.4"
    assert illegal(game, "swap R7 P2").rule == "§9.4/A-49"  # P2 has announced nothing
    play(game, "P1: ready", "P2: doubles small")
    assert illegal(game, "swap K5 P2").rule == "§9.4"  # not with oneself
    assert illegal(game, "swap Y9 P1").rule == "§9.4/A-49"  # no such double
    play(game, "P2: swap K5 P1")
    assert game.to_move == 0 and preplay(game).pending_swap is not None
    assert illegal(game, "ready").rule == "§9.4"  # the offer awaits an answer
    assert illegal(game, "accept B12").rule == "§9.4/A-49"  # a big double for a small one
    play(game, "P1: accept R7")
    assert game.to_move == 1
    assert rack(game, 0).count("K5") == 1 and rack(game, 0).count("R7") == 1
    assert rack(game, 1).count("R7") == 1 and rack(game, 1).count("K5") == 1
    assert illegal(game, "swap K5 P1").rule == "§9.4/A-49"  # offered once already
    play(game, "P2: ready", "P3: doubles small")
    # P1's only small double took part in a swap already, but that is P1's secret:
    # P3 may offer on P1's announcement, and P1 can only decline.
    play(game, "P3: swap Y9 P1")
    assert game.legal_actions() == [act("decline")]
    assert illegal(game, "accept R7").rule == "§9.4/A-49"
    play(game, "P1: decline")
    assert game.to_move == 2
    play(game, "P3: swap Y9 P2")
    assert illegal(game, "accept K5").rule == "§9.4/A-49"  # K5 was swapped once
    play(game, "P2: decline")
    assert game.to_move == 2 and rack(game, 2).count("Y9") == 2
    assert illegal(game, "swap Y9 P2").rule == "§9.4/A-49"  # offered once already
    play(game, "P3: ready", "P4: ready")
    assert game.phase is Phase.ROUND1
    # Only the two seats involved see the swapped tiles.
    outsider = [a for _, a in view(game, 3).history]
    assert {"swap ? P1", "accept ?", "swap ? P2", "decline"} <= set(outsider)
    assert outsider.count("decline") == 2
    assert not any("K5" in a or "R7" in a or "Y9" in a for a in outsider)
    assert "accept R7" in [a for _, a in view(game, 0).history]
    assert "swap K5 P1" in [a for _, a in view(game, 0).history]
    assert "accept ?" in [a for _, a in view(game, 1).history]
    assert_conserved(game)


def test_doubles_swap_across_categories_option() -> None:
    """A-49: ``doubles_swap_same_category_only = false`` lets a big double go for a small one."""
    for same_only in (True, False):
        game = stacked_game(
            4,
            {0: "R7 R7", 1: "B12 B12"},
            ready=False,
            options={"doubles_swap_same_category_only": same_only},
        )
        play(game, "P1: doubles small", "P1: ready", "P2: doubles big")
        assert game.can(act("swap B12 P1")) is not same_only


def test_doubles_swap_disabled() -> None:
    """§9.15 ``doubles_swap_enabled = false``."""
    game = stacked_game(
        4, {0: "R7 R7", 1: "K5 K5"}, ready=False, options={"doubles_swap_enabled": False}
    )
    play(game, "P1: doubles small", "P1: ready", "P2: doubles small")
    assert illegal(game, "swap K5 P1").rule == "§9.4"


def test_every_seat_gets_a_preplay_turn() -> None:
    """Engine decision: every seat, from the first player on, ends pre-play with ``ready``."""
    game = stacked_game(3, ready=False, maker=0)
    assert game.first_seat == 1
    order = []
    while game.phase is Phase.PREPLAY:
        order.append(game.to_move)
        game.apply(Ready())
    assert order == [1, 2, 0] and game.to_move == 1


# ================================================================== match


def _quiet_deal(game: Game) -> None:
    while game.phase is Phase.PREPLAY:
        game.apply(Ready())
    run_out(game)


@pytest.mark.parametrize("direction", ["counterclockwise", "clockwise"])
def test_match_deals_maker_rotates_and_totals_accumulate(direction: str) -> None:
    """§9.1, §9.12, A-63: ``match_deals`` deals; the maker passes to his right (the previous
    first player); totals accumulate; ``next`` starts each deal."""
    game = Game("remi_ro", 3, {"direction": direction}, seed=7)
    assert game.options["match_deals"] == 3
    makers, firsts = [], []
    for deal in range(3):
        makers.append(game.maker)
        firsts.append(game.first_seat)
        assert game.deal_number == deal
        _quiet_deal(game)
        assert len(game.results) == deal + 1
        result = game.results[-1]
        assert result.scores == (-100 * (2 if result.double_game else 1),) * 3
        assert list(result.totals) == game.totals
        if deal < 2:
            assert game.phase is Phase.DEAL_END and game.legal_actions() == [NextDeal()]
            assert illegal(game, "draw").rule == "§2.3"
            game.apply(NextDeal())
    assert game.phase is Phase.MATCH_END and game.is_over and game.legal_actions() == []
    assert illegal(game, "next").rule == "§9.12"
    assert [r.maker for r in game.results] == makers
    step = 1 if direction == "counterclockwise" else -1
    assert makers[1:] == [(m + step) % 3 for m in makers[:-1]]
    assert makers[1:] == firsts[:-1]  # the previous first player makes the next deal
    assert [sum(r.scores[s] for r in game.results) for s in range(3)] == game.totals


def test_target_score_ends_the_match_early() -> None:
    """A-63: with ``target_score`` the match ends once a total reaches it."""
    game = closing_game("R8", options={"target_score": 150})
    assert game.totals == [150, 30, -100]
    assert game.phase is Phase.MATCH_END and game.legal_actions() == []
    game = closing_game("R8", options={"target_score": 151})
    assert game.phase is Phase.DEAL_END
    play(game, "next")
    assert game.phase is Phase.PREPLAY and game.deal_number == 1


# ================================================================== illegal actions


def test_illegal_actions_leave_the_state_unchanged_and_explain() -> None:
    """§2.3: an illegal action raises IllegalActionError naming the action, the rule and the
    state, and changes nothing (also at commit)."""
    game = _exchange_table()
    samples = [
        "discard R5",
        "take 0",
        "take 99",
        "meld [Y5 K5 K8]",
        "attach K8 -> m9",
        "exchange Y5 -> m3",
        "three",
        "close K8",
        "reset",
        "next",
        "atu",
        "ready",
        "accept R5",
        "decline",
        "reshuffle",
        "doubles small",
        "swap R5 P2",
    ]
    for text in samples:
        before = state_key(game)
        with pytest.raises(IllegalActionError) as info:
            game.apply(act(text))
        err = info.value
        assert state_key(game) == before
        assert err.action == str(act(text)) and f"'{err.action}'" in str(err)
        assert err.rule.startswith("§") and f"[RULES {err.rule}]" in str(err)
        assert err.state == game.describe() and "P1 to move" in err.state
        assert isinstance(err, ValueError)
    drawn = draw(game)
    play(game, "exchange Y5 K5 -> m3")
    before = state_key(game)
    with pytest.raises(IllegalActionError, match=r"discard .*§9\.10"):
        game.apply(Discard(face(drawn)))
    assert state_key(game) == before


def test_copy_is_independent() -> None:
    """``Game.copy`` gives an independent game: playing one leaves the other unchanged."""
    game = _exchange_table()
    twin = game.copy()
    before = state_key(twin)
    drawn = draw(game)
    play(game, "exchange Y5 K5 -> m3", "attach J(R13) -> m1", f"discard {drawn}")
    assert state_key(twin) == before
    play(twin, "draw")
    assert_conserved(game)
    assert_conserved(twin)


def test_a_copy_draws_the_numbers_its_original_would_have_drawn() -> None:
    """Copies share the random source until one draws (copy-on-write): each then draws
    from its own generator in the state of the moment of the copy."""
    game = Game("basic", 2, {"recycle_shuffle": True}, seed=5)
    twin = game.copy()
    triplet = twin.copy()
    ahead = [game.rng.random() for _ in range(5)]
    assert [twin.rng.random() for _ in range(5)] == ahead
    assert twin.rng is not game.rng
    assert [triplet.rng.random() for _ in range(3)] == ahead[:3]
    later = game.copy()
    assert later.rng.random() == game.rng.random()
    assert pickle.loads(pickle.dumps(twin)).rng.random() == twin.rng.random()


# ================================================================== identical copies


def _copy_take_game() -> Game:
    """P1 opened with m1 [Y10 Y11 Y12] and m2 [B10 R10 K10]; P2 owns m3 [K11 J(K12) K13];
    P1 holds Y7 Y8 Y9 K12 B12 Y12; in round 3 the column's last tile is P4's Y9 or K12."""
    game = stacked_game(
        4,
        {
            0: "K9 Y10 Y11 Y12 B10 R10 K10 Y7 Y8 Y9 K12 B12 Y12",
            1: "K11 J K13 R2 R3 R4",
            3: "Y9 K12",
        },
    )
    pass_turn(game, "K9")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [Y10 Y11 Y12]", "meld [B10 R10 K10]", f"discard {drawn}")
    drawn = draw(game)
    play(game, "meld [K11 J(K12) K13]", "meld [R2 R3 R4]", f"discard {drawn}")
    pass_turn(game)
    return game


def test_take_then_meld_then_attach_the_twin_copy() -> None:
    """§9.6(b): take Y9, lay [Y7 Y8 Y9], attach the other Y9 to m1: legal."""
    game = _copy_take_game()
    pass_turn(game, "Y9")
    play(game, f"P1: take {len(game.column) - 1}", "meld [Y7 Y8 Y9]", "attach Y9 -> m1")
    assert table(game)[0] == "[Y9 Y10 Y11 Y12]"
    play(game, f"discard {rack(game, 0)[0]}")


@pytest.mark.parametrize("first", ["attach Y9 -> m1", "exchange K12 -> m3"])
def test_order_of_table_actions_with_identical_copies(first: str) -> None:
    """§9.6(b), §0: identical copies are equivalent.  P1 holds Y9 (K12) and takes the
    column's other Y9 (K12); he attaches (exchanges) one copy and lays the other in a new
    formation.  The end position is the same as in the other order, so the discard must
    be legal whichever copy the notation's face is taken from.  (Regression: the engine
    used to put the taken copy into the attachment/exchange and reject the discard.)"""
    game = _copy_take_game()
    taken = first.split()[1]
    pass_turn(game, taken)
    new = "meld [Y7 Y8 Y9]" if taken == "Y9" else "meld [B12 Y12 K12]"
    play(game, f"P1: take {len(game.column) - 1}", first, new)
    if taken == "K12":
        play(game, "attach J(Y13) -> m1")
    assert game.can(Discard(face(rack(game, 0)[0])))


@pytest.mark.parametrize("allowed", [False, True])
def test_column_take_allow_attach(allowed: bool) -> None:
    """A-51: attaching the taken tile counts as using it only with ``column_take_allow_attach``."""
    game = stacked_game(
        4,
        {0: "K9 Y10 Y11 Y12 B10 R10 K10", 3: "Y9"},
        options={"column_take_allow_attach": allowed},
    )
    pass_turn(game, "K9")
    pass_turns(game, 3)
    drawn = draw(game)
    play(game, "meld [Y10 Y11 Y12]", "meld [B10 R10 K10]", f"discard {drawn}")
    pass_turns(game, 2)
    pass_turn(game, "Y9")
    play(game, f"P1: take {len(game.column) - 1}", "attach Y9 -> m1")
    assert game.can(Discard(face(rack(game, 0)[0]))) is allowed


def test_accepted_rack_cap_never_deadlocks_the_deal() -> None:
    """§9.6, A-50: an option value the variant accepts must leave a playable deal (or be
    rejected when the game is built)."""
    try:
        game = Game("remi_ro", 4, {"rack_max_after_turn": 13}, seed=1)
    except OptionError:
        return
    while game.phase is Phase.PREPLAY:
        game.apply(Ready())
    for _ in range(5):
        legal = game.legal_actions()
        assert legal, f"no legal action in {game.describe()}"
        if any(isinstance(a, Discard) for a in legal):
            return
        game.apply(legal[0])
    raise AssertionError("the first player can never discard")


# ------------------------------------------------------------------ caches across options


def test_meld_lists_follow_options_that_change_the_meld_rules() -> None:
    """The engine's shared rack → melds cache is keyed by the meld rules as well as the
    variant: a game whose options forbid a formation (Double Rummy with two naturals per
    meld, RULES §4.10/A-13) never lists it, even after a game that allowed it."""
    rack = {0: "9H JK JK"}
    loose = card_game("double", 2, racks=rack)
    strict = card_game("double", 2, racks=rack, options={"min_naturals_per_meld": 2})
    assert strict.racks == loose.racks
    two_jokers = "meld [9H JK(9S) JK(9D)]"
    loose.apply(Draw())
    assert two_jokers in {str(a) for a in loose.legal_actions()}
    strict.apply(Draw())
    assert two_jokers not in {str(a) for a in strict.legal_actions()}


def test_a_deal_can_start_from_an_explicit_layout() -> None:
    """Search builds sampled worlds from racks, stock and pile (Game(layout=...))."""
    from rummykit.rules.variant import DealLayout

    first = Game("basic", 2, seed=4)
    layout = DealLayout(
        racks=tuple(tuple(r) for r in first.racks),
        stock=tuple(reversed(first.stock)),
        first_seat=first.first_seat,
        discard=tuple(first.column),
    )
    again = Game("basic", 2, rng=random.Random(9), maker=first.maker, layout=layout)
    assert again.racks == first.racks and again.stock == first.stock
    assert again.column == first.column and again.to_move == first.to_move
    assert again.walls_used == [()]
    again.apply(again.legal_actions()[0])
    assert again.log


def test_games_of_one_set_up_share_what_the_options_decide_and_bad_options_still_fail() -> None:
    """A second game of the same variant, players and options reuses the first one's
    resolved options and rules (built once); different options or players do not, and
    an invalid option is refused every time, never cached."""
    first = Game("remi_ro", 4, {"board_play_enabled": False}, seed=1)
    second = Game("remi_ro", 4, {"board_play_enabled": False}, seed=2)
    assert second.options is first.options and second.extensions is first.extensions
    assert second.racks != first.racks  # its own deal, from its own seed
    other = Game("remi_ro", 4, {"board_play_enabled": True}, seed=1)
    assert other.options is not first.options and other.options["board_play_enabled"]
    assert Game("remi_ro", 2, {"board_play_enabled": False}, seed=1).players == 2
    for _ in range(2):
        with pytest.raises(OptionError):
            Game("remi_ro", 4, {"board_play_enabled": "yes"}, seed=1)
