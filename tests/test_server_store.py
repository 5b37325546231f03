"""Storage and recovery (server/store.py, the migrations, server/tables.py replay) on
SQLite and, when reachable, PostgreSQL (in CI it must be: the tests then fail
instead of skipping).

The recovery proof runs a real ``rummykit serve`` process, SIGKILLs it again and
again while bot games and a player's actions are under way, restarts it, and
checks that no acknowledged action is lost or applied twice and that every table
resumes and finishes.
"""

from __future__ import annotations

import dataclasses
import random
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from live_server import LiveServer
from rummykit.engine.record import replay
from rummykit.server.store import EventRow, Store, events_t, normalize_url, seats_t, tables_t
from rummykit.server.tables import Lobby, ProtocolError, hash_token
from server_support import fresh_pg_url, require_pg, sqlite_url

BACKENDS = ["sqlite", "postgresql"]


def database(backend: str, tmp_path: Path) -> str:
    if backend == "sqlite":
        return sqlite_url(tmp_path)
    return fresh_pg_url()


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database(request.param, tmp_path)


@pytest.fixture
def stores() -> Iterator[list[Store]]:
    """Stores opened by a test, closed after it (their connections with them)."""
    opened: list[Store] = []
    yield opened
    for store in opened:
        store.close()


def _events(store: Store, code: str) -> list[EventRow]:
    loaded = store.load_table(code)
    assert loaded is not None, code
    return loaded[1]


