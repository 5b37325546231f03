"""rummykit.rules.remmi_de: every rule of RULES §10 and every option of §10.11.

The §12.8 scenarios are in tests/test_remmi_de_scenarios.py; these tests cover the
rest of the section, the module's functions and the options.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit import (
    assert_conserved,
    column,
    draw,
    illegal,
    on_board,
    pass_turn,
    pass_turns,
    play,
    rack,
    run_out,
    table,
)
from remmi_de_support import act, faces, stacked_game
from rummykit.engine import Game
from rummykit.engine.actions import Ready
from rummykit.engine.game import Phase
from rummykit.model.candidates import candidates, candidates_with, counts_of
from rummykit.model.melds import MeldKind, read_meld
from rummykit.model.pieces import Face, Material
from rummykit.rules import OptionError, find_variant
from rummykit.rules.meldcheck import check_meld
from rummykit.rules.options import VariantOptions
from rummykit.rules.remmi_de import (
    BOARD_CONTRACT,
    MELD_RULES,
    REMMI_DE,
    _isolated,
    board_closes,
    build_wall,
    find_contract,
    meld_rules_for,
    min_deadwood,
    opening_value,
    opening_value_for,
    rack_value,
    score_deal,
    score_value_for,
)
from rummykit.rules.tiles import TILES_106
from rummykit.rules.variant import OpeningStructure, SeatOutcome, TakeUse

TILE = Material.TILES
DEFAULTS = REMMI_DE.resolve(4)


def opts(**given: object) -> VariantOptions:
    return REMMI_DE.resolve(4, given)


# ------------------------------------------------------------------ registry, options


def test_registered_under_its_name_and_alias() -> None:
    """Issue 3: id ``remmi_de``, alias ``remmi``."""
    assert find_variant("remmi") is REMMI_DE
    assert find_variant("REMMI-DE") is REMMI_DE
    assert REMMI_DE.rules_section == "§10"
    assert (REMMI_DE.min_players, REMMI_DE.max_players) == (2, 4)


def test_option_defaults_follow_the_options_table() -> None:
    """§10.11: every option with its default."""
    assert dict(DEFAULTS) == {
        "direction": "clockwise",
        "opening_min_points": 50,
        "opening_requires_set_and_run": True,
        "one_value_high": 14,
        "one_value_set": 10,
        "one_value_low": 1,
        "max_jokers_rule": "jokers_le_naturals",
        "set_max_size": 4,
        "joker_rack_penalty": 50,
        "one_rack_value": 1,
        "joker_exchange_by_unopened": True,
        "joker_exchange_must_use_immediately": False,
        "first_player_may_open_first_turn": True,
        "allow_reclaim_own_end_tiles": False,
        "allow_discard_of_taken_discard": False,
        "doubles_swap_enabled": True,
        "board_variant": False,
        "board_joker_close_multiplier": 2,
        "board_count_all_rack_tiles": True,
        "match_deals": 4,
    }
    assert REMMI_DE.resolve(2)["match_deals"] == 2


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"direction": "left"}, "direction"),
        ({"set_max_size": 5}, "set_max_size"),
        ({"max_jokers_rule": "any"}, "max_jokers_rule"),
        ({"board_variant": "yes"}, "board_variant"),
        ({"atu_bonus": 50}, "unknown option"),
    ],
)
def test_invalid_options_are_rejected(given: dict[str, object], message: str) -> None:
    """Options are validated, never silently replaced."""
    with pytest.raises(OptionError, match=message):
        REMMI_DE.resolve(4, given)


def test_play_rules_encode_the_turn_structure() -> None:
    """§10.3-§10.9 as switches."""
    play_rules = REMMI_DE.play_rules(DEFAULTS)
    assert play_rules.take_use is TakeUse.NEW_FORMATION_IF_UNOPENED
    assert play_rules.opening_structure is OpeningStructure.RUN_AND_SET
    assert play_rules.opening_min_points == 50
    assert not play_rules.first_turn_draws and play_rules.first_turn_may_meld
    assert not play_rules.first_discard_dead and not play_rules.take_any_column_tile
    assert not play_rules.go_out_without_discard and not play_rules.recycle_stock
    assert play_rules.match_winner == "lowest"
    assert not play_rules.atu_announcement and not play_rules.maker_passes_right
    board = REMMI_DE.play_rules(REMMI_DE.resolve(4, {"board_variant": True}))
    assert board.everyone_on_board and board.take_use is TakeUse.NONE
    assert not board.joker_exchange
    loose = REMMI_DE.play_rules(REMMI_DE.resolve(4, {"opening_requires_set_and_run": False}))
    assert loose.opening_structure is OpeningStructure.NONE


# ------------------------------------------------------------------ §10.4 formations


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("R12 R13 R1", True),
        ("R13 R1 R2", False),
        ("R1 R2 R3", True),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", True),
        ("B7 R7 Y7", True),
        ("B7 R7 Y7 K7", True),
        ("B7 B7 R7", False),
        ("R1 J J", False),
        ("R5 R6 J J", True),
        ("R5 J J J", False),
        ("B9 Y9 J", True),
        ("B9 J J", False),
    ],
)
def test_formations(text: str, valid: bool) -> None:
    """§10.4, A-76: 1 low or high (14), never inside; 1…13-1; Kunst of different colours,
    at most 4; never more jokers than numbered tiles."""
    assert bool(read_meld(faces(text), MELD_RULES)) is valid


def test_max_jokers_rule_and_set_max_size_options() -> None:
    """§10.11: ``max_jokers_rule`` and ``set_max_size`` change the formation rules."""
    assert meld_rules_for(DEFAULTS) is MELD_RULES
    one_natural = meld_rules_for(REMMI_DE.resolve(4, {"max_jokers_rule": "one_natural"}))
    assert read_meld(faces("R1 J J"), one_natural)
    one_joker = meld_rules_for(REMMI_DE.resolve(4, {"max_jokers_rule": "one_joker"}))
    assert not read_meld(faces("R5 R6 J J"), one_joker)
    assert read_meld(faces("R5 R6 J"), one_joker)
    small = meld_rules_for(REMMI_DE.resolve(4, {"set_max_size": 3}))
    assert not read_meld(faces("B7 R7 Y7 K7"), small)
    assert read_meld(faces("B7 R7 Y7"), small)


def test_meld_options_reach_the_engine() -> None:
    """§10.11: a game under ``max_jokers_rule = one_natural`` accepts [R1 J J]."""
    game = stacked_game(4, {0: "R1 J J"}, options={"max_jokers_rule": "one_natural"})
    assert game.can(act("meld [R1 J J]"))
    default = stacked_game(4, {0: "R1 J J"})
    assert not default.can(act("meld [R1 J J]"))


# ------------------------------------------------------------------ §10.5 opening values


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("R1 K1 J", 30),
        ("B2 B3 B4", 9),
        ("K5 K6 K7", 18),
        ("B12 B13 B1", 39),
        ("R7 B7 K7", 21),
        ("K5 R5 Y5", 15),
        ("K11 J K13 K1", 50),
        ("R1 R2 R3", 6),
        ("J R2 R3", 9),
    ],
)
def test_opening_values_of_the_documents_examples(text: str, points: int) -> None:
    """§10.5: the number; 1 low 1, high 14, in a Kunst 10; a joker as its tile (§2.2: an
    undeclared joker takes the reading worth most, [J R2 R3] as R2 R3 R4)."""
    verdict = check_meld(REMMI_DE, faces(text))
    assert verdict.valid and verdict.opening_points == points


def test_opening_value_table() -> None:
    """§10.5 per position."""
    assert [opening_value(MeldKind.RUN, p) for p in (1, 2, 9, 13, 14)] == [1, 2, 9, 13, 14]
    assert [opening_value(MeldKind.SET, p) for p in (1, 2, 13)] == [10, 2, 13]
    custom = opening_value_for(
        REMMI_DE.resolve(4, {"one_value_high": 15, "one_value_set": 25, "one_value_low": 5})
    )
    assert (custom(MeldKind.RUN, 14), custom(MeldKind.SET, 1), custom(MeldKind.RUN, 1)) == (
        15,
        25,
        5,
    )
    assert REMMI_DE.opening_values(DEFAULTS) is opening_value


def test_one_value_options_change_the_opening_in_play() -> None:
    """§10.11 ``one_value_set``: [R1 B1 K1] + [R2 R3 R4] is 39 by default, 84 at 25 a 1."""
    racks = {0: "R1 B1 K1 R2 R3 R4 Y9"}
    game = stacked_game(4, racks)
    play(game, "P1: meld [R1 B1 K1]", "P1: meld [R2 R3 R4]")
    assert game.turn.laid_points == 39
    assert "§10.5" in illegal(game, "discard Y9").rule
    rich = stacked_game(4, racks, options={"one_value_set": 25})
    play(rich, "P1: meld [R1 B1 K1]", "P1: meld [R2 R3 R4]", "P1: discard Y9")
    assert rich.opened[0]


def test_opening_min_points_and_structure_options() -> None:
    """§10.11: ``opening_min_points`` and ``opening_requires_set_and_run``."""
    racks = {0: "R9 R10 R11 R12 R13 Y2"}
    strict = stacked_game(4, racks)
    play(strict, "P1: meld [R9 R10 R11 R12 R13]")
    assert illegal(strict, "discard Y2").rule.startswith("§9.8/§10.5")
    loose = stacked_game(4, racks, options={"opening_requires_set_and_run": False})
    play(loose, "P1: meld [R9 R10 R11 R12 R13]", "P1: discard Y2")
    assert loose.opened[0]
    higher = stacked_game(
        4, racks, options={"opening_requires_set_and_run": False, "opening_min_points": 60}
    )
    play(higher, "P1: meld [R9 R10 R11 R12 R13]")
    assert "60 points" in str(illegal(higher, "discard Y2"))


# ------------------------------------------------------------------ §10.1-10.2 deal


def test_counterclockwise_play_puts_the_first_player_before_the_dealer() -> None:
    """§0.4/§10.1/A-68: with counter-clockwise play the dealer's left neighbour is the
    previous seat in play order."""
    order = list(range(len(TILES_106)))
    ccw = build_wall(order, 4, 2, REMMI_DE.resolve(4, {"direction": "counterclockwise"}))
    cw = build_wall(order, 4, 2, DEFAULTS)
    assert (ccw.first_seat, cw.first_seat) == (1, 3)
    assert len(ccw.racks[1]) == 15 and len(cw.racks[3]) == 15


def test_joker_extra_tile_counts_14() -> None:
    """§10.2(2): a joker as the extra tile marks stack 14, whose neighbour 15 gets 8 tiles."""
    joker = TILES_106.pieces_of(Face.joker(TILE))[0]
    order = [p for p in range(len(TILES_106)) if p != joker] + [joker]
    layout = build_wall(order, 2, 1, REMMI_DE.resolve(2))
    assert layout.racks[0][:8] == (*order[98:105], order[97])
    assert layout.notes == ("extra tile J, stack 14",)


def finish_deal(game: Game) -> None:
    """Pass the swap phase and draw-and-discard until the stock runs out."""
    while game.phase is Phase.PREPLAY:
        game.apply(Ready())
    run_out(game)


@pytest.mark.parametrize(
    ("direction", "dealer", "first"), [("clockwise", 3, 1), ("counterclockwise", 1, 3)]
)
def test_the_dealer_role_moves_to_the_left(direction: str, dealer: int, first: int) -> None:
    """§10.1: the dealer rotates clockwise, to his left: the next seat in clockwise play,
    the previous one in counter-clockwise play; the new first player sits on his left."""
    game = Game("remmi", 4, {"direction": direction}, seed=3, maker=dealer)
    assert game.first_seat == 0
    finish_deal(game)
    play(game, "next")
    assert (game.maker, game.first_seat) == (0, first)


def test_double_swap_needs_no_matching_category_and_there_is_no_reshuffle() -> None:
    """§10.2(6): any two doubles may be swapped with consent; no three-doubles reshuffle."""
    game = stacked_game(4, {0: "R5 R5", 1: "B12 B12 K3 K3 Y1 Y1"}, ready=False)
    play(game, "P1: doubles small", "P1: ready", "P2: doubles big")
    assert illegal(game, "reshuffle").rule == "§9.4"
    play(game, "P2: swap B12 P1", "P1: accept R5")
    assert "R5" in rack(game, 1) and "B12" in rack(game, 0)
    disabled = stacked_game(
        4, {0: "R5 R5", 1: "B12 B12"}, ready=False, options={"doubles_swap_enabled": False}
    )
    play(disabled, "P1: doubles small", "P1: ready", "P2: doubles big")
    assert illegal(disabled, "swap B12 P1").rule == "§9.4"


# ------------------------------------------------------------------ §10.3 turns


def test_only_the_predecessors_last_discard_can_be_taken() -> None:
    """§10.3(1): discards pile up between neighbours; only the predecessor's latest is
    available, and taking it replaces the draw."""
    game = stacked_game(4, {0: "B8"})
    play(game, "P1: discard B8")
    pass_turn(game)
    assert len(column(game)) == 2
    assert illegal(game, "take 0").rule == "§10.3(1)"
    play(game, "P3: take 1")
    assert illegal(game, "draw").rule == "§10.3(1)"


def test_an_opened_player_takes_the_discard_freely_but_cannot_throw_it_back() -> None:
    """§10.3(1)/A-71: an opened player keeps the taken tile with no obligation;
    §2.5/A-03: it cannot be discarded again in the same turn (an engine option)."""
    racks = {0: "K5 K6 K7 R13 B13 Y13 Y5 B2", 3: "R9"}
    for allowed in (False, True):
        game = stacked_game(4, racks, options={"allow_discard_of_taken_discard": allowed})
        play(game, "P1: meld [K5 K6 K7]", "P1: meld [R13 B13 Y13]", "P1: discard Y5")
        pass_turns(game, 2)
        play(game, "P4: draw", "P4: discard R9")
        play(game, "P1: take 3")
        assert "R9" in rack(game, 0)
        if allowed:
            play(game, "P1: discard R9")
        else:
            assert illegal(game, "discard R9").rule == "§2.5/A-03"
            play(game, "P1: discard B2")
            assert "R9" in rack(game, 0)


def test_the_first_player_may_open_in_his_first_turn_unless_the_option_forbids() -> None:
    """§10.3/A-72 and ``first_player_may_open_first_turn``."""
    racks = {0: "K5 K6 K7 R13 B13 Y13 Y5"}
    game = stacked_game(4, racks)
    assert game.can(act("meld [K5 K6 K7]"))
    strict = stacked_game(4, racks, options={"first_player_may_open_first_turn": False})
    assert illegal(strict, "meld [K5 K6 K7]").rule == "§5.2/A-14"
    assert not any(str(a).startswith("meld") for a in strict.legal_actions())


def test_an_unopened_player_keeps_14_tiles() -> None:
    """§10.3: before opening nothing is laid, so every unopened rack holds 14 after the
    discard."""
    game = stacked_game(3)
    for _ in range(6):
        pass_turn(game)
        assert all(len(r) == 14 for r in game.racks)


# ------------------------------------------------------------------ §10.6 joker exchange


def _exchange_table(options: dict[str, object] | None = None) -> Game:
    """P1 opened with [R1 K1 J] and [K11 K12 J(K13)]; P2 is unopened, on turn."""
    game = stacked_game(
        4,
        {0: "R1 K1 J K11 K12 J Y7", 1: "K13 B1 Y1 R10 R11 R12 B7 Y7 K7 Y6"},
        options=options,
    )
    play(game, "P1: meld [R1 K1 J]", "P1: meld [K11 K12 J(K13)]", "P1: discard Y7")
    play(game, "P2: draw")
    return game


def test_an_unopened_player_may_exchange_one_for_one_and_keep_the_joker() -> None:
    """§10.6/A-70: no opening needed, no obligation to use the joker; the rack stays at 14."""
    game = _exchange_table()
    play(game, "P2: exchange K13 -> m2")
    assert table(game)[1] == "[K11 K12 K13]"
    play(game, "P2: discard Y6")
    assert "J" in rack(game, 1) and len(game.racks[1]) == 14 and not game.opened[1]


def test_an_unopened_player_frees_a_kunst_joker_only_after_his_opening_formations() -> None:
    """§10.3/A-70: B1 + Y1 for one joker would leave 13 tiles on an unopened rack, so it
    waits for his opening formations in the same turn."""
    game = _exchange_table()
    assert "exchange Y1 B1 -> m1" not in [str(a) for a in game.legal_actions()]
    assert illegal(game, "exchange B1 Y1 -> m1").rule == "§10.6/A-70"
    play(game, "P2: meld [R10 R11 R12]", "P2: exchange K13 -> m2", "P2: meld [B7 Y7 K7 J]")
    assert "exchange Y1 B1 -> m1" in [str(a) for a in game.legal_actions()]
    play(game, "P2: exchange B1 Y1 -> m1")
    assert sorted(table(game)[0].strip("[]").split()) == ["B1", "K1", "R1", "Y1"]
    assert game.turn.laid_points == 33 + 28
    play(game, "P2: discard Y6")
    assert game.opened[1] and rack(game, 1).count("J") == 1


def test_no_kunst_joker_is_freed_when_sets_hold_three() -> None:
    """§10.6 with ``set_max_size = 3``: four colours never fit, so a Kunst's joker stays."""
    game = _exchange_table({"set_max_size": 3})
    play(game, "P2: meld [R10 R11 R12]", "P2: exchange K13 -> m2")
    assert illegal(game, "exchange B1 Y1 -> m1").rule == "§10.6"
    assert not any(str(a).endswith("-> m1") for a in game.legal_actions())


