"""Settings from the environment, JSON logs without secrets, the one-process guard
(server/config.py)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from live_server import LiveServer
from rummykit.server.app import RedactTokens
from rummykit.server.config import (
    ENV,
    DatabaseBusyError,
    JsonFormatter,
    ServeConfig,
    claim_database,
)
from server_support import sqlite_url


def test_settings_go_to_worker_processes_through_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = ServeConfig(
        database_url="postgresql://u@h/db",
        redis_url="redis://h:6379/1",
        redis_prefix="site",
        lease_ms=1500,
        bot_delay=0.1,
        grace=5.0,
        limit_create=None,
        limit_join="5/minute",
        limit_lookup="7/hour",
        expire_open=60.0,
    )
    for name in ENV.values():
        monkeypatch.delenv(name, raising=False)
    for name, value in config.to_env().items():
        monkeypatch.setenv(name, value)
    assert ServeConfig.from_env() == config
    assert set(config.to_env()) <= set(ENV.values())


def test_a_json_log_line_is_one_object_without_the_token() -> None:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s "GET %s"',
        ("1.2.3.4", "/x?token=SECRET1"),
        None,
    )
    assert RedactTokens().filter(record)
    line = JsonFormatter().format(record)
    out = json.loads(line)
    assert out["level"] == "info" and out["logger"] == "uvicorn.access"
    assert out["message"] == '1.2.3.4 "GET /x?token=[redacted]"'
    assert "SECRET1" not in line


def test_one_lock_per_sqlite_file(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    held = claim_database(url)
    with pytest.raises(DatabaseBusyError, match="another rummykit server is using"):
        claim_database(url)
    held.close()
    claim_database(url).close()  # free again


def test_the_server_logs_json_lines_and_no_token(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = LiveServer(sqlite_url(tmp_path), log, extra=("--log-format", "json"))
    try:
        server.start()
        made = server.post("/api/tables", variant="remi_ro", players=2, name="Ana").json()
        token = made["token"]
        assert server.http.get(f"/api/tables/{made['code']}/state?token={token}").is_error
    finally:
        server.stop()
    lines = [x for x in log.read_text().splitlines() if x.strip()]
    logged = [json.loads(x) for x in lines if not x.startswith("rummykit server on")]
    assert any("/api/tables" in entry["message"] for entry in logged)
    assert any("token=[redacted]" in entry["message"] for entry in logged)
    assert token not in log.read_text()


@pytest.mark.parametrize("asked", [False, True])
def test_frames_are_compressed_only_when_asked(tmp_path: Path, asked: bool) -> None:
    """``--ws-compression`` turns permessage-deflate on; by default the handshake
    declines it (compressing every frame for every socket costs the server CPU)."""
    from websockets.sync.client import connect

    extra = ("--ws-compression",) if asked else ()
    server = LiveServer(sqlite_url(tmp_path), tmp_path / "server.log", extra=extra)
    try:
        server.start()
        code = server.post("/api/tables", variant="remi_ro", players=2, name="Ana").json()["code"]
        with connect(f"{server.ws_base}/ws/{code}") as ws:  # offers permessage-deflate
            assert ws.response is not None
            agreed = ws.response.headers.get("Sec-WebSocket-Extensions") or ""
    finally:
        server.stop()
    assert ("permessage-deflate" in agreed) is asked


def test_a_server_process_freezes_start_up_and_collects_young_objects_less_often() -> None:
    """``tune_gc`` (run by ``serve`` and by every worker) keeps the collector's full
    passes, which stop every table at once, away from the heap start-up made.  Checked in
    a fresh interpreter: tuning the collector of the test process would change every
    other test."""
    import subprocess
    import sys

    code = (
        "import gc; from rummykit.server.config import GC_THRESHOLDS, tune_gc; "
        "before = gc.get_threshold(); tune_gc(); "
        "print(before != GC_THRESHOLDS, gc.get_threshold() == GC_THRESHOLDS, "
        "gc.get_freeze_count() > 10_000)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["True", "True", "True"]
