"""Many ``rummykit serve`` processes on one PostgreSQL database and one Redis (issue 15):
server/cluster.py, with the row locks of server/store.py and the catch-up of
server/tables.py.

Real processes, real services: three servers share a fresh PostgreSQL schema and a
Redis key prefix of their own (tests in parallel do not meet).  Without PostgreSQL
or Redis the tests skip with the reason; in CI (CI=true) they fail instead.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from live_server import LiveServer, free_port
from rummykit.server.store import Store
from server_support import drawing_move, fresh_pg_url, plain_move, require_redis, sqlite_url

LEASE_MS = 900
"""Short leases: a dead holder's tables are taken over within about a second."""


def _cluster_args(redis_url: str, prefix: str) -> tuple[str, ...]:
    return (
        "--redis-url",
        redis_url,
        "--redis-prefix",
        prefix,
        "--lease-ms",
        str(LEASE_MS),
        "--limit-create",
        "off",
        "--limit-join",
        "off",
        "--limit-lookup",
        "off",
    )


class Cluster:
    """Three server processes on one fresh schema and one Redis prefix."""

    def __init__(self, tmp_path: Path, grace: float = 30.0) -> None:
        self.redis_url = require_redis()
        self.url = fresh_pg_url()
        self.prefix = "rkt" + uuid.uuid4().hex[:10]
        extra = _cluster_args(self.redis_url, self.prefix)
        self.servers = [
            LiveServer(self.url, tmp_path / f"server{i}.log", grace=grace, extra=extra)
            for i in range(3)
        ]
        self.redis = redis.Redis.from_url(self.redis_url)

    def start(self) -> None:
        for server in self.servers:
            server.launch()
        for server in self.servers:
            server.wait()

    def stop(self) -> None:
        for server in self.servers:
            server.stop()
        keys = list(self.redis.scan_iter(f"{self.prefix}:*"))
        if keys:
            self.redis.delete(*keys)
        self.redis.close()

    def holder(self, code: str) -> LiveServer | None:
        """The server that holds table ``code``'s lease now."""
        held: bytes | None = self.redis.get(f"{self.prefix}:lease:{code}")  # type: ignore[assignment]
        for server in self.servers:
            alive = server.proc is not None and server.proc.poll() is None
            if alive and held is not None and server.get("/healthz")["process"] == held.decode():
                return server
        return None

    def logs(self) -> str:
        return "\n".join(s.log.read_text() for s in self.servers if s.log.exists())


def _run(tmp_path: Path) -> Iterator[Cluster]:
    made = Cluster(tmp_path)
    try:
        made.start()
        yield made
    finally:
        made.stop()
    text = made.logs()
    assert "Traceback" not in text, text[text.index("Traceback") :][:3000]


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three processes for the tests that kill none (each plays its own tables)."""
    yield from _run(tmp_path_factory.mktemp("cluster"))


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    """Three processes of the test's own (it kills one)."""
    yield from _run(tmp_path)


class Player(threading.Thread):
    """A player on a WebSocket who plays ``drawing_move`` whenever it is to move, and
    reconnects to the next server of ``servers`` when its server goes away (sending
    again, with the same action id, an action it got no acknowledgement for)."""

    def __init__(self, servers: list[LiveServer], code: str, token: str, name: str) -> None:
        super().__init__(daemon=True)
        self.servers = servers
        self.code = code
        self.token = token
        self.name = name
        self.acked: dict[str, int] = {}
        self.errors: list[dict[str, Any]] = []
        self.reconnects = 0
        self.done = threading.Event()
        self.failure: BaseException | None = None
        self._n = 0

    def run(self) -> None:
        try:
            self._play()
        except BaseException as exc:
            self.failure = exc
        finally:
            self.done.set()

    def _play(self) -> None:
        pending: dict[str, Any] | None = None
        end = time.monotonic() + 90
        while not self.done.is_set() and time.monotonic() < end:
            server = self.servers[0]
            try:
                with connect(f"{server.ws_base}/ws/{self.code}") as ws:
                    ws.send(json.dumps({"v": 1, "type": "hello", "token": self.token}))
                    if pending is not None:  # never acknowledged: send it again
                        ws.send(json.dumps({"v": 1, "type": "action", **pending}))
                    while time.monotonic() < end:
                        got = json.loads(ws.recv(timeout=20))
                        if got["type"] == "ack":
                            self.acked[got["action_id"]] = got["event_id"]
                            if pending is not None and pending["action_id"] == got["action_id"]:
                                pending = None
                        elif got["type"] == "error":
                            self.errors.append(got)
                            if pending is not None and got.get("action_id") == pending["action_id"]:
                                pending = None
                        elif got["type"] == "state":
                            if got["view"]["phase"] in ("deal_end", "match_end"):
                                return
                            if got["legal"] and pending is None:
                                self._n += 1
                                pending = drawing_move(got, f"{self.name}-{self._n}")
                                ws.send(json.dumps({"v": 1, "type": "action", **pending}))
                        elif got["type"] == "table" and got["table"]["status"] == "finished":
                            return
            except (ConnectionClosed, OSError):
                # The server died: the next one serves the same table.
                self.servers = self.servers[1:] + self.servers[:1]
                self.reconnects += 1
                time.sleep(0.1)
        raise AssertionError(f"{self.name}: the deal did not end")


