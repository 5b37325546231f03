"""Legal actions as fixed-width feature vectors: an action interface for learning whose
size does not grow with the meld catalogue.

The flat codec (:mod:`rummykit.rl.actions`) gives every engine action its own number,
so its size follows the formations the piece set can make (romme: 141,050) while a
state has a handful of legal actions.  Here each *legal* action is described by what
it does, as seen from the acting seat's view, in ``F`` numbers fixed per variant:

==============  ======  ===============================================================
block           size    content
==============  ======  ===============================================================
``verb``        20      one-hot: draw, take, meld, attach, exchange, reclaim, discard,
                        close, remi, out, three, board, reset, atu, doubles, swap,
                        accept, decline, reshuffle, ready
``lays``        K       pieces of each face kind the move puts from the hand on the
                        table / copies
``declared``    K       kinds the laid jokers stand for (a meld's or an attach's
                        declaration) / copies
``takes``       K       pieces of each kind the move brings into the hand: the discard
                        pile from the taken position up, a joker freed by an exchange,
                        a reclaimed end piece / copies
``gives``       K       one-hot: the piece put on the pile, closed with, offered or
                        accepted in a swap
``keeps``       K       the hand after the move (rack + takes − lays − gives) / copies
``target``      5       the formation played on: present, own, run, set, pieces / 14
``seat``        S       one-hot, relative to the actor: the seat a swap is offered to
``doubles``     3       one-hot: small, big, key doubles announced
``scalars``     5       pieces laid / 14, points laid / 100, points kept / 100 (the
                        variant's scoring values), pieces taken / 14, hand size after / 30
==============  ======  ===============================================================

``K`` = 53 face kinds (52 naturals, then the joker), ``S`` = the variant's most
players.  Values lie in [0, 1] (capped).  The vectors read only the seat's view
(:func:`rummykit.engine.view`), so they leak nothing hidden.

A scoring network rates each row (optionally with the observation) and a softmax over
the legal rows is the policy: the output layer no longer has one unit per flat action.
:class:`~rummykit.rl.RummyGymEnv` offers this as ``action_space="features"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rummykit.engine import SeatView
from rummykit.engine.actions import (
    AcceptSwap,
    Action,
    AnnounceAtu,
    AnnounceDoubles,
    AnnounceThree,
    Attach,
    CallRemi,
    CloseBoard,
    DeclareBoard,
    DeclineSwap,
    Discard,
    DoublesCategory,
    Draw,
    ExchangeJoker,
    GoOut,
    Meld,
    ProposeSwap,
    Ready,
    Reclaim,
    ResetTurn,
    Reshuffle,
    TakeColumn,
)
from rummykit.model.pieces import JOKER_KIND, Face, PieceSet
from rummykit.rl.core import InvalidActionError, Table
from rummykit.rules.options import OptionError
from rummykit.rules.variant import Variant

__all__ = [
    "DEFAULT_MAX_LEGAL_ACTIONS",
    "VERBS",
    "ActionFeatureBlock",
    "ActionFeatures",
    "LegalRows",
    "action_features",
]

KINDS = JOKER_KIND + 1
VERBS: tuple[type, ...] = (
    Draw,
    TakeColumn,
    Meld,
    Attach,
    ExchangeJoker,
    Reclaim,
    Discard,
    CloseBoard,
    CallRemi,
    GoOut,
    AnnounceThree,
    DeclareBoard,
    ResetTurn,
    AnnounceAtu,
    AnnounceDoubles,
    ProposeSwap,
    AcceptSwap,
    DeclineSwap,
    Reshuffle,
    Ready,
)
"""The engine action types, in the order of the ``verb`` block."""
_VERB_INDEX = {verb: i for i, verb in enumerate(VERBS)}
_DOUBLES = tuple(DoublesCategory)
_TARGET = 5
_SCALARS = 5
_CAP_PIECES = 14
_CAP_POINTS = 100
_CAP_HAND = 30


@dataclass(frozen=True, slots=True)
class ActionFeatureBlock:
    """A named range of an action's feature vector."""

    name: str
    start: int
    size: int

    @property
    def stop(self) -> int:
        """One past the block's last index."""
        return self.start + self.size


