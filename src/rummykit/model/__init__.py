"""Pieces, faces, notation and the shared meld model."""

from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules, Reading, best_reading, read_meld
from rummykit.model.pieces import (
    JOKER_KIND,
    Face,
    Material,
    NotationError,
    PieceSet,
    parse_faces,
)

__all__ = [
    "HIGH_ACE",
    "JOKER_KIND",
    "Face",
    "Material",
    "MeldKind",
    "MeldRules",
    "NotationError",
    "PieceSet",
    "Reading",
    "best_reading",
    "parse_faces",
    "read_meld",
]
