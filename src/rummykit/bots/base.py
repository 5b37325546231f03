"""The bot protocol and a driver that plays games with bots."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from rummykit.engine.actions import Action
from rummykit.engine.game import Game
from rummykit.engine.view import SeatView, seat_legal_actions, view
from rummykit.model.pieces import Face
from rummykit.rules.variant import find_variant

__all__ = ["Bot", "play_to_end", "play_turn", "unseen_faces"]


class Bot(Protocol):
    """A player that sees only its seat's view and the legal actions."""

    name: str

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal``."""
        ...


def play_turn(game: Game, bot: Bot, rng: random.Random) -> Action:
    """Let ``bot`` choose for the seat to move and apply its action."""
    seat = game.to_move
    action = bot.choose(view(game, seat), seat_legal_actions(game, seat), rng)
    return game.apply(action)


def play_to_end(
    game: Game,
    bots: Sequence[Bot],
    rng: random.Random,
    *,
    max_actions: int = 1_000_000,
    on_action: Callable[[int, Action], None] | None = None,
    stop_at_deal_end: bool = False,
) -> int:
    """Play until the match ends (or a deal ends, with ``stop_at_deal_end``); return actions."""
    count = 0
    start_deals = len(game.results)
    while not game.is_over and count < max_actions:
        if stop_at_deal_end and len(game.results) > start_deals:
            break
        seat = game.to_move
        action = play_turn(game, bots[seat], rng)
        count += 1
        if on_action is not None:
            on_action(seat, action)
    return count


def unseen_faces(view: SeatView) -> list[Face]:
    """The faces ``view``'s seat has not seen: in other racks, the stock or face down."""
    variant = find_variant(view.variant)
    left = Counter(variant.pieces(view.options).faces)
    seen: list[Face] = [*view.rack, *view.column]
    for formation in view.table:
        seen.extend(formation.faces)
    if view.indicator is not None and view.indicator_in_stock:
        seen.append(view.indicator)
    left.subtract(seen)
    return sorted(left.elements())
