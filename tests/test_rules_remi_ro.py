"""Romanian tile Rummy hooks (RULES §9): the wall and deal (§9.2-9.3), values (§9.8, §9.12),
deal scoring (§9.12) and board contracts (§9.13), with the §12.7 scenarios RRT-01/03/20/21/23/25."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from rummykit.model.melds import HIGH_ACE, MeldKind
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.rules.options import Options, VariantOptions
from rummykit.rules.remi_ro import (
    REMI_RO,
    TILES_106,
    board_closes,
    build_wall,
    find_contract,
    opening_value,
    score_deal,
    score_value,
    stack_wall,
)
from rummykit.rules.variant import Contract, DealLayout, SeatOutcome

TILES = Material.TILES
P = TILES_106


def opts(players: int = 4, **given: Any) -> VariantOptions:
    return REMI_RO.resolve(players, given)


def pid(name: str) -> int:
    return P.parse_piece(name)


def hand(text: str) -> list[Face]:
    return list(parse_faces(text, TILES))


def value(text: str) -> int:
    return sum(score_value(f) for f in hand(text))


def wall_with_indicator(name: str) -> list[int]:
    """A wall whose 105 stacked tiles are in id order and whose indicator is `name`."""
    indicator = pid(name)
    return [p for p in range(106) if p != indicator] + [indicator]


def stack(order: Sequence[int], number: int) -> list[int]:
    """Stack `number` (1..15) as built, bottom to top (before the indicator step)."""
    return list(order[7 * (number - 1) : 7 * number])


def expected_layout(
    order: Sequence[int],
    players: int,
    maker: int,
    *,
    direction: str = "counterclockwise",
    pairs: bool = False,
    joker_count: int = 14,
) -> tuple[list[list[int]], list[int], int]:
    """RULES §9.2-9.3 restated independently: (racks in seat order, stock in draw order,
    first seat).  Stacks are numbered 1..15; the index wraps after 15."""
    stacks = {i: stack(order, i) for i in range(1, 16)}
    indicator = order[105]
    face = P.faces[indicator]
    n = joker_count if face.is_joker else face.rank

    def after(k: int) -> int:
        return (n + k - 1) % 15 + 1  # stack N+k

    # §9.2(2): lift the top of stack N onto N+1; the indicator takes its place on N.
    lifted = stacks[n].pop()
    stacks[n].append(indicator)
    stacks[after(1)].append(lifted)
    # §9.3(1), §0.4: the first player sits on the maker's right.
    first = (maker + 1) % players if direction == "counterclockwise" else (maker - 1) % players
    racks: list[list[int]] = [[] for _ in range(players)]
    for k in range(2 * players):
        giver = k // 2 if pairs else k
        racks[(first + giver) % players] += stacks[after(k + 1)]
    # §9.3(3): the next stack goes on the one after it, then the wall in order to stack N.
    draw: list[int] = []
    for k in range(2 * players + 1, 16):
        draw += list(reversed(stacks[after(k)]))
    return racks, draw, first


# --------------------------------------------------------------- RULES §12.7 RRT-01


def test_rrt01_four_players_indicator_k4() -> None:
    """RRT-01: stack 4's top moves onto stack 5 (8 tiles), K4 lies face up on stack 4; P1 (the
    maker's right) gets stacks 5+9 (15 tiles), P2 6+10, P3 7+11, P4 8+12 (14 each); stack 13 is
    put on 14; draw order 13,14,15,1,2,3,4; stock 49; K4 is the 43rd tile drawn; no double game."""
    order = wall_with_indicator("K4#1")
    k4 = pid("K4#1")
    maker = 3  # counter-clockwise: seat 0, the next in play order, is on the maker's right
    layout = build_wall(order, 4, maker, opts())

    s = {i: stack(order, i) for i in range(1, 16)}
    top_of_4 = s[4][-1]
    assert layout.first_seat == 0
    assert sorted(layout.racks[0]) == sorted(s[5] + [top_of_4] + s[9])
    assert sorted(layout.racks[1]) == sorted(s[6] + s[10])
    assert sorted(layout.racks[2]) == sorted(s[7] + s[11])
    assert sorted(layout.racks[3]) == sorted(s[8] + s[12])
    assert [len(r) for r in layout.racks] == [15, 14, 14, 14]

    expected_stock = (
        s[13][::-1]
        + s[14][::-1]
        + s[15][::-1]
        + s[1][::-1]
        + s[2][::-1]
        + s[3][::-1]
        + [k4]
        + s[4][:-1][::-1]
    )
    assert list(layout.stock) == expected_stock
    assert len(layout.stock) == 49
    assert layout.stock.index(k4) + 1 == 43
    assert layout.indicator == k4
    assert layout.double_game is False


@pytest.mark.parametrize(("players", "stock"), [(4, 49), (3, 63), (2, 77)])
def test_rule_9_3_stock_sizes(players: int, stock: int) -> None:
    """§9.3(4): 4 players 49, 3 players 63, 2 players 77; first player 15, others 14."""
    layout = build_wall(wall_with_indicator("B9#2"), players, 0, opts(players))
    assert len(layout.stock) == stock
    sizes = [len(r) for r in layout.racks]
    assert sizes[layout.first_seat] == 15
    assert sorted(sizes) == [14] * (players - 1) + [15]
    every = sorted([p for r in layout.racks for p in r] + list(layout.stock))
    assert every == list(range(106))


@pytest.mark.parametrize("players", [2, 3])
def test_rule_9_3_fewer_players_hand_out_fewer_stacks(players: int) -> None:
    """§9.3(2)-(3) with 3 and 2 players: two stacks each, then the next stack is raised."""
    order = wall_with_indicator("K4#1")
    layout = build_wall(order, players, players - 1, opts(players))
    s = {i: stack(order, i) for i in range(1, 16)}
    assert layout.first_seat == 0
    assert sorted(layout.racks[0]) == sorted(s[5] + [s[4][-1]] + s[5 + players])
    raised = 5 + 2 * players  # stacks 5 .. 4 + 2·players were handed out
    assert list(layout.stock[:7]) == s[raised][::-1]
    assert list(layout.stock[7:14]) == s[raised + 1][::-1]
    assert layout.stock[-7] == pid("K4#1")  # the indicator opens the last stack


# --------------------------------------------------------------- RULES §12.7 RRT-03


@pytest.mark.parametrize("indicator", ["Y1#1", "R1#2", "K1#1", "B1#2"])
def test_rrt03_a_1_indicator_makes_a_double_game(indicator: str) -> None:
    """RRT-03 / §9.2(4): a 1 is a double game; N = 1, so stack 2 gets 8 tiles and goes to P1."""
    order = wall_with_indicator(indicator)
    layout = build_wall(order, 4, 3, opts())
    assert layout.double_game is True
    s = {i: stack(order, i) for i in range(1, 16)}
    assert sorted(layout.racks[0]) == sorted(s[2] + [s[1][-1]] + s[6])
    assert layout.stock[-7] == pid(indicator)


@pytest.mark.parametrize("joker", ["J#1", "J#2"])
def test_rrt03_a_joker_indicator_counts_14_and_is_a_double_game(joker: str) -> None:
    """RRT-03 / A-47: for `J`, N = 14, so stack 15 gets 8 tiles and goes to P1."""
    order = wall_with_indicator(joker)
    layout = build_wall(order, 4, 3, opts())
    assert layout.double_game is True
    s = {i: stack(order, i) for i in range(1, 16)}
    assert sorted(layout.racks[0]) == sorted(s[15] + [s[14][-1]] + s[4])  # 15 then 1..3, 4
    assert sorted(layout.racks[1]) == sorted(s[1] + s[5])
    assert layout.stock[-7] == pid(joker)
    assert list(layout.stock[-6:]) == s[14][:-1][::-1]


@pytest.mark.parametrize("indicator", ["K4#1", "Y13#2", "R2#1", "B10#1"])
def test_rule_9_2_other_indicators_are_not_double_games(indicator: str) -> None:
    assert build_wall(wall_with_indicator(indicator), 4, 0, opts()).double_game is False


@pytest.mark.parametrize(("count", "eight"), [(1, 2), (7, 8), (14, 15), (15, 1)])
def test_a47_joker_indicator_count_option(count: int, eight: int) -> None:
    """A-47 `joker_indicator_count`: the joker counts N; stack N+1 (wrapping) gets 8 tiles."""
    order = wall_with_indicator("J#1")
    layout = build_wall(order, 4, 3, opts(joker_indicator_count=count))
    s = {i: stack(order, i) for i in range(1, 16)}
    assert set(s[eight]) <= set(layout.racks[0])
    assert s[count][-1] in layout.racks[0]  # the lifted tile came from stack N
    assert len(layout.racks[0]) == 15
    assert layout.stock[-7] == pid("J#1")
    # the count of a numbered indicator ignores the option
    numbered = build_wall(wall_with_indicator("K4#1"), 4, 3, opts(joker_indicator_count=count))
    assert numbered.racks == build_wall(wall_with_indicator("K4#1"), 4, 3, opts()).racks


def test_a65_stack_deal_order_pairs_gives_two_stacks_at_a_time() -> None:
    """A-65 alternative `stack_deal_order = "pairs"`: P1 gets N+1 and N+2, P2 N+3 and N+4, …"""
    order = wall_with_indicator("K4#1")
    layout = build_wall(order, 4, 3, opts(stack_deal_order="pairs"))
    s = {i: stack(order, i) for i in range(1, 16)}
    assert sorted(layout.racks[0]) == sorted(s[5] + [s[4][-1]] + s[6])
    assert sorted(layout.racks[1]) == sorted(s[7] + s[8])
    assert sorted(layout.racks[2]) == sorted(s[9] + s[10])
    assert sorted(layout.racks[3]) == sorted(s[11] + s[12])
    # the stock is the same as with round-robin dealing
    assert layout.stock == build_wall(order, 4, 3, opts()).stock


@pytest.mark.parametrize(("players", "maker"), [(n, m) for n in (2, 3, 4) for m in range(n)])
def test_rule_0_4_direction_decides_who_is_on_the_makers_right(players: int, maker: int) -> None:
    """§9.3(1) + §0.4: counter-clockwise play passes to the right, so the maker's right is the
    next seat (maker + 1); clockwise play passes to the left, so it is the previous (maker - 1)."""
    order = wall_with_indicator("Y7#1")
    ccw = build_wall(order, players, maker, opts(players))
    cw = build_wall(order, players, maker, opts(players, direction="clockwise"))
    assert ccw.first_seat == (maker + 1) % players
    assert cw.first_seat == (maker - 1) % players
    assert len(ccw.racks[ccw.first_seat]) == 15
    assert len(cw.racks[cw.first_seat]) == 15
    # the same stacks go round in play order from the first seat
    for k in range(players):
        assert ccw.racks[(ccw.first_seat + k) % players] == cw.racks[(cw.first_seat + k) % players]


def test_rule_9_2_9_3_random_walls_match_the_rules_restated() -> None:
    """§9.2-9.3 for random walls, every player count, direction, deal order and joker count."""
    rng = random.Random(93)
    for _ in range(150):
        players = rng.choice([2, 3, 4])
        maker = rng.randrange(players)
        direction = rng.choice(["counterclockwise", "clockwise"])
        pairs = rng.random() < 0.5
        count = rng.randint(1, 15)
        order = list(range(106))
        rng.shuffle(order)
        if rng.random() < 0.2:  # make jokers and 1s common indicators
            special = rng.choice([pid("J#1"), pid("J#2"), pid("R1#1"), pid("K1#2")])
            order.remove(special)
            order.append(special)
        o = opts(
            players,
            direction=direction,
            joker_indicator_count=count,
            stack_deal_order="pairs" if pairs else "round_robin",
        )
        layout = build_wall(order, players, maker, o)
        racks, draw, first = expected_layout(
            order, players, maker, direction=direction, pairs=pairs, joker_count=count
        )
        assert layout.first_seat == first
        assert [sorted(r) for r in layout.racks] == [sorted(r) for r in racks]
        assert list(layout.stock) == draw
        face = P.faces[order[105]]
        assert layout.double_game is (face.is_joker or face.rank == 1)
        assert layout.indicator == order[105]


@pytest.mark.parametrize(
    "order",
    [list(range(105)), list(range(107)), [0, *range(105)], list(range(1, 107))],
)
def test_build_wall_needs_each_of_the_106_tiles_once(order: list[int]) -> None:
    with pytest.raises(ValueError, match="106"):
        build_wall(order, 4, 0, opts())


def test_the_variant_deal_hook_is_build_wall() -> None:
    order = wall_with_indicator("K4#1")
    assert REMI_RO.deal(P, order, 4, 2, opts()) == build_wall(order, 4, 2, opts())
    assert isinstance(REMI_RO.deal(P, order, 4, 2, opts()), DealLayout)


# --------------------------------------------------------------- stack_wall (test helper inverse)


def test_stack_wall_is_the_inverse_of_build_wall() -> None:
    """A wall built from racks and a stock prefix deals exactly those racks and that stock."""
    rng = random.Random(11)
    for _ in range(60):
        players = rng.choice([2, 3, 4])
        maker = rng.randrange(players)
        o = opts(
            players,
            direction=rng.choice(["counterclockwise", "clockwise"]),
            stack_deal_order=rng.choice(["round_robin", "pairs"]),
        )
        ids = list(range(106))
        rng.shuffle(ids)
        indicator = ids.pop()
        probe = build_wall(
            [p for p in range(106) if p != indicator] + [indicator], players, maker, o
        )
        first = probe.first_seat
        racks: list[list[int]] = []
        for seat in range(players):
            size = 15 if seat == first else 14
            racks.append([ids.pop() for _ in range(size)])
        prefix = [ids.pop() for _ in range(rng.randint(0, 10))]
        order = stack_wall(players, maker, o, indicator=indicator, racks=racks, stock=prefix)
        assert sorted(order) == list(range(106))
        layout = build_wall(order, players, maker, o)
        assert [sorted(r) for r in layout.racks] == [sorted(r) for r in racks]
        assert layout.indicator == indicator
        stock = [p for p in layout.stock if p != indicator]
        assert stock[: len(prefix)] == prefix
        assert stock[len(prefix) :] == sorted(ids)  # the rest in id order
        # and the round trip through an existing wall gives back the same wall
        again = stack_wall(players, maker, o, indicator=indicator, racks=layout.racks, stock=stock)
        assert again == order


def test_stack_wall_rejects_wrong_rack_sizes_and_repeated_tiles() -> None:
    o = opts()
    indicator = pid("K4#1")
    racks = [list(range(15)), list(range(15, 29)), list(range(29, 43)), list(range(43, 57))]
    assert sorted(stack_wall(4, 3, o, indicator=indicator, racks=racks)) == list(range(106))
    with pytest.raises(ValueError, match="15"):
        stack_wall(4, 3, o, indicator=indicator, racks=[racks[1], racks[0], *racks[2:]])
    with pytest.raises(ValueError):
        stack_wall(4, 3, o, indicator=indicator, racks=[racks[0], racks[0][:14], *racks[2:]])
    with pytest.raises(ValueError):
        stack_wall(4, 3, o, indicator=indicator, racks=racks, stock=[racks[1][0]])


# --------------------------------------------------------------- §9.8 / §9.12 value tables


@pytest.mark.parametrize(
    ("kind", "position", "points"),
    [
        *[(MeldKind.RUN, p, 5) for p in range(2, 10)],
        *[(MeldKind.RUN, p, 10) for p in range(10, 14)],
        (MeldKind.RUN, 1, 5),  # a 1 at the low end
        (MeldKind.RUN, HIGH_ACE, 10),  # a 1 at the high end
        *[(MeldKind.SET, r, 5) for r in range(2, 10)],
        *[(MeldKind.SET, r, 10) for r in range(10, 14)],
        (MeldKind.SET, 1, 25),  # a 1 in a set
    ],
)
def test_rule_9_8_opening_values(kind: MeldKind, position: int, points: int) -> None:
    """§9.8: 2-9 → 5, 10-13 → 10, 1 low 5 / high 10 / in a set 25 (a joker: what it stands for)."""
    assert opening_value(kind, position) == points
    assert REMI_RO.opening_value(kind, position) == points


@pytest.mark.parametrize(
    ("token", "points"),
    [
        *[(f"{c}{n}", 5) for c in "RYBK" for n in range(2, 10)],
        *[(f"{c}{n}", 10) for c in "RYBK" for n in range(10, 14)],
        *[(f"{c}1", 25) for c in "RYBK"],
        ("J", 50),
    ],
)
def test_rule_9_12_scoring_values(token: str, points: int) -> None:
    """§9.12: 2-9 → 5, 10-13 → 10, 1 → 25 wherever it is, joker 50."""
    assert score_value(Face.parse(token)) == points
    assert REMI_RO.score_value(Face.parse(token)) == points


def test_rrt09_opening_points_of_the_scenario_formations() -> None:
    """RRT-09 arithmetic: [Y3 Y4 Y5] 15 + [R10 B10 K10] 30 = 45; [R1 B1 K1] 75;
    [R9 R10 R11 R12 R13] 45."""
    assert sum(opening_value(MeldKind.RUN, p) for p in (3, 4, 5)) == 15
    assert 3 * opening_value(MeldKind.SET, 10) == 30
    assert 3 * opening_value(MeldKind.SET, 1) == 75
    assert sum(opening_value(MeldKind.RUN, p) for p in range(9, 14)) == 45


# --------------------------------------------------------------- §9.12 deal scoring


def seat(
    *,
    opened: bool = True,
    closed: bool = False,
    table: int = 0,
    rack: int = 0,
    atu: bool = False,
    three: bool = False,
    board: bool = False,
    contract: Contract | None = None,
) -> SeatOutcome:
    return SeatOutcome(
        opened=opened,
        board=board,
        three_violation=three,
        atu=atu,
        closed=closed,
        table_value=table,
        rack_value=rack,
        contract=contract,
    )


def rrt20_seats(*, p2: dict[str, Any] | None = None, p3_atu: bool = False) -> list[SeatOutcome]:
    """RRT-20: P1 closes, credited [R3 R4 R5] [B10 Y10 K10] [K11 K12 K13] and Y9 attached to
    P2's run; P2 credited [Y6 Y7 Y8] [R1 B1 K1], rack `J B12 Y4`; P3 never opened."""
    p1_table = value("R3 R4 R5 B10 Y10 K10 K11 K12 K13 Y9")
    p2_table = value("Y6 Y7 Y8 R1 B1 K1")
    assert (p1_table, p2_table, value("J B12 Y4")) == (80, 90, 65)
    p2_args: dict[str, Any] = {"table": p2_table, "rack": value("J B12 Y4"), **(p2 or {})}
    return [
        seat(closed=True, table=p1_table),
        seat(**p2_args),
        seat(opened=False, rack=value("R2 R5 B7 B8 Y11 K3 K4 K9 J R13 Y2 Y3"), atu=p3_atu),
    ]


