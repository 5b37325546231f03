"""The ``joker_shift`` extension (Double Rummy, RULES §4.5): a card laid off in a joker's
place lifts the joker, which must go back on the table before anything else; the
RULES §12.2 scenarios DBL-05 and DBL-07 are in tests/test_double_scenarios.py.

A lay-off that replaces a joker in a run is two actions in the engine:
``attach 3D -> m1`` puts the card in the joker's place and lifts the joker, and the
next action must attach that joker again (``attach JK(4D) -> m1``).
"""

from __future__ import annotations

import random

from card_support import act, card_game, cards, double_hand_points, face, legal_texts
from kit import (
    draw,
    illegal,
    pass_turn,
    play,
    rack,
    table,
)
from rummykit.engine import Game, view
from rummykit.engine.actions import Attach, Meld
from rummykit.engine.extensions.joker_shift import lifted_joker
from rummykit.engine.game import Phase
from rummykit.model import MeldKind


def joker_between_game(p1: str = "6C") -> Game:
    """P2 lays `[5C JK(6C) 7C]` (m1); P1 holds ``p1`` and has drawn."""
    game = card_game("double", 2, racks={0: p1, 1: "5C 7C JK"})
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [5C JK(6C) 7C]", f"discard {drawn}")
    draw(game)
    return game


def test_the_laying_off_player_chooses_the_end_the_joker_moves_to() -> None:
    """§4.5: `[5C JK(6C) 7C]` + 6C gives `[JK(4C) 5C 6C 7C]` or `[5C 6C 7C JK(8C)]`, at the
    choice of the player laying off; the joker stays in its run (A-09)."""
    game = joker_between_game()
    play(game, "P1: attach 6C -> m1")
    assert legal_texts(game) == {"attach JK(4C) -> m1", "attach JK(8C) -> m1", "reset"}
    low, high = game.copy(), game.copy()
    play(low, "attach JK(4C) -> m1")
    play(high, "attach JK(8C) -> m1")
    assert table(low) == ["[JK(4C) 5C 6C 7C]"]
    assert table(high) == ["[5C 6C 7C JK(8C)]"]


def test_going_out_by_shifting_the_same_joker_twice() -> None:
    """§4.5, §4.7: P1, left with 6C, draws 8C: 6C lifts the joker to 8C, 8C lifts it again
    to 9C; with the joker placed his hand is empty and the deal ends without a discard."""
    run = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    game = card_game("double", 2, racks={0: f"6C {run}", 1: "5C 7C JK"}, stock="- - - - 8C")
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [5C JK(6C) 7C]", f"discard {drawn}")
    drawn = draw(game)
    play(game, f"P1: meld [{run}]", f"discard {drawn}")
    pass_turn(game)
    assert draw(game) == "8C" and rack(game, 0) == cards("6C 8C")
    play(game, "P1: attach 6C -> m1", "attach JK(8C) -> m1")
    assert table(game)[0] == "[5C 6C 7C JK(8C)]"
    play(game, "attach 8C -> m1")
    assert rack(game, 0) == ["JK"] and game.phase is Phase.TURNS
    assert legal_texts(game) == {"attach JK(4C) -> m1", "attach JK(9C) -> m1", "reset"}
    left = double_hand_points(game, 1)
    play(game, "attach JK(9C) -> m1")
    assert table(game)[0] == "[5C 6C 7C 8C JK(9C)]"
    (result,) = game.results
    assert result.end == "out" and result.closer == 0 and not result.hand
    assert result.scores == (left, 0)


def test_a_joker_in_a_set_stays_when_a_card_is_laid_off() -> None:
    """§4.5: laying off a natural card on a set with a joker simply enlarges the set; the
    joker is never exchanged into a hand."""
    game = card_game("double", 2, racks={0: "9D 9S 9S", 1: "9H 9C JK"})
    pass_turn(game)
    drawn = draw(game)
    play(game, "P2: meld [9H 9C JK(9S)]", f"discard {drawn}")
    draw(game)
    play(game, "P1: attach 9D -> m1", "attach 9S -> m1")
    assert table(game) == ["[9H 9C JK 9D 9S]"]
    assert lifted_joker(game) is None
    assert illegal(game, "exchange 9S -> m1").rule == "§4.5"


def test_the_view_tells_the_seat_a_lifted_joker_is_to_place() -> None:
    """The seat's view counts the lifted joker among the jokers it must place this turn;
    other seats see a rack size unchanged by the lift."""
    game = joker_between_game()
    sizes = view(game, 1).rack_sizes
    play(game, "attach 6C -> m1")
    assert view(game, 0).pending_jokers == 1 and view(game, 1).pending_jokers == 0
    assert view(game, 1).rack_sizes == sizes
    assert "JK" in [str(f) for f in view(game, 0).rack]
    play(game, "attach JK(8C) -> m1")
    assert view(game, 0).pending_jokers == 0


def test_placements_of_a_lifted_joker_are_exactly_the_listed_ones() -> None:
    """§4.5/A-10 against the engine's own legality: whenever random play lifts a joker,
    every joker placement that verifies (on any meld, declared as any card or not) is one
    the engine lists, up to the declaration of an undeclared run end; and every listed one
    verifies."""
    checked = 0
    for seed in range(30):
        if checked >= 8:
            break
        game = Game(
            "double",
            4,
            {"max_stock_recycles": 1, "match_mode": "deals", "match_deals": 1},
            seed=seed,
        )
        rng = random.Random(seed)
        while game.phase is Phase.TURNS:
            legal = game.legal_actions()
            if lifted_joker(game) is not None:
                checked += 1
                listed_texts = {str(a) for a in legal}
                assert all(game.can(a) for a in legal)
                assert "reset" in listed_texts and len(legal) >= 2
                listed_targets = {a.target for a in legal if isinstance(a, Attach)}
                for formation in game.table:
                    rank = formation.positions[0]
                    declared = [None] + [
                        face(f"{r}{s}")
                        for s in "SHDC"
                        for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
                        if formation.kind is MeldKind.RUN or r == str(rank)
                    ]
                    for d in declared:
                        probe = Attach(face("JK"), formation.id, d)
                        if not game.can(probe):
                            continue
                        if d is None and formation.kind is MeldKind.RUN:
                            assert formation.id in listed_targets
                        else:
                            assert str(probe) in listed_texts, probe
                for other in ("draw", "discard JK", "take 0"):
                    assert not game.can(act(other))
            laying = [a for a in legal if isinstance(a, Meld | Attach)]
            game.apply(rng.choice(laying) if laying and rng.random() < 0.9 else rng.choice(legal))
    assert checked >= 8