class Spectator(threading.Thread):
    """Records every state frame's event number until the deal ends."""

    def __init__(self, server: LiveServer, code: str) -> None:
        super().__init__(daemon=True)
        self.ws = connect(f"{server.ws_base}/ws/{code}")
        self.ws.send(json.dumps({"v": 1, "type": "hello", "token": None}))
        assert json.loads(self.ws.recv(timeout=10))["type"] == "welcome"
        self.events: list[int] = []

    def run(self) -> None:
        with self.ws:
            end = time.monotonic() + 90
            while time.monotonic() < end:
                try:
                    got = json.loads(self.ws.recv(timeout=20))
                except (TimeoutError, ConnectionClosed):
                    return
                if got["type"] == "state":
                    self.events.append(got["event_id"])
                    if got["view"]["phase"] in ("deal_end", "match_end"):
                        return


def _stored(url: str, code: str) -> tuple[str, list[Any]]:
    store = Store(url)
    try:
        loaded = store.load_table(code)
        assert loaded is not None
        return loaded[0].status, loaded[1]
    finally:
        store.close()


def _check_log(url: str, code: str, players: list[Player]) -> None:
    """Every acknowledged action is stored once, under the number it was acknowledged
    with; the log has no gap and no action id twice."""
    status, events = _stored(url, code)
    assert status == "finished"
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    by_id = {(e.seat, e.action_id): e.seq for e in events if e.action_id is not None}
    ids = [(e.seat, e.action_id) for e in events if e.action_id is not None]
    assert len(ids) == len(set(ids)), "an action was applied twice"
    for seat, player in enumerate(players):
        # A bot can end the deal before a human's first turn (a whole hand laid at
        # once): a player without stored actions then has nothing acknowledged.
        if any(e.seat == seat for e in events):
            assert player.acked, f"{player.name} played"
        for action_id, event_id in player.acked.items():
            assert by_id.get((seat, action_id)) == event_id, f"acknowledged {action_id} lost"


@pytest.mark.parametrize("variant", ["remi_ro", "romme"])
def test_two_players_on_two_processes_play_a_deal_a_spectator_on_a_third_sees_it(
    shared: Cluster, variant: str
) -> None:
    cluster = shared
    a, b, c = cluster.servers
    made = a.post(
        "/api/tables",
        variant=variant,
        players=4,
        options={"match_deals": 1},
        bots=[{"seat": 2, "bot": "greedy"}, {"seat": 3, "bot": "greedy"}],
        name="Ana",
    ).json()
    code = made["code"]
    # The spectator watches from the start, on the third process.
    spectator = Spectator(c, code)
    spectator.start()
    joined = b.post(f"/api/tables/{code}/join", name="Ion")
    assert joined.status_code == 200, joined.text
    assert c.get(f"/api/tables/{code}")["status"] == "playing"  # the third process knows
    players = [
        Player([a, b, c], code, made["token"], "ana"),
        Player([b, c, a], code, joined.json()["token"], "ion"),
    ]
    for p in players:
        p.start()
    for p in players:
        p.join(100)
        assert p.failure is None, p.failure
        assert not p.errors, p.errors
    spectator.join(30)
    # Every process sees the same finished table.
    final = {s.get(f"/api/tables/{code}")["event_id"] for s in cluster.servers}
    _, events = _stored(cluster.url, code)
    assert final == {len(events)}
    # The spectator saw every event, in order (a state may be sent again, none skipped).
    seen = spectator.events
    assert seen == sorted(seen) and seen[-1] == len(events)
    assert set(seen) == set(range(seen[0], len(events) + 1)) and seen[0] <= 1
    _check_log(cluster.url, code, players)


