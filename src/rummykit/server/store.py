"""Persistence: each table is a header (variant, options, seed, seats) plus an
append-only event log; a table's state is rebuilt by replaying its events.

SQLAlchemy Core on SQLite (WAL, the default) or PostgreSQL; the schema is
created and upgraded by the Alembic migrations shipped in this package.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

__all__ = [
    "ChatRow",
    "EventRow",
    "SeatRow",
    "Store",
    "TableRow",
    "default_database_url",
    "describe_failure",
    "metadata",
    "normalize_url",
]

metadata = sa.MetaData()

tables_t = sa.Table(
    "rk_tables",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("variant", sa.String(40), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("turn_timer", sa.Float, nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("rematch", sa.String(16), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    # Grows by one in every transaction that changes the table (migration 0003).
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),
    sa.Column("turn_start", sa.Float, nullable=True),
    # Human seats that asked for the next deal while a deal has ended (migration 0004).
    sa.Column("ready", sa.JSON, nullable=True),
)

seats_t = sa.Table(
    "rk_seats",
    metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rk_tables.code"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
)

events_t = sa.Table(
    "rk_events",
    metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rk_tables.code"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("action_id", sa.String(64), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.UniqueConstraint("code", "seat", "action_id", name="uq_rk_events_seat_action_id"),
)
_INSERT_EVENT = events_t.insert()
_SET_VERSION = (
    tables_t.update()
    .where(tables_t.c.code == sa.bindparam("k"))
    .values(version=sa.bindparam("v"), turn_start=sa.bindparam("ts"))
)
# The next event and the table's version in one statement (PostgreSQL): the UPDATE locks
# the row and matches only if no other process wrote since; the INSERT then takes the
# one row it returned (or none).
_APPEND_IF_CURRENT = sa.text(
    "WITH up AS (UPDATE rk_tables SET version = :expected + 1, turn_start = :turn_start "
    "WHERE code = :code AND version = :expected RETURNING code) "
    "INSERT INTO rk_events (code, seq, seat, action, action_id, created) "
    "SELECT code, :seq, :seat, :action, :action_id, :created FROM up"
)

# A single writer's next event and version on SQLite, handed straight to the driver: for
# two small statements SQLAlchemy's per-statement work cost more than SQLite's commit.
_SQLITE_INSERT_EVENT = (
    "INSERT INTO rk_events (code, seq, seat, action, action_id, created) VALUES (?, ?, ?, ?, ?, ?)"
)
_SQLITE_SET_VERSION = "UPDATE rk_tables SET version = ?, turn_start = ? WHERE code = ?"

chat_t = sa.Table(
    "rk_chat",
    metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rk_tables.code"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("phrase", sa.String(32), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
)


@dataclass(slots=True)
class SeatRow:
    """A seat of the header: ``kind`` is open, human or bot; tokens are stored hashed."""

    seat: int
    name: str = ""
    kind: str = "open"
    bot: str | None = None
    token_hash: str | None = None


@dataclass(slots=True)
class TableRow:
    """A table's header.  ``seed`` is None until the deal: it is drawn when the last
    seat is filled."""

    code: str
    name: str
    variant: str
    players: int
    options: dict[str, Any]
    seed: int | None
    turn_timer: float | None
    status: str
    seats: list[SeatRow]
    created: float = field(default_factory=time.time)
    rematch: str | None = None
    finished: float | None = None
    version: int = 0
    """How many transactions changed the table (every process sees the same number)."""
    turn_start: float | None = None
    """When the seat to move got its turn (the turn timer counts from it)."""
    ready: list[int] = field(default_factory=list)
    """Human seats that asked for the next deal (a deal has ended; empty otherwise)."""


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One chat line of a table: its number (1-based), the seat and name that wrote
    it, and either free ``text`` or a quick ``phrase`` key (each client shows the
    phrase in its own language)."""

    seq: int
    seat: int
    name: str
    text: str
    phrase: str | None
    created: float


@dataclass(frozen=True, slots=True)
class EventRow:
    """One applied action: its number (1-based), seat, notation and client id."""

    seq: int
    seat: int
    action: str
    action_id: str | None


