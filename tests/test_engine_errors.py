"""The engine's typed error: what it names, and that it survives a process boundary."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable

import pytest

from card_support import card_game
from kit import illegal
from rummykit.engine import IllegalActionError


def test_the_message_names_the_action_the_rule_and_the_state() -> None:
    """A refused action explains itself in one line: action, reason, rule and state."""
    err = IllegalActionError("discard 5H", "§2.3", "draw or take a piece first", "P1 to move")
    assert isinstance(err, ValueError)
    assert str(err) == (
        "illegal action 'discard 5H': draw or take a piece first [RULES §2.3] (P1 to move)"
    )
    assert (err.action, err.rule, err.reason, err.state) == (
        "discard 5H",
        "§2.3",
        "draw or take a piece first",
        "P1 to move",
    )


def test_an_engine_refusal_carries_its_rule() -> None:
    """The error a game raises is this type, with the rule it cites (Basic Rummy draws
    before it discards, RULES §3.3)."""
    game = card_game("basic", 2)
    err = illegal(game, "discard " + str(game.rack_faces(0)[0]))
    assert err.rule == "§3.3" and err.action.startswith("discard")


@pytest.mark.parametrize("clone", [lambda e: pickle.loads(pickle.dumps(e)), copy.deepcopy])
def test_the_error_round_trips_through_pickle_and_deepcopy(
    clone: Callable[[IllegalActionError], IllegalActionError],
) -> None:
    """A refusal raised in a worker process (tournaments and searches run in pools) must
    reach the parent intact: pickling keeps every field and the message."""
    err = IllegalActionError("take 9", "§9.6", "no tile at that position", "P2 to move")
    back = clone(err)
    assert type(back) is IllegalActionError
    assert (back.action, back.rule, back.reason, back.state) == (
        err.action,
        err.rule,
        err.reason,
        err.state,
    )
    assert str(back) == str(err)
