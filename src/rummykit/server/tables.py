"""Tables: the game, its seats, their tokens and the frames each recipient gets.

This module is synchronous and socket-free: the hub (``rummykit.server.hub``)
calls it from the event loop, and the hidden-information tests call the very
same :meth:`Table.frame` the server sends.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.bots import BOTS, Bot, make_bot
from rummykit.engine.actions import Action, ProposeSwap, parse_action
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.game import Game, Phase
from rummykit.engine.record import record_of
from rummykit.engine.view import spectator_view, view
from rummykit.rules.options import OptionError
from rummykit.rules.variant import UnknownVariantError, find_variant
from rummykit.server.frames import hands_of, hints_for, state_frame
from rummykit.server.schema import SeatInfo, StateFrame, TableInfo
from rummykit.server.store import EventRow, SeatRow, Store, TableRow

__all__ = [
    "CODE_ALPHABET",
    "Lobby",
    "ProtocolError",
    "Table",
    "build_frame",
    "hash_token",
    "legal_notation",
]

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Invite codes avoid look-alikes (0/O, 1/I)."""
CODE_LENGTH = 6
STANDIN_BOT = "greedy"
"""The bot that plays a vacant or absent human seat and expired turn timers."""


class ProtocolError(Exception):
    """A rejected request: a stable ``code`` and a message; nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")


def hash_token(token: str) -> str:
    """Seat tokens are stored only as their SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def _clean_name(name: str, fallback: str) -> str:
    name = " ".join(name.split())[:40]
    return name or fallback


@dataclass(slots=True)
class Applied:
    """The outcome of a submission: the event number, and whether it was a repeat."""

    event_id: int
    duplicate: bool = False


def legal_notation(game: Game, seat: int) -> list[str]:
    """Legal actions of ``seat`` in notation (empty unless it is to move).

    Double-swap proposals are left out: whether one is legal depends on the other
    seat's rack, which this seat may not know (the action is still accepted)."""
    if game.to_move != seat or game.is_over:
        return []
    return [str(a) for a in game.legal_actions() if not isinstance(a, ProposeSwap)]


def build_frame(
    game: Game, seat: int | None, *, playing: bool = True, deadline: float | None = None
) -> StateFrame:
    """The state frame the server sends ``seat`` (None: a spectator): the seat's view
    (the public view for a spectator), its legal actions when it is to move and the
    game is on, and every seat's hand (each from its own view) once a deal has ended."""
    seen = spectator_view(game) if seat is None else view(game, seat)
    ended = game.phase in (Phase.DEAL_END, Phase.MATCH_END)
    hands = hands_of([view(game, s) for s in range(game.players)]) if ended else None
    return state_frame(
        seen,
        event_id=len(game.log),
        legal=legal_notation(game, seat) if seat is not None and playing else None,
        hands=hands,
        deadline=deadline,
    )


