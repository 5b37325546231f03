"""The HTTP API and the table WebSocket (server/app.py, server/hub.py) on SQLite."""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from live_server import LiveServer
from rummykit.engine.record import replay
from server_support import bearer, client, frame, plain_move, seat_socket, sqlite_url, until
from test_server_frames import pieces_named


@pytest.fixture
def api(tmp_path: Path) -> Any:
    with client(sqlite_url(tmp_path)) as c:
        yield c


def create(api: Any, **body: Any) -> dict[str, Any]:
    r = api.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_finished(api: Any, code: str, seconds: float = 30) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        info: dict[str, Any] = api.get(f"/api/tables/{code}").json()
        if info["status"] == "finished":
            return info
        time.sleep(0.02)
    raise AssertionError(f"table {code} did not finish")


def test_variants_list_every_variant_with_players_and_options(api: Any) -> None:
    data = api.get("/api/variants").json()
    ids = {v["id"] for v in data}
    assert {"remi_ro", "romme", "continental"} <= ids
    remi = next(v for v in data if v["id"] == "remi_ro")
    assert remi["players"]["min"] >= 2 and remi["options"]
    assert all("default" in o and "help" in o for o in remi["options"])
    assert api.get("/openapi.json").json()["paths"]["/api/tables"]


def test_pages_are_served(api: Any) -> None:
    assert api.get("/").headers["content-type"].startswith("text/html")
    assert api.get("/t/ABCDEF").status_code == 200


def test_bad_options_are_refused_and_create_nothing(api: Any) -> None:
    r = api.post("/api/tables", json={"variant": "remi_ro", "options": {"no_such": 1}})
    assert r.status_code == 400 and r.json()["code"] == "bad_options"
    r = api.post("/api/tables", json={"variant": "nope"})
    assert r.json()["code"] == "bad_options"
    assert api.get("/api/tables").json() == []


def test_a_bot_seat_takes_the_experts_level(api: Any) -> None:
    made = create(
        api, variant="romme", players=3, bots=[{"seat": 2, "bot": "expert", "level": "hard"}]
    )
    seat = api.get(f"/api/tables/{made['code']}").json()["seats"][2]
    assert seat["kind"] == "bot" and seat["bot"] == "hard"
    for bad in ({"bot": "greedy", "level": "hard"}, {"bot": "expert", "level": "godlike"}):
        r = api.post("/api/tables", json={"variant": "romme", "bots": [{"seat": 1, **bad}]})
        assert r.status_code == 400 and r.json()["code"] == "bad_options", r.json()
    assert [t["code"] for t in api.get("/api/tables").json()] == [made["code"]]


def test_create_join_and_the_open_table_list(api: Any) -> None:
    made = create(
        api, variant="remi_ro", players=3, name="Ana", bots=[{"seat": 2, "bot": "random"}]
    )
    assert made["seat"] == 0 and made["token"] and made["invite_url"].endswith(f"/t/{made['code']}")
    listed = api.get("/api/tables").json()
    assert [t["code"] for t in listed] == [made["code"]]
    assert [s["kind"] for s in listed[0]["seats"]] == ["human", "open", "bot"]
    r = api.post(f"/api/tables/{made['code']}/join", json={"name": "Ion", "seat": 0})
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    joined = api.post(f"/api/tables/{made['code']}/join", json={"name": "Ion"}).json()
    assert joined["seat"] == 1 and joined["token"] != made["token"]
    assert api.get("/api/tables").json() == []  # full: the game started
    assert api.get(f"/api/tables/{made['code']}").json()["status"] == "playing"
    r = api.post(f"/api/tables/{made['code']}/join", json={"name": "Late"})
    assert r.json()["code"] == "table_full"
    assert api.get("/api/tables/NOSUCH").status_code == 404


def test_meldcheck_counts_opening_points(api: Any) -> None:
    got = api.post("/api/meldcheck", json={"variant": "remi_ro", "pieces": ["R12", "R13", "J"]})
    assert got.json() == {"valid": True, "kind": "run", "opening_points": 30, "reason": None}
    bad = api.post("/api/meldcheck", json={"variant": "remi_ro", "pieces": ["Z9"]})
    assert bad.status_code == 400


