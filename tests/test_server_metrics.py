"""Prometheus metrics, health and readiness (server/metrics.py, the app's /metrics,
/healthz and /readyz) on a real SQLite store."""

from __future__ import annotations

import re
import time
from pathlib import Path

from server_support import bearer, client, plain_move, sqlite_url


def _value(text: str, name: str) -> float:
    found = re.search(rf"^{name} ([0-9.e+]+)$", text, re.MULTILINE)
    assert found is not None, f"{name} is not in the metrics"
    return float(found.group(1))


def test_metrics_count_actions_their_latency_bot_decisions_tables_and_sockets(
    tmp_path: Path,
) -> None:
    with client(sqlite_url(tmp_path)) as api:
        assert api.get("/healthz").json()["ok"] is True
        assert api.get("/readyz").json() == {"ready": True, "database": True}
        before = api.get("/metrics").text
        assert _value(before, "rummykit_actions_total") == 0
        made = api.post(
            "/api/tables",
            json={
                "variant": "remi_ro",
                "players": 2,
                "options": {"match_deals": 1},
                "bots": [{"seat": 1, "bot": "greedy"}],
                "name": "Ana",
            },
        ).json()
        code, token = made["code"], made["token"]
        played = 0
        for n in range(6):
            state = api.get(f"/api/tables/{code}/state", headers=bearer(token)).json()
            if not state["legal"]:
                break
            r = api.post(
                f"/api/tables/{code}/action", json=plain_move(state, f"a{n}"), headers=bearer(token)
            )
            assert r.status_code == 200, r.text
            played += 1
        # Nobody connected: after the grace period the stand-in plays the seat to the end.
        for _ in range(2000):
            if api.get(f"/api/tables/{code}").json()["status"] == "finished":
                break
            time.sleep(0.01)
        with api.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"v": 1, "type": "hello", "token": None})
            ws.receive_json()
            text = api.get("/metrics").text
        assert played >= 1
        assert _value(text, "rummykit_action_seconds_count") == played
        stored = api.get(f"/api/tables/{code}").json()["event_id"]
        assert _value(text, "rummykit_actions_total") == stored  # players' and bots'
        bots = stored - played
        assert bots > 0 and _value(text, "rummykit_bot_decision_seconds_count") == bots
        assert _value(text, "rummykit_tables") == 1
        assert _value(text, "rummykit_sockets") == 1
