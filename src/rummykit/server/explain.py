"""Why the engine refused an action, in a form every language can word.

The engine's :class:`~rummykit.engine.errors.IllegalActionError` names the action,
the rule (its RULES section) and a reason in English.  The page must not show that
English on a Romanian screen, so an ``illegal_action`` error frame also carries an
``explain`` object: the action's ``verb``, the ``rule``, and, for the refusals a
player meets most, a stable ``key`` with its ``params`` (``illegal.<key>`` in the
message catalogs).  Any other refusal is worded by its verb
(``illegal.verb.<verb>``: "You cannot discard now") with the rule reference.
"""

from __future__ import annotations

import re
from typing import Any

from rummykit.engine.errors import IllegalActionError

__all__ = ["EXPLAINED", "VERBS", "explain"]

EXPLAINED: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (key, re.compile(pattern))
    for key, pattern in (
        ("draw_first", r"^draw or take a piece first$"),
        ("already_drew", r"^you have already drawn or taken$"),
        ("not_a_formation", r"^these pieces do not form a run or a set$|^malformed meld$"),
        ("opening_points", r"^an opening needs (?P<need>\d+) points, these make (?P<have>\d+)$"),
        ("opening_run", r"^an opening needs a run$"),
        ("opening_run_and_set", r"^an opening needs a run and a set$"),
        ("round_one", r"^nothing is laid, attached or exchanged in round 1$"),
        ("not_on_rack", r"^(?P<piece>\S+) is not on your rack$"),
        ("no_formation", r"^there is no formation m(?P<id>\d+)$"),
        ("does_not_fit", r"^(?P<piece>\S+) does not fit "),
        (
            "keep_taken",
            r"^the (piece|card) taken from the discard pile cannot (be discarded|close) "
            r"in the same turn$",
        ),
        ("only_draw", r"^with 1 or 2 tiles you may only draw$"),
        ("three_tiles", r"^with 3 tiles you may draw or take the last tile$"),
        ("announce_three", r"^announce when at most 3 tiles will remain$"),
        ("already_announced", r"^you have already announced$"),
        ("stock_empty", r"^the stock is empty$"),
        ("top_only", r"^only the top discard may be taken$"),
        (
            "not_opened",
            r"^laying off needs a player opened in an earlier turn$"
            r"|^exchanging needs an opened player$|^a middle take needs an opened player$",
        ),
        ("keep_one", r"^one piece must stay for the discard$"),
        ("deal_not_over", r"^the next deal starts only after a deal ends$"),
        ("joker_first", r"^(first )?attach the (lifted )?joker"),
        ("own_formations", r"^a joker may be attached only to your own formations$"),
        ("first_turn_discard", r"^the first player only discards on his first turn$"),
        ("no_pile_piece", r"^the discard pile has no piece (?P<index>\d+)$"),
        ("not_in_turn", r"^no turn is being played"),
    )
)
"""Reasons a player meets most, each with its message key; named groups are params."""

VERBS = ("draw", "take", "meld", "attach", "discard", "exchange", "out", "other")
"""Verbs with a message of their own (``illegal.verb.*``); any other action is ``other``."""


def explain(exc: IllegalActionError) -> dict[str, Any]:
    """``{verb, rule, key, params}`` for an illegal action (``key`` None: no message
    of its own; the page words it by its verb)."""
    verb = exc.action.split(" ", 1)[0].lower() if exc.action else "other"
    found: dict[str, Any] = {
        "verb": verb if verb in VERBS else "other",
        "rule": exc.rule,
        "key": None,
        "params": {},
    }
    for key, pattern in EXPLAINED:
        match = pattern.search(exc.reason)
        if match:
            found["key"] = key
            found["params"] = {k: v for k, v in match.groupdict().items() if v is not None}
            break
    return found