class Table:
    """One table: header, seats, the live game rebuilt from the event log."""

    def __init__(self, row: TableRow, events: Sequence[EventRow], store: Store | None) -> None:
        self.row = row
        self.store = store
        self.game = Game(row.variant, row.players, row.options, seed=row.seed)
        material = self.game.pieces.material
        self.action_ids: dict[str, tuple[int, int]] = {}
        for event in events:
            # Replay: the log was verified when it was written, so any failure here is
            # corruption and must stop the load rather than fork the game.
            if event.seat != self.game.to_move:
                raise RuntimeError(
                    f"table {row.code}: event {event.seq} is for P{event.seat + 1}, "
                    f"but P{self.game.to_move + 1} is to move"
                )
            self.game.apply(parse_action(event.action, material))
            if event.action_id is not None:
                self.action_ids[event.action_id] = (event.seat, event.seq)
        if self.game.is_over and row.status != "finished":
            self._set_status("finished")
        self.connections: dict[int, int] = {}
        """Open connections per seat (the hub keeps it)."""
        self.standin: set[int] = set()
        """Human seats a bot plays for now (grace period over)."""
        self.deadline: float | None = None
        """When the turn timer of the seat to move expires (set by the hub)."""
        self.bots: dict[int, tuple[str, Bot]] = {}
        """Each bot-played seat's bot and the name it was made from: one instance for the
        whole game, since a bot may keep a plan across the actions of its turn."""
        self.rng = random.Random(secrets.randbits(64))
        self._frames: dict[int | None, tuple[tuple[int, float | None, str], str]] = {}

    # ------------------------------------------------------------------ header

    @property
    def code(self) -> str:
        """The invite code."""
        return self.row.code

    @property
    def event_id(self) -> int:
        """Events applied so far (also the ``state_id`` of the current state)."""
        return len(self.game.log)

    @property
    def status(self) -> str:
        """``open`` (seats free before the start), ``playing`` or ``finished``."""
        return self.row.status

    def info(self) -> TableInfo:
        """The header as everyone sees it."""
        given = self.row.options
        return TableInfo(
            code=self.code,
            name=self.row.name,
            variant=self.row.variant,
            options=dict(self.game.options),
            options_changed={k: self.game.options[k] for k in given if k in self.game.options},
            players=self.row.players,
            seats=[
                SeatInfo(
                    seat=s.seat,
                    name=s.name,
                    kind=s.kind,  # type: ignore[arg-type]
                    bot=s.bot
                    if s.kind == "bot"
                    else (STANDIN_BOT if self.by_bot(s.seat) else None),
                    connected=self.connections.get(s.seat, 0) > 0,
                    standin=s.kind != "bot" and self.by_bot(s.seat),
                )
                for s in self.row.seats
            ],
            status=self.row.status,  # type: ignore[arg-type]
            turn_timer=self.row.turn_timer,
            rematch=self.row.rematch,
            created=self.row.created,
        )

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat ``token`` holds (None for no token); ``bad_token`` otherwise."""
        if token is None or token == "":
            return None
        digest = hash_token(token)
        for s in self.row.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        raise ProtocolError("bad_token", "this token holds no seat at this table")

    def by_bot(self, seat: int) -> bool:
        """Whether a bot plays ``seat`` now (a bot seat, a vacant seat during play, or a
        human seat whose grace period ran out)."""
        kind = self.row.seats[seat].kind
        if kind == "bot":
            return True
        return self.row.status == "playing" and (kind == "open" or seat in self.standin)

    def _save_seat(self, seat: SeatRow) -> None:
        if self.store is not None:
            self.store.update_seat(self.code, seat)

    def _set_status(self, status: str) -> None:
        self.row.status = status
        if status == "finished":
            self.row.finished = self.row.finished or time.time()
        if self.store is not None:
            self.store.update_table(self.code, status=status, finished=self.row.finished)

    def sit(self, name: str, seat: int | None = None) -> tuple[int, str]:
        """Take ``seat`` (or the first open one); return it and its new secret token."""
        if self.row.status == "finished":
            raise ProtocolError("finished", "this game is over")
        open_seats = [s.seat for s in self.row.seats if s.kind == "open"]
        if seat is None:
            if not open_seats:
                raise ProtocolError("table_full", "every seat is taken")
            seat = open_seats[0]
        if not 0 <= seat < self.row.players:
            raise ProtocolError("bad_seat", f"seat must be 0..{self.row.players - 1}")
        if seat not in open_seats:
            raise ProtocolError("seat_taken", f"seat {seat} is taken")
        token = secrets.token_urlsafe(24)
        row = self.row.seats[seat]
        row.name = _clean_name(name, f"P{seat + 1}")
        row.kind = "human"
        row.bot = None
        row.token_hash = hash_token(token)
        self.standin.discard(seat)
        self._save_seat(row)
        if self.row.status == "open" and all(s.kind != "open" for s in self.row.seats):
            self._set_status("playing")
        return seat, token

    def leave(self, seat: int) -> None:
        """Give ``seat`` up: it becomes open (during play a bot plays it meanwhile)."""
        row = self.row.seats[seat]
        row.name = ""
        row.kind = "open"
        row.token_hash = None
        self.standin.discard(seat)
        self._save_seat(row)

    # ------------------------------------------------------------------ actions

    def legal_for(self, seat: int) -> list[str]:
        """Legal actions of ``seat`` in notation (empty unless it is to move)."""
        return legal_notation(self.game, seat) if self.row.status == "playing" else []

    def submit(self, seat: int | None, action_id: str, state_id: int, text: str) -> Applied:
        """Check and apply a client's action; raise :class:`ProtocolError` if rejected."""
        known = self.action_ids.get(action_id)
        if known is not None:
            if known[0] != seat:
                raise ProtocolError("malformed", "this action id was used by another seat")
            return Applied(known[1], duplicate=True)
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot play; join a seat first")
        if self.row.status == "open":
            raise ProtocolError("not_started", "the game starts when every seat is taken")
        if self.row.status == "finished" or self.game.is_over:
            raise ProtocolError("illegal_action", "the game is over")
        if self.game.to_move != seat:
            raise ProtocolError("not_your_turn", f"P{self.game.to_move + 1} is to move")
        if state_id != self.event_id:
            raise ProtocolError(
                "stale_state",
                f"the action was built on state {state_id}; the state is now {self.event_id}",
            )
        try:
            action = parse_action(text, self.game.pieces.material)
        except ValueError as exc:
            raise ProtocolError("malformed", f"cannot read the action: {exc}") from None
        try:
            self.game.verify(action)
        except IllegalActionError as exc:
            raise ProtocolError("illegal_action", str(exc)) from None
        return Applied(self._commit(seat, action, action_id))

    def _commit(self, seat: int, action: Action, action_id: str | None) -> int:
        """Store, then apply, a verified action: an action is acknowledged only once
        it is stored, and never applied unless stored."""
        seq = self.event_id + 1
        if self.store is not None:
            self.store.append_event(self.code, EventRow(seq, seat, str(action), action_id))
        self.game.apply(action)
        if self.game.is_over:
            # A crash before this line is repaired on load (the log says the game is over).
            self._set_status("finished")
        if action_id is not None:
            self.action_ids[action_id] = (seat, seq)
        self._frames.clear()
        return seq

    def bot_to_move(self) -> int | None:
        """The seat to move if a bot plays it now, else None."""
        if self.row.status != "playing" or self.game.is_over:
            return None
        seat = self.game.to_move
        return seat if self.by_bot(seat) else None

    def play_for(self, seat: int, bot_name: str | None = None) -> int:
        """Let a bot choose and play one action for ``seat`` (a bot seat, a stand-in,
        or an expired turn timer); return the event number."""
        name = bot_name or self.row.seats[seat].bot or STANDIN_BOT
        made = self.bots.get(seat)
        if made is None or made[0] != name:
            # Keyed by the requested name, not bot.name: "easy" makes a bot named
            # "expert-easy", and a bot remade on every action forgets its turn plan.
            made = self.bots[seat] = (name, make_bot(name))
        bot = made[1]
        legal = self.game.legal_actions()
        action = bot.choose(view(self.game, seat), legal, self.rng)
        return self._commit(seat, action, None)

    # ------------------------------------------------------------------ frames

    def frame(self, seat: int | None) -> StateFrame:
        """The state frame for ``seat`` (None: a spectator), built from views only."""
        return build_frame(
            self.game, seat, playing=self.row.status == "playing", deadline=self.deadline
        )

    def frame_json(self, seat: int | None) -> str:
        """:meth:`frame` serialized, cached until the next event."""
        key = (self.event_id, self.deadline, self.row.status)
        cached = self._frames.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        text = self.frame(seat).model_dump_json()
        self._frames[seat] = (key, text)
        return text

    def hints(self, seat: int) -> list[dict[str, Any]]:
        """Hints for ``seat`` from its view (empty unless it is to move)."""
        if self.game.to_move != seat or self.row.status != "playing":
            return []
        return hints_for(view(self.game, seat), set(legal_notation(self.game, seat)))

    def record(self) -> dict[str, Any]:
        """The game record (``rummykit.engine.record``) — for finished games only."""
        seats = [
            {"seat": s.seat, "name": s.name or f"P{s.seat + 1}", "kind": s.kind}
            | ({"bot": s.bot} if s.bot else {})
            for s in self.row.seats
        ]
        return record_of(self.game, seats)


