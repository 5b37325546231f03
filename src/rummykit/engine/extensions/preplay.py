"""Announcements before play (RULES §9.4, A-48, A-49): atu, doubles, double swaps and the
three-doubles reshuffle, each seat in turn from the first player until all are ready.

Remi etalat plays it; a variant names it ``"preplay"`` in ``PlayRules.extensions``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from rummykit.engine.actions import (
    AcceptSwap,
    Action,
    AnnounceAtu,
    AnnounceDoubles,
    DeclineSwap,
    DoublesCategory,
    ProposeSwap,
    Ready,
    Reshuffle,
)
from rummykit.engine.extension import (
    Extension,
    ExtensionState,
    register_extension,
    state_of,
)
from rummykit.engine.game import Phase
from rummykit.model.candidates import counts_of
from rummykit.rules.variant import PrePlaySettings

if TYPE_CHECKING:
    from rummykit.engine.game import Game

__all__ = ["PrePlay", "PrePlayState", "double_kinds", "preplay_state", "recount_doubles"]

PHASE = "preplay"


@dataclass(slots=True)
class PrePlayState(ExtensionState):
    """What the announcements of this deal have settled so far."""

    atu: list[bool]
    """Per seat: atu announced (or, where it is mandatory, held)."""
    dealt_doubles: list[list[int]]
    """Per seat: the kinds it was dealt two of (jokers never form a double, A-49)."""
    doubles_announced: list[list[DoublesCategory]] = field(default_factory=list)
    doubles_swapped: list[set[int]] = field(default_factory=list)
    """Per seat: kinds it gave or received in a swap (each double swaps once)."""
    swap_offered: list[set[int]] = field(default_factory=list)
    """Per seat: the seats it has offered a swap to."""
    pending_swap: tuple[int, int, int] | None = None
    """(proposer, target, kind offered) of a swap awaiting its answer."""
    order: list[int] = field(default_factory=list)
    """The seats in announcing order, the first player first."""
    index: int = 0
    """How many seats have said they are ready."""


def double_kinds(game: Game, rack: Sequence[int]) -> list[int]:
    """The natural kinds ``rack`` holds two of (A-49: jokers never form a double)."""
    counts = counts_of([game.faces[p].kind for p in rack])
    return [k for k in range(52) if counts[k] >= 2]


def preplay_state(game: Game, *, writable: bool = False) -> PrePlayState | None:
    """The pre-play state of ``game``'s deal, or None if its variant has no pre-play
    (``writable``: to change it, e.g. in a sampled world; see ``Game.writable_state``)."""
    return state_of(game, PrePlay.name, PrePlayState, writable=writable)


def recount_doubles(game: Game) -> None:
    """Take each rack's doubles as dealt again from the racks as they are now: for a
    search that deals the hidden racks anew before play (the doubles a seat was dealt
    are its own secret until it announces them)."""
    if game.phase is Phase.PREPLAY and (state := preplay_state(game, writable=True)):
        state.dealt_doubles = [double_kinds(game, r) for r in game.racks]


@register_extension
class PrePlay(Extension[PrePlayState]):
    """RULES §9.4: before the first turn each seat, from the first player on, may announce
    atu and its doubles, offer a double swap, demand a reshuffle, and says ``ready``."""

    name = "preplay"
    phases = (PHASE,)
    handlers: ClassVar[Mapping[type[Action], tuple[str, str]]] = {
        AnnounceAtu: ("_verify_atu", "_apply_atu"),
        AnnounceDoubles: ("_verify_doubles", "_apply_doubles"),
        ProposeSwap: ("_verify_swap", "_apply_swap"),
        AcceptSwap: ("_verify_answer", "_apply_accept"),
        DeclineSwap: ("_verify_answer", "_apply_decline"),
        Reshuffle: ("_verify_reshuffle", "_apply_reshuffle"),
        Ready: ("_verify_ready", "_apply_ready"),
    }

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        settings = game.play.setting(PrePlaySettings)
        self.swaps = settings.swaps
        self.same_category = settings.swap_same_category
        self.reshuffle = settings.reshuffle
        self.atu_mandatory = settings.atu_mandatory
        self.atu_on_joker = settings.atu_on_joker

    # ------------------------------------------------------------------ deal

    def new_state(self, game: Game) -> PrePlayState:
        n = game.players
        return PrePlayState(
            atu=[False] * n,
            dealt_doubles=[double_kinds(game, r) for r in game.racks],
            doubles_announced=[[] for _ in range(n)],
            doubles_swapped=[set() for _ in range(n)],
            swap_offered=[set() for _ in range(n)],
            order=[(game.first_seat + i) % n for i in range(n)],
        )

    def begin_deal(self, game: Game) -> bool:
        state = self.state(game)
        game.phase = Phase.PREPLAY
        game.to_move = state.order[0]
        if self.atu_mandatory:
            for seat in range(game.players):
                if self._holds_atu(game, seat):
                    state.atu[seat] = True
        return True

    def _holds_atu(self, game: Game, seat: int) -> bool:
        if game.indicator is None or not game.play.atu_announcement:
            return False
        face = game.faces[game.indicator]
        if face.is_joker and not self.atu_on_joker:
            return False
        return any(p != game.indicator and game.faces[p] == face for p in game.racks[seat])

    def unswapped_doubles(
        self, game: Game, seat: int, category: DoublesCategory | None
    ) -> list[int]:
        """``seat``'s dealt doubles it still holds two of and has not swapped."""
        state = self.state(game)
        current = set(double_kinds(game, game.racks[seat]))
        return [
            k
            for k in state.dealt_doubles[seat]
            if k in current
            and k not in state.doubles_swapped[seat]
            and (category is None or DoublesCategory.of(game.kind_faces[k]) is category)
        ]

    # ------------------------------------------------------------------ actions

    def _verify_preplay(self, game: Game, action: Action) -> None:
        if game.phase != PHASE:
            raise game.fail(action, "§9.4", "announcements are made only before play")
        if self.state(game).pending_swap is not None and not isinstance(
            action, AcceptSwap | DeclineSwap
        ):
            raise game.fail(action, "§9.4", "a swap offer awaits an answer")

    def _verify_atu(self, game: Game, action: Action) -> None:
        self._verify_preplay(game, action)
        seat = game.to_move
        if self.state(game).atu[seat]:
            raise game.fail(action, "§9.4", "atu is already announced")
        if not self._holds_atu(game, seat):
            raise game.fail(action, "§9.4", "atu needs the twin of the indicator tile")

    def _apply_atu(self, game: Game, action: Action) -> None:
        self.writable(game).atu[game.to_move] = True

    def _verify_doubles(self, game: Game, action: AnnounceDoubles) -> None:
        self._verify_preplay(game, action)
        seat = game.to_move
        state = self.state(game)
        if action.category in state.doubles_announced[seat]:
            raise game.fail(action, "§9.4", "that category is already announced")
        if not any(
            DoublesCategory.of(game.kind_faces[k]) is action.category
            for k in state.dealt_doubles[seat]
        ):
            raise game.fail(action, "§9.4", f"no {action.category} double was dealt to you")

    def _apply_doubles(self, game: Game, action: AnnounceDoubles) -> None:
        self.writable(game).doubles_announced[game.to_move].append(action.category)

    def _verify_swap(self, game: Game, action: ProposeSwap) -> None:
        self._verify_preplay(game, action)
        seat, other = game.to_move, action.seat
        state = self.state(game)
        if not self.swaps:
            raise game.fail(action, "§9.4", "double swaps are disabled")
        if not 0 <= other < game.players or other == seat:
            raise game.fail(action, "§9.4", "swap with another seat at the table")
        if other in state.swap_offered[seat]:
            raise game.fail(action, "§9.4/A-49", "you already offered that player a swap")
        category = DoublesCategory.of(action.face)
        if action.face.is_joker or action.face.kind not in self.unswapped_doubles(game, seat, None):
            raise game.fail(action, "§9.4/A-49", f"you hold no unswapped double {action.face}")
        if category not in state.doubles_announced[seat]:
            raise game.fail(action, "§9.4", f"announce your {category} double first")
        wanted = category if self.same_category else None
        announced = state.doubles_announced[other]
        if (wanted is not None and wanted not in announced) or not announced:
            raise game.fail(action, "§9.4/A-49", f"P{other + 1} has announced no matching double")
        # Whether the other seat still holds an unswapped double of that category is its
        # secret (A-49 "face down"): the offer rests on its announcement alone, and an
        # offer it cannot accept can only be declined, like any other.

    def _apply_swap(self, game: Game, action: ProposeSwap) -> None:
        seat = game.to_move
        state = self.writable(game)
        state.swap_offered[seat].add(action.seat)
        state.pending_swap = (seat, action.seat, action.face.kind)
        game.to_move = action.seat

    def _verify_answer(self, game: Game, action: Action) -> None:
        pending = self.state(game).pending_swap
        if game.phase != PHASE or pending is None:
            raise game.fail(action, "§9.4", "no swap offer is waiting")
        if isinstance(action, AcceptSwap):
            _proposer, target, kind = pending
            wanted = DoublesCategory.of(game.kind_faces[kind]) if self.same_category else None
            if action.face.is_joker or action.face.kind not in self.unswapped_doubles(
                game, target, wanted
            ):
                raise game.fail(
                    action,
                    "§9.4/A-49",
                    f"you hold no unswapped double {action.face} of that category",
                )

    def _apply_accept(self, game: Game, action: AcceptSwap) -> None:
        state = self.writable(game)
        assert state.pending_swap is not None
        proposer, target, kind = state.pending_swap
        racks, faces = game.racks, game.faces
        given = next(p for p in racks[proposer] if faces[p].kind == kind)
        received = next(p for p in racks[target] if faces[p] == action.face)
        racks[proposer].remove(given)
        racks[target].remove(received)
        racks[proposer].append(received)
        racks[target].append(given)
        racks[proposer].sort()
        racks[target].sort()
        state.doubles_swapped[proposer].add(kind)
        state.doubles_swapped[target].add(action.face.kind)
        state.pending_swap = None
        game.to_move = proposer

    def _apply_decline(self, game: Game, action: DeclineSwap) -> None:
        state = self.writable(game)
        assert state.pending_swap is not None
        game.to_move = state.pending_swap[0]
        state.pending_swap = None

    def _verify_reshuffle(self, game: Game, action: Reshuffle) -> None:
        self._verify_preplay(game, action)
        if not self.reshuffle:
            raise game.fail(action, "§9.4", "the three-doubles reshuffle is disabled")
        if len(self.state(game).dealt_doubles[game.to_move]) < 3:
            raise game.fail(action, "§9.4/A-49", "a reshuffle needs 3 doubles as dealt")

    def _apply_reshuffle(self, game: Game, action: Reshuffle) -> None:
        # §9.4(2): all tiles are reshuffled and the same maker rebuilds the wall.
        game.redeal()

    def _verify_ready(self, game: Game, action: Ready) -> None:
        self._verify_preplay(game, action)

    def _apply_ready(self, game: Game, action: Ready) -> None:
        state = self.writable(game)
        state.index += 1
        if state.index < game.players:
            game.to_move = state.order[state.index]
            return
        game.start_play()

    # ------------------------------------------------------------------ listing

    def candidates(self, game: Game) -> Iterator[Action]:
        seat = game.to_move
        if self.state(game).pending_swap is not None:
            for k in self.unswapped_doubles(game, seat, None):
                yield AcceptSwap(game.kind_faces[k])
            yield DeclineSwap()
            return
        yield AnnounceAtu()
        for cat in DoublesCategory:
            yield AnnounceDoubles(cat)
        for k in self.unswapped_doubles(game, seat, None):
            for other in range(game.players):
                yield ProposeSwap(game.kind_faces[k], other)
        yield Reshuffle()
        yield Ready()

    # ------------------------------------------------------------------ views

    def view_fields(self, game: Game, seat: int) -> Mapping[str, Any]:
        state = self.state(game)
        offer = None
        if state.pending_swap is not None:
            proposer, target, _ = state.pending_swap
            if seat in (proposer, target):
                offer = f"P{proposer + 1} offers P{target + 1} a double tile"
        return {
            "atu": tuple(state.atu),
            "doubles_announced": tuple(tuple(str(c) for c in d) for d in state.doubles_announced),
            "swap_offer": offer,
        }

    def outcome_fields(self, game: Game, seat: int) -> Mapping[str, Any]:
        return {"atu": self.state(game).atu[seat]}