def test_a_seat_is_granted_once_and_an_event_number_used_once(shared: Cluster) -> None:
    cluster = shared
    a, b, c = cluster.servers
    made = a.post("/api/tables", variant="remi_ro", players=2, name="Ana").json()
    code = made["code"]
    servers = [a, b, c] * 4

    def join(server: LiveServer) -> httpx.Response:
        with httpx.Client(base_url=server.base, timeout=10) as http:
            return http.post(f"/api/tables/{code}/join", json={"name": "Ion"})

    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(join, servers))
    codes = sorted(r.status_code for r in answers)
    assert codes.count(200) == 1 and all(x == 409 for x in codes if x != 200), codes
    tokens = {0: made["token"], 1: next(r for r in answers if r.status_code == 200).json()["token"]}
    # The seat to move sends its action through all three processes at once, each
    # with its own id: one is stored, the others are stale.
    seat = next(s for s in (0, 1) if c.get(f"/api/tables/{code}/state", tokens[s])["legal"])
    mine = c.get(f"/api/tables/{code}/state", tokens[seat])
    sends = [(s, f"x{i}") for i, s in enumerate([a, b, c] * 3)]

    def act(item: tuple[LiveServer, str]) -> httpx.Response:
        server, action_id = item
        with httpx.Client(base_url=server.base, timeout=10) as http:
            return http.post(
                f"/api/tables/{code}/action",
                json=plain_move(mine, action_id),
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )

    with ThreadPoolExecutor(9) as pool:
        acted = list(pool.map(act, sends))
    statuses = sorted(r.status_code for r in acted)
    assert statuses.count(200) == 1, [r.json() for r in acted]
    assert all(x == 409 for x in statuses if x != 200), statuses
    refused = {r.json()["code"] for r in acted if r.status_code == 409}
    assert refused <= {"stale_state", "not_your_turn"}, refused
    _, events = _stored(cluster.url, code)
    assert [e.seq for e in events] == [1]
    assert {s.get(f"/api/tables/{code}")["event_id"] for s in cluster.servers} == {1}


def _wait(what: str, check: Any, seconds: float = 15) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out: {what}")


def test_a_killed_process_loses_nothing_and_another_takes_its_tables_over(
    cluster: Cluster,
) -> None:
    a = cluster.servers[0]
    made = a.post(
        "/api/tables",
        variant="remi_ro",
        players=4,
        options={"match_deals": 1},
        bots=[{"seat": 2, "bot": "greedy"}, {"seat": 3, "bot": "greedy"}],
        name="Ana",
    ).json()
    code = made["code"]
    # A table whose only human never moves: its turn timer plays for her.
    idle = a.post(
        "/api/tables",
        variant="remi_ro",
        players=2,
        options={"match_deals": 1},
        bots=[{"seat": 1, "bot": "greedy"}],
        name="Eva",
        turn_timer=1,
    ).json()
    victim = _wait("a lease holder", lambda: cluster.holder(code))
    others = [s for s in cluster.servers if s is not victim]
    joined = others[0].post(f"/api/tables/{code}/join", name="Ion").json()
    players = [
        Player([victim, *others], code, made["token"], "ana"),
        Player([others[0], others[1], victim], code, joined["token"], "ion"),
    ]
    # Between the deal's 12th event and the kill only one request runs: on a loaded
    # machine the bots could otherwise finish the deal first (then no socket is lost).
    idle_holder = _wait("the idle table's lease holder", lambda: cluster.holder(idle["code"]))
    for p in players:
        p.start()
    at_kill = _wait(
        "the deal under way",
        lambda: (t := others[1].get(f"/api/tables/{code}"))["event_id"] >= 12 and t,
    )
    victim.kill()
    before = others[1].get(f"/api/tables/{idle['code']}")["event_id"]
    for p in players:
        p.join(100)
        assert p.failure is None, p.failure
        assert not [e for e in p.errors if e["code"] != "stale_state"], p.errors
    assert players[0].reconnects >= 1
    _check_log(cluster.url, code, players)
    assert at_kill["status"] == "playing"
    assert at_kill["event_id"] < len(_stored(cluster.url, code)[1]), "killed mid-deal"
    # The deal ended after the kill, so its bots moved on a live process (only a lease
    # holder runs them; a finished table's lease is let go).  The idle player's turn
    # timer still plays for her on a live process.
    _wait(
        "the turn timer playing on",
        lambda: others[0].get(f"/api/tables/{idle['code']}")["event_id"] > before + 2,
        seconds=20,
    )
    assert idle_holder is not None and cluster.holder(idle["code"]) in others