class ActionFeatures:
    """The action-feature encoder of one variant and piece set (see the module doc)."""

    def __init__(self, variant: Variant, pieces: PieceSet) -> None:
        self.variant_name = variant.name
        self._key = (variant, pieces)
        self.max_players = variant.max_players
        copies = np.zeros(KINDS, dtype=np.float32)
        for face in pieces.faces:
            copies[face.kind] += 1
        self._inverse_copies = np.where(copies > 0, 1.0 / np.maximum(copies, 1), 0.0).astype(
            np.float32
        )
        # Points use the scoring values at default options (a feature, not a score).
        value = variant.score_values(variant.resolve(variant.default_players, {}))
        material = pieces.material
        self._points = np.array(
            [value(Face.from_kind(material, k)) for k in range(KINDS)],
            dtype=np.float32,
        )
        sizes = (
            ("verb", len(VERBS)),
            ("lays", KINDS),
            ("declared", KINDS),
            ("takes", KINDS),
            ("gives", KINDS),
            ("keeps", KINDS),
            ("target", _TARGET),
            ("seat", self.max_players),
            ("doubles", len(_DOUBLES)),
            ("scalars", _SCALARS),
        )
        blocks = []
        position = 0
        for name, size in sizes:
            blocks.append(ActionFeatureBlock(name, position, size))
            position += size
        self.blocks: tuple[ActionFeatureBlock, ...] = tuple(blocks)
        self.size = position
        """F, the width of one action's vector."""
        self._at = {b.name: b.start for b in blocks}

    def __reduce__(self) -> tuple[Any, ...]:
        return (action_features, self._key)

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionFeatures:
        return self  # immutable

    def block(self, name: str) -> ActionFeatureBlock:
        """The block called ``name``."""
        for b in self.blocks:
            if b.name == name:
                return b
        raise KeyError(name)

    def encode(self, seen: SeatView, actions: Sequence[Action]) -> npt.NDArray[np.float32]:
        """One row per action of ``seen.seat``: an ``(len(actions), F)`` array."""
        # Speed: the loop only collects (row, kind) pairs and one-hot positions; every
        # count, scaling and sum is then one NumPy operation over all the rows.
        n = len(actions)
        at = self._at
        out = np.zeros((n, self.size), dtype=np.float32)
        moved: tuple[list[int], list[int], list[int]] = ([], [], [])  # block, row, kind
        hot_rows: list[int] = []
        hot_cols: list[int] = []
        for row, action in enumerate(actions):
            hot_rows.append(row)
            hot_cols.append(at["verb"] + _VERB_INDEX[type(action)])
            for block, faces in enumerate(self._moves(seen, action)):
                for face in faces:
                    moved[0].append(block)
                    moved[1].append(row)
                    moved[2].append(face.kind)
            extra = self._one_hot(seen, action, out[row])
            if extra >= 0:
                hot_rows.append(row)
                hot_cols.append(extra)
        out[hot_rows, hot_cols] = 1.0
        counts = np.zeros((4, n, KINDS), dtype=np.float32)  # lays, declared, takes, gives
        np.add.at(counts, (moved[0], moved[1], moved[2]), 1.0)
        inverse = self._inverse_copies
        scaled = np.minimum(counts * inverse, 1.0)
        out[:, at["lays"] : at["keeps"]] = scaled.transpose(1, 0, 2).reshape(n, 4 * KINDS)
        rack = np.bincount([f.kind for f in seen.rack], minlength=KINDS).astype(np.float32)
        keeps = np.maximum(rack + counts[2] - counts[0] - counts[3], 0.0)
        out[:, at["keeps"] : at["keeps"] + KINDS] = np.minimum(keeps * inverse, 1.0)
        s = at["scalars"]
        points = self._points
        out[:, s] = counts[0].sum(axis=1) / _CAP_PIECES
        out[:, s + 1] = counts[0] @ points / _CAP_POINTS
        out[:, s + 2] = keeps @ points / _CAP_POINTS
        out[:, s + 3] = counts[2].sum(axis=1) / _CAP_PIECES
        out[:, s + 4] = keeps.sum(axis=1) / _CAP_HAND
        np.clip(out[:, s : s + _SCALARS], 0.0, 1.0, out=out[:, s : s + _SCALARS])
        return out

    def _moves(self, seen: SeatView, action: Action) -> tuple[Sequence[Face], ...]:
        """(lays, declared, takes, gives) of ``action`` for the seat of ``seen``."""
        proof = action.proves()
        gives = proof.discards + proof.passes
        lays: Sequence[Face] = proof.lays
        if proof.lays_hand:
            lays = [*lays, *_without(seen.rack, gives)]
        takes: Sequence[Face] = proof.takes
        if proof.takes_column_from is not None:
            takes = [*takes, *seen.column[proof.takes_column_from :]]
        if proof.takes_jokers_from is not None:
            takes = [*takes, *_freed_jokers(seen, proof.takes_jokers_from, len(proof.lays))]
        return lays, proof.declared, takes, gives

    def _one_hot(self, seen: SeatView, action: Action, v: npt.NDArray[np.float32]) -> int:
        """The position of the action's seat or doubles one-hot (or -1); writes the
        ``target`` block of a move on a formation into ``v``."""
        at = self._at
        if isinstance(action, ProposeSwap):
            return at["seat"] + (action.seat - seen.seat) % seen.players
        if isinstance(action, AnnounceDoubles):
            return at["doubles"] + _DOUBLES.index(action.category)
        if isinstance(action, Attach | ExchangeJoker | Reclaim):
            t = at["target"]
            v[t] = 1.0
            formation = next((f for f in seen.table if f.id == action.target), None)
            if formation is not None:
                v[t + 1] = float(formation.owner == seen.seat)
                v[t + 2] = float(formation.kind == "run")
                v[t + 3] = float(formation.kind == "set")
                v[t + 4] = min(1.0, len(formation.faces) / _CAP_PIECES)
        return -1


