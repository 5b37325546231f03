"""Seat views (engine/view.py): what a seat may know, and nothing more.

The strongest checks compare two games whose walls differ only in hidden pieces: every
seat that cannot see those pieces must get exactly the same view.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from remi_ro_support import face, pass_turn, play, rack, stacked_game
from rummykit.bots import GreedyBot, play_to_end
from rummykit.engine.actions import (
    AcceptSwap,
    DeclineSwap,
    Discard,
    Draw,
    NextDeal,
    ProposeSwap,
    Ready,
    TakeColumn,
)
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import FormationView, SeatView, public_notation, view

ALLOWED_KEYS = {
    "variant",
    "options",
    "players",
    "seat",
    "phase",
    "deal_number",
    "round",
    "maker",
    "first_seat",
    "to_move",
    "rack",
    "rack_sizes",
    "table",
    "column",
    "stock_count",
    "indicator",
    "indicator_in_stock",
    "double_game",
    "opened",
    "board",
    "announced_three",
    "atu",
    "doubles_announced",
    "swap_offer",
    "turns_taken",
    "totals",
    "results",
    "must_use",
    "pending_jokers",
    "laid_points",
    "history",
}
"""Every key a view's JSON may have.  A new key must be added here on purpose, after
checking that it reveals nothing hidden (other racks, the stock order, the seed, piece ids)."""


def _ready_all(game: Game) -> None:
    while game.phase is Phase.PREPLAY:
        game.apply(Ready())


def _twin_games(seed: int, first: int, second: int) -> tuple[Game, Game]:
    """Two games whose first walls differ only by exchanging pieces ``first`` and ``second``
    (ids taken from a game dealt with ``seed``)."""
    base = Game("remi_ro", 4, seed=seed)
    order = list(base.walls_used[0])
    swapped = [second if p == first else first if p == second else p for p in order]
    a = Game("remi_ro", 4, walls=[order], maker=base.first_maker, seed=0)
    b = Game("remi_ro", 4, walls=[swapped], maker=base.first_maker, seed=0)
    return a, b


def _hidden_pair(game: Game, seat: int) -> tuple[int, int]:
    """A piece of ``seat``'s rack and a stock piece (not the indicator) of another face."""
    mine = game.racks[seat][0]
    other = next(p for p in game.stock if p != game.indicator and game.faces[p] != game.faces[mine])
    return mine, other


# --------------------------------------------------------------------- content


def test_view_shows_own_rack_and_only_the_sizes_of_others() -> None:
    game = Game("remi_ro", 4, seed=3)
    for seat in range(4):
        v = view(game, seat)
        data = v.to_json()
        assert set(data) <= ALLOWED_KEYS
        assert data["seat"] == seat
        assert data["rack"] == [str(f) for f in sorted(game.rack_faces(seat))]
        assert data["rack_sizes"] == [len(r) for r in game.racks]
        assert sorted(data["rack_sizes"]) == [14, 14, 14, 15]
        assert data["stock_count"] == len(game.stock) == 49
        for forbidden in ("racks", "stock", "seed", "walls", "log", "pieces", "rng"):
            assert forbidden not in data


def test_view_fields_of_a_fresh_stacked_deal() -> None:
    game = stacked_game(4, {0: "R5 R6 R7"}, indicator="K4", ready=False)
    v = view(game, 0)
    assert v.variant == "remi_ro"
    assert v.players == 4
    assert v.phase is Phase.PREPLAY
    assert v.deal_number == 0
    assert v.round == 1
    assert v.first_seat == 0
    assert v.to_move == 0
    assert v.indicator == face("K4")
    assert v.indicator_in_stock
    assert not v.double_game
    assert v.table == ()
    assert v.column == ()
    assert v.history == ()
    assert v.results == ()
    assert v.totals == (0, 0, 0, 0)
    assert v.opened == v.board == v.announced_three == v.atu == (False,) * 4
    assert v.swap_offer is None
    assert v.must_use == ()
    assert v.pending_jokers == 0
    assert v.laid_points == 0
    assert list(v.rack) == sorted(v.rack)
    assert {face("R5"), face("R6"), face("R7")} <= set(v.rack)
    assert v.options == dict(game.options)


def test_double_game_indicator_shows_in_the_view() -> None:
    game = stacked_game(4, indicator="R1", ready=False)
    v = view(game, 2)
    assert v.indicator == face("R1")
    assert v.double_game


def test_view_options_are_a_copy() -> None:
    game = Game("remi_ro", 2, seed=1)
    v = view(game, 0)
    v.options["atu_bonus"] = 999
    assert game.options["atu_bonus"] == 50
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.seat = 1  # type: ignore[misc]


@pytest.mark.parametrize("seat", [99, 4, -1])
def test_view_of_a_missing_seat_raises(seat: int) -> None:
    game = Game("remi_ro", 4, seed=1)
    with pytest.raises(ValueError, match=r"seat must be 0\.\.3"):
        view(game, seat)