def _refused(args: list[str], log: Path) -> str:
    """Run ``serve`` with ``args``; it must exit at once with one line of error."""
    code = "from rummykit.cli.main import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", code, "serve", "--port", str(free_port()), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0, done.stdout
    errors = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and errors[0].startswith("Error: "), done.stderr
    return errors[0]


def test_a_second_process_on_one_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    first = LiveServer(url, tmp_path / "first.log")
    try:
        first.start()
        line = _refused(["--database-url", url], tmp_path / "second.log")
        assert "another rummykit server is using" in line and "rk.db" in line
        assert "--redis-url" in _refused(
            ["--database-url", url, "--workers", "2"], tmp_path / "third.log"
        )
        assert first.get("/healthz")["ok"] is True  # the first one serves on
    finally:
        first.stop()
    # Once it is gone, the next one starts.
    again = LiveServer(url, tmp_path / "again.log")
    try:
        again.start()
    finally:
        again.stop()


def test_a_second_process_on_postgresql_without_redis_refuses_to_start(tmp_path: Path) -> None:
    url = fresh_pg_url()
    first = LiveServer(url, tmp_path / "first.log")
    try:
        first.start()
        line = _refused(["--database-url", url], tmp_path / "second.log")
        assert "without Redis" in line and "--redis-url" in line
    finally:
        first.stop()


def test_workers_serve_one_port_from_several_processes(tmp_path: Path) -> None:
    redis_url = require_redis()
    url = fresh_pg_url()
    prefix = "rkt" + uuid.uuid4().hex[:10]
    server = LiveServer(
        url,
        tmp_path / "workers.log",
        extra=(*_cluster_args(redis_url, prefix), "--workers", "2"),
    )
    try:
        server.start()
        seen: set[str] = set()
        for _ in range(200):
            with httpx.Client(base_url=server.base, timeout=10) as fresh:
                seen.add(fresh.get("/healthz").json()["process"])
            if len(seen) == 2:
                break
        assert len(seen) == 2, "both workers answer"
        ready = server.http.get("/readyz")
        assert ready.status_code == 200 and ready.json() == {
            "ready": True,
            "database": True,
            "redis": True,
        }
    finally:
        server.stop()
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(f"{prefix}:*"))
        if keys:
            client.delete(*keys)
        client.close()


def _next_of(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(200):
        got: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if got["type"] == kind:
            return got
    raise AssertionError(f"no {kind} frame")


def test_chat_reaches_every_process(shared: Cluster) -> None:
    # Issue 13 §5: a chat line said on one process reaches the sockets of the others,
    # spectators included.
    a, b, c = shared.servers
    made = a.post("/api/tables", variant="basic", players=2, name="Ana").json()
    code = made["code"]
    joined = b.post(f"/api/tables/{code}/join", name="Ion").json()
    with (
        connect(f"{a.ws_base}/ws/{code}") as ana,
        connect(f"{b.ws_base}/ws/{code}") as ion,
        connect(f"{c.ws_base}/ws/{code}") as watcher,
    ):
        for ws, token in ((ana, made["token"]), (ion, joined["token"]), (watcher, None)):
            ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
            _next_of(ws, "welcome")
        ana.send(json.dumps({"v": 1, "type": "chat", "text": "<i>salut</i>"}))
        for ws in (ana, ion, watcher):
            line = _next_of(ws, "chat")["lines"][0]
            assert (line["seat"], line["name"], line["text"]) == (0, "Ana", "<i>salut</i>")
        ion.send(json.dumps({"v": 1, "type": "chat", "phrase": "thanks"}))
        assert _next_of(watcher, "chat")["lines"][0]["phrase"] == "thanks"
    # A socket connecting to a third process later reads both lines from the store.
    with connect(f"{c.ws_base}/ws/{code}") as late:
        late.send(json.dumps({"v": 1, "type": "hello", "token": None}))
        lines = _next_of(late, "chat")["lines"]
        assert [(x["seq"], x["seat"]) for x in lines] == [(1, 0), (2, 1)]
