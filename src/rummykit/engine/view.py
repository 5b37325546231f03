"""Per-seat views: the only way hidden information leaves the engine.

A view holds what one seat may know: its own rack, the public table, column
and counts, and the public part of the action log.  It never holds piece ids
(copies of a face are indistinguishable in play), another rack's faces, the
stock order or the seed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any

from rummykit.engine.actions import AcceptSwap, Action, CallRemi, ProposeSwap
from rummykit.engine.game import DealResult, Game, Phase
from rummykit.model.pieces import Face
from rummykit.rules.options import VariantOptions

__all__ = [
    "FormationView",
    "SeatView",
    "public_notation",
    "seat_legal_actions",
    "spectator_view",
    "view",
]


@dataclass(frozen=True, slots=True)
class FormationView:
    """A formation as everyone sees it."""

    id: int
    owner: int
    kind: str
    notation: str
    faces: tuple[Face, ...]
    positions: tuple[int, ...]
    """Run positions (1..14, 14 = the high 1), or the set's rank for each piece."""
    locked: tuple[bool, ...] = ()
    """Per piece: a joker that may not be exchanged again (RULES §9.10); public, since
    everyone saw the exchange.  Empty for a formation with no locked joker."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """What ``seat`` knows of the game now."""

    variant: str
    options: VariantOptions
    players: int
    seat: int
    phase: Phase
    deal_number: int
    round: int
    maker: int
    first_seat: int
    to_move: int
    rack: tuple[Face, ...]
    rack_sizes: tuple[int, ...]
    table: tuple[FormationView, ...]
    column: tuple[Face, ...]
    stock_count: int
    indicator: Face | None
    indicator_in_stock: bool
    double_game: bool
    opened: tuple[bool, ...]
    board: tuple[bool, ...]
    announced_three: tuple[bool, ...]
    atu: tuple[bool, ...]
    doubles_announced: tuple[tuple[str, ...], ...]
    swap_offer: str | None
    """A swap offered to or by this seat that awaits an answer, in public terms."""
    turns_taken: tuple[int, ...]
    totals: tuple[int, ...]
    results: tuple[DealResult, ...]
    must_use: tuple[Face, ...]
    """This seat's column tiles that must go into a new formation this turn."""
    pending_jokers: int
    """Jokers this seat must place this turn: freed by an exchange or lifted by a
    lay-off (RULES §4.5); own turn only."""
    laid_points: int
    """Opening points laid this turn (own turn only)."""
    history: tuple[tuple[int, str], ...]
    """Public notation of every action of this deal: (seat, notation)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (faces as notation)."""
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "players": self.players,
            "seat": self.seat,
            "phase": str(self.phase),
            "deal_number": self.deal_number,
            "round": self.round,
            "maker": self.maker,
            "first_seat": self.first_seat,
            "to_move": self.to_move,
            "rack": list(map(str, self.rack)),
            "rack_sizes": list(self.rack_sizes),
            "table": [
                {"id": f.id, "owner": f.owner, "kind": f.kind, "notation": f.notation}
                for f in self.table
            ],
            "column": list(map(str, self.column)),
            "stock_count": self.stock_count,
            "indicator": None if self.indicator is None else str(self.indicator),
            "indicator_in_stock": self.indicator_in_stock,
            "double_game": self.double_game,
            "opened": list(self.opened),
            "board": list(self.board),
            "announced_three": list(self.announced_three),
            "atu": list(self.atu),
            "doubles_announced": [list(d) for d in self.doubles_announced],
            "swap_offer": self.swap_offer,
            "turns_taken": list(self.turns_taken),
            "totals": list(self.totals),
            "results": [r.to_json() for r in self.results],
            "must_use": list(map(str, self.must_use)),
            "pending_jokers": self.pending_jokers,
            "laid_points": self.laid_points,
            "history": list(map(list, self.history)),
        }


def public_notation(action: Action, actor: int, viewer: int) -> str:
    """How ``viewer`` sees ``actor``'s action: swapped tiles show only to the two seats,
    and a card closing face down (RULES §6.6) only to its owner."""
    if isinstance(action, ProposeSwap) and viewer not in (actor, action.seat):
        return f"swap ? P{action.seat + 1}"
    if isinstance(action, AcceptSwap) and viewer != actor:
        # The proposer learns the tile when it lands on his rack, not from the log.
        return "accept ?"
    if isinstance(action, CallRemi) and action.face is not None and viewer != actor:
        return "remi ?"
    return str(action)


_kind = attrgetter("kind")  # one material per game: faces order by kind

_PER_VIEWER = ("swap", "accept", "remi ")
"""Notations that read differently to different seats (:func:`public_notation`)."""