def default_database_url() -> str:
    """An SQLite file in the user's data directory (created if missing)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("rummykit", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'rummykit.db'}"


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` use the psycopg (3) driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL: readers never block the writer; NORMAL sync keeps every committed
    # transaction across a process crash (only a power loss may drop the last ones).
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Store:
    """The tables of one database.  Methods commit before they return."""

    def __init__(self, url: str | None = None, *, shared: bool = False) -> None:
        self.url = normalize_url(url or default_database_url())
        self.shared = shared
        """Whether other processes write to this database too: then every change to a
        table locks its row first (``SELECT ... FOR UPDATE``) and reads what the others
        wrote since (:meth:`locked`)."""
        self.engine: Engine = sa.create_engine(self.url, pool_pre_ping=shared)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self.migrate()

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return str(self.engine.dialect.name)

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema up to ``revision`` (Alembic ``upgrade``; default the newest)."""
        self._alembic("upgrade", revision)

    def downgrade(self, revision: str) -> None:
        """Take the schema back to ``revision`` (Alembic ``downgrade``)."""
        self._alembic("downgrade", revision)

    def _alembic(self, direction: str, revision: str) -> None:
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        sqlite = self.dialect == "sqlite"
        with self.engine.connect() as conn:
            if sqlite:
                # SQLite changes a column by rebuilding its table (copy, drop, rename):
                # its documented procedure runs with foreign keys off, checked after.
                # The pragma is ignored inside a transaction, hence before begin().
                conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
                conn.commit()
            try:
                with conn.begin():
                    if self.dialect == "postgresql":
                        # Processes starting together migrate one after the other.
                        conn.exec_driver_sql(
                            "select pg_advisory_xact_lock("
                            "hashtext('rummykit-migrate:' || current_schema()))"
                        )
                    config.attributes["connection"] = conn
                    getattr(command, direction)(config, revision)
                    if sqlite:
                        broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
                        if broken:
                            raise RuntimeError(f"the migration broke foreign keys: {broken}")
            finally:
                if sqlite:
                    conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                    conn.commit()

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    # ------------------------------------------------------------------ writes

    @contextmanager
    def locked(self, code: str) -> Iterator[tuple[Connection, int | None]]:
        """One transaction on table ``code``: with :attr:`shared`, its row is locked
        first (``SELECT ... FOR UPDATE``: every other process's change to the table
        waits until this one commits) and its stored version is yielded; else the
        version is None (this process is the only writer, its memory is the truth)."""
        with self.engine.begin() as conn:
            version = None
            if self.shared:
                found = conn.execute(
                    sa.select(tables_t.c.version).where(tables_t.c.code == code).with_for_update()
                ).first()
                version = -1 if found is None else int(found.version)
            yield conn, version

    def _conn(self, conn: Connection | None) -> Any:
        """``conn``'s transaction, or a new one."""
        return self.engine.begin() if conn is None else nullcontext(conn)

    def create_table(
        self, row: TableRow, *, rematch_of: str | None = None, conn: Connection | None = None
    ) -> None:
        """Store a new table header with its seats (and, in the same transaction, its
        code as the rematch of the table ``rematch_of``)."""
        with self._conn(conn) as conn:
            if rematch_of is not None:
                conn.execute(
                    tables_t.update()
                    .where(tables_t.c.code == rematch_of)
                    .values(rematch=row.code, version=tables_t.c.version + 1)
                )
            conn.execute(
                tables_t.insert().values(
                    code=row.code,
                    name=row.name,
                    variant=row.variant,
                    players=row.players,
                    options=row.options,
                    seed=row.seed,
                    turn_timer=row.turn_timer,
                    status=row.status,
                    rematch=row.rematch,
                    created=row.created,
                    finished=row.finished,
                    version=row.version,
                    turn_start=row.turn_start,
                    ready=list(row.ready),
                )
            )
            conn.execute(
                seats_t.insert(),
                [
                    {
                        "code": row.code,
                        "seat": s.seat,
                        "name": s.name,
                        "kind": s.kind,
                        "bot": s.bot,
                        "token_hash": s.token_hash,
                    }
                    for s in row.seats
                ],
            )

    def update_seats(
        self,
        code: str,
        seats: Sequence[SeatRow],
        *,
        conn: Connection | None = None,
        **header: Any,
    ) -> None:
        """Store seats' new occupants and header fields (status, seed, version ...) in
        one transaction: all of it is stored, or (an exception) none of it."""
        with self._conn(conn) as conn:
            for seat in seats:
                done = conn.execute(
                    seats_t.update()
                    .where(seats_t.c.code == code, seats_t.c.seat == seat.seat)
                    .values(
                        name=seat.name, kind=seat.kind, bot=seat.bot, token_hash=seat.token_hash
                    )
                )
                if done.rowcount != 1:
                    raise RuntimeError(f"table {code} has no stored seat {seat.seat}")
            if header:
                conn.execute(tables_t.update().where(tables_t.c.code == code).values(**header))

    def update_table(self, code: str, *, conn: Connection | None = None, **values: Any) -> None:
        """Change header fields (status, rematch, finished, version)."""
        with self._conn(conn) as conn:
            conn.execute(tables_t.update().where(tables_t.c.code == code).values(**values))

    def append_event(
        self, code: str, event: EventRow, *, conn: Connection | None = None, **header: Any
    ) -> None:
        """Append one event (and change header fields, e.g. the version, in the same
        transaction).  The (table, seq) key makes a second writer of the same event
        number fail rather than fork the log."""
        row = {
            "code": code,
            "seq": event.seq,
            "seat": event.seat,
            "action": event.action,
            "action_id": event.action_id,
            "created": time.time(),
        }
        with self._conn(conn) as conn:
            # Statements built once: this runs for every action of every table.
            conn.execute(_INSERT_EVENT, row)
            if header.keys() == {"version", "turn_start"}:
                conn.execute(
                    _SET_VERSION, {"k": code, "v": header["version"], "ts": header["turn_start"]}
                )
            elif header:
                conn.execute(tables_t.update().where(tables_t.c.code == code).values(**header))

    def append_event_alone(
        self, code: str, event: EventRow, *, version: int, turn_start: float
    ) -> None:
        """Append ``event`` and set the table's version and turn start in one
        transaction, for a store only this process writes (not :attr:`shared`: its
        memory is the truth, so no row lock or version check is needed).  On SQLite the
        statements go to the driver directly; a failure raises SQLAlchemy's error for
        it and stores nothing."""
        if self.shared:
            raise RuntimeError("a shared store appends under the table's lock")
        if self.dialect != "sqlite":
            self.append_event(code, event, version=version, turn_start=turn_start)
            return
        raw = self.engine.raw_connection()
        try:
            cursor = raw.cursor()
            row = (code, event.seq, event.seat, event.action, event.action_id, time.time())
            try:
                cursor.execute("BEGIN")
                cursor.execute(_SQLITE_INSERT_EVENT, row)
                cursor.execute(_SQLITE_SET_VERSION, (version, turn_start, code))
                raw.commit()
            except sqlite3.Error as exc:
                raw.rollback()
                raise sa.exc.DBAPIError.instance(
                    _SQLITE_INSERT_EVENT, row, exc, sqlite3.Error
                ) from exc
            finally:
                cursor.close()
        finally:
            raw.close()  # back to the pool

    def append_event_if_current(
        self, code: str, event: EventRow, *, expected: int, turn_start: float
    ) -> bool:
        """Append ``event`` and move the table's version from ``expected`` to the next in
        one statement that is its own transaction (one round trip), if the stored version
        is still ``expected``; False, writing nothing, if another process changed the
        table first.  PostgreSQL only (:attr:`shared` stores)."""
        params = {
            "code": code,
            "expected": expected,
            "turn_start": turn_start,
            "seq": event.seq,
            "seat": event.seat,
            "action": event.action,
            "action_id": event.action_id,
            "created": time.time(),
        }
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            return conn.execute(_APPEND_IF_CURRENT, params).rowcount == 1

    # ------------------------------------------------------------------ reads

    def _row(self, conn: Connection, table: sa.Row[Any]) -> TableRow:
        seats = conn.execute(
            seats_t.select().where(seats_t.c.code == table.code).order_by(seats_t.c.seat)
        ).all()
        return TableRow(
            code=table.code,
            name=table.name,
            variant=table.variant,
            players=table.players,
            options=dict(table.options),
            seed=None if table.seed is None else int(table.seed),
            turn_timer=table.turn_timer,
            status=table.status,
            seats=[SeatRow(s.seat, s.name, s.kind, s.bot, s.token_hash) for s in seats],
            created=table.created,
            rematch=table.rematch,
            finished=table.finished,
            version=int(table.version),
            turn_start=table.turn_start,
            ready=sorted(int(s) for s in table.ready or ()),
        )

    def load_table(self, code: str) -> tuple[TableRow, list[EventRow]] | None:
        """A table's header and its whole event log, or None."""
        with self.engine.connect() as conn:
            table = conn.execute(tables_t.select().where(tables_t.c.code == code)).first()
            if table is None:
                return None
            return self._row(conn, table), self._events(conn, code)

    def load_since(
        self, code: str, after: int, conn: Connection | None = None
    ) -> tuple[TableRow, list[EventRow]] | None:
        """A table's header and the events after number ``after`` (in ``conn``'s
        transaction if given: a locked table is read inside its lock)."""
        if conn is None:
            with self.engine.connect() as own:
                return self.load_since(code, after, own)
        table = conn.execute(tables_t.select().where(tables_t.c.code == code)).first()
        if table is None:
            return None
        return self._row(conn, table), self._events(conn, code, after)

    def versions(self, codes: Sequence[str]) -> dict[str, int]:
        """The stored version of each of ``codes`` (one query)."""
        if not codes:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tables_t.c.code, tables_t.c.version).where(
                    tables_t.c.code.in_(list(codes))
                )
            ).all()
        return {r.code: int(r.version) for r in rows}

    def open_tables(self, limit: int = 50, offset: int = 0) -> list[TableRow]:
        """Tables waiting for players, newest first (every process's)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                tables_t.select()
                .where(tables_t.c.status == "open")
                .order_by(tables_t.c.created.desc(), tables_t.c.code)
                .limit(limit)
                .offset(offset)
            ).all()
            return [self._row(conn, r) for r in rows]

    def _events(self, conn: Connection, code: str, after: int = 0) -> list[EventRow]:
        rows = conn.execute(
            events_t.select()
            .where(events_t.c.code == code, events_t.c.seq > after)
            .order_by(events_t.c.seq)
        ).all()
        return [EventRow(r.seq, r.seat, r.action, r.action_id) for r in rows]

    def active_codes(self) -> list[str]:
        """Codes of the tables open or playing (to load on start-up; not those finished
        or closed unused, status ``expired``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tables_t.c.code).where(tables_t.c.status.in_(("open", "playing")))
            ).all()
        return [r.code for r in rows]

    def finished_tables(self, limit: int = 50, offset: int = 0) -> list[TableRow]:
        """Finished tables, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                tables_t.select()
                .where(tables_t.c.status == "finished")
                .order_by(tables_t.c.finished.desc(), tables_t.c.code)
                .limit(limit)
                .offset(offset)
            ).all()
            return [self._row(conn, r) for r in rows]

    def event_count(self, code: str) -> int:
        """How many events the table has stored."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    sa.select(sa.func.count()).select_from(events_t).where(events_t.c.code == code)
                ).scalar_one()
            )

    def add_chat(self, code: str, line: ChatRow, *, conn: Connection | None = None) -> None:
        """Store one chat line (the (table, seq) key refuses a second line numbered
        the same: the caller holds the table's lock)."""
        with self._conn(conn) as conn:
            conn.execute(
                chat_t.insert().values(
                    code=code,
                    seq=line.seq,
                    seat=line.seat,
                    name=line.name,
                    text=line.text,
                    phrase=line.phrase,
                    created=line.created,
                )
            )

    def chat(
        self, code: str, after: int = 0, limit: int = 50, conn: Connection | None = None
    ) -> list[ChatRow]:
        """The chat lines numbered after ``after`` (the latest ``limit`` of them), oldest
        first."""
        if conn is None:
            with self.engine.connect() as own:
                return self.chat(code, after, limit, own)
        rows = conn.execute(
            chat_t.select()
            .where(chat_t.c.code == code, chat_t.c.seq > after)
            .order_by(chat_t.c.seq.desc())
            .limit(limit)
        ).all()
        return [ChatRow(r.seq, r.seat, r.name, r.text, r.phrase, r.created) for r in reversed(rows)]

    def codes_taken(self, codes: Sequence[str]) -> set[str]:
        """Which of ``codes`` are already used."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tables_t.c.code).where(tables_t.c.code.in_(list(codes)))
            ).all()
        return {r.code for r in rows}


def describe_failure(exc: BaseException) -> str:
    """A store failure in one line for the log: the driver's message without the
    statement and its parameters (which may hold names and token hashes)."""
    orig = getattr(exc, "orig", None)
    reason = str(orig if orig is not None else exc).splitlines()
    return f"{type(exc).__name__}: {reason[0] if reason else ''}"