def test_joker_exchange_by_unopened_option() -> None:
    """§10.11 ``joker_exchange_by_unopened = false``: an exchange needs the player to be
    opened by the end of the turn."""
    game = _exchange_table({"joker_exchange_by_unopened": False})
    play(game, "P2: exchange K13 -> m2")
    assert illegal(game, "discard Y6").rule == "§9.10/A-55"


def test_joker_exchange_must_use_immediately_option() -> None:
    """§10.11 ``joker_exchange_must_use_immediately = true``: the freed joker must go into
    a formation in the same turn."""
    game = _exchange_table({"joker_exchange_must_use_immediately": True})
    play(game, "P2: exchange K13 -> m2")
    assert illegal(game, "discard Y6").rule == "§10.6/A-70"


# ------------------------------------------------------------------ §10.7-10.9 end, scoring


def test_exhaustion_charges_every_rack() -> None:
    """§10.8/A-73: the deal ends after the turn of the last draw; everyone pays his rack."""
    game = stacked_game(2)
    run_out(game)
    result = game.results[-1]
    assert result.end == "exhaustion" and result.closer is None
    assert result.scores == result.rack_values
    assert all(v > 0 for v in result.scores)
    assert_conserved(game)


def test_rack_values() -> None:
    """§10.9/A-69: the number; a 1 counts 1; a joker 50; both are options."""
    assert [rack_value(f) for f in faces("R1 B9 K13 J")] == [1, 9, 13, 50]
    custom = score_value_for(REMMI_DE.resolve(4, {"one_rack_value": 25, "joker_rack_penalty": 30}))
    assert [custom(f) for f in faces("R1 B9 J")] == [25, 9, 30]


