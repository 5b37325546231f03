"""Pictures of what one seat sees, for ``render()``: text (``"ansi"``) and an RGB array.

Both read the seat's view only.  The RGB picture (``"rgb_array"``) is drawn with
NumPy alone (no plotting library): one row per seat (the observer's rack face up,
the others' as backs, the seat to move marked green), the discard pile's latest
pieces, then the formations on the table.  Its size is fixed per variant and
player count, as video recorders expect.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from rummykit.engine import Game, SeatView
from rummykit.model.pieces import Face
from rummykit.rl.observation import seat_view

__all__ = ["RgbCanvas", "render_rgb", "render_text"]


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


# 3 x 5 glyphs, one string of 15 bits per character, read row by row.
_GLYPHS = {
    "0": "111101101101111",
    "1": "010110010010111",
    "2": "111001111100111",
    "3": "111001111001111",
    "4": "101101111001001",
    "5": "111100111001111",
    "6": "111100111101111",
    "7": "111001001001001",
    "8": "111101111101111",
    "9": "111101111001111",
    "J": "001001001101111",
}
_SCALE = 2
_TILE_W, _TILE_H, _GAP = 18, 14, 2
_PER_LINE = 32
_MARGIN = 6
_BACKGROUND = (20, 90, 50)
_FACE = (250, 248, 240)
_BACK = (70, 90, 160)
_TO_MOVE = (90, 220, 90)
_SUIT_COLOURS = ((200, 30, 30), (30, 70, 200), (200, 140, 0), (20, 20, 20))
_JOKER = (150, 40, 170)


def _glyph(char: str) -> npt.NDArray[np.bool_]:
    bits = np.array([c == "1" for c in _GLYPHS[char]], dtype=np.bool_).reshape(5, 3)
    return np.kron(bits, np.ones((_SCALE, _SCALE), dtype=np.bool_)).astype(np.bool_)


class RgbCanvas:
    """Draws seat views of one table size as ``uint8`` arrays of one fixed shape."""

    def __init__(self, players: int, pieces: int, max_formations: int) -> None:
        self.players = players
        self.table_lines = max(1, math.ceil((pieces + max_formations) / _PER_LINE))
        lines = players + 1 + self.table_lines
        self.height = 2 * _MARGIN + lines * (_TILE_H + _GAP) + 2 * _GAP
        self.width = 2 * _MARGIN + 6 + _PER_LINE * (_TILE_W + _GAP)
        self._glyphs = {c: _glyph(c) for c in _GLYPHS}

    @property
    def shape(self) -> tuple[int, int, int]:
        """(height, width, 3)."""
        return (self.height, self.width, 3)

    def draw(self, v: SeatView) -> npt.NDArray[np.uint8]:
        """The picture of view ``v``."""
        image = np.empty(self.shape, dtype=np.uint8)
        image[:] = _BACKGROUND
        line = 0
        for seat in range(v.players):
            y = self._y(line)
            if seat == v.to_move:
                image[y : y + _TILE_H, _MARGIN : _MARGIN + 4] = _TO_MOVE
            if seat == v.seat:
                self._row(image, y, list(v.rack))
            else:
                self._row(image, y, [None] * v.rack_sizes[seat])
            line += 1
        self._row(image, self._y(line) + _GAP, list(v.column[-_PER_LINE:]))
        line += 1
        x_slot, top = 0, self._y(line) + 2 * _GAP
        row = 0
        for formation in v.table:
            faces = list(formation.faces)
            if x_slot + len(faces) > _PER_LINE and x_slot:
                row, x_slot = row + 1, 0
            if row >= self.table_lines:
                break
            y = top + row * (_TILE_H + _GAP)
            for i, face in enumerate(faces[:_PER_LINE]):
                self._tile(image, y, x_slot + i, face)
            x_slot += len(faces) + 1
        return image

    def _y(self, line: int) -> int:
        return _MARGIN + line * (_TILE_H + _GAP)

    def _row(self, image: npt.NDArray[np.uint8], y: int, faces: list[Face | None]) -> None:
        for slot, face in enumerate(faces[:_PER_LINE]):
            self._tile(image, y, slot, face)

    def _tile(self, image: npt.NDArray[np.uint8], y: int, slot: int, face: Face | None) -> None:
        x = _MARGIN + 6 + slot * (_TILE_W + _GAP)
        cell = image[y : y + _TILE_H, x : x + _TILE_W]
        if face is None:
            cell[:] = _BACK
            return
        cell[:] = _FACE
        colour = _JOKER if face.is_joker else _SUIT_COLOURS[face.suit_index % 4]
        cell[:, :2] = colour  # the suit as a stripe too, for faces that share a digit colour
        text = "J" if face.is_joker else str(face.rank)
        gx = 3
        for char in text:
            glyph = self._glyphs[char]
            h, w = glyph.shape
            cell[2 : 2 + h, gx : gx + w][glyph] = colour
            gx += w + 1


def render_rgb(canvas: RgbCanvas, game: Game, seat: int) -> npt.NDArray[np.uint8]:
    """``seat``'s view of ``game`` as an ``H x W x 3`` ``uint8`` picture."""
    return canvas.draw(seat_view(game, seat))
