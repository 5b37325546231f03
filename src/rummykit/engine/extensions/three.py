"""The "three" announcement (RULES §9.11): a player who will keep at most three tiles
announces it; one who discards down to three or fewer without having announced pays
the flat penalty at the deal's end.

Remi etalat plays it; a variant names it ``"three"`` in ``PlayRules.extensions``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rummykit.engine.actions import Action, AnnounceThree
from rummykit.engine.extension import (
    Extension,
    ExtensionState,
    register_extension,
    state_of,
)

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["Three", "ThreeState", "three_state"]

_THREE = AnnounceThree()


@dataclass(slots=True)
class ThreeState(ExtensionState):
    """Who has announced "three" this deal, and who broke the rule."""

    announced: list[bool]
    violation: list[bool]
    """Per seat: discarded down to 3 or fewer tiles without announcing (§9.11)."""


def three_state(game: Game, *, writable: bool = False) -> ThreeState | None:
    """The "three" state of ``game``'s deal, or None if its variant has no announcement."""
    return state_of(game, Three.name, ThreeState, writable=writable)


@register_extension
class Three(Extension[ThreeState]):
    """RULES §9.11: announce "three" when at most three tiles will remain."""

    name = "three"
    handlers: ClassVar[Mapping[type[Action], tuple[str, str]]] = {
        AnnounceThree: ("_verify_three", "_apply_three"),
    }

    def new_state(self, game: Game) -> ThreeState:
        return ThreeState([False] * game.players, [False] * game.players)

    def _verify_three(self, game: Game, action: AnnounceThree) -> None:
        game.in_turn(action)
        seat = game.to_move
        if self.state(game).announced[seat]:
            raise game.fail(action, "§9.11", "you have already announced")
        if len(game.racks[seat]) > 4:
            raise game.fail(action, "§9.11", "announce when at most 3 tiles will remain")

    def _apply_three(self, game: Game, action: AnnounceThree) -> None:
        self.writable(game).announced[game.to_move] = True

    def actions_before_discards(self, game: Game, seat: int, out: list[Action]) -> None:
        if not self.state(game).announced[seat] and len(game.racks[seat]) <= 4:
            out.append(_THREE)

    def discarded(self, game: Game, seat: int) -> None:
        state = self.state(game)
        if len(game.racks[seat]) <= 3 and not state.announced[seat]:
            self.writable(game).violation[seat] = True

    def view_fields(self, game: Game, seat: int) -> Mapping[str, Any]:
        return {"announced_three": tuple(self.state(game).announced)}

    def outcome_fields(self, game: Game, seat: int) -> Mapping[str, Any]:
        return {"three_violation": self.state(game).violation[seat]}