def test_rrt20_scoring() -> None:
    """RRT-20: P1 = 15+30+30+5+50 = 130; P2 = 15+75 − (50+10+5) = 25; P3 = −100."""
    scores = score_deal(rrt20_seats(), False, Face.parse("R8"), opts(3))
    assert scores == (130, 25, -100)


def test_rrt20_unopened_atu_announcer_gets_minus_50() -> None:
    """RRT-20 / §9.12(2): −100 + 50 for atu, the rack not counted."""
    assert score_deal(rrt20_seats(p3_atu=True), False, Face.parse("R8"), opts(3))[2] == -50


def test_rule_9_12_atu_adds_50_to_an_opened_player() -> None:
    scores = score_deal(rrt20_seats(p2={"atu": True}), False, Face.parse("R8"), opts(3))
    assert scores[1] == 75
    custom = score_deal(
        rrt20_seats(p2={"atu": True}), False, Face.parse("R8"), opts(3, atu_bonus=20)
    )
    assert custom[1] == 45


def test_rrt21a_closing_with_a_1_doubles_the_closer_only() -> None:
    """RRT-21(a): P1 closes with R1 → P1 260, P2 25, P3 −100."""
    assert score_deal(rrt20_seats(), False, Face.parse("R1"), opts(3)) == (260, 25, -100)


