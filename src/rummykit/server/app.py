"""The FastAPI application: the lobby's HTTP API, the table WebSocket and the
browser pages (``static/``).  OpenAPI is published at ``/openapi.json``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect

from rummykit import __version__
from rummykit.bots.expert import LEVELS
from rummykit.engine.actions import parse_piece_token
from rummykit.engine.game import Game
from rummykit.engine.view import view
from rummykit.model.pieces import NotationError
from rummykit.rules.meldcheck import check_meld
from rummykit.rules.options import OptionError
from rummykit.rules.variant import UnknownVariantError, all_variants, find_variant
from rummykit.server.frames import error_frame
from rummykit.server.hub import Hub, HubSettings
from rummykit.server.metrics import CONTENT_TYPE, Metrics
from rummykit.server.quotas import Expiry, RateLimiter, RateLimitError, ServerLimits
from rummykit.server.schema import MAX_CLIENT_FRAME, HelloMessage, StateFrame, TableInfo
from rummykit.server.store import Store, describe_failure
from rummykit.server.tables import CODE_ALPHABET, CODE_LENGTH, Lobby, ProtocolError, Table

__all__ = ["HELLO_TIMEOUT", "MAX_OFFSET", "MAX_PAGE", "STATIC_DIR", "create_app"]

log = logging.getLogger("rummykit.server")

STATIC_DIR = Path(__file__).parent / "static"

MAX_PAGE = 200
"""The longest page of a list (``limit``)."""
MAX_OFFSET = 2**31 - 1
"""The largest ``offset`` of a list (any database reads it)."""
HELLO_TIMEOUT = 10.0
"""Seconds a new WebSocket connection has to send its ``hello`` frame."""

_STATUS = {
    "no_table": 404,
    "bad_token": 403,
    "rate_limited": 429,
    "internal": 503,
    "seat_taken": 409,
    "table_full": 409,
    "not_your_turn": 409,
    "stale_state": 409,
    "not_started": 409,
    "not_finished": 409,
    "finished": 409,
}

_CLOSE = {"no_table": 4404, "bad_token": 4401, "rate_limited": 4429, "timeout": 4408}
"""WebSocket close codes of a refused connection (any other refusal: 4400)."""

_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="seat token",
    description="The seat token (from create, join or rematch) as `Authorization: Bearer TOKEN`.",
)

_PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rummykit</title></head>
<body><h1>rummykit server</h1>
<p>The browser table is not installed in this build. The HTTP API is described at
<a href="/docs">/docs</a> (OpenAPI: <a href="/openapi.json">/openapi.json</a>).</p>
</body></html>
"""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BotSeat(_Body):
    """A seat a bot plays."""

    seat: int = Field(ge=0)
    bot: str = "greedy"
    level: str | None = None
    """The bot's strength where it has levels: ``{"bot": "expert", "level": "hard"}``
    is the same seat as ``{"bot": "hard"}``."""

    def name(self) -> str:
        """The bot's name as the lobby stores it (a level names its bot)."""
        if self.level is None:
            return self.bot
        bot, level = self.bot.strip().lower(), self.level.strip().lower()
        if bot != "expert" or level not in LEVELS:
            raise ProtocolError(
                "bad_options",
                f"bot {self.bot!r} with level {self.level!r}: only 'expert' has levels "
                f"({', '.join(LEVELS)})",
            )
        return level


class CreateTable(_Body):
    """``POST /api/tables``."""

    variant: str = "remi_ro"
    players: int | None = Field(default=None, ge=2, le=12)
    options: dict[str, bool | int | str | None] = Field(default_factory=dict)
    bots: list[BotSeat] = Field(default_factory=list)
    name: str = Field(default="", max_length=80)
    """The creator's name."""
    table_name: str = Field(default="", max_length=80)
    turn_timer: float | None = None
    """Seconds per action (off by default); at expiry the stand-in bot plays."""


class Join(_Body):
    """``POST /api/tables/{code}/join``."""

    name: str = Field(default="", max_length=80)
    seat: int | None = None


