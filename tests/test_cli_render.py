"""Terminal rendering: face_markup, sort_rack, render_view and render_results."""

from __future__ import annotations

import io
import random

from rich.console import Console
from rich.markup import render as render_markup
from rich.style import Style
from rich.table import Table

import card_support
import remmi_de_support
from kit import draw, pass_turn, play
from remi_ro_support import face, faces, stacked_game
from rummykit.bots import GreedyBot, play_to_end
from rummykit.cli.render import (
    face_markup,
    face_text,
    notation_from,
    notation_text,
    render_breakdown,
    render_results,
    render_view,
    sort_rack,
)
from rummykit.engine.actions import Draw, TakeColumn
from rummykit.engine.game import DealResult, Game
from rummykit.engine.view import view
from rummykit.i18n import catalog
from rummykit.model.pieces import Face, Material

NAMES = ["you", "greedy", "random", "greedy"]


def plain(renderable: object) -> str:
    """What a colourless terminal 200 columns wide would show."""
    console = Console(file=io.StringIO(), width=200, color_system=None, highlight=False)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def lines_of(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


# --------------------------------------------------------------------- faces and racks


def test_face_markup_colours() -> None:
    assert face_markup(face("R5")) == "[bold bright_red on grey15]R5[/]"
    assert face_markup(face("Y12")) == "[bold bright_yellow on grey15]Y12[/]"
    assert face_markup(face("B1")) == "[bold bright_blue on grey15]B1[/]"
    assert face_markup(face("J")) == "[bold magenta on grey15]J[/]"
    assert render_markup(face_markup(face("R5"))).plain == "R5"


def test_black_pieces_are_legible_on_light_and_dark_terminals() -> None:
    """Issue 13 item 7: a black tile drawn white vanished on a light terminal.  Every
    piece is a chip with its own dark ground, and a black piece is light on it."""
    for text in ("K13", "R5", "Y1", "B9", "J"):
        styled = render_markup(face_markup(face(text))).spans[0].style
        style = Style.parse(str(styled))
        assert style.bgcolor is not None and style.bgcolor.name == "grey15", text
        assert style.color is not None and style.color.name != style.bgcolor.name
    black = Style.parse(str(render_markup(face_markup(face("K13"))).spans[0].style))
    assert black.color is not None and black.color.name == "grey93"
    spade = Face.parse("QS", Material.CARDS)
    assert "grey93 on grey15" in face_markup(spade)


def test_german_players_read_german_piece_names() -> None:
    """Issue 13 item 7: Dame/Bube/König and Karo/Herz/Pik/Kreuz, Rot/Gelb/Blau/Schwarz;
    other languages keep the notation."""
    cards = Material.CARDS
    assert face_text(Face.parse("QD", cards), "de") == "DKa"
    assert face_text(Face.parse("JH", cards), "de") == "BHe"
    assert face_text(Face.parse("KS", cards), "de") == "KPi"
    assert face_text(Face.parse("10C", cards), "de") == "10Kr"
    assert face_text(Face.parse("JK", cards), "de") == "Jo"
    assert face_text(face("Y7"), "de") == "G7" and face_text(face("K13"), "de") == "S13"
    assert face_text(Face.parse("QD", cards), "ro") == "QD"
    assert notation_text("meld [QD JK(JD) 10D]", cards, "de") == "meld [DKa Jo(BKa) 10Ka]"
    assert notation_text("take 3", Material.TILES, "de") == "take 3"


def test_german_input_becomes_notation_and_notation_still_works() -> None:
    cards, tiles = Material.CARDS, Material.TILES
    assert notation_from("meld DKa bka 10Ka", cards, "de") == "meld QD JD 10D"
    assert notation_from("discard Jo", cards, "de") == "discard JK"
    assert notation_from("meld QD JD KD", cards, "de") == "meld QD JD KD"
    assert notation_from("meld G7 S7 R7 J(B7)", tiles, "de") == "meld Y7 K7 R7 J(B7)"
    assert notation_from("attach K13 -> m2", tiles, "de") == "attach K13 -> m2"
    # Every face round-trips: what German shows, German input reads back.
    for material, faces_ in (
        (cards, ["QD", "JH", "KS", "AC", "10D", "JK"]),
        (tiles, ["Y7", "K13"]),
    ):
        for text in faces_:
            shown = face_text(Face.parse(text, material), "de")
            assert notation_from(shown, material, "de") == text


def test_sort_rack_by_colour_then_number() -> None:
    rack = faces("K2 J R13 R1 B5 Y5 R1")
    assert [str(f) for f in sort_rack(rack, "colour")] == ["R1", "R1", "R13", "Y5", "B5", "K2", "J"]


def test_sort_rack_by_number_then_colour() -> None:
    rack = faces("K2 J R13 R1 B5 Y5")
    assert [str(f) for f in sort_rack(rack, "number")] == ["R1", "K2", "Y5", "B5", "R13", "J"]


def test_sort_rack_returns_a_new_list() -> None:
    rack = faces("K2 R1")
    out = sort_rack(rack, "colour")
    assert out == faces("R1 K2")
    assert rack == faces("K2 R1")
    assert sort_rack((), "number") == []


def test_unknown_sort_key_falls_back_to_colour() -> None:
    rack = faces("K2 R13 Y5")
    assert sort_rack(rack, "whatever") == sort_rack(rack, "colour")


# --------------------------------------------------------------------- render_view


def test_render_view_of_a_fresh_deal() -> None:
    game = stacked_game(4, {0: "R5 R6 Y9"}, indicator="K4", ready=False)
    markup = render_view(view(game, 0), NAMES)
    render_markup(markup)  # well-formed markup
    text = plain(markup)
    lines = lines_of(text)
    assert lines[0] == "Deal 1/4 · round 1 · preplay · stock 49 · indicator K4"
    assert lines[1].startswith(" ▶ P1 you")
    assert "15 tiles" in lines[1]
    assert "total     0" in lines[1]
    for seat in (1, 2, 3):
        assert lines[1 + seat].startswith(f"   P{seat + 1} {NAMES[seat]}")
        assert "14 tiles" in lines[1 + seat]
    rack_line = next(line for line in lines if line.startswith("Your rack "))
    shown = rack_line.removeprefix("Your rack ").split()
    assert shown == [str(f) for f in sorted(game.rack_faces(0))]
    assert {"R5", "R6", "Y9"} <= set(shown)
    assert "Table" not in text
    assert "Column" not in text
    assert "DOUBLE GAME" not in text


def test_render_view_sorted_by_number() -> None:
    game = stacked_game(4, {0: "R5 R6 Y9"}, ready=False)
    text = plain(render_view(view(game, 0), NAMES, "number"))
    rack_line = next(line for line in lines_of(text) if line.startswith("Your rack "))
    shown = faces(rack_line.removeprefix("Your rack "))
    assert shown == sort_rack(game.rack_faces(0), "number")


def test_render_view_marks_a_double_game_and_the_player_to_move() -> None:
    game = stacked_game(4, indicator="R1")
    text = plain(render_view(view(game, 2), NAMES))
    assert "indicator R1  DOUBLE GAME" in text
    assert "round 1 · round1" in text
    assert " ▶ P1 you" in text  # the first player discards first


def test_render_view_with_a_table_column_and_turn_state() -> None:
    # P1 opens with [R12 R13 J(R1)] + [R10 B10 K10] = 60 in round 2.
    game = stacked_game(4, {0: "R12 R13 J R10 B10 K10 K13"})
    pass_turn(game, "K13")
    for _ in range(3):
        pass_turn(game)
    game.apply(Draw())
    play(game, "meld [R12 R13 J(R1)]", "meld [R10 B10 K10]")
    markup = render_view(view(game, 0), NAMES)
    render_markup(markup)
    text = plain(markup)
    lines = lines_of(text)
    assert "round 2 · turns" in lines[0]
    assert "opened" not in lines[1]  # the opening counts once the discard commits it
    assert "Table" in lines
    assert "  m1   [R12 R13 J(R1)]  (P1 you)" in lines
    assert "  m2   [R10 B10 K10]  (P1 you)" in lines
    column = next(line for line in lines if line.startswith("Column "))
    assert column.startswith("Column 0:K13 (dead)  1:")
    assert len(column.split("  ")) == len(game.column)
    assert "  opening points laid this turn: 60" in lines
    # Another seat sees the same table but no turn state.
    other = plain(render_view(view(game, 1), NAMES))
    assert "  m1   [R12 R13 J(R1)]  (P1 you)" in other
    assert "opening points laid" not in other


def test_render_view_shows_the_column_tile_to_use() -> None:
    game = stacked_game(4, {0: "R5 K13", 1: "R3 R4 K10 B10 Y10"})
    pass_turn(game, "K13")
    for _ in range(3):
        pass_turn(game)
    pass_turn(game, "R5")
    game.apply(TakeColumn(len(game.column) - 1))
    text = plain(render_view(view(game, 1), NAMES))
    assert "  must use this turn: R5" in lines_of(text)
    assert "must use" not in plain(render_view(view(game, 0), NAMES))


def test_render_view_flags() -> None:
    game = Game("remi_ro", 4, seed=8)
    play_to_end(
        game,
        [GreedyBot() for _ in range(4)],
        random.Random(8),
        max_actions=400,
        stop_at_deal_end=True,
    )
    v = view(game, 0)
    text = plain(render_view(v, NAMES))
    lines = lines_of(text)
    for seat in range(4):
        line = lines[1 + seat]
        assert ("opened" in line) == v.opened[seat]
        assert ("three!" in line) == v.announced_three[seat]
        assert ("atu" in line) == v.atu[seat]
        assert f"total {v.totals[seat]:>5}" in line


def test_render_view_with_fewer_names_than_seats() -> None:
    game = stacked_game(4, ready=False)
    text = plain(render_view(view(game, 0), ["solo"]))
    lines = lines_of(text)
    assert lines[1].startswith(" ▶ P1 solo")
    assert lines[2].startswith("   P2 ")
    assert lines[4].startswith("   P4 ")


# --------------------------------------------------------------------- render_results


def _result(
    deal: int,
    end: str,
    closer: int | None,
    contract: str | None,
    scores: tuple[int, ...],
    totals: tuple[int, ...],
) -> DealResult:
    n = len(scores)
    return DealResult(
        deal=deal,
        maker=0,
        end=end,
        closer=closer,
        closing_face=None,
        contract=contract,
        double_game=False,
        scores=scores,
        totals=totals,
        opened=(True,) * n,
        table_values=(0,) * n,
        rack_values=(0,) * n,
    )


def test_render_results_rows_and_totals() -> None:
    results = [
        _result(1, "close", 0, None, (130, 25, -100), (130, 25, -100)),
        _result(2, "board", 1, "bete", (-100, 700, -100), (30, 725, -200)),
        _result(3, "exhaustion", None, None, (65, -100, 0), (95, 625, -200)),
    ]
    table = render_results(results, ["you", "greedy", "random"])
    assert isinstance(table, Table)
    assert table.title == "Scores"
    text = plain(table)
    assert "P1 you" in text
    assert "P2 greedy" in text
    assert "P3 random" in text
    rows = [line for line in lines_of(text) if line.startswith("│")]
    cells = [[c.strip() for c in row.strip("│").split("│")] for row in rows]
    assert cells == [
        ["1", "close by P1", "130", "25", "-100"],
        ["2", "board by P2 (bete)", "-100", "700", "-100"],
        ["3", "exhaustion", "65", "-100", "0"],
        ["total", "", "95", "625", "-200"],
    ]


def test_render_results_without_results_has_only_the_header() -> None:
    table = render_results([], ["you", "greedy"])
    assert [c.header for c in table.columns] == ["deal", "end", "P1 you", "P2 greedy"]
    assert table.row_count == 0


def test_render_results_of_a_real_match() -> None:
    game = Game("remi_ro", 2, seed=3)
    play_to_end(game, [GreedyBot(), GreedyBot()], random.Random(3))
    text = plain(render_results(game.results, ["a", "b"]))
    total_line = next(line for line in lines_of(text) if "total" in line)
    numbers = [int(c) for c in total_line.strip("│ ").split("│")[2:]]
    assert numbers == list(game.totals)


def test_render_view_of_a_card_game_speaks_of_cards() -> None:
    """Card variants (RULES §3-§8): hands are counted in cards, there is no indicator, and
    a race to a target score shows no fixed number of deals."""
    game = Game("double", 3, seed=2)
    text = plain(render_view(view(game, 0), NAMES))
    lines = lines_of(text)
    assert lines[0] == f"Deal 1 · round 1 · turns · stock {len(game.stock)}"
    assert "14 cards" in lines[1] and "tiles" not in text and "indicator" not in text
    assert "Discard pile 0:" in text
    counted = Game("double", 3, {"match_mode": "deals", "match_deals": 3}, seed=2)
    assert lines_of(plain(render_view(view(counted, 0), NAMES)))[0].startswith("Deal 1/3 ·")


def test_render_view_tells_of_a_lifted_joker() -> None:
    """RULES §4.5: after a lay-off lifts a joker, the seat's screen says it must be placed."""
    game = card_support.card_game("double", 2, racks={0: "6C", 1: "5C 7C JK"})
    pass_turn(game)
    drawn = draw(game)
    play(game, "meld [5C JK(6C) 7C]", f"discard {drawn}")
    draw(game)
    assert "jokers to place" not in plain(render_view(view(game, 0), NAMES))
    play(game, "attach 6C -> m1")
    text = plain(render_view(view(game, 0), NAMES))
    assert "jokers to place on the table first: 1" in text
    assert "[5C 6C 7C]" in text
    assert "jokers to place" not in plain(render_view(view(game, 1), NAMES))


def test_render_view_of_remmi_shows_a_discard_pile() -> None:
    """RULES §10.3: in remmi_de only the predecessor's last discard can be taken, so the
    screen shows a discard pile, not a column, and no tile is dead."""
    game = remmi_de_support.stacked_game(4, {0: "B8"})
    play(game, "P1: discard B8")
    text = plain(render_view(view(game, 1), NAMES))
    assert "Discard pile 0:B8" in text
    assert "Column" not in text and "dead" not in text


def test_render_view_of_a_match_played_until_the_chips_run_out() -> None:
    """RULES §7.9: Continental has no fixed number of deals unless match_deals is set."""
    game = Game("continental", 3, seed=2)
    assert lines_of(plain(render_view(view(game, 0), NAMES)))[0].startswith("Deal 1 · round 1")
    capped = Game("continental", 3, {"match_deals": 5}, seed=2)
    assert lines_of(plain(render_view(view(capped, 0), NAMES)))[0].startswith("Deal 1/5 ·")


# --------------------------------------------------------------------- languages


def test_render_view_in_german_has_no_english_label() -> None:
    """Issue 13 item 7: every label of the table in the chosen language."""
    game = stacked_game(4, {0: "R5 R6 Y9"}, indicator="K4", ready=False)
    english, german = (
        plain(render_view(view(game, 0), NAMES)),
        plain(render_view(view(game, 0), NAMES, lang="de")),
    )
    de = catalog("de")
    assert german.startswith("Spiel 1/4 · Runde 1 · " + de["phase.preplay"])
    assert "Anzeiger S4" in german and "indicator K4" in english
    for word in ("Deal", "round", "stock", "indicator", "Your rack", "tiles", "total"):
        assert word not in german, word
    assert de["cli.your_rack"] in german


def test_render_breakdown_names_every_bonus_and_penalty() -> None:
    """Issue 13 item 7: the deal's sheet by name: laid, in hand, the notes, the score."""
    result = _result(1, "close", 0, None, (150, -500, 20), (150, -500, 20))
    notes = [["closed the deal"], ["“three” not announced"], []]
    table = render_breakdown(result, ["you", "a", "b"], notes)
    text = plain(table)
    assert "Deal 1: close by P1 you" in text
    for seat, score in enumerate(result.scores):
        row = next(line for line in text.splitlines() if line.startswith(f"│ P{seat + 1} "))
        assert f" {score} " in row
    assert "“three” not announced" in text and "closed the deal" in text
    german = plain(render_breakdown(result, ["you", "a", "b"], [[], [], []], lang="de"))
    assert "Spiel 1:" in german and catalog("de")["cli.col_notes"] in german
