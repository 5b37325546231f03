"""What one client may ask of the server, and how long an unused table is kept.

Rate limits are counted per client address by the ``limits`` library (a moving
window in memory: one server process holds them).  Open tables nobody uses are
closed after a while, so that creating tables cannot fill the server's memory.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from rummykit.server.hub import Hub
from rummykit.server.tables import Lobby, ProtocolError

__all__ = ["Expiry", "RateLimitError", "RateLimiter", "ServerLimits", "parse_rate"]

log = logging.getLogger("rummykit.server")

Kind = Literal["create", "join", "lookup"]

_REFUSED = {
    "create": "too many tables created from this address",
    "join": "too many seats taken from this address",
    "lookup": "too many table codes that name no table from this address",
}


def parse_rate(text: str | None) -> str | None:
    """``text`` checked as a rate (``N/second``, ``N/minute``, ``N/hour`` ...); None or
    ``off`` turn the limit off.  Raises ``ValueError`` naming the bad rate."""
    if text is None or text.strip().lower() == "off":
        return None
    try:
        item = parse(text)
    except ValueError:
        raise ValueError(
            f"{text!r} is not a rate: write N/second, N/minute or N/hour (or 'off')"
        ) from None
    if item.amount < 1:
        raise ValueError(f"{text!r}: a rate allows at least one request (or write 'off')")
    return text.strip()


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """Per-client rate limits and the expiry of unused tables (None: no limit)."""

    create: str | None = "20/minute"
    """Tables one client address may create."""
    join: str | None = "30/minute"
    """Seats one client address may take (``join``)."""
    lookup: str | None = "30/minute"
    """Table codes naming no table one client address may ask for; past that, every
    request naming a table code is refused until the window frees (invite codes
    cannot be guessed by trying them)."""
    idle_open: float | None = 3600.0
    """Seconds a table that never started may stay unused (no seat taken or left,
    nobody connected) before it is closed and dropped from memory."""

    def __post_init__(self) -> None:
        for kind in ("create", "join", "lookup"):
            try:
                parse_rate(getattr(self, kind))
            except ValueError as exc:
                raise ValueError(f"{kind}: {exc}") from None
        if self.idle_open is not None and not self.idle_open > 0:
            raise ValueError(f"idle_open must be positive seconds or None, not {self.idle_open}")

    @classmethod
    def off(cls) -> ServerLimits:
        """No rate limit and no expiry (benchmarks, tests of something else)."""
        return cls(create=None, join=None, lookup=None, idle_open=None)


class RateLimitError(ProtocolError):
    """A client went past one of its rate limits: ``rate_limited`` (HTTP 429)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__("rate_limited", f"{message}: retry in {retry_after} s")
        self.retry_after = retry_after


class RateLimiter:
    """The rate limits of :class:`ServerLimits`, counted per client address."""

    def __init__(self, limits: ServerLimits) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._items: dict[str, RateLimitItem] = {}
        for kind in ("create", "join", "lookup"):
            rate = parse_rate(getattr(limits, kind))
            if rate is not None:
                self._items[kind] = parse(rate)

    def hit(self, kind: Kind, client: str) -> None:
        """Count one request of ``kind``; raise :class:`RateLimitError` past the limit."""
        item = self._items.get(kind)
        if item is not None and not self._limiter.hit(item, kind, client):
            self._refuse(kind, item, client)

    def check(self, kind: Kind, client: str) -> None:
        """Raise :class:`RateLimitError` if ``client`` has no ``kind`` left (counts nothing)."""
        item = self._items.get(kind)
        if item is not None and not self._limiter.test(item, kind, client):
            self._refuse(kind, item, client)

    def _refuse(self, kind: Kind, item: RateLimitItem, client: str) -> None:
        reset = self._limiter.get_window_stats(item, kind, client).reset_time
        raise RateLimitError(_REFUSED[kind], max(1, math.ceil(reset - time.time())))


class Expiry:
    """Closes the open tables nobody used for ``idle`` seconds (marked ``expired`` in the
    store, dropped from memory) and drops idle finished tables from memory (they stay
    in the store and are read again when asked for)."""

    def __init__(
        self,
        lobby: Lobby,
        hub: Hub,
        idle: float | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.lobby = lobby
        self.hub = hub
        self.idle = idle
        self.clock = clock
        self.started = clock()
        """Tables loaded at start-up count as used at start-up."""
        self.used: dict[str, float] = {}

    def touch(self, code: str) -> None:
        """``code`` was used now (created, a seat taken or left, a connection)."""
        self.used[code] = self.clock()

    def sweep(self) -> list[str]:
        """Close and drop what has been idle too long; return the codes closed."""
        if self.idle is None:
            return []
        now = self.clock()
        closed = []
        for code, table in list(self.lobby.tables.items()):
            if table.status not in ("open", "finished") or self.hub.conns.get(code):
                continue
            if now - self.used.get(code, self.started) < self.idle:
                continue
            if table.status == "open":
                # With many processes, the one that holds the table's lease closes it,
                # and only if nobody is connected anywhere.
                if not self.hub.leads(table) or table.elsewhere:
                    continue
                # The store first: a table the store still calls open would come back
                # at the next start (``expire`` also sees a seat taken elsewhere).
                if not table.expire():
                    continue
                closed.append(code)
            elif self.lobby.store is None:
                continue  # a finished table lives only in memory here
            del self.lobby.tables[code]
            self.used.pop(code, None)
            self.hub.conns.pop(code, None)
        if closed:
            log.info("closed %d table(s) unused for %g s", len(closed), self.idle)
        return closed

    async def run(self) -> None:
        """Sweep now and then until cancelled."""
        if self.idle is None:
            return
        pause = max(0.05, min(30.0, self.idle / 4))
        while True:
            await asyncio.sleep(pause)
            try:
                self.sweep()
            except Exception as exc:  # a store failure: try again at the next sweep
                log.error("closing unused tables failed: %s: %s", type(exc).__name__, exc)
