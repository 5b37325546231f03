"""Actions: frozen records with a text notation that round-trips.

Seats never appear inside an action: an action is always played by the seat
to move.  In notation seats are written ``P1``…``Pn`` (1-based).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from rummykit.model.pieces import Face, Material, NotationError

__all__ = [
    "AcceptSwap",
    "Action",
    "AnnounceAtu",
    "AnnounceDoubles",
    "AnnounceThree",
    "Attach",
    "CallRemi",
    "CloseBoard",
    "DeclareBoard",
    "DeclineSwap",
    "Discard",
    "DoublesCategory",
    "Draw",
    "ExchangeJoker",
    "GoOut",
    "Meld",
    "NextDeal",
    "ProposeSwap",
    "Ready",
    "Reclaim",
    "ResetTurn",
    "Reshuffle",
    "TakeColumn",
    "parse_action",
    "parse_piece_token",
]


class DoublesCategory(StrEnum):
    """RULES §9.4: small (2–9), big (10–13) and key (1–1) doubles."""

    SMALL = "small"
    BIG = "big"
    KEY = "key"

    @classmethod
    def of(cls, face: Face) -> DoublesCategory:
        """The category of a double of ``face``."""
        if face.rank == 1:
            return cls.KEY
        return cls.BIG if face.rank >= 10 else cls.SMALL


def _piece_text(face: Face, declared: Face | None) -> str:
    return f"{face}({declared})" if declared is not None else str(face)


def _group_text(faces: tuple[Face, ...], declared: tuple[Face | None, ...]) -> str:
    return "[" + " ".join(_piece_text(f, d) for f, d in zip(faces, declared, strict=True)) + "]"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the next piece of the stock."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class TakeColumn:
    """Take the column (discard pile) piece at ``index`` (0 is the dead tile) and all after it."""

    index: int

    def __str__(self) -> str:
        return f"take {self.index}"


@dataclass(frozen=True, slots=True)
class Meld:
    """Lay a new formation; ``declared[i]`` fixes what a joker stands for."""

    faces: tuple[Face, ...]
    declared: tuple[Face | None, ...]

    def __str__(self) -> str:
        return f"meld {_group_text(self.faces, self.declared)}"


@dataclass(frozen=True, slots=True)
class Attach:
    """Attach one piece to formation ``target`` (1-based, written ``m3``)."""

    face: Face
    target: int
    declared: Face | None = None

    def __str__(self) -> str:
        return f"attach {_piece_text(self.face, self.declared)} -> m{self.target}"


@dataclass(frozen=True, slots=True)
class ExchangeJoker:
    """Put natural piece(s) into formation ``target`` and take its joker (RULES §9.10)."""

    faces: tuple[Face, ...]
    target: int

    def __str__(self) -> str:
        return f"exchange {' '.join(map(str, self.faces))} -> m{self.target}"


@dataclass(frozen=True, slots=True)
class Reclaim:
    """Take an end tile of one's own formation back to the rack, to lay it in a new
    formation this turn (RULES A-75, option ``allow_reclaim_own_end_tiles``)."""

    face: Face
    target: int

    def __str__(self) -> str:
        return f"reclaim {self.face} <- m{self.target}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one piece, ending (committing) the turn."""

    face: Face

    def __str__(self) -> str:
        return f"discard {self.face}"


@dataclass(frozen=True, slots=True)
class CloseBoard:
    """A board player shows a 14-piece contract and discards ``face`` to close (§9.13)."""

    face: Face

    def __str__(self) -> str:
        return f"close {self.face}"


@dataclass(frozen=True, slots=True)
class CallRemi:
    """Stop the deal with "Remi!" right after drawing (RULES §6.6); with ``face``, also
    close by discarding it face down (the other cards must all lie in melds)."""

    face: Face | None = None

    def __str__(self) -> str:
        return "remi" if self.face is None else f"remi {self.face}"