def _outcome(rack_text: str, closed: bool = False, value: int | None = None) -> SeatOutcome:
    rack_faces = tuple(faces(rack_text))
    return SeatOutcome(
        rack=rack_faces,
        opened=True,
        board=False,
        three_violation=False,
        atu=False,
        closed=closed,
        table_value=0,
        rack_value=sum(rack_value(f) for f in rack_faces) if value is None else value,
    )


def test_score_deal_charges_the_losers() -> None:
    """§10.9: the winner 0, the others their rack value; no multiplier outside 8B."""
    outcomes = [_outcome("", closed=True), _outcome("R1 K13 J"), _outcome("B5")]
    assert score_deal(outcomes, False, Face.joker(TILE), DEFAULTS) == (0, 64, 5)


def test_the_lowest_total_wins_the_match() -> None:
    """§10.9: ``match_deals`` deals (one per player by default); the lowest total wins."""
    game = Game("remmi", 2, {"match_deals": 2}, seed=5)
    finish_deal(game)
    play(game, "next")
    finish_deal(game)
    assert game.is_over
    assert len(game.results) == 2
    best = min(game.totals)
    assert game.winners() == [s for s, t in enumerate(game.totals) if t == best]


def test_the_extra_tile_is_drawn_last_among_the_stacks_and_usable() -> None:
    """§10.7: the extra tile is drawn like any tile and may be used."""
    game = stacked_game(2, {1: "R3 B3"}, indicator="Y3")
    indicator = game.indicator
    while game.stock[-1] != indicator:
        pass_turn(game)
    play(game, "P2: draw")
    assert game.can(act("meld [R3 B3 Y3]"))


