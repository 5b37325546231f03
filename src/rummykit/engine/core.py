"""What the parts of :class:`~rummykit.engine.game.Game` share: its phases and its fields.

``Game`` is assembled from mixins, one per concern: the turn's obligations
(:mod:`~rummykit.engine.turn`), the table plays (:mod:`~rummykit.engine.table_play`),
the legal-action lists (:mod:`~rummykit.engine.legal`) and the deal's end
(:mod:`~rummykit.engine.deal_end`); ``game.py`` keeps its state, set-up, dispatch,
turn lifecycle and copies.  :class:`GameFields` declares, for the type checker, the
fields and the methods each part uses of the others: it adds nothing at run time (a
method is still looked up on the game itself).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from rummykit.engine.actions import Action, Discard
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.extension import Extension, ExtensionState, Handler
from rummykit.engine.table import Formation
from rummykit.model.melds import MeldKind, MeldRules
from rummykit.model.pieces import Face, PieceSet
from rummykit.rules.options import VariantOptions
from rummykit.rules.variant import Contract, DealLayout, PlayRules, Variant

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from rummykit.engine.actions import Attach, Meld
    from rummykit.engine.deal_end import DealResult
    from rummykit.engine.game import Game
    from rummykit.engine.legal import MeldCache, MeldParts, _FormationPlays
    from rummykit.engine.turn import Snapshot, Turn

__all__ = ["GameFields", "HistoryMemo", "Phase"]

HistoryMemo = tuple[int, int, tuple[tuple[int, str], ...], tuple[int, ...]]
"""(deal's first log index, log length, (seat, notation) per action of the deal,
log indices whose notation depends on the viewer)."""


class Phase(StrEnum):
    """Where a match is (RULES §9.2–9.12).

    The core enters ROUND1, TURNS, DEAL_END and MATCH_END; the others belong to the
    extensions that hold them (``Extension.phases``) and only they enter them
    (``tests/test_engine_extension.py``).  The values and the order of the members are
    part of the RL observation and of the server protocol: never change them.
    """

    PREPLAY = "preplay"
    """Announcements before play: atu, doubles, swaps, a reshuffle demand (the
    ``preplay`` extension's)."""
    ROUND1 = "round1"
    """The opening round: discard-only first turn, then draw and discard."""
    TURNS = "turns"
    """Normal turns from round 2 on."""
    DEAL_END = "deal_end"
    """A deal is scored; ``next`` starts the following one."""
    MATCH_END = "match_end"
    """The match is over."""
    SHOWDOWN = "showdown"
    """After a call, the seats lay out their own melds in turn (RULES §6.6, A-24; the
    ``call`` extension's), or gin's knock and lay-offs (the ``gin`` extension's)."""


class GameFields:
    """The fields of a game (set by ``Game``) and the methods its parts call of each
    other, declared for the type checker and for :meth:`Game.copy
    <rummykit.engine.game.Game.copy>`, which is generated from these declarations
    (:func:`copy_plan`): a field declared here cannot be forgotten by a copy."""

    # The set-up: the same for every game of one variant, player count and options.
    variant: Variant
    players: int
    options: VariantOptions
    fingerprint: str
    pieces: PieceSet
    faces: tuple[Face, ...]
    kind_faces: tuple[Face, ...]
    _discards: tuple[Discard, ...]
    rules: MeldRules
    _opening_value: Callable[[MeldKind, int], int]
    _score_value: Callable[[Face], int]
    _melds_by_rack: MeldCache
    _meld_parts: MeldParts
    _shared_plays: dict[Formation, _FormationPlays]
    _rack_max: int
    play: PlayRules
    extensions: tuple[Extension[Any], ...]
    _verifiers: dict[type, Handler]
    _appliers: dict[type, Handler]
    _phase_owners: dict[str, Extension[Any]]
    _phase_verifiers: dict[str, Handler]
    _phase_appliers: dict[str, Handler]
    _early_hooks: tuple[Extension[Any], ...]
    _late_hooks: tuple[Extension[Any], ...]
    _discard_hooks: tuple[Extension[Any], ...]
    _closing_hooks: tuple[Extension[Any], ...]
    _table_action_hooks: tuple[Extension[Any], ...]
    _shown_hooks: tuple[Extension[Any], ...]
    _table_hooks: tuple[Extension[Any], ...]
    _column_hooks: tuple[Extension[Any], ...]
    _take_use_hooks: tuple[Extension[Any], ...]
    _action_hooks: tuple[Extension[Any], ...]
    _turn_list_hooks: tuple[Extension[Any], ...]
    _commit_hooks: tuple[Extension[Any], ...]
    _obliged_hooks: tuple[Extension[Any], ...]
    _formation_piece_hooks: tuple[Extension[Any], ...]
    _misfit_hooks: tuple[Extension[Any], ...]
    _attached_hooks: tuple[Extension[Any], ...]
    _formation_attach_hooks: tuple[Extension[Any], ...]

    # The match.
    seed: int | None
    explicit_walls: list[tuple[int, ...]] | None
    start_layout: DealLayout | None
    walls_used: list[tuple[int, ...]]
    first_maker: int
    maker: int
    deal_number: int
    totals: list[int]
    results: list[DealResult]
    log: list[tuple[int, Action]]
    log_text: list[tuple[int, str]]
    history_memo: HistoryMemo | None
    table_memo: tuple[tuple[Formation, ...], frozenset[int], tuple[Any, ...]] | None
    _legal_cache: tuple[int, list[Action]] | None
    _going_out_trial: bool
    _plays_by_formation: dict[int, tuple[Formation, _FormationPlays]]
    ext_states: dict[str, ExtensionState]
    _ext_shared: bool
    _rng: random.Random
    _rng_shared: bool

    # The deal.
    phase: Phase
    to_move: int
    deal_log_start: int
    racks: list[list[int]]
    stock: list[int]
    column: list[int]
    table: list[Formation]
    credit: list[int]
    locked: set[int]
    indicator: int | None
    double_game: bool
    first_seat: int
    opened: list[bool]
    turns_taken: list[int]
    has_laid: list[bool]
    recycles: int
    turn_number: int
    turn: Turn
    snapshot: Snapshot | None

    if TYPE_CHECKING:
        # Methods one part of the game calls of another.
        def fail(self, action: Action, rule: str, reason: str) -> IllegalActionError: ...
        def can(self, action: Action) -> bool: ...
        def copy(self) -> Game: ...
        def rack_faces(self, seat: int) -> list[Face]: ...
        def in_turn(self, action: Action) -> None: ...
        def before_change(self) -> None: ...
        def commit_turn(self, seat: int) -> None: ...
        def _start_deal(self) -> None: ...
        def _middle_take_problem(self) -> tuple[str, str] | None: ...
        def pick(self, seat: int, faces: Sequence[Face], action: Action) -> list[int]: ...
        def pick_discard(self, seat: int, face: Face, action: Action) -> list[int]: ...
        def commit_problem(self, going_out: bool = False) -> tuple[str, str] | None: ...
        def _table_play_problem(self, seat: int) -> tuple[str, str] | None: ...
        def attach_slot(
            self, formation: Formation, face: Face, declared: Face | None
        ) -> int | None: ...
        def _may_lay_off(self, seat: int) -> bool: ...
        def _exchange_one_for_one(self, seat: int) -> bool: ...
        def _go_out_if_empty(self) -> None: ...
        def _plays(self, formation: Formation) -> _FormationPlays: ...
        def _joker_attaches(self, formation: Formation, joker: Face) -> Iterator[Attach]: ...
        def rack_melds(self, seat: int) -> tuple[Meld, ...]: ...
        def end_deal(
            self,
            end: str,
            closer: int | None,
            face: Face | None,
            contract: Contract | None,
            *,
            hand: bool = False,
            face_down: bool = False,
            before_draw: bool = False,
        ) -> None: ...


SHARED_FIELDS = frozenset(
    {"explicit_walls", "_melds_by_rack", "_meld_parts", "_shared_plays", "_verifiers"}
    | {"_appliers", "_phase_owners", "_phase_verifiers", "_phase_appliers", "ext_states"}
)
"""Containers a copy shares with its original: set at set-up and never changed after
(the wall list, the dispatch tables, the shared caches), or copied on write
(``ext_states``: :meth:`~rummykit.engine.game.Game.writable_state`)."""

RESET_FIELDS: dict[str, str] = {"_legal_cache": "None", "_plays_by_formation": "{}"}
"""Per-game caches a copy starts empty (source text of the fresh value)."""


def copy_plan() -> list[tuple[str, str]]:
    """(field, source text of its copy from ``self``) for every container field of
    :class:`GameFields` a copy must not share: a list is sliced (a list of lists
    slice by slice), a set copied, the turn copied, a reset cache made fresh.  Any
    other field is immutable and shared.  A dict (or other mutable) field that is
    neither shared nor reset raises here, at import: say which it is."""
    plan: list[tuple[str, str]] = []
    for name, annotation in GameFields.__annotations__.items():
        text = str(annotation)
        if name in RESET_FIELDS:
            plan.append((name, RESET_FIELDS[name]))
        elif name in SHARED_FIELDS:
            continue
        elif text.startswith("list[list["):
            plan.append((name, f"[x[:] for x in self.{name}]"))
        elif text.startswith("list["):
            plan.append((name, f"self.{name}[:]"))
        elif text.startswith("set["):
            plan.append((name, f"set(self.{name})"))
        elif text == "Turn":
            plan.append((name, f"self.{name}.copy()"))
        elif text.startswith(("dict[", "Mapping", "MutableMapping")) or "list[" in text:
            raise TypeError(f"GameFields.{name}: {text} must be in SHARED_FIELDS or RESET_FIELDS")
    return plan
