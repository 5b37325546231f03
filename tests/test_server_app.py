"""The HTTP API and the table WebSocket (server/app.py, server/hub.py) on SQLite."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from rummykit.engine.record import replay
from server_support import client, frame, sqlite_url, until
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
        api.websocket_connect(f"/ws/{code}?token={a['token']}") as wa,
        api.websocket_connect(f"/ws/{code}?token={b['token']}") as wb,
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
            json={"token": "forged", "action_id": "y", "state_id": before + 1, "action": "draw"},
        )
        assert r.status_code == 403 and r.json()["code"] == "bad_token"
    with api.websocket_connect(f"/ws/{code}?token=forged") as bad:
        assert bad.receive_json()["code"] == "bad_token"


def test_a_spectator_sees_no_rack_and_cannot_play(api: Any) -> None:
    a, _ = _two_seat_table(api)
    with api.websocket_connect(f"/ws/{a['code']}") as ws:
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
    with api.websocket_connect(f"/ws/{code}?token={made['token']}") as ws:
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
    again = api.post(f"/api/tables/{code}/rematch", json={"token": made["token"]}).json()
    assert again["code"] != code and again["seat"] == 0
    assert api.get(f"/api/tables/{code}").json()["rematch"] == again["code"]
    # Issue 12 §7: a seat claims its own seat of the rematch, once.
    same = api.post(f"/api/tables/{code}/rematch", json={"token": made["token"]})
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
    assert api.post(f"/api/tables/{code}/leave", json={"token": b["token"]}).json() == {"ok": True}
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
        r = api.get(f"/api/tables/{code}/state", params={"token": token} if token else {})
        assert r.status_code == 409 and r.json()["code"] == "not_started", r.text
        seen.extend([r.text, api.get(f"/api/tables/{code}").text])

    read(made["token"])
    read(None)
    for harvester in ("Ana again", "Spy"):  # the creator, then anyone with the invite
        spy = api.post(f"/api/tables/{code}/join", json={"name": harvester}).json()
        assert spy["seat"] == 1
        read(spy["token"])
        with api.websocket_connect(f"/ws/{code}?token={spy['token']}") as ws:
            for ask in ({"type": "resync", "last_event_id": 0}, {"type": "hint"}, {"type": "ping"}):
                ws.send_text(json.dumps(frame(**ask)))
            got = [ws.receive_json()]
            while got[-1]["type"] != "pong":
                got.append(ws.receive_json())
        assert got[0]["type"] == "welcome" and got[0]["table"]["status"] == "open"
        assert all(f["type"] != "state" for f in got), got
        seen.extend(json.dumps(f) for f in got)
        assert api.post(f"/api/tables/{code}/leave", json={"token": spy["token"]}).json()["ok"]
    late = [api.post(f"/api/tables/{code}/join", json={"name": n}).json() for n in ("Ion", "Eva")]
    racks = [
        api.get(f"/api/tables/{code}/state", params={"token": s["token"]}).json()["view"]["rack"]
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
