"""The game engine: state machine, actions, legality, scoring, views and records."""

from rummykit.engine.actions import Action, parse_action
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.game import DealResult, Game, Phase
from rummykit.engine.view import SeatView, seat_legal_actions, view

__all__ = [
    "Action",
    "DealResult",
    "Game",
    "IllegalActionError",
    "Phase",
    "SeatView",
    "parse_action",
    "seat_legal_actions",
    "view",
]
