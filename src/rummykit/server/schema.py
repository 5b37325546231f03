"""The WebSocket message schema (version 1): one pydantic model per frame type.

Every frame is a JSON object with ``"v": 1`` and a ``"type"``.  Frames from a
client are validated here (size first, then shape); frames to a client are
built from these models so that ``docs/protocol.md`` and the code agree.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeGuard, cast, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

__all__ = [
    "CHAT_LIMIT",
    "CHAT_PHRASES",
    "MAX_CLIENT_FRAME",
    "PROTOCOL_VERSION",
    "AckFrame",
    "ActionMessage",
    "ChatFrame",
    "ChatLine",
    "ChatMessage",
    "ClientMessage",
    "ErrorCode",
    "ErrorFrame",
    "HelloMessage",
    "HintFrame",
    "HintMessage",
    "PingMessage",
    "PongFrame",
    "ResyncMessage",
    "SeatInfo",
    "SeatKind",
    "StateFrame",
    "TableFrame",
    "TableInfo",
    "TableStatus",
    "WelcomeFrame",
    "is_error_code",
    "is_seat_kind",
    "is_table_status",
    "parse_client_message",
]

PROTOCOL_VERSION = 1
MAX_CLIENT_FRAME = 4096
"""Bytes: a longer client frame is answered with ``too_large`` and ignored."""

ErrorCode = Literal[
    "no_table",
    "bad_token",
    "not_your_turn",
    "stale_state",
    "malformed",
    "too_large",
    "illegal_action",
    "rate_limited",
    "not_started",
    "spectator",
    "unsupported_version",
    "internal",
    "bad_chat",
    "chat_limited",
]
"""Stable error codes; an error never changes the table."""

SeatKind = Literal["open", "human", "bot"]
TableStatus = Literal["open", "playing", "finished"]

_ERROR_CODES = frozenset(get_args(ErrorCode))
_SEAT_KINDS = frozenset(get_args(SeatKind))
_TABLE_STATUSES = frozenset(get_args(TableStatus))


def is_error_code(code: str) -> TypeGuard[ErrorCode]:
    """Whether ``code`` is one of the WebSocket error codes (the REST API has more)."""
    return code in _ERROR_CODES


def is_seat_kind(kind: str) -> TypeGuard[SeatKind]:
    """Whether a stored seat kind is one the protocol knows."""
    return kind in _SEAT_KINDS


def is_table_status(status: str) -> TypeGuard[TableStatus]:
    """Whether a stored table status is one the protocol knows."""
    return status in _TABLE_STATUSES


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    v: Literal[1] = 1


# ---------------------------------------------------------------- client → server

_ACTION_ID = r"^[A-Za-z0-9_.:-]{1,64}$"


class _ClientFrame(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    v: Literal[1]


class HelloMessage(_ClientFrame):
    """The first frame of every connection: the seat's token (null: a spectator).

    The token travels in this frame, never in the URL, so that no access log holds it."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=128)


class ActionMessage(_ClientFrame):
    """Play ``action`` (engine notation) for the connection's seat."""

    type: Literal["action"]
    action_id: str = Field(pattern=_ACTION_ID)
    """Chosen by the client (a UUID); a repeated id is applied once and acked again."""
    state_id: int = Field(ge=0)
    """The ``state_id`` of the latest state frame the client acted on."""
    action: str = Field(min_length=1, max_length=512)


class ResyncMessage(_ClientFrame):
    """Ask for the current state after ``last_event_id`` (e.g. after a reconnect)."""

    type: Literal["resync"]
    last_event_id: int = Field(ge=0)


class HintMessage(_ClientFrame):
    """Ask for hints (seat to move only)."""

    type: Literal["hint"]


CHAT_LIMIT = 200
"""Characters in one chat line."""
CHAT_PHRASES = (
    "hello",
    "good_luck",
    "well_played",
    "thanks",
    "sorry",
    "one_moment",
    "your_turn",
    "rematch",
    "bye",
)
"""Quick phrases: sent as their key, shown in each reader's language."""


class ChatMessage(_ClientFrame):
    """Say something at the table: free ``text`` or a quick ``phrase`` (one of them)."""

    type: Literal["chat"]
    text: str | None = None
    """At most ``CHAT_LIMIT`` characters (checked by the table: a longer line is
    ``bad_chat``, a frame over ``MAX_CLIENT_FRAME`` bytes ``too_large``)."""
    phrase: str | None = Field(default=None, max_length=32)


