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
from rummykit.engine.extensions.board import board_state
from rummykit.engine.extensions.preplay import preplay_state
from rummykit.engine.extensions.three import three_state
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
        counts: list[int],
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
            rotated = self.owner_at + (self.owners - me) % n
            positions = self.rotated[(me, n)] = rotated.astype(np.intp)
        return positions


_ZEROS = [0] * KINDS
_KIND_RANGE = range(KINDS)
_DOUBLE_AT = {name: i for i, name in enumerate(_DOUBLES)}


class _Seat:
    """One observer's vector and the state each of its blocks was written from.

    Counts are Python lists per face kind: a step changes a few entries, which are
    found by comparing lists and written to the vector in one assignment."""

    __slots__ = (
        "column",
        "column_counts",
        "depth",
        "extra",
        "face_up",
        "fval",
        "known_serial",
        "last_discard",
        "memory",
        "memory_version",
        "must_use",
        "ones",
        "rack",
        "rack_counts",
        "table",
        "top",
        "unseen",
        "vector",
    )

    def __init__(self, size: int) -> None:
        self.vector: Floats = np.zeros(size, dtype=np.float32)
        self.ones: list[int] = []
        self.fval: list[Any] = []
        self.rack: tuple[int, ...] | None = None
        self.rack_counts = _ZEROS
        self.must_use: list[int] = []
        self.column: tuple[int, ...] | None = None
        self.column_counts = _ZEROS
        self.top = -1
        self.depth: dict[int, int] = {}
        self.table: _TableState | None = None
        self.memory: PublicMemory | None = None
        self.memory_version = -1
        self.last_discard: list[int] = []
        self.extra = _ZEROS
        self.known_serial = -1
        """Pieces of each kind the memory knows in the other hands."""
        self.face_up = -1
        """The kind of a face-up indicator still in the stock (counted seen), or -1."""
        self.unseen = [-1] * KINDS  # nothing written yet: every entry differs


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
        self._kind_list: list[int] = []
        self._fixed: dict[int, list[int]] = {}
        self._memory_positions: dict[tuple[int, int], Positions] = {}
        self._memory_of: PublicMemory | None = None  # held, so identity stays meaningful
        self._memory_version = -1
        self._memory_scaled: Floats = np.zeros(0, dtype=np.float32)
        self._memory_known: list[list[int]] = []
        self._memory_known_total: list[int] = []
        self._known_bytes = b""
        self._known_serial = 0
        """Counts the changes of the memory's ``known`` counts (seats compare theirs)."""
        self._table_state: _TableState | None = None
        self._rows: dict[int, tuple[Formation, list[int], list[int], list[float], int]] = {}
        self._copies: list[int] = e._copies_array.tolist()
        # Python floats equal to the float32 inverses: c * inverse in double precision is
        # exact, so storing it as float32 rounds exactly as numpy's float32 product.
        self._inverse: list[float] = e._inverse_array.tolist()
        self._rack_at = e._rack_at
        self._unseen_at = e._unseen_at
        self._column_at = e._column_at
        self._top_at = e._column_top_at
        self._depth_at = e._column_depth_at
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
        ones, fidx, fval = e._formation_row(facts, 0)
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
        for f in table[: e.max_formations]:
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
            table_counts.tolist(),
            np.multiply(table_counts, e._inverse_array, dtype=np.float32),
            formations,
            np.array(owner_at, dtype=np.int64),
            np.array(owners, dtype=np.int64),
        )
        return state

    def _memory(self, memory: PublicMemory) -> Floats:
        """The memory's counts scaled and clipped (absolute seats), rebuilt when the
        memory changed; the ``known`` counts as lists alongside."""
        if memory is not self._memory_of or memory.version != self._memory_version:
            counts = memory.counts
            scaled = np.multiply(counts, self.encoder._inverse_array, dtype=np.float32)
            np.minimum(scaled, 1.0, out=scaled)
            np.maximum(scaled, -1.0, out=scaled)
            self._memory_scaled = scaled.ravel()
            known = counts[0]
            known_bytes = known.tobytes()
            if known_bytes != self._known_bytes:  # most actions leave ``known`` as it was
                self._memory_known = known.tolist()
                self._memory_known_total = known.sum(axis=0).tolist()
                self._known_bytes = known_bytes
                self._known_serial += 1
            self._memory_of = memory
            self._memory_version = memory.version
        return self._memory_scaled

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
        inverse = self._inverse
        n = game.players
        me = seat
        slot = self._seats.get((me, n))
        if slot is None:
            slot = self._seats[(me, n)] = _Seat(e.size)
        out = slot.vector
        # Entries that changed, written in one assignment at the end.
        pos: list[int] = []
        val: list[float] = []
        # Kinds whose ``unseen`` entry may have changed (all of them for a new slot).
        dirty: set[int] = set(range(KINDS)) if slot.rack is None else set()
        phase = game.phase
        to_move = game.to_move
        own_turn = to_move == me and phase in _OWN_TURN
        turn = game.turn
        # The rack and the column tiles it must use this turn.
        rack = game.racks[me]
        key = tuple(rack)
        if key != slot.rack:
            counts = slot.rack_counts[:]
            changed = _moved(slot.rack or (), key, kind_of, counts)
            at = self._rack_at
            for k in changed:
                pos.append(at + k)
                val.append(counts[k] * inverse[k])
            dirty |= changed
            slot.rack_counts = counts
            slot.rack = key
        must = [kind_of[p] for p in turn.must_use if p in rack] if own_turn else []
        if must != slot.must_use:
            counts = [0] * KINDS
            for k in must:
                counts[k] += 1
            old = [0] * KINDS
            for k in slot.must_use:
                old[k] += 1
            at = e._must_use_at
            for k in range(KINDS):
                if old[k] != counts[k]:
                    pos.append(at + k)
                    val.append(counts[k] * inverse[k])
            slot.must_use = must
        # The discard pile as this seat sees it (RULES §6.6: a card closing face down
        # shows only to the closer).
        face_down, face_down_seat = game.hidden_discard()
        if face_down is not None and face_down_seat != me:
            visible = tuple(p for p in game.column if p != face_down)
        else:
            visible = tuple(game.column)
        if visible != slot.column:
            dirty |= self._column(slot, visible, pos, val)
        # The table.
        table = self._table(game)
        if table is not slot.table:
            at = e._table_at
            out[at : at + KINDS] = table.block
            out[self._formations_at : self._formations_stop] = table.formations
            if len(table.owners):
                out[table.owner_positions(me, n)] = 1.0
            before = slot.table.counts if slot.table is not None else _ZEROS
            dirty.update(
                k for k, a, b in zip(_KIND_RANGE, before, table.counts, strict=True) if a != b
            )
            slot.table = table
        # The public memory, and the pieces it knows in the other hands.
        if memory is not slot.memory or (
            memory is not None and memory.version != slot.memory_version
        ):
            extra = slot.extra
            if memory is None:
                out[e._memory_at : self._last_stop] = 0.0
                extra = _ZEROS
                slot.last_discard = []
                slot.known_serial = -1
            else:
                out[self._memory_at(me, n)] = self._memory(memory)
                if slot.known_serial != self._known_serial:
                    mine = self._memory_known[me]
                    total = self._memory_known_total
                    extra = [t - m for t, m in zip(total, mine, strict=True)]
                    slot.known_serial = self._known_serial
                last = memory.last_discard
                if last != slot.last_discard:
                    out[self._last_at : self._last_stop] = 0.0
                    at = self._last_at
                    for other, kind in enumerate(last):
                        if kind >= 0:
                            pos.append(at + ((other - me) % n) * KINDS + kind)
                            val.append(1.0)
                    slot.last_discard = last[:]
                slot.memory_version = memory.version
            slot.memory = memory
            if extra != slot.extra:
                dirty.update(
                    k for k, a, b in zip(_KIND_RANGE, slot.extra, extra, strict=True) if a != b
                )
                slot.extra = extra
        indicator = game.indicator
        indicator_in_stock = indicator is not None and indicator in game.stock
        face_up = kind_of[indicator] if indicator is not None and indicator_in_stock else -1
        if face_up != slot.face_up:
            dirty.update((face_up, slot.face_up))
            dirty.discard(-1)
            slot.face_up = face_up
        if dirty:
            copies, unseen = self._copies, slot.unseen
            racked, piled, laid, known = (
                slot.rack_counts,
                slot.column_counts,
                table.counts,
                slot.extra,
            )
            at = self._unseen_at
            for k in dirty:
                u = copies[k] - racked[k] - piled[k] - laid[k] - known[k] - (k == face_up)
                if u < 0:
                    u = 0
                if u != unseen[k]:
                    unseen[k] = u
                    pos.append(at + k)
                    val.append(u * inverse[k])
        # One-hots: the observer's seat, the phase, the seat to move, the indicator and
        # the seats' flags.
        s = e.max_players
        base = e._seats_at
        ones = [e._seat_at + me, e._phase_at[phase], e._to_move_at + (to_move - me) % n]
        if indicator is not None:
            ones.append(e._indicator_at + kind_of[indicator])
        ones += range(base, base + n)  # present
        preplay = preplay_state(game)
        for other, announced in enumerate(preplay.doubles_announced if preplay else ()):
            for category in announced:
                ones.append(base + (6 + _DOUBLE_AT[category]) * s + (other - me) % n)
        ones.append(base + 11 * s + (game.maker - me) % n)
        ones.append(base + 12 * s + (game.first_seat - me) % n)
        if ones != slot.ones:
            if slot.ones:
                out[slot.ones] = 0.0
            pos += ones
            val += [1.0] * len(ones)
            slot.ones = ones
        # Scalars and the seats' counters, in the encoder's fixed fraction positions.
        pending = (
            len(turn.pending_jokers) + len(game.obliged_pieces(game.to_move)) if own_turn else 0
        )
        swap = preplay.pending_swap if preplay else None
        order = [*range(me, n), *range(me)]
        racks = game.racks
        rack_fraction = e._rack_fraction
        turns, totals = game.turns_taken, game.totals
        opened = game.opened
        boards = board_state(game)
        board = boards.on_board if boards else [False] * n
        said = three_state(game)
        three = said.announced if said else [False] * n
        atu = preplay.atu if preplay else [False] * n
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
                fixed = self._fixed[n] = e._fraction_positions(n)
            pos += fixed
            val += fval
            slot.fval = fval
        if pos:
            out[pos] = val
        return out.copy()

    def _column(
        self, slot: _Seat, visible: tuple[int, ...], pos: list[int], val: list[float]
    ) -> set[int]:
        """Append the changes to the column, column_top and column_depth blocks for
        ``visible``; return the kinds whose count changed."""
        kind_of = self._kind_list
        counts = slot.column_counts[:]
        changed = _moved(slot.column or (), visible, kind_of, counts)
        at, inverse = self._column_at, self._inverse
        for k in changed:
            pos.append(at + k)
            val.append(counts[k] * inverse[k])
        kinds = list(map(kind_of.__getitem__, visible))
        top = kinds[-1] if kinds else -1
        if top != slot.top:
            if slot.top >= 0:
                pos.append(self._top_at + slot.top)
                val.append(0.0)
            if top >= 0:
                pos.append(self._top_at + top)
                val.append(1.0)
        # Each kind's last position (later entries overwrite): its depth from the top.
        depth = dict(zip(kinds, range(len(kinds), 0, -1), strict=True))
        old = slot.depth
        fraction = self.encoder._depth_fraction
        at = self._depth_at
        for k in old.keys() - depth.keys():
            pos.append(at + k)
            val.append(0.0)
        for k, d in depth.items():
            if old.get(k) != d:
                pos.append(at + k)
                val.append(fraction[d])
        slot.column = visible
        slot.column_counts = counts
        slot.top = top
        slot.depth = depth
        return changed


def _moved(
    before: tuple[int, ...], after: tuple[int, ...], kind_of: list[int], counts: list[int]
) -> set[int]:
    """Update ``counts`` (per kind, of the pieces ``before``) to the pieces ``after``
    (piece ids are unique) and return the kinds that changed."""
    old, new = set(before), set(after)
    changed = set()
    for p in old - new:
        k = kind_of[p]
        counts[k] -= 1
        changed.add(k)
    for p in new - old:
        k = kind_of[p]
        counts[k] += 1
        changed.add(k)
    return changed


class _FormationFacts:
    """The fields of a formation's view that its observation row reads."""

    __slots__ = ("faces", "id", "kind", "positions")

    def __init__(self, formation: Formation, faces: tuple[Face, ...]) -> None:
        self.id = formation.id
        self.kind = str(formation.kind)
        self.faces = tuple(faces[p] for p in formation.pieces)
        self.positions = formation.positions
