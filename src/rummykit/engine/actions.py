"""Actions: frozen records with a text notation that round-trips.

Seats never appear inside an action: an action is always played by the seat
to move.  In notation seats are written ``P1``…``Pn`` (1-based).

Every action also says what it proves about the actor's pieces
(:meth:`~ProvesPieces.proves`, a :class:`Proof`): which pieces it shows as having
been in the hand, which leave the hand and where to, which come into it.  Bots
that rebuild hidden hands and learners that featurize moves read that instead of
asking each action type in turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, NamedTuple, Protocol, runtime_checkable

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
    "ExtensionAction",
    "GoOut",
    "Meld",
    "NextDeal",
    "Proof",
    "ProposeSwap",
    "ProvesPieces",
    "Ready",
    "Reclaim",
    "ResetTurn",
    "Reshuffle",
    "TakeColumn",
    "parse_action",
    "parse_piece_token",
    "register_action",
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


class Proof(NamedTuple):
    """What an action proves about its actor's pieces, read from the action alone.

    The faces an action names are listed; what depends on the position (the pile
    from a position up, the jokers of a formation, the rest of the hand, the
    indicator's twin) is flagged for the caller to read from its view.  Every face
    in :attr:`held` was in the actor's hand just before the action.
    """

    lays: tuple[Face, ...] = ()
    """Pieces moved from the hand onto the table (a meld, an attachment, an exchange)."""
    declared: tuple[Face, ...] = ()
    """What the laid wild pieces stand for: named, not held."""
    discards: tuple[Face, ...] = ()
    """Pieces put on the discard pile (face down when closing with ``remi X``, §6.6)."""
    passes: tuple[Face, ...] = ()
    """Pieces handed face down to another seat once the swap is accepted: one tile of a
    swapped double (§9.4(1))."""
    shows: tuple[Face, ...] = ()
    """Pieces proved held that stay in the hand: the other tile of a swapped double."""
    takes: tuple[Face, ...] = ()
    """Named pieces that come into the hand (a reclaimed end tile, A-75)."""
    takes_column_from: int | None = None
    """The pile position from which every piece comes into the hand (§9.6(1)(b)/(c))."""
    takes_jokers_from: int | None = None
    """The formation whose jokers the laid naturals free into the hand (§9.10)."""
    lays_hand: bool = False
    """The rest of the hand (all but :attr:`discards`) goes onto the table (§7.6)."""
    shows_atu: bool = False
    """The indicator's twin is in the hand and stays there (§9.4(3))."""
    shows_double: DoublesCategory | None = None
    """A dealt double of this category is in the hand (§9.4(1)), its tiles unnamed."""
    undoes_turn: bool = False
    """This turn's laid pieces come back and its pile takes go back (§2.3 reset)."""

    @property
    def gives(self) -> tuple[Face, ...]:
        """Pieces that leave the hand other than onto the table."""
        return self.discards + self.passes

    @property
    def held(self) -> tuple[Face, ...]:
        """Named pieces the actor held just before the action, copies repeated."""
        return self.lays + self.discards + self.passes + self.shows


_NOTHING = Proof()
"""The proof of an action that moves or shows no piece."""


@runtime_checkable
class ProvesPieces(Protocol):
    """What every action answers: see :class:`Proof`."""

    def proves(self) -> Proof:
        """What this action proves about the actor's pieces."""
        ...


def _piece_text(face: Face, declared: Face | None) -> str:
    return f"{face}({declared})" if declared is not None else str(face)


def _group_text(faces: tuple[Face, ...], declared: tuple[Face | None, ...]) -> str:
    return "[" + " ".join(_piece_text(f, d) for f, d in zip(faces, declared, strict=True)) + "]"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the next piece of the stock."""

    def proves(self) -> Proof:
        """Nothing named: the stock piece is seen by the actor alone."""
        return _NOTHING

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class TakeColumn:
    """Take the column (discard pile) piece at ``index`` (0 is the dead tile) and all after it."""

    index: int

    def proves(self) -> Proof:
        """The pile from ``index`` up comes into the hand (RULES §9.6(1)(b)/(c))."""
        return Proof(takes_column_from=self.index)

    def __str__(self) -> str:
        return f"take {self.index}"


@dataclass(frozen=True, slots=True)
class Meld:
    """Lay a new formation; ``declared[i]`` fixes what a joker stands for."""

    faces: tuple[Face, ...]
    declared: tuple[Face | None, ...]

    def proves(self) -> Proof:
        """Every piece of the formation was held (RULES §9.6(2) lay out)."""
        return Proof(lays=self.faces, declared=tuple(d for d in self.declared if d is not None))

    def __str__(self) -> str:
        return f"meld {_group_text(self.faces, self.declared)}"


@dataclass(frozen=True, slots=True)
class Attach:
    """Attach one piece to formation ``target`` (1-based, written ``m3``)."""

    face: Face
    target: int
    declared: Face | None = None

    def proves(self) -> Proof:
        """The attached piece was held (RULES §9.6(2) attach).  A joker it displaces
        (§4.5 joker shifting) must be attached again at once: not a piece the hand keeps."""
        return Proof(lays=(self.face,), declared=() if self.declared is None else (self.declared,))

    def __str__(self) -> str:
        return f"attach {_piece_text(self.face, self.declared)} -> m{self.target}"


@dataclass(frozen=True, slots=True)
class ExchangeJoker:
    """Put natural piece(s) into formation ``target`` and take its joker (RULES §9.10)."""

    faces: tuple[Face, ...]
    target: int

    def proves(self) -> Proof:
        """The naturals were held; the formation's joker(s) come into the hand (§9.10)."""
        return Proof(lays=self.faces, takes_jokers_from=self.target)

    def __str__(self) -> str:
        return f"exchange {' '.join(map(str, self.faces))} -> m{self.target}"


@dataclass(frozen=True, slots=True)
class Reclaim:
    """Take an end tile of one's own formation back to the rack, to lay it in a new
    formation this turn (RULES A-75, option ``allow_reclaim_own_end_tiles``)."""

    face: Face
    target: int

    def proves(self) -> Proof:
        """The end tile comes back into the hand (A-75)."""
        return Proof(takes=(self.face,))

    def __str__(self) -> str:
        return f"reclaim {self.face} <- m{self.target}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one piece, ending (committing) the turn."""

    face: Face

    def proves(self) -> Proof:
        """The discarded piece was held (RULES §9.6(3))."""
        return Proof(discards=(self.face,))

    def __str__(self) -> str:
        return f"discard {self.face}"


@dataclass(frozen=True, slots=True)
class CloseBoard:
    """A board player shows a 14-piece contract and discards ``face`` to close (§9.13)."""

    face: Face

    def proves(self) -> Proof:
        """The closing piece was held and goes on the pile (§9.13)."""
        return Proof(discards=(self.face,))

    def __str__(self) -> str:
        return f"close {self.face}"


@dataclass(frozen=True, slots=True)
class CallRemi:
    """Stop the deal with "Remi!" right after drawing (RULES §6.6); with ``face``, also
    close by discarding it face down (the other cards must all lie in melds)."""

    face: Face | None = None

    def proves(self) -> Proof:
        """A closing card was held and goes on the pile face down (§6.6); a bare call names none."""
        return _NOTHING if self.face is None else Proof(discards=(self.face,))

    def __str__(self) -> str:
        return "remi" if self.face is None else f"remi {self.face}"


@dataclass(frozen=True, slots=True)
class GoOut:
    """Lay the whole hand out in a layout and close by discarding ``face`` (RULES §7.6);
    without a face, lay out the dealt hand before the first draw."""

    face: Face | None = None

    def proves(self) -> Proof:
        """The whole hand is laid out, but the closing card, which goes on the pile (§7.6)."""
        return Proof(discards=() if self.face is None else (self.face,), lays_hand=True)

    def __str__(self) -> str:
        return "out" if self.face is None else f"out {self.face}"


@dataclass(frozen=True, slots=True)
class AnnounceThree:
    """Announce that at most three pieces remain (RULES §9.11)."""

    def proves(self) -> Proof:
        """A count (at most three pieces left, §9.11), no face."""
        return _NOTHING

    def __str__(self) -> str:
        return "three"


@dataclass(frozen=True, slots=True)
class DeclareBoard:
    """Declare play on the board (RULES §9.13)."""

    def proves(self) -> Proof:
        """No face: the board contract is shown only when closing (§9.13)."""
        return _NOTHING

    def __str__(self) -> str:
        return "board"


@dataclass(frozen=True, slots=True)
class ResetTurn:
    """Undo this turn's table actions and column takes (a stock draw stays)."""

    def proves(self) -> Proof:
        """This turn's laid pieces and pile takes go back where they came from."""
        return Proof(undoes_turn=True)

    def __str__(self) -> str:
        return "reset"


@dataclass(frozen=True, slots=True)
class AnnounceAtu:
    """Announce holding the indicator's twin (RULES §9.4)."""

    def proves(self) -> Proof:
        """The indicator's twin is held (RULES §9.4(3))."""
        return Proof(shows_atu=True)

    def __str__(self) -> str:
        return "atu"


@dataclass(frozen=True, slots=True)
class AnnounceDoubles:
    """Announce holding a double of ``category`` without showing it."""

    category: DoublesCategory

    def proves(self) -> Proof:
        """A dealt double of ``category`` is held, its tiles not shown (RULES §9.4(1))."""
        return Proof(shows_double=self.category)

    def __str__(self) -> str:
        return f"doubles {self.category}"


@dataclass(frozen=True, slots=True)
class ProposeSwap:
    """Offer one tile of a double, face down, to ``seat`` (0-based; ``P{seat+1}``)."""

    face: Face
    seat: int

    def proves(self) -> Proof:
        """Both tiles of double ``face`` were held; one goes to ``seat`` (§9.4(1), A-49)."""
        return Proof(passes=(self.face,), shows=(self.face,))

    def __str__(self) -> str:
        return f"swap {self.face} P{self.seat + 1}"


@dataclass(frozen=True, slots=True)
class AcceptSwap:
    """Accept the offered swap, giving one tile of own double ``face``."""

    face: Face

    def proves(self) -> Proof:
        """Both tiles of double ``face`` were held; one goes to the proposer (§9.4(1), A-49)."""
        return Proof(passes=(self.face,), shows=(self.face,))

    def __str__(self) -> str:
        return f"accept {self.face}"


@dataclass(frozen=True, slots=True)
class DeclineSwap:
    """Decline the offered swap."""

    def proves(self) -> Proof:
        """Nothing: declining shows no tile."""
        return _NOTHING

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Demand that the game be broken and redealt (3 doubles, RULES §9.4)."""

    def proves(self) -> Proof:
        """Nothing that outlives it: three dealt doubles, but the deal is redealt (§9.4(2))."""
        return _NOTHING

    def __str__(self) -> str:
        return "reshuffle"


@dataclass(frozen=True, slots=True)
class Ready:
    """End one's pre-play announcements."""

    def proves(self) -> Proof:
        """Nothing: it ends the announcements."""
        return _NOTHING

    def __str__(self) -> str:
        return "ready"


@dataclass(frozen=True, slots=True)
class NextDeal:
    """Start the next deal of the match."""

    def proves(self) -> Proof:
        """Nothing: it starts a new deal."""
        return _NOTHING

    def __str__(self) -> str:
        return "next"


class ExtensionAction:
    """The base of an action that an engine extension declares in its own module
    (``rummykit.engine.extensions.*``), rather than here.

    A subclass is a frozen dataclass with :attr:`verb` (the first word of its
    notation), :meth:`parse` (the rest of the notation → the action), :meth:`catalogue`
    (every instance, for fixed action spaces such as the RL codec) and ``proves``; the
    class decorator :func:`register_action` makes :func:`parse_action` read it.
    """

    __slots__ = ()

    verb: ClassVar[str]
    """The notation's first word (unique among all actions)."""

    def proves(self) -> Proof:
        """What the action proves about the actor's pieces (each subclass says)."""
        raise NotImplementedError

    @classmethod
    def parse(cls, rest: str, material: Material) -> ExtensionAction:
        """The action whose notation is :attr:`verb` followed by ``rest`` (raise
        :class:`NotationError` if it is not one)."""
        raise NotImplementedError

    @classmethod
    def catalogue(cls, faces: tuple[Face, ...]) -> tuple[ExtensionAction, ...]:
        """Every action of this type, given the 53 face kinds of a material in kind
        order (joker last), in a fixed order."""
        raise NotImplementedError


_EXTENSION_VERBS: dict[str, type[ExtensionAction]] = {}


def register_action(cls: type[ExtensionAction]) -> type[ExtensionAction]:
    """Class decorator: let :func:`parse_action` parse ``cls``'s notation."""
    verb = cls.verb
    taken = _EXTENSION_VERBS.get(verb)
    if verb in _BUILT_IN_VERBS or (taken is not None and taken is not cls):
        raise ValueError(f"the action verb {verb!r} is already taken")
    _EXTENSION_VERBS[verb] = cls
    return cls


def _extension_action(verb: str) -> type[ExtensionAction] | None:
    # The built-in extensions declare their actions on import.
    import rummykit.engine.extensions  # noqa: F401

    return _EXTENSION_VERBS.get(verb)


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
    | ExtensionAction
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
_BUILT_IN_VERBS = frozenset(
    {*_SIMPLE, "take", "meld", "attach", "exchange", "reclaim", "discard", "close", "accept"}
    | {"doubles", "swap"}
)
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
        declared = _extension_action(verb)
        if declared is not None:
            return declared.parse(rest, material)
    except NotationError:
        raise
    except ValueError as exc:
        raise NotationError(f"{text!r} is not a valid action: {exc}") from None
    raise NotationError(
        f"{text!r} is not an action; try draw, take N, meld [..], attach X -> mN, "
        "exchange X -> mN, reclaim X <- mN, discard X, close X, remi, remi X, out, out X, "
        "three, board, reset, atu, doubles CAT, swap X Pn, accept X, decline, reshuffle, "
        "ready, next" + "".join(f", {verb}" for verb in sorted(_EXTENSION_VERBS))
    )