def test_sqlite_is_in_wal_mode_and_migrated(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
        version = conn.execute(sa.text("select version_num from alembic_version")).scalar()
    assert version == "0004"
    store.close()
    Store(sqlite_url(tmp_path)).close()  # migrating again is a no-op


def test_postgres_urls_use_psycopg() -> None:
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"


def test_require_pg_names_the_server() -> None:
    try:
        assert require_pg().startswith("postgresql://")
    except pytest.skip.Exception as skip:
        assert "PostgreSQL is not reachable" in str(skip)


def test_a_table_is_rebuilt_from_its_header_and_event_log(url: str, stores: list[Store]) -> None:
    store = Store(url)
    stores.append(store)
    lobby = Lobby(store)
    table, seat, token = lobby.create(
        variant="remi_ro",
        players=3,
        options={"match_deals": 1},
        bots={1: "greedy", 2: "random"},
        name="Ana",
    )
    assert seat == 0 and token is not None
    for _ in range(40):
        mover = table.bot_to_move()
        if mover is None:
            legal = table.legal_for(0)
            table.submit(0, uuid.uuid4().hex, table.event_id, legal[-1])
        else:
            table.play_for(mover)
    store.close()
    stores.append(Store(url))
    again = Lobby(stores[-1])
    rebuilt = again.get(table.code)
    assert rebuilt.event_id == table.event_id == 40
    assert [str(a) for _, a in rebuilt.game.log] == [str(a) for _, a in table.game.log]
    assert rebuilt.seat_of_token(token) == 0
    assert rebuilt.info().seats == table.info().seats
    # The same event number cannot be written twice.
    with pytest.raises(sa.exc.IntegrityError):
        stores[-1].append_event(table.code, EventRow(40, 0, "draw", None))
    # A repeated client action id is refused by the database too.
    first = next(e for e in _events(stores[-1], table.code) if e.action_id)
    with pytest.raises(sa.exc.IntegrityError):
        again.store.append_event(table.code, EventRow(41, 0, "draw", first.action_id))  # type: ignore[union-attr]


def test_with_many_processes_an_action_is_stored_on_the_version_it_was_checked_on(
    stores: list[Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes' copies of one table on one PostgreSQL schema (no Redis here, so
    neither hears of the other's writes): a copy that is current stores an action in one
    statement, without taking the table's lock; a copy that is behind refuses nothing
    on its stale memory, but takes the lock, catches up and decides again."""
    url = fresh_pg_url()
    one, two = Store(url, shared=True), Store(url, shared=True)
    stores += [one, two]
    table, seat, _ = Lobby(one).create(
        variant="remi_ro", players=2, options={"match_deals": 1}, bots={1: "greedy"}, name="Ana"
    )
    assert seat is not None
    behind = Lobby(two).get(table.code)
    while table.bot_to_move() is not None:
        table.play_for(1)

    def no_lock(code: str) -> None:
        raise AssertionError("a current copy needs no lock")

    monkeypatch.setattr(one, "locked", no_lock)
    before = table.version
    table.submit(seat, "a1", table.event_id, table.legal_for(seat)[-1])
    monkeypatch.undo()
    assert table.version == before + 1
    stored = {e.seq: e for e in _events(one, table.code)}
    assert stored[table.event_id].action_id == "a1"
    # The other copy is behind; the action is built on the state the client was sent.
    assert behind.event_id < table.event_id
    while table.bot_to_move() is not None:
        table.play_for(1)
    behind.submit(seat, "a2", table.event_id, table.legal_for(seat)[-1])
    assert behind.event_id == table.event_id + 1
    assert [str(a) for _, a in behind.game.log[:-1]] == [str(a) for _, a in table.game.log]
    # The first copy is now behind: its direct append on its old version writes nothing.
    event = EventRow(table.event_id + 1, seat, "draw", "a3")
    assert not one.append_event_if_current(
        table.code, event, expected=table.version, turn_start=0.0
    )
    assert max(e.seq for e in _events(one, table.code)) == behind.event_id


def test_finished_games_are_listed_and_export_records(url: str, stores: list[Store]) -> None:
    store = Store(url)
    stores.append(store)
    lobby = Lobby(store)
    table, _, _ = lobby.create(
        variant="basic",
        players=2,
        options={"match_mode": "deals", "match_deals": 1, "max_stock_recycles": 1},
        bots={0: "greedy", 1: "greedy"},
        name="",
    )
    while table.status != "finished":
        table.play_for(table.bot_to_move())  # type: ignore[arg-type]
    stores.append(Store(url))
    later = Lobby(stores[-1])
    assert [r.code for r in later.finished()] == [table.code]
    assert replay(later.get(table.code).record()).game.is_over


# ---------------------------------------------------------------- SIGKILL recovery

KILLS = 4


def _act(server: LiveServer, code: str, token: str, acked: dict[str, tuple[int, str]]) -> None:
    """One action of the human seat if it is to move; a crash mid-request is retried
    with the same action id after the restart (so it may already be applied)."""
    state = server.get(f"/api/tables/{code}/state", token)
    if not state.get("legal"):
        return
    pre = state["view"]["phase"] == "preplay"
    action = state["legal"][-1] if pre else state["legal"][0]
    action_id = uuid.uuid4().hex
    for _ in range(50):
        try:
            r = server.post(
                f"/api/tables/{code}/action",
                token=token,
                action_id=action_id,
                state_id=state["state_id"],
                action=action,
            )
        except httpx.HTTPError:
            time.sleep(0.1)  # the server is down: the outcome is unknown, ask again
            continue
        if r.status_code == 200:
            acked[action_id] = (r.json()["event_id"], action)
        return


@pytest.mark.heavy
@pytest.mark.parametrize("backend", BACKENDS)
def test_sigkill_loses_no_acknowledged_action_and_every_table_resumes(
    backend: str, tmp_path: Path
) -> None:
    url = database(backend, tmp_path)
    server = LiveServer(url, tmp_path / "server.log", bot_delay=0.01, grace=60)
    rng = random.Random(5)
    try:
        server.start()
        codes = []
        for players in (2, 3, 4):
            made = server.post(
                "/api/tables",
                variant="remi_ro",
                players=players,
                options={"match_deals": 1},
                bots=[{"seat": s, "bot": "greedy"} for s in range(players)],
            ).json()
            codes.append(made["code"])
        human = server.post(
            "/api/tables",
            variant="remi_ro",
            players=2,
            options={"match_deals": 1},
            bots=[{"seat": 1, "bot": "greedy"}],
            name="Ana",
        ).json()
        acked: dict[str, tuple[int, str]] = {}
        for _ in range(KILLS):
            end = time.monotonic() + rng.uniform(0.3, 0.8)
            while time.monotonic() < end:
                _act(server, human["code"], human["token"], acked)
            server.kill()
            server.start()
        # Everything resumes: the bot tables finish, and so does the player's game.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            statuses = [server.get(f"/api/tables/{c}")["status"] for c in codes]
            _act(server, human["code"], human["token"], acked)
            if all(s == "finished" for s in statuses):
                break
        assert all(server.get(f"/api/tables/{c}")["status"] == "finished" for c in codes)
        for code in codes:
            record = server.get(f"/api/tables/{code}/record")
            assert replay(record).game.is_over
        server.stop()
        store = Store(url)
        loaded = store.load_table(human["code"])
        assert loaded is not None
        events = loaded[1]
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        by_id = {e.action_id: e for e in events if e.action_id is not None}
        assert acked, "the player's actions were acknowledged"
        for action_id, (event_id, action) in acked.items():
            stored = by_id.get(action_id)
            assert stored is not None, f"acknowledged action {action} was lost"
            assert (stored.seq, stored.action) == (event_id, action)
        with store.engine.connect() as conn:
            ids = conn.execute(
                sa.select(events_t.c.action_id).where(
                    events_t.c.code == human["code"], events_t.c.action_id.is_not(None)
                )
            ).all()
        assert len(ids) == len({i for (i,) in ids}), "an action was applied twice"
        store.close()
    finally:
        server.stop()


# ---------------------------------------------------------------- issue 12 §4: seats


def _fail_updates_of(store: Store, table: str) -> None:
    """A real database error at the next UPDATE of ``table`` (a trigger that raises)."""
    with store.engine.begin() as conn:
        if store.dialect == "sqlite":
            conn.exec_driver_sql(
                f"CREATE TRIGGER fail_{table} BEFORE UPDATE ON {table} "
                "BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
            )
        else:
            conn.exec_driver_sql(
                "CREATE OR REPLACE FUNCTION rk_fail() RETURNS trigger AS $$ "
                "BEGIN RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql"
            )
            conn.exec_driver_sql(
                f"CREATE TRIGGER fail_{table} BEFORE UPDATE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION rk_fail()"
            )


def _heal(store: Store, table: str) -> None:
    with store.engine.begin() as conn:
        suffix = "" if store.dialect == "sqlite" else f" ON {table}"
        conn.exec_driver_sql(f"DROP TRIGGER fail_{table}{suffix}")


def _seats(store: Store, code: str) -> list[tuple[str, str | None]]:
    loaded = store.load_table(code)
    assert loaded is not None
    return [(s.kind, s.token_hash) for s in loaded[0].seats]


def test_a_process_alone_on_its_store_stores_an_action_without_the_lock(
    url: str, stores: list[Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One process on its store (not shared): an action is checked against memory and
    stored with the version in one transaction, without the table's lock; a failed
    write refuses the action and changes nothing, in memory or stored."""
    store = Store(url)
    stores.append(store)
    table, seat, _ = Lobby(store).create(
        variant="remi_ro", players=2, options={"match_deals": 1}, bots={1: "greedy"}, name="Ana"
    )
    assert table.status == "playing"

    def no_lock(code: str) -> None:
        raise AssertionError("a process alone on its store needs no lock")

    def to_move() -> int:
        while (bot := table.bot_to_move()) is not None:
            table.play_for(bot)
        assert table.game.to_move == seat
        return seat

    mover = to_move()
    monkeypatch.setattr(store, "locked", no_lock)
    version, event_id = table.version, table.event_id
    table.submit(mover, "alone-1", event_id, table.legal_for(mover)[0])
    monkeypatch.undo()
    assert (table.version, table.event_id) == (version + 1, event_id + 1)
    loaded = store.load_table(table.code)
    assert loaded is not None and loaded[0].version == table.version
    assert loaded[1][-1].action_id == "alone-1" and loaded[1][-1].seq == table.event_id
    # A database failure (a trigger on the version's update): refused, nothing changed.
    mover = to_move()
    version, event_id, log = table.version, table.event_id, list(table.game.log)
    _fail_updates_of(store, "rk_tables")
    with pytest.raises(sa.exc.DBAPIError, match="injected failure"):
        table.submit(mover, "alone-2", event_id, table.legal_for(mover)[0])
    assert (table.version, table.event_id, table.game.log) == (version, event_id, log)
    loaded = store.load_table(table.code)
    assert loaded is not None and loaded[0].version == version
    assert [e.seq for e in loaded[1]][-1] == event_id
    _heal(store, "rk_tables")
    table.submit(mover, "alone-2", event_id, table.legal_for(mover)[0])
    assert table.event_id == event_id + 1


@pytest.mark.parametrize("failing", ["rk_seats", "rk_tables"])
def test_a_failed_write_during_sit_changes_nothing(
    url: str, stores: list[Store], failing: str
) -> None:
    # Issue 12 §4: sit() changed the seat in memory, then wrote it, then wrote the status
    # in a second transaction: a failure left a seat nobody holds, or a full table that
    # never started.  Now one transaction, and memory only after it committed.
    store = Store(url)
    stores.append(store)
    table, _, _ = Lobby(store).create(variant="remi_ro", players=2, options={}, bots={}, name="Ana")
    before = [dataclasses.replace(s) for s in table.row.seats]
    stored = _seats(store, table.code)
    _fail_updates_of(store, failing)
    with pytest.raises(sa.exc.DBAPIError, match="injected failure"):
        table.sit("Ion")
    assert table.row.seats == before and table.status == "open" and not table.dealt
    assert table.row.seed is None and _seats(store, table.code) == stored
    loaded = store.load_table(table.code)
    assert loaded is not None and loaded[0].status == "open" and loaded[0].seed is None
    _heal(store, failing)
    seat, token = table.sit("Ion")
    assert seat == 1 and table.seat_of_token(token) == 1 and table.dealt
    again = Lobby(Store(url))
    stores.append(again.store)
    reloaded = again.get(table.code)
    assert reloaded.status == "playing" and reloaded.row.seed == table.row.seed
    assert reloaded.frame(1).view["rack"] == table.frame(1).view["rack"]


def test_a_failed_write_during_leave_changes_nothing(url: str, stores: list[Store]) -> None:
    store = Store(url)
    stores.append(store)
    table, _, token = Lobby(store).create(
        variant="remi_ro", players=3, options={}, bots={}, name="Ana"
    )
    _fail_updates_of(store, "rk_seats")
    with pytest.raises(sa.exc.DBAPIError):
        table.leave(0)
    assert table.seat_of_token(token) == 0 and table.row.seats[0].name == "Ana"


def test_a_nul_in_a_name_is_refused_before_the_store(url: str, stores: list[Store]) -> None:
    # On PostgreSQL the NUL made the write fail after memory had changed: a seat nobody
    # held, the table locked until a restart.
    store = Store(url)
    stores.append(store)
    table, _, _ = Lobby(store).create(variant="remi_ro", players=2, options={}, bots={}, name="Ana")
    with pytest.raises(ProtocolError, match="bad_name"):
        table.sit("Ion\x00")
    assert table.row.seats[1].kind == "open" and _seats(store, table.code)[1] == ("open", None)
    assert table.sit("Ion")[0] == 1 and table.status == "playing"


def test_loading_repairs_a_half_written_table(url: str, stores: list[Store]) -> None:
    store = Store(url)
    stores.append(store)
    lobby = Lobby(store)
    ghost, _, _ = lobby.create(variant="remi_ro", players=3, options={}, bots={}, name="Ana")
    stuck, _, _ = lobby.create(variant="remi_ro", players=2, options={}, bots={}, name="Ana")
    with store.engine.begin() as conn:
        # A seat nobody holds (the PostgreSQL NUL failure), and a seed an older server
        # drew at creation for a table still waiting for players.
        conn.execute(
            seats_t.update()
            .where(seats_t.c.code == ghost.code, seats_t.c.seat == 1)
            .values(kind="human", name="Ghost", token_hash=None)
        )
        conn.execute(tables_t.update().where(tables_t.c.code == ghost.code).values(seed=42))
        # Every seat taken but the status write lost (two transactions, a crash between).
        conn.execute(
            seats_t.update()
            .where(seats_t.c.code == stuck.code, seats_t.c.seat == 1)
            .values(kind="human", name="Ion", token_hash=hash_token("ion"))
        )
    stores.append(Store(url))
    later = Lobby(stores[-1])
    repaired = later.get(ghost.code)
    assert [s.kind for s in repaired.row.seats] == ["human", "open", "open"]
    assert repaired.status == "open" and repaired.row.seed is None and not repaired.dealt
    started = later.get(stuck.code)
    assert started.status == "playing" and started.dealt and started.row.seed is not None
    assert started.seat_of_token("ion") == 1 and started.frame(1).view["rack"]
    # The repairs were stored: a third load finds nothing to change.
    for code, status in ((ghost.code, "open"), (stuck.code, "playing")):
        loaded = stores[-1].load_table(code)
        assert loaded is not None and loaded[0].status == status
    assert _seats(stores[-1], ghost.code)[1] == ("open", None)
    assert stores[-1].load_table(stuck.code)[0].seed == started.row.seed  # type: ignore[index]
    # A consistent table is loaded without a write (any write would now fail).
    _fail_updates_of(stores[-1], "rk_seats")
    _fail_updates_of(stores[-1], "rk_tables")
    stores.append(Store(url))
    assert Lobby(stores[-1]).get(ghost.code).row.seats[0].name == "Ana"


def test_migration_0002_drops_early_seeds_and_scopes_action_ids_by_seat(
    url: str, stores: list[Store]
) -> None:
    store = Store(url)
    stores.append(store)
    store.downgrade("0001")
    with store.engine.begin() as conn:
        for code, status in (("OPEN01", "open"), ("PLAY01", "playing")):
            conn.execute(
                sa.text(
                    "insert into rk_tables (code, name, variant, players, options, seed, "
                    "turn_timer, status, rematch, created, finished) values "
                    "(:code, 'T', 'remi_ro', 2, '{}', 42, null, :status, null, 0, null)"
                ),
                {"code": code, "status": status},
            )
            for seat in (0, 1):
                conn.execute(
                    sa.text(
                        "insert into rk_seats (code, seat, name, kind, bot, token_hash) "
                        "values (:code, :seat, '', 'bot', 'greedy', null)"
                    ),
                    {"code": code, "seat": seat},
                )
    store.append_event("PLAY01", EventRow(1, 0, "ready", "same-id"))
    with pytest.raises(sa.exc.IntegrityError):  # 0001: unique per table
        store.append_event("PLAY01", EventRow(2, 1, "ready", "same-id"))
    store.migrate()
    assert store.load_table("OPEN01")[0].seed is None  # type: ignore[index]
    assert store.load_table("PLAY01")[0].seed == 42  # type: ignore[index]
    store.append_event("PLAY01", EventRow(2, 1, "ready", "same-id"))  # another seat's id
    with pytest.raises(sa.exc.IntegrityError):
        store.append_event("PLAY01", EventRow(3, 1, "ready", "same-id"))
    assert [e.seq for e in store.load_table("PLAY01")[1]] == [1, 2]  # type: ignore[index]


def test_the_pause_between_deals_and_the_chat_are_shared_through_the_store(
    url: str, stores: list[Store]
) -> None:
    # Issue 13 §4, §5: two processes on one database (each its own Store and Lobby):
    # "next" asked on one is seen (and awaited) on the other, chat lines are numbered
    # once and read back by both.
    stores.extend([Store(url, shared=True), Store(url, shared=True)])
    here, there = Lobby(stores[0]), Lobby(stores[1])
    table, _, _ = here.create(
        variant="romme", players=2, options={"match_deals": 2}, bots={}, name="Ana", seed=6
    )
    table.sit("Bo")
    for _ in range(3_000):
        if table.between_deals():
            break
        table.play_for(table.game.to_move)
    other = there.get(table.code)
    assert other.between_deals() and other.awaited() == [0, 1]
    assert table.submit(0, "n0", table.event_id, "next").header
    other.refresh()
    assert other.info().ready == [0] and other.awaited() == [1]
    assert other.bot_to_move() is None
    other.submit(1, "n1", other.event_id, "next")
    table.refresh()
    assert table.awaited() == [] and table.bot_to_move() == table.game.to_move
    table.play_for(table.game.to_move)
    other.refresh()
    assert not other.between_deals() and other.info().ready == []
    assert stores[0].load_table(table.code)[0].ready == []  # type: ignore[index]
    first = table.say(0, "hello <b>", None)
    second = other.say(1, None, "thanks")
    assert (first.seq, second.seq) == (1, 2)  # numbered once across processes
    assert [(r.seq, r.seat, r.text, r.phrase) for r in stores[0].chat(table.code)] == [
        (1, 0, "hello <b>", None),
        (2, 1, "", "thanks"),
    ]
