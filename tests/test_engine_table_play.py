"""The table plays (engine/table_play.py): meld, attach and joker exchange in remi_ro
(RULES §9.7–9.10), through real play from stacked walls.
"""

from __future__ import annotations

import pytest

from engine_game_support import exchange_table, opened_game
from kit import (
    draw,
    illegal,
    pass_turn,
    pass_turns,
    play,
    rack,
    run_out,
    table,
)
from remi_ro_support import face, stacked_game
from rummykit.engine import Game
from rummykit.engine.actions import (
    Discard,
)


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


def test_exchange_in_sets_needs_all_four_colours() -> None:
    """§9.10: [R5 B5 J] frees its joker only with Y5 and K5 together; [R8 B8 Y8 J] with K8."""
    game = exchange_table()
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
    game = exchange_table()
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
    game = exchange_table()
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