def test_rrt21b_double_game_and_a_joker_close_multiply_by_four() -> None:
    """RRT-21(b): indicator Y1 (double game) and P1 closes with J → P1 520, P2 50, P3 −200."""
    assert score_deal(rrt20_seats(), True, Face.parse("J"), opts(3)) == (520, 50, -200)


def test_rrt21b_double_game_with_an_ordinary_close() -> None:
    """§9.12 multipliers: the double game alone doubles every score (×2, not ×4)."""
    assert score_deal(rrt20_seats(), True, Face.parse("R8"), opts(3)) == (260, 50, -200)


def test_a59_double_game_penalties_option() -> None:
    """A-59 `double_game_applies_to_penalties = false`: negative scores are not doubled."""
    o = opts(3, double_game_applies_to_penalties=False)
    seats = rrt20_seats(p2={"rack": 200})  # P2: 90 − 200 = −110
    assert score_deal(seats, True, Face.parse("R8"), o) == (260, -110, -100)
    assert score_deal(seats, True, Face.parse("R8"), opts(3)) == (260, -220, -200)


def test_rrt23_stock_exhaustion() -> None:
    """RRT-23: nobody closes; P1 opened with 80 on the table and `R2 K13` on the rack → 65 (no
    closing bonus); P2 never opened → −100.  In a double game 130 and −200."""
    seats = [
        seat(table=80, rack=value("R2 K13")),
        seat(opened=False, rack=value("R5 B5 K12")),
        seat(table=30, rack=value("Y1 J")),
    ]
    assert score_deal(seats, False, None, opts(3)) == (65, -100, 30 - 75)
    assert score_deal(seats, True, None, opts(3)) == (130, -200, 2 * (30 - 75))


