"""The FastAPI application: the lobby's HTTP API, the table WebSocket and the
browser pages (``static/``).  OpenAPI is published at ``/openapi.json``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from rummykit import __version__
from rummykit.bots.expert import LEVELS
from rummykit.engine.actions import parse_piece_token
from rummykit.engine.game import Game
from rummykit.engine.view import view
from rummykit.model.pieces import NotationError
from rummykit.rules.meldcheck import check_meld
from rummykit.rules.options import OptionError
from rummykit.rules.variant import UnknownVariantError, all_variants, find_variant
from rummykit.server.hub import Hub, HubSettings
from rummykit.server.schema import StateFrame, TableInfo
from rummykit.server.store import Store
from rummykit.server.tables import Lobby, ProtocolError, Table

__all__ = ["STATIC_DIR", "create_app"]

STATIC_DIR = Path(__file__).parent / "static"

_STATUS = {
    "no_table": 404,
    "bad_token": 403,
    "seat_taken": 409,
    "table_full": 409,
    "not_your_turn": 409,
    "stale_state": 409,
    "not_started": 409,
    "not_finished": 409,
    "finished": 409,
}

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


class TokenBody(_Body):
    """A request made with a seat's token."""

    token: str = Field(max_length=128)


class ActionBody(_Body):
    """``POST /api/tables/{code}/action``: the WebSocket ``action`` frame over HTTP."""

    token: str = Field(max_length=128)
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


def create_app(
    database_url: str | None = None,
    *,
    settings: HubSettings | None = None,
    static_dir: Path | None = None,
) -> FastAPI:
    """The server application on the database at ``database_url`` (default: an SQLite
    file in the user's data directory); migrations run first."""
    store = Store(database_url)
    lobby = Lobby(store)
    hub = Hub(lobby, settings)
    static = STATIC_DIR if static_dir is None else static_dir

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        hub.start()
        yield
        hub.stop()
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

    @app.exception_handler(ProtocolError)
    async def _protocol_error(_: Request, exc: ProtocolError) -> JSONResponse:
        return JSONResponse(
            {"code": exc.code, "message": exc.message}, status_code=_STATUS.get(exc.code, 400)
        )

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

    @app.get("/api/variants")
    async def variants() -> list[dict[str, Any]]:
        """Every variant with its player counts and options."""
        return _variants()

    @app.get("/api/tables")
    async def open_tables() -> list[TableInfo]:
        """Tables waiting for players."""
        return [t.info() for t in lobby.open_tables()]

    @app.post("/api/tables")
    async def create_table(body: CreateTable, request: Request) -> Seated:
        """Create a table; the creator takes the first seat no bot plays."""
        table, seat, token = lobby.create(
            variant=body.variant,
            players=body.players,
            options=body.options,
            bots={b.seat: b.name() for b in body.bots},
            name=body.name,
            table_name=body.table_name,
            turn_timer=body.turn_timer,
        )
        if seat is not None:
            hub.seat_vacated(table, seat)
        hub.changed(table)
        return Seated(
            code=table.code, invite_url=invite(request, table.code), seat=seat, token=token
        )

    def status(table: Table) -> TableStatus:
        return TableStatus(**table.info().model_dump(), event_id=table.event_id)

    @app.get("/api/tables/{code}")
    async def get_table(code: str) -> TableStatus:
        """A table's header and status."""
        return status(lobby.get(code))

    @app.get("/api/tables/{code}/state")
    async def get_state(code: str, token: str | None = None) -> StateFrame:
        """The ``state`` frame the token's seat (no token: a spectator) would be sent."""
        table = lobby.get(code)
        return table.frame(table.seat_of_token(token))

    @app.post("/api/tables/{code}/join")
    async def join(code: str, body: Join, request: Request) -> Seated:
        """Take a seat (the first open one unless ``seat`` is given)."""
        table = lobby.get(code)
        seat, token = table.sit(body.name, body.seat)
        hub.seat_vacated(table, seat)
        hub.changed(table, header=True)
        return Seated(
            code=table.code, invite_url=invite(request, table.code), seat=seat, token=token
        )

    @app.post("/api/tables/{code}/leave")
    async def leave(code: str, body: TokenBody) -> dict[str, bool]:
        """Give a seat up (during play a bot plays it until someone sits)."""
        table = lobby.get(code)
        seat = table.seat_of_token(body.token)
        if seat is None:
            raise ProtocolError("bad_token", "a token is required")
        table.leave(seat)
        hub.changed(table, header=True)
        return {"ok": True}

    @app.post("/api/tables/{code}/rematch")
    async def rematch(code: str, body: TokenBody, request: Request) -> Seated:
        """The rematch table of a finished game (created once, same seats for bots)."""
        table = lobby.get(code)
        seat = table.seat_of_token(body.token)
        if seat is None:
            raise ProtocolError("bad_token", "a token is required")
        new, got, token = lobby.rematch(table, seat)
        hub.seat_vacated(new, got)
        hub.changed(new, header=True)
        hub.changed(table, header=True)
        return Seated(code=new.code, invite_url=invite(request, new.code), seat=got, token=token)

    @app.post("/api/tables/{code}/action")
    async def act(code: str, body: ActionBody) -> dict[str, int]:
        """Play an action with a seat's token (the WebSocket ``action`` frame over HTTP)."""
        table = lobby.get(code)
        seat = table.seat_of_token(body.token)
        if seat is None:
            raise ProtocolError("bad_token", "a token is required")
        applied = table.submit(seat, body.action_id, body.state_id, body.action)
        if not applied.duplicate:
            hub.changed(table, header=table.status == "finished")
        return {"event_id": applied.event_id}

    @app.get("/api/tables/{code}/record")
    async def record(code: str) -> dict[str, Any]:
        """The game record of a finished game (``docs/records.md``)."""
        table = lobby.get(code)
        if table.status != "finished":
            raise ProtocolError("not_finished", "records are published when the game is over")
        return table.record()

    @app.get("/api/tables/{code}/replay/{step}")
    async def replay_step(code: str, step: int) -> dict[str, Any]:
        """A finished game after ``step`` events, as every seat saw it."""
        table = lobby.get(code)
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
    async def games(limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        """Finished games, newest first."""
        rows = lobby.finished(max(1, min(limit, 200)), max(0, offset))
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

    @app.websocket("/ws/{code}")
    async def table_socket(ws: WebSocket, code: str, token: str | None = None) -> None:
        await hub.serve(ws, code, token)

    return app