def test_table_column_and_turn_state_in_views() -> None:
    # P2 takes P1's R5 from the column and opens with it (RRT-12 style).
    game = stacked_game(4, {0: "R5 K13", 1: "R3 R4 K10 B10 Y10"})
    pass_turn(game, "K13")
    for _ in range(3):
        pass_turn(game)
    pass_turn(game, "R5")
    last = len(game.column) - 1
    game.apply(TakeColumn(last))
    mover, other = view(game, 1), view(game, 0)
    assert mover.must_use == (face("R5"),)
    assert other.must_use == ()
    assert mover.column == other.column
    assert mover.column[0] == face("K13")  # the dead tile
    assert len(mover.column) == last
    play(game, "meld [R3 R4 R5]", "meld [K10 B10 Y10]")
    mover, other = view(game, 1), view(game, 0)
    assert mover.laid_points == 45
    assert other.laid_points == 0
    assert mover.table == other.table
    run = mover.table[0]
    assert isinstance(run, FormationView)
    assert (run.id, run.owner, run.kind, run.notation) == (1, 1, "run", "[R3 R4 R5]")
    assert run.faces == (face("R3"), face("R4"), face("R5"))
    assert run.positions == (3, 4, 5)
    assert mover.table[1].kind == "set"
    assert mover.to_json()["table"][1] == {
        "id": 2,
        "owner": 1,
        "kind": "set",
        "notation": mover.table[1].notation,
    }
    discard = next(t for t in rack(game, 1) if t not in ("R3", "R4"))
    game.apply(Discard(face(discard)))
    v = view(game, 3)
    assert all(view(game, s).must_use == () for s in range(4))
    assert all(view(game, s).laid_points == 0 for s in range(4))
    assert v.opened == (False, True, False, False)
    assert v.history[-4:] == (
        (1, f"take {last}"),
        (1, "meld [R3 R4 R5]"),
        (1, "meld [K10 B10 Y10]"),
        (1, f"discard {discard}"),
    )


# --------------------------------------------------------------------- hidden information


def test_views_are_identical_when_only_hidden_pieces_differ() -> None:
    probe = Game("remi_ro", 4, seed=7)
    victim = (probe.first_seat + 1) % 4
    a, b = _twin_games(7, *_hidden_pair(probe, victim))
    assert a.rack_faces(victim) != b.rack_faces(victim)
    for seat in range(4):
        if seat == victim:
            assert view(a, seat).to_json() != view(b, seat).to_json()
        else:
            assert view(a, seat).to_json() == view(b, seat).to_json()
            assert view(a, seat) == view(b, seat)


def test_a_drawn_tile_stays_hidden_from_the_other_seats() -> None:
    probe = Game("remi_ro", 4, seed=9)
    top = probe.stock[-1]
    deep = next(
        p for p in probe.stock[:-1] if p != probe.indicator and probe.faces[p] != probe.faces[top]
    )
    a, b = _twin_games(9, top, deep)
    for g in (a, b):
        _ready_all(g)
    first = a.first_seat
    drawer = (first + 1) % 4
    dead = a.rack_faces(first)[0]
    kept = a.rack_faces(drawer)[0]
    for g in (a, b):
        g.apply(Discard(dead))
        g.apply(Draw())
    assert a.rack_faces(drawer) != b.rack_faces(drawer)
    drawn_a = a.faces[top]
    assert drawn_a in view(a, drawer).rack
    for seat in range(4):
        if seat != drawer:
            assert view(a, seat).to_json() == view(b, seat).to_json()
            assert view(a, seat).history[-1] == (drawer, "draw")
    for g in (a, b):
        g.apply(Discard(kept))
    for seat in range(4):
        if seat != drawer:
            assert view(a, seat).to_json() == view(b, seat).to_json()


def _swap_game() -> Game:
    """P1 holds R5 R5, P2 holds B7 B7; both announce small doubles (pre-play)."""
    game = stacked_game(4, {0: "R5 R5", 1: "B7 B7"}, ready=False)
    assert game.to_move == 0
    play(game, "P1: doubles small", "P1: ready", "P2: doubles small")
    return game


def test_swap_offer_is_shown_only_to_the_two_seats() -> None:
    game = _swap_game()
    game.apply(ProposeSwap(face("B7"), 0))
    assert game.to_move == 0
    offer = "P2 offers P1 a double tile"
    assert view(game, 0).swap_offer == offer
    assert view(game, 1).swap_offer == offer
    assert view(game, 2).swap_offer is None
    assert view(game, 3).swap_offer is None
    assert view(game, 0).history[-1] == (1, "swap B7 P1")
    assert view(game, 1).history[-1] == (1, "swap B7 P1")
    assert view(game, 2).history[-1] == (1, "swap ? P1")
    assert view(game, 3).history[-1] == (1, "swap ? P1")
    for seat in (2, 3):
        text = json.dumps(view(game, seat).to_json())
        assert "B7" not in text
        assert "R5" not in text