# ------------------------------------------------------------------ §10.10 board game 8B

BOARD = {"board_variant": True}


def test_board_players_never_lay_out_attach_or_exchange() -> None:
    """§10.10: nobody lays out; there is no attaching and no joker exchange."""
    game = stacked_game(4, {0: "K5 K6 K7 R13 B13 Y13 Y5"}, options=BOARD)
    assert all(on_board(game))
    assert illegal(game, "meld [K5 K6 K7]").rule == "§10.10"
    assert not any(
        str(a).startswith(("meld", "attach", "exchange", "board")) for a in game.legal_actions()
    )


def test_board_players_take_the_discard_freely() -> None:
    """§10.10/A-74: taking the predecessor's tile needs no opening and no use."""
    game = stacked_game(4, {0: "B8"}, options=BOARD)
    play(game, "P1: discard B8", "P2: take 0")
    play(game, f"P2: discard {next(t for t in rack(game, 1) if t != 'B8')}")
    assert "B8" in rack(game, 1)


def test_board_finish_needs_a_kunst_and_a_laufend() -> None:
    """§10.10: 14 tiles of Kunst only are no finish; with a Laufend they are."""
    sets_only = "R2 B2 Y2 K2 R5 B5 Y5 K5 R8 B8 Y8 R11 B11 Y11 K13"
    game = stacked_game(2, {0: sets_only}, options=BOARD)
    assert illegal(game, "close K13").rule == "§10.10"
    assert not any(str(a).startswith("close") for a in game.legal_actions())
    mixed = "R2 B2 Y2 R5 B5 Y5 R8 B8 Y8 K10 K11 K12 K13 K1 Y7"
    winner = stacked_game(2, {0: mixed}, options=BOARD)
    # the first player may finish in his first turn.
    assert [str(a) for a in winner.legal_actions() if str(a).startswith("close")] == ["close Y7"]
    play(winner, "P1: close Y7")
    result = winner.results[-1]
    assert (result.end, result.contract, result.scores[0]) == ("board", BOARD_CONTRACT, 0)