def test_a58_unopened_on_exhaustion_rack_option() -> None:
    """A-58 `unopened_on_exhaustion = "rack"`: at exhaustion −rack + 50·atu, but after a close
    the flat −100 still applies."""
    o = opts(3, unopened_on_exhaustion="rack")
    exhausted = [
        seat(table=80, rack=15),
        seat(opened=False, rack=65),
        seat(opened=False, rack=40, atu=True),
    ]
    assert score_deal(exhausted, False, None, o) == (65, -65, 10)
    assert score_deal(exhausted, True, None, o) == (130, -130, 20)
    assert score_deal(exhausted, False, None, opts(3)) == (65, -100, -50)
    closed = [
        seat(closed=True, table=80),
        seat(opened=False, rack=65),
        seat(opened=False, rack=40, atu=True),
    ]
    assert score_deal(closed, False, Face.parse("R8"), o) == (130, -100, -50)


def test_rule_9_12_three_tile_violation_is_a_flat_minus_500() -> None:
    """§9.12(1) / A-56: −500 flat; it ignores table, rack and atu, and is never multiplied."""
    seats = rrt20_seats(p2={"three": True, "atu": True})
    assert score_deal(seats, False, Face.parse("R8"), opts(3))[1] == -500
    assert score_deal(seats, True, Face.parse("J"), opts(3))[1] == -500
    unopened = [seat(closed=True, table=80), seat(), seat(opened=False, three=True)]
    assert score_deal(unopened, True, Face.parse("R8"), opts(3))[2] == -500
    assert score_deal(seats, False, Face.parse("R8"), opts(3, three_tile_penalty=300))[1] == -300