def test_accepted_swap_hides_both_tiles_from_third_seats() -> None:
    game = _swap_game()
    game.apply(ProposeSwap(face("B7"), 0))
    game.apply(AcceptSwap(face("R5")))
    assert "B7" in rack(game, 0)
    assert "R5" in rack(game, 1)
    assert view(game, 0).history[-1] == (0, "accept R5")
    # The proposer learns the tile from his rack, not from the log.
    assert view(game, 1).history[-1] == (0, "accept ?")
    for seat in (2, 3):
        v = view(game, seat)
        assert v.history[-2:] == ((1, "swap ? P1"), (0, "accept ?"))
        text = json.dumps(v.to_json())
        assert "B7" not in text
        assert "R5" not in text
    assert all(view(game, s).swap_offer is None for s in range(4))


def test_declined_swap_history() -> None:
    game = _swap_game()
    game.apply(ProposeSwap(face("B7"), 0))
    game.apply(DeclineSwap())
    assert view(game, 3).history[-2:] == ((1, "swap ? P1"), (0, "decline"))
    assert view(game, 1).history[-2:] == ((1, "swap B7 P1"), (0, "decline"))
    assert rack(game, 0).count("R5") == 2


def test_public_notation() -> None:
    swap = ProposeSwap(face("R5"), 2)
    assert public_notation(swap, 0, 0) == "swap R5 P3"
    assert public_notation(swap, 0, 2) == "swap R5 P3"
    assert public_notation(swap, 0, 1) == "swap ? P3"
    assert public_notation(swap, 0, 3) == "swap ? P3"
    accept = AcceptSwap(face("B9"))
    assert public_notation(accept, 2, 2) == "accept B9"
    assert public_notation(accept, 2, 0) == "accept ?"
    assert public_notation(accept, 2, 1) == "accept ?"
    for action in (Draw(), Discard(face("K13")), TakeColumn(3), DeclineSwap(), NextDeal()):
        for viewer in range(4):
            assert public_notation(action, 1, viewer) == str(action)


# --------------------------------------------------------------------- history and JSON


def test_history_is_per_deal() -> None:
    game = Game("remi_ro", 2, seed=13)
    bots = [GreedyBot(), GreedyBot()]
    play_to_end(game, bots, random.Random(13), stop_at_deal_end=True)
    assert game.phase is Phase.DEAL_END
    v = view(game, 0)
    assert len(v.history) == len(game.log)
    assert list(v.history) == [(s, public_notation(a, s, 0)) for s, a in game.log]
    assert len(v.results) == 1
    assert v.totals == game.results[0].totals
    deal_one = len(game.log)
    game.apply(NextDeal())
    assert view(game, 0).history == ()
    assert view(game, 1).history == ()
    assert view(game, 0).deal_number == 1
    game.apply(Ready())
    h = view(game, 1).history
    assert len(h) == 1
    assert h[0][1] == "ready"
    assert len(game.log) == deal_one + 2


def test_to_json_is_json_serialisable_throughout_a_game() -> None:
    game = Game("remi_ro", 3, seed=5)
    bots = [GreedyBot() for _ in range(3)]
    rng = random.Random(5)
    checked = 0
    while not game.is_over:
        for seat in range(3):
            data = view(game, seat).to_json()
            text = json.dumps(data)
            assert json.loads(text) == data
            assert set(data) <= ALLOWED_KEYS
            checked += 1
        play_to_end(game, bots, rng, max_actions=7)
    final = view(game, 0).to_json()
    assert json.loads(json.dumps(final)) == final
    assert final["phase"] == "match_end"
    assert len(final["results"]) == 3
    assert final["results"][-1]["totals"] == final["totals"]
    assert checked > 30


def test_seat_view_is_built_from_plain_values() -> None:
    game = Game("remi_ro", 2, seed=2)
    v = view(game, 1)
    assert isinstance(v, SeatView)
    for name in v.__dataclass_fields__:
        assert not isinstance(getattr(v, name), Game)


def test_view_shows_which_table_jokers_are_locked() -> None:
    # RULES §9.10: an exchanged joker may not be exchanged again; everyone saw it happen.
    from rummykit.engine.position import analysis_game
    from rummykit.model.pieces import Material, parse_faces

    run = [(f, None) for f in parse_faces("R5 J R7", Material.TILES)]
    game = analysis_game("remi_ro", parse_faces("B2", Material.TILES), [run, run[:]])
    assert [f.locked for f in view(game, 0).table] == [(), ()]
    game.locked = {game.table[1].pieces[1]}
    assert [f.locked for f in view(game, 0).table] == [(), (False, True, False)]