def test_find_contract_and_board_closes() -> None:
    """§10.10 hooks: the contract of 14 tiles, and the finishing discards of 15."""
    fourteen = faces("R2 B2 Y2 R5 B5 Y5 R8 B8 Y8 K11 K12 K13 K1 Y7")
    assert find_contract(fourteen, DEFAULTS) is None
    good = faces("R2 B2 Y2 R5 B5 Y5 R8 B8 Y8 K10 K11 K12 K13 K1")
    contract = find_contract(good, DEFAULTS)
    assert contract is not None and contract.name == BOARD_CONTRACT
    assert sorted(f for g in contract.groups for f in g) == sorted(good)
    closes = board_closes([*good, Face.parse("J", TILE)], DEFAULTS)
    assert Face.parse("J", TILE) in closes and Face.parse("K10", TILE) in closes
    assert board_closes(good, DEFAULTS) == {}


def test_board_finish_with_jokers_between_distant_tiles() -> None:
    """§10.10 with §10.4: [R5 J J R8] is a Laufend (two jokers, two numbers), so R5 and
    R8 are partners although three positions apart; without jokers they are not."""
    rack = faces("R5 J J R8 B2 Y2 K2 Y9 Y10 Y11 B12 Y12 K12 R12")
    contract = find_contract(rack, DEFAULTS)
    assert contract is not None
    assert any(sorted(g) == sorted(faces("R5 J J R8")) for g in contract.groups)
    closes = board_closes([*rack, Face.parse("K7", TILE)], DEFAULTS)
    assert list(closes) == [Face.parse("K7", TILE)]
    without = faces("R5 R6 R7 R8 B2 Y2 K2 Y9 Y10 Y11 B12 Y12 K12 R12")
    assert find_contract(without, DEFAULTS) is not None
    gap = faces("R5 B1 K1 R8 B2 Y2 K2 Y9 Y10 Y11 B12 Y12 K12 R12")
    assert find_contract(gap, DEFAULTS) is None


