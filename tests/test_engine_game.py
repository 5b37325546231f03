# mypy: disable-error-code="comparison-overlap"
# (a phase asserted, an action applied, the phase asserted again: mypy keeps the first
# narrowing across the call that changes it.)
"""The remi_ro game engine, rule by rule (RULES §9), through real play from stacked walls.

Seat 0 is P1, the first player; the other seats follow in play order.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence

import pytest

from engine_game_support import exchange_table, opened_game, small_rack
from kit import (
    assert_conserved,
    column,
    draw,
    illegal,
    pass_turn,
    pass_turns,
    play,
    rack,
    state_key,
)
from remi_ro_support import act, face, stacked_game
from rummykit.engine import Game, IllegalActionError, view
from rummykit.engine.actions import (
    Discard,
    Draw,
    Ready,
    TakeColumn,
)
from rummykit.engine.game import Phase
from rummykit.rules.options import OptionError
from rummykit.rules.remi_ro import TILES_106

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


# ================================================================== §9.10 joker exchange


# ================================================================== match


# ================================================================== illegal actions


def test_illegal_actions_leave_the_state_unchanged_and_explain() -> None:
    """§2.3: an illegal action raises IllegalActionError naming the action, the rule and the
    state, and changes nothing (also at commit)."""
    game = exchange_table()
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
    game = exchange_table()
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
