"""Typed errors of the engine."""

from __future__ import annotations

__all__ = ["IllegalActionError"]


class IllegalActionError(ValueError):
    """An action is not legal now; the game is unchanged.

    The message names the action, the rule (with its RULES section) and the state.
    """

    def __init__(self, action: str, rule: str, reason: str, state: str) -> None:
        self.action = action
        self.rule = rule
        self.reason = reason
        self.state = state
        super().__init__(f"illegal action '{action}': {reason} [RULES {rule}] ({state})")

    def __reduce__(self) -> tuple[type[IllegalActionError], tuple[str, str, str, str]]:
        # The default rebuilds from ``args`` (the message alone), which this constructor
        # refuses: a refusal raised in a worker process would not reach its parent.
        return type(self), (self.action, self.rule, self.reason, self.state)
