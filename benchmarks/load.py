"""Load benchmark of ``rummykit serve``: a swarm of bot clients on real WebSockets.

Starts a server (a fresh SQLite file unless ``--database-url`` is given), creates
``--tables`` four-seat tables whose every seat is a client connection, and plays
them until they finish or ``--duration`` runs out.  Each client answers its own
state frames after ``--think`` seconds with a legal action; the latency measured
is action-to-broadcast: from sending an action to receiving the state frame that
carries it.  A second phase (``--saturate``) plays with no thinking time and
reports the throughput in validated, stored actions per second.

    python benchmarks/load.py                     # small: 20 tables, 80 connections
    python benchmarks/load.py --tables 500        # the target: 2,000 connections
    python benchmarks/load.py --tables 500 --processes 4   # 4 processes, PostgreSQL + Redis

With ``--processes N`` (N ≥ 1 with ``--redis-url``; N > 1 needs it) N server
processes share one PostgreSQL schema (a fresh one in ``--pg``) and one Redis; the
four seats of a table connect to different processes, so every action crosses
processes.  Then the table also shows, per stored action, the database rows written
(``pg_stat_user_tables``) and the Redis messages published (``/metrics``).

Prints one table: connections, actions, errors, p50/p99/max latency, actions/s,
and the servers' peak memory (VmHWM, summed).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import websockets

T = TypeVar("T")

SERVE = [sys.executable, "-c", "from rummykit.cli.main import main; main()", "serve"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Stats:
    """What the swarm saw."""

    latencies: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    """Latencies of each table's first move (sent one think time after the clock
    started): with ``--spread 0``, the wave of every table moving at once."""
    later: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    connections: int = 0
    connect_s: float = 0.0


class Clock:
    """The play clock: it starts once every socket has connected (connecting 2,000
    sockets takes seconds, and a window that ran meanwhile would measure the handshakes),
    so with ``--spread 0`` every table's first move arrives in one true wave."""

    def __init__(self, sockets: int, duration: float, stats: Stats) -> None:
        self.sockets = sockets
        self.duration = duration
        self.stats = stats
        self.go = asyncio.Event()
        self.stop_at = 0.0
        self.started = 0.0
        self.perf_started = 0.0

    def connected(self) -> None:
        self.stats.connections += 1
        if self.stats.connections == self.sockets:
            self.start()

    def start(self) -> None:
        if not self.go.is_set():
            self.started = time.monotonic()
            self.perf_started = time.perf_counter()
            self.stop_at = self.started + self.duration
            self.go.set()


