"""Helpers for the server tests: an app on a real database, bot-played tables."""

from __future__ import annotations

import json
import os
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")

with warnings.catch_warnings():
    # Starlette's test client warns about its httpx transport; the tests use it as is.
    warnings.filterwarnings("ignore", message=".*httpx.*")
    from fastapi.testclient import TestClient

import sqlalchemy as sa

from rummykit.server.app import create_app
from rummykit.server.hub import HubSettings
from rummykit.server.quotas import ServerLimits

PG_URL = os.environ.get("RUMMYKIT_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def pg_reachable() -> bool:
    """Whether the test PostgreSQL server answers."""
    from rummykit.server.store import normalize_url

    try:
        engine = sa.create_engine(normalize_url(PG_URL), connect_args={"connect_timeout": 2})
        with engine.connect() as conn:
            conn.execute(sa.text("select 1"))
        engine.dispose()
    except Exception:
        return False
    return True


def require_pg() -> str:
    """The PostgreSQL URL, or skip (fail in CI, where a server must be there)."""
    if pg_reachable():
        return PG_URL
    reason = f"PostgreSQL is not reachable at {PG_URL} (set RUMMYKIT_TEST_PG)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run the PostgreSQL tests: {reason}")
    pytest.skip(reason)


REDIS_URL = os.environ.get("RUMMYKIT_TEST_REDIS", "redis://127.0.0.1:6379/0")


def require_redis() -> str:
    """The Redis URL, or skip (fail in CI, where a server must be there)."""
    import redis

    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        client.ping()
        client.close()
    except (redis.RedisError, OSError):
        reason = f"Redis is not reachable at {REDIS_URL} (set RUMMYKIT_TEST_REDIS)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the Redis tests: {reason}")
        pytest.skip(reason)
    return REDIS_URL


def fresh_pg_url() -> str:
    """A new empty schema on the test PostgreSQL server, as a URL that uses it."""
    url = require_pg()
    from rummykit.server.store import normalize_url

    schema = "rk_" + uuid.uuid4().hex[:12]
    engine = sa.create_engine(normalize_url(url))
    with engine.begin() as conn:
        conn.execute(sa.text(f"create schema {schema}"))
    engine.dispose()
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}"


def sqlite_url(tmp: Any) -> str:
    """An SQLite file in ``tmp``."""
    return f"sqlite:///{tmp}/rk.db"


FAST = HubSettings(bot_delay=0.0, grace=0.2, rate=1000.0, burst=1000.0)
NO_LIMITS = ServerLimits.off()
"""The tests of other things create many tables from one address: no rate limits
(tests/test_server_quotas.py proves them)."""


def client(url: str, settings: HubSettings = FAST, limits: ServerLimits = NO_LIMITS) -> TestClient:
    """A test client of a new app on ``url`` (use it as a context manager)."""
    return TestClient(create_app(url, settings=settings, limits=limits))


def bearer(token: str | None) -> dict[str, str]:
    """The header that carries a seat token over HTTP."""
    return {"Authorization": f"Bearer {token}"} if token else {}


@contextmanager
def seat_socket(api: TestClient, code: str, token: str | None = None) -> Iterator[Any]:
    """A WebSocket to table ``code`` past its ``hello`` frame (no token: a spectator)."""
    with api.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps(frame(type="hello", token=token)))
        yield ws


def frame(**fields: Any) -> dict[str, Any]:
    """A client frame with the protocol version."""
    return {"v": 1, **fields}


def plain_move(state: dict[str, Any], action_id: str) -> dict[str, Any]:
    """An ``action`` frame's fields for a plain player: ``ready`` (the last legal
    action) before play, the first legal action after."""
    pre = state["view"]["phase"] == "preplay"
    return {
        "action_id": action_id,
        "state_id": state["state_id"],
        "action": state["legal"][-1] if pre else state["legal"][0],
    }


def drawing_move(state: dict[str, Any], action_id: str) -> dict[str, Any]:
    """An ``action`` frame's fields for a player who never melds: ``ready`` before play,
    then a draw, then a discard (the bots at the table end the deal).  Unlike
    :func:`plain_move` it ends a deal of every variant (Rommé's first legal action may
    go round forever)."""
    legal: list[str] = state["legal"]
    chosen = legal[-1] if state["view"]["phase"] == "preplay" else None
    for prefix in ("draw", "discard"):
        chosen = chosen or next((a for a in legal if a.startswith(prefix)), None)
    return {"action_id": action_id, "state_id": state["state_id"], "action": chosen or legal[0]}


def until(ws: Any, kind: str, limit: int = 500) -> dict[str, Any]:
    """Read frames until one of ``kind`` arrives."""
    for _ in range(limit):
        got: dict[str, Any] = ws.receive_json()
        if got["type"] == kind:
            return got
    raise AssertionError(f"no {kind} frame in {limit} frames")


def iter_states(ws: Any, limit: int = 10_000) -> Iterator[dict[str, Any]]:
    """Yield every state frame."""
    for _ in range(limit):
        got: dict[str, Any] = ws.receive_json()
        if got["type"] == "state":
            yield got