def _history(game: Game, seat: int) -> tuple[tuple[int, str], ...]:
    log = game.log
    start, n = game.deal_log_start, len(log)
    memo = game.history_memo
    if memo is None or memo[0] != start or memo[1] != n:
        texts = game.log_text
        texts.extend((s, str(a)) for s, a in log[len(texts) :])
        # The log only grows within a deal: extend what the last view built.
        if memo is not None and memo[0] == start and memo[1] < n:
            base, entries, special = memo[1], memo[2], memo[3]
        else:
            base, entries, special = start, (), ()
        added = texts[base:n]
        entries += tuple(added)
        special += tuple(base + i for i, (_, t) in enumerate(added) if t.startswith(_PER_VIEWER))
        memo = game.history_memo = (start, n, entries, special)
    entries, special = memo[2], memo[3]
    if not special:
        return entries
    out = list(entries)
    for i in special:
        actor = log[i][0]
        out[i - start] = (actor, public_notation(log[i][1], actor, seat))
    return tuple(out)


def _locked(pieces: tuple[int, ...], locked: set[int]) -> tuple[bool, ...]:
    if not locked or locked.isdisjoint(pieces):
        return ()
    return tuple(p in locked for p in pieces)


def _table_view(game: Game) -> tuple[FormationView, ...]:
    # Every seat's view shows the same table: build it once while it stays the same
    # (formations are immutable, so the same objects and locks mean the same table).
    memo = game.table_memo
    table, locked = game.table, game.locked
    if (
        memo is not None
        and len(memo[0]) == len(table)
        and all(a is b for a, b in zip(memo[0], table, strict=True))
        and memo[1] == locked
    ):
        return memo[2]
    faces = game.faces
    shown = tuple(
        FormationView(
            f.id,
            f.owner,
            str(f.kind),
            f.notation(game.pieces),
            tuple(faces[p] for p in f.pieces),
            f.positions,
            _locked(f.pieces, locked),
        )
        for f in table
    )
    game.table_memo = (tuple(table), frozenset(locked), shown)
    return shown


def view(game: Game, seat: int) -> SeatView:
    """The view of ``game`` from ``seat``."""
    if not 0 <= seat < game.players:
        raise ValueError(f"seat must be 0..{game.players - 1}, not {seat}")
    faces = game.faces
    own_turn = game.to_move == seat and game.phase in (Phase.ROUND1, Phase.TURNS)
    n = game.players
    face_down, face_down_seat = game.hidden_discard()
    return SeatView(
        variant=game.variant.name,
        options=game.options,
        players=game.players,
        seat=seat,
        phase=game.phase,
        deal_number=game.deal_number,
        round=game.round,
        maker=game.maker,
        first_seat=game.first_seat,
        to_move=game.to_move,
        rack=tuple(sorted((faces[p] for p in game.racks[seat]), key=_kind)),
        rack_sizes=tuple(len(r) for r in game.racks),
        table=_table_view(game),
        column=tuple(
            faces[p]
            for p in game.column
            # RULES §6.6: a card closing face down shows only to the closer.
            if p != face_down or face_down_seat == seat
        ),
        stock_count=len(game.stock),
        indicator=None if game.indicator is None else faces[game.indicator],
        indicator_in_stock=game.indicator is not None and game.indicator in game.stock,
        double_game=game.double_game,
        opened=tuple(game.opened),
        **{
            # What a variant without the pre-play extension shows in its fields.
            "atu": (False,) * n,
            "doubles_announced": ((),) * n,
            "swap_offer": None,
            "announced_three": (False,) * n,
            "board": (False,) * n,
            **game.view_fields(seat),
        },
        turns_taken=tuple(game.turns_taken),
        totals=tuple(game.totals),
        results=tuple(game.results),
        # Only the obligations still open: a column tile already laid is done.
        must_use=tuple(faces[p] for p in game.turn.must_use if p in game.racks[seat])
        if own_turn
        else (),
        pending_jokers=(
            len(game.turn.pending_jokers) + len(game.obliged_pieces(seat)) if own_turn else 0
        ),
        laid_points=game.turn.laid_points if own_turn else 0,
        history=_history(game, seat),
    )


def seat_legal_actions(game: Game, seat: int) -> list[Action]:
    """The legal actions of ``seat`` as it may know them: none unless it is to move.

    This is the one legal list for anything outside the engine (bots, RL masks, the
    server): like :func:`view`, it depends only on what ``seat`` may see, never on
    another rack or the stock (a property test deals the hidden pieces again and
    checks it).
    """
    if not 0 <= seat < game.players:
        raise ValueError(f"seat must be 0..{game.players - 1}, not {seat}")
    if seat != game.to_move or game.is_over:
        return []
    return game.legal_actions()


def spectator_view(game: Game) -> SeatView:
    """What a spectator (no seat) knows: the public part of any seat's view.

    ``seat`` is -1; the rack and every own-turn field are empty, and the log shows
    swapped tiles and a face-down closing card to nobody.
    """
    base = view(game, 0)
    faces = game.faces
    face_down = game.hidden_discard()[0]
    return replace(
        base,
        seat=-1,
        rack=(),
        column=tuple(faces[p] for p in game.column if p != face_down),
        swap_offer=None,
        must_use=(),
        pending_jokers=0,
        laid_points=0,
        history=_history(game, -1),
    )