class ActionBody(_Body):
    """``POST /api/tables/{code}/action``: the WebSocket ``action`` frame over HTTP (the
    seat token goes in the ``Authorization`` header)."""

    action_id: str = Field(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")
    state_id: int = Field(ge=0)
    action: str = Field(min_length=1, max_length=512)


class MeldCheck(_Body):
    """``POST /api/meldcheck``."""

    variant: str
    options: dict[str, bool | int | str | None] = Field(default_factory=dict)
    pieces: list[str] = Field(max_length=40)


class Seated(BaseModel):
    """A seat and its secret token (keep it: it is the only key to the seat)."""

    code: str
    invite_url: str
    seat: int | None
    token: str | None


class TableStatus(TableInfo):
    """A table header with its current event number."""

    event_id: int


def _variants() -> list[dict[str, Any]]:
    out = []
    for v in all_variants():
        options = []
        for spec in v.options:
            item: dict[str, Any] = {
                "name": spec.name,
                "default": spec.default_for(v.default_players),
                "help": spec.doc,
                "kind": str(spec.kind),
                "nullable": spec.nullable,
            }
            if spec.choices is not None:
                item["choices"] = list(spec.choices)
            else:
                item["type"] = spec.value_type.__name__
            if spec.minimum is not None:
                item["minimum"] = spec.minimum
            if spec.maximum is not None:
                item["maximum"] = spec.maximum
            options.append(item)
        out.append(
            {
                "id": v.name,
                "aliases": list(v.aliases),
                "title": v.title,
                "summary": v.summary,
                "material": str(v.material),
                "players": {
                    "min": v.min_players,
                    "max": v.max_players,
                    "default": v.default_players,
                },
                "options": options,
            }
        )
    return out


async def seat_token(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """The seat token of an HTTP request: ``Authorization: Bearer TOKEN`` (None without
    the header).  A token in the URL is refused: URLs are written to access logs."""
    if "token" in request.query_params:
        raise ProtocolError(
            "malformed", "a seat token never goes in the URL: send 'Authorization: Bearer TOKEN'"
        )
    if credentials is None:
        if request.headers.get("authorization"):
            raise ProtocolError("bad_token", "the Authorization header must be 'Bearer TOKEN'")
        return None
    return credentials.credentials


Token = Annotated[str | None, Depends(seat_token)]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE, description="The page's length.")]
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET, description="Items skipped.")]


def _client(conn: HTTPConnection) -> str:
    """The address rate limits are counted by (behind a proxy uvicorn trusts, by default
    one on 127.0.0.1, the client it names in ``X-Forwarded-For``)."""
    return conn.client.host if conn.client is not None else "unknown"


def read_hello(data: str | bytes) -> str | None:
    """The token of a ``hello`` frame (None: a spectator); ``ProtocolError`` if ``data``
    is not one."""
    if len(data) > MAX_CLIENT_FRAME:
        raise ProtocolError("too_large", f"frames are limited to {MAX_CLIENT_FRAME} bytes")
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "a frame is one JSON object") from None
    if isinstance(raw, dict) and raw.get("v") != 1:
        raise ProtocolError("unsupported_version", "this server speaks protocol v 1")
    try:
        hello = HelloMessage.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "frame"
        raise ProtocolError(
            "malformed", f"the first frame must be hello: {where}: {first['msg']}"
        ) from None
    return hello.token


_TOKEN_IN_TEXT = re.compile(r"(?i)(token=)[^&\s\"']+")


class RedactTokens(logging.Filter):
    """Blanks ``token=...`` in log lines.  The server never takes a token from a URL,
    but a careless client may still put one there, and uvicorn writes every request's
    path and query string to its access log (and a WebSocket's to its error log)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "token=" in record.msg.lower():
            record.msg = _TOKEN_IN_TEXT.sub(r"\1[redacted]", record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN_IN_TEXT.sub(r"\1[redacted]", a) if isinstance(a, str) else a
                for a in record.args
            )
        return True


def redact_server_logs() -> None:
    """Put :class:`RedactTokens` on uvicorn's loggers (once)."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