@dataclass(frozen=True, slots=True)
class GoOut:
    """Lay the whole hand out in a layout and close by discarding ``face`` (RULES §7.6);
    without a face, lay out the dealt hand before the first draw."""

    face: Face | None = None

    def __str__(self) -> str:
        return "out" if self.face is None else f"out {self.face}"


@dataclass(frozen=True, slots=True)
class AnnounceThree:
    """Announce that at most three pieces remain (RULES §9.11)."""

    def __str__(self) -> str:
        return "three"


@dataclass(frozen=True, slots=True)
class DeclareBoard:
    """Declare play on the board (RULES §9.13)."""

    def __str__(self) -> str:
        return "board"


@dataclass(frozen=True, slots=True)
class ResetTurn:
    """Undo this turn's table actions and column takes (a stock draw stays)."""

    def __str__(self) -> str:
        return "reset"


@dataclass(frozen=True, slots=True)
class AnnounceAtu:
    """Announce holding the indicator's twin (RULES §9.4)."""

    def __str__(self) -> str:
        return "atu"


@dataclass(frozen=True, slots=True)
class AnnounceDoubles:
    """Announce holding a double of ``category`` without showing it."""

    category: DoublesCategory

    def __str__(self) -> str:
        return f"doubles {self.category}"


@dataclass(frozen=True, slots=True)
class ProposeSwap:
    """Offer one tile of a double, face down, to ``seat`` (0-based; ``P{seat+1}``)."""

    face: Face
    seat: int

    def __str__(self) -> str:
        return f"swap {self.face} P{self.seat + 1}"


@dataclass(frozen=True, slots=True)
class AcceptSwap:
    """Accept the offered swap, giving one tile of own double ``face``."""

    face: Face

    def __str__(self) -> str:
        return f"accept {self.face}"


@dataclass(frozen=True, slots=True)
class DeclineSwap:
    """Decline the offered swap."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Demand that the game be broken and redealt (3 doubles, RULES §9.4)."""

    def __str__(self) -> str:
        return "reshuffle"


@dataclass(frozen=True, slots=True)
class Ready:
    """End one's pre-play announcements."""

    def __str__(self) -> str:
        return "ready"


@dataclass(frozen=True, slots=True)
class NextDeal:
    """Start the next deal of the match."""

    def __str__(self) -> str:
        return "next"


Action = (
    Draw
    | TakeColumn
    | Meld
    | Attach
    | ExchangeJoker
    | Reclaim
    | Discard
    | CloseBoard
    | CallRemi
    | GoOut
    | AnnounceThree
    | DeclareBoard
    | ResetTurn
    | AnnounceAtu
    | AnnounceDoubles
    | ProposeSwap
    | AcceptSwap
    | DeclineSwap
    | Reshuffle
    | Ready
    | NextDeal
)

_SIMPLE: dict[str, Action] = {
    "draw": Draw(),
    "three": AnnounceThree(),
    "board": DeclareBoard(),
    "reset": ResetTurn(),
    "atu": AnnounceAtu(),
    "decline": DeclineSwap(),
    "reshuffle": Reshuffle(),
    "ready": Ready(),
    "next": NextDeal(),
    "remi": CallRemi(),
    "out": GoOut(),
}
_DECL_RE = re.compile(r"^([^()\s]+)(?:\(([^()\s]+)\))?$")
_TARGET_RE = re.compile(r"^(.*?)\s*->\s*m?(\d+)$", re.IGNORECASE)
_SOURCE_RE = re.compile(r"^(\S+)\s*<-\s*m?(\d+)$", re.IGNORECASE)
_SEAT_RE = re.compile(r"^P?(\d+)$", re.IGNORECASE)