def _run(coro: Coroutine[Any, Any, T]) -> T:
    """Run the swarm on uvloop when it is there (uvicorn's standard extra brings it):
    the client should cost the shared machine as little as it can."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coro)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _seat(
    base: str,
    code: str,
    seat: int,
    token: str,
    think: tuple[float, float],
    stats: Stats,
    clock: Clock,
    rng: random.Random,
) -> None:
    n = 0
    pending: tuple[int, float] | None = None
    try:
        async with websockets.connect(f"{base}/ws/{code}", max_size=2**22, open_timeout=120) as ws:
            # The token goes in the first frame, never in the URL (the access log).
            await ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
            clock.connected()
            await clock.go.wait()
            stop_at = clock.stop_at
            while time.monotonic() < stop_at:
                try:
                    text = await asyncio.wait_for(
                        ws.recv(), timeout=max(0.1, stop_at - time.monotonic())
                    )
                except TimeoutError:
                    break
                # The swarm shares the machine with the servers: a seat that is not to
                # move and waits for no acknowledgement skips parsing the frame.
                if (
                    pending is None
                    and '"legal":null' in text
                    and '"type":"state"' in text
                    and '"match_end"' not in text
                ):
                    continue
                data = json.loads(text)
                kind = data["type"]
                if kind == "error":
                    if data["code"] != "stale_state":
                        stats.errors += 1
                    stats.error_codes[data["code"]] = stats.error_codes.get(data["code"], 0) + 1
                    pending = None
                    continue
                if kind != "state":
                    continue
                if pending is not None and data["event_id"] >= pending[0]:
                    latency = time.perf_counter() - pending[1]
                    stats.latencies.append(latency)
                    if n == 1 and pending[1] - clock.perf_started <= think[1] + 0.5:
                        stats.first.append(latency)
                    else:
                        stats.later.append(latency)
                    stats.actions += 1
                    pending = None
                if data["view"]["phase"] == "match_end":
                    stats.finished += 1
                    return
                legal = data.get("legal")
                if not legal or pending is not None:
                    continue
                if think[1]:
                    await asyncio.sleep(rng.uniform(*think))
                action = legal[-1] if data["view"]["phase"] == "preplay" else legal[0]
                n += 1
                pending = (data["state_id"] + 1, time.perf_counter())
                await ws.send(
                    json.dumps(
                        {
                            "v": 1,
                            "type": "action",
                            "action_id": f"{code}-{seat}-{n}",
                            "state_id": data["state_id"],
                            "action": action,
                        }
                    )
                )
    except (OSError, websockets.exceptions.WebSocketException):
        stats.errors += 1
        stats.error_codes["connection"] = stats.error_codes.get("connection", 0) + 1


async def _create_tables(bases: list[str], tables: int) -> list[tuple[str, list[str]]]:
    """Tables created and joined through every process in turn (16 at a time)."""
    clients = [httpx.AsyncClient(base_url=b.replace("ws://", "http://"), timeout=60) for b in bases]

    async def one(i: int) -> tuple[str, list[str]]:
        http = clients[i % len(clients)]
        made = (
            await http.post(
                "/api/tables",
                json={"variant": "remi_ro", "players": 4, "options": {"match_deals": 1}},
            )
        ).json()
        tokens = [made["token"]]
        for k in range(3):
            other = clients[(i + k + 1) % len(clients)]
            joined = (await other.post(f"/api/tables/{made['code']}/join", json={})).json()
            tokens.append(joined["token"])
        return made["code"], tokens

    out: list[tuple[str, list[str]]] = []
    try:
        for start in range(0, tables, 16):
            out += await asyncio.gather(*(one(i) for i in range(start, min(tables, start + 16))))
    finally:
        for c in clients:
            await c.aclose()
    return out


async def _phase(
    bases: list[str], tables: int, think: tuple[float, float], duration: float, seed: int
) -> tuple[Stats, float]:
    made = await _create_tables(bases, tables)
    stats = Stats()
    rng = random.Random(seed)
    clock = Clock(4 * len(made), duration, stats)
    # Seat s of table t talks to process (t + s) mod N: a table's players are spread.
    seats = asyncio.gather(
        *(
            _seat(bases[(t + seat) % len(bases)], code, seat, token, think, stats, clock, rng)
            for t, (code, tokens) in enumerate(made)
            for seat, token in enumerate(tokens)
        )
    )
    # A socket that fails to connect must not hold the clock forever.
    connecting = time.monotonic()
    while not clock.go.is_set() and time.monotonic() - connecting < 120:
        if stats.errors:
            break
        await asyncio.sleep(0.05)
    clock.start()
    stats.connect_s = time.monotonic() - connecting
    await seats
    return stats, time.monotonic() - clock.started


def _pg_rows(url: str) -> int:
    """Rows inserted and updated so far in the schema of ``url`` (PostgreSQL)."""
    import sqlalchemy as sa

    from rummykit.server.store import normalize_url

    engine = sa.create_engine(normalize_url(url))
    with engine.connect() as conn:
        rows = conn.execute(
            sa.text(
                "select coalesce(sum(n_tup_ins + n_tup_upd), 0) from pg_stat_user_tables "
                "where schemaname = current_schema()"
            )
        ).scalar_one()
    engine.dispose()
    return int(rows)


def _scrape(bases: list[str], name: str) -> float:
    """The sum of metric ``name`` over every process."""
    total = 0.0
    for base in bases:
        text = httpx.get(base.replace("ws://", "http://") + "/metrics", timeout=30).text
        for line in text.splitlines():
            if line.startswith(name + " "):
                total += float(line.split()[1])
    return total


def _fresh_schema(pg: str) -> str:
    import uuid

    import sqlalchemy as sa

    from rummykit.server.store import normalize_url

    schema = "rk_load_" + uuid.uuid4().hex[:10]
    engine = sa.create_engine(normalize_url(pg))
    with engine.begin() as conn:
        conn.execute(sa.text(f"create schema {schema}"))
    engine.dispose()
    return f"{pg}{'&' if '?' in pg else '?'}options=-csearch_path%3D{schema}"


def _hwm(pid: int) -> float:
    """Peak resident memory of ``pid`` in MiB (Linux)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=20, help="four-seat tables (default 20)")
    parser.add_argument(
        "--think", type=float, default=1.0, help="seconds a client thinks (default 1)"
    )
    parser.add_argument(
        "--spread",
        type=float,
        default=0.5,
        help="thinking times are uniform in think × (1 ± spread) (default 0.5; 0: every "
        "client thinks exactly --think seconds, so all tables move in lockstep)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the thinking times")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of play (default 30)")
    parser.add_argument(
        "--saturate", type=float, default=10.0, help="seconds of no-think play (0: skip)"
    )
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes (>1 needs --redis-url)"
    )
    parser.add_argument("--redis-url", default=None, help="Redis for many processes")
    parser.add_argument(
        "--pg",
        default="postgresql://postgres@127.0.0.1:5432/test",
        help="PostgreSQL server for --redis-url runs (a fresh schema is made in it)",
    )
    args = parser.parse_args()
    # The swarm holds 2,000 sockets' state: default collector thresholds would pause it
    # for hundreds of ms at a time (tuned as the servers tune theirs).
    from rummykit.server.config import GC_THRESHOLDS

    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    if not 0 <= args.spread <= 1:
        parser.error("--spread must be between 0 and 1")
    if args.processes > 1 and args.redis_url is None:
        parser.error("--processes above 1 needs --redis-url")

    folder = Path(tempfile.mkdtemp(prefix="rummykit-load-"))
    if args.redis_url is not None:
        url = args.database_url or _fresh_schema(args.pg)
    else:
        url = args.database_url or f"sqlite:///{folder / 'load.db'}"
    shared = []
    if args.redis_url is not None:
        prefix = "rkload" + str(os.getpid())
        shared = ["--redis-url", args.redis_url, "--redis-prefix", prefix]
    ports = [_free_port() for _ in range(args.processes)]
    log = (folder / "server.log").open("wb")
    # One address creates every table: no rate limits, no expiry.
    unlimited = ["--limit-create", "off", "--limit-join", "off", "--limit-lookup", "off"]
    servers = [
        subprocess.Popen(
            [
                *SERVE,
                "--port",
                str(port),
                "--database-url",
                url,
                "--bot-delay",
                "0",
                "--grace",
                "600",
                *unlimited,
                "--expire-open",
                "0",
                *shared,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        for port in ports
    ]
    bases = [f"ws://127.0.0.1:{port}" for port in ports]
    per_action: list[str] = []
    try:
        for port in ports:
            end = time.monotonic() + 60
            while time.monotonic() < end:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/variants").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
        rows: list[tuple[str, Stats, float]] = []
        think = (args.think * (1 - args.spread), args.think * (1 + args.spread))
        stats, elapsed = _run(_phase(bases, args.tables, think, args.duration, args.seed))
        rows.append((f"think {args.think:g}±{args.spread * args.think:g}s", stats, elapsed))
        if args.saturate > 0:
            if shared:
                time.sleep(1.5)  # the statistics collector catches up
                rows0 = _pg_rows(url)
                acts0 = _scrape(bases, "rummykit_actions_total")
                pub0 = _scrape(bases, "rummykit_redis_published")
            stats, elapsed = _run(_phase(bases, args.tables, (0.0, 0.0), args.saturate, args.seed))
            rows.append(("saturate", stats, elapsed))
            if shared:
                time.sleep(1.5)
                acts = max(1.0, _scrape(bases, "rummykit_actions_total") - acts0)
                rows_written = _pg_rows(url) - rows0
                published = _scrape(bases, "rummykit_redis_published") - pub0
                per_action.append(
                    f"saturate phase, per stored action: {rows_written / acts:.2f} database rows "
                    f"written (insert+update, incl. table set-up), {published / acts:.2f} "
                    f"Redis messages published ({acts:.0f} actions)"
                )
        peak = sum(_hwm(s.pid) for s in servers)
    finally:
        for server in servers:
            server.send_signal(signal.SIGINT)
        for server in servers:
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
        log.close()

    header = (
        f"{'phase':<14} {'tables':>6} {'conns':>6} {'actions':>8} {'errors':>6} "
        f"{'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'act/s':>7} {'done':>5}"
    )
    print(header)
    print("-" * len(header))
    for name, s, elapsed in rows:
        print(
            f"{name:<14} {args.tables:>6} {s.connections:>6} {s.actions:>8} {s.errors:>6} "
            f"{_percentile(s.latencies, 0.5) * 1000:>7.1f} "
            f"{_percentile(s.latencies, 0.99) * 1000:>7.1f} "
            f"{max(s.latencies, default=float('nan')) * 1000:>7.1f} "
            f"{s.actions / elapsed:>7.0f} {s.finished // 4:>5}"
        )
        if s.error_codes:
            print(f"{'':<14} error frames: {s.error_codes}")
        print(f"{'':<14} {s.connections} sockets connected in {s.connect_s:.1f} s before play")
        if s.first:
            print(
                f"{'':<14} first wave ({len(s.first)} tables' first moves): "
                f"p50 {_percentile(s.first, 0.5) * 1000:.1f} ms, "
                f"p99 {_percentile(s.first, 0.99) * 1000:.1f} ms; after it: p99 "
                f"{_percentile(s.later, 0.99) * 1000:.1f} ms"
            )
    for line in per_action:
        print(line)
    shown = url.split("?")[0]
    print(f"{args.processes} process(es); peak memory (VmHWM, summed): {peak:.0f} MiB; {shown}")


if __name__ == "__main__":
    main()