def create_app(
    database_url: str | None = None,
    *,
    settings: HubSettings | None = None,
    static_dir: Path | None = None,
    limits: ServerLimits | None = None,
    redis_url: str | None = None,
    redis_prefix: str = "rk",
    lease_ms: int = 3000,
) -> FastAPI:
    """The server application on the database at ``database_url`` (default: an SQLite
    file in the user's data directory); migrations run first.  ``limits``: per-client
    rate limits and the expiry of unused tables (default: ``ServerLimits()``).

    With ``redis_url`` this process is one of many serving the same tables (the
    database must then be PostgreSQL): see ``rummykit.server.cluster``; every key and
    channel it uses in Redis starts with ``redis_prefix``."""
    limits = ServerLimits() if limits is None else limits
    redact_server_logs()
    cluster = None
    if redis_url is not None:
        from rummykit.server.cluster import Cluster

        cluster = Cluster(redis_url, prefix=redis_prefix, lease_ms=lease_ms)
    store = Store(database_url, shared=cluster is not None)
    if cluster is not None and store.dialect != "postgresql":
        store.close()
        raise ValueError(
            "many processes (a Redis URL) need a PostgreSQL database: "
            "an SQLite file serves one process"
        )
    lobby = Lobby(store)
    metrics = Metrics(
        lambda: len(lobby.tables),
        lambda: sum(len(c) for c in hub.conns.values()),
        lambda: 0 if cluster is None else cluster.published,
    )
    hub = Hub(lobby, settings, cluster=cluster, metrics=metrics)
    quota = RateLimiter(limits)
    expiry = Expiry(lobby, hub, limits.idle_open)
    static = STATIC_DIR if static_dir is None else static_dir

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        hub.start()
        sweeper = asyncio.create_task(expiry.run())
        yield
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        hub.stop()
        if cluster is not None:
            await cluster.stop()
        store.close()

    app = FastAPI(
        title="rummykit",
        version=__version__,
        summary="Play Rummy-family games with friends and bots.",
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.lobby = lobby
    app.state.hub = hub
    app.state.expiry = expiry
    app.state.cluster = cluster
    app.state.metrics = metrics

    @app.exception_handler(ProtocolError)
    async def _protocol_error(_: Request, exc: ProtocolError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimitError) else None
        return JSONResponse(
            {"code": exc.code, "message": exc.message}
            | ({"explain": exc.explain} if exc.explain else {}),
            status_code=_STATUS.get(exc.code, 400),
            headers=headers,
        )

    @app.exception_handler(SQLAlchemyError)
    async def _store_error(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        # The store failed, not the request: nothing changed (memory follows the store),
        # so the same request may be sent again.
        log.error(
            "%s %s: the store failed: %s", request.method, request.url.path, describe_failure(exc)
        )
        return JSONResponse(
            {"code": "internal", "message": "the store failed: nothing changed; try again"},
            status_code=503,
            headers={"Retry-After": "1"},
        )

    def find(who: str, code: str) -> Table:
        """The table ``code``, counting a code that names no table against ``who``."""
        quota.check("lookup", who)
        wanted = code.strip().upper()
        try:
            if len(wanted) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in wanted):
                # Never sent to the store: it cannot name a table.
                raise ProtocolError("no_table", f"no table has the code {code[:20]!r}")
            table = lobby.get(wanted)
            table.refresh()  # other processes may have changed it (a no-op alone)
            return table
        except ProtocolError:
            quota.hit("lookup", who)
            raise

    def seated(table: Table, token: str | None) -> int:
        seat = table.seat_of_token(token)
        if seat is None:
            raise ProtocolError(
                "bad_token", "this request needs the seat token: 'Authorization: Bearer TOKEN'"
            )
        return seat

    def page(name: str) -> Response:
        path = static / name
        if path.is_file():
            return FileResponse(path, media_type="text/html")
        return HTMLResponse(_PLACEHOLDER)

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return page("index.html")

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> Response:
        return page("table.html")

    if static.is_dir():
        app.mount("/static", StaticFiles(directory=static), name="static")

    def invite(request: Request, code: str) -> str:
        return str(request.base_url).rstrip("/") + f"/t/{code}"

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, bool | str]:
        """The process runs (liveness); ``process``: its name in Redis leases."""
        return {"ok": True, "process": "" if cluster is None else cluster.id}

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        """The process can serve: its database (and Redis, with many processes) answer."""
        checks = {"database": True}
        try:
            with store.engine.connect() as conn:
                conn.exec_driver_sql("select 1")
        except SQLAlchemyError:
            checks["database"] = False
        if cluster is not None:
            checks["redis"] = await cluster.ping()
        ready = all(checks.values())
        return JSONResponse({"ready": ready, **checks}, status_code=200 if ready else 503)

    @app.get("/metrics", include_in_schema=False)
    async def metrics_page() -> Response:
        """Prometheus metrics of this process."""
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    @app.get("/api/variants")
    async def variants() -> list[dict[str, Any]]:
        """Every variant with its player counts and options."""
        return _variants()

    @app.get("/api/tables")
    async def open_tables(limit: Limit = 50, offset: Offset = 0) -> list[TableInfo]:
        """Tables waiting for players, newest first, a page at a time."""
        return [t.info() for t in lobby.open_tables()[offset : offset + limit]]

    @app.post("/api/tables")
    async def create_table(body: CreateTable, request: Request) -> Seated:
        """Create a table; the creator takes the first seat no bot plays."""
        quota.hit("create", _client(request))
        table, seat, token = lobby.create(
            variant=body.variant,
            players=body.players,
            options=body.options,
            bots={b.seat: b.name() for b in body.bots},
            name=body.name,
            table_name=body.table_name,
            turn_timer=body.turn_timer,
        )
        expiry.touch(table.code)
        if seat is not None:
            hub.seat_vacated(table, seat)
        hub.changed(table)
        return Seated(
            code=table.code, invite_url=invite(request, table.code), seat=seat, token=token
        )

    def status(table: Table) -> TableStatus:
        return TableStatus(**table.info().model_dump(), event_id=table.event_id)

    @app.get("/api/tables/{code}")
    async def get_table(code: str, request: Request) -> TableStatus:
        """A table's header and status."""
        return status(find(_client(request), code))

    @app.get("/api/tables/{code}/state")
    async def get_state(code: str, request: Request, token: Token) -> StateFrame:
        """The ``state`` frame the token's seat (no token: a spectator) would be sent."""
        table = find(_client(request), code)
        return table.frame(table.seat_of_token(token))

    @app.post("/api/tables/{code}/join")
    async def join(code: str, body: Join, request: Request) -> Seated:
        """Take a seat (the first open one unless ``seat`` is given)."""
        who = _client(request)
        table = find(who, code)
        quota.hit("join", who)
        seat, token = table.sit(body.name, body.seat)
        expiry.touch(table.code)
        hub.seat_vacated(table, seat)
        hub.changed(table, header=True)
        return Seated(
            code=table.code, invite_url=invite(request, table.code), seat=seat, token=token
        )

    @app.post("/api/tables/{code}/leave")
    async def leave(code: str, request: Request, token: Token) -> dict[str, bool]:
        """Give a seat up (during play a bot plays it until someone sits)."""
        table = find(_client(request), code)
        table.leave(seated(table, token))
        expiry.touch(table.code)
        hub.changed(table, header=True)
        return {"ok": True}

    @app.post("/api/tables/{code}/rematch")
    async def rematch(code: str, request: Request, token: Token) -> Seated:
        """The rematch table of a finished game (created once, same seats for bots)."""
        table = find(_client(request), code)
        seat = seated(table, token)
        if table.row.rematch is not None and lobby.load(table.row.rematch) is None:
            # The rematch table was closed unused: the next request makes a new one.
            table.clear_rematch()
        new, got, token = lobby.rematch(table, seat)
        expiry.touch(new.code)
        hub.seat_vacated(new, got)
        hub.changed(new, header=True)
        hub.changed(table, header=True)
        return Seated(code=new.code, invite_url=invite(request, new.code), seat=got, token=token)

    @app.post("/api/tables/{code}/action")
    async def act(code: str, body: ActionBody, request: Request, token: Token) -> dict[str, int]:
        """Play an action with a seat's token (the WebSocket ``action`` frame over HTTP)."""
        started = time.perf_counter()
        table = find(_client(request), code)
        applied = table.submit(seated(table, token), body.action_id, body.state_id, body.action)
        if not applied.duplicate:
            metrics.acted(time.perf_counter() - started)
            hub.changed(table, header=applied.header or table.status == "finished")
        return {"event_id": applied.event_id}

    @app.get("/api/tables/{code}/record")
    async def record(code: str, request: Request) -> dict[str, Any]:
        """The game record of a finished game (``docs/records.md``)."""
        table = find(_client(request), code)
        if table.status != "finished":
            raise ProtocolError("not_finished", "records are published when the game is over")
        return table.record()

    @app.get("/api/tables/{code}/replay/{step}")
    async def replay_step(code: str, step: int, request: Request) -> dict[str, Any]:
        """A finished game after ``step`` events, as every seat saw it."""
        table = find(_client(request), code)
        if table.status != "finished":
            raise ProtocolError("not_finished", "replays are published when the game is over")
        if not 0 <= step <= table.event_id:
            raise ProtocolError("bad_step", f"step must be 0..{table.event_id}")
        game = Game(table.row.variant, table.row.players, table.row.options, seed=table.row.seed)
        for _, action in table.game.log[:step]:
            game.apply(action)
        return {
            "step": step,
            "events": table.event_id,
            "views": [view(game, s).to_json() for s in range(game.players)],
        }

    @app.get("/api/games")
    async def games(limit: Limit = 50, offset: Offset = 0) -> list[dict[str, Any]]:
        """Finished games, newest first, a page at a time."""
        rows = lobby.finished(limit, offset)
        return [
            {
                "code": r.code,
                "name": r.name,
                "variant": r.variant,
                "players": r.players,
                "options_changed": r.options,
                "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind} for s in r.seats],
                "finished": r.finished,
            }
            for r in rows
        ]

    @app.post("/api/meldcheck")
    async def meldcheck(body: MeldCheck) -> dict[str, Any]:
        """Is this one valid formation, its kind and opening points."""
        try:
            v = find_variant(body.variant)
            options = v.resolve(v.default_players, body.options)
            rules = v.rules_for(options)
            read = [parse_piece_token(p, v.material, rules.wild_ranks) for p in body.pieces]
            faces = [f for f, _ in read]
            # RULES §N.1: only pieces of the variant's pack (PieceNotInPackError).
            v.check_pieces(faces, options)
        except (UnknownVariantError, OptionError, NotationError, ValueError) as exc:
            raise ProtocolError("malformed", str(exc)) from None
        declared = [d for _, d in read]
        return check_meld(v, faces, declared, options=options).to_json()

    async def refuse(ws: WebSocket, exc: ProtocolError, close: str | None = None) -> None:
        text = error_frame(exc.code, exc.message)
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):  # peer gone
            await ws.send_text(text)
            await ws.close(code=_CLOSE.get(close or exc.code, 4400))

    @app.websocket("/ws/{code}")
    async def table_socket(ws: WebSocket, code: str) -> None:
        await ws.accept()
        try:
            if "token" in ws.query_params:
                raise ProtocolError(
                    "malformed", "a seat token never goes in the URL: send it in the hello frame"
                )
            table = find(_client(ws), code)
        except ProtocolError as exc:
            await refuse(ws, exc)
            return
        try:
            message = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
        except TimeoutError:
            late = ProtocolError("malformed", f"no hello frame within {HELLO_TIMEOUT:g} s")
            await refuse(ws, late, "timeout")
            return
        if message["type"] == "websocket.disconnect":
            return
        try:
            token = read_hello(message.get("text") or message.get("bytes") or b"")
        except ProtocolError as exc:
            await refuse(ws, exc)
            return
        expiry.touch(table.code)
        try:
            await hub.serve(ws, table.code, token)
        finally:
            expiry.touch(table.code)

    return app
