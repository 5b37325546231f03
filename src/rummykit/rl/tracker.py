"""Observation vectors kept in step with a game: only the blocks an action touched are rebuilt.

:meth:`ObservationEncoder.encode <rummykit.rl.observation.ObservationEncoder.encode>`
builds a vector from a fresh :class:`~rummykit.engine.SeatView`, which costs a view
(every field of the game copied into tuples) and a pass over every block on each
step.  Most of an observation does not change from one step to the next: the table's
formations change when a seat lays or attaches, the discard pile when a seat discards
or takes, the public memory for the actor only.  :class:`ObservationTracker` keeps,
per observer, the last blocks it built with the game state they came from, and on
each call rewrites only those whose inputs differ in a vector it keeps per observer,
then returns a copy of that vector.

What it reads is exactly what :func:`~rummykit.engine.view` shows the observer —
its own rack and turn obligations, the public table, the discard pile (a card
closing face down excepted, RULES §6.6, unless the observer closed it), the stock's
size, whether the indicator lies in it, the seats' public counters, a swap offer
only to its two seats — the same expressions as the view, without building it.
``tests/test_rl_tracker.py`` checks, over random deals of every variant and every
seat at every step, that the vector equals ``encode(seat_view(game, seat), memory)``
element for element, and the view-leak tests of ``tests/test_rl_observation.py``
run through it (:meth:`rummykit.rl.Table.observation` uses it).
"""

from __future__ import annotations

import math
from operator import is_
from typing import Any

import numpy as np
import numpy.typing as npt

from rummykit.engine import Game, Phase
from rummykit.engine.table import Formation
from rummykit.model.pieces import Face
from rummykit.rl.memory import COUNT_BLOCKS, PublicMemory
from rummykit.rl.observation import (
    _DEALS_CAP,
    _DOUBLES,
    _FORMATION_BASE,
    _POINTS_CAP,
    _ROUND_CAP,
    _TOTAL_SCALE,
    _TURNS_CAP,
    KINDS,
    ObservationEncoder,
)

__all__ = ["ObservationTracker"]

_OWN_TURN = (Phase.ROUND1, Phase.TURNS)
Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]
Positions = npt.NDArray[np.intp]
_NO_INTS: Ints = np.zeros(KINDS, dtype=np.int64)


class _TableState:
    """The table's part of every observation, for one tuple of formations: the pieces
    of each kind, the formation slots without their owner, and where each owner goes."""

    __slots__ = ("block", "counts", "formations", "owner_at", "owners", "rotated", "table")

    def __init__(
        self,
        table: tuple[Formation, ...],
        counts: Ints,
        block: Floats,
        formations: Floats,
        owner_at: Ints,
        owners: Ints,
    ) -> None:
        self.table = table
        self.counts = counts
        self.block = block
        self.formations = formations
        self.owner_at = owner_at
        self.owners = owners
        self.rotated: dict[tuple[int, int], Positions] = {}

    def owner_positions(self, me: int, n: int) -> Positions:
        """The owner one-hot of each formation, relative to ``me``."""
        positions = self.rotated.get((me, n))
        if positions is None:
            positions = self.rotated[(me, n)] = (self.owner_at + (self.owners - me) % n).astype(
                np.intp
            )
        return positions


class _Seat:
    """One observer's vector and the state each of its blocks was written from."""

    __slots__ = (
        "column",
        "column_counts",
        "face_up",
        "fval",
        "last_discard",
        "memory",
        "memory_version",
        "must_use",
        "ones",
        "rack",
        "rack_counts",
        "seen_extra",
        "table",
        "vector",
    )

    def __init__(self, size: int) -> None:
        self.vector: Floats = np.zeros(size, dtype=np.float32)
        self.ones: list[int] = []
        self.fval: list[Any] = []
        self.rack: tuple[int, ...] | None = None
        self.rack_counts: Ints = _NO_INTS
        self.must_use: list[int] = []
        self.column: tuple[int, ...] | None = None
        self.column_counts: Ints = _NO_INTS
        self.table: _TableState | None = None
        self.memory: PublicMemory | None = None
        self.memory_version = -1
        self.last_discard: list[int] = []
        self.face_up = -1
        """The kind of a face-up indicator still in the stock (counted seen), or -1."""
        self.seen_extra: Ints = _NO_INTS
        """Pieces known in the other hands (memory), plus a face-up indicator in the stock."""