class PingMessage(_ClientFrame):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]


ClientMessage = Annotated[
    ActionMessage | ResyncMessage | HintMessage | PingMessage | ChatMessage,
    Field(discriminator="type"),
]
# cast: mypy reads the Annotated alias as a value, not a type form.
_CLIENT: TypeAdapter[ActionMessage | ResyncMessage | HintMessage | PingMessage | ChatMessage] = (
    TypeAdapter(cast(Any, ClientMessage))
)


def parse_client_message(
    data: str | bytes,
) -> ActionMessage | ResyncMessage | HintMessage | PingMessage | ChatMessage:
    """Validate one client frame; raise ``ValueError`` with a short reason if it is bad.

    The caller checks the size first (``MAX_CLIENT_FRAME``).
    """
    try:
        return _CLIENT.validate_json(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "frame"
        raise ValueError(f"{where}: {first['msg']}") from None


# ---------------------------------------------------------------- server → client


class SeatInfo(BaseModel):
    """One seat as everyone sees it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seat: int
    name: str
    kind: SeatKind
    bot: str | None = None
    """The bot's name for a bot seat (or the bot standing in for an absent player)."""
    connected: bool = False
    standin: bool = False
    """A bot is playing this human seat until its player comes back."""


class TableInfo(BaseModel):
    """A table's header: what everyone sees before and after joining."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    code: str
    name: str
    variant: str
    options: dict[str, Any]
    options_changed: dict[str, Any]
    players: int
    seats: list[SeatInfo]
    status: TableStatus
    turn_timer: float | None
    rematch: str | None = None
    created: float
    ready: list[int] = Field(default_factory=list)
    """Between deals: the human seats that asked for the next deal (it starts once
    every human seat has asked; bots never start it for them)."""


class WelcomeFrame(_Frame):
    """First frame on a connection: the table and the seat (null for a spectator)."""

    type: Literal["welcome"] = "welcome"
    table: TableInfo
    seat: int | None
    event_id: int
    grace: float | None = None
    """Seconds a human seat without a connection waits before a stand-in bot plays it
    (the page warns its player when the connection drops)."""


class TableFrame(_Frame):
    """The table header changed (a seat was taken or left, the game started, a rematch)."""

    type: Literal["table"] = "table"
    table: TableInfo


class StateFrame(_Frame):
    """The game as the recipient may know it, after event ``event_id``."""

    type: Literal["state"] = "state"
    event_id: int
    state_id: int
    """Send it back with an action: an action built on an older state is ``stale_state``."""
    view: dict[str, Any]
    """``SeatView.to_json()`` of the recipient's seat (seat -1: a spectator's view)."""
    hands: list[list[str]] | None = None
    """When a deal or the match has ended: every seat's remaining pieces (policy: revealed)."""
    legal: list[str] | None = None
    """The legal actions in notation, only to the seat to move."""
    last: tuple[int, str] | None = None
    """The latest action of this deal as the recipient sees it: (seat, notation)."""
    deadline: float | None = None
    """Epoch seconds when the turn timer of the seat to move expires (no timer: null)."""


class AckFrame(_Frame):
    """The action ``action_id`` was applied and stored as event ``event_id``."""

    type: Literal["ack"] = "ack"
    action_id: str
    event_id: int


class ErrorFrame(_Frame):
    """A request was rejected; nothing changed."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    action_id: str | None = None
    explain: dict[str, Any] | None = None
    """``illegal_action`` only: ``{verb, rule, key, params}`` — the refusal in words
    every language renders (``rummykit.server.explain``); the ``message`` is English."""


class HintFrame(_Frame):
    """Hints for the seat to move (``rummykit.solver.hints_json``)."""

    type: Literal["hint"] = "hint"
    hints: list[dict[str, Any]]


class ChatLine(BaseModel):
    """One chat line: free ``text`` (shown as text, never as markup) or a quick
    ``phrase`` key (``text`` is then empty)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: int
    seat: int
    name: str
    text: str
    phrase: str | None = None
    at: float


class ChatFrame(_Frame):
    """Chat lines, oldest first: the latest ones after ``welcome``, then each new one."""

    type: Literal["chat"] = "chat"
    lines: list[ChatLine]


class PongFrame(_Frame):
    """Answer to ``ping``."""

    type: Literal["pong"] = "pong"
