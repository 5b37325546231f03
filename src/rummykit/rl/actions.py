"""The fixed integer action space of a variant: every engine action gets one number.

The space is a table of engine actions built once per variant (and piece set):
integer ``i`` *is* ``decode(i)``, so decoding never looks at the game, and
encoding an action the engine lists as legal is arithmetic or a lookup.  The blocks, in
order (``K`` = 53 face kinds, joker last; ``T`` = the most formations the
pieces can make, 0 where nothing is laid during play, which also empties the
``meld`` block; ``S`` = the variant's most players; ``P`` = the piece count):

==================  ==========================  ====================================
block               size                        action
==================  ==========================  ====================================
``draw``            1                           ``draw``
``take``            P                           ``take i`` for column position i = 0..P-1
``meld``            every formation the full    ``meld [...]``, ordered by (kind, suit,
                    piece set can make          positions, kinds)
``attach``          T × (K + 52)                per target ``m1..mT``: ``attach X`` for each
                                                face kind X (joker undeclared), then
                                                ``attach J(Y)`` for each natural Y
``exchange``        T × (52 + 13 × 11)          per target: ``exchange X`` for each natural X,
                                                then ``exchange [..]`` of 2-4 suits of each rank
``discard``         K                           ``discard X``
``close``           K                           ``close X`` (board contracts)
``call``            1 + K                       ``remi``, then ``remi X`` (close with X face
                                                down, Vienna)
``out``             K + 1 (0 where players do   ``out X`` (lay out the hand, close with X),
                    not go out with a layout)   then ``out`` (before the first draw)
``turn``            3                           ``three``, ``board``, ``reset``
``preplay``         1 + 3 + 52·S + 52 + 3       ``atu``, ``doubles small|big|key``,
                                                ``swap X Pn``, ``accept X``, ``decline``,
                                                ``reshuffle``, ``ready``
``reclaim``         T × 52, or 0                per source ``m1..mT``: ``reclaim X`` for
                                                each natural X; only in variants with
                                                the ``allow_reclaim_own_end_tiles``
                                                option (remmi_de, A-75)
``extension``       what the variant's          the actions its engine extensions declare
                    extensions declare, or 0    (:class:`~rummykit.engine.actions.
                                                ExtensionAction`), each type's
                                                ``catalogue`` in the order the variant
                                                names its extensions (gin: ``pass``,
                                                ``knock``, ``layoff X``)
==================  ==========================  ====================================

``next`` (start the next deal) has no number: the environments play it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, cycle
from typing import Any

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
    ExtensionAction,
    GoOut,
    Meld,
    ProposeSwap,
    Ready,
    Reclaim,
    ResetTurn,
    Reshuffle,
    TakeColumn,
)
from rummykit.engine.extension import extension_class
from rummykit.model.candidates import Candidate, candidates, counts_of, set_joker_suits
from rummykit.model.melds import MeldKind, position_rank
from rummykit.model.pieces import (
    JOKER_KIND,
    RANKS_PER_SUIT,
    SUIT_COUNT,
    Face,
    Material,
    PieceSet,
    kind_of,
    rank_of_kind,
)
from rummykit.rules.variant import Variant

__all__ = ["ActionBlock", "ActionCodec", "UnencodableActionError", "action_codec"]

KINDS = JOKER_KIND + 1
"""Face kinds: 52 naturals then the joker."""
NATURALS = JOKER_KIND
_ATTACH_STRIDE = KINDS + NATURALS


class UnencodableActionError(ValueError):
    """An engine action has no number in the variant's action space (a bug to report)."""


@dataclass(frozen=True, slots=True)
class ActionBlock:
    """A named, contiguous range of action numbers."""

    name: str
    start: int
    size: int

    @property
    def stop(self) -> int:
        """One past the last number of the block."""
        return self.start + self.size

    def __contains__(self, index: object) -> bool:
        return isinstance(index, int) and self.start <= index < self.stop


def _exchange_groups() -> tuple[tuple[int, ...], ...]:
    """Suit groups of 2-4 suits freed from a set at once, in a fixed order."""
    return tuple(g for size in (2, 3, 4) for g in combinations(range(SUIT_COUNT), size))


_GROUPS = _exchange_groups()
_GROUP_INDEX = {g: i for i, g in enumerate(_GROUPS)}
_EXCHANGE_STRIDE = NATURALS + RANKS_PER_SUIT * len(_GROUPS)