class ObservationTracker:
    """The observations of one encoder's games, rewritten block by block as they change.

    One tracker serves any games of its encoder's variant and piece set (a
    :class:`~rummykit.rl.Table` holds one).  Its blocks are keyed by the state they
    came from (the rack's pieces, the visible discard pile, the table's formation
    objects, the memory and its version), never by the game object, so a game
    replaced or set from outside is simply a state whose blocks differ.
    """

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        e = encoder
        self._seats: dict[tuple[int, int], _Seat] = {}
        self._faces: tuple[Face, ...] | None = None
        self._kinds: Ints = np.zeros(0, dtype=np.int64)
        self._kind_list: list[int] = []
        self._fixed: dict[int, Positions] = {}
        self._memory_positions: dict[tuple[int, int], Positions] = {}
        self._memory_of: PublicMemory | None = None  # held, so identity stays meaningful
        self._memory_version = -1
        self._memory_scaled: Floats = np.zeros(0, dtype=np.float32)
        self._memory_known_total: Ints = _NO_INTS
        self._table_state: _TableState | None = None
        self._rows: dict[int, tuple[Formation, list[int], list[int], list[float], int]] = {}
        # column, column_top and column_depth are adjacent: one slice of 3 x KINDS.
        assert e._column_top_at == e._column_at + KINDS
        assert e._column_depth_at == e._column_top_at + KINDS
        self._column_at = e._column_at
        self._column_stop = e._column_at + 3 * KINDS
        self._formations_at = e.block("formations").start
        self._formations_stop = e.block("formations").stop
        self._last_at = e._last_discard_at
        self._last_stop = e.block("last_discard").stop
        self._points = e.piece_count

    def __deepcopy__(self, memo: dict[int, Any]) -> ObservationTracker:
        return ObservationTracker(self.encoder)  # caches only: a copy starts empty

    def __reduce__(self) -> tuple[Any, ...]:
        return (ObservationTracker, (self.encoder,))

    # ------------------------------------------------------------------ shared blocks

    def _set_faces(self, faces: tuple[Face, ...]) -> None:
        self._faces = faces
        self._kind_list = [f.kind for f in faces]
        self._kinds = np.array(self._kind_list, dtype=np.int64)

    def _row(
        self, formation: Formation, game: Game
    ) -> tuple[Formation, list[int], list[int], list[float], int]:
        """A formation's observation row with its owner left out: (the formation, ones,
        fraction positions, their values, its owner slot's first position)."""
        known = self._rows.get(id(formation))
        if known is not None and known[0] is formation:
            return known
        e = self.encoder
        facts = _FormationFacts(formation, game.faces)
        ones, fidx, fval = e._formation_row(facts, 0)  # type: ignore[arg-type]
        owner_at = self._formations_at + (formation.id - 1) * e._formation_stride + _FORMATION_BASE
        ones = [i for i in ones if i != owner_at]
        if len(self._rows) > 50_000:
            self._rows.clear()
        row = self._rows[id(formation)] = (formation, ones, fidx, fval, owner_at)
        return row

    def _table(self, game: Game) -> _TableState:
        table = game.table
        state = self._table_state
        if (
            state is not None
            and len(state.table) == len(table)
            and all(map(is_, state.table, table))  # formations are immutable objects
        ):
            return state
        e = self.encoder
        idx: list[int] = []
        fidx: list[int] = []
        fval: list[float] = []
        owner_at: list[int] = []
        owners: list[int] = []
        shown = table[: e.max_formations]
        for f in shown:
            _f, ones, positions, values, at = self._row(f, game)
            idx += ones
            fidx += positions
            fval += values
            owner_at.append(at)
            owners.append(f.owner)
        counts = np.bincount(idx, minlength=e.size) if idx else np.zeros(e.size, np.int64)
        table_counts = counts[e._table_at : e._table_at + KINDS]
        start, stop = self._formations_at, self._formations_stop
        formations = counts[start:stop].astype(np.float32)
        if fidx:
            formations[np.subtract(fidx, start)] = fval
        state = self._table_state = _TableState(
            tuple(table),
            table_counts,
            np.multiply(table_counts, e._inverse_array, dtype=np.float32),
            formations,
            np.array(owner_at, dtype=np.int64),
            np.array(owners, dtype=np.int64),
        )
        return state

    def _memory(self, memory: PublicMemory) -> tuple[Floats, Ints]:
        """The memory's counts scaled and clipped (absolute seats) and the pieces of each
        kind known in all hands, rebuilt when the memory changed."""
        if memory is not self._memory_of or memory.version != self._memory_version:
            scaled = np.multiply(memory.counts, self.encoder._inverse_array, dtype=np.float32)
            np.minimum(scaled, 1.0, out=scaled)
            np.maximum(scaled, -1.0, out=scaled)
            self._memory_scaled = scaled.ravel()
            self._memory_known_total = memory.counts[0].sum(axis=0)
            self._memory_of = memory
            self._memory_version = memory.version
        return self._memory_scaled, self._memory_known_total

    def _memory_at(self, me: int, n: int) -> Positions:
        """Where each entry of the memory's (block, absolute seat, kind) counts goes in
        ``me``'s vector: the seats rotated so ``me`` is slot 0."""
        positions = self._memory_positions.get((me, n))
        if positions is None:
            e = self.encoder
            s, k = e.max_players, KINDS
            grid = [
                e._memory_at + block * s * k + ((seat - me) % n) * k + kind
                for block in range(len(COUNT_BLOCKS))
                for seat in range(n)
                for kind in range(k)
            ]
            positions = self._memory_positions[(me, n)] = np.array(grid, dtype=np.intp)
        return positions

    # ------------------------------------------------------------------ observe

    def observe(
        self, game: Game, seat: int, memory: PublicMemory | None = None
    ) -> npt.NDArray[np.float32]:
        """``encoder.encode(seat_view(game, seat), memory)``, element for element (a new
        array); ``memory`` is the public memory of ``game`` now, or None."""
        e = self.encoder
        if game.faces is not self._faces:
            self._set_faces(game.faces)
        kind_of = self._kind_list
        n = game.players
        me = seat
        slot = self._seats.get((me, n))
        if slot is None:
            slot = self._seats[(me, n)] = _Seat(e.size)
        out = slot.vector
        seen_changed = False
        phase = game.phase
        to_move = game.to_move
        own_turn = to_move == me and phase in _OWN_TURN
        turn = game.turn
        # The rack and the column tiles it must use this turn.
        rack = game.racks[me]
        key = tuple(rack)
        if key != slot.rack:
            counts = np.bincount(self._kinds[rack], minlength=KINDS) if rack else _NO_INTS
            slot.rack_counts = counts
            at = e._rack_at
            out[at : at + KINDS] = np.multiply(counts, e._inverse_array, dtype=np.float32)
            slot.rack = key
            seen_changed = True
        must = [kind_of[p] for p in turn.must_use if p in rack] if own_turn else []
        if must != slot.must_use:
            at = e._must_use_at
            counts = np.bincount(must, minlength=KINDS) if must else _NO_INTS
            out[at : at + KINDS] = np.multiply(counts, e._inverse_array, dtype=np.float32)
            slot.must_use = must
        # The discard pile as this seat sees it (RULES §6.6: a card closing face down
        # shows only to the closer).
        face_down = game.face_down
        if face_down is not None and game.face_down_seat != me:
            visible = tuple(p for p in game.column if p != face_down)
        else:
            visible = tuple(game.column)
        if visible != slot.column:
            self._write_column(slot, visible)
            seen_changed = True
        # The table.
        table = self._table(game)
        if table is not slot.table:
            at = e._table_at
            out[at : at + KINDS] = table.block
            out[self._formations_at : self._formations_stop] = table.formations
            if len(table.owners):
                out[table.owner_positions(me, n)] = 1.0
            slot.table = table
            seen_changed = True
        # The public memory, and the pieces it knows in the other hands.
        indicator = game.indicator
        indicator_in_stock = indicator is not None and indicator in game.stock
        if memory is not slot.memory or (
            memory is not None and memory.version != slot.memory_version
        ):
            if memory is None:
                out[e._memory_at : self._last_stop] = 0.0
                extra = _NO_INTS
                slot.last_discard = []
            else:
                scaled, known_total = self._memory(memory)
                out[self._memory_at(me, n)] = scaled
                extra = known_total - memory.counts[0, me]
                last = memory.last_discard
                if last != slot.last_discard:
                    out[self._last_at : self._last_stop] = 0.0
                    at = self._last_at
                    for other, kind in enumerate(last):
                        if kind >= 0:
                            out[at + ((other - me) % n) * KINDS + kind] = 1.0
                    slot.last_discard = last[:]
                slot.memory_version = memory.version
            slot.memory = memory
            slot.seen_extra = extra
            seen_changed = True
        face_up = kind_of[indicator] if indicator is not None and indicator_in_stock else -1
        if seen_changed or face_up != slot.face_up:
            seen = slot.rack_counts + slot.column_counts + table.counts + slot.seen_extra
            if face_up >= 0:
                seen[face_up] += 1
            slot.face_up = face_up
            at = e._unseen_at
            out[at : at + KINDS] = np.maximum(e._copies_array - seen, 0) * e._inverse_array
        # One-hots: the observer's seat, the phase, the seat to move, the indicator and
        # the seats' flags.
        s = e.max_players
        base = e._seats_at
        ones = [e._seat_at + me, e._phase_at[phase], e._to_move_at + (to_move - me) % n]
        if indicator is not None:
            ones.append(e._indicator_at + kind_of[indicator])
        ones += range(base, base + n)  # present
        for other, announced in enumerate(game.doubles_announced):
            for category in announced:
                ones.append(base + (6 + _DOUBLES.index(category)) * s + (other - me) % n)
        ones.append(base + 11 * s + (game.maker - me) % n)
        ones.append(base + 12 * s + (game.first_seat - me) % n)
        if ones != slot.ones:
            if slot.ones:
                out[slot.ones] = 0.0
            out[ones] = 1.0
            slot.ones = ones
        # Scalars and the seats' counters, in the encoder's fixed fraction positions.
        pending = len(turn.pending_jokers) + (turn.displaced is not None) if own_turn else 0
        swap = game.pending_swap
        order = [*range(me, n), *range(me)]
        racks = game.racks
        rack_fraction = e._rack_fraction
        turns, totals = game.turns_taken, game.totals
        opened, board, three, atu = game.opened, game.board, game.announced_three, game.atu
        fval: list[Any] = [
            min(game.round, _ROUND_CAP) / _ROUND_CAP,
            len(game.stock) / self._points,
            len(visible) / self._points,
            min(game.deal_number, _DEALS_CAP) / _DEALS_CAP,
            indicator_in_stock,
            game.double_game,
            swap is not None and me in swap[:2],
            min(1.0, pending * e._joker_scale),
            min(turn.laid_points if own_turn else 0, _POINTS_CAP) / _POINTS_CAP,
            *[rack_fraction[len(racks[r])] for r in order],
            *[opened[r] for r in order],
            *[board[r] for r in order],
            *[three[r] for r in order],
            *[atu[r] for r in order],
            *[min(turns[r], _TURNS_CAP) / _TURNS_CAP for r in order],
            *[math.tanh(totals[r] / _TOTAL_SCALE) for r in order],
        ]
        if fval != slot.fval:
            fixed = self._fixed.get(n)
            if fixed is None:
                fixed = self._fixed[n] = np.array(e._fraction_positions(n), dtype=np.intp)
            out[fixed] = fval
            slot.fval = fval
        return out.copy()

    def _write_column(self, slot: _Seat, visible: tuple[int, ...]) -> None:
        """The column, column_top and column_depth blocks of ``slot`` for ``visible``."""
        e = self.encoder
        kinds = list(map(self._kind_list.__getitem__, visible))
        counts = np.bincount(kinds, minlength=KINDS) if kinds else _NO_INTS
        blocks = np.zeros(3 * KINDS, dtype=np.float32)
        blocks[:KINDS] = np.multiply(counts, e._inverse_array, dtype=np.float32)
        if kinds:
            blocks[KINDS + kinds[-1]] = 1.0
            # Each kind's last position (later entries overwrite): its depth from the top.
            last = dict(zip(kinds, range(len(kinds), 0, -1), strict=True))
            depth = e._depth_fraction
            blocks[[2 * KINDS + k for k in last]] = [depth[d] for d in last.values()]
        slot.vector[self._column_at : self._column_stop] = blocks
        slot.column = visible
        slot.column_counts = counts


class _FormationFacts:
    """The fields of a formation's view that its observation row reads."""

    __slots__ = ("faces", "id", "kind", "positions")

    def __init__(self, formation: Formation, faces: tuple[Face, ...]) -> None:
        self.id = formation.id
        self.kind = str(formation.kind)
        self.faces = tuple(faces[p] for p in formation.pieces)
        self.positions = formation.positions
