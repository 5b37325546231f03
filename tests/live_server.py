"""A real ``rummykit serve`` process on a free loopback port, for the tests that need
sockets, a crash (SIGKILL) or a restart."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """``rummykit serve`` in a subprocess: start, SIGKILL, restart."""

    def __init__(
        self,
        database_url: str,
        log: Path,
        *,
        bot_delay: float = 0.0,
        grace: float = 0.3,
        extra: tuple[str, ...] = (),
    ):
        self.url = database_url
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log = log
        self.args = ["--database-url", database_url, "--bot-delay", str(bot_delay)]
        self.args += ["--grace", str(grace), *extra]
        self.proc: subprocess.Popen[bytes] | None = None
        # uvicorn closes a connection idle for 5 s, httpx keeps one for 5 s: a request
        # sent on it at that moment gets "Server disconnected" (a red CI run). Drop idle
        # connections well before the server does.
        self.http = httpx.Client(
            base_url=self.base, timeout=10, limits=httpx.Limits(keepalive_expiry=1.0)
        )

    def start(self) -> None:
        """Start the server and wait until it answers."""
        self.launch()
        self.wait()

    def launch(self) -> None:
        """Start the server process (:meth:`wait` until it answers)."""
        code = "from rummykit.cli.main import main; main()"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", code, "serve", "--port", str(self.port), *self.args],
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )

    def wait(self) -> None:
        """Wait until the launched server answers."""
        assert self.proc is not None
        # Generous: on a loaded CI machine importing the server alone takes seconds.
        end = time.monotonic() + 90
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if self.http.get("/api/variants").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("the server did not start in 90 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        """Terminate (if running) and release the client."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.http.close()

    def post(self, path: str, token: str | None = None, **body: Any) -> httpx.Response:
        """POST JSON (with a seat token: in the ``Authorization`` header)."""
        return self._request("POST", path, json=body, headers=_bearer(token))

    def get(self, path: str, token: str | None = None) -> Any:
        """GET JSON (with a seat token: in the ``Authorization`` header)."""
        return self._request("GET", path, headers=_bearer(token)).json()

    def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            return self.http.request(method, path, **kwargs)
        except httpx.TransportError as exc:
            # Say whether the server died, with its last words: a bare "Server
            # disconnected" cannot tell a crash from a dropped connection.
            alive = self.proc is not None and self.proc.poll() is None
            tail = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            state = "running" if alive else f"exited ({self.proc and self.proc.returncode})"
            message = f"{method} {path}: {exc}; server {state}; log tail:\n{tail}"
            raise RuntimeError(message) from exc

    def socket(self, code: str, token: str | None = None) -> ClientConnection:
        """A WebSocket to table ``code`` past its ``hello`` frame (no token: a spectator)."""
        ws = connect(f"{self.ws_base}/ws/{code}")
        ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
        return ws


def _bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}