def _freed_jokers(seen: SeatView, target: int, naturals: int) -> list[Face]:
    """The jokers of formation ``target`` that ``naturals`` exchanged pieces free."""
    formation = next((f for f in seen.table if f.id == target), None)
    jokers = [] if formation is None else [f for f in formation.faces if f.is_joker]
    return jokers[:naturals]


def _without(rack: Sequence[Face], faces: Sequence[Face]) -> list[Face]:
    rest = list(rack)
    for face in faces:
        if face in rest:
            rest.remove(face)
    return rest


_ENCODERS: dict[tuple[str, PieceSet], tuple[Variant, ActionFeatures]] = {}


def action_features(variant: Variant, pieces: PieceSet) -> ActionFeatures:
    """The action-feature encoder of ``variant`` with ``pieces``, built once and cached."""
    key = (variant.name, pieces)
    known = _ENCODERS.get(key)
    if known is None or known[0] is not variant:
        known = _ENCODERS[key] = (variant, ActionFeatures(variant, pieces))
    return known[1]


DEFAULT_MAX_LEGAL_ACTIONS = 64
"""Rows of ``action_space="features"``: legal actions listed per step (docs/rl.md)."""
# Rows list these blocks after every other action, so that a state with more legal
# actions than rows drops only some of its table plays, never a draw or a discard.
_TABLE_PLAY_BLOCKS = ("meld", "attach", "exchange", "reclaim")


class LegalRows:
    """The environments' ``action_space="features"``: a seat's legal actions as rows.

    Row ``i`` is legal action ``rows(seat)[i]`` (a flat number): the legal actions in
    number order, formations, attachments, exchanges and reclaims after the others, at
    most ``max_rows`` of them (``overflow`` counts those left out at the last listing).
    """

    def __init__(self, table: Table, max_rows: int = DEFAULT_MAX_LEGAL_ACTIONS) -> None:
        if max_rows < 1:
            raise OptionError(f"max_legal_actions = {max_rows} must be >= 1")
        self.table = table
        self.max_rows = int(max_rows)
        self.encoder = action_features(table.variant, table.game.pieces)
        codec = table.codec
        self._late = np.zeros(codec.size, dtype=np.bool_)
        for name in _TABLE_PLAY_BLOCKS:
            block = codec.block(name)
            self._late[block.start : block.stop] = True
        self._key: tuple[int, int, int] = (-1, -1, -1)
        self._rows: list[int] = []
        self.overflow = 0

    def spaces(self, observation: spaces.Space[Any], with_mask: bool) -> spaces.Dict:
        """The observation space: the vector, the rows' features and (optionally) the mask."""
        entries: dict[str, spaces.Space[Any]] = {
            "observation": observation,
            "action_features": spaces.Box(
                0.0, 1.0, (self.max_rows, self.encoder.size), dtype=np.float32
            ),
        }
        if with_mask:
            entries["action_mask"] = spaces.Box(0, 1, (self.max_rows,), dtype=np.int8)
        return spaces.Dict(entries)

    def rows(self, seat: int) -> list[int]:
        """The flat numbers of ``seat``'s rows now (none unless it is to move)."""
        table = self.table
        key = (id(table.game), len(table.game.log), seat)
        if key != self._key:
            legal = sorted(table.legal()) if seat == table.to_move and not table.is_over else []
            late = self._late
            ordered = [n for n in legal if not late[n]] + [n for n in legal if late[n]]
            self.overflow = max(0, len(ordered) - self.max_rows)
            self._rows = ordered[: self.max_rows]
            self._key = key
        return self._rows

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """1 for each row in use."""
        mask = np.zeros(self.max_rows, dtype=np.int8)
        mask[: len(self.rows(seat))] = 1
        return mask

    def features(self, seat: int) -> npt.NDArray[np.float32]:
        """The ``(max_rows, F)`` features; rows past the legal ones are 0."""
        rows = self.rows(seat)
        out = np.zeros((self.max_rows, self.encoder.size), dtype=np.float32)
        if rows:
            legal = self.table.legal()
            out[: len(rows)] = self.encoder.encode(
                self.table.seat_view(seat), [legal[n] for n in rows]
            )
        return out

    def number(self, seat: int, row: Any) -> int:
        """The flat number of row ``row``; :class:`InvalidActionError` past the rows."""
        rows = self.rows(seat)
        try:
            index = int(row)
        except (TypeError, ValueError):
            raise InvalidActionError(f"action must be a row index, not {row!r}") from None
        if isinstance(row, bool | float) or not 0 <= index < len(rows):
            raise InvalidActionError(
                f"row {row!r} is not a legal action: this state lists {len(rows)} "
                f"(rows 0..{len(rows) - 1})"
            )
        return rows[index]

    def observe(
        self, vector: npt.NDArray[np.float32], seat: int, with_mask: bool
    ) -> dict[str, Any]:
        """The observation dict of ``seat``."""
        observation: dict[str, Any] = {
            "observation": vector,
            "action_features": self.features(seat),
        }
        if with_mask:
            observation["action_mask"] = self.mask(seat)
        return observation
