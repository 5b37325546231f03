"""Pieces of play: faces (what a tile or card shows) and physical piece sets.

A :class:`Face` is a value: ``R5`` is the red five whichever of the two copies
it is.  A *piece* is one physical object and is identified by an integer id in
its :class:`PieceSet`; two ``R5`` tiles are two pieces (``R5#1`` and ``R5#2``)
with the same face.  The engine works with piece ids because they are cheap to
copy and compare; faces are what players write.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache

__all__ = [
    "CARD_RANKS",
    "CARD_SUITS",
    "JOKER_KIND",
    "RANKS_PER_SUIT",
    "SUIT_COUNT",
    "TILE_COLOURS",
    "Face",
    "Material",
    "NotationError",
    "PieceSet",
    "kind_of",
    "parse_faces",
    "rank_of_kind",
    "suit_kinds",
    "suit_of_kind",
]

TILE_COLOURS = ("R", "Y", "B", "K")
"""Tile colours in sort order: red, yellow, blue, black (RULES §0.2)."""

CARD_SUITS = ("S", "H", "D", "C")
"""Card suits in sort order: spades, hearts, diamonds, clubs (RULES §0.1)."""

CARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Card rank symbols; index + 1 is the rank number (A = 1, K = 13)."""

RANKS_PER_SUIT = 13
"""Ranks 1..13 in each suit or colour: the natural kinds of one suit are consecutive."""

SUIT_COUNT = 4
"""Suits (cards) or colours (tiles): four of each material (RULES §0.1, §0.2)."""

JOKER_KIND = SUIT_COUNT * RANKS_PER_SUIT
"""The kind number shared by every joker (naturals use 0..51)."""


# Kinds are plain ints in the engine's hot paths, so these stay unchecked one-liners
# (Face.of and Face.from_kind are the checked constructors).
def kind_of(suit_index: int, rank: int) -> int:
    """The kind of the natural face of ``rank`` (1..13) in suit/colour ``suit_index`` (0..3)."""
    return suit_index * RANKS_PER_SUIT + rank - 1


def suit_of_kind(kind: int) -> int:
    """The suit/colour index 0..3 of a natural ``kind`` (0..51)."""
    return kind // RANKS_PER_SUIT


def rank_of_kind(kind: int) -> int:
    """The rank 1..13 of a natural ``kind`` (0..51)."""
    return kind % RANKS_PER_SUIT + 1


def suit_kinds(suit_index: int) -> slice:
    """The kinds of suit/colour ``suit_index``, rank 1 to 13, as a slice of a count vector."""
    start = suit_index * RANKS_PER_SUIT
    return slice(start, start + RANKS_PER_SUIT)


class Material(StrEnum):
    """Whether a game is played with tiles or with playing cards."""

    TILES = "tiles"
    CARDS = "cards"


class NotationError(ValueError):
    """A token or list of tokens is not valid piece notation."""


_TILE_RE = re.compile(r"^([RYBK])(1[0-3]|[1-9])$")
_CARD_RE = re.compile(r"^(10|[2-9AJQK])([SHDC])$")
_COPY_RE = re.compile(r"^(.+)#([1-9][0-9]*)$")