@pytest.mark.parametrize(
    ("rack", "lonely"),
    [
        ("R1 R13 B7", ["B7"]),  # the 1 is high next to the 13 (§10.4); B7 has no partner
        ("R1 R3 Y11 B9", ["R1", "R3", "Y11", "B9"]),  # no joker: two positions apart is too far
        ("R1 R3 Y11 B9 J", ["Y11", "B9"]),  # one joker bridges R1 _ R3
        ("R1 R4 Y11 B9 J J", ["Y11", "B9"]),  # two jokers bridge R1 _ _ R4
        ("R1 R4 Y11 B9 K9 J", ["R1", "R4", "Y11"]),  # B9 and K9 make a Kunst's pair
    ],
)
def test_tiles_with_no_possible_formation_partner(rack: str, lonely: list[str]) -> None:
    """The 8B refutation (§10.10): tiles no other numbered tile can share a formation with,
    in kind order (colours R Y B K)."""
    counts = counts_of([f.kind for f in faces(rack)])
    assert _isolated(counts, 99, MELD_RULES) == [f.kind for f in faces(" ".join(lonely))]
    assert _isolated(counts, 1, MELD_RULES) == [f.kind for f in faces(lonely[0])]


@cache
def _naive_cover(counts: tuple[int, ...], has_set: bool, has_run: bool) -> bool:
    """Exact cover with a Kunst and a Laufend, by plain search (no refutations)."""
    first = next((k for k in range(52) if counts[k]), None)
    if first is None:
        return not counts[52] and has_set and has_run
    for cand in candidates_with(counts, MELD_RULES, first):
        rest = list(counts)
        for k, c in cand.need:
            rest[k] -= c
        if min(rest) >= 0 and _naive_cover(
            tuple(rest), has_set or cand.kind is MeldKind.SET, has_run or cand.kind is MeldKind.RUN
        ):
            return True
    return False


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1), st.integers(0, 5))
def test_board_contract_search_agrees_with_plain_search(seed: int, noise: int) -> None:
    """§10.10: the pruned cover search finds a contract exactly when a plain search does,
    on racks built mostly from formations (so that both answers occur)."""
    rng = random.Random(seed)
    pool = list(range(len(TILES_106)))
    rng.shuffle(pool)
    chosen: list[int] = []
    candidates_all = candidates(counts_of([f.kind for f in TILES_106.faces]), MELD_RULES)
    for _ in range(200):
        if len(chosen) > 11 - noise:
            break
        cand = rng.choice(candidates_all)
        ids = []
        for kind in cand.kinds:
            ids.append(next((p for p in pool if TILES_106.faces[p].kind == kind), -1))
            if ids[-1] >= 0:
                pool.remove(ids[-1])
        if -1 in ids or len(chosen) + len(ids) > 14:
            pool.extend(p for p in ids if p >= 0)
            continue
        chosen.extend(ids)
    chosen.extend(pool[: 14 - len(chosen)])
    rack = [TILES_106.faces[p] for p in chosen]
    expected = _naive_cover(counts_of([f.kind for f in rack]), False, False)
    assert (find_contract(rack, DEFAULTS) is not None) is expected


