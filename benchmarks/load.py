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

Prints one table: connections, actions, errors, p50/p99/max latency, actions/s,
and the server's peak memory (VmHWM).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

SERVE = [sys.executable, "-c", "from rummykit.cli.main import main; main()", "serve"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Stats:
    """What the swarm saw."""

    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    connections: int = 0


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
    stop_at: float,
    rng: random.Random,
) -> None:
    n = 0
    pending: tuple[int, float] | None = None
    try:
        async with websockets.connect(f"{base}/ws/{code}", max_size=2**22, open_timeout=60) as ws:
            # The token goes in the first frame, never in the URL (the access log).
            await ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
            stats.connections += 1
            while time.monotonic() < stop_at:
                try:
                    text = await asyncio.wait_for(
                        ws.recv(), timeout=max(0.1, stop_at - time.monotonic())
                    )
                except TimeoutError:
                    break
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
                    stats.latencies.append(time.perf_counter() - pending[1])
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


async def _create_tables(http: httpx.AsyncClient, tables: int) -> list[tuple[str, list[str]]]:
    out = []
    for _ in range(tables):
        made = (
            await http.post(
                "/api/tables",
                json={"variant": "remi_ro", "players": 4, "options": {"match_deals": 1}},
            )
        ).json()
        tokens = [made["token"]]
        for _ in range(3):
            joined = (await http.post(f"/api/tables/{made['code']}/join", json={})).json()
            tokens.append(joined["token"])
        out.append((made["code"], tokens))
    return out


async def _phase(
    base: str, tables: int, think: tuple[float, float], duration: float, seed: int
) -> tuple[Stats, float]:
    http_base = base.replace("ws://", "http://")
    async with httpx.AsyncClient(base_url=http_base, timeout=60) as http:
        made = await _create_tables(http, tables)
    stats = Stats()
    rng = random.Random(seed)
    start = time.monotonic()
    stop_at = start + duration
    await asyncio.gather(
        *(
            _seat(base, code, seat, token, think, stats, stop_at, rng)
            for code, tokens in made
            for seat, token in enumerate(tokens)
        )
    )
    return stats, time.monotonic() - start


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
    args = parser.parse_args()
    if not 0 <= args.spread <= 1:
        parser.error("--spread must be between 0 and 1")

    folder = Path(tempfile.mkdtemp(prefix="rummykit-load-"))
    url = args.database_url or f"sqlite:///{folder / 'load.db'}"
    port = _free_port()
    log = (folder / "server.log").open("wb")
    options = ["--port", str(port), "--database-url", url, "--bot-delay", "0", "--grace", "600"]
    # One address creates every table: no rate limits, no expiry.
    unlimited = ["--limit-create", "off", "--limit-join", "off", "--limit-lookup", "off"]
    server = subprocess.Popen(
        [*SERVE, *options, *unlimited, "--expire-open", "0"],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/variants").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        base = f"ws://127.0.0.1:{port}"
        rows: list[tuple[str, Stats, float]] = []
        think = (args.think * (1 - args.spread), args.think * (1 + args.spread))
        stats, elapsed = asyncio.run(_phase(base, args.tables, think, args.duration, args.seed))
        rows.append((f"think {args.think:g}±{args.spread * args.think:g}s", stats, elapsed))
        if args.saturate > 0:
            stats, elapsed = asyncio.run(
                _phase(base, args.tables, (0.0, 0.0), args.saturate, args.seed)
            )
            rows.append(("saturate", stats, elapsed))
        peak = _hwm(server.pid)
    finally:
        server.send_signal(signal.SIGINT)
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
    print(f"server peak memory (VmHWM): {peak:.0f} MiB; database: {url}")


if __name__ == "__main__":
    main()
