"""Storage and recovery (server/store.py, the migrations, server/tables.py replay) on
SQLite and, when reachable, PostgreSQL (in CI it must be: the tests then fail
instead of skipping).

The recovery proof runs a real ``rummykit serve`` process, SIGKILLs it again and
again while bot games and a player's actions are under way, restarts it, and
checks that no acknowledged action is lost or applied twice and that every table
resumes and finishes.
"""

from __future__ import annotations

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
from rummykit.server.store import EventRow, Store, events_t, normalize_url
from rummykit.server.tables import Lobby
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


def test_sqlite_is_in_wal_mode_and_migrated(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
        version = conn.execute(sa.text("select version_num from alembic_version")).scalar()
    assert version == "0001"
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
        again.store.append_event(table.code, EventRow(40, 0, "draw", None))  # type: ignore[union-attr]
    # A repeated client action id is refused by the database too.
    first = next(e for e in again.store.load_table(table.code)[1] if e.action_id)  # type: ignore[union-attr]
    with pytest.raises(sa.exc.IntegrityError):
        again.store.append_event(table.code, EventRow(41, 0, "draw", first.action_id))  # type: ignore[union-attr]


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
