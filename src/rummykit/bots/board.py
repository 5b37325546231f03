"""Romanian Remi tactics for the expert: play on the board and the closing tile.

Both come from the scoring of RULES §9.12–9.13, which greedy ignores:

* **play on the board** (§9.13): a board player never lays out; he closes when 14 of
  his 15 tiles form a contract, and the least contract ("Simple": any runs and sets)
  pays 500 — more than twice what a closer who laid his tiles usually scores — while
  a board player may take the column's last tile without using it.  A hand few tiles
  away from a contract is worth declaring;
* **the closing tile** (§9.11): closing with a 1 or a joker doubles the closer's score,
  so a lone 1 is kept back as the tile to close with, and attaches leave it for last.

Distances are counted in tiles (:func:`tiles_short`): on the board the tile values do
not count, only whether the hand is complete.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache

from rummykit.bots.base import unseen_faces
from rummykit.engine.actions import (
    Action,
    Attach,
    CloseBoard,
    DeclareBoard,
    Discard,
    Draw,
    TakeColumn,
)
from rummykit.engine.view import SeatView
from rummykit.model.arrange import min_deadwood
from rummykit.model.candidates import counts_of
from rummykit.model.melds import MeldRules
from rummykit.model.pieces import (
    JOKER_KIND,
    SUIT_COUNT,
    Face,
    kind_of,
    rank_of_kind,
    suit_of_kind,
)
from rummykit.rules.options import VariantOptions
from rummykit.rules.variant import ScoringSettings, Variant, find_variant

__all__ = [
    "board_action",
    "casual_board_action",
    "closing_multiplier",
    "closing_tile_action",
    "plays_board",
    "tiles_short",
    "wants_board",
]

Order = Callable[[Face], tuple[int, int, Face]]
"""A discard order: the least useful piece first (greedy's key)."""

_COUNT = (1,) * 53
"""Every piece counts one: distances in tiles."""


@lru_cache(maxsize=65_536)
def _meld_short(kinds: tuple[int, ...], rules: MeldRules) -> int:
    return min_deadwood(counts_of(kinds), rules, _COUNT).points


def _pairs_short(kinds: tuple[int, ...]) -> int:
    """Tiles outside identical pairs, jokers pairing anything (the Doubles contract)."""
    counts = Counter(k for k in kinds if k != JOKER_KIND)
    jokers = len(kinds) - sum(counts.values())
    singles = sum(c % 2 for c in counts.values())
    if jokers <= singles:
        return singles - jokers
    return (jokers - singles) % 2


def tiles_short(kinds: Sequence[int], rules: MeldRules) -> int:
    """How many of ``kinds`` lie outside a contract: outside the best runs and sets, or
    outside pairs, whichever leaves fewer.  A 15-tile hand discards its worst tile
    first, so 0 means it can close."""
    key = tuple(sorted(kinds))
    short = min(_meld_short(key, rules), _pairs_short(key))
    return short - 1 if len(key) == 15 and short else short


def plays_board(view: SeatView, variant: Variant) -> bool:
    """Whether ``variant`` under the view's options has board play (RULES §9.13)."""
    return variant.play_rules(view.options).board_play


def wants_board(view: SeatView, legal: Sequence[Action], variant: Variant, limit: int) -> bool:
    """Whether to declare board play now: it is legal and the rack is at most ``limit``
    tiles short of a contract."""
    if DeclareBoard() not in legal:
        return False
    rules = variant.rules_for(view.options)
    return tiles_short([f.kind for f in view.rack], rules) <= limit


def _could_meld(kind: int, rest: Sequence[int]) -> bool:
    """Whether ``kind`` could join a run or set with two pieces of ``rest`` or pair
    with one: if not, it stays outside any contract."""
    if kind == JOKER_KIND or JOKER_KIND in rest or kind in rest:
        return True
    suit, rank = suit_of_kind(kind), rank_of_kind(kind)
    held = set(rest)
    if sum(kind_of(s, rank) in held for s in range(SUIT_COUNT) if s != suit) >= 2:
        return True
    # Run positions 1..14 (the 1 also sits above the 13).
    own = {rank_of_kind(k) for k in held if suit_of_kind(k) == suit}
    if 1 in own:
        own.add(14)
    for pos in (1, 14) if rank == 1 else (rank,):
        for low in range(pos - 2, pos + 1):
            if all(p == pos or p in own for p in range(low, low + 3)):
                return True
    return False


def _without(kinds: Sequence[int], kind: int) -> list[int]:
    rest = list(kinds)
    rest.remove(kind)
    return rest


def _after_draw(rest: list[int], unseen: Counter[int], rules: MeldRules) -> float:
    """Mean :func:`tiles_short` of ``rest`` plus one unseen tile, after its best discard."""
    total = sum(unseen.values())
    base = tiles_short(rest, rules)
    if not total:
        return float(base)
    score = 0.0
    for kind, count in unseen.items():
        # A tile that can meld with nothing is the discard: the hand stays as it was.
        short = tiles_short([*rest, kind], rules) if _could_meld(kind, rest) else base
        score += count * short
    return score / total


def closing_multiplier(view: SeatView) -> int:
    """The factor for closing with a 1 or a joker under the view's options (1: none)."""
    return _special_close_multiplier(view.variant, view.options)


@lru_cache(maxsize=256)
def _special_close_multiplier(variant: str, options: VariantOptions) -> int:
    # Building the variant's PlayRules costs more than the rest of a bot's decision
    # in many positions; options are frozen and hashable, so one per variant and options.
    play = find_variant(variant).play_rules(options)
    return (play.find_setting(ScoringSettings) or ScoringSettings()).special_close_multiplier


def _special(face: Face) -> bool:
    return face.is_joker or face.rank == 1


def _close(view: SeatView, legal: Sequence[Action], variant: Variant) -> Action | None:
    """The best close on offer: the highest contract, a 1 or joker as the closing tile
    doubling it (RULES §9.12)."""
    closes = [a for a in legal if isinstance(a, CloseBoard)]
    if not closes:
        return None
    contracts = variant.board_closes(list(view.rack), view.options)
    factor = closing_multiplier(view)

    def paid(action: CloseBoard) -> tuple[int, Face]:
        value = contracts[action.face].value
        return (value * factor if _special(action.face) else value, action.face)

    return max(closes, key=paid)


def board_action(
    view: SeatView, legal: Sequence[Action], variant: Variant, order: Order
) -> Action | None:
    """A board player's move: close with the best contract (a 1 or joker as the closing
    tile doubles it), take the last column tile when it brings the hand closer than a
    mean draw, discard what leaves the hand nearest a contract after the next draw
    (``order`` breaks ties: lower goes first).  None: not a board decision."""
    close = _close(view, legal, variant)
    if close is not None:
        return close
    rules = variant.rules_for(view.options)
    kinds = [f.kind for f in view.rack]
    unseen = Counter(f.kind for f in unseen_faces(view))
    if Draw() in legal:
        take = TakeColumn(len(view.column) - 1)
        if view.column and take in legal:
            taken = tiles_short([*kinds, view.column[-1].kind], rules)
            if taken < _after_draw(kinds, unseen, rules):
                return take
        return Draw()
    faces = sorted({a.face for a in legal if isinstance(a, Discard)})
    if not faces:
        return None
    # Search only the discards that keep the hand nearest a contract now.
    now = {f: tiles_short(_without(kinds, f.kind), rules) for f in faces}
    nearest = min(now.values())
    faces = [f for f in faces if now[f] == nearest]

    def left(face: Face) -> tuple[float, bool, tuple[int, int, Face]]:
        rest = _without(kinds, face.kind)
        # Among equals keep a 1 or a joker: the closing tile that doubles the contract.
        return (_after_draw(rest, unseen, rules), _special(face), order(face))

    return Discard(min(faces, key=left))


def casual_board_action(
    view: SeatView, legal: Sequence[Action], variant: Variant, order: Order
) -> Action | None:
    """A casual board player's move (greedy's, and the search's rollouts): close with the
    best contract, take the column's last tile when the hand is then nearer a contract
    than now, discard what leaves the hand nearest one now (a 1 or joker kept among
    equals, then ``order``).  No look at the unseen tiles.  None: not a board decision."""
    close = _close(view, legal, variant)
    if close is not None:
        return close
    rules = variant.rules_for(view.options)
    kinds = [f.kind for f in view.rack]
    if Draw() in legal:
        take = TakeColumn(len(view.column) - 1)
        # The 16th tile is discarded next: compare with the rack as it stands.
        if (
            view.column
            and take in legal
            and tiles_short([*kinds, view.column[-1].kind], rules) < tiles_short(kinds, rules)
        ):
            return take
        return Draw()
    faces = sorted({a.face for a in legal if isinstance(a, Discard)})
    if not faces:
        return None
    return Discard(
        min(
            faces,
            key=lambda f: (tiles_short(_without(kinds, f.kind), rules), _special(f), order(f)),
        )
    )


def closing_tile_action(
    view: SeatView, legal: Sequence[Action], chosen: Action, variant: Variant, order: Order
) -> Action | None:
    """Where closing with a 1 or a joker multiplies the score: a replacement for
    ``chosen`` that keeps the rack's lone 1 (or joker) as the closing tile — attach the
    other tiles first, discard another tile (the first by ``order``) — or None to keep
    ``chosen``."""
    if closing_multiplier(view) <= 1 or len(view.rack) < 2:
        return None
    if isinstance(chosen, Attach) and _special(chosen.face):
        others = [a for a in legal if isinstance(a, Attach) and not _special(a.face)]
        if others:
            return max(others, key=lambda a: (variant.score_value(a.face), a.face))
        return None
    if isinstance(chosen, Discard) and _special(chosen.face):
        keep = [f for f in view.rack if _special(f)]
        # Only one tile can close: a second 1 is just 25 points at risk on the rack.
        if len(keep) > 1 and not chosen.face.is_joker:
            return None
        faces = {a.face for a in legal if isinstance(a, Discard) and not _special(a.face)}
        if faces:
            return Discard(min(faces, key=order))
    return None
