"""The hub: WebSocket connections, broadcasts, bots, grace periods and turn timers.

Everything runs on the server's event loop; game work is synchronous and short.
Each connection has a bounded outgoing queue (a client that does not read is
dropped, never waited for) and a token bucket for what it sends (a flooding
client is disconnected); neither slows the other tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.server.frames import error_frame
from rummykit.server.schema import (
    MAX_CLIENT_FRAME,
    AckFrame,
    ActionMessage,
    ChatFrame,
    ChatMessage,
    HintFrame,
    PingMessage,
    PongFrame,
    ResyncMessage,
    TableFrame,
    WelcomeFrame,
    parse_client_message,
)
from rummykit.server.store import ChatRow, EventRow, describe_failure
from rummykit.server.tables import BotJob, Lobby, ProtocolError, Table, chat_line, hash_token

if TYPE_CHECKING:
    from rummykit.server.cluster import Cluster
    from rummykit.server.metrics import Metrics

__all__ = ["Hub", "HubSettings"]

log = logging.getLogger("rummykit.server")


@dataclass(frozen=True, slots=True)
class HubSettings:
    """Timings of the hub (seconds)."""

    bot_delay: float = 0.4
    """Pause before a bot moves, so people can follow (0 in tests and benchmarks)."""
    grace: float = 30.0
    """How long a disconnected player's seat waits before a bot plays it."""
    rate: float = 20.0
    """Client frames per second a connection may send on average ..."""
    burst: float = 40.0
    """... and at once; beyond that it is sent ``rate_limited`` and disconnected."""
    queue: int = 256
    """Outgoing frames a connection may have waiting; beyond that it is dropped."""


SEAT_LOST = 4401
"""Close code of a socket whose token holds no seat (any more)."""


@dataclass(eq=False, slots=True)
class _Conn:
    ws: WebSocket
    code: str
    seat: int | None
    queue: asyncio.Queue[str | None]
    allowance: float
    token_hash: str | None = None
    """The hash of the token the seat was claimed with: checked again at every frame."""
    stamp: float = field(default_factory=time.monotonic)
    closed: bool = False
    close_code: int = 1000


