"""Hints (issue 4, item 4): laydown, attachments, joker exchanges and a discard, with reasons."""

from __future__ import annotations

from rummykit.engine.game import Game
from rummykit.engine.position import analysis_game
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.solver.hints import Hint, hints, hints_json


def tiles(text: str) -> tuple[Face, ...]:
    return parse_faces(text, Material.TILES)


def group(text: str) -> list[tuple[Face, Face | None]]:
    return [(f, None) for f in tiles(text)]


def topics(found: list[Hint]) -> list[str]:
    return [h.topic for h in found]


def test_opened_player_gets_every_kind_of_hint() -> None:
    game = analysis_game(
        "remi_ro",
        tiles("Y3 Y4 Y5 R8 R6 K13 B2"),
        [group("R5 R6 R7"), [(f, None) for f in tiles("B9 J B11")]],
        opened=True,
    )
    found = hints(game)
    assert topics(found) == ["laydown", "attach", "discard"]
    assert found[0].actions == ("meld [Y3 Y4 Y5]",)
    assert "15 points" in found[0].reason
    # The joker of m2 stands for B10, which the rack lacks: no exchange.
    assert found[1].actions == ("attach R8 -> m1",)
    assert found[1].reason == "extends m1 [R5 R6 R7]"
    # The discard keeps Y3 Y4 Y5 and sheds the highest unmatched tile (K13, worth 10).
    assert found[-1].actions == ("discard K13",)
    assert all(h.reason for h in found)


def test_exchange_hint_and_json() -> None:
    run = [(f, None) for f in tiles("R5 J R7")]
    found = hints(analysis_game("remi_ro", tiles("R6 B2 B3"), [run], opened=True))
    assert ("exchange", ("exchange R6 -> m1",)) in [(h.topic, h.actions) for h in found]
    data = hints_json(found)
    assert {"topic", "actions", "reason"} == set(data[0])


def test_unopened_player_is_told_the_opening_minimum() -> None:
    game = analysis_game("remi_ro", tiles("Y3 Y4 Y5 R10 B10 K10 B2"), opened=False)
    laydown = hints(game)[0]
    assert laydown.reason == "opens with 45 points (minimum 45)"
    short = hints(analysis_game("remi_ro", tiles("Y3 Y4 Y5 B2 K7"), opened=False))[0]
    assert short.actions == ("meld [Y3 Y4 Y5]",)
    assert "short of the 45 needed" in short.reason
    none = hints(analysis_game("remi_ro", tiles("B2 K7 R11"), opened=False))
    assert topics(none) == ["discard"]


def test_no_hints_outside_a_turn_of_play() -> None:
    game = Game("remi_ro", 4, seed=1)  # pre-play announcements
    assert hints(game) == []
