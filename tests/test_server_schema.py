"""The WebSocket frame schema: version, shapes, sizes (server/schema.py)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pydantic", reason="the server extra is not installed")

from rummykit.server.schema import (
    ActionMessage,
    ChatMessage,
    ErrorFrame,
    HintMessage,
    ResyncMessage,
    StateFrame,
    is_error_code,
    is_seat_kind,
    is_table_status,
    parse_client_message,
)


def test_each_client_frame_parses_to_its_model() -> None:
    msg = parse_client_message(
        json.dumps(
            {"v": 1, "type": "action", "action_id": "a-1", "state_id": 3, "action": "discard R5"}
        )
    )
    assert msg == ActionMessage(
        v=1, type="action", action_id="a-1", state_id=3, action="discard R5"
    )
    assert isinstance(
        parse_client_message('{"v":1,"type":"resync","last_event_id":0}'), ResyncMessage
    )
    assert isinstance(parse_client_message(b'{"v":1,"type":"hint"}'), HintMessage)


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"hint"}',  # no version
        '{"v":2,"type":"hint"}',
        '{"v":1,"type":"shout"}',
        '{"v":1,"type":"action","action_id":"a","state_id":-1,"action":"draw"}',
        '{"v":1,"type":"action","action_id":"a b","state_id":0,"action":"draw"}',
        '{"v":1,"type":"action","action_id":"a","state_id":0,"action":""}',
        '{"v":1,"type":"action","action_id":"a","state_id":0,"action":"draw","x":1}',
        '{"v":1,"type":"action","action_id":"' + "a" * 65 + '","state_id":0,"action":"draw"}',
        '{"v":1,"type":"chat","text":"hi","who":"me"}',
        '{"v":1,"type":"chat","text":5}',
        "[1, 2]",
        "not json",
    ],
)
def test_a_bad_client_frame_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(ValueError, match=r"\S"):
        parse_client_message(text)


def test_server_frames_carry_the_version_and_type() -> None:
    error = json.loads(ErrorFrame(code="stale_state", message="m").model_dump_json())
    assert error == {
        "v": 1,
        "type": "error",
        "code": "stale_state",
        "message": "m",
        "action_id": None,
        "explain": None,  # error_frame() leaves it out unless an illegal action explains it
    }
    state = json.loads(StateFrame(event_id=1, state_id=1, view={}).model_dump_json())
    assert state["v"] == 1 and state["type"] == "state" and state["legal"] is None


def test_error_codes_are_closed() -> None:
    with pytest.raises(ValueError):
        ErrorFrame(code="oops", message="m")  # type: ignore[arg-type]


def test_a_chat_frame_is_text_or_a_phrase() -> None:
    said = parse_client_message('{"v":1,"type":"chat","text":"<b>hi</b>"}')
    assert isinstance(said, ChatMessage) and said.text == "<b>hi</b>" and said.phrase is None
    quick = parse_client_message('{"v":1,"type":"chat","phrase":"thanks"}')
    assert isinstance(quick, ChatMessage) and quick.phrase == "thanks" and quick.text is None


def test_the_literal_guards_know_exactly_the_protocols_values() -> None:
    """The guards that turn stored strings into the protocol's literal types accept the
    schema's values and nothing else (REST-only codes are no WebSocket error codes)."""
    assert is_error_code("illegal_action") and is_error_code("internal")
    assert not is_error_code("table_full") and not is_error_code("ILLEGAL_ACTION")
    assert all(is_seat_kind(k) for k in ("open", "human", "bot"))
    assert not is_seat_kind("robot")
    assert all(is_table_status(s) for s in ("open", "playing", "finished"))
    assert not is_table_status("paused")
