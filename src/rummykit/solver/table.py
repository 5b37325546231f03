"""Every legal attachment and joker exchange for a seat's rack on the table it sees.

The engine is the one source of legality: :func:`table_moves` rebuilds the
seat's position from its view (its rack, the public table, who laid what,
whether it has opened) with :func:`rummykit.engine.position.analysis_game` and
reads the moves from ``legal_actions()``.  Bots, which see views only, call
this; code holding the real game can filter ``Game.legal_actions()`` directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.engine.actions import Attach, ExchangeJoker
from rummykit.engine.position import analysis_game
from rummykit.engine.view import FormationView, SeatView
from rummykit.model.melds import HIGH_ACE
from rummykit.model.pieces import Face

__all__ = ["TableMoves", "table_moves"]


@dataclass(frozen=True, slots=True)
class TableMoves:
    """What the rack can do to the table this turn (formation numbers as in the view)."""

    attachments: tuple[Attach, ...]
    exchanges: tuple[ExchangeJoker, ...]


def table_moves(seat_view: SeatView) -> TableMoves:
    """Every attachment and joker exchange the engine would accept for the view's seat,
    as if it had just drawn, under the view's variant and options.

    Jokers locked by an earlier exchange (RULES §9.10) are read from the view.
    """
    seat = seat_view.seat
    table = [_formation_pieces(f) for f in seat_view.table]
    owners = [0 if f.owner == seat else 1 for f in seat_view.table]
    game = analysis_game(
        seat_view.variant,
        seat_view.rack,
        table,
        players=seat_view.players,
        options=seat_view.options,
        opened=seat_view.opened[seat],
        owners=owners,
        locked=[f.locked for f in seat_view.table],
        board=seat_view.board[seat],
    )
    legal = game.legal_actions()
    number = {i + 1: f.id for i, f in enumerate(seat_view.table)}
    attachments = tuple(
        Attach(a.face, number[a.target], a.declared) for a in legal if isinstance(a, Attach)
    )
    exchanges = tuple(
        ExchangeJoker(a.faces, number[a.target]) for a in legal if isinstance(a, ExchangeJoker)
    )
    return TableMoves(attachments, exchanges)


def _formation_pieces(formation: FormationView) -> list[tuple[Face, Face | None]]:
    """The formation's faces, each joker of a run declared at its position."""
    suits = {f.suit_index for f in formation.faces if not f.is_joker}
    out: list[tuple[Face, Face | None]] = []
    for face, position in zip(formation.faces, formation.positions, strict=True):
        declared = None
        if face.is_joker and formation.kind == "run" and suits:
            rank = 1 if position == HIGH_ACE else position
            declared = Face.of(face.material, next(iter(suits)), rank)
        out.append((face, declared))
    return out
