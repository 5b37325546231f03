"""Observation vectors built from one seat's view, and nothing else.

:class:`ObservationEncoder` turns a :class:`~rummykit.engine.SeatView` into a
fixed-length ``float32`` vector in ``[-1, 1]``.  Other seats appear in
*relative* order (slot 0 is the observer, slot 1 the next seat to play, ...);
action numbers use absolute seats, so the observer's absolute seat is given
too.  Counts of a face are divided by the copies the piece set holds, so a
full rack slot reads 1.0.  The blocks are listed by :attr:`ObservationEncoder.blocks`
and in ``docs/rl.md``.

Version 2 (:data:`OBSERVATION_VERSION`) appends the deal's public memory
(:class:`~rummykit.rl.memory.PublicMemory`: pieces known in each hand, discards,
takes and lay-downs by seat) and counts the pieces known to be in other hands as
seen, so ``unseen`` holds only the pieces whose place the observer cannot tell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from rummykit.engine import Game, Phase, SeatView, view
from rummykit.model.pieces import JOKER_KIND, Face, PieceSet, suit_of_kind
from rummykit.rl.memory import COUNT_BLOCKS, PublicMemory
from rummykit.rules.variant import Variant

__all__ = ["OBSERVATION_VERSION", "ObservationBlock", "ObservationEncoder", "seat_view"]

OBSERVATION_VERSION = 2
"""1: the table as it is; 2: plus the deal's public memory, and ``unseen`` net of the
pieces known to be in other hands (``docs/rl.md``, "Observation versions")."""

KINDS = JOKER_KIND + 1
_PHASES = tuple(Phase)
_KIND = attrgetter("kind")
_DOUBLES = ("small", "big", "key")
_SEAT_FEATURES = 13
_FORMATION_BASE = 15
_SCALARS = 9
# Soft caps for counters with no natural maximum: values are clipped to [0, 1].
_RACK_CAP = 30
_TURNS_CAP = 40
_ROUND_CAP = 40
_DEALS_CAP = 20
_POINTS_CAP = 100
_TOTAL_SCALE = 500.0


def seat_view(game: Game, seat: int) -> SeatView:
    """``view(game, seat)`` with an empty ``history``.

    The engine's :func:`~rummykit.engine.view` formats the whole public log of
    the deal as text on every call, which costs time in proportion to the
    deal's length and dominates an RL step; observations never read the
    history.  Narrowing the deal's log window to nothing for the call leaves
    every other field exactly as :func:`view` builds it (a test checks this).
    """
    start = game.deal_log_start
    game.deal_log_start = len(game.log)
    try:
        return view(game, seat)
    finally:
        game.deal_log_start = start


@dataclass(frozen=True, slots=True)
class ObservationBlock:
    """A named slice of the observation vector."""

    name: str
    start: int
    size: int
    doc: str

    @property
    def stop(self) -> int:
        """One past the block's last index."""
        return self.start + self.size


