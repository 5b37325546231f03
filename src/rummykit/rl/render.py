"""A plain-text picture of what one seat sees, for ``render()``."""

from __future__ import annotations

from rummykit.engine import Game
from rummykit.rl.observation import seat_view

__all__ = ["render_text"]


def render_text(game: Game, seat: int) -> str:
    """The public table plus ``seat``'s own rack, from its view only."""
    v = seat_view(game, seat)
    lines = [
        f"{v.variant} deal {v.deal_number + 1}, {v.phase}, round {v.round}, "
        f"P{v.to_move + 1} to move; seen by P{seat + 1}",
        f"stock {v.stock_count}"
        + ("" if v.indicator is None else f", indicator {v.indicator}")
        + (", double game" if v.double_game else ""),
        "column: " + (" ".join(map(str, v.column)) or "-"),
    ]
    lines += [f"  m{f.id} (P{f.owner + 1}) {f.notation}" for f in v.table]
    for s in range(v.players):
        flags = [
            name
            for name, on in (
                ("opened", v.opened[s]),
                ("board", v.board[s]),
                ("three", v.announced_three[s]),
                ("atu", v.atu[s]),
            )
            if on
        ]
        rack = " ".join(map(str, v.rack)) if s == seat else f"{v.rack_sizes[s]} pieces"
        lines.append(f"P{s + 1}: {rack}" + (f" [{', '.join(flags)}]" if flags else ""))
    if v.results:
        lines.append(f"last deal scores: {list(v.results[-1].scores)}; totals {list(v.totals)}")
    return "\n".join(lines)
