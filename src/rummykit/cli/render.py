"""Rendering views and results for the terminal (rich markup)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from rummykit.engine.game import DealResult
from rummykit.engine.view import SeatView
from rummykit.model.pieces import Face, Material
from rummykit.rules.variant import find_variant

__all__ = ["face_markup", "render_results", "render_view", "sort_rack"]

_STYLE = {
    "R": "bold red",
    "Y": "bold yellow",
    "B": "bold blue",
    "K": "bold white",
    "H": "red",
    "D": "red",
    "S": "white",
    "C": "white",
}


def face_markup(face: Face) -> str:
    """One face in colour."""
    if face.is_joker:
        return "[bold magenta]" + str(face) + "[/]"
    return f"[{_STYLE.get(face.suit, 'white')}]{face}[/]"


def sort_rack(rack: Sequence[Face], by: str) -> list[Face]:
    """The rack sorted by colour/suit then number (``colour``) or number then colour."""
    if by == "number":
        return sorted(rack, key=lambda f: (f.rank if not f.is_joker else 99, f.suit_index))
    return sorted(rack)


def _seat_name(seat: int, names: Sequence[str]) -> str:
    name = names[seat] if seat < len(names) else ""
    return f"P{seat + 1} {name}" if name and name != f"P{seat + 1}" else f"P{seat + 1}"


def render_view(view: SeatView, names: Sequence[str], sort_by: str = "colour") -> str:
    """The table as ``view.seat`` sees it."""
    lines: list[str] = []
    variant = find_variant(view.variant)
    tiles = variant.material is Material.TILES
    deal = f"{view.deal_number + 1}"
    limit = view.options.get("match_deals", "?")
    if view.options.get("match_mode") != "target" and limit is not None:
        # A race to a target score (RULES §3.8) or a match played until someone has no
        # chips left (§7.9) has no fixed number of deals.
        deal += f"/{limit}"
    header = f"[bold]Deal {deal}[/] · round {view.round} · {view.phase} · stock {view.stock_count}"
    if tiles:
        indicator = face_markup(view.indicator) if view.indicator is not None else "-"
        header += f" · indicator {indicator}"
    if view.double_game:
        header += "  [bold]DOUBLE GAME[/]"
    lines.append(header)
    unit = "tiles" if tiles else "cards"
    for seat in range(view.players):
        flags = []
        if view.opened[seat]:
            flags.append("opened")
        if view.board[seat]:
            flags.append("board")
        if view.announced_three[seat]:
            flags.append("three!")
        if view.atu[seat]:
            flags.append("atu")
        if view.doubles_announced[seat]:
            flags.append("doubles " + "/".join(view.doubles_announced[seat]))
        marker = "▶" if seat == view.to_move else " "
        lines.append(
            f" {marker} {_seat_name(seat, names):<16} {view.rack_sizes[seat]:>2} {unit}  "
            f"total {view.totals[seat]:>5}  {' '.join(flags)}"
        )
    if view.table:
        lines.append("[bold]Table[/]")
        for f in view.table:
            parts = f.notation.strip("[]").split()
            shown = " ".join(
                face_markup(Face.parse(p.split("(")[0]))
                + (f"({p.split('(')[1]}" if "(" in p else "")
                for p in parts
            )
            lines.append(f"  m{f.id:<3} [{shown}]  ({_seat_name(f.owner, names)})")
    if view.column:
        cells = [f"{i}:{face_markup(face)}" for i, face in enumerate(view.column)]
        play = variant.play_rules(view.options)
        if play.first_discard_dead:
            cells[0] = f"0:[dim]{view.column[0]} (dead)[/]"
        # A column is read along its length (§9.6); elsewhere only the top discard counts.
        label = "Column" if play.take_any_column_tile else "Discard pile"
        lines.append(f"[bold]{label}[/] " + "  ".join(cells))
    rack = sort_rack(view.rack, sort_by)
    lines.append("[bold]Your rack[/] " + " ".join(face_markup(f) for f in rack))
    if view.must_use:
        lines.append("  must use this turn: " + " ".join(face_markup(f) for f in view.must_use))
    if view.pending_jokers:
        lines.append(f"  jokers to place on the table first: {view.pending_jokers}")
    if view.laid_points:
        lines.append(f"  opening points laid this turn: {view.laid_points}")
    return "\n".join(lines)


def render_results(results: Sequence[DealResult], names: Sequence[str]) -> Table:
    """Per-deal scores and running totals."""
    players = len(results[0].scores) if results else len(names)
    table = Table(title="Scores")
    table.add_column("deal")
    table.add_column("end")
    for seat in range(players):
        table.add_column(_seat_name(seat, names), justify="right")
    for r in results:
        end = r.end + (f" by P{r.closer + 1}" if r.closer is not None else "")
        if r.contract:
            end += f" ({r.contract})"
        table.add_row(str(r.deal), end, *(str(s) for s in r.scores))
    if results:
        table.add_row("total", "", *(f"[bold]{t}[/]" for t in results[-1].totals))
    return table