class Hub:
    """Connections per table and everything that happens without a client asking."""

    def __init__(
        self,
        lobby: Lobby,
        settings: HubSettings | None = None,
        *,
        cluster: Cluster | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.lobby = lobby
        self.settings = settings or HubSettings()
        self.cluster = cluster
        """Other processes serve the same tables (None: this one alone)."""
        self.metrics = metrics
        self.conns: dict[str, set[_Conn]] = {}
        self._bot_calls: dict[str, asyncio.TimerHandle | asyncio.Task[None]] = {}
        """A bot move waiting for its delay, or a bot thinking in a worker thread."""
        self._timer_calls: dict[str, tuple[int, asyncio.TimerHandle]] = {}
        self._grace_calls: dict[tuple[str, int], asyncio.TimerHandle] = {}
        self._poller: asyncio.Task[None] | None = None
        self._presence_tasks: set[asyncio.Task[None]] = set()
        lobby.listener = self._stored_elsewhere
        for table in lobby.tables.values():
            table.listener = self._stored_elsewhere

    # ------------------------------------------------------------------ start-up

    def start(self) -> None:
        """After a (re)start: resume bots and timers, and start every human seat's
        grace period (nobody is connected yet).  With a cluster, this process takes
        tables over as their leases come free."""
        if self.cluster is not None:
            store = self.lobby.store
            assert store is not None
            self.cluster.start(
                self._message,
                store.active_codes,
                self._acquired,
                self._lost,
                self._alive,
            )
            self._poller = asyncio.create_task(self._poll())
            return
        for table in list(self.lobby.tables.values()):
            for seat in table.row.seats:
                if seat.kind == "human":
                    self.seat_vacated(table, seat.seat)
            self.changed(table)

    def stop(self) -> None:
        """Cancel pending bot moves and timers."""
        for handle in self._bot_calls.values():
            handle.cancel()
        for _, handle in self._timer_calls.values():
            handle.cancel()
        for handle in self._grace_calls.values():
            handle.cancel()
        if self._poller is not None:
            self._poller.cancel()

    def leads(self, table: Table) -> bool:
        """Whether this process runs ``table``'s bots, stand-ins and turn timer."""
        return self.cluster is None or self.cluster.holds(table.code)

    # ------------------------------------------------------------------ the cluster

    def _stored_elsewhere(self, table: Table, state: bool, header: bool) -> None:
        """Another process stored a change this copy has just read: send the frames."""
        conns = self.conns.get(table.code, set())
        if header:
            for conn in list(conns):
                if conn.seat is not None and not table.holds(conn.seat, conn.token_hash):
                    self._release(conn, table)
            text = TableFrame(table=table.info()).model_dump_json()
            for conn in conns:
                self._send(conn, text)
        if state and table.dealt:
            for conn in list(conns):
                self._send(conn, table.frame_json(conn.seat))

    def _after_remote(self, table: Table) -> None:
        """What the holder of ``table``'s lease does after another process's change."""
        if self.leads(table):
            for seat in table.row.seats:
                if seat.kind == "human" and not table.connected(seat.seat):
                    self.seat_vacated(table, seat.seat)
            self._arm_timer(table)
            self._schedule_bot(table)

    def _message(self, code: str, message: dict[str, Any]) -> None:
        """A message from another process about table ``code``."""
        table = self.lobby.tables.get(code)
        if table is None:
            return  # not in memory here: read from the store when it is asked for
        if message.get("k") == "chat":
            line = ChatRow(*message["l"])
            table.heard(line)
            self._send_chat(table, line)
            return
        if message.get("k") == "presence":
            counts = {int(k): int(v) for k, v in message.get("n", {}).items()}
            was = [table.connected(s) for s in range(table.row.players)]
            if counts:
                table.elsewhere[message["p"]] = counts
            else:
                table.elsewhere.pop(message["p"], None)
            self._presence_changed(table, was)
            return
        version = int(message.get("v", 0))
        if version > table.version:
            event = message.get("e")
            applied = False
            if event is not None and not message.get("h"):
                row = EventRow(event[0], event[1], event[2], event[3])
                applied = table.apply_stored(version, row, float(message["t"]))
            if not applied:
                table.refresh()
        standin = message.get("s")
        if standin is not None and not self.leads(table) and set(standin) != table.standin:
            table.standin = set(standin)
            self._stored_elsewhere(table, True, True)
        self._after_remote(table)

    def _presence_changed(self, table: Table, was: list[bool]) -> None:
        now = [table.connected(s) for s in range(table.row.players)]
        if now == was:
            return
        if self.leads(table):
            for seat, (before, after) in enumerate(zip(was, now, strict=True)):
                if table.row.seats[seat].kind != "human" or before == after:
                    continue
                if after:
                    self.seat_returned(table, seat)
                else:
                    self.seat_vacated(table, seat)
        self.changed(table, header=True, publish=self.leads(table))

    async def _acquired(self, code: str) -> None:
        """This process now holds table ``code``'s lease: run its bots and timers."""
        assert self.cluster is not None
        try:
            table = self.lobby.get(code)
        except ProtocolError:
            return
        table.refresh()
        table.elsewhere = await self.cluster.presence(code)
        table.standin.clear()
        log.info("table %s: bots and timers run here now", code)
        self._after_remote(table)
        self.changed(table, header=True)

    def _lost(self, code: str) -> None:
        """Another process runs table ``code`` now (or Redis is gone)."""
        handle = self._bot_calls.pop(code, None)
        if handle is not None:
            handle.cancel()
        timer = self._timer_calls.pop(code, None)
        if timer is not None:
            timer[1].cancel()
        for key in [k for k in self._grace_calls if k[0] == code]:
            self._grace_calls.pop(key).cancel()

    def _alive(self, alive: set[str]) -> None:
        """Forget the sockets of processes that died."""
        for table in list(self.lobby.tables.values()):
            gone = [p for p in table.elsewhere if p not in alive]
            if gone:
                was = [table.connected(s) for s in range(table.row.players)]
                for proc in gone:
                    del table.elsewhere[proc]
                self._presence_changed(table, was)

    async def _poll(self) -> None:
        """Once a second, read what the tables with sockets here missed (a message
        lost with a process that died between its commit and its publish)."""
        store = self.lobby.store
        assert store is not None
        while True:
            await asyncio.sleep(1.0)
            try:
                watched = [c for c, conns in self.conns.items() if conns]
                watched += [c for c in self.lobby.tables if self.cluster and self.cluster.holds(c)]
                stored = store.versions(sorted(set(watched)))
                for code, version in stored.items():
                    table = self.lobby.tables.get(code)
                    if table is not None and version != table.version:
                        table.refresh()
                        self._after_remote(table)
            except Exception as exc:
                log.error("checking tables for changes failed: %s", type(exc).__name__)

    def _publish(self, table: Table, header: bool) -> None:
        assert self.cluster is not None
        message: dict[str, Any] = {"v": table.version}
        last = table.last
        if last is not None and last[0] == table.version:
            event = last[1]
            message["e"] = [event.seq, event.seat, event.action, event.action_id]
            message["t"] = last[2]
        if header:
            message["h"] = 1
        if self.leads(table):
            message["s"] = sorted(table.standin)
        self.cluster.publish(table.code, message)
        if not self.leads(table) and table.status in ("open", "playing"):
            self.cluster.claim(table.code)

    # ------------------------------------------------------------------ changes

    def changed(self, table: Table, *, header: bool = False, publish: bool = True) -> None:
        """Tell every connection of ``table`` (the state, and the header if it changed;
        with a cluster, every other process too), then schedule whatever must happen
        next (a bot move, a turn timer)."""
        if self.cluster is not None and publish:
            self._publish(table, header)
        self._arm_timer(table)
        conns = self.conns.get(table.code, set())
        for conn in list(conns):
            if conn.seat is not None and not table.holds(conn.seat, conn.token_hash):
                self._release(conn, table)  # the seat was left or taken by someone else
        if header:
            text = TableFrame(table=table.info()).model_dump_json()
            for conn in conns:
                self._send(conn, text)
        if table.dealt:  # before the deal there is nothing but the header to show
            for conn in list(conns):
                self._send(conn, table.frame_json(conn.seat))
        self._schedule_bot(table)

    def _release(self, conn: _Conn, table: Table) -> None:
        """``conn``'s token no longer holds its seat: tell it and close it, at once."""
        self.conns.get(table.code, set()).discard(conn)
        seat, conn.seat = conn.seat, None
        if seat is not None:
            table.connections[seat] = max(0, table.connections.get(seat, 0) - 1)
        message = "this seat was given up or taken over: the token holds it no more"
        self._drop(conn, error_frame("bad_token", message), SEAT_LOST)

    def _schedule_bot(self, table: Table) -> None:
        if table.code in self._bot_calls or table.bot_to_move() is None:
            return
        if not self.leads(table):
            return
        loop = asyncio.get_running_loop()
        self._bot_calls[table.code] = loop.call_later(
            self.settings.bot_delay, self._bot_move, table
        )

    def _bot_move(self, table: Table) -> None:
        self._bot_calls.pop(table.code, None)
        seat = table.bot_to_move()
        if seat is None:
            return
        # A bot that searches (``hard``) thinks for most of a second: in a worker thread,
        # so that every other table and socket of this process goes on meanwhile.
        job = table.bot_job(seat)
        task = asyncio.get_running_loop().create_task(self._bot_think(table, job))
        self._bot_calls[table.code] = task

    async def _bot_think(self, table: Table, job: BotJob) -> None:
        started = time.perf_counter()
        try:
            action = await asyncio.to_thread(job.think)
        except Exception:  # a bot bug must not stop the server
            self._bot_calls.pop(table.code, None)
            log.exception("table %s: the bot for P%d failed", table.code, job.seat + 1)
            return
        if self._bot_calls.get(table.code) is not asyncio.current_task():
            return  # cancelled meanwhile (the lease went elsewhere, or the server stops)
        del self._bot_calls[table.code]
        try:
            table.play_bot(job, action, time.perf_counter() - started)
        except ProtocolError:  # the table moved on (here or in another process): look again
            self.changed(table, publish=False)
            return
        except Exception:  # a storage failure must not stop the server
            log.exception("table %s: the bot for P%d failed", table.code, job.seat + 1)
            return
        if self.metrics is not None:
            self.metrics.bot_decided(table.decided)
            self.metrics.acted()
        self.changed(table, header=table.status == "finished")

    def _arm_timer(self, table: Table) -> None:
        pending = self._timer_calls.get(table.code)
        if pending is not None and pending[0] == table.event_id:
            return
        if pending is not None:
            pending[1].cancel()
            del self._timer_calls[table.code]
        deadline = table.deadline
        if deadline is None or not self.leads(table):
            return
        loop = asyncio.get_running_loop()
        handle = loop.call_later(
            max(0.0, deadline - time.time()), self._expire, table, table.event_id
        )
        self._timer_calls[table.code] = (table.event_id, handle)

    def _expire(self, table: Table, event_id: int) -> None:
        self._timer_calls.pop(table.code, None)
        if table.event_id != event_id or table.status != "playing":
            return
        if isinstance(self._bot_calls.get(table.code), asyncio.Task):
            return  # a stand-in is already choosing this move
        # The sensible default: what the stand-in bot would play in this seat.
        try:
            table.play_for(table.game.to_move)
        except ProtocolError:  # another process moved the table on
            self.changed(table, publish=False)
            return
        except Exception:
            log.exception("table %s: the turn-timer move failed", table.code)
            return
        self.changed(table)

    def seat_vacated(self, table: Table, seat: int) -> None:
        """``seat`` has no connection: after the grace period a bot plays it."""
        key = (table.code, seat)
        if key in self._grace_calls or not self.leads(table):
            return
        loop = asyncio.get_running_loop()
        self._grace_calls[key] = loop.call_later(self.settings.grace, self._grace_over, table, seat)

    def _grace_over(self, table: Table, seat: int) -> None:
        self._grace_calls.pop((table.code, seat), None)
        if table.connected(seat) or table.row.seats[seat].kind != "human":
            return
        if not self.leads(table):
            return
        table.standin.add(seat)
        self.changed(table, header=True)

    def seat_returned(self, table: Table, seat: int) -> None:
        """``seat`` is connected again: its own player plays it."""
        handle = self._grace_calls.pop((table.code, seat), None)
        if handle is not None:
            handle.cancel()
        if seat in table.standin:
            table.standin.discard(seat)

    # ------------------------------------------------------------------ chat

    def _send_chat(self, table: Table, line: ChatRow) -> None:
        """Send one chat line to every socket of ``table`` on this process (seats and
        spectators alike)."""
        text = ChatFrame(lines=[chat_line(line)]).model_dump_json()
        for conn in self.conns.get(table.code, set()):
            self._send(conn, text)

    def say(self, table: Table, seat: int | None, msg: ChatMessage) -> ChatRow:
        """Store a chat line and send it to every socket of the table, on every process."""
        line = table.say(seat, msg.text, msg.phrase)
        self._send_chat(table, line)
        if self.cluster is not None:
            self.cluster.publish(
                table.code,
                {
                    "k": "chat",
                    "l": [line.seq, line.seat, line.name, line.text, line.phrase, line.created],
                },
            )
        return line

    # ------------------------------------------------------------------ sending

    def _send(self, conn: _Conn, text: str) -> None:
        if conn.closed:
            return
        try:
            conn.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("table %s: dropping a connection that does not read", conn.code)
            self._drop(conn, code=1008)

    def _drop(self, conn: _Conn, last: str | None = None, code: int = 1000) -> None:
        """Close ``conn`` after ``last`` (if given): frames still waiting are dropped."""
        if conn.closed:
            return
        conn.closed = True
        conn.close_code = code
        while not conn.queue.empty():
            conn.queue.get_nowait()
        if last is not None:
            conn.queue.put_nowait(last)
        # The writer closes the socket when it reaches the sentinel.
        conn.queue.put_nowait(None)

    async def _writer(self, conn: _Conn) -> None:
        try:
            while True:
                text = await conn.queue.get()
                if text is None:
                    break
                await conn.ws.send_text(text)
        except Exception:  # the peer went away; the reader notices too
            conn.closed = True
        finally:
            with contextlib.suppress(Exception):
                await conn.ws.close(code=conn.close_code)

    # ------------------------------------------------------------------ a connection

    async def serve(self, ws: WebSocket, code: str, token: str | None) -> None:
        """Run one WebSocket connection, accepted and past its ``hello`` frame (the app
        reads it), until it closes."""
        try:
            table = self.lobby.get(code)
            seat = table.seat_of_token(token)
        except ProtocolError as exc:
            await ws.send_text(error_frame(exc.code, exc.message))
            await ws.close(code=4404 if exc.code == "no_table" else 4401)
            return
        conn = _Conn(ws, table.code, seat, asyncio.Queue(self.settings.queue), self.settings.burst)
        if seat is not None and token is not None:
            conn.token_hash = hash_token(token)
        if self.cluster is not None and not self.conns.get(table.code):
            # The first socket of this table here: who is connected elsewhere.
            try:
                table.elsewhere = await self.cluster.presence(table.code)
            except Exception as exc:
                log.error("reading presence from Redis failed: %s", type(exc).__name__)
        self.conns.setdefault(table.code, set()).add(conn)
        header = False
        if seat is not None:
            table.connections[seat] = table.connections.get(seat, 0) + 1
            header = True
            self.seat_returned(table, seat)
            self._counted(table)
        writer = asyncio.create_task(self._writer(conn))
        self._send(
            conn,
            WelcomeFrame(
                table=table.info(), seat=seat, event_id=table.event_id, grace=self.settings.grace
            ).model_dump_json(),
        )
        if header:
            self.changed(table, header=True)
        elif table.dealt:
            self._send(conn, table.frame_json(seat))
        try:
            said = table.chat()
        except SQLAlchemyError as exc:
            log.error("table %s: reading its chat failed: %s", table.code, describe_failure(exc))
            said = []
        if said:
            self._send(conn, ChatFrame(lines=[chat_line(r) for r in said]).model_dump_json())
        try:
            await self._read(conn, table)
        finally:
            # The bookkeeping comes before the first await: a connection cancelled while
            # it closes (a server shutting down, a test client leaving) still frees its seat.
            self.conns.get(table.code, set()).discard(conn)
            self._drop(conn)
            if seat is not None and conn.seat is not None:  # None once released: counted off
                table.connections[seat] -= 1
                self._counted(table)
                if table.connections[seat] == 0:
                    if table.row.seats[seat].kind == "human":
                        self.seat_vacated(table, seat)
                    self.changed(table, header=True)
            try:
                await writer
            except asyncio.CancelledError:
                writer.cancel()
                raise

    def _counted(self, table: Table) -> None:
        """This process's sockets per seat of ``table`` changed: tell the others."""
        if self.cluster is not None:
            task = asyncio.get_running_loop().create_task(
                self.cluster.set_presence(table.code, dict(table.connections))
            )
            self._presence_tasks.add(task)
            task.add_done_callback(self._presence_tasks.discard)

    def _allow(self, conn: _Conn) -> bool:
        now = time.monotonic()
        s = self.settings
        conn.allowance = min(s.burst, conn.allowance + (now - conn.stamp) * s.rate)
        conn.stamp = now
        if conn.allowance < 1:
            return False
        conn.allowance -= 1
        return True

    async def _read(self, conn: _Conn, table: Table) -> None:
        while not conn.closed:
            try:
                message = await conn.ws.receive()
            except WebSocketDisconnect:
                return
            if message["type"] == "websocket.disconnect":
                return
            data = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            if not self._allow(conn):
                self._drop(conn, error_frame("rate_limited", "too many frames: disconnected"), 1008)
                return
            self.handle(conn, table, data)

    def handle(self, conn: _Conn, table: Table, data: str | bytes) -> None:
        """Answer one client frame."""
        if conn.seat is not None and not table.holds(conn.seat, conn.token_hash):
            # Whatever it asks, a socket that lost its seat gets nothing of it.
            self._release(conn, table)
            self.changed(table, header=True)
            return
        if len(data) > MAX_CLIENT_FRAME:
            self._send(
                conn,
                error_frame("too_large", f"frames are limited to {MAX_CLIENT_FRAME} bytes"),
            )
            return
        try:
            raw = json.loads(data)
        except (ValueError, RecursionError):  # RecursionError: brackets nested too deep
            self._send(conn, error_frame("malformed", "a frame is one JSON object"))
            return
        if isinstance(raw, dict) and raw.get("v") != 1:
            self._send(conn, error_frame("unsupported_version", "this server speaks protocol v 1"))
            return
        try:
            msg = parse_client_message(data)
        except ValueError as exc:
            action_id = raw.get("action_id") if isinstance(raw, dict) else None
            self._send(
                conn,
                error_frame(
                    "malformed", str(exc), action_id if isinstance(action_id, str) else None
                ),
            )
            return
        if isinstance(msg, ActionMessage):
            started = time.perf_counter()
            try:
                applied = table.submit(conn.seat, msg.action_id, msg.state_id, msg.action)
            except ProtocolError as exc:
                self._send(conn, error_frame(exc.code, exc.message, msg.action_id, exc.explain))
                return
            except SQLAlchemyError as exc:  # the store's failure, not the request's: one line
                log.error(
                    "table %s: storing an action failed: %s", table.code, describe_failure(exc)
                )
                self._send(conn, error_frame("internal", "the action was not stored"))
                return
            except Exception:
                log.exception("table %s: storing an action failed", table.code)
                self._send(conn, error_frame("internal", "the action was not stored"))
                return
            self._send(
                conn, AckFrame(action_id=msg.action_id, event_id=applied.event_id).model_dump_json()
            )
            if self.metrics is not None and not applied.duplicate:
                self.metrics.acted(time.perf_counter() - started)
            if applied.duplicate:
                self._send(conn, table.frame_json(conn.seat))
            else:
                self.changed(table, header=applied.header or table.status == "finished")
        elif isinstance(msg, ResyncMessage):
            try:
                table.refresh()  # a socket that missed frames gets the stored state
            except SQLAlchemyError as exc:
                log.error("table %s: reading it failed: %s", table.code, describe_failure(exc))
            if table.dealt:
                self._send(conn, table.frame_json(conn.seat))
            else:
                self._send(conn, TableFrame(table=table.info()).model_dump_json())
        elif isinstance(msg, PingMessage):
            self._send(conn, PongFrame().model_dump_json())
        elif isinstance(msg, ChatMessage):
            try:
                self.say(table, conn.seat, msg)
            except ProtocolError as exc:
                self._send(conn, error_frame(exc.code, exc.message))
            except SQLAlchemyError as exc:
                log.error("table %s: storing chat failed: %s", table.code, describe_failure(exc))
                self._send(conn, error_frame("internal", "the chat line was not stored"))
        else:
            hints = [] if conn.seat is None else table.hints(conn.seat)
            self._send(conn, HintFrame(hints=hints).model_dump_json())