_MeldKey = tuple[tuple[int, ...], tuple[int, ...]]


def _meld_key(meld: Meld) -> _MeldKey:
    """(face kinds, declared kinds or -1) of a Meld action: what tells formations apart."""
    return (
        tuple(f.kind for f in meld.faces),
        tuple(-1 if d is None else d.kind for d in meld.declared),
    )


def _candidate_key(c: Candidate) -> _MeldKey:
    """:func:`_meld_key` of ``Meld(c.faces(m), c.declared(m))``, without building it.

    Mirrors :meth:`Candidate.declared`: a wild piece in a run stands for the piece
    of its position; wild pieces in a set stand for the suits of :func:`set_joker_suits`.
    """
    if c.kind is MeldKind.RUN:
        naturals = [kind_of(c.suit, position_rank(p)) for p in c.positions]
        declared = tuple(n if k != n else -1 for k, n in zip(c.kinds, naturals, strict=True))
    else:
        rank = c.positions[0]
        wild = [k == JOKER_KIND or rank_of_kind(k) != rank for k in c.kinds]
        suits = cycle(set_joker_suits(c.kinds, rank))
        declared = tuple(kind_of(next(suits), rank) if w else -1 for w in wild)
    return c.kinds, declared


class ActionCodec:
    """The integer action space of one variant and piece set.

    ``decode(i)`` is a table lookup; ``encode(action)`` inverts it for every
    action the engine can list as legal (``next`` excepted) and raises
    :class:`UnencodableActionError` otherwise.  Build it with
    :func:`action_codec`, which caches one codec per variant and piece set.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        # A codec is a fixed table (romme: 141,050 entries): pickles carry its variant
        # and pieces and get the receiving process's cached codec.
        return (action_codec, self._key)

    def __copy__(self) -> ActionCodec:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionCodec:
        return self  # immutable once built: copies of an environment share it

    def __init__(self, variant: Variant, pieces: PieceSet) -> None:
        self.variant_name = variant.name
        self._key = (variant, pieces)
        self.material: Material = pieces.material
        self.piece_count = len(pieces)
        # Every formation holds at least min_size pieces, so no more than this many
        # can lie on the table; formation ids are 1-based in the order laid.
        self.max_formations = (
            len(pieces) // max(1, variant.meld_rules.min_size)
            if variant.melds_during_play
            else 0  # nothing is laid during play (RULES §7.3): no meld, attach or exchange
        )
        self.max_players = variant.max_players
        material = pieces.material
        self._faces = tuple(Face.from_kind(material, k) for k in range(KINDS))
        faces = self._faces
        targets = range(1, self.max_formations + 1)
        # Formations are kept as candidates and become Meld actions only when decoded:
        # with many jokers there are over 100,000 of them (romme: 129,605).
        self._melds = self._meld_catalogue(variant, pieces)
        self._meld_actions: dict[int, Meld] = {}
        head: list[Action] = [Draw()]
        # Position 0 is never legal where the first discard is dead (remi_ro), but
        # variants without a dead tile may take it.
        head += [TakeColumn(i) for i in range(self.piece_count)]
        # Per target: each face kind undeclared, then the joker declared as each natural.
        attach_slots = [(k, -1) for k in range(KINDS)] + [(JOKER_KIND, j) for j in range(NATURALS)]
        tail: list[Action] = [
            Attach(faces[k], t, None if j < 0 else faces[j])
            for t in targets
            for k, j in attach_slots
        ]
        tail += [
            ExchangeJoker(group, t)
            for t in targets
            for group in (
                *((faces[k],) for k in range(NATURALS)),
                *(
                    tuple(faces[kind_of(s, rank)] for s in suits)
                    for rank in range(1, RANKS_PER_SUIT + 1)
                    for suits in _GROUPS
                ),
            )
        ]
        tail += [Discard(faces[k]) for k in range(KINDS)]
        tail += [CloseBoard(faces[k]) for k in range(KINDS)]
        tail += [CallRemi(), *(CallRemi(faces[k]) for k in range(KINDS))]
        # Only variants that go out with a layout of the whole hand (RULES §7.6).
        outs = variant.find_layout is not None
        tail += [*(GoOut(faces[k]) for k in range(KINDS)), GoOut()] if outs else []
        tail += [AnnounceThree(), DeclareBoard(), ResetTurn()]
        tail += [
            AnnounceAtu(),
            *(AnnounceDoubles(c) for c in DoublesCategory),
            *(
                ProposeSwap(faces[k], seat)
                for k in range(NATURALS)
                for seat in range(self.max_players)
            ),
            *(AcceptSwap(faces[k]) for k in range(NATURALS)),
            DeclineSwap(),
            Reshuffle(),
            Ready(),
        ]
        # The catalogue holds every action some option allows: the variant's extensions
        # are the same under every option (an option turns a rule off inside one).
        defaults = variant.resolve(variant.default_players)
        reclaims = "reclaim" in variant.play_rules(defaults).extensions
        if reclaims:
            tail += [Reclaim(faces[k], t) for t in targets for k in range(NATURALS)]
        declared = self._extension_catalogue(variant, faces)
        tail += declared
        t = self.max_formations
        sizes = (
            ("draw", 1),
            ("take", self.piece_count),
            ("meld", len(self._melds)),
            ("attach", t * _ATTACH_STRIDE),
            ("exchange", t * _EXCHANGE_STRIDE),
            ("discard", KINDS),
            ("close", KINDS),
            ("call", 1 + KINDS),
            ("out", KINDS + 1 if outs else 0),
            ("turn", 3),
            ("preplay", 1 + len(DoublesCategory) + NATURALS * self.max_players + NATURALS + 3),
            ("reclaim", t * NATURALS if reclaims else 0),
            ("extension", len(declared)),
        )
        blocks: list[ActionBlock] = []
        position = 0
        for name, size in sizes:
            blocks.append(ActionBlock(name, position, size))
            position += size
        self.blocks: tuple[ActionBlock, ...] = tuple(blocks)
        self.size = position
        """The number of actions, N of ``Discrete(N)``."""
        self._block = {b.name: b for b in blocks}
        self._head = head
        self._tail = tail
        self._meld_start = self._block["meld"].start
        self._tail_start = self._block["attach"].start
        if len(head) != self._meld_start or self._tail_start + len(tail) != self.size:
            raise AssertionError("the action blocks do not add up")  # a bug in this module
        self._meld_index = {
            _candidate_key(c): self._meld_start + i for i, c in enumerate(self._melds)
        }
        self._other_index: dict[Action, int] = {
            a: self._tail_start + i
            for i, a in enumerate(tail)
            if type(a) not in (Attach, ExchangeJoker, Reclaim)
        }
        self._other_index.update({a: i for i, a in enumerate(head) if type(a) is Draw})
        # Meld objects come from the engine's caches and recur from step to step:
        # remember them by identity (the entry holds the object, so its id stays
        # valid) to skip rebuilding their key.
        self._by_id: dict[int, tuple[Action, int]] = {}
        self._take = self._block["take"].start
        self._attach = self._block["attach"].start
        self._exchange = self._block["exchange"].start

    @staticmethod
    def _extension_catalogue(variant: Variant, faces: tuple[Face, ...]) -> list[Action]:
        """Every action the extensions of ``variant`` (at its default options) declare."""
        names = variant.play_rules(variant.resolve(variant.default_players)).extensions
        out: list[Action] = []
        for name in names:
            for action_type in extension_class(name).handlers:
                if issubclass(action_type, ExtensionAction):
                    out.extend(action_type.catalogue(faces))
        return out

    @staticmethod
    def _meld_catalogue(variant: Variant, pieces: PieceSet) -> list[Candidate]:
        # Every formation any rack can make is one the whole piece set can make, so the
        # candidates of the full counts vector are the complete catalogue.
        if not variant.melds_during_play:
            return []
        counts = counts_of([f.kind for f in pieces.faces])
        return sorted(
            candidates(counts, variant.catalogue_meld_rules or variant.meld_rules),
            key=lambda c: (str(c.kind), c.suit, c.positions, c.kinds),
        )

    def __len__(self) -> int:
        return self.size

    @property
    def table(self) -> tuple[Action, ...]:
        """Every action in number order (``table[i]`` is number ``i``); builds them all."""
        return tuple(self.decode(i) for i in range(self.size))

    def block(self, name: str) -> ActionBlock:
        """The block called ``name`` (see the module docstring)."""
        return self._block[name]

    def block_of(self, index: int) -> ActionBlock:
        """The block holding action number ``index``."""
        for b in self.blocks:
            if index in b:
                return b
        raise IndexError(f"action {index} is outside 0..{self.size - 1}")

    def decode(self, index: int) -> Action:
        """The engine action numbered ``index``."""
        if not 0 <= index < self.size:
            raise IndexError(f"action {index} is outside 0..{self.size - 1}")
        if index < self._meld_start:
            return self._head[index]
        if index >= self._tail_start:
            return self._tail[index - self._tail_start]
        meld = self._meld_actions.get(index)
        if meld is None:
            c = self._melds[index - self._meld_start]
            # The same conversion as the engine's legal-move generator.
            meld = Meld(c.faces(self.material), c.declared(self.material))
            self._meld_actions[index] = meld
        return meld

    def encode(self, action: Action) -> int:
        """The number of ``action``; :class:`UnencodableActionError` if it has none."""
        # The engine hands out the same Meld, Discard and Draw objects from step to
        # step (its caches and constants): remember those by identity, which skips
        # hashing their face tuples.  The entry holds the object, so its id stays valid.
        known = self._by_id.get(id(action))
        if known is not None and known[0] is action:
            return known[1]
        kind = type(action)
        try:
            if kind is TakeColumn:
                assert isinstance(action, TakeColumn)
                if 0 <= action.index < self.piece_count:
                    return self._take + action.index
            elif kind is Attach:
                assert isinstance(action, Attach)
                if 1 <= action.target <= self.max_formations:
                    slot = (
                        action.face.kind
                        if action.declared is None
                        else (KINDS + action.declared.kind)
                    )
                    if action.declared is None or (
                        action.face.is_joker and not action.declared.is_joker
                    ):
                        return self._attach + (action.target - 1) * _ATTACH_STRIDE + slot
            elif kind is ExchangeJoker:
                assert isinstance(action, ExchangeJoker)
                return self._encode_exchange(action)
            elif kind is Reclaim:
                assert isinstance(action, Reclaim)
                reclaim = self._block["reclaim"]
                target = action.target
                if reclaim.size and 1 <= target <= self.max_formations and action.face.kind < 52:
                    return reclaim.start + (target - 1) * NATURALS + action.face.kind
            else:
                if kind is Meld:
                    assert isinstance(action, Meld)
                    index = self._meld_index[_meld_key(action)]
                else:
                    index = self._other_index[action]
                if len(self._by_id) > 200_000:
                    self._by_id.clear()
                self._by_id[id(action)] = (action, index)
                return index
        except KeyError:
            pass
        raise UnencodableActionError(
            f"{action} has no number in the {self.variant_name} action space"
        )

    def _encode_exchange(self, action: ExchangeJoker) -> int:
        faces = action.faces
        if not 1 <= action.target <= self.max_formations or any(f.is_joker for f in faces):
            raise KeyError(action)
        base = self._exchange + (action.target - 1) * _EXCHANGE_STRIDE
        if len(faces) == 1:
            return base + faces[0].kind
        rank = faces[0].rank
        suits = tuple(f.suit_index for f in faces)
        group = _GROUP_INDEX.get(suits)
        if group is None or any(f.rank != rank for f in faces):
            raise KeyError(action)
        return base + NATURALS + (rank - 1) * len(_GROUPS) + group

    def encode_all(self, actions: Sequence[Action]) -> list[int]:
        """The numbers of ``actions``, in order."""
        return [self.encode(a) for a in actions]

    def describe(self, index: int) -> str:
        """``"1234 (meld [R1 R2 R3])"``: a number with its notation, for messages."""
        if 0 <= index < self.size:
            return f"{index} ({self.decode(index)})"
        return f"{index} (outside 0..{self.size - 1})"


_CODECS: dict[tuple[str, PieceSet], tuple[Variant, ActionCodec]] = {}


def action_codec(variant: Variant, pieces: PieceSet) -> ActionCodec:
    """The action space of ``variant`` played with ``pieces``, built once and cached."""
    # Variants hold callables and dicts, so they are not hashable: key by name and
    # check identity (an unregistered profile reusing a name gets its own codec).
    key = (variant.name, pieces)
    known = _CODECS.get(key)
    if known is None or known[0] is not variant:
        known = _CODECS[key] = (variant, ActionCodec(variant, pieces))
    return known[1]
