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
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeGuard, TypeVar

from sqlalchemy.engine import Connection

from rummykit.bots import BOTS, Bot, make_bot
from rummykit.engine.actions import Action, NextDeal, parse_action
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.game import Game, Phase
from rummykit.engine.record import record_of
from rummykit.engine.view import SeatView, seat_legal_actions, spectator_view, view
from rummykit.rules.options import OptionError
from rummykit.rules.variant import UnknownVariantError, find_variant
from rummykit.server.explain import explain
from rummykit.server.frames import hands_of, hints_for, state_frame
from rummykit.server.schema import (
    CHAT_LIMIT,
    CHAT_PHRASES,
    ChatLine,
    SeatInfo,
    StateFrame,
    TableInfo,
    is_seat_kind,
    is_table_status,
)
from rummykit.server.store import ChatRow, EventRow, SeatRow, Store, TableRow

__all__ = [
    "CODE_ALPHABET",
    "NAME_LIMIT",
    "Lobby",
    "ProtocolError",
    "Table",
    "build_frame",
    "chat_line",
    "clean_name",
    "hash_token",
    "legal_notation",
]

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Invite codes avoid look-alikes (0/O, 1/I)."""
CODE_LENGTH = 6
STANDIN_BOT = "greedy"
"""The bot that plays a vacant or absent human seat and expired turn timers."""
NAME_LIMIT = 40
"""Characters in a player's name ..."""
TABLE_NAME_LIMIT = 80
"""... and in a table's (variant titles are long)."""
CHAT_RATE = (5, 10.0)
"""A seat may say at most 5 chat lines in any 10 seconds (on every process together)."""
CHAT_KEPT = 50
"""Chat lines kept in memory and sent to a socket that connects."""
SEED_BITS = 62
"""Deal seeds are 62-bit (they fit the store's signed 64-bit column)."""


class ProtocolError(Exception):
    """A rejected request: a stable ``code`` and a message; nothing changed."""

    def __init__(self, code: str, message: str, explain: dict[str, Any] | None = None) -> None:
        self.code = code
        self.message = message
        self.explain = explain
        """For ``illegal_action``: the refusal in words every language can render
        (``rummykit.server.explain``)."""
        super().__init__(f"{code}: {message}")


_L = TypeVar("_L", bound=str)


def _stored(value: str, known: Callable[[str], TypeGuard[_L]]) -> _L:
    """A stored string as the protocol's literal type; a value no migration wrote is a
    corrupt store, refused rather than sent to every client."""
    if known(value):
        return value
    raise ValueError(f"the store holds {value!r}, which the protocol does not know")


