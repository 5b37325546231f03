"""Frames from views: what a seat or a spectator is sent is built from a
:class:`~rummykit.engine.view.SeatView` (and, once a deal has ended, the views of
every seat), never from the game itself."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from rummykit.engine.actions import parse_action
from rummykit.engine.game import Phase
from rummykit.engine.view import SeatView
from rummykit.rules.variant import find_variant
from rummykit.server.schema import ErrorFrame, StateFrame, is_error_code

__all__ = ["error_frame", "hands_of", "hints_for", "state_frame"]


def state_frame(
    seen: SeatView,
    *,
    event_id: int,
    legal: Sequence[str] | None,
    hands: list[list[str]] | None = None,
    deadline: float | None = None,
) -> StateFrame:
    """The ``state`` frame for the holder of ``seen``.

    ``legal`` is the seat's legal actions (only when it is to move), ``hands`` the
    revealed racks of a deal that has ended (:func:`hands_of`)."""
    last = seen.history[-1] if seen.history else None
    # Built from our own view, the frame needs no validation (tests check it validates):
    # every state frame of every event goes through here.
    return StateFrame.model_construct(
        event_id=event_id,
        state_id=event_id,
        view=seen.to_json(),
        hands=hands,
        legal=list(legal) if legal else None,
        last=last,
        deadline=deadline,
    )


def hands_of(views: Sequence[SeatView]) -> list[list[str]]:
    """Every seat's remaining pieces, from each seat's own view (shown once a deal ends)."""
    if any(v.phase not in (Phase.DEAL_END, Phase.MATCH_END) for v in views):
        raise ValueError("hands are shown only when a deal has ended")
    return [[str(f) for f in v.rack] for v in views]


def hints_for(seen: SeatView, legal: Collection[str]) -> list[dict[str, Any]]:
    """Hints (``rummykit.solver.hints``) for the seat of ``seen``, from that view and
    ``legal`` (the seat's legal actions in notation, as its state frame lists them):
    the view carries this turn's state (what was laid toward the opening, tiles that
    must be used, the announcements made), so the hints continue the turn as it stands."""
    from rummykit.solver.hints import advise, hints_json

    if seen.phase not in (Phase.PREPLAY, Phase.ROUND1, Phase.TURNS) or seen.to_move != seen.seat:
        return []
    material = find_variant(seen.variant).material
    actions = [parse_action(text, material) for text in legal]
    return hints_json(advise(seen, actions))


def error_frame(
    code: str,
    message: str,
    action_id: str | None = None,
    explain: dict[str, Any] | None = None,
) -> str:
    """An ``error`` frame, serialized (``code`` is one of ``schema.ErrorCode``;
    ``explain``: an illegal action's refusal, ``rummykit.server.explain``)."""
    if not is_error_code(code):
        raise ValueError(f"{code!r} is no WebSocket error code (schema.ErrorCode)")
    return ErrorFrame(
        code=code,
        message=message,
        action_id=action_id,
        explain=explain,
    ).model_dump_json(exclude=None if explain else {"explain"})
