"""Rendering views and results for the terminal (rich markup), in the player's language.

Pieces are written the way each tradition writes them where it differs from the
engine's notation (German: Bube/Dame/König and Karo/Herz/Pik/Kreuz for cards,
Rot/Gelb/Blau/Schwarz for tiles); what a player types keeps the documented notation.
Every piece is drawn as a chip on a dark ground, so black pieces stay legible on light
and dark terminals alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.table import Table

from rummykit.engine.game import DealResult
from rummykit.engine.view import SeatView
from rummykit.i18n import Messages
from rummykit.model.pieces import Face, Material, NotationError
from rummykit.rules.variant import find_variant

__all__ = [
    "face_markup",
    "face_text",
    "notation_from",
    "notation_text",
    "render_breakdown",
    "render_results",
    "render_view",
    "sort_rack",
]

# Foreground on a dark chip: legible whatever the terminal's own background (a white
# "black" tile vanishes on a light terminal, a black one on a dark terminal).
_CHIP = "on grey15"
_STYLE = {
    "R": "bold bright_red",
    "Y": "bold bright_yellow",
    "B": "bold bright_blue",
    "K": "bold grey93",
    "H": "bold bright_red",
    "D": "bold bright_red",
    "S": "bold grey93",
    "C": "bold grey93",
}

# German tradition (issue 13 item 7): a German player reads "D" as Dame, not diamonds.
_GERMAN_CARD_RANKS = {"J": "B", "Q": "D", "K": "K", "A": "A"}
_GERMAN_SUITS = {"D": "Ka", "H": "He", "S": "Pi", "C": "Kr"}
_GERMAN_TILE_COLOURS = {"R": "R", "Y": "G", "B": "B", "K": "S"}
_CARD_TEXT = re.compile(r"^(A|[2-9]|10|J|Q|K)([SHDC])$")
_TOKEN = re.compile(r"[A-Z0-9]+(?:\([A-Z0-9]+\))?")


def face_text(face: Face | str, lang: str = "en") -> str:
    """A piece (or its notation, with a declaration ``J(R7)``) as ``lang``'s tradition
    writes it; the notation itself where the tradition does not differ."""
    text = str(face)
    if lang != "de":
        return text
    inner = re.fullmatch(r"([^()]+)\(([^()]+)\)", text)
    if inner:
        return f"{face_text(inner[1], lang)}({face_text(inner[2], lang)})"
    card = _CARD_TEXT.fullmatch(text)
    if card:
        return _GERMAN_CARD_RANKS.get(card[1], card[1]) + _GERMAN_SUITS[card[2]]
    if text == "JK":
        return "Jo"
    tile = re.fullmatch(r"([RYBK])(\d{1,2})", text)
    if tile:
        return _GERMAN_TILE_COLOURS[tile[1]] + tile[2]
    return text


def notation_text(text: str, material: Material, lang: str = "en") -> str:
    """An action or formation in notation with every piece written as ``lang`` writes it."""
    if lang != "de":
        return text

    def one(match: re.Match[str]) -> str:
        token = match[0]
        try:
            Face.parse(token.split("(")[0], material)
        except (NotationError, ValueError):
            return token
        return face_text(token, lang)

    return _TOKEN.sub(one, text)


_GERMAN_CARD_INPUT = re.compile(r"\b(10|[2-9]|[BDKA])(KA|HE|PI|KR)\b", re.IGNORECASE)
_GERMAN_TILE_INPUT = re.compile(r"\b([GS])(\d{1,2})\b", re.IGNORECASE)
_RANK_FROM_GERMAN = {v: k for k, v in _GERMAN_CARD_RANKS.items()}
_SUIT_FROM_GERMAN = {v.upper(): k for k, v in _GERMAN_SUITS.items()}


def notation_from(text: str, material: Material, lang: str = "en") -> str:
    """What a player typed, with pieces written as ``lang``'s tradition writes them
    (``DKa``, ``G7``, ``Jo``) turned into the documented notation (``QD``, ``Y7``,
    ``JK``); the notation itself passes unchanged.  The German forms cannot be taken
    for notation: no suit is written with two letters, no tile colour is G or S."""
    if lang != "de":
        return text
    if material is Material.CARDS:
        text = _GERMAN_CARD_INPUT.sub(
            lambda m: _RANK_FROM_GERMAN.get(m[1].upper(), m[1]) + _SUIT_FROM_GERMAN[m[2].upper()],
            text,
        )
        return re.sub(r"\bJo\b", "JK", text, flags=re.IGNORECASE)
    colours = {"G": "Y", "S": "K"}
    return _GERMAN_TILE_INPUT.sub(lambda m: colours[m[1].upper()] + m[2], text)


def face_markup(face: Face, lang: str = "en") -> str:
    """One face in colour, as a chip."""
    if face.is_joker:
        return f"[bold magenta {_CHIP}]{face_text(face, lang)}[/]"
    return f"[{_STYLE.get(face.suit, 'bold grey93')} {_CHIP}]{face_text(face, lang)}[/]"


def sort_rack(rack: Sequence[Face], by: str) -> list[Face]:
    """The rack sorted by colour/suit then number (``colour``) or number then colour."""
    if by == "number":
        return sorted(rack, key=lambda f: (f.rank if not f.is_joker else 99, f.suit_index))
    return sorted(rack)


def _seat_name(seat: int, names: Sequence[str]) -> str:
    name = names[seat] if seat < len(names) else ""
    return f"P{seat + 1} {name}" if name and name != f"P{seat + 1}" else f"P{seat + 1}"


def render_view(
    view: SeatView, names: Sequence[str], sort_by: str = "colour", lang: str = "en"
) -> str:
    """The table as ``view.seat`` sees it."""
    msg = Messages(lang)
    lines: list[str] = []
    variant = find_variant(view.variant)
    tiles = variant.material is Material.TILES
    deal = f"{view.deal_number + 1}"
    limit = variant.deals_in_match(view.options)
    if limit is not None:
        # A race to a target score (RULES §3.8) or a match played until someone has no
        # chips left (§7.9) has no fixed number of deals.
        deal += f"/{limit}"
    phase = str(view.phase) if lang == "en" else msg.family("phase", view.phase)
    header = msg("cli.header", deal=deal, round=view.round, phase=phase, stock=view.stock_count)
    if tiles:
        indicator = face_markup(view.indicator, lang) if view.indicator is not None else "-"
        header += " · " + msg("cli.header_indicator", piece=indicator)
    if view.double_game:
        header += f"  [bold]{msg('cli.double_game')}[/]"
    lines.append(header)
    unit = msg("cli.unit_tiles") if tiles else msg("cli.unit_cards")
    for seat in range(view.players):
        flags = []
        if view.opened[seat]:
            flags.append(msg("cli.flag_opened"))
        if view.board[seat]:
            flags.append(msg("cli.flag_board"))
        if view.announced_three[seat]:
            flags.append(msg("cli.flag_three"))
        if view.atu[seat]:
            flags.append(msg("cli.flag_atu"))
        if view.doubles_announced[seat]:
            flags.append(msg("cli.flag_doubles", kinds="/".join(view.doubles_announced[seat])))
        marker = "▶" if seat == view.to_move else " "
        total = msg("cli.total", n=f"{view.totals[seat]:>5}")
        lines.append(
            f" {marker} {_seat_name(seat, names):<16} {view.rack_sizes[seat]:>2} {unit}  "
            f"{total}  {' '.join(flags)}"
        )
    if view.table:
        lines.append(f"[bold]{msg('cli.table')}[/]")
        for f in view.table:
            parts = f.notation.strip("[]").split()
            shown = " ".join(
                face_markup(Face.parse(p.split("(")[0]), lang)
                + (f"({face_text(p.split('(')[1].rstrip(')'), lang)})" if "(" in p else "")
                for p in parts
            )
            lines.append(f"  m{f.id:<3} [{shown}]  ({_seat_name(f.owner, names)})")
    if view.column:
        cells = [f"{i}:{face_markup(face, lang)}" for i, face in enumerate(view.column)]
        play = variant.play_rules(view.options)
        if play.first_discard_dead:
            cells[0] = f"0:[dim]{face_text(view.column[0], lang)} ({msg('cli.dead')})[/]"
        # A column is read along its length (§9.6); elsewhere only the top discard counts.
        label = msg("cli.column") if play.take_any_column_tile else msg("cli.discard_pile")
        lines.append(f"[bold]{label}[/] " + "  ".join(cells))
    rack = sort_rack(view.rack, sort_by)
    lines.append(f"[bold]{msg('cli.your_rack')}[/] " + " ".join(face_markup(f, lang) for f in rack))
    if view.must_use:
        pieces = " ".join(face_markup(f, lang) for f in view.must_use)
        lines.append("  " + msg("cli.must_use", pieces=pieces))
    if view.pending_jokers:
        lines.append("  " + msg("cli.pending_jokers", n=view.pending_jokers))
    if view.laid_points:
        lines.append("  " + msg("cli.laid_points", n=view.laid_points))
    return "\n".join(lines)


def _deal_end(r: DealResult, msg: Messages) -> str:
    if msg.lang == "en":
        return r.end
    return msg.family("end", r.end)


def render_results(results: Sequence[DealResult], names: Sequence[str], lang: str = "en") -> Table:
    """Per-deal scores and running totals."""
    msg = Messages(lang)
    players = len(results[0].scores) if results else len(names)
    table = Table(title=msg("cli.scores"))
    table.add_column(msg("cli.col_deal"))
    table.add_column(msg("cli.col_end"))
    for seat in range(players):
        table.add_column(_seat_name(seat, names), justify="right")
    for r in results:
        end = _deal_end(r, msg)
        if r.closer is not None:
            end += " " + msg("cli.by", seat=f"P{r.closer + 1}")
        if r.contract:
            end += f" ({r.contract})"
        table.add_row(str(r.deal), end, *(str(s) for s in r.scores))
    if results:
        table.add_row(msg("cli.row_total"), "", *(f"[bold]{t}[/]" for t in results[-1].totals))
    return table


def render_breakdown(
    result: DealResult,
    names: Sequence[str],
    notes: Sequence[Sequence[str]],
    lang: str = "en",
) -> Table:
    """One deal's sheet: for every seat what it laid, what it still held, the bonuses and
    penalties that applied (``notes``, already in words), the deal score and the total."""
    msg = Messages(lang)
    how = _deal_end(result, msg)
    if result.closer is not None:
        how += " " + msg("cli.by", seat=_seat_name(result.closer, names))
    table = Table(title=msg("cli.breakdown_title", deal=result.deal, how=how))
    for key in ("cli.col_player", "cli.col_laid", "cli.col_hand"):
        table.add_column(msg(key), justify="left" if key == "cli.col_player" else "right")
    table.add_column(msg("cli.col_notes"))
    table.add_column(msg("cli.col_score"), justify="right")
    table.add_column(msg("cli.col_total"), justify="right")
    for seat, score in enumerate(result.scores):
        table.add_row(
            _seat_name(seat, names),
            str(result.table_values[seat]),
            str(result.rack_values[seat]),
            "; ".join(notes[seat]) if seat < len(notes) else "",
            f"[bold]{score}[/]",
            str(result.totals[seat]),
        )
    return table
