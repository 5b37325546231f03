"""Many server processes, one set of tables: what they tell each other through Redis.

PostgreSQL holds the truth (``Store.locked`` serializes the changes to a table
across processes); Redis carries what is not stored:

- **changes**: after storing a change to a table, a process publishes a message on
  the table's channel (the event itself when it is one action); every process
  that has the table in memory applies it (or reads the store when it missed
  one) and sends its own sockets their frames;
- **presence**: how many sockets each process has open per seat (published, and
  kept in a hash for processes that load the table later), so that every process
  shows the same ``connected`` flags and the lease holder knows when a seat is
  vacant;
- **leases**: one process at a time runs a table's bots, stand-ins and turn timer:
  the holder of ``<prefix>:lease:<code>`` (``SET NX PX``, renewed every third of
  its life).  When the holder dies the key expires and another process takes the
  table over at its next sweep, within ``lease_ms`` plus a sweep.

Nothing here decides anything by itself: Redis's atomic ``SET NX`` and the
database's row locks do.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar, cast

import redis.asyncio as aioredis
from redis.exceptions import RedisError

__all__ = ["Cluster"]

log = logging.getLogger("rummykit.server")

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""

Handler = Callable[[str, dict[str, Any]], None]
T = TypeVar("T")


async def _done(value: Awaitable[T] | T) -> T:
    """redis-py types its asyncio commands as "awaitable or not": await them."""
    if inspect.isawaitable(value):
        return cast(T, await value)
    return value


class Cluster:
    """This process's link to the other processes serving the same tables."""

    def __init__(self, url: str, *, prefix: str = "rk", lease_ms: int = 3000) -> None:
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url)
        self.prefix = prefix
        self.lease_ms = lease_ms
        self.id = uuid.uuid4().hex[:12]
        """This process's name in leases and presence."""
        self.held: set[str] = set()
        """Codes of the tables whose lease this process holds."""
        self.alive: set[str] = {self.id}
        """Processes whose heartbeat is current (refreshed every sweep)."""
        self.published = 0
        """Messages published (metrics)."""
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._tried: dict[str, float] = {}
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)

    # ------------------------------------------------------------------ names

    def channel(self, code: str) -> str:
        """The pub/sub channel of table ``code``."""
        return f"{self.prefix}:t:{code}"

    def _lease(self, code: str) -> str:
        return f"{self.prefix}:lease:{code}"

    def _presence(self, code: str) -> str:
        return f"{self.prefix}:presence:{code}"

    # ------------------------------------------------------------------ running

    def start(
        self,
        on_message: Handler,
        candidates: Callable[[], Iterable[str]],
        on_acquired: Callable[[str], Awaitable[None]],
        on_lost: Callable[[str], None],
        on_alive: Callable[[set[str]], None],
    ) -> None:
        """Start publishing, listening and sweeping leases: ``candidates()`` names the
        tables that need a lease holder (the active ones)."""
        self._on_acquired = on_acquired
        self._tasks = [
            asyncio.create_task(self._publisher()),
            asyncio.create_task(self._listener(on_message)),
            asyncio.create_task(self._sweeper(candidates, on_lost, on_alive)),
        ]

    async def stop(self) -> None:
        """Stop, give the leases back (another process takes them over at once)."""
        # What is still in the outbox goes out first: it tells the others of changes.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._drain(), 2)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(RedisError, OSError):
            for code in list(self.held):
                await self._release(keys=[self._lease(code)], args=[self.id])
            await _done(self.redis.hdel(f"{self.prefix}:procs", self.id))
        self.held.clear()
        await self.redis.aclose()

    async def _drain(self) -> None:
        while not self._outbox.empty():
            await asyncio.sleep(0.01)

    async def ping(self) -> bool:
        """Whether Redis answers."""
        try:
            # redis-py's type for ``ping`` covers its sync and async clients alike.
            answer = self.redis.ping()
            return bool(await answer if inspect.isawaitable(answer) else answer)
        except (RedisError, OSError):
            return False

    # ------------------------------------------------------------------ messages

    def publish(self, code: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every process (in order, after what was sent before)."""
        message["p"] = self.id
        self._outbox.put_nowait((self.channel(code), json.dumps(message)))

    async def _publisher(self) -> None:
        while True:
            channel, text = await self._outbox.get()
            batch = [(channel, text)]
            while not self._outbox.empty() and len(batch) < 256:
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for ch, body in batch:
                        pipe.publish(ch, body)
                    await pipe.execute()
                self.published += len(batch)
            except (RedisError, OSError) as exc:
                # The change is stored: the others read it at their next check.
                log.error("publishing to Redis failed: %s", type(exc).__name__)

    async def _listener(self, on_message: Handler) -> None:
        skip = len(self.prefix) + 3
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.psubscribe(f"{self.prefix}:t:*")
                async for item in pubsub.listen():
                    if item.get("type") != "pmessage":
                        continue
                    channel = item["channel"].decode()
                    try:
                        message = json.loads(item["data"])
                        if message.get("p") != self.id:
                            on_message(channel[skip:], message)
                    except Exception:
                        log.exception("a cluster message could not be handled")
            except (RedisError, OSError) as exc:
                log.error("the Redis subscription failed (%s); again in 1 s", type(exc).__name__)
                await asyncio.sleep(1)

    # ------------------------------------------------------------------ presence

    async def set_presence(self, code: str, counts: dict[int, int]) -> None:
        """Store and publish this process's open sockets per seat of table ``code``."""
        key = self._presence(code)
        live = {str(k): v for k, v in counts.items() if v > 0}
        try:
            if live:
                await _done(self.redis.hset(key, self.id, json.dumps(live)))
            else:
                await _done(self.redis.hdel(key, self.id))
            await self.redis.expire(key, 86400)
        except (RedisError, OSError) as exc:
            log.error("storing presence in Redis failed: %s", type(exc).__name__)
        self.publish(code, {"k": "presence", "n": live})

    async def presence(self, code: str) -> dict[str, dict[int, int]]:
        """Open sockets per seat of table ``code`` on the other live processes."""
        raw = await _done(self.redis.hgetall(self._presence(code)))
        out: dict[str, dict[int, int]] = {}
        for proc, counts in raw.items():
            name = proc.decode()
            if name != self.id and name in self.alive:
                out[name] = {int(k): int(v) for k, v in json.loads(counts).items()}
        return out

    # ------------------------------------------------------------------ leases

    def holds(self, code: str) -> bool:
        """Whether this process runs table ``code``'s bots and timers now."""
        return code in self.held

    def claim(self, code: str) -> None:
        """Try to take table ``code``'s lease now (a new table needs a holder before
        the next sweep), once per table."""
        # Once per table and process: later, the sweep finds tables without a holder.
        if code in self.held or code in self._tried:
            return
        self._tried[code] = time.monotonic()
        task = asyncio.create_task(self._claim([code]))
        self._tasks = [t for t in self._tasks if not t.done()] + [task]

    async def _claim(self, codes: list[str]) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.set(self._lease(code), self.id, nx=True, px=self.lease_ms)
            won = await pipe.execute()
        for code, ok in zip(codes, won, strict=True):
            if ok and code not in self.held:
                self.held.add(code)
                try:
                    await self._on_acquired(code)
                except Exception:
                    log.exception("table %s: taking over failed", code)

    async def _sweeper(
        self,
        candidates: Callable[[], Iterable[str]],
        on_lost: Callable[[str], None],
        on_alive: Callable[[set[str]], None],
    ) -> None:
        pause = self.lease_ms / 3000
        procs = f"{self.prefix}:procs"
        while True:
            try:
                now_ms = int(time.time() * 1000)
                await _done(self.redis.hset(procs, self.id, str(now_ms + self.lease_ms)))
                beats = await _done(self.redis.hgetall(procs))
                self.alive = {p.decode() for p, t in beats.items() if int(t) > now_ms}
                self.alive.add(self.id)
                on_alive(self.alive)
                held = sorted(self.held)
                if held:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for code in held:
                            await self._renew(
                                keys=[self._lease(code)], args=[self.id, self.lease_ms], client=pipe
                            )
                        kept = await pipe.execute()
                    for code, ok in zip(held, kept, strict=True):
                        if not ok:
                            self.held.discard(code)
                            on_lost(code)
                active = set(candidates())
                for code in sorted(self.held - active):
                    # Finished or closed: nothing runs there any more; let the lease go.
                    await self._release(keys=[self._lease(code)], args=[self.id])
                    self.held.discard(code)
                    on_lost(code)
                wanted = sorted(active - self.held)
                if wanted:
                    await self._claim(wanted)
            except (RedisError, OSError) as exc:
                # Without Redis this process cannot know it still holds its leases.
                log.error("the lease sweep failed (%s): leases dropped", type(exc).__name__)
                for code in list(self.held):
                    self.held.discard(code)
                    on_lost(code)
            except Exception:
                log.exception("the lease sweep failed")
            await asyncio.sleep(pause)