def test_meldcheck_refuses_a_piece_outside_the_pack(api: Any) -> None:
    """RULES §3.1: Basic Rummy has no jokers; Rommé has them unless jokers_per_deck = 0."""
    bad = api.post("/api/meldcheck", json={"variant": "basic", "pieces": ["5H", "6H", "JK"]})
    assert bad.status_code == 400
    assert "JK" in bad.text
    assert "§3.1" in bad.text
    body = {"variant": "romme", "pieces": ["5H", "6H", "JK"]}
    assert api.post("/api/meldcheck", json=body).json()["valid"] is True
    none = api.post("/api/meldcheck", json={**body, "options": {"jokers_per_deck": 0}})
    assert none.status_code == 400
    assert "§8.1" in none.text


def _two_seat_table(api: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    a = create(api, variant="basic", players=2, name="A", options={"match_deals": 1})
    b = api.post(f"/api/tables/{a['code']}/join", json={"name": "B"}).json()
    return a, b


def test_every_rejected_frame_has_its_code_and_changes_nothing(api: Any) -> None:
    a, b = _two_seat_table(api)
    code = a["code"]
    with (
        seat_socket(api, code, a["token"]) as wa,
        seat_socket(api, code, b["token"]) as wb,
    ):
        welcome = until(wa, "welcome")
        assert welcome["seat"] == 0 and welcome["table"]["status"] == "playing"
        state = until(wa, "state")
        mover, other = (wa, wb) if state["view"]["to_move"] == 0 else (wb, wa)
        if mover is wb:
            state = until(wb, "state")
        legal = state["legal"]
        before = state["event_id"]

        def rejected(ws: Any, data: str, expect: str) -> None:
            ws.send_text(data)
            err = until(ws, "error")
            assert err["code"] == expect, err
            assert api.get(f"/api/tables/{code}").json()["event_id"] == before

        act = {"type": "action", "action_id": "x1", "state_id": before, "action": legal[0]}
        rejected(other, json.dumps(frame(**act)), "not_your_turn")
        rejected(mover, json.dumps(frame(**{**act, "state_id": before + 5})), "stale_state")
        rejected(mover, json.dumps(frame(**{**act, "action": "fly away"})), "malformed")
        rejected(mover, json.dumps(frame(**{**act, "action": "discard QH"})), "illegal_action")
        rejected(mover, json.dumps({**act, "v": 2}), "unsupported_version")
        rejected(mover, "{not json", "malformed")
        rejected(mover, json.dumps(frame(**act)) + " " * 5000, "too_large")
        # Applied once, however often it is sent.
        mover.send_text(json.dumps(frame(**act)))
        ack = until(mover, "ack")
        mover.send_text(json.dumps(frame(**act)))
        again = until(mover, "ack")
        assert ack["event_id"] == again["event_id"] == before + 1
        assert api.get(f"/api/tables/{code}").json()["event_id"] == before + 1
        # Over HTTP the same checks hold.
        r = api.post(
            f"/api/tables/{code}/action",
            json={"action_id": "y", "state_id": before + 1, "action": "draw"},
            headers=bearer("forged"),
        )
        assert r.status_code == 403 and r.json()["code"] == "bad_token"
    with seat_socket(api, code, "forged") as bad:
        assert bad.receive_json()["code"] == "bad_token"


def test_a_spectator_sees_no_rack_and_cannot_play(api: Any) -> None:
    a, _ = _two_seat_table(api)
    with seat_socket(api, a["code"]) as ws:
        assert until(ws, "welcome")["seat"] is None
        state = until(ws, "state")
        assert state["view"]["seat"] == -1 and state["view"]["rack"] == []
        assert state["legal"] is None
        ws.send_text(json.dumps(frame(type="action", action_id="s", state_id=0, action="draw")))
        assert until(ws, "error")["code"] == "spectator"
        ws.send_text(json.dumps(frame(type="ping")))
        assert until(ws, "pong")["type"] == "pong"


def test_a_human_plays_a_bot_to_the_end_then_record_and_rematch(api: Any) -> None:
    made = create(
        api,
        variant="remi_ro",
        players=2,
        name="Ana",
        bots=[{"seat": 1, "bot": "greedy"}],
        options={"match_deals": 1},
    )
    code = made["code"]
    with seat_socket(api, code, made["token"]) as ws:
        n = 0
        while True:
            state = until(ws, "state")
            if state["view"]["phase"] == "match_end":
                assert state["hands"] is not None and len(state["hands"]) == 2
                break
            if state["legal"]:
                # "ready" before play, then the first legal action: a plain game that
                # ends when the stock runs out.
                pre = state["view"]["phase"] == "preplay"
                choice = state["legal"][-1] if pre else state["legal"][0]
                msg = frame(
                    type="action", action_id=f"a{n}", state_id=state["state_id"], action=choice
                )
                ws.send_text(json.dumps(msg))
                n += 1
    record = api.get(f"/api/tables/{code}/record").json()
    assert record["finished"] and record["seats"][0]["name"] == "Ana"
    assert replay(record).game.is_over
    step = api.get(f"/api/tables/{code}/replay/1").json()
    assert step["step"] == 1 and len(step["views"]) == 2
    assert [g["code"] for g in api.get("/api/games").json()] == [code]
    again = api.post(f"/api/tables/{code}/rematch", headers=bearer(made["token"])).json()
    assert again["code"] != code and again["seat"] == 0
    assert api.get(f"/api/tables/{code}").json()["rematch"] == again["code"]
    # Issue 12 §7: a seat claims its own seat of the rematch, once.
    same = api.post(f"/api/tables/{code}/rematch", headers=bearer(made["token"]))
    assert same.status_code == 409 and same.json()["code"] == "seat_taken"
    assert [s["kind"] for s in api.get(f"/api/tables/{again['code']}").json()["seats"]] == [
        "human",
        "bot",
    ]


def test_record_is_refused_while_playing(api: Any) -> None:
    a, _ = _two_seat_table(api)
    assert api.get(f"/api/tables/{a['code']}/record").json()["code"] == "not_finished"


def test_a_bot_table_plays_itself_and_is_browsable(api: Any) -> None:
    made = create(
        api,
        variant="remi_ro",
        players=2,
        options={"match_deals": 1},
        bots=[{"seat": 0, "bot": "greedy"}, {"seat": 1, "bot": "greedy"}],
    )
    assert made["seat"] is None and made["token"] is None
    wait_finished(api, made["code"])
    assert replay(api.get(f"/api/tables/{made['code']}/record").json()).game.is_over


def test_leave_hands_the_seat_to_a_standin_until_someone_sits(api: Any) -> None:
    a, b = _two_seat_table(api)
    code = a["code"]
    assert api.post(f"/api/tables/{code}/leave", headers=bearer(b["token"])).json() == {"ok": True}
    seat = api.get(f"/api/tables/{code}").json()["seats"][1]
    assert seat["kind"] == "open" and seat["standin"]
    again = api.post(f"/api/tables/{code}/join", json={"name": "C"}).json()
    assert again["seat"] == 1


def test_joining_reading_and_leaving_harvests_nothing_of_the_later_deal(api: Any) -> None:
    # Issue 12 §1: the deal was made at creation and an open seat's state held its rack;
    # a joiner (or the creator) sat, read it, left, and knew the racks later dealt.
    made = create(api, variant="remi_ro", players=3, name="Ana")
    code = made["code"]
    seen: list[str] = []

    def read(token: str | None) -> None:
        r = api.get(f"/api/tables/{code}/state", headers=bearer(token))
        assert r.status_code == 409 and r.json()["code"] == "not_started", r.text
        seen.extend([r.text, api.get(f"/api/tables/{code}").text])

    read(made["token"])
    read(None)
    for harvester in ("Ana again", "Spy"):  # the creator, then anyone with the invite
        spy = api.post(f"/api/tables/{code}/join", json={"name": harvester}).json()
        assert spy["seat"] == 1
        read(spy["token"])
        with seat_socket(api, code, spy["token"]) as ws:
            for ask in ({"type": "resync", "last_event_id": 0}, {"type": "hint"}, {"type": "ping"}):
                ws.send_text(json.dumps(frame(**ask)))
            got = [ws.receive_json()]
            while got[-1]["type"] != "pong":
                got.append(ws.receive_json())
        assert got[0]["type"] == "welcome" and got[0]["table"]["status"] == "open"
        assert all(f["type"] != "state" for f in got), got
        seen.extend(json.dumps(f) for f in got)
        assert api.post(f"/api/tables/{code}/leave", headers=bearer(spy["token"])).json()["ok"]
    late = [api.post(f"/api/tables/{code}/join", json={"name": n}).json() for n in ("Ion", "Eva")]
    racks = [
        api.get(f"/api/tables/{code}/state", headers=bearer(s["token"])).json()["view"]["rack"]
        for s in (made, *late)
    ]
    dealt = {p for rack in racks for p in rack}
    assert len(dealt) > 10
    for text in seen:
        assert not pieces_named(text) & dealt, f"a piece of the later deal was readable: {text}"


def test_a_bad_name_is_refused_with_bad_name(api: Any) -> None:
    made = create(api, variant="remi_ro", players=2, name="Ana")
    r = api.post(f"/api/tables/{made['code']}/join", json={"name": "Ion\u0000"})
    assert r.status_code == 400 and r.json()["code"] == "bad_name"
    info = api.get(f"/api/tables/{made['code']}").json()
    assert info["status"] == "open" and info["seats"][1]["kind"] == "open"
    r = api.post("/api/tables", json={"variant": "remi_ro", "name": "\u001b[2J"})
    assert r.status_code == 400 and r.json()["code"] == "bad_name"
    assert [t["code"] for t in api.get("/api/tables").json()] == [made["code"]]


# ---------------------------------------------------------------- errors that escaped (issue 12 §5)


def _fail_inserts(url: str) -> Any:
    """A real store failure: a trigger makes SQLite refuse every new event."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "CREATE TRIGGER rk_fail BEFORE INSERT ON rk_events "
                "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END"
            )
        )
    return engine


def test_a_store_failure_is_the_documented_internal_error_over_http_and_websocket(
    tmp_path: Path,
) -> None:
    import sqlalchemy as sa

    url = sqlite_url(tmp_path)
    with client(url) as api:
        a, b = _two_seat_table(api)
        code = a["code"]
        state = api.get(f"/api/tables/{code}/state", headers=bearer(a["token"])).json()
        mover = a if state["view"]["to_move"] == 0 else b
        state = api.get(f"/api/tables/{code}/state", headers=bearer(mover["token"])).json()
        before = state["event_id"]
        act = {"action_id": "held", "state_id": before, "action": state["legal"][0]}
        engine = _fail_inserts(url)
        r = api.post(f"/api/tables/{code}/action", json=act, headers=bearer(mover["token"]))
        assert r.status_code == 503, r.text
        assert r.json()["code"] == "internal" and "Retry-After" in r.headers
        assert api.get(f"/api/tables/{code}").json()["event_id"] == before
        with seat_socket(api, code, mover["token"]) as ws:
            until(ws, "state")
            ws.send_text(json.dumps(frame(type="action", **act)))
            assert until(ws, "error")["code"] == "internal"
        assert api.get(f"/api/tables/{code}").json()["event_id"] == before
        with engine.begin() as conn:
            conn.execute(sa.text("DROP TRIGGER rk_fail"))
        engine.dispose()
        # Nothing was applied, so the same action id goes through once the store is back.
        r = api.post(f"/api/tables/{code}/action", json=act, headers=bearer(mover["token"]))
        assert r.status_code == 200 and r.json() == {"event_id": before + 1}


@pytest.mark.parametrize("path", ["/api/games", "/api/tables"])
def test_list_bounds_are_a_clear_4xx_never_a_500(api: Any, path: str) -> None:
    huge = str(2**64)
    for query in (
        f"limit={huge}",
        f"offset={huge}",
        f"limit={2**63}&offset={2**63}",
        "limit=0",
        "limit=-1",
        "offset=-1",
        "limit=x",
    ):
        r = api.get(f"{path}?{query}")
        assert r.status_code == 422, (query, r.status_code, r.text)
    assert api.get(f"{path}?limit=200&offset=0").status_code == 200


def test_the_open_table_list_is_paginated(api: Any) -> None:
    made = [create(api, variant="basic", players=2)["code"] for _ in range(5)]
    newest_first = made[::-1]
    pages = [
        [t["code"] for t in api.get(f"/api/tables?limit=2&offset={o}").json()] for o in (0, 2, 4)
    ]
    assert pages == [newest_first[0:2], newest_first[2:4], newest_first[4:]]
    assert len(api.get("/api/tables").json()) == 5


@pytest.mark.parametrize("depth", [900, 1000, 1500, 2000])
def test_deeply_nested_json_is_malformed_over_websocket_and_http(api: Any, depth: int) -> None:
    a, _ = _two_seat_table(api)
    nested = "[" * depth + "]" * depth
    assert len(nested) <= 4096
    with seat_socket(api, a["code"], a["token"]) as ws:
        until(ws, "state")
        for text in (nested, '{"v": 1, "type": "ping", "x": ' + nested[:4000] + "}"):
            ws.send_text(text)
            assert until(ws, "error")["code"] == "malformed"
        ws.send_text(json.dumps(frame(type="ping")))  # still connected
        assert until(ws, "pong")["type"] == "pong"
    body = '{"variant": "basic", "options": {"a": ' + nested + "}}"
    r = api.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500, r.text


# ---------------------------------------------------------------- tokens out of URLs (issue 12 §3)


def test_seat_tokens_travel_in_the_authorization_header_only(api: Any) -> None:
    a, b = _two_seat_table(api)
    code = a["code"]
    mine = api.get(f"/api/tables/{code}/state", headers=bearer(a["token"])).json()
    assert mine["view"]["seat"] == 0 and mine["view"]["rack"]
    watcher = api.get(f"/api/tables/{code}/state").json()
    assert watcher["view"]["seat"] == -1 and watcher["view"]["rack"] == []
    # A token in the URL is refused (it would be in every access log), not ignored.
    r = api.get(f"/api/tables/{code}/state?token={a['token']}")
    assert r.status_code == 400 and r.json()["code"] == "malformed"
    r = api.get(f"/api/tables/{code}/state", headers={"Authorization": f"Basic {a['token']}"})
    assert r.status_code == 403 and r.json()["code"] == "bad_token"
    # One way only: a token in a body is not read.
    r = api.post(f"/api/tables/{code}/leave", json={"token": b["token"]})
    assert r.status_code == 403 and r.json()["code"] == "bad_token"
    act = {"token": b["token"], "action_id": "x", "state_id": 0, "action": "draw"}
    r = api.post(f"/api/tables/{code}/action", json=act, headers=bearer(b["token"]))
    assert r.status_code == 422
    assert api.get(f"/api/tables/{code}").json()["seats"][1]["kind"] == "human"
    assert api.post(f"/api/tables/{code}/leave", headers=bearer(b["token"])).json() == {"ok": True}
    schemes = api.get("/openapi.json").json()["components"]["securitySchemes"]
    assert [s["scheme"].lower() for s in schemes.values()] == ["bearer"]


def _refused(ws: Any) -> tuple[str, int]:
    """The error frame's code and the close code of a refused connection."""
    from starlette.websockets import WebSocketDisconnect

    code: str = ws.receive_json()["code"]
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return code, closed.value.code


def test_the_websocket_takes_its_token_in_a_hello_frame_never_in_the_url(
    api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rummykit.server.app as app_module

    a, _ = _two_seat_table(api)
    code = a["code"]
    with api.websocket_connect(f"/ws/{code}?token={a['token']}") as ws:
        assert _refused(ws) == ("malformed", 4400)
    firsts = [
        (json.dumps(frame(type="ping")), ("malformed", 4400)),
        (json.dumps({"type": "hello", "token": a["token"]}), ("unsupported_version", 4400)),
        (json.dumps(frame(type="hello", token="x" * 129)), ("malformed", 4400)),
        ("[" * 3000 + "]" * 3000, ("too_large", 4400)),
        ("[" * 2000 + "]" * 2000, ("malformed", 4400)),
        (json.dumps(frame(type="hello", token="forged")), ("bad_token", 4401)),
    ]
    for first, expected in firsts:
        with api.websocket_connect(f"/ws/{code}") as ws:
            ws.send_text(first)
            assert _refused(ws) == expected, first[:60]
    with api.websocket_connect("/ws/AAAAAA") as ws:
        assert _refused(ws) == ("no_table", 4404)
    monkeypatch.setattr(app_module, "HELLO_TIMEOUT", 0.2)
    with api.websocket_connect(f"/ws/{code}") as ws:
        assert _refused(ws) == ("malformed", 4408)
    with seat_socket(api, code, a["token"]) as ws:
        assert until(ws, "welcome")["seat"] == 0
    with seat_socket(api, code) as ws:
        assert until(ws, "welcome")["seat"] is None


def test_no_token_reaches_the_server_log(tmp_path: Path) -> None:
    """A whole game against a real ``rummykit serve`` with its access log on, through
    every request that carries a token; then the captured log is scanned for each."""
    log = tmp_path / "server.log"
    server = LiveServer(sqlite_url(tmp_path), log, bot_delay=0.0, grace=60)
    issued: list[str] = []
    marker = uuid.uuid4().hex
    server.start()
    try:
        # The control: this server writes query strings to its log, so a token in a URL
        # would be found below.
        assert server.http.get(f"/api/variants?probe={marker}").status_code == 200
        body: dict[str, Any] = {"variant": "remi_ro", "players": 2, "options": {"match_deals": 1}}
        made = server.post("/api/tables", name="A", **body).json()
        code = made["code"]
        left = server.post(f"/api/tables/{code}/join", name="B").json()
        assert server.post(f"/api/tables/{code}/leave", token=left["token"]).status_code == 200
        came = server.post(f"/api/tables/{code}/join", name="C").json()
        seats = {0: made["token"], 1: came["token"]}
        issued += [made["token"], left["token"], came["token"]]
        assert server.http.get(f"/api/tables/{code}/state", headers=bearer("forged")).is_error
        with server.socket(code) as spectator:
            assert json.loads(spectator.recv(timeout=10))["type"] == "welcome"
        with server.socket(code, seats[0]) as ws:
            n = 0
            end = time.monotonic() + 120
            while server.get(f"/api/tables/{code}")["status"] != "finished":
                assert time.monotonic() < end, "the game did not finish"
                for seat, token in seats.items():
                    state = server.get(f"/api/tables/{code}/state", token)
                    if not state["legal"]:
                        continue
                    n += 1
                    act = plain_move(state, f"a{n}")
                    if seat == 0:  # seat 0 plays over its WebSocket, seat 1 over HTTP
                        time.sleep(0.06)  # within the 20 frames/s a connection may send
                        ws.send(json.dumps(frame(type="action", **act)))
                        while (got := json.loads(ws.recv(timeout=10)))["type"] != "ack":
                            assert got["type"] != "error", got
                    else:
                        r = server.post(f"/api/tables/{code}/action", token=token, **act)
                        assert r.status_code == 200, r.text
        for token in seats.values():
            again = server.post(f"/api/tables/{code}/rematch", token=token)
            assert again.status_code == 200, again.text
            issued.append(again.json()["token"])
        assert server.get(f"/api/tables/{code}/record")["finished"]
        # A careless client puts a token in a URL: refused, and blanked in the log too.
        careless = seats[0]
        assert server.http.get(f"/api/tables/{code}/state?token={careless}").status_code == 400
        with connect(f"{server.ws_base}/ws/{code}?token={careless}") as ws:
            assert json.loads(ws.recv(timeout=10))["code"] == "malformed"
        # The fuzz families of issue 12 §5 end in a 4xx, not a 5xx or a traceback.
        nested = "[" * 2000 + "]" * 2000
        fuzz = [
            server.http.get(f"/api/games?limit={2**64}&offset={2**64}"),
            server.http.get(f"/api/tables?offset={2**63}"),
            server.http.get("/api/tables/%00AAAAA"),
            server.http.get(f"/api/tables/{'A' * 5000}/state"),
            server.http.post("/api/tables", content=nested, headers={"content-type": "x/json"}),
            server.http.post(
                "/api/tables",
                content='{"options": {"a": ' + nested + "}}",
                headers={"content-type": "application/json"},
            ),
        ]
        assert all(400 <= r.status_code < 500 for r in fuzz), [r.status_code for r in fuzz]
        with server.socket(code) as ws:
            ws.send(nested)
            while (got := json.loads(ws.recv(timeout=10)))["type"] != "error":
                pass
            assert got["code"] == "malformed"
    finally:
        server.stop()
    text = log.read_text()
    assert "Traceback" not in text, text[text.index("Traceback") :][:2000]
    assert marker in text and f"/ws/{code}" in text
    assert "token=[redacted]" in text  # the careless requests were logged, blanked
    assert len(set(issued)) == 5 and all(issued)
    for token in issued:
        for piece in (token, token[:12], token[-12:]):
            assert piece not in text, f"a token is in the server log: {piece}"
