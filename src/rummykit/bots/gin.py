"""A plain Gin Rummy player (docs/rules/gin.md) for the greedy bot and those built on it.

It reads only the seat's view and the legal actions: take the up-card when it lowers
the deadwood left after the best discard, else draw (or pass the first offer); knock
as soon as it may; discard the card whose loss leaves the least deadwood; at the
showdown lay off everything it can, then lay the melds of the best arrangement.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rummykit.engine.actions import Action, Discard, Draw, Meld, Ready, TakeColumn
from rummykit.engine.extensions.gin import Knock, LayOff, Pass
from rummykit.engine.view import SeatView
from rummykit.rules.gin import card_value, deadwood
from rummykit.rules.variant import Variant

__all__ = ["gin_action", "plays_gin"]


def plays_gin(variant: Variant, view: SeatView) -> bool:
    """Whether ``view``'s variant plays the ``gin`` extension (asked at every decision
    of every bot: answered once per variant, whose extensions its options do not
    change where gin is concerned)."""
    known = _PLAYS_GIN.get(id(variant))
    if known is None or known[0] is not variant:
        defaults = variant.resolve(variant.default_players)
        known = _PLAYS_GIN[id(variant)] = (
            variant,
            "gin" in variant.play_rules(defaults).extensions,
        )
    return known[1]


_PLAYS_GIN: dict[int, tuple[Variant, bool]] = {}
"""By variant id: (the variant, whether it plays gin); the entry keeps the id valid."""


def _best_after_discard(kinds: list[int], among: Iterable[int] = ()) -> tuple[int, int]:
    """The deadwood left by the best discard from ``kinds`` (least deadwood, then the
    highest card, then the lowest kind), and that card's kind; ``among``: only these
    kinds may go (default: any card held)."""
    best: tuple[int, int, int] | None = None
    for k in set(among) or set(kinds):
        rest = list(kinds)
        rest.remove(k)
        key = (deadwood(rest), -card_value(k), k)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[0], best[2]


def gin_action(view: SeatView, legal: Sequence[Action]) -> Action:
    """The action to play in a gin deal."""
    kinds = [f.kind for f in view.rack]
    for action in legal:
        if isinstance(action, Knock | LayOff):
            return action
    melds = [a for a in legal if isinstance(a, Meld)]
    if melds:
        # The meld that leaves the rest of the hand the least deadwood.
        def left(meld: Meld) -> tuple[int, str]:
            rest = list(kinds)
            for f in meld.faces:
                rest.remove(f.kind)
            return deadwood(rest), str(meld)

        best = min(melds, key=left)
        if left(best)[0] < deadwood(kinds) or Ready() not in legal:
            return best
    if Ready() in legal:
        return Ready()
    takes = [a for a in legal if isinstance(a, TakeColumn)]
    if takes and view.column:
        # Take the up-card only if it helps: discarding it straight back twice in a row
        # ends the deal (gin §G.7).
        upcard = view.column[-1].kind
        if _best_after_discard([*kinds, upcard])[0] < deadwood(kinds):
            return takes[0]
    for fallback in (Draw(), Pass()):
        if fallback in legal:
            return fallback
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        _, kind = _best_after_discard(kinds, (a.face.kind for a in discards))
        return next(a for a in discards if a.face.kind == kind)
    return legal[0]