def test_a56_three_tile_penalty_mode_add() -> None:
    """A-56 `three_tile_penalty_mode = "add"`: the penalty is subtracted from the deal score;
    the score is multiplied as usual, the penalty never."""
    o = opts(3, three_tile_penalty_mode="add")
    seats = rrt20_seats(p2={"three": True})
    assert score_deal(seats, False, Face.parse("R8"), o)[1] == 25 - 500
    assert score_deal(seats, True, Face.parse("R8"), o)[1] == 50 - 500
    unopened = [seat(closed=True, table=80), seat(), seat(opened=False, three=True, atu=True)]
    assert score_deal(unopened, False, Face.parse("R8"), o)[2] == -50 - 500


def test_rule_9_12_closing_bonus_and_multiplier_options() -> None:
    seats = rrt20_seats()
    assert score_deal(seats, False, Face.parse("R8"), opts(3, closing_bonus=0))[0] == 80
    assert (
        score_deal(seats, False, Face.parse("R1"), opts(3, closing_with_1_or_joker_multiplier=3))[0]
        == 390
    )
    assert score_deal(seats, True, Face.parse("R8"), opts(3, double_game_multiplier=3)) == (
        390,
        75,
        -300,
    )
    assert score_deal(seats, False, Face.parse("R8"), opts(3, unopened_penalty=60))[2] == -60


BETE = Contract("bete", 700, ())


def test_rule_9_13_board_closer_scores_the_contract() -> None:
    """§9.13: contract value + 50·atu; ×2 for a 1/joker close and in a double game; no closing
    bonus by default; an unfinished board player scores −100 (+50 atu) like the unopened."""
    seats = [
        seat(opened=False, board=True, closed=True, rack=0, contract=BETE),
        seat(table=60, rack=20),
        seat(opened=False, board=True, rack=90, atu=True),
    ]
    assert score_deal(seats, False, Face.parse("R8"), opts(3)) == (700, 40, -50)
    assert score_deal(seats, False, Face.parse("J"), opts(3)) == (1400, 40, -50)
    assert score_deal(seats, True, Face.parse("K1"), opts(3)) == (2800, 80, -100)
    with_atu = [seat(opened=False, board=True, closed=True, atu=True, contract=BETE), *seats[1:]]
    assert score_deal(with_atu, False, Face.parse("R8"), opts(3))[0] == 750
    bonus = opts(3, board_closing_bonus=True)
    assert score_deal(seats, False, Face.parse("R8"), bonus)[0] == 750