def hash_token(token: str) -> str:
    """Seat tokens are stored only as their SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: str, fallback: str, what: str = "name", limit: int = NAME_LIMIT) -> str:
    """``name`` with its spaces trimmed and runs of spaces made one (``fallback`` if
    nothing is left); ``bad_name`` unless it is at most ``limit`` characters of
    printable text."""
    # isprintable() refuses every control and format character (NUL, escapes, line
    # breaks, tabs, zero-width marks), lone surrogates and unassigned code points:
    # what a database may refuse or a page may show as something else.
    if not name.isprintable():
        raise ProtocolError(
            "bad_name", f"the {what} must be printable text (no control characters)"
        )
    name = " ".join(part for part in name.split(" ") if part)
    if len(name) > limit:
        raise ProtocolError("bad_name", f"the {what} is longer than {limit} characters")
    return name or fallback


@dataclass(slots=True)
class Applied:
    """The outcome of a submission: the event number, and whether it was a repeat."""

    event_id: int
    duplicate: bool = False
    header: bool = False
    """The header changed (a seat asked for the next deal): send it to everyone."""


def legal_notation(game: Game, seat: int) -> list[str]:
    """Legal actions of ``seat`` in notation (empty unless it is to move), as the seat
    may know them (:func:`~rummykit.engine.view.seat_legal_actions`)."""
    return [str(a) for a in seat_legal_actions(game, seat)]


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


@dataclass(frozen=True)
class BotJob:
    """One bot decision, taken from the table at event ``expect`` (see
    :meth:`Table.bot_job`)."""

    seat: int
    expect: int
    bot: Bot
    seen: SeatView
    legal: Sequence[Action]
    rng: random.Random

    def think(self) -> Action:
        """The bot's choice: reads only this job's snapshot (safe off the event loop)."""
        return self.bot.choose(self.seen, self.legal, self.rng)


class Table:
    """One table: header, seats, the live game rebuilt from the event log.

    There is no game until every seat is taken: the deal is made then, from a seed
    drawn then (``seeds``, by default the operating system's randomness), so nothing
    of it can be read by sitting at an open seat and leaving.  The stored seed and the
    event log reproduce the game."""

    def __init__(
        self,
        row: TableRow,
        events: Sequence[EventRow],
        store: Store | None,
        *,
        seeds: random.Random | None = None,
        seed: int | None = None,
    ) -> None:
        self.row = row
        self.store = store
        self.seeds = seeds or random.SystemRandom()
        self.next_seed = seed
        """The seed the deal will use (tests); None: drawn from ``seeds`` at the deal."""
        self.options = find_variant(row.variant).resolve(row.players, row.options)
        self.version = row.version
        """The stored version this copy reflects (``Store.locked``)."""
        self.listener: Callable[[Table, bool, bool], None] | None = None
        """Called as ``listener(table, state, header)`` for each change read from the
        store that another process made: ``state`` after each event, ``header`` when
        seats or the status changed (the hub sends the frames)."""
        self._game: Game | None = None
        self.action_ids: dict[tuple[int, str], int] = {}
        """(seat, client action id) → event number: ids are per seat."""
        self.connections: dict[int, int] = {}
        """Open connections per seat on this process (the hub keeps it)."""
        self.elsewhere: dict[str, dict[int, int]] = {}
        """Open connections per seat on other processes, by process (the hub keeps it)."""
        self.standin: set[int] = set()
        """Human seats a bot plays for now (grace period over)."""
        self.rng = random.Random(secrets.randbits(64))
        self.last: tuple[int, EventRow, float] | None = None
        """The version, event and turn start of the last action this process stored."""
        self.decided = 0.0
        """Seconds the last bot decision took (metrics)."""
        self._dealt_at = 0.0
        self.chat_lines: list[ChatRow] | None = None
        """The latest chat lines (read from the store when first needed)."""
        self._frames: dict[int | None, tuple[tuple[int, float | None, str], str]] = {}
        self._repair(events)
        if row.seed is not None and row.status != "open":
            game = self._game = Game(row.variant, row.players, row.options, seed=row.seed)
            material = game.pieces.material
            for event in events:
                # Replay: the log was verified when it was written, so any failure here
                # is corruption and must stop the load rather than fork the game.
                if event.seat != game.to_move:
                    raise RuntimeError(
                        f"table {row.code}: event {event.seq} is for P{event.seat + 1}, "
                        f"but P{game.to_move + 1} is to move"
                    )
                game.apply(parse_action(event.action, material))
                if event.action_id is not None:
                    self.action_ids[event.seat, event.action_id] = event.seq
            if game.is_over and row.status != "finished":
                self._set_status("finished")
        if row.status == "playing" and row.turn_start is None:
            row.turn_start = time.time()  # stored by an older server: the turn starts now
        self.bots: dict[int, tuple[str, Bot]] = {}
        """Each bot-played seat's bot and the name it was made from: one instance for the
        whole game, since a bot may keep a plan across the actions of its turn."""

    # ------------------------------------------------------------------ header

    @property
    def code(self) -> str:
        """The invite code."""
        return self.row.code

    @property
    def dealt(self) -> bool:
        """Whether the game exists (every seat was taken once)."""
        return self._game is not None

    @property
    def game(self) -> Game:
        """The live game; ``not_started`` before the deal."""
        if self._game is None:
            raise ProtocolError(
                "not_started", "there is no deal yet: the game starts when every seat is taken"
            )
        return self._game

    @property
    def event_id(self) -> int:
        """Events applied so far (also the ``state_id`` of the current state)."""
        return 0 if self._game is None else len(self._game.log)

    @property
    def status(self) -> str:
        """``open`` (seats free before the start), ``playing`` or ``finished``."""
        return self.row.status

    @property
    def deadline(self) -> float | None:
        """When the turn timer of the seat to move expires (None: no timer runs): the
        same on every process, counted from the stored start of the turn."""
        seconds, start = self.row.turn_timer, self.row.turn_start
        if seconds is None or start is None or self.bot_to_move() is not None:
            return None
        if self.row.status != "playing" or self.game.is_over:
            return None
        if self.game.phase is Phase.DEAL_END:
            return None  # the pause between deals waits for the players, not a clock
        return start + seconds

    def connected(self, seat: int) -> bool:
        """Whether ``seat`` has an open connection on any process."""
        return self.connections.get(seat, 0) > 0 or any(
            counts.get(seat, 0) > 0 for counts in self.elsewhere.values()
        )

    def info(self) -> TableInfo:
        """The header as everyone sees it."""
        given = self.row.options
        return TableInfo(
            code=self.code,
            name=self.row.name,
            variant=self.row.variant,
            options=dict(self.options),
            options_changed={k: self.options[k] for k in given if k in self.options},
            players=self.row.players,
            seats=[
                SeatInfo(
                    seat=s.seat,
                    name=s.name,
                    kind=_stored(s.kind, is_seat_kind),
                    bot=s.bot
                    if s.kind == "bot"
                    else (STANDIN_BOT if self.by_bot(s.seat) else None),
                    connected=self.connected(s.seat),
                    standin=s.kind != "bot" and self.by_bot(s.seat),
                )
                for s in self.row.seats
            ],
            status=_stored(self.row.status, is_table_status),
            turn_timer=self.row.turn_timer,
            rematch=self.row.rematch,
            created=self.row.created,
            ready=list(self.row.ready) if self.between_deals() else [],
        )

    def between_deals(self) -> bool:
        """Whether a deal has ended and the next one waits to be asked for."""
        return (
            self._game is not None
            and self.row.status == "playing"
            and self._game.phase is Phase.DEAL_END
        )

    def awaited(self) -> list[int]:
        """Between deals: the human seats that have not asked for the next deal yet."""
        if not self.between_deals():
            return []
        return [
            s.seat for s in self.row.seats if s.kind == "human" and s.seat not in self.row.ready
        ]

    def holds(self, seat: int, token_hash: str | None) -> bool:
        """Whether the token hashed to ``token_hash`` still holds ``seat``."""
        held = self.row.seats[seat].token_hash
        return (
            held is not None and token_hash is not None and secrets.compare_digest(held, token_hash)
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

    @contextmanager
    def _locked(self) -> Iterator[Connection | None]:
        """A transaction on this table (None without a store).  When other processes
        share the store, the table's row is locked first and what they changed since
        this copy was read is read now, so that every check made inside sees the
        table as it is: a seat is granted once, an event number is used once."""
        if self.store is None:
            yield None
            return
        with self.store.locked(self.code) as (conn, stored):
            if stored is not None and stored != self.version:
                if stored < 0:
                    raise ProtocolError("no_table", f"no table has the code {self.code!r}")
                self._catch_up(conn)
            yield conn

    def _write(self, conn: Connection | None, seats: Sequence[SeatRow], **header: Any) -> None:
        """Store seats and header fields in ``conn``'s transaction, with the next
        version; memory changes only after the commit (then call :meth:`_wrote`)."""
        if self.store is not None and conn is not None:
            self.store.update_seats(self.code, seats, conn=conn, version=self.version + 1, **header)

    def _wrote(self) -> None:
        """A transaction of :meth:`_write` committed."""
        self.version += 1
        self._frames.clear()

    def _set_status(self, status: str) -> None:
        finished = (self.row.finished or time.time()) if status == "finished" else None
        with self._locked() as conn:
            if self.row.status == status:
                return  # another process stored it first
            self._write(conn, (), status=status, finished=finished)
        self._wrote()
        self.row.status = status
        self.row.finished = finished

    def refresh(self) -> bool:
        """Read what other processes changed since this copy was read (a no-op unless
        the store is shared); whether anything was read."""
        if self.store is None or not self.store.shared:
            return False
        stored = self.store.versions([self.code]).get(self.code)
        if stored is None or stored == self.version:
            return False
        self._catch_up(None)
        return True

    def apply_stored(self, version: int, event: EventRow, turn_start: float) -> bool:
        """Apply an event another process stored as ``version`` (sent over pub/sub), if
        it is the very next change of this copy; whether it was (else :meth:`refresh`)."""
        game = self._game
        if game is None or version != self.version + 1 or event.seq != self.event_id + 1:
            return False
        if self.row.status != "playing" or event.seat != game.to_move:
            return False
        game.apply(parse_action(event.action, game.pieces.material))
        self.version = version
        self.row.turn_start = turn_start
        self.row.ready = []
        if event.action_id is not None:
            self.action_ids[event.seat, event.action_id] = event.seq
        self._frames.clear()
        over = game.is_over
        if over:
            self.row.status = "finished"  # the writer stores it next
        if self.listener is not None:
            self.listener(self, True, over)
        return True

    def _catch_up(self, conn: Connection | None) -> None:
        """Bring this copy up to the stored table: header, seats, the events after
        ours (each applied as it was stored, each reported to :attr:`listener`)."""
        assert self.store is not None
        loaded = self.store.load_since(self.code, self.event_id, conn)
        if loaded is None:
            return
        row, events = loaded

        def face(r: TableRow) -> tuple[Any, ...]:
            seats = [(x.kind, x.name, x.bot, x.token_hash) for x in r.seats]
            return (r.status, r.rematch, r.name, r.ready, seats)

        header = face(row) != face(self.row)
        for field_name in ("status", "seed", "rematch", "finished", "turn_start", "name", "ready"):
            setattr(self.row, field_name, getattr(row, field_name))
        self.row.seats = row.seats
        self.version = row.version
        for s in row.seats:
            if s.kind != "human":
                self.standin.discard(s.seat)
        self._frames.clear()
        fresh = self._game is None and row.seed is not None and row.status != "open"
        if fresh:
            assert row.seed is not None
            self._game = Game(row.variant, row.players, row.options, seed=row.seed)
        game = self._game
        if game is not None:
            for n, event in enumerate(events):
                game.apply(parse_action(event.action, game.pieces.material))
                if event.action_id is not None:
                    self.action_ids[event.seat, event.action_id] = event.seq
                self._frames.clear()
                if self.listener is not None and n < len(events) - 1:
                    self.listener(self, True, False)
            if game.is_over and self.row.status == "playing":
                # The writer stores ``finished`` next; the game is over either way.
                self.row.status = "finished"
                header = True
        if self.listener is not None and (events or header or fresh):
            self.listener(self, bool(events) or fresh, header or fresh)

    def _repair(self, events: Sequence[EventRow]) -> None:
        """Make a header loaded from the store consistent (a crash or an older server
        may have left it half-written): a seat nobody holds is open, a table whose seats
        are all taken is dealt, an open table has no seed.  Stored first, then kept.
        A finished table is left as it is: nobody acts at it, and its record stays."""
        if self.row.status == "finished":
            return
        fixed: list[SeatRow] = []
        for s in self.row.seats:
            if s.kind == "human" and s.token_hash is None:
                fixed.append(SeatRow(s.seat))  # nobody can ever act for it
            elif s.kind == "open" and (s.name or s.bot or s.token_hash):
                fixed.append(SeatRow(s.seat))
            elif s.kind == "bot" and (s.bot or "").lower() not in BOTS:
                fixed.append(SeatRow(s.seat, s.name, "bot", STANDIN_BOT))
            elif s.kind not in ("open", "human", "bot"):
                fixed.append(SeatRow(s.seat))
        seats = list(self.row.seats)
        for f in fixed:
            seats[f.seat] = f
        header: dict[str, Any] = {}
        if events:
            if self.row.seed is None:
                raise RuntimeError(f"table {self.code}: {len(events)} events but no seed")
            if self.row.status == "open":
                header["status"] = "playing"
        else:
            full = all(s.kind != "open" for s in seats)
            if full and (self.row.status == "open" or self.row.seed is None):
                # Every seat taken, but the start was never stored: deal now.
                header = {"status": "playing", "seed": self._draw_seed()}
            elif not full and self.row.status == "open" and self.row.seed is not None:
                header["seed"] = None  # drawn before the deal by an older server
            elif not full and self.row.status == "playing" and self.row.seed is None:
                header["status"] = "open"  # started without a deal: wait for the seats
        if not fixed and not header:
            return
        if header.get("status") == "playing":
            header["turn_start"] = time.time()
        if self.store is not None:
            with self.store.locked(self.code) as (conn, stored):
                if stored is not None and stored != self.version:
                    return  # another process changed (and so repaired) the table meanwhile
                self._write(conn, fixed, **header)
        self._wrote()
        self.row.seats = seats
        self.row.status = header.get("status", self.row.status)
        self.row.seed = header.get("seed", self.row.seed)

    def _draw_seed(self) -> int:
        if self.next_seed is not None:
            return self.next_seed
        return self.seeds.getrandbits(SEED_BITS)

    def sit(self, name: str, seat: int | None = None) -> tuple[int, str]:
        """Take ``seat`` (or the first open one); return it and its new secret token.
        Taking the last open seat of a table that has not started deals."""
        with self._locked() as conn:
            seat, token, taken, game = self._claim(conn, name, seat)
        self._wrote()
        self.row.seats[seat] = taken
        self.standin.discard(seat)
        if game is not None:
            self.row.status = "playing"
            self.row.seed = game.seed
            self.row.turn_start = self._dealt_at
            self._game = game
            self._frames.clear()
        return seat, token

    def _claim(
        self, conn: Connection | None, name: str, seat: int | None
    ) -> tuple[int, str, SeatRow, Game | None]:
        """Check and store a seat's new occupant (inside :meth:`_locked`)."""
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
        clean = clean_name(name, f"P{seat + 1}")
        token = secrets.token_urlsafe(24)
        taken = SeatRow(seat, clean, "human", None, hash_token(token))
        game: Game | None = None
        header: dict[str, Any] = {}
        if self.row.status == "open" and open_seats == [seat]:
            seed = self._draw_seed()
            game = Game(self.row.variant, self.row.players, self.row.options, seed=seed)
            self._dealt_at = time.time()
            header = {"status": "playing", "seed": seed, "turn_start": self._dealt_at}
        self._write(conn, [taken], **header)
        return seat, token, taken, game

    def leave(self, seat: int) -> None:
        """Give ``seat`` up: it becomes open (during play a bot plays it meanwhile)."""
        with self._locked() as conn:
            self._write(conn, [SeatRow(seat)])
        self._wrote()
        self.row.seats[seat] = SeatRow(seat)
        self.standin.discard(seat)

    def clear_rematch(self) -> None:
        """Forget the rematch table (it was closed unused: the next request makes one)."""
        with self._locked() as conn:
            self._write(conn, (), rematch=None)
        self._wrote()
        self.row.rematch = None

    def expire(self) -> bool:
        """Close this table if it is still open (nobody sat since): ``expired`` in the
        store; whether it was closed."""
        with self._locked() as conn:
            if self.row.status != "open":
                return False
            self._write(conn, (), status="expired")
        self._wrote()
        # The object keeps its status: a pending timer of the hub (a seat's grace
        # period) may still read it, and ``expired`` is no status a header shows.
        return True

    # ------------------------------------------------------------------ chat

    def chat(self) -> list[ChatRow]:
        """The latest chat lines, oldest first."""
        if self.chat_lines is None:
            self.chat_lines = [] if self.store is None else self.store.chat(self.code, 0, CHAT_KEPT)
        return self.chat_lines

    def heard(self, line: ChatRow) -> None:
        """A chat line another process stored (sent over pub/sub)."""
        lines = self.chat()
        if not lines or line.seq > lines[-1].seq:
            lines.append(line)
            del lines[:-CHAT_KEPT]

    def say(self, seat: int | None, text: str | None, phrase: str | None) -> ChatRow:
        """Store a chat line of ``seat``: free ``text`` (at most ``CHAT_LIMIT``
        characters of printable text) or a quick ``phrase`` key.  ``spectator`` for a
        spectator (they read, they do not write), ``bad_chat`` for a bad line,
        ``chat_limited`` past the seat's rate; nothing is stored then."""
        if seat is None:
            raise ProtocolError("spectator", "spectators may read the chat, not write in it")
        if (text is None) == (phrase is None):
            raise ProtocolError("bad_chat", "a chat line is either text or a quick phrase")
        if phrase is not None and phrase not in CHAT_PHRASES:
            raise ProtocolError(
                "bad_chat",
                f"unknown quick phrase {phrase!r}; choose from {', '.join(CHAT_PHRASES)}",
            )
        clean = ""
        if text is not None:
            if not text.isprintable():
                raise ProtocolError("bad_chat", "a chat line is printable text on one line")
            clean = " ".join(part for part in text.split(" ") if part)
            if not clean:
                raise ProtocolError("bad_chat", "the chat line is empty")
            if len(clean) > CHAT_LIMIT:
                raise ProtocolError("bad_chat", f"a chat line is at most {CHAT_LIMIT} characters")
        now = time.time()
        with self._locked() as conn:
            if self.store is not None and conn is not None:
                recent = self.store.chat(self.code, 0, CHAT_KEPT, conn)
            else:
                recent = self.chat()
            most, window = CHAT_RATE
            said = [r for r in recent if r.seat == seat and r.created > now - window]
            if len(said) >= most:
                wait = max(1, round(said[-most].created + window - now))
                raise ProtocolError(
                    "chat_limited", f"at most {most} chat lines in {window:g} s: wait {wait} s"
                )
            name = self.row.seats[seat].name or f"P{seat + 1}"
            line = ChatRow(recent[-1].seq + 1 if recent else 1, seat, name, clean, phrase, now)
            if self.store is not None and conn is not None:
                self.store.add_chat(self.code, line, conn=conn)
        self.chat_lines = [*recent, line][-CHAT_KEPT:]
        return line

    # ------------------------------------------------------------------ actions

    def legal_for(self, seat: int) -> list[str]:
        """Legal actions of ``seat`` in notation (empty unless it is to move)."""
        return legal_notation(self.game, seat) if self.row.status == "playing" else []

    def submit(self, seat: int | None, action_id: str, state_id: int, text: str) -> Applied:
        """Check and apply a client's action; raise :class:`ProtocolError` if rejected.

        Action ids are per seat: an id another seat used is as unknown as any other."""
        if self.store is not None:
            fast = self._submit_fast(seat, action_id, state_id, text)
            if fast is not None:
                return fast
        with self._locked() as conn:
            action = self._check(seat, action_id, state_id, text)
            if isinstance(action, Applied):
                return action
            assert seat is not None
            now: float | None = None
            ready: list[int] = []
            if isinstance(action, NextDeal) and self.between_deals():
                # Between deals "next" is a request: the deal starts once every human
                # seat asked (the hub then plays "next" for the seat to move).
                ready = sorted(set(self.row.ready) | {seat})
                if ready == self.row.ready:
                    return Applied(self.event_id, duplicate=True)
                self._write(conn, (), ready=ready)
            else:
                now = self._append(conn, seat, action, action_id)
        if now is None:
            self._wrote()
            self.row.ready = ready
            return Applied(self.event_id, header=True)
        return Applied(self._apply(seat, action, action_id, now))

    def _submit_fast(
        self, seat: int | None, action_id: str, state_id: int, text: str
    ) -> Applied | None:
        """The common case, in one round trip without the table's lock: check the action
        against this copy and store it.  With many processes it is stored only if no
        other process changed the table since (:meth:`Store.append_event_if_current`);
        a process alone on its store stores it at once (:meth:`Store.append_event_alone`).
        None: the copy may be behind (the action was refused by it, or another process
        wrote first), or the action touches the header, so the caller takes the table's
        lock, catches up and decides again."""
        assert self.store is not None
        try:
            action = self._check(seat, action_id, state_id, text)
        except ProtocolError:
            if not self.store.shared:
                raise  # alone on its store, this copy is the table: no catching up
            return None
        if isinstance(action, Applied):
            return action
        if self.row.ready or (isinstance(action, NextDeal) and self.between_deals()):
            # A request for the next deal is not an event, and an event clears the
            # requests in the header: both under the lock.
            return None
        assert seat is not None
        now = time.time()
        event = EventRow(self.event_id + 1, seat, str(action), action_id)
        if not self.store.shared:
            self.store.append_event_alone(
                self.code, event, version=self.version + 1, turn_start=now
            )
        elif not self.store.append_event_if_current(
            self.code, event, expected=self.version, turn_start=now
        ):
            return None
        return Applied(self._apply(seat, action, action_id, now))

    def _check(
        self, seat: int | None, action_id: str, state_id: int, text: str
    ) -> Action | Applied:
        """A client's action checked against the table (inside :meth:`_locked`), or the
        outcome of the same action id applied before."""
        known = None if seat is None else self.action_ids.get((seat, action_id))
        if known is not None:
            return Applied(known, duplicate=True)
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot play; join a seat first")
        if self.row.status == "open":
            raise ProtocolError("not_started", "the game starts when every seat is taken")
        if self.row.status == "finished" or self.game.is_over:
            raise ProtocolError("illegal_action", "the game is over")
        if self.between_deals() and self.row.seats[seat].kind == "human":
            asked = self._read_current(state_id, text)
            if not isinstance(asked, NextDeal):
                raise ProtocolError(
                    "illegal_action", "the deal has ended: only 'next' (ask for the next deal)"
                )
            return asked
        if self.game.to_move != seat:
            raise ProtocolError("not_your_turn", f"P{self.game.to_move + 1} is to move")
        action = self._read_current(state_id, text)
        try:
            self.game.verify(action)
        except IllegalActionError as exc:
            raise ProtocolError("illegal_action", str(exc), explain(exc)) from None
        return action

    def _read_current(self, state_id: int, text: str) -> Action:
        """``text`` read as an action built on the current state (else ``stale_state``,
        or ``malformed`` when it is no action)."""
        if state_id != self.event_id:
            raise ProtocolError(
                "stale_state",
                f"the action was built on state {state_id}; the state is now {self.event_id}",
            )
        try:
            return parse_action(text, self.game.pieces.material)
        except ValueError as exc:
            raise ProtocolError("malformed", f"cannot read the action: {exc}") from None

    def _append(
        self, conn: Connection | None, seat: int, action: Action, action_id: str | None
    ) -> float:
        """Store a verified action as the next event (inside :meth:`_locked`); the time
        the next turn starts."""
        now = time.time()
        if self.store is not None and conn is not None:
            event = EventRow(self.event_id + 1, seat, str(action), action_id)
            header: dict[str, Any] = {"turn_start": now}
            if self.row.ready:
                header["ready"] = []
            self.store.append_event(self.code, event, conn=conn, version=self.version + 1, **header)
        return now

    def _apply(self, seat: int, action: Action, action_id: str | None, now: float) -> int:
        """Apply an action :meth:`_append` stored: an action is acknowledged only once
        it is stored, and never applied unless stored."""
        self._wrote()
        seq = self.event_id + 1
        self.game.apply(action)
        self.row.turn_start = now
        self.row.ready = []
        self.last = (self.version, EventRow(seq, seat, str(action), action_id), now)
        if action_id is not None:
            self.action_ids[seat, action_id] = seq
        if self.game.is_over:
            # A crash before this line is repaired on load (the log says the game is over).
            self._set_status("finished")
        self._frames.clear()
        return seq

    def bot_to_move(self) -> int | None:
        """The seat to move if a bot plays it now, else None."""
        if self.row.status != "playing" or self.game.is_over:
            return None
        seat = self.game.to_move
        if self.game.phase is Phase.DEAL_END:
            # Bots never start the next deal for the humans: only once every human
            # seat has asked (or none is left) is "next" played for the seat to move.
            return None if self.awaited() else seat
        return seat if self.by_bot(seat) else None

    def bot_job(self, seat: int, bot_name: str | None = None) -> BotJob:
        """What a bot needs to choose ``seat``'s action, taken now: the seat's view, its
        legal list, the bot and a random stream of its own.  :meth:`BotJob.think` reads
        only these, so it may run in a worker thread while the table moves on."""
        name = bot_name or self.row.seats[seat].bot or STANDIN_BOT
        made = self.bots.get(seat)
        if made is None or made[0] != name:
            # Keyed by the requested name, not bot.name: "easy" makes a bot named
            # "expert-easy", and a bot remade on every action forgets its turn plan.
            made = self.bots[seat] = (name, make_bot(name))
        return BotJob(
            seat,
            self.event_id,
            made[1],
            view(self.game, seat),
            seat_legal_actions(self.game, seat),
            random.Random(self.rng.getrandbits(64)),
        )

    def play_bot(self, job: BotJob, action: Action, decided: float) -> int:
        """Store and apply the action ``job``'s bot chose; ``stale_state`` if the table
        moved on while it thought.  Return the event number."""
        self.decided = decided
        seat = job.seat
        # The bot thought without the lock: it plays only if the table did not move on.
        with self._locked() as conn:
            if self.event_id != job.expect or self.game.is_over or self.game.to_move != seat:
                raise ProtocolError("stale_state", "the table moved on while the bot thought")
            now = self._append(conn, seat, action, None)
        return self._apply(seat, action, None, now)

    def play_for(self, seat: int, bot_name: str | None = None) -> int:
        """Let a bot choose and play one action for ``seat`` (a bot seat, a stand-in,
        or an expired turn timer) at once; return the event number."""
        job = self.bot_job(seat, bot_name)
        started = time.perf_counter()
        action = job.think()
        return self.play_bot(job, action, time.perf_counter() - started)

    # ------------------------------------------------------------------ frames

    def frame(self, seat: int | None) -> StateFrame:
        """The state frame for ``seat`` (None: a spectator), built from views only;
        ``not_started`` before the deal (there is no game to show)."""
        frame = build_frame(
            self.game, seat, playing=self.row.status == "playing", deadline=self.deadline
        )
        if seat is not None and self.between_deals():
            # Every human seat may ask for the next deal, not only the seat to move.
            human = self.row.seats[seat].kind == "human"
            frame = frame.model_copy(update={"legal": ["next"] if human else None})
        return frame

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
        if self.row.status != "playing" or self.game.to_move != seat:
            return []
        return hints_for(view(self.game, seat), legal_notation(self.game, seat))

    def record(self) -> dict[str, Any]:
        """The game record (``rummykit.engine.record``) — for finished games only."""
        seats = [
            {"seat": s.seat, "name": s.name or f"P{s.seat + 1}", "kind": s.kind}
            | ({"bot": s.bot} if s.bot else {})
            for s in self.row.seats
        ]
        return record_of(self.game, seats)


def chat_line(row: ChatRow) -> ChatLine:
    """A stored chat line as the ``chat`` frame carries it."""
    return ChatLine(
        seq=row.seq, seat=row.seat, name=row.name, text=row.text, phrase=row.phrase, at=row.created
    )


class Lobby:
    """Every table of one store: creation, lookup, seats, rematches."""

    def __init__(self, store: Store | None, *, seeds: random.Random | None = None) -> None:
        self.store = store
        self.seeds = seeds or random.SystemRandom()
        """Where deal seeds come from (the operating system's randomness; tests inject)."""
        self.tables: dict[str, Table] = {}
        self.listener: Callable[[Table, bool, bool], None] | None = None
        """Given to every table (``Table.listener``; the hub sets it)."""
        if store is not None and not store.shared:
            # One process: every active table lives here.  Shared: a process loads a
            # table when it is asked for it or takes over its lease (the hub).
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
        table = Table(loaded[0], loaded[1], self.store, seeds=self.seeds)
        table.listener = self.listener
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
        rematch_of: Table | None = None,
        conn: Connection | None = None,
    ) -> tuple[Table, int | None, str | None]:
        """A new table; the creator takes the first seat that is not a bot.

        Returns the table, the creator's seat and token (None, None when every seat
        is a bot: the creator watches).  ``seed`` fixes the deal's seed (tests); by
        default it is drawn when the last seat is filled."""
        # Names are checked before anything is stored: a refused name creates nothing.
        if sit_creator:
            clean_name(name, "")
        title = clean_name(table_name, "", "table name", TABLE_NAME_LIMIT)
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
        full = all(s.kind != "open" for s in seats)
        row = TableRow(
            code=self._new_code(),
            name=title or v.title,
            variant=v.name,
            players=n,
            options=given,
            # Only a table of bots is dealt now: nobody can sit at it.
            seed=(self.seeds.getrandbits(SEED_BITS) if seed is None else seed) if full else None,
            turn_timer=turn_timer,
            status="playing" if full else "open",
            seats=seats,
            turn_start=time.time() if full else None,
        )
        if self.store is not None:
            self.store.create_table(
                row, rematch_of=None if rematch_of is None else rematch_of.code, conn=conn
            )
        table = Table(row, (), self.store, seeds=self.seeds, seed=seed)
        table.listener = self.listener
        self.tables[row.code] = table
        if full or not sit_creator:
            return table, None, None
        seat, token = table.sit(name)
        return table, seat, token

    def rematch(self, table: Table, seat: int) -> tuple[Table, int, str]:
        """The rematch of a finished ``table`` (created once): same variant, options and
        bots; ``seat`` sits at the same place."""
        if table.row.status != "finished":
            raise ProtocolError("not_finished", "a rematch starts when the game is over")
        made: Table | None = None
        with table._locked() as conn:
            # Locked: two players asking at once (on two processes) get one rematch.
            if table.row.rematch is None:
                bots = {s.seat: s.bot for s in table.row.seats if s.kind == "bot" and s.bot}
                made, _, _ = self.create(
                    variant=table.row.variant,
                    players=table.row.players,
                    options=table.row.options,
                    bots=bots,
                    name="",
                    table_name=table.row.name,
                    turn_timer=table.row.turn_timer,
                    sit_creator=False,
                    rematch_of=table,
                    conn=conn,
                )
        if made is not None:
            table._wrote()
            table.row.rematch = made.code
        assert table.row.rematch is not None
        new = self.get(table.row.rematch)
        # Each seat claims its own seat only: a second claim is ``seat_taken``.
        got, token = new.sit(table.row.seats[seat].name, seat)
        return new, got, token

    def open_tables(self, most: int = 1000) -> list[Table]:
        """Tables still waiting for players, newest first (at most ``most``)."""
        if self.store is not None and self.store.shared:
            # Other processes create tables too: the store has the list.
            listed = (self.load(r.code) for r in self.store.open_tables(most))
            return [t for t in listed if t is not None and (t.refresh() or True)]
        found = [t for t in self.tables.values() if t.row.status == "open"]
        return sorted(found, key=lambda t: -t.row.created)

    def finished(self, limit: int = 50, offset: int = 0) -> list[TableRow]:
        """Finished tables, newest first."""
        if self.store is None:
            rows = [t.row for t in self.tables.values() if t.row.status == "finished"]
            rows.sort(key=lambda r: -(r.finished or 0))
            return rows[offset : offset + limit]
        return self.store.finished_tables(limit, offset)
