"""The fixed integer action space of a variant: every engine action gets one number.

The space is a table of engine actions built once per variant (and piece set):
integer ``i`` *is* ``table[i]``, so decoding never looks at the game, and
encoding an action the engine lists as legal is a lookup.  The blocks, in
order (``K`` = 53 face kinds, joker last; ``T`` = the most formations the
pieces can make; ``S`` = the variant's most players; ``P`` = the piece count):

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
``turn``            3                           ``three``, ``board``, ``reset``
``preplay``         1 + 3 + 52·S + 52 + 3       ``atu``, ``doubles small|big|key``,
                                                ``swap X Pn``, ``accept X``, ``decline``,
                                                ``reshuffle``, ``ready``
==================  ==========================  ====================================

``next`` (start the next deal) has no number: the environments play it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from rummykit.engine.actions import (
    AcceptSwap,
    Action,
    AnnounceAtu,
    AnnounceDoubles,
    AnnounceThree,
    Attach,
    CloseBoard,
    DeclareBoard,
    DeclineSwap,
    Discard,
    DoublesCategory,
    Draw,
    ExchangeJoker,
    Meld,
    ProposeSwap,
    Ready,
    ResetTurn,
    Reshuffle,
    TakeColumn,
)
from rummykit.model.candidates import candidates, counts_of
from rummykit.model.pieces import JOKER_KIND, Face, Material, PieceSet
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
    return tuple(g for size in (2, 3, 4) for g in combinations(range(4), size))


_GROUPS = _exchange_groups()
_GROUP_INDEX = {g: i for i, g in enumerate(_GROUPS)}
_EXCHANGE_STRIDE = NATURALS + 13 * len(_GROUPS)


class ActionCodec:
    """The integer action space of one variant and piece set.

    ``decode(i)`` is a table lookup; ``encode(action)`` inverts it for every
    action the engine can list as legal (``next`` excepted) and raises
    :class:`UnencodableActionError` otherwise.  Build it with
    :func:`action_codec`, which caches one codec per variant and piece set.
    """

    def __init__(self, variant: Variant, pieces: PieceSet) -> None:
        self.variant_name = variant.name
        self.material: Material = pieces.material
        self.piece_count = len(pieces)
        # Every formation holds at least min_size pieces, so no more than this many
        # can lie on the table; formation ids are 1-based in the order laid.
        self.max_formations = len(pieces) // max(1, variant.meld_rules.min_size)
        self.max_players = variant.max_players
        material = pieces.material
        self._faces = tuple(
            Face.joker(material) if k == JOKER_KIND else Face.of(material, k // 13, k % 13 + 1)
            for k in range(KINDS)
        )
        table: list[Action] = []
        blocks: list[ActionBlock] = []

        def block(name: str, actions: Iterable[Action]) -> None:
            start = len(table)
            table.extend(actions)
            blocks.append(ActionBlock(name, start, len(table) - start))

        faces = self._faces
        targets = range(1, self.max_formations + 1)
        block("draw", [Draw()])
        # Position 0 is never legal where the first discard is dead (remi_ro), but
        # variants without a dead tile may take it.
        block("take", [TakeColumn(i) for i in range(self.piece_count)])
        block("meld", self._meld_catalogue(variant, pieces))
        block(
            "attach",
            [
                action
                for t in targets
                for action in (
                    *(Attach(faces[k], t) for k in range(KINDS)),
                    *(Attach(faces[JOKER_KIND], t, faces[k]) for k in range(NATURALS)),
                )
            ],
        )
        block(
            "exchange",
            [
                action
                for t in targets
                for action in (
                    *(ExchangeJoker((faces[k],), t) for k in range(NATURALS)),
                    *(
                        ExchangeJoker(tuple(faces[s * 13 + rank] for s in group), t)
                        for rank in range(13)
                        for group in _GROUPS
                    ),
                )
            ],
        )
        block("discard", [Discard(faces[k]) for k in range(KINDS)])
        block("close", [CloseBoard(faces[k]) for k in range(KINDS)])
        block("turn", [AnnounceThree(), DeclareBoard(), ResetTurn()])
        block(
            "preplay",
            [
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
            ],
        )
        self.table: tuple[Action, ...] = tuple(table)
        """``table[i]`` is the engine action numbered ``i``."""
        self.blocks: tuple[ActionBlock, ...] = tuple(blocks)
        self._block = {b.name: b for b in blocks}
        self._meld_index: dict[Action, int] = {a: i for i, a in enumerate(table) if type(a) is Meld}
        self._other_index: dict[Action, int] = {
            a: i
            for i, a in enumerate(table)
            if type(a) not in (Meld, TakeColumn, Attach, ExchangeJoker)
        }
        # Meld objects come from the engine's caches and recur from step to step:
        # remember them by identity (the entry holds the object, so its id stays
        # valid) to skip hashing their face tuples.
        self._by_id: dict[int, tuple[Action, int]] = {}
        self._take = self._block["take"].start
        self._attach = self._block["attach"].start
        self._exchange = self._block["exchange"].start
        if len(set(self.table)) != len(self.table):
            raise AssertionError(f"{variant.name}: the action table repeats an action")

    @staticmethod
    def _meld_catalogue(variant: Variant, pieces: PieceSet) -> list[Meld]:
        # Every formation any rack can make is one the whole piece set can make, so the
        # candidates of the full counts vector are the complete catalogue.
        counts = counts_of([f.kind for f in pieces.faces])
        found = sorted(
            candidates(counts, variant.meld_rules),
            key=lambda c: (str(c.kind), c.suit, c.positions, c.kinds),
        )
        material = pieces.material
        return [Meld(c.faces(material), c.declared(material)) for c in found]

    def __len__(self) -> int:
        return len(self.table)

    @property
    def size(self) -> int:
        """The number of actions, N of ``Discrete(N)``."""
        return len(self.table)

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
        if not 0 <= index < len(self.table):
            raise IndexError(f"action {index} is outside 0..{self.size - 1}")
        return self.table[index]

    def encode(self, action: Action) -> int:
        """The number of ``action``; :class:`UnencodableActionError` if it has none."""
        kind = type(action)
        try:
            if kind is Meld:
                known = self._by_id.get(id(action))
                if known is not None and known[0] is action:
                    return known[1]
                index = self._meld_index[action]
                if len(self._by_id) > 200_000:
                    self._by_id.clear()
                self._by_id[id(action)] = (action, index)
                return index
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
            else:
                return self._other_index[action]
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
        if 0 <= index < len(self.table):
            return f"{index} ({self.table[index]})"
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