# --------------------------------------------------------------- §9.13 board contracts


def contract(text: str, **given: Any) -> tuple[str, int] | None:
    found = find_contract(hand(text), opts(**given))
    return None if found is None else (found.name, found.value)


FULL_RED = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
MOSAIC_STRICT = "R1 Y2 B3 K4 R5 Y6 B7 K8 R9 Y10 B11 K12 R13 Y1"
MOSAIC_THREE_COLOURS = "R1 Y2 B3 R4 Y5 B6 R7 Y8 B9 R10 Y11 B12 R13 Y1"  # first four repeat R
MOSAIC_SAME_ONES = "R1 Y2 B3 K4 R5 Y6 B7 K8 R9 Y10 B11 K12 Y13 R1"  # both 1s red
ALTERNATING = "R1 Y2 R3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # RRT-25 (a) Bete: 2 sets of 4 + 2 sets of 3
        ("R5 B5 Y5 K5 R9 B9 Y9 K9 R12 B12 Y12 B2 Y2 K2", ("bete", 700)),
        # RRT-25 (b) Doubles: 7 pairs of identical tiles
        ("R3 R3 B7 B7 Y11 Y11 K1 K1 R13 R13 B5 B5 Y9 Y9", ("doubles", 1300)),
        # RRT-25 (c) Bicolour: two single-colour runs of two colours
        ("R1 R2 R3 R4 R5 R6 R7 B8 B9 B10 B11 B12 B13 B1", ("bicolour", 1200)),
        ("R1 R2 R3 R4 R5 R6 R7 R8 B1 B2 B3 B4 B5 B6", ("bicolour", 1200)),
        # Monocolour: the complete run 1..1 in one colour
        (FULL_RED, ("monocolour", 1500)),
        # Mosaic (RO strict): no equal neighbours, first four all colours, the 1s differ
        (MOSAIC_STRICT, ("mosaic", 1000)),
        # Simple: runs and sets covering all 14 tiles
        ("R1 R2 R3 B5 Y5 K5 K7 K8 K9 K10 R11 B11 Y11 K11", ("simple", 500)),
        ("R1 R2 R3 R4 R6 R7 R8 B1 B2 B3 B10 B11 B12 B13", ("simple", 500)),
        # junk
        ("R1 R5 B9 K2 Y7 Y12 K11 B3 R8 B13 Y4 K6 R10 B6", None),
        # a complete run in two colours is no contract by default (A-61 (4))
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 B1", None),
        # strict Mosaic fails, and nothing else fits
        (MOSAIC_THREE_COLOURS, None),
        (MOSAIC_SAME_ONES, None),
        (ALTERNATING, None),
    ],
)
def test_rrt25_and_rule_9_13_contracts(text: str, expected: tuple[str, int] | None) -> None:
    """RRT-25: (a) Bete 700; (b) Doubles 1300; (c) Bicolour 1200; and §9.13's other rows."""
    assert contract(text) == expected


def test_rule_9_13_contracts_need_exactly_14_tiles() -> None:
    assert contract(FULL_RED + " B5") is None
    assert contract("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13") is None


@pytest.mark.parametrize("text", [MOSAIC_THREE_COLOURS, MOSAIC_SAME_ONES])
def test_rule_9_14_bg_mosaic_only_forbids_equal_neighbours(text: str) -> None:
    """§9.14 / `mosaic_strict = false` ([BG]): valid only under the non-strict Mosaic."""
    assert contract(text) is None
    assert contract(text, mosaic_strict=False) == ("mosaic", 1000)


def test_strict_mosaic_is_also_a_non_strict_mosaic() -> None:
    assert contract(MOSAIC_STRICT, mosaic_strict=False) == ("mosaic", 1000)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Doubles: a joker pairs with any tile, two jokers form a pair (A-61 (3))
        ("R3 R3 B7 B7 Y11 Y11 K1 K1 R13 R13 B5 B5 Y9 J", ("doubles", 1300)),
        ("R3 R3 B7 B7 Y11 Y11 K1 K1 R13 R13 B5 B5 J J", ("doubles", 1300)),
        ("R3 R3 B7 B7 Y11 Y11 K1 K1 R13 R13 B5 Y6 Y9 J", None),  # 3 singles, 1 joker
        # Monocolour with a joker for R13 or for one of the 1s
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 J R1", ("monocolour", 1500)),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J", ("monocolour", 1500)),
        # Mosaic with a joker at an end or in the middle
        ("R1 Y2 B3 K4 R5 Y6 B7 K8 R9 Y10 B11 K12 R13 J", ("mosaic", 1000)),
        ("R1 Y2 B3 K4 R5 J B7 K8 R9 Y10 B11 K12 R13 Y1", ("mosaic", 1000)),
        # Bicolour and Bete with jokers
        ("R1 R2 R3 R4 R5 R6 J B8 B9 B10 B11 B12 B13 B1", ("bicolour", 1200)),
        ("R5 B5 Y5 J R9 B9 Y9 K9 R12 B12 Y12 B2 Y2 J", ("bete", 700)),
        ("R5 J J R9 B9 Y9 K9 R12 B12 Y12 K12 B2 Y2 K2", ("bete", 700)),
        # Simple with a joker filling a run
        ("R1 R2 J B5 Y5 K5 K7 K8 K9 K10 R11 B11 Y11 K11", ("simple", 500)),
    ],
)
def test_a61_jokers_are_wild_in_contracts(text: str, expected: tuple[str, int] | None) -> None:
    assert contract(text) == expected
    if expected is not None:
        # `board_jokers_allowed = false`: a joker spoils every contract
        assert contract(text, board_jokers_allowed=False) is None