def parse_piece_token(
    token: str, material: Material, wild_ranks: frozenset[int] = frozenset()
) -> tuple[Face, Face | None]:
    """Parse ``R5`` or a declared wild piece ``J(R7)`` into (face, declared face or None).

    Jokers and pieces of ``wild_ranks`` (Continental's ``2C(4D)``) may be declared.
    """
    m = _DECL_RE.match(token)
    if not m:
        raise NotationError(f"{token!r} is not a piece (e.g. R5, J, J(R7))")
    face = Face.parse(m[1], material)
    declared = Face.parse(m[2], material) if m[2] else None
    wild = face.is_joker or face.rank in wild_ranks
    if declared is not None and (not wild or declared.is_joker):
        raise NotationError(f"{token!r}: only a wild piece can stand for another piece")
    return face, declared


def parse_action(text: str, material: Material) -> Action:
    """Parse action notation such as ``meld [R12 R13 J(R1)]`` or ``attach R6 -> m3``.

    Raises :class:`NotationError` naming the text when it is not an action.
    """
    line = " ".join(text.strip().split())
    if not line:
        raise NotationError("empty action")
    verb, _, rest = line.partition(" ")
    verb = verb.lower()
    try:
        if verb in _SIMPLE and not rest:
            return _SIMPLE[verb]
        if verb == "take":
            index = int(rest)
            if index < 0:
                raise NotationError(f"{text!r}: column positions start at 0")
            return TakeColumn(index)
        if verb == "meld":
            body = rest.strip()
            if body.startswith("[") and body.endswith("]"):
                body = body[1:-1]
            pieces = [parse_piece_token(t, material) for t in body.split()]
            if not pieces:
                raise NotationError("meld needs pieces")
            return Meld(tuple(p[0] for p in pieces), tuple(p[1] for p in pieces))
        if verb in ("attach", "exchange"):
            m = _TARGET_RE.match(rest)
            if not m:
                raise NotationError(f"{verb} needs a target, e.g. '{verb} R6 -> m3'")
            pieces = [parse_piece_token(t, material) for t in m[1].strip("[] ").split()]
            target = int(m[2])
            if verb == "attach":
                if len(pieces) != 1:
                    raise NotationError("attach takes exactly one piece")
                return Attach(pieces[0][0], target, pieces[0][1])
            if not pieces or any(d is not None for _, d in pieces):
                raise NotationError("exchange takes one or more natural pieces")
            return ExchangeJoker(tuple(p[0] for p in pieces), target)
        if verb == "reclaim":
            m = _SOURCE_RE.match(rest)
            if not m:
                raise NotationError("reclaim needs a source, e.g. 'reclaim K11 <- m3'")
            return Reclaim(Face.parse(m[1], material), int(m[2]))
        if verb == "remi":
            return CallRemi(Face.parse(rest, material))
        if verb in ("discard", "close", "accept", "out"):
            face = Face.parse(rest, material)
            if verb == "out":
                return GoOut(face)
            if verb == "discard":
                return Discard(face)
            return CloseBoard(face) if verb == "close" else AcceptSwap(face)
        if verb == "doubles":
            return AnnounceDoubles(DoublesCategory(rest.lower()))
        if verb == "swap":
            face_text, _, seat_text = rest.partition(" ")
            sm = _SEAT_RE.match(seat_text.strip())
            if not sm:
                raise NotationError("swap needs a tile and a seat, e.g. 'swap R5 P3'")
            if int(sm[1]) < 1:
                raise NotationError(f"{text!r}: seats are P1, P2, ...")
            return ProposeSwap(Face.parse(face_text, material), int(sm[1]) - 1)
    except NotationError:
        raise
    except ValueError as exc:
        raise NotationError(f"{text!r} is not a valid action: {exc}") from None
    raise NotationError(
        f"{text!r} is not an action; try draw, take N, meld [..], attach X -> mN, "
        "exchange X -> mN, reclaim X <- mN, discard X, close X, remi, remi X, out, out X, "
        "three, board, reset, atu, doubles CAT, swap X Pn, accept X, decline, reshuffle, "
        "ready, next"
    )