def test_board_count_all_rack_tiles_option() -> None:
    """§10.10/A-74: by default every rack tile counts; otherwise only the tiles outside
    formations (the least such value)."""
    options = REMMI_DE.resolve(3, {**BOARD, "board_count_all_rack_tiles": False})
    rack_text = "R3 R4 R5 B9 Y9 K9 K2 J"
    assert min_deadwood(faces(rack_text), options) == 2
    outcomes = [_outcome("", closed=True), _outcome(rack_text)]
    assert score_deal(outcomes, False, None, options) == (0, 2)
    assert score_deal(outcomes, False, Face.joker(TILE), options) == (0, 4)
    counted = REMMI_DE.resolve(3, BOARD)
    assert score_deal(outcomes, False, None, counted) == (0, 3 + 4 + 5 + 27 + 2 + 50)


def test_board_joker_close_multiplier_option() -> None:
    """§10.11 ``board_joker_close_multiplier``."""
    options = REMMI_DE.resolve(3, {**BOARD, "board_joker_close_multiplier": 3})
    outcomes = [_outcome("", closed=True), _outcome("R9")]
    assert score_deal(outcomes, False, Face.joker(TILE), options) == (0, 27)


def test_board_games_run_to_the_end() -> None:
    """§10.10: random 8B deals keep every tile and end by a finish or exhaustion."""
    import random

    for seed in range(3):
        game = Game("remmi", 3, {**BOARD, "match_deals": 1}, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            assert_conserved(game)
        assert game.results[-1].end in ("board", "exhaustion")


def test_ready_passes_the_swap_phase() -> None:
    """Support check for ``stacked_game(ready=False)``."""
    game = stacked_game(3, ready=False)
    for _ in range(3):
        game.apply(Ready())
    assert game.phase is Phase.TURNS and draw is not None