@pytest.mark.parametrize(
    ("text", "definition", "expected"),
    [
        # RRT-25 (c) is a Bicolour under every reading
        ("R1 R2 R3 R4 R5 R6 R7 B8 B9 B10 B11 B12 B13 B1", "two_single_colour_runs", 1200),
        ("R1 R2 R3 R4 R5 R6 R7 B8 B9 B10 B11 B12 B13 B1", "complete_run_two_colours", 1200),
        ("R1 R2 R3 R4 R5 R6 R7 B8 B9 B10 B11 B12 B13 B1", "runs_of_two_colours", 1200),
        # a complete 1..1 run in exactly two colours
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 B1", "two_single_colour_runs", None),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 B1", "complete_run_two_colours", 1200),
        (ALTERNATING, "complete_run_two_colours", 1200),
        (ALTERNATING, "runs_of_two_colours", None),
        # several runs drawn from two colours
        ("R1 R2 R3 R4 R6 R7 R8 B1 B2 B3 B10 B11 B12 B13", "two_single_colour_runs", 500),
        ("R1 R2 R3 R4 R6 R7 R8 B1 B2 B3 B10 B11 B12 B13", "complete_run_two_colours", 500),
        ("R1 R2 R3 R4 R6 R7 R8 B1 B2 B3 B10 B11 B12 B13", "runs_of_two_colours", 1200),
        # two runs of one colour are never a Bicolour
        ("R1 R2 R3 R4 R5 R6 R7 R3 R4 R5 R6 R7 R8 R9", "runs_of_two_colours", 500),
    ],
)
def test_a61_bicolor_definition_alternatives(
    text: str, definition: str, expected: int | None
) -> None:
    """A-61 (4): Bicolour = exactly two single-colour runs of two colours (default); the
    alternatives are a complete 1-1 run in two colours, or any runs drawn from two colours."""
    found = contract(text, bicolor_definition=definition)
    assert (None if found is None else found[1]) == expected


@pytest.mark.parametrize(
    "text",
    [
        "R5 B5 Y5 K5 R5 B5 Y5 K5 R9 B9 Y9 R2 B2 Y2",  # two sets of four 5s
        "R5 B5 Y5 K5 R9 B9 Y9 K9 R12 B12 Y12 B12 Y12 K12",  # two sets of three 12s
    ],
)
def test_rule_9_13_bete_sets_may_share_a_number(text: str) -> None:
    assert contract(text) == ("bete", 700)


def test_find_contract_reports_the_tiles() -> None:
    found = find_contract(hand(FULL_RED), opts())
    assert found is not None
    assert found.groups == (tuple(sorted(hand(FULL_RED))),)
    assert REMI_RO.find_contract(hand(FULL_RED), opts()) == found


# --------------------------------------------------------------- §9.13 board closes


def brute_closes(faces: Sequence[Face], o: Options) -> dict[Face, tuple[str, int]]:
    """Every face whose discard leaves 14 tiles forming a contract, by direct search."""
    out: dict[Face, tuple[str, int]] = {}
    for face in set(faces):
        rest = list(faces)
        rest.remove(face)
        found = find_contract(rest, o)
        if found is not None:
            out[face] = (found.name, found.value)
    return out


def closes(faces: Sequence[Face], o: Options) -> dict[Face, tuple[str, int]]:
    got = board_closes(faces, o)
    for face, c in got.items():
        rest = list(faces)
        rest.remove(face)
        assert c.groups == (tuple(sorted(rest)),)
    return {f: (c.name, c.value) for f, c in got.items()}


def test_rule_9_13_board_closes_names_exactly_the_closing_tiles() -> None:
    """§9.13 winning: with 15 tiles, discard the 15th if the other 14 form a contract."""
    o = opts()
    faces = hand(FULL_RED + " B5")
    assert closes(faces, o) == {Face.parse("B5"): ("monocolour", 1500)}
    faces = hand("R3 R3 B7 B7 Y11 Y11 K1 K1 R13 R13 B5 B5 Y9 Y9 Y9")
    assert closes(faces, o) == {Face.parse("Y9"): ("doubles", 1300)}
    # a joker extra: discarding it or any single leaves a contract
    faces = hand("R3 R3 B7 B7 Y11 Y11 K1 K1 R13 R13 B5 B5 Y9 Y9 J")
    got = closes(faces, o)
    assert got[Face.parse("J")] == ("doubles", 1300)
    assert got == brute_closes(faces, o)
    assert closes(hand(FULL_RED), o) == {}  # 14 tiles: nothing to discard


