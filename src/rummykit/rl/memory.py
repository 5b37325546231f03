"""What every seat has seen happen in the current deal: the public memory of the table.

A seat's view shows the table as it is now; a player also remembers how it got
there.  :class:`PublicMemory` follows a game one action at a time and keeps, per
seat and face kind, only what the whole table saw:

* ``known``: pieces publicly known to be in the seat's hand — taken from the
  discard pile, taken back from the table (a freed joker, an undone turn's
  formations, a reclaimed end tile), or the face-up indicator drawn from the
  stock — until a piece of that kind leaves the hand.  Copies of a face are
  indistinguishable, so when a seat lays, discards or gives back a piece of a
  kind it is known to hold, everyone must assume it was the known one: the count
  is the largest lower bound the public record supports, never more than the seat
  holds (a test checks both against the engine's racks).
* ``discarded`` and ``last_discard``: pieces of each kind the seat put on the
  discard pile this deal, and the kind of its latest discard;
* ``taken``: pieces of each kind it took from the discard pile (net of turns it undid);
* ``laid``: pieces of each kind it moved from its hand to the table, net of those
  it took back (a freed joker counts −1).

The memory reads only what a spectator sees after each action: the discard pile
(a card closing face down excepted), the pieces on the table, the stock's size,
whether the indicator still lies in it, and the kind and actor of the action
(the public notation's verb and seat).  Swapped doubles (remi_ro §9.4) are
private to the two seats and are not remembered.  ``tests/test_rl_memory.py``
checks that these fields equal :func:`~rummykit.engine.spectator_view` (``rummykit.engine.view``)'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from rummykit.engine import Game, IllegalActionError
from rummykit.engine.actions import Discard, Draw, ResetTurn
from rummykit.model.pieces import JOKER_KIND

__all__ = ["COUNT_BLOCKS", "PublicMemory", "PublicState", "public_state"]

KINDS = JOKER_KIND + 1
COUNT_BLOCKS = ("known", "discarded", "taken", "laid")
"""The per-seat count arrays of :class:`PublicMemory`, in the order of ``counts``."""
Counts = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class PublicState:
    """The public table after an action, in counts per face kind."""

    column: Counts
    table: Counts
    stock_count: int
    indicator_in_stock: bool
    column_length: int


def public_state(game: Game, kinds: npt.NDArray[np.int64]) -> PublicState:
    """What a spectator sees of ``game`` (``kinds[p]`` is piece ``p``'s face kind)."""
    face_down = game.hidden_discard()[0]
    column = [p for p in game.column if p != face_down]
    table = [p for f in game.table for p in f.pieces]
    return PublicState(
        np.bincount(kinds[column], minlength=KINDS),
        np.bincount(kinds[table], minlength=KINDS),
        len(game.stock),
        game.indicator is not None and game.indicator in game.stock,
        len(column),
    )


class PublicMemory:
    """The public record of one game's current deal, kept in step with the game.

    Call :meth:`sync` after every action (the RL :class:`~rummykit.rl.Table` does);
    a game that moved on by more than one action since, or a different game, is
    replayed from its start when its record allows (a seed, explicit walls or a
    layout), else remembered from its current state on.
    """

    def __init__(self, game: Game) -> None:
        self.players = game.players
        self._kinds = np.array([f.kind for f in game.faces], dtype=np.int64)
        self._indicator_kind = -1
        self.counts: Counts = np.zeros((len(COUNT_BLOCKS), self.players, KINDS), dtype=np.int64)
        """``known``, ``discarded``, ``taken`` and ``laid`` stacked (in that order), so
        an observation rotates and scales them in one operation."""
        self.last_discard = [-1] * self.players
        """The kind of each seat's latest discard this deal, or -1."""
        self.version = 0
        """Counts every :meth:`sync` that changed the memory (observation caches read it)."""
        self._game: Game | None = None
        self._log_length = -1
        self._deal_start = -1
        self._state = public_state(game, self._kinds)
        self.sync(game)

    @property
    def known(self) -> Counts:
        """Per seat and kind: pieces publicly known to be in the seat's hand."""
        return self.counts[0]  # type: ignore[no-any-return]

    @property
    def discarded(self) -> Counts:
        """Per seat and kind: pieces the seat discarded this deal."""
        return self.counts[1]  # type: ignore[no-any-return]

    @property
    def taken(self) -> Counts:
        """Per seat and kind: pieces the seat took from the discard pile this deal."""
        return self.counts[2]  # type: ignore[no-any-return]

    @property
    def laid(self) -> Counts:
        """Per seat and kind: net pieces the seat moved from its hand to the table."""
        return self.counts[3]  # type: ignore[no-any-return]

    def copy(self, game: Game) -> PublicMemory:
        """This memory for ``game``, a copy of the game it follows (or any game with the
        same public record, such as a resampled world): no replay needed."""
        new = object.__new__(PublicMemory)
        new.__dict__.update(self.__dict__)
        new.counts = self.counts.copy()
        new.last_discard = self.last_discard[:]
        new._game = game
        return new

    def _restart(self, game: Game) -> None:
        """Forget everything: ``game`` is at the start of a deal (or first seen now)."""
        self.counts.fill(0)
        self.last_discard = [-1] * self.players
        self._indicator_kind = -1 if game.indicator is None else int(self._kinds[game.indicator])
        self._state = public_state(game, self._kinds)
        self._game = game
        self._log_length = len(game.log)
        self._deal_start = game.deal_log_start

    def sync(self, game: Game) -> None:
        """Bring the memory up to date with ``game``."""
        if game is self._game and len(game.log) == self._log_length:
            return
        self.version += 1
        if game is self._game and len(game.log) == self._log_length + 1:
            if game.deal_log_start != self._deal_start:
                self._restart(game)  # ``next`` or a reshuffle began a new deal
            else:
                self._record(game)
            return
        self._replay(game)

    def _replay(self, game: Game) -> None:
        deal_start = game.deal_log_start
        replica = None if len(game.log) == deal_start else _replica(game)
        if replica is None:
            self._restart(game)
            return
        try:
            for _seat, action in game.log[:deal_start]:
                replica.apply(action)
            self._restart(replica)
            for _seat, action in game.log[deal_start:]:
                replica.apply(action)
                self._record(replica)
        except IllegalActionError:
            replica = None
        if replica is None or (replica.racks, replica.column) != (game.racks, game.column):
            # The record does not reproduce the game (an injected RNG shuffled it).
            self._restart(game)
            return
        self._game = game

    def _record(self, game: Game) -> None:
        before = self._state
        actor, action = game.log[-1]
        if self._record_simple(game, actor, action, before):
            self._log_length = len(game.log)
            return
        after = public_state(game, self._kinds)
        column = after.column - before.column
        if after.stock_count > before.stock_count:
            # §2.4: the pile was turned over into the stock as the next turn began;
            # the actor's own move was the discard that closed his turn.
            column = np.zeros(KINDS, dtype=np.int64)
            if isinstance(action, Discard):
                column[action.face.kind] += 1
        table = after.table - before.table
        # Pieces the actor's hand gained from (+) or gave to (-) the public piles.
        hand = -column - table
        if (
            before.indicator_in_stock
            and not after.indicator_in_stock
            and after.stock_count < before.stock_count
        ):
            hand[self._indicator_kind] += 1  # the face-up indicator was drawn
        known = self.known[actor]
        np.maximum(known + hand, 0, out=known)
        self.laid[actor] += table
        if isinstance(action, ResetTurn):
            # An undone take goes back to the pile: no discard, and no longer taken.
            taken = self.taken[actor]
            np.maximum(taken - np.maximum(column, 0), 0, out=taken)
        else:
            self.taken[actor] += np.maximum(-column, 0)
            put = np.maximum(column, 0)
            if put.any():
                self.discarded[actor] += put
                self.last_discard[actor] = int(np.flatnonzero(put)[-1])
        self._state = after
        self._log_length = len(game.log)

    def _record_simple(self, game: Game, actor: int, action: Any, before: PublicState) -> bool:
        """The two most frequent actions without recounting the table: a draw that
        changed nothing public but the stock, a discard that only grew the pile by
        its face.  False when the action was anything else (or did more)."""
        stock_count = len(game.stock)
        if isinstance(action, Draw) and stock_count == before.stock_count - 1:
            in_stock = before.indicator_in_stock and game.indicator in game.stock
            if before.indicator_in_stock and not in_stock:
                self.known[actor][self._indicator_kind] += 1  # the face-up indicator
            self._state = PublicState(
                before.column, before.table, stock_count, in_stock, before.column_length
            )
            return True
        if (
            isinstance(action, Discard)
            and stock_count == before.stock_count
            and len(game.column) == before.column_length + 1
            and game.hidden_discard()[0] is None
            and self._kinds[game.column[-1]] == action.face.kind
        ):
            kind = action.face.kind
            known = self.known[actor]
            known[kind] = max(0, known[kind] - 1)
            self.discarded[actor][kind] += 1
            self.last_discard[actor] = kind
            column = before.column.copy()
            column[kind] += 1
            self._state = PublicState(
                column, before.table, stock_count, before.indicator_in_stock, len(game.column)
            )
            return True
        return False


def _replica(game: Game) -> Game | None:
    """A new game at the start of ``game``'s match with the same deals, if its record
    fixes them (a seed, explicit walls or a starting layout); else None."""
    if game.seed is None and game.explicit_walls is None and game.start_layout is None:
        return None
    return Game(
        game.variant,
        game.players,
        game.options,
        seed=game.seed,
        walls=game.explicit_walls,
        maker=game.first_maker,
        layout=game.start_layout,
    )