class FormationFacts(Protocol):
    """What a formation's observation row reads: a formation's view, or the tracker's
    lighter copy of the same fields."""

    @property
    def id(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def faces(self) -> tuple[Face, ...]: ...
    @property
    def positions(self) -> tuple[int, ...]: ...


class ObservationEncoder:
    """Encodes seat views of one variant and piece set as vectors."""

    def __init__(self, variant: Variant, pieces: PieceSet) -> None:
        self._key = (variant, pieces)
        self.max_players = variant.max_players
        self.piece_count = len(pieces)
        # Where nothing is laid during play (RULES §7.3) formations appear only in a
        # winner's final layout, which the ``table`` block counts by kind.
        self.max_formations = (
            len(pieces) // max(1, variant.meld_rules.min_size) if variant.melds_during_play else 0
        )
        copies = [0] * KINDS
        for face in pieces.faces:
            copies[face.kind] += 1
        self._copies_array = np.array(copies, dtype=np.int64)
        self._inverse_array = np.array([1.0 / c if c else 0.0 for c in copies], dtype=np.float32)
        self._joker_scale = 1.0 / max(1, copies[JOKER_KIND])
        s, k = self.max_players, KINDS
        layout = [
            ("seat", s, "one-hot: the observer's absolute seat (action numbers use it)"),
            (
                "phase",
                len(_PHASES),
                "one-hot: preplay, round1, turns, deal_end, match_end, showdown",
            ),
            ("to_move", s, "one-hot, relative: the seat to move (0 = the observer)"),
            ("rack", k, "own rack: pieces of each face kind / copies in the set"),
            ("must_use", k, "own column tiles that must go into a new formation this turn"),
            ("column", k, "the column (discard pile): pieces of each kind / copies"),
            ("column_top", k, "one-hot: the column's last tile (what 'take last' gets)"),
            ("column_depth", k, "1 / (1 + depth from the top) of each kind's nearest copy"),
            ("table", k, "pieces of each kind in formations on the table / copies"),
            (
                "unseen",
                k,
                "copies whose place the observer cannot tell (stock, unknown parts of racks)",
            ),
            ("indicator", k, "one-hot: the face-up indicator (tile variants)"),
            ("scalars", _SCALARS, "see ObservationEncoder.SCALARS"),
            (
                "seats",
                s * _SEAT_FEATURES,
                "per feature of ObservationEncoder.SEAT, one slot per relative seat",
            ),
            (
                "formations",
                self.max_formations * (_FORMATION_BASE + s),
                "per formation id m1..mT: see ObservationEncoder.FORMATION",
            ),
            (
                "known",
                s * k,
                "per relative seat, pieces of each kind publicly known in its hand / copies "
                "(slot 0: what the others know of the observer's)",
            ),
            ("discarded", s * k, "per relative seat, pieces of each kind it discarded this deal"),
            ("taken", s * k, "per relative seat, pieces of each kind it took from the pile"),
            ("laid", s * k, "per relative seat, net pieces of each kind it moved to the table"),
            ("last_discard", s * k, "per relative seat, one-hot: the kind of its latest discard"),
        ]
        blocks: list[ObservationBlock] = []
        start = 0
        for name, size, doc in layout:
            blocks.append(ObservationBlock(name, start, size, doc))
            start += size
        self.blocks: tuple[ObservationBlock, ...] = tuple(blocks)
        self.size = start
        """Length of the observation vector."""
        self._at = {b.name: b.start for b in blocks}
        # Block offsets as attributes: encode reads them on every call.
        self._seat_at = self._at["seat"]
        self._phase_at = {phase: self._at["phase"] + i for i, phase in enumerate(_PHASES)}
        self._to_move_at = self._at["to_move"]
        self._rack_at = self._at["rack"]
        self._must_use_at = self._at["must_use"]
        self._column_at = self._at["column"]
        self._column_top_at = self._at["column_top"]
        self._column_depth_at = self._at["column_depth"]
        self._table_at = self._at["table"]
        self._unseen_at = self._at["unseen"]
        self._indicator_at = self._at["indicator"]
        self._seats_at = self._at["seats"]
        # Lookup tables: a rack never holds more than every piece; depth d (1-based
        # from the top) reads 1 / d.
        pieces_count = len(pieces)
        self._rack_fraction = [min(x, _RACK_CAP) / _RACK_CAP for x in range(pieces_count + 1)]
        self._depth_fraction = [0.0] + [1.0 / d for d in range(1, pieces_count + 1)]
        self._formation_stride = _FORMATION_BASE + s
        # The four count blocks are adjacent and in PublicMemory.counts' order.
        self._memory_at = self._at[COUNT_BLOCKS[0]]
        self._memory_stop = self._at[COUNT_BLOCKS[-1]] + s * k
        assert [self._at[name] for name in COUNT_BLOCKS] == list(
            range(self._memory_at, self._memory_stop, s * k)
        )
        self._last_discard_at = self._at["last_discard"]
        # Formation rows depend only on the formation and its owner's relative seat:
        # (notation, kind, id, owner offset) -> (one-hot indices, fraction indices, values).
        self._formation_rows: dict[
            tuple[str, str, int, int], tuple[list[int], list[int], list[float]]
        ] = {}
        # The fraction-valued positions written on every call, by player count.
        self._fixed_fractions: dict[int, list[int]] = {}
        # Count blocks are divided by the copies of each face kind; one-hots by 1.
        scale = np.ones(self.size, dtype=np.float32)
        for name in ("rack", "must_use", "column", "table"):
            scale[self._at[name] : self._at[name] + k] = self._inverse_array
        self._scale = scale

    SCALARS = (
        "round / 40 (capped)",
        "stock count / pieces",
        "column length / pieces",
        "deal number / 20 (capped)",
        "indicator still in the stock",
        "double game",
        "a swap offer to or by the observer awaits an answer",
        "freed jokers to place this turn / jokers in the set",
        "opening points laid this turn / 100 (capped)",
    )
    """The ``scalars`` block, in order."""
    SEAT = (
        "seat present at this table",
        "rack size / 30 (capped)",
        "opened",
        "plays on the board",
        "announced three tiles",
        "announced atu",
        "announced small doubles",
        "announced big doubles",
        "announced key doubles",
        "turns taken this deal / 40 (capped)",
        "match total: tanh(total / 500), in [-1, 1]",
        "is the maker",
        "played first this deal",
    )
    """Features of the ``seats`` block, in order; each has one slot per relative seat
    (slot 0 is the observer, slot 1 the next seat to play, ...)."""
    FORMATION = (
        "formation present",
        "is a run",
        "is a set",
        "suit one-hot (4; runs)",
        "natural suits present one-hot (4; sets and runs)",
        "lowest position / 14",
        "highest position / 14",
        "pieces / 14",
        "jokers / jokers in the set",
        "owner one-hot, relative (max players)",
    )
    """Features of each formation slot, in order."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickles carry the variant and pieces and get the receiving process's encoder.
        return (_shared_encoder, self._key)

    def __copy__(self) -> ObservationEncoder:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ObservationEncoder:
        return self  # its tables never change after construction; caches are shared

    def block(self, name: str) -> ObservationBlock:
        """The block called ``name``."""
        for b in self.blocks:
            if b.name == name:
                return b
        raise KeyError(name)

    version = OBSERVATION_VERSION

    def encode(
        self, seat_view: SeatView, memory: PublicMemory | None = None
    ) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat_view`` (a new array).

        ``memory`` is the public memory of the same game at the same moment
        (:class:`~rummykit.rl.Table` keeps it); without it the memory blocks are 0
        and only the pieces in sight count as seen.
        """
        # Speed matters (one call per environment step): every count and one-hot
        # becomes an index for a single bincount, scaled per block afterwards; the
        # fractional features are written with one fancy assignment; loops run in C
        # (map over bound methods, lookup tables) where they can.
        v = seat_view
        n = v.players
        me = v.seat
        rack_at, column_at = self._rack_at, self._column_at
        idx = [
            self._seat_at + me,
            self._phase_at[v.phase],
            self._to_move_at + (v.to_move - me) % n,
        ]
        idx += map(rack_at.__add__, map(_KIND, v.rack))
        if v.must_use:
            idx += map(self._must_use_at.__add__, map(_KIND, v.must_use))
        column = v.column
        column_kinds = list(map(_KIND, column))
        idx += map(column_at.__add__, column_kinds)
        if v.indicator is not None:
            idx.append(self._indicator_at + v.indicator.kind)
        fidx = self._fixed_fractions.get(n)
        if fidx is None:
            fidx = self._fixed_fractions[n] = self._fraction_positions(n)
        fidx = fidx[:]
        pieces = self.piece_count
        fval = [
            min(v.round, _ROUND_CAP) / _ROUND_CAP,
            v.stock_count / pieces,
            len(column) / pieces,
            min(v.deal_number, _DEALS_CAP) / _DEALS_CAP,
            v.indicator_in_stock,
            v.double_game,
            v.swap_offer is not None,
            min(1.0, v.pending_jokers * self._joker_scale),
            min(v.laid_points, _POINTS_CAP) / _POINTS_CAP,
        ]
        # Seat features, feature-major: rotate each per-seat tuple so the observer is
        # first, then write one slot per seat.
        s = self.max_players
        base = self._seats_at
        idx += range(base, base + n)  # present
        sizes = v.rack_sizes[me:] + v.rack_sizes[:me]
        turns = v.turns_taken[me:] + v.turns_taken[:me]
        totals = v.totals[me:] + v.totals[:me]
        fval += map(self._rack_fraction.__getitem__, sizes)
        fval += v.opened[me:] + v.opened[:me]
        fval += v.board[me:] + v.board[:me]
        fval += v.announced_three[me:] + v.announced_three[:me]
        fval += v.atu[me:] + v.atu[:me]
        fval += [min(x, _TURNS_CAP) / _TURNS_CAP for x in turns]
        fval += [math.tanh(x / _TOTAL_SCALE) for x in totals]
        for seat, announced in enumerate(v.doubles_announced):
            for category in announced:
                idx.append(base + (6 + _DOUBLES.index(category)) * s + (seat - me) % n)
        idx.append(base + 11 * s + (v.maker - me) % n)
        idx.append(base + 12 * s + (v.first_seat - me) % n)
        table = v.table
        if table:
            rows = self._formation_rows
            for formation in table[: self.max_formations]:
                key = (formation.notation, formation.kind, formation.id, (formation.owner - me) % n)
                row = rows.get(key)
                if row is None:
                    if len(rows) > 50_000:
                        rows.clear()
                    row = rows[key] = self._formation_row(formation, key[3])
                idx += row[0]
                fidx += row[1]
                fval += row[2]
        if column_kinds:
            idx.append(self._column_top_at + column_kinds[-1])
            # Each kind's last position in the column (later entries overwrite); its
            # depth from the top is len - 1 - position.
            last = dict(zip(column_kinds, range(len(column_kinds), 0, -1), strict=True))
            fidx += map(self._column_depth_at.__add__, last)
            fval += map(self._depth_fraction.__getitem__, last.values())
        counts = np.bincount(idx, minlength=self.size)
        out = np.multiply(counts, self._scale, dtype=np.float32)
        table_at = self._table_at
        seen = (
            counts[rack_at : rack_at + KINDS]
            + counts[column_at : column_at + KINDS]
            + counts[table_at : table_at + KINDS]
        )
        if v.indicator is not None and v.indicator_in_stock:
            seen[v.indicator.kind] += 1
        if memory is not None:
            seen = seen + self._write_memory(out, memory, me, n)
        base = self._unseen_at
        out[base : base + KINDS] = np.maximum(self._copies_array - seen, 0) * self._inverse_array
        out[fidx] = fval
        return out

    def _write_memory(
        self, out: npt.NDArray[np.float32], memory: PublicMemory, me: int, n: int
    ) -> npt.NDArray[np.int64]:
        """Write the memory blocks, rotated so the observer is slot 0; return the pieces
        of each kind known to be in the other seats' hands."""
        order = [(me + r) % n for r in range(n)]
        counts = memory.counts[:, order]
        blocks = out[self._memory_at : self._memory_stop].reshape(len(COUNT_BLOCKS), -1, KINDS)
        # Only ``laid`` can be negative; every block is clipped to [-1, 1] (with the
        # ufuncs: np.clip costs several times more on arrays this small).
        scaled = np.multiply(counts, self._inverse_array, dtype=np.float32)
        np.minimum(scaled, 1.0, out=scaled)
        np.maximum(scaled, -1.0, out=scaled)
        blocks[:, :n] = scaled
        at = self._last_discard_at
        for r, seat in enumerate(order):
            kind = memory.last_discard[seat]
            if kind >= 0:
                out[at + r * KINDS + kind] = 1.0
        return counts[0, 1:].sum(axis=0)  # type: ignore[no-any-return]

    def _fraction_positions(self, players: int) -> list[int]:
        """Positions of the fractional features written on every call, in order."""
        base = self._at["scalars"]
        positions = list(range(base, base + _SCALARS))
        seats = self._at["seats"]
        for feature in (1, 2, 3, 4, 5, 9, 10):
            start = seats + feature * self.max_players
            positions += range(start, start + players)
        return positions

    def _formation_row(
        self, formation: FormationFacts, owner: int
    ) -> tuple[list[int], list[int], list[float]]:
        """(indices counted once each, fraction indices, their values) for a formation:
        its pieces in the ``table`` block and its ``formations`` slot."""
        o = self._at["formations"] + (formation.id - 1) * self._formation_stride
        is_run = formation.kind == "run"
        naturals = [f.kind for f in formation.faces if f.kind != JOKER_KIND]
        suits = sorted({suit_of_kind(kind) for kind in naturals})
        ones = [self._at["table"] + f.kind for f in formation.faces]
        ones += [o, o + 1 if is_run else o + 2, o + _FORMATION_BASE + owner]
        ones += [o + 7 + suit for suit in suits]
        if is_run:
            ones += [o + 3 + suit for suit in suits]
        positions = formation.positions
        jokers = len(formation.faces) - len(naturals)
        values = [
            min(positions) / 14,
            max(positions) / 14,
            len(formation.faces) / 14,
            min(1.0, jokers * self._joker_scale),
        ]
        return ones, [o + 11, o + 12, o + 13, o + 14], values


def _shared_encoder(variant: Variant, pieces: PieceSet) -> ObservationEncoder:
    """The cached encoder of ``variant`` and ``pieces`` (unpickling)."""
    from rummykit.rl.core import observation_encoder  # core imports this module

    return observation_encoder(variant, pieces)