def test_rule_9_13_board_closes_agrees_with_a_direct_search() -> None:
    rng = random.Random(913)
    bases = [
        "R5 B5 Y5 K5 R9 B9 Y9 K9 R12 B12 Y12 B2 Y2 K2",
        "R3 R3 B7 B7 Y11 Y11 K1 K1 R13 R13 B5 B5 Y9 Y9",
        "R1 R2 R3 R4 R5 R6 R7 B8 B9 B10 B11 B12 B13 B1",
        FULL_RED,
        MOSAIC_STRICT,
        MOSAIC_THREE_COLOURS,
        ALTERNATING,
        "R1 R2 R3 B5 Y5 K5 K7 K8 K9 K10 R11 B11 Y11 K11",
        "R1 R2 R3 R4 R6 R7 R8 B1 B2 B3 B10 B11 B12 B13",
    ]
    every = list(P.faces)
    for trial in range(40):
        o = opts(
            mosaic_strict=rng.random() < 0.5,
            bicolor_definition=rng.choice(
                ["two_single_colour_runs", "complete_run_two_colours", "runs_of_two_colours"]
            ),
        )
        if trial % 4 == 0:
            pool = list(range(106))
            rng.shuffle(pool)
            faces = [P.faces[p] for p in pool[:15]]
        else:
            faces = hand(rng.choice(bases))
            for _ in range(rng.randint(0, 2)):
                faces[rng.randrange(14)] = Face.joker(TILES)
            faces.append(rng.choice(every))
        assert closes(faces, o) == brute_closes(faces, o), " ".join(map(str, faces))


# --------------------------------------------------------------- §9.13 generated contracts


def run_of(colour: int, start: int, size: int) -> list[Face]:
    return [Face.of(TILES, colour, 1 if p == HIGH_ACE else p) for p in range(start, start + size)]


def generated_contract(rng: random.Random, name: str) -> list[Face]:
    """14 tiles built to satisfy contract `name` as §9.13 defines it."""
    if name == "monocolour":
        return run_of(rng.randrange(4), 1, 14)
    if name in ("mosaic", "mosaic_bg"):
        strict = name == "mosaic"
        colours: list[int] = []
        for i in range(14):
            allowed = [
                c
                for c in range(4)
                if not (colours and colours[-1] == c)
                and not (strict and i < 4 and c in colours)
                and not (strict and i == 13 and c == colours[0])
            ]
            colours.append(rng.choice(allowed))
        return [
            Face.of(TILES, c, 1 if p == HIGH_ACE else p)
            for c, p in zip(colours, range(1, 15), strict=True)
        ]
    if name == "bicolour":
        first, second = rng.sample(range(4), 2)
        size = rng.randint(3, 11)
        return run_of(first, rng.randint(1, 15 - size), size) + run_of(
            second, rng.randint(1, size + 1), 14 - size
        )
    if name == "bete":
        out: list[Face] = []
        for rank, size in zip(rng.sample(range(1, 14), 4), (4, 4, 3, 3), strict=True):
            out += [Face.of(TILES, c, rank) for c in rng.sample(range(4), size)]
        return out
    if name == "doubles":
        return [Face.from_kind(TILES, k) for k in rng.sample(range(52), 7) for _ in "xx"]
    # simple: random runs and sets (at most two copies of a tile)
    while True:
        tiles: list[Face] = []
        left = 14
        while left:
            # parts of 3..7 tiles that add up to 14
            if left <= 7 and (left < 6 or rng.random() < 0.5):
                size = left
            else:
                size = rng.randint(3, min(5, left - 3))
            if rng.random() < 0.5 and size <= 4:
                rank = rng.randint(1, 13)
                tiles += [Face.of(TILES, c, rank) for c in rng.sample(range(4), size)]
            else:
                tiles += run_of(rng.randrange(4), rng.randint(1, 15 - size), size)
            left -= size
        if all(tiles.count(f) <= 2 for f in tiles):
            return tiles


CONTRACT_VALUES = {
    "monocolour": 1500,
    "doubles": 1300,
    "bicolour": 1200,
    "mosaic": 1000,
    "mosaic_bg": 1000,
    "bete": 700,
    "simple": 500,
}


@pytest.mark.parametrize("name", list(CONTRACT_VALUES))
def test_rule_9_13_generated_contracts_are_recognised(name: str) -> None:
    """Any 14 tiles built to a contract's definition, with up to two of them replaced by jokers
    (A-61 (3)), score at least that contract's value (a higher contract may also apply)."""
    rng = random.Random(name)
    o = opts(mosaic_strict=name != "mosaic_bg")
    for _ in range(60):
        tiles = generated_contract(rng, name)
        assert len(tiles) == 14
        for i in rng.sample(range(14), rng.choice([0, 0, 1, 2])):
            tiles[i] = Face.joker(TILES)
        found = find_contract(tiles, o)
        assert found is not None, " ".join(map(str, tiles))
        assert found.value >= CONTRACT_VALUES[name], " ".join(map(str, tiles))


def test_a59_closing_multiplier_includes_the_bonuses() -> None:
    """A-59: the ×2 for a 1/joker close multiplies the whole score, closing bonus and atu too."""
    seats = rrt20_seats()
    seats[0] = seat(closed=True, table=80, atu=True)
    assert score_deal(seats, False, Face.parse("J"), opts(3))[0] == (80 + 50 + 50) * 2
    assert score_deal(seats, True, Face.parse("J"), opts(3))[0] == (80 + 50 + 50) * 4
