"""Formations on the table: immutable, so copying a game state is cheap."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules, position_rank
from rummykit.model.pieces import Face, Material, PieceSet

__all__ = ["Formation"]


@lru_cache(maxsize=32768)
def _notation(formation: Formation, material: Material) -> str:
    parts = []
    for kind, position in zip(formation.kinds, formation.positions, strict=True):
        face = Face.from_kind(material, kind)
        if formation.kind is MeldKind.RUN:
            # A joker, or a piece of a wild rank away from its own place (§7.1), shows
            # what it stands for.
            stands_for = Face.of(material, formation.suit, position_rank(position))
            parts.append(str(face) if face == stands_for else f"{face}({stands_for})")
        else:
            parts.append(str(face))
    return "[" + " ".join(parts) + "]"


@dataclass(frozen=True, slots=True)
class Formation:
    """A formation lying on the table.

    ``pieces`` are piece ids in display order (runs ascending) and
    ``positions[i]`` is where ``pieces[i]`` sits (a set's rank for sets).
    ``owner`` is the seat that laid it; each piece's scoring credit is kept
    separately by the game (RULES §9.10, A-54).
    """

    id: int
    owner: int
    kind: MeldKind
    suit: int
    pieces: tuple[int, ...]
    positions: tuple[int, ...]
    kinds: tuple[int, ...]
    """Face kind of each piece (``JOKER_KIND`` for a joker)."""

    @property
    def rank(self) -> int:
        """A set's rank."""
        return self.positions[0]

    def represented(self, pieces: PieceSet, index: int) -> Face | None:
        """The face ``pieces[index]`` stands for (None: a wild piece in a set)."""
        face = pieces.faces[self.pieces[index]]
        position = self.positions[index]
        if self.kind is MeldKind.SET:
            return face if not face.is_joker and face.rank == position else None
        rank = position_rank(position)
        if not face.is_joker and face.suit_index == self.suit and face.rank == rank:
            return face
        # A joker, or a piece of a wild rank away from its own place (§7.1).
        return Face.of(pieces.material, self.suit, rank)

    def notation(self, pieces: PieceSet) -> str:
        """``[R5 J(R6) R7]``: faces, with what each joker in a run stands for."""
        return _notation(self, pieces.material)

    def natural_suits(self, pieces: PieceSet) -> set[int]:
        """Suit indices of the natural pieces (sets)."""
        return {f.suit_index for pid in self.pieces if not (f := pieces.faces[pid]).is_joker}

    def run_slot_for(self, face: Face, rules: MeldRules, declared: Face | None) -> int | None:
        """The run position ``face`` can extend this run at (high end preferred), or None."""
        low, high = self.positions[0], self.positions[-1]
        ends = []
        if high < (HIGH_ACE if rules.ace_high else 13):
            ends.append(high + 1)
        if low > (1 if rules.ace_low else 2):
            ends.append(low - 1)
        target = declared if face.is_joker else face
        for p in ends:
            new_low, new_high = min(low, p), max(high, p)
            if new_low == 1 and new_high == HIGH_ACE and not rules.ace_both_ends:
                continue
            if target is None or (
                target.suit_index == self.suit and position_rank(p) == target.rank
            ):
                return p
        return None

    def with_piece(self, piece: int, kind: int, position: int) -> Formation:
        """A copy with ``piece`` (of face kind ``kind``) added at ``position``; runs stay sorted."""
        if self.kind is MeldKind.RUN and position < self.positions[0]:
            return Formation(
                self.id,
                self.owner,
                self.kind,
                self.suit,
                (piece, *self.pieces),
                (position, *self.positions),
                (kind, *self.kinds),
            )
        return Formation(
            self.id,
            self.owner,
            self.kind,
            self.suit,
            (*self.pieces, piece),
            (*self.positions, position),
            (*self.kinds, kind),
        )

    def replacing(self, old: int, new: int, kind: int) -> Formation:
        """A copy with piece ``old`` replaced by ``new`` (of face kind ``kind``) in its position."""
        index = self.pieces.index(old)
        return Formation(
            self.id,
            self.owner,
            self.kind,
            self.suit,
            (*self.pieces[:index], new, *self.pieces[index + 1 :]),
            self.positions,
            (*self.kinds[:index], kind, *self.kinds[index + 1 :]),
        )

    def without_piece(self, piece: int) -> Formation:
        """A copy with ``piece`` taken out (an end of a run, or any piece of a set)."""
        index = self.pieces.index(piece)
        return Formation(
            self.id,
            self.owner,
            self.kind,
            self.suit,
            (*self.pieces[:index], *self.pieces[index + 1 :]),
            (*self.positions[:index], *self.positions[index + 1 :]),
            (*self.kinds[:index], *self.kinds[index + 1 :]),
        )