@dataclass(frozen=True, slots=True, order=True)
class Face:
    """What a piece shows: a suit/colour and a rank 1..13, or a joker.

    ``kind`` orders faces by suit then rank and is the compact integer the
    engine uses (:func:`kind_of`; jokers are ``JOKER_KIND``).
    """

    kind: int
    material: Material

    @property
    def is_joker(self) -> bool:
        """True for a joker (``J`` tile or ``JK`` card)."""
        return self.kind == JOKER_KIND

    @property
    def rank(self) -> int:
        """The number 1..13 (ace/one is 1); 0 for a joker."""
        return 0 if self.kind == JOKER_KIND else self.kind % RANKS_PER_SUIT + 1

    @property
    def suit(self) -> str:
        """The colour (``R Y B K``) or suit (``S H D C``) letter; ``""`` for a joker."""
        if self.kind == JOKER_KIND:
            return ""
        letters = TILE_COLOURS if self.material is Material.TILES else CARD_SUITS
        return letters[self.kind // RANKS_PER_SUIT]

    @property
    def suit_index(self) -> int:
        """0..3, the position of :attr:`suit` in the material's suit order; -1 for a joker."""
        return -1 if self.kind == JOKER_KIND else self.kind // RANKS_PER_SUIT

    @classmethod
    def of(cls, material: Material, suit_index: int, rank: int) -> Face:
        """The natural face of ``rank`` (1..13) in suit/colour number ``suit_index``."""
        if not (0 <= suit_index < SUIT_COUNT and 1 <= rank <= RANKS_PER_SUIT):
            raise NotationError(f"no {material} face with suit {suit_index} and rank {rank}")
        return _face(kind_of(suit_index, rank), material)

    @classmethod
    def from_kind(cls, material: Material, kind: int) -> Face:
        """The face of ``kind`` (0..51 a natural face, ``JOKER_KIND`` the joker)."""
        if kind == JOKER_KIND:
            return _face(JOKER_KIND, material)
        if not 0 <= kind < JOKER_KIND:
            raise NotationError(f"no {material} face of kind {kind}")
        return _face(kind, material)

    @classmethod
    def joker(cls, material: Material) -> Face:
        """The joker face of ``material``."""
        return _face(JOKER_KIND, material)

    @classmethod
    def parse(cls, token: str, material: Material | None = None) -> Face:
        """Parse ``R12``, ``J``, ``QH``, ``10S`` or ``JK``.

        Tile and card notation never collide, so ``material`` is only a check:
        when given, a token of the other material is an error.
        """
        text = token.strip().upper()
        found: Face | None = None
        if text == "J":
            found = _face(JOKER_KIND, Material.TILES)
        elif text == "JK":
            found = _face(JOKER_KIND, Material.CARDS)
        elif m := _TILE_RE.match(text):
            found = _face(kind_of(TILE_COLOURS.index(m[1]), int(m[2])), Material.TILES)
        elif m := _CARD_RE.match(text):
            rank = CARD_RANKS.index(m[1]) + 1
            found = _face(kind_of(CARD_SUITS.index(m[2]), rank), Material.CARDS)
        if found is None:
            raise NotationError(f"{token!r} is not a tile (R1..K13, J) or a card (AS..KC, 10H, JK)")
        if material is not None and found.material is not material:
            raise NotationError(
                f"{token!r} is a {found.material[:-1]}, but this game uses {material}"
            )
        return found

    def __str__(self) -> str:
        # Views and frames format every piece they show: a list lookup, not a format.
        return (_TILE_TEXT if self.material is Material.TILES else _CARD_TEXT)[self.kind]

    def _notation(self) -> str:
        if self.kind == JOKER_KIND:
            return "J" if self.material is Material.TILES else "JK"
        if self.material is Material.TILES:
            return f"{self.suit}{self.rank}"
        return f"{CARD_RANKS[self.rank - 1]}{self.suit}"

    def __repr__(self) -> str:
        return f"Face.parse({str(self)!r})"


_TILE_TEXT = tuple(Face(kind, Material.TILES)._notation() for kind in range(JOKER_KIND + 1))
_CARD_TEXT = tuple(Face(kind, Material.CARDS)._notation() for kind in range(JOKER_KIND + 1))


@cache
def _face(kind: int, material: Material) -> Face:
    # Faces are interned: there are only 2 * 53 of them.
    return Face(kind, material)


def parse_faces(text: str, material: Material | None = None) -> tuple[Face, ...]:
    """Parse a space-separated list of faces (``"R1 B13 J"``)."""
    return tuple(Face.parse(tok, material) for tok in text.split())


@dataclass(frozen=True, slots=True)
class PieceSet:
    """The physical pieces of a game: ``faces[piece_id]`` is what piece ``piece_id`` shows.

    Naturals come first, ``copies`` of each face in kind order, then the jokers.
    """

    material: Material
    copies: int
    joker_count: int
    faces: tuple[Face, ...]
    kinds: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """``kinds[piece_id]``: the kind of the piece's face (read per piece of a rack on
    every legal-action list: cheaper than the face's attribute)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kinds", tuple(f.kind for f in self.faces))

    @classmethod
    def build(cls, material: Material, *, copies: int, jokers: int) -> PieceSet:
        """``copies`` of each of the 52 natural faces plus ``jokers`` jokers."""
        if copies < 1 or jokers < 0:
            raise ValueError("a piece set needs at least one copy and a non-negative joker count")
        faces = [_face(kind, material) for kind in range(52) for _ in range(copies)]
        faces += [_face(JOKER_KIND, material)] * jokers
        return cls(material, copies, jokers, tuple(faces))

    def __len__(self) -> int:
        return len(self.faces)

    def copy_number(self, piece: int) -> int:
        """1-based copy number of ``piece`` among pieces with the same face."""
        if piece >= 52 * self.copies:
            return piece - 52 * self.copies + 1
        return piece % self.copies + 1

    def name(self, piece: int) -> str:
        """Notation with identity, e.g. ``R5#2``; round-trips through :meth:`parse_piece`."""
        return f"{self.faces[piece]}#{self.copy_number(piece)}"

    def parse_piece(self, token: str) -> int:
        """The id of the piece written ``R5#2`` (``R5`` alone means copy 1)."""
        m = _COPY_RE.match(token.strip())
        face_text, copy = (m[1], int(m[2])) if m else (token, 1)
        face = Face.parse(face_text, self.material)
        if face.is_joker:
            if copy > self.joker_count:
                raise NotationError(f"{token!r}: this set has {self.joker_count} jokers")
            return 52 * self.copies + copy - 1
        if copy > self.copies:
            raise NotationError(f"{token!r}: this set has {self.copies} copies of each face")
        return face.kind * self.copies + copy - 1

    def pieces_of(self, face: Face) -> range:
        """The ids of every piece showing ``face``."""
        if face.is_joker:
            start = 52 * self.copies
            return range(start, start + self.joker_count)
        return range(face.kind * self.copies, (face.kind + 1) * self.copies)