class Lobby:
    """Every table of one store: creation, lookup, seats, rematches."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        if store is not None:
            for code in store.active_codes():
                self.load(code)

    def load(self, code: str) -> Table | None:
        """The table ``code`` (from memory, else rebuilt from the store)."""
        table = self.tables.get(code)
        if table is not None or self.store is None:
            return table
        loaded = self.store.load_table(code)
        if loaded is None or loaded[0].status == "expired":
            return None  # an open table closed unused (``quotas.Expiry``) is gone
        table = Table(loaded[0], loaded[1], self.store)
        self.tables[code] = table
        return table

    def get(self, code: str) -> Table:
        """The table ``code``; ``no_table`` if there is none."""
        table = self.load(code.strip().upper())
        if table is None:
            raise ProtocolError("no_table", f"no table has the code {code!r}")
        return table

    def _new_code(self) -> str:
        while True:
            codes = [
                "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)) for _ in range(4)
            ]
            taken = set(self.tables)
            if self.store is not None:
                taken |= self.store.codes_taken(codes)
            free = [c for c in codes if c not in taken]
            if free:
                return free[0]

    def create(
        self,
        *,
        variant: str,
        players: int | None,
        options: Mapping[str, Any],
        bots: Mapping[int, str],
        name: str,
        table_name: str = "",
        turn_timer: float | None = None,
        seed: int | None = None,
        sit_creator: bool = True,
    ) -> tuple[Table, int | None, str | None]:
        """A new table; the creator takes the first seat that is not a bot.

        Returns the table, the creator's seat and token (None, None when every seat
        is a bot: the creator watches)."""
        try:
            v = find_variant(variant)
            n = v.default_players if players is None else players
            resolved = v.resolve(n, dict(options))
        except (UnknownVariantError, OptionError) as exc:
            raise ProtocolError("bad_options", str(exc)) from None
        for seat, bot in bots.items():
            if not 0 <= seat < n:
                raise ProtocolError("bad_seat", f"bot seat must be 0..{n - 1}, not {seat}")
            if bot.strip().lower() not in BOTS:
                raise ProtocolError(
                    "bad_options", f"unknown bot {bot!r}; choose from {', '.join(BOTS)}"
                )
        if turn_timer is not None and not 1 <= turn_timer <= 3600:
            raise ProtocolError("bad_options", "turn_timer must be 1..3600 seconds (or null)")
        given = {k: options[k] for k in options if k in resolved}
        seats = [
            SeatRow(s, f"{bots[s].strip().lower()} bot", "bot", bots[s].strip().lower())
            if s in bots
            else SeatRow(s)
            for s in range(n)
        ]
        row = TableRow(
            code=self._new_code(),
            name=_clean_name(table_name, f"{v.title}"),
            variant=v.name,
            players=n,
            options=given,
            seed=secrets.randbelow(2**62) if seed is None else seed,
            turn_timer=turn_timer,
            status="open" if any(s.kind == "open" for s in seats) else "playing",
            seats=seats,
        )
        if self.store is not None:
            self.store.create_table(row)
        table = Table(row, (), self.store)
        self.tables[row.code] = table
        if row.status == "playing" or not sit_creator:
            return table, None, None
        seat, token = table.sit(name)
        return table, seat, token

    def rematch(self, table: Table, seat: int) -> tuple[Table, int, str]:
        """The rematch of a finished ``table`` (created once): same variant, options and
        bots; ``seat`` sits at the same place."""
        if table.row.status != "finished":
            raise ProtocolError("not_finished", "a rematch starts when the game is over")
        if table.row.rematch is None:
            bots = {s.seat: s.bot for s in table.row.seats if s.kind == "bot" and s.bot}
            new, _, _ = self.create(
                variant=table.row.variant,
                players=table.row.players,
                options=table.row.options,
                bots=bots,
                name="",
                table_name=table.row.name,
                turn_timer=table.row.turn_timer,
                sit_creator=False,
            )
            table.row.rematch = new.code
            if self.store is not None:
                self.store.update_table(table.code, rematch=new.code)
        new = self.get(table.row.rematch)
        name = table.row.seats[seat].name
        want = seat if new.row.seats[seat].kind == "open" else None
        got, token = new.sit(name, want)
        return new, got, token

    def open_tables(self) -> list[Table]:
        """Tables still waiting for players, newest first."""
        found = [t for t in self.tables.values() if t.row.status == "open"]
        return sorted(found, key=lambda t: -t.row.created)

    def finished(self, limit: int = 50, offset: int = 0) -> list[TableRow]:
        """Finished tables, newest first."""
        if self.store is None:
            rows = [t.row for t in self.tables.values() if t.row.status == "finished"]
            rows.sort(key=lambda r: -(r.finished or 0))
            return rows[offset : offset + limit]
        return self.store.finished_tables(limit, offset)
