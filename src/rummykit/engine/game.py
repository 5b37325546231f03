"""The game state machine: a match of deals under one variant.

Every action goes through :meth:`Game.verify` (raises with the rule),
:meth:`Game.can` (a bool) and :meth:`Game.apply` (does it and logs it); an
illegal action leaves the game unchanged.  :meth:`Game.legal_actions` lists
exactly the actions that verify, and depends only on what the seat to move may
know.  Hidden information leaves only through :func:`rummykit.engine.view.view`
and :func:`rummykit.engine.view.seat_legal_actions`.
"""

from __future__ import annotations

import random
import secrets
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from operator import itemgetter
from typing import Any, NamedTuple

from rummykit.engine.actions import (
    Action,
    Attach,
    Discard,
    Draw,
    ExchangeJoker,
    Meld,
    NextDeal,
    Ready,
    ResetTurn,
    TakeColumn,
)
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.extension import (
    Extension,
    ExtensionState,
    Handler,
    make_extensions,
    phase_owners,
)
from rummykit.engine.table import Formation
from rummykit.model.candidates import (
    Candidate,
    candidates,
    counts_of,
    rank_sets,
    suit_runs,
)
from rummykit.model.melds import (
    HIGH_ACE,
    MeldKind,
    MeldRules,
    best_reading,
    position_rank,
    read_meld,
)
from rummykit.model.pieces import (
    JOKER_KIND,
    SUIT_COUNT,
    Face,
    Material,
    kind_of,
    suit_of_kind,
)
from rummykit.rules.options import VariantOptions, fingerprint
from rummykit.rules.variant import (
    Contract,
    DealLayout,
    OpeningStructure,
    SeatOutcome,
    ShownHand,
    TakeUse,
    Variant,
    find_variant,
)

__all__ = ["DealResult", "Game", "HistoryMemo", "Phase"]

HistoryMemo = tuple[int, int, tuple[tuple[int, str], ...], tuple[int, ...]]
"""(deal's first log index, log length, (seat, notation) per action of the deal,
log indices whose notation depends on the viewer)."""


class Phase(StrEnum):
    """Where a match is (RULES §9.2–9.12)."""

    PREPLAY = "preplay"
    """Announcements before play: atu, doubles, swaps, a reshuffle demand."""
    ROUND1 = "round1"
    """The opening round: discard-only first turn, then draw and discard."""
    TURNS = "turns"
    """Normal turns from round 2 on."""
    DEAL_END = "deal_end"
    """A deal is scored; ``next`` starts the following one."""
    MATCH_END = "match_end"
    """The match is over."""
    SHOWDOWN = "showdown"
    """After a call, the seats lay out their own melds in turn (RULES §6.6, A-24)."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of one deal."""

    deal: int
    maker: int
    end: str
    """``close``, ``out`` (no final discard), ``board`` (a board contract closed it),
    ``call`` (a "Remi!" call without closing), ``exhaustion`` or ``void``."""
    closer: int | None
    closing_face: str | None
    contract: str | None
    double_game: bool
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    opened: tuple[bool, ...]
    table_values: tuple[int, ...]
    rack_values: tuple[int, ...]
    hand: bool = False
    """The closer went out in one turn from the full hand (RULES §3.6)."""
    showdown: tuple[str, ...] = ()
    """Each seat's hand as laid out at the end of the deal, where the variant arranges
    hands (RULES §6.6): melds, then the deadwood after a slash."""
    three_penalty: tuple[bool, ...] = ()
    """Per seat: it held three pieces without announcing "three" (remi_ro §9.11/A-56,
    the ``three_tile_penalty``)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        out = {
            "deal": self.deal,
            "maker": self.maker,
            "end": self.end,
            "closer": self.closer,
            "closing_piece": self.closing_face,
            "contract": self.contract,
            "double_game": self.double_game,
            "scores": list(self.scores),
            "totals": list(self.totals),
            "opened": list(self.opened),
            "table_values": list(self.table_values),
            "rack_values": list(self.rack_values),
            "hand": self.hand,
        }
        if self.showdown:
            out["showdown"] = list(self.showdown)
        if any(self.three_penalty):
            out["three_penalty"] = list(self.three_penalty)
        return out


@dataclass(slots=True)
class _Turn:
    """What the current turn has done so far (for commit checks and reset)."""

    acquired: str | None = None
    """``draw``, ``last``, ``middle``, or ``none`` for the discard-only first turn."""
    start_rack: int = 0
    must_use: list[int] = field(default_factory=list)
    pending_jokers: list[int] = field(default_factory=list)
    new_formations: list[int] = field(default_factory=list)
    laid: list[tuple[MeldKind, int]] = field(default_factory=list)
    """(kind, rank of a set / 0) of each formation laid this turn."""
    laid_points: int = 0
    exchanged: bool = False
    attached: bool = False
    dirty: bool = False
    displaced: int | None = None
    """A joker lifted by a lay-off (§4.5) that must be attached again before anything else."""
    displaced_from: int = 0
    """The formation the lifted joker came from."""
    reclaimed: list[int] = field(default_factory=list)
    """Tiles taken back from the table this turn: each must go into a new formation."""
    gained: int = -1
    """The piece drawn or taken this turn (-1: none yet)."""

    def copy(self) -> _Turn:
        return _Turn(
            self.acquired,
            self.start_rack,
            self.must_use[:],
            self.pending_jokers[:],
            self.new_formations[:],
            self.laid[:],
            self.laid_points,
            self.exchanged,
            self.attached,
            self.dirty,
            self.displaced,
            self.displaced_from,
            self.reclaimed[:],
            self.gained,
        )


@dataclass(slots=True)
class _Snapshot:
    rack: list[int]
    column: list[int]
    table: list[Formation]
    credit: list[int]
    locked: set[int]
    turn: _Turn


_MeldPairs = tuple[tuple[int, Meld], ...]
"""(size, meld) of each formation of one part of a rack (a suit's runs, a rank's sets)."""
_MeldParts = dict[
    int, tuple[list[dict[tuple[int, ...], _MeldPairs]], list[dict[tuple[int, ...], _MeldPairs]]]
]
"""Per usable wild count: (per suit its rows' runs, then per suit its canonical rows'
runs; per rank its columns' sets)."""
_PART_LIMIT = 20_000
_FIRST = itemgetter(0)
_SECOND = itemgetter(1)
_NO_SUIT = (0, 0, 0, 0)


class _MeldPlan(NamedTuple):
    """A meld's reading as the table holds it (see :meth:`Game._meld_plan`)."""

    kind: MeldKind
    suit: int
    order: tuple[int, ...]
    """The meld's pieces in table order, as indices into its faces."""
    positions: tuple[int, ...]
    kinds: tuple[int, ...]
    laid: tuple[MeldKind, int]
    """(kind, position of the reading's first piece), for the opening checks."""
    points: int
    """Its opening points."""


_MELD_PLANS: dict[tuple[int, int, int], tuple[Meld, MeldRules, Any, _MeldPlan]] = {}
"""Meld plans by the ids of the meld, the rules and the opening values (each checked)."""


class _FormationPlays(NamedTuple):
    """What may be played on one formation, for any rack (:meth:`Game._plays`)."""

    formation: Formation
    slots: dict[int, int]
    """Natural kind -> the position it takes (see :func:`_natural_slots`)."""
    attaches: tuple[tuple[int, Attach], ...]
    """(natural kind, its lay-off) for each natural that fits, kinds ascending."""
    joker_attaches: tuple[Attach, ...]
    shifts: tuple[tuple[int, Attach, bool], ...]
    """§4.5 (runs): (natural kind a joker stands for, its lay-off, whether the lifted
    joker could go to a free end of the same run)."""
    run_exchanges: tuple[tuple[int, int, ExchangeJoker], ...]
    """(joker piece, natural kind it stands for, the exchange) of each joker of a run."""
    jokers: tuple[int, ...]
    """The formation's joker pieces."""
    missing: tuple[Face, ...]
    """A set's missing suits (as faces of its rank), where it holds a joker."""
    one_exchanges: tuple[tuple[int, ExchangeJoker], ...]
    """A set: (kind, the exchange of one missing suit for one joker)."""
    all_exchange: ExchangeJoker | None
    """A set holding a joker: the exchange of every missing suit."""


def _meld_actions(
    counts: tuple[int, ...], rules: MeldRules, material: Material, parts: _MeldParts
) -> tuple[tuple[int, ...], tuple[Meld, ...]]:
    """(sizes, melds) of every formation the counts can make, shortest first.

    The formations are :func:`candidates`' in its order (each suit's runs, then each
    rank's sets), stably sorted by size.  A suit's runs depend only on that suit's
    counts and the usable wild count, a rank's sets only on that rank's column: each
    part's (size, meld) pairs are kept in ``parts``, so a rack that differs from one
    seen before by a piece or two is assembled from parts already built.
    """
    if rules.wild_ranks:  # wild ranks mix the suits: no parts
        found = sorted(candidates(counts, rules), key=lambda c: len(c.kinds))
        return tuple(len(c.kinds) for c in found), tuple(_meld_of(c, material) for c in found)
    jokers = counts[JOKER_KIND]
    max_wild = jokers if rules.max_wild is None else min(jokers, rules.max_wild)
    tables = parts.get(max_wild)
    if tables is None:
        tables = parts[max_wild] = ([{} for _ in range(2 * SUIT_COUNT)], [{} for _ in range(14)])
    run_tables, set_tables = tables
    pairs: list[tuple[int, Meld]] = []
    if rules.runs_allowed:
        for suit in range(SUIT_COUNT):
            start = suit * 13
            row = counts[start : start + 13]
            table = run_tables[suit]
            found_pairs = table.get(row)
            if found_pairs is None:
                # As in candidates(): the runs depend only on which ranks the suit
                # holds, and whether one ace or two.
                canonical = (row[0] if row[0] < 2 else 2, *(1 if c else 0 for c in row[1:]))
                same = run_tables[SUIT_COUNT + suit]
                found_pairs = same.get(canonical)
                if found_pairs is None:
                    found_pairs = same[canonical] = tuple(
                        (len(c.kinds), _meld_of(c, material))
                        for c in suit_runs(counts, rules, suit)
                    )
                if len(table) > _PART_LIMIT:
                    table.clear()
                table[row] = found_pairs
            pairs.extend(found_pairs)
    if rules.sets_allowed:
        # Each rank's column (its count in each suit), ranks 1 to 13.
        columns = zip(counts[0:13], counts[13:26], counts[26:39], counts[39:52], strict=True)
        for rank, column in enumerate(columns, 1):
            if column == _NO_SUIT:
                continue
            table = set_tables[rank]
            found_pairs = table.get(column)
            if found_pairs is None:
                found_pairs = table[column] = tuple(
                    (len(c.kinds), _meld_of(c, material)) for c in rank_sets(counts, rules, rank)
                )
            pairs.extend(found_pairs)
    pairs.sort(key=_FIRST)
    return tuple(map(_FIRST, pairs)), tuple(map(_SECOND, pairs))


@lru_cache(maxsize=65536)
def _meld_of(candidate: Candidate, material: Material) -> Meld:
    return Meld(candidate.faces(material), candidate.declared(material))


def _natural_slots(formation: Formation, rules: MeldRules) -> dict[int, int]:
    """Natural face kind → the position it would take if attached to ``formation``."""
    out: dict[int, int] = {}
    if formation.kind is MeldKind.RUN:
        for p in (formation.positions[0] - 1, formation.positions[-1] + 1):
            if 1 <= p <= HIGH_ACE:
                kind = kind_of(formation.suit, position_rank(p))
                face = Face.of(Material.TILES, formation.suit, position_rank(p))
                slot = formation.run_slot_for(face, rules, None)
                if slot is not None and kind not in out:
                    out[kind] = slot
        return out
    size = len(formation.pieces)
    if size >= rules.set_max_size or (rules.set_distinct_suits and size >= 4):
        return out
    present = {suit_of_kind(k) for k in formation.kinds if k != JOKER_KIND}
    for suit in range(SUIT_COUNT):
        if not (rules.set_distinct_suits and suit in present):
            out[kind_of(suit, formation.rank)] = formation.rank
    return out


_MELDS_BY_RACK: dict[
    tuple[str, MeldRules], dict[tuple[int, ...], tuple[tuple[int, ...], tuple[Meld, ...]]]
] = {}
_MELD_PARTS: dict[tuple[str, MeldRules], _MeldParts] = {}
"""Each rack part's meld actions (see :func:`_meld_actions`), per variant and rules."""
_SHARED_PLAYS: dict[tuple[str, MeldRules], dict[Formation, _FormationPlays]] = {}
"""Each formation's plays (see :meth:`Game._plays`), per variant and rules: they depend
on nothing else, so games, copies and a reset turn share them."""
_DRAW = Draw()
_ATTACHES: dict[tuple[int, Material, int], Attach] = {}


def _attach(face: Face, target: int) -> Attach:
    """``Attach(face, target)`` of a natural face, one object for every game."""
    key = (face.kind, face.material, target)
    action = _ATTACHES.get(key)
    if action is None:
        if len(_ATTACHES) > 20_000:
            _ATTACHES.clear()
        action = _ATTACHES[key] = Attach(face, target)
    return action


_TAKES: list[TakeColumn] = []
"""``TakeColumn(i)`` at index i: the legal lists share them."""


def _takes(last: int) -> list[TakeColumn]:
    """:data:`_TAKES`, holding at least ``TakeColumn(last)``."""
    if len(_TAKES) <= last:
        _TAKES.extend(TakeColumn(i) for i in range(len(_TAKES), last + 1))
    return _TAKES


_RESET = ResetTurn()
_READY = Ready()


def _overriding(extensions: tuple[Extension[Any], ...], hook: str) -> tuple[Extension[Any], ...]:
    """The extensions that implement ``hook`` (the others are not called for it)."""
    return tuple(e for e in extensions if getattr(type(e), hook) is not getattr(Extension, hook))


_DISPATCH_FIELDS = (
    "_verifiers",
    "_appliers",
    "_phase_owners",
    "_phase_verifiers",
    "_phase_appliers",
    "_early_hooks",
    "_late_hooks",
    "_discard_hooks",
    "_closing_hooks",
    "_table_action_hooks",
    "_shown_hooks",
    "_table_hooks",
    "_column_hooks",
    "_take_use_hooks",
)
"""What :meth:`Game._set_dispatch` builds from the extensions (rebuilt after unpickling)."""

_SETUP_FIELDS = (
    "variant",
    "options",
    "fingerprint",
    "pieces",
    "faces",
    "kind_faces",
    "_discards",
    "rules",
    "_opening_value",
    "_score_value",
    "_melds_by_rack",
    "_meld_parts",
    "_shared_plays",
    "_rack_max",
    "play",
    "extensions",
    *_DISPATCH_FIELDS,
)
"""What :meth:`Game._set_up` sets: the same for every game of one variant, player count
and options, and never changed by play (immutable, or a cache meant to be shared)."""
_SETUPS: dict[tuple[int, int, tuple[tuple[str, Any], ...]], dict[str, Any]] = {}
"""Set-ups already built, by (variant id, players, the options given): a new game of a
known set-up skips validating and resolving its options (searches and RL environments
build many)."""
_SETUPS_LIMIT = 256


def _setup_key(
    variant: Variant, players: int, options: Mapping[str, Any] | None
) -> tuple[int, int, tuple[tuple[str, Any], ...]] | None:
    items = tuple(sorted(options.items())) if options else ()
    try:
        hash(items)
    except TypeError:
        return None
    return id(variant), players, items


class Game:
    """A match of one variant: deals, turns, legality, scoring and the action log.

    Build it from a variant (object or name), the player count, options and a
    seed or an injected :class:`random.Random`; ``walls`` gives explicit piece
    orders for the deals (tests stack the deal this way); ``layout`` starts the
    first deal from explicit racks, stock and discard pile instead of a wall
    (search builds sampled worlds this way; that deal records an empty wall).
    """

    _rng: random.Random
    _rng_shared: bool
    """Whether :attr:`rng`'s generator is shared with a copy (copy-on-write)."""

    def __init__(
        self,
        variant: Variant | str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        walls: Sequence[Sequence[int]] | None = None,
        maker: int | None = None,
        layout: DealLayout | None = None,
    ) -> None:
        self.variant = find_variant(variant) if isinstance(variant, str) else variant
        self.players = self.variant.default_players if players is None else players
        key = _setup_key(self.variant, self.players, options)
        known = _SETUPS.get(key) if key is not None else None
        if known is not None and known["variant"] is self.variant:
            self.__dict__.update(known)
        else:
            self._set_up(options)
            if key is not None:
                if len(_SETUPS) >= _SETUPS_LIMIT:
                    _SETUPS.clear()
                _SETUPS[key] = {name: self.__dict__[name] for name in _SETUP_FIELDS}
        self._plays_by_formation: dict[int, tuple[Formation, _FormationPlays]] = {}
        self.ext_states: dict[str, ExtensionState] = {}
        """Each extension's state of this deal, under its name (see :meth:`writable_state`)."""
        self._ext_shared = False
        if rng is None:
            seed = secrets.randbelow(2**63) if seed is None else seed
            rng = random.Random(seed)
        self.seed = seed
        self.rng = rng
        self.explicit_walls = [tuple(w) for w in walls] if walls is not None else None
        self.start_layout = layout
        self.walls_used: list[tuple[int, ...]] = []
        if maker is not None and not 0 <= maker < self.players:
            raise ValueError(f"maker must be a seat 0..{self.players - 1}, not {maker}")
        # The maker draw always consumes the RNG, so a given maker does not shift the walls.
        drawn_maker = self.rng.randrange(self.players)
        self.first_maker = drawn_maker if maker is None else maker
        self.maker = self.first_maker
        self.deal_number = 0
        self.totals = [self.variant.starting_total(self.options)] * self.players
        self.results: list[DealResult] = []
        self.log: list[tuple[int, Action]] = []
        self.log_text: list[tuple[int, str]] = []
        """The log in notation, filled lazily by views so each action is formatted once."""
        self.history_memo: HistoryMemo | None = None
        """The deal's history as views last built it (the log is append-only, so views
        extend it by the new actions instead of rebuilding it for every seat and event)."""
        self.table_memo: tuple[tuple[Formation, ...], frozenset[int], tuple[Any, ...]] | None = None
        """The table as views last showed it: (formations, locked pieces, their views)."""
        # (log length, the list): the list keeps its objects' ids valid.
        self._legal_cache: tuple[int, list[Action]] | None = None
        self._going_out_trial = False
        self._start_deal()

    def _set_up(self, options: Mapping[str, Any] | None) -> None:
        """What the variant, the player count and the options alone decide (validated
        here; shared by every game of the same set-up, see ``_SETUPS``)."""
        self.options: VariantOptions = self.variant.resolve(self.players, options)
        self.fingerprint = fingerprint(self.variant.name, self.options)
        self.pieces = self.variant.pieces(self.options)
        self.faces = self.pieces.faces
        self.kind_faces = tuple(
            Face.from_kind(self.pieces.material, k) for k in range(JOKER_KIND + 1)
        )
        self._discards = tuple(Discard(f) for f in self.kind_faces)
        self.rules = self.variant.rules_for(self.options)
        self._opening_value = self.variant.opening_values(self.options)
        self._score_value = self.variant.score_values(self.options)
        # Caches shared by every game of the variant: rack counts → melds.  Keyed by the
        # meld rules too, since options such as min_naturals_per_meld change them.
        self._melds_by_rack = _MELDS_BY_RACK.setdefault((self.variant.name, self.rules), {})
        self._meld_parts = _MELD_PARTS.setdefault((self.variant.name, self.rules), {})
        self._shared_plays = _SHARED_PLAYS.setdefault((self.variant.name, self.rules), {})
        self.play = self.variant.play_rules(self.options)
        limit = self.play.rack_max_after_turn
        self._rack_max = 10**6 if limit is None else limit
        self.extensions: tuple[Extension[Any], ...] = make_extensions(self, self.play.extensions)
        self._set_dispatch()

    # ------------------------------------------------------------------ set-up

    def _next_wall(self) -> list[int]:
        used = len(self.walls_used)
        if self.explicit_walls is not None and used < len(self.explicit_walls):
            return list(self.explicit_walls[used])
        return self.variant.shuffled_order(self.pieces, self.rng)

    def _start_deal(self) -> None:
        n = self.players
        self.deal_log_start = len(self.log)
        if self.start_layout is not None and not self.walls_used:
            order: list[int] = []
            layout = self.start_layout
        else:
            order = self._next_wall()
            layout = self.variant.deal(self.pieces, order, n, self.maker, self.options)
        self.walls_used.append(tuple(order))
        self.racks: list[list[int]] = [sorted(r) for r in layout.racks]
        self.stock: list[int] = list(reversed(layout.stock))
        self.column: list[int] = list(layout.discard)
        self.table: list[Formation] = []
        self.credit: list[int] = [-1] * len(self.pieces)
        self.locked: set[int] = set()
        self.indicator = layout.indicator
        self.double_game = layout.double_game
        self.first_seat = layout.first_seat
        self.opened = [False] * n
        # §10.10: in "Spiel auf der Tafel" every seat plays on his rack from the start.
        self.turns_taken = [0] * n
        self.has_laid = [False] * n
        """Whether each seat has laid or laid off anything in an earlier turn (for "Hand")."""
        self.recycles = 0
        self.turn_number = 0
        self.turn = _Turn()
        self.snapshot: _Snapshot | None = None
        self.ext_states = {}
        for ext in self.extensions:
            state = ext.new_state(self)
            if state is not None:
                self.ext_states[ext.name] = state
        self._ext_shared = False
        for ext in self.extensions:
            if ext.begin_deal(self):
                return
        self.start_play()

    def redeal(self) -> None:
        """Deal the current deal again from a new wall, the same maker dealing (for an
        extension whose rule cancels a deal before play, e.g. RULES §9.4(2))."""
        self._start_deal()

    def _set_dispatch(self) -> None:
        verifiers: dict[type, Handler] = dict(self._VERIFY)
        appliers: dict[type, Handler] = dict(self._APPLY)
        for ext in self.extensions:
            for action_type, (verify, apply) in ext.bound_handlers().items():
                if action_type in verifiers:
                    raise ValueError(f"{ext.name} handles {action_type.__name__} a second time")
                verifiers[action_type] = verify
                appliers[action_type] = apply
        self._verifiers = verifiers
        self._appliers = appliers
        self._phase_owners = phase_owners(self.extensions)
        self._phase_verifiers: dict[str, Handler] = {}
        self._phase_appliers: dict[str, Handler] = {}
        for ext in self.extensions:
            for phase, (verify, apply) in ext.bound_phase_handlers().items():
                self._phase_verifiers[phase] = verify
                self._phase_appliers[phase] = apply
        self._early_hooks = _overriding(self.extensions, "actions_before_discards")
        self._late_hooks = _overriding(self.extensions, "actions_after_discards")
        self._discard_hooks = _overriding(self.extensions, "discarded")
        self._closing_hooks = _overriding(self.extensions, "closing_discards")
        self._table_action_hooks = _overriding(self.extensions, "table_actions")
        self._shown_hooks = _overriding(self.extensions, "shown_hands")
        self._table_hooks = _overriding(self.extensions, "table_play_problem")
        self._column_hooks = _overriding(self.extensions, "column_take_problem")
        self._take_use_hooks = _overriding(self.extensions, "take_use_waived")

    def writable_state(self, name: str) -> ExtensionState:
        """Extension ``name``'s state of this deal, to change: a game and its copies
        share their extensions' states until one of them changes one (copy-on-write)."""
        if self._ext_shared:
            self.ext_states = {k: v.copy() for k, v in self.ext_states.items()}
            self._ext_shared = False
        return self.ext_states[name]

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        """True once the match has ended."""
        return self.phase is Phase.MATCH_END

    @property
    def round(self) -> int:
        """The round of the current deal (1 = the opening round)."""
        return self.turn_number // self.players + 1

    def winners(self) -> list[int]:
        """The seats with the best match total so far (highest, or lowest where the
        variant counts penalties)."""
        best = (min if self.play.match_winner == "lowest" else max)(self.totals)
        return [s for s, t in enumerate(self.totals) if t == best]

    def rack_faces(self, seat: int) -> list[Face]:
        """The faces on ``seat``'s rack (full state: use :meth:`view` for players)."""
        return [self.faces[p] for p in self.racks[seat]]

    def describe(self) -> str:
        """A one-line summary of the public state, used in error messages."""
        seat = self.to_move
        return (
            f"deal {self.deal_number + 1}, {self.phase}, round {self.round}, P{seat + 1} to move, "
            f"rack {len(self.racks[seat])}, stock {len(self.stock)}, column {len(self.column)}, "
            f"table {len(self.table)}"
        )

    def fail(self, action: Action, rule: str, reason: str) -> IllegalActionError:
        """The error for ``action``, broken ``rule`` and ``reason``, in the current state."""
        return IllegalActionError(f"{action}", rule, reason, self.describe())

    # ------------------------------------------------------------------ the triad

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not legal for the seat to move."""
        handler = self._phase_verifiers.get(self.phase)
        if handler is not None:
            handler(self, action)
            return
        handler = self._verifiers.get(type(action))
        if handler is None:
            raise self.fail(action, "§2.3", f"{self.variant.name} has no such action")
        if self.turn.displaced is not None and type(action) not in (Attach, ResetTurn):
            raise self.fail(
                action,
                self.play.cite("joker_shift", "§4.5"),
                f"first attach the joker lifted from m{self.turn.displaced_from}",
            )
        handler(self, action)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action) -> Action:
        """Apply ``action`` for the seat to move, log it and return it."""
        legal = self._legal_cache
        # The very object from the list just generated (compared by id, in C: cheaper
        # than a set of the ids built on every call).
        if legal is None or legal[0] != len(self.log) or id(action) not in map(id, legal[1]):
            self.verify(action)
        seat = self.to_move
        self.log.append((seat, action))
        handler = self._phase_appliers.get(self.phase)
        if handler is None:
            handler = self._appliers[type(action)]
        handler(self, action)
        return action

    # ------------------------------------------------------------------ turns

    def start_play(self) -> None:
        """Start the deal's first turn (an extension holding a phase before play calls
        it when that phase is over)."""
        self.phase = Phase.ROUND1 if self.play.first_round_restricted else Phase.TURNS
        self._begin_turn(self.first_seat)

    def _begin_turn(self, seat: int) -> None:
        self.to_move = seat
        self.turns_taken[seat] += 1
        self.turn = _Turn(start_rack=len(self.racks[seat]))
        if self.turn_number == 0 and not self.play.first_turn_draws:
            # §5.2, §9.5(1): the first player's first turn is a discard only.
            self.turn.acquired = "none"
        elif not self.stock and self.play.recycle_stock and not self._recycle_stock():
            # §2.4/A-05: no pile to turn over, or the recycle limit is reached.
            self.end_deal("void", None, None, None)
            return
        # Taken lazily, just before the turn's first change that `reset` must undo.
        self.snapshot = None

    def _recycle_stock(self) -> bool:
        """RULES §2.4: at the start of a turn an empty stock is replaced by the discard
        pile turned over (its oldest card on top), shuffled first if the option says so."""
        limit = self.play.recycle_limit
        if not self.column or (limit is not None and self.recycles >= limit):
            return False
        pile = self.column[:]
        self.column.clear()
        if self.play.recycle_shuffle:
            self.rng.shuffle(pile)
        # Turning the pile over puts the oldest discard on top: it is drawn first.
        self.stock = list(reversed(pile))
        self.recycles += 1
        return True

    def before_change(self) -> None:
        if self.snapshot is None:
            self.snapshot = self._take_snapshot()

    def _take_snapshot(self) -> _Snapshot:
        seat = self.to_move
        return _Snapshot(
            self.racks[seat][:],
            self.column[:],
            self.table[:],
            self.credit[:],
            set(self.locked),
            self.turn.copy(),
        )

    def in_turn(self, action: Action) -> None:
        if self.phase not in (Phase.ROUND1, Phase.TURNS):
            raise self.fail(action, "§2.3", f"no turn is being played ({self.phase})")

    def _verify_acquire(self, action: Action) -> None:
        self.in_turn(action)
        if self.turn.acquired is not None:
            if self.turn.acquired == "none":
                raise self.fail(
                    action,
                    self.play.cite("first_turn", "§2.3"),
                    "the first player's first turn is a discard",
                )
            raise self.fail(
                action, self.play.cite("acquire", "§2.3"), "you have already drawn or taken"
            )

    def _verify_draw(self, action: Draw) -> None:
        self._verify_acquire(action)
        if not self.stock:
            raise self.fail(action, "§2.4/§9.11", "the stock is empty")

    def _apply_draw(self, action: Draw) -> None:
        piece = self.stock.pop()
        self.racks[self.to_move].append(piece)
        self.turn.acquired = "draw"
        self.turn.gained = piece
        self.snapshot = None
        # A drawn tile has been seen: resetting the turn keeps it, so the snapshot
        # (if any is taken this turn) comes after the draw.

    def _verify_take(self, action: TakeColumn) -> None:
        self._verify_acquire(action)
        seat = self.to_move
        if self.phase is Phase.ROUND1:
            raise self.fail(action, "§9.5(3)", "nobody takes from the column in round 1")
        last = len(self.column) - 1
        first = 1 if self.play.first_discard_dead else 0
        if not first <= action.index <= last:
            if action.index == 0 and last >= 0:
                raise self.fail(action, "§9.5(1)", "the dead tile can never be taken")
            raise self.fail(action, "§2.3", f"the discard pile has no piece {action.index}")
        if not self.play.take_any_column_tile:
            if action.index != last:
                raise self.fail(
                    action,
                    self.play.cite("take_top", "§2.1(5)"),
                    "only the top discard may be taken",
                )
            return
        rack = len(self.racks[seat])
        if rack <= 2:
            raise self.fail(action, "§9.6(1)", "with 1 or 2 tiles you may only draw")
        if action.index == last:
            return
        if problem := self._middle_take_problem():
            raise self.fail(action, *problem)

    def _middle_take_problem(self) -> tuple[str, str] | None:
        seat = self.to_move
        rack = len(self.racks[seat])
        for ext in self._column_hooks:
            if problem := ext.column_take_problem(self, seat):
                return problem
        if rack <= 3:
            return "§9.6(1)", "with 3 tiles you may draw or take the last tile"
        if self.play.middle_take_needs_opened and not self.opened[seat]:
            return "§9.6(c)/A-50", "a middle take needs an opened player"
        minimum = self.play.middle_take_min_rack
        if rack < minimum:
            return "§9.6(c)/A-50", f"a middle take needs at least {minimum} tiles on the rack"
        return None

    def _apply_take(self, action: TakeColumn) -> None:
        self.before_change()
        seat = self.to_move
        taken = self.column[action.index :]
        del self.column[action.index :]
        self.racks[seat].extend(taken)
        self.racks[seat].sort()
        self.turn.acquired = "last" if len(taken) == 1 else "middle"
        self.turn.must_use = [taken[0]]
        self.turn.gained = taken[0]
        self.turn.dirty = True

    def verify_table_action(self, action: Action) -> None:
        self.in_turn(action)
        seat = self.to_move
        if self.turn.acquired is None:
            raise self.fail(action, self.play.cite("acquire", "§2.3"), "draw or take a piece first")
        if not self.play.table_melds:
            raise self.fail(
                action,
                self.play.cite("table", "§2.3"),
                "melds are never laid on the table during play",
            )
        if self.phase is Phase.ROUND1:
            raise self.fail(action, "§9.5(3)", "nothing is laid, attached or exchanged in round 1")
        if self.turn.acquired == "none" and not self.play.first_turn_may_meld:
            raise self.fail(action, "§5.2/A-14", "the first player only discards on his first turn")
        if problem := self._table_play_problem(seat):
            raise self.fail(action, *problem)

    def _table_play_problem(self, seat: int) -> tuple[str, str] | None:
        for ext in self._table_hooks:
            if problem := ext.table_play_problem(self, seat):
                return problem
        return None

    def pick(self, seat: int, faces: Sequence[Face], action: Action) -> list[int]:
        """Rack pieces showing ``faces``, choosing among identical copies so that the
        turn's obligations are met whenever the copies allow it.

        A freed joker is used by any placement, so it goes first.  A taken column
        tile counts only in a new formation (unless ``column_take_allow_attach``),
        so a new formation takes it first and an attachment or exchange last.
        """
        rack = self.racks[seat]
        piece_faces = self.faces
        is_meld = isinstance(action, Meld)
        layoff_counts = isinstance(action, Attach) and (
            self.play.taken_piece_may_attach
            or (self.play.take_use is TakeUse.ON_TABLE and self.opened[seat])
        )
        preferred: set[int] = set()
        avoided: set[int] = set()
        # A freed joker is used by a new formation, and by any placement where the
        # variant counts that; otherwise a lay-off takes another copy first.
        if is_meld or self.play.exchanged_joker_use == "formation":
            preferred.update(self.turn.pending_jokers)
        else:
            avoided.update(self.turn.pending_jokers)
        if is_meld or layoff_counts:
            preferred.update(self.turn.must_use)
        else:
            avoided.update(self.turn.must_use)
        if self.turn.displaced is not None:
            preferred.add(self.turn.displaced)
        if is_meld:
            preferred.update(self.turn.reclaimed)
        else:
            avoided.update(self.turn.reclaimed)
        chosen: list[int] = []
        for face in faces:
            kind = face.kind
            options = [p for p in rack if piece_faces[p].kind == kind and p not in chosen]
            if not options:
                raise self.fail(action, "§2.3", f"{face} is not on your rack")
            if len(options) > 1:
                options.sort(key=lambda p: (p not in preferred, p in avoided, p))
            chosen.append(options[0])
        return chosen

    def _keeps_discard(self, action: Action, removed: int, added: int = 0) -> None:
        left = len(self.racks[self.to_move]) - removed + added
        if left >= 1:
            return
        if not self.play.go_out_without_discard:
            raise self.fail(
                action,
                self.play.cite("keep_discard", "§2.1(9)"),
                "one piece must stay for the discard",
            )
        # Going out without a discard (§3.6): the turn's obligations must hold afterwards.
        trial = self.copy()
        trial._going_out_trial = True
        trial._appliers[type(action)](trial, action)
        if problem := trial.commit_problem(going_out=True):
            raise self.fail(action, *problem)

    def verify_meld_pieces(self, action: Meld) -> None:
        """Raise unless the seat to move holds ``action``'s pieces and they form a meld."""
        if len(action.declared) != len(action.faces):
            raise self.fail(action, "§2.2", "malformed meld")
        self.pick(self.to_move, action.faces, action)
        if not read_meld(action.faces, self.rules, action.declared):
            raise self.fail(
                action, self.play.cite("meld", "§2.2"), "these pieces do not form a run or a set"
            )

    def _verify_meld(self, action: Meld) -> None:
        self.verify_table_action(action)
        self.verify_meld_pieces(action)
        self._keeps_discard(action, len(action.faces))

    def _apply_meld(self, action: Meld) -> None:
        self.before_change()
        seat = self.to_move
        pieces = self.pick(seat, action.faces, action)
        plan = self._meld_plan(action)
        formation = Formation(
            id=len(self.table) + 1,
            owner=seat,
            kind=plan.kind,
            suit=plan.suit,
            pieces=tuple(pieces[i] for i in plan.order),
            positions=plan.positions,
            kinds=plan.kinds,
        )
        self.place(seat, pieces, new_formation=True)
        self.table.append(formation)
        self.turn.new_formations.append(formation.id)
        self.turn.laid.append(plan.laid)
        self.turn.laid_points += plan.points
        self.turn.dirty = True
        self._go_out_if_empty()

    def _meld_plan(self, action: Meld) -> _MeldPlan:
        """How ``action`` lies on the table: its best reading (RULES §2.2), worked out
        once per meld object (the legal lists hand out the same objects again)."""
        key = (id(action), id(self.rules), id(self._opening_value))
        known = _MELD_PLANS.get(key)
        if (
            known is not None
            and known[0] is action
            and known[1] is self.rules
            and known[2] is self._opening_value
        ):
            return known[3]
        readings = read_meld(action.faces, self.rules, action.declared)
        reading = best_reading(action.faces, readings, self._opening_value)
        order = tuple(sorted(range(len(action.faces)), key=lambda i: reading.positions[i]))
        plan = _MeldPlan(
            reading.kind,
            reading.suit,
            order,
            tuple(reading.positions[i] for i in order),
            tuple(action.faces[i].kind for i in order),
            (reading.kind, reading.positions[0]),
            sum(self._opening_value(reading.kind, p) for p in reading.positions),
        )
        if len(_MELD_PLANS) > 20_000:
            _MELD_PLANS.clear()
        _MELD_PLANS[key] = (action, self.rules, self._opening_value, plan)
        return plan

    def place(self, seat: int, pieces: Sequence[int], *, new_formation: bool) -> None:
        rack = self.racks[seat]
        # §8.5/A-39: where only a new meld may take a freed joker, a lay-off does not count.
        clears = new_formation or self.play.exchanged_joker_use == "formation"
        for p in pieces:
            rack.remove(p)
            if self.credit[p] < 0:
                self.credit[p] = seat
            if clears and p in self.turn.pending_jokers:
                self.turn.pending_jokers.remove(p)

    def formation(self, action: Action, target: int) -> Formation:
        if not 1 <= target <= len(self.table):
            raise self.fail(
                action, self.play.cite("attach", "§2.1(7)"), f"there is no formation m{target}"
            )
        return self.table[target - 1]

    def _attach_slot(self, formation: Formation, face: Face, declared: Face | None) -> int | None:
        if not face.is_joker:
            return self._plays(formation).slots.get(face.kind)
        rules = self.rules
        if formation.kind is MeldKind.RUN:
            # A joker: the variant's joker limits apply to the longer run too.
            wild = 1 + formation.kinds.count(JOKER_KIND)
            natural = len(formation.kinds) + 1 - wild
            if (rules.max_wild is not None and wild > rules.max_wild) or (
                rules.wild_le_natural and wild > natural
            ):
                return None
            return formation.run_slot_for(face, rules, declared)
        size = len(formation.pieces)
        if size >= rules.set_max_size or (rules.set_distinct_suits and size >= 4):
            return None
        if face.is_joker:
            if declared is not None and (
                declared.rank != formation.rank
                or (
                    rules.set_distinct_suits
                    and declared.suit_index in formation.natural_suits(self.pieces)
                )
            ):
                return None
            wild = 1 + formation.kinds.count(JOKER_KIND)
            natural = size + 1 - wild
            if (rules.max_wild is not None and wild > rules.max_wild) or (
                rules.wild_le_natural and wild > natural
            ):
                return None
            return formation.rank
        if face.rank != formation.rank:
            return None
        if rules.set_distinct_suits and face.suit_index in formation.natural_suits(self.pieces):
            return None
        return formation.rank

    def _verify_attach(self, action: Attach) -> None:
        self.verify_table_action(action)
        seat = self.to_move
        (piece,) = self.pick(seat, (action.face,), action)
        formation = self.formation(action, action.target)
        if self.turn.displaced is not None:
            self._verify_joker_move(action, formation)
            self._keeps_discard(action, 1)
            return
        freed_joker = piece in self.turn.pending_jokers
        if not (freed_joker or self._may_lay_off(seat)):
            raise self.fail(
                action,
                self.play.cite("attach_opening", "§2.1(7)"),
                "laying off needs a player opened in an earlier turn",
            )
        if action.face.is_joker and formation.owner != seat and self.play.joker_layoff_own_only:
            raise self.fail(
                action, "§9.6(2)", "a joker may be attached only to your own formations"
            )
        if action.declared is not None and not action.face.is_joker:
            raise self.fail(action, "§2.2", "only a joker is declared")
        if self._attach_slot(formation, action.face, action.declared) is None:
            index = self._shifted_joker(formation, action.face)
            if index is None:
                raise self.fail(
                    action,
                    self.play.cite("attach", "§2.1(7)"),
                    f"{action.face} does not fit {formation.notation(self.pieces)}",
                )
            lifted = formation.replacing(formation.pieces[index], piece, action.face.kind)
            if not self._joker_moves(lifted):
                raise self.fail(
                    action,
                    self.play.cite("joker_relocation", "§4.5/A-10"),
                    f"the joker that {action.face} replaces in "
                    f"{formation.notation(self.pieces)} has nowhere to go on the table",
                )
            return  # the lifted joker comes back to the rack: one piece still stays
        self._keeps_discard(action, 1)

    def _shifted_joker(self, formation: Formation, face: Face) -> int | None:
        """§4.5: the index of the joker in run ``formation`` that natural ``face`` replaces."""
        if not self.play.joker_shift or formation.kind is not MeldKind.RUN or face.is_joker:
            return None
        for i, kind in enumerate(formation.kinds):
            if kind == JOKER_KIND and formation.represented(self.pieces, i) == face:
                return i
        return None

    def _joker_moves(self, source: Formation) -> list[Attach]:
        """§4.5/A-10: where a joker lifted from ``source`` may go: a free end of the same
        run, or else (a complete run) any other formation it fits."""
        joker = self.kind_faces[JOKER_KIND]
        moves = list(self._joker_attaches(source, joker))
        if moves or not self.play.joker_relocation:
            return moves
        for formation in self.table:
            if formation.id != source.id:
                moves.extend(self._joker_attaches(formation, joker))
        return moves

    def _verify_joker_move(self, action: Attach, formation: Formation) -> None:
        source = self.table[self.turn.displaced_from - 1]
        targets = {a.target for a in self._joker_moves(source)}
        if not action.face.is_joker:
            raise self.fail(
                action,
                self.play.cite("joker_shift", "§4.5"),
                f"first attach the joker lifted from m{source.id}",
            )
        if formation.id not in targets:
            where = "a free end of that run" if source.id in targets else "another formation"
            raise self.fail(
                action,
                self.play.cite("joker_shift", "§4.5"),
                f"the joker lifted from m{source.id} goes to {where}",
            )
        if self._attach_slot(formation, action.face, action.declared) is None:
            raise self.fail(
                action,
                self.play.cite("joker_shift", "§4.5"),
                f"the joker does not fit {formation.notation(self.pieces)} there",
            )

    def _may_lay_off(self, seat: int) -> bool:
        play = self.play
        return (
            self.opened[seat]
            or play.layoff_before_opening
            or (play.layoff_on_opening_turn and bool(self.turn.new_formations))
            # §5.6: a player making a Hand may lay off before opening; the commit
            # check requires that he then goes out this turn.
            or (play.hand_waives_opening and not self.has_laid[seat])
        )

    def _apply_attach(self, action: Attach) -> None:
        self.before_change()
        seat = self.to_move
        (piece,) = self.pick(seat, (action.face,), action)
        formation = self.table[action.target - 1]
        slot = self._attach_slot(formation, action.face, action.declared)
        self.turn.attached = True
        self.turn.dirty = True
        if slot is None:
            # §4.5: the card takes the joker's place; the joker is lifted, to be
            # attached again by the next action.
            index = self._shifted_joker(formation, action.face)
            assert index is not None
            joker = formation.pieces[index]
            self.table[action.target - 1] = formation.replacing(joker, piece, action.face.kind)
            self.place(seat, [piece], new_formation=False)
            self.racks[seat].append(joker)
            self.racks[seat].sort()
            self.turn.displaced = joker
            self.turn.displaced_from = formation.id
            return
        self.table[action.target - 1] = formation.with_piece(piece, action.face.kind, slot)
        self.place(seat, [piece], new_formation=False)
        self.turn.displaced = None
        if piece in self.turn.must_use and self.play.taken_piece_may_attach:
            self.turn.new_formations.append(formation.id)
        self._go_out_if_empty()

    def _exchange_plan(self, action: ExchangeJoker) -> tuple[Formation, list[int], list[int]]:
        """(formation, jokers freed, positions filled) or raise."""
        formation = self.formation(action, action.target)
        faces = action.faces
        jokers = [p for p in formation.pieces if self.faces[p].is_joker]
        if not jokers:
            raise self.fail(
                action, self.play.cite("exchange", "§2.1(8)"), f"m{action.target} holds no joker"
            )
        if formation.kind is MeldKind.RUN:
            if len(faces) != 1:
                raise self.fail(
                    action,
                    self.play.cite("exchange", "§2.1(8)"),
                    "a joker in a run is freed by one piece",
                )
            for i, p in enumerate(formation.pieces):
                if p in jokers and formation.represented(self.pieces, i) == faces[0]:
                    if p in self.locked:
                        raise self.fail(
                            action,
                            self.play.cite("exchange", "§2.1(8)"),
                            "that joker was exchanged once already",
                        )
                    return formation, [p], [formation.positions[i]]
            raise self.fail(
                action,
                self.play.cite("exchange", "§2.1(8)"),
                f"no joker in m{action.target} stands for {faces[0]}",
            )
        present = formation.natural_suits(self.pieces)
        suits = [f.suit_index for f in faces]
        if (
            any(f.is_joker or f.rank != formation.rank for f in faces)
            or len(set(suits)) != len(suits)
            or present & set(suits)
        ):
            raise self.fail(
                action,
                self.play.cite("exchange", "§2.1(8)"),
                f"those pieces are not missing from m{action.target}",
            )
        if not self.play.exchange_set_needs_all_suits:
            # §8.5: one missing suit replaces one joker.
            free = [p for p in jokers if p not in self.locked]
            if len(faces) != 1 or not free:
                raise self.fail(
                    action,
                    self.play.cite("exchange", "§2.1(8)"),
                    "one piece of a missing suit frees one joker",
                )
            return formation, free[:1], [formation.rank]
        if len(present) + len(suits) != 4 or self.rules.set_max_size < 4:
            # With sets capped below four (§10.11 set_max_size) no set joker is freed.
            raise self.fail(
                action,
                self.play.cite("exchange_set", "§2.1(8)"),
                "a joker in a set is freed only when all four suits/colours lie there",
            )
        if any(p in self.locked for p in jokers):
            raise self.fail(
                action,
                self.play.cite("exchange", "§2.1(8)"),
                "that joker was exchanged once already",
            )
        return formation, jokers, [formation.rank] * len(faces)

    def _verify_exchange(self, action: ExchangeJoker) -> None:
        self.verify_table_action(action)
        seat = self.to_move
        if not self.play.joker_exchange:
            raise self.fail(
                action,
                self.play.cite("exchange", "§2.1(8)"),
                "jokers on the table are never exchanged here",
            )
        if not self.opened[seat] and self.play.exchange_needs_opened_before:
            raise self.fail(
                action,
                self.play.cite("exchange_opened", "§2.1(8)"),
                "exchanging needs an opened player",
            )
        self.pick(seat, action.faces, action)
        _, jokers, _ = self._exchange_plan(action)
        if len(action.faces) != len(jokers) and self._exchange_one_for_one(seat):
            raise self.fail(
                action,
                self.play.cite("exchange_opened", "§2.1(8)"),
                "before your opening formations, an exchange gives one piece per joker",
            )
        self._keeps_discard(action, len(action.faces), len(jokers))

    def _exchange_one_for_one(self, seat: int) -> bool:
        """§10.3/A-70: an unopened player's rack keeps its size, so an exchange that
        gives two pieces for one joker waits for his opening formations."""
        return (
            self.play.unopened_exchange_one_for_one
            and not self.opened[seat]
            and not self.turn.new_formations
        )

    def _apply_exchange(self, action: ExchangeJoker) -> None:
        self.before_change()
        seat = self.to_move
        pieces = self.pick(seat, action.faces, action)
        formation, jokers, _positions = self._exchange_plan(action)
        if formation.kind is MeldKind.RUN:
            updated = formation.replacing(jokers[0], pieces[0], action.faces[0].kind)
        else:
            keep = [p for p in formation.pieces if p not in jokers]
            pieces_after = (*keep, *pieces)
            updated = Formation(
                formation.id,
                formation.owner,
                formation.kind,
                formation.suit,
                pieces_after,
                (formation.rank,) * len(pieces_after),
                tuple(self.faces[p].kind for p in pieces_after),
            )
        self.table[formation.id - 1] = updated
        self.place(seat, pieces, new_formation=False)
        for j in jokers:
            # the joker keeps its original credit; RULES §9.10: it is locked.
            if self.play.exchanged_joker_locked:
                self.locked.add(j)
            self.racks[seat].append(j)
            if self.play.exchanged_joker_use != "none":
                self.turn.pending_jokers.append(j)
        self.racks[seat].sort()
        self.turn.exchanged = True
        self.turn.dirty = True

    def _verify_reset(self, action: ResetTurn) -> None:
        self.in_turn(action)
        if not self.turn.dirty:
            raise self.fail(action, "§2.3", "nothing to reset this turn")

    def _apply_reset(self, action: ResetTurn) -> None:
        snap = self.snapshot
        assert snap is not None
        self.racks[self.to_move] = snap.rack[:]
        self.column = snap.column[:]
        self.table = snap.table[:]
        self.credit = snap.credit[:]
        self.locked = set(snap.locked)
        self.turn = snap.turn.copy()
        self.snapshot = None

    # ------------------------------------------------------------------ commit

    def commit_problem(self, going_out: bool = False) -> tuple[str, str] | None:
        """Why the turn cannot be committed now (rule, reason), or None.

        ``going_out``: the commit leaves the rack empty (a discard of the last piece,
        or the last meld or lay-off where no discard is needed).
        """
        seat = self.to_move
        turn = self.turn
        play = self.play
        if turn.acquired is None:
            return self.play.cite("acquire", "§2.3"), "draw or take a piece first"
        if turn.displaced is not None:
            return self.play.cite("joker_shift", "§4.5"), "attach the lifted joker first"
        # §5.6: a "Hand" (everything in one turn) is free of the opening rule and of
        # the duty to meld a taken discard.
        hand = going_out and not self.has_laid[seat] and play.hand_waives_opening
        if turn.must_use and not hand and (problem := self._take_problem()):
            return problem
        if turn.pending_jokers:
            return self.play.cite("exchange_use", "§2.1(8)"), (
                "the exchanged joker must be used in a formation this turn"
            )
        if turn.reclaimed:
            on_new = {p for fid in turn.new_formations for p in self.table[fid - 1].pieces}
            if not set(turn.reclaimed) <= on_new:
                return "A-75", "a reclaimed tile must be laid in a new formation this turn"
        if not self.opened[seat] and not hand:
            if turn.new_formations and (problem := self._opening_problem()):
                return problem
            if turn.attached and not (
                play.layoff_before_opening or (play.layoff_on_opening_turn and turn.new_formations)
            ):
                return self.play.cite("layoff_unopened", "§2.1(7)"), (
                    "laying off before opening is allowed only in a Hand"
                )
            if turn.exchanged and not turn.new_formations and play.exchange_needs_opened_by_end:
                return (
                    "§9.10/A-55",
                    "a joker exchange needs you to be opened by the end of the turn",
                )
        return None

    def _take_problem(self) -> tuple[str, str] | None:
        seat = self.to_move
        turn = self.turn
        use = self.play.take_use
        if use is TakeUse.NONE:
            return None
        opened_before = self.opened[seat]
        if use is TakeUse.NEW_FORMATION_IF_UNOPENED and opened_before:
            return None
        on_new = {p for fid in turn.new_formations for p in self.table[fid - 1].pieces}
        for p in turn.must_use:
            if p in on_new or any(e.take_use_waived(self, seat) for e in self._take_use_hooks):
                continue
            if use is TakeUse.ON_TABLE and opened_before and self.credit[p] >= 0:
                continue
            where = "on the table" if use is TakeUse.ON_TABLE else "in a new formation"
            return (
                self.play.cite("take_use", "§2.3"),
                f"the taken piece {self.faces[p]} must be used {where} this turn"
                + "".join(e.take_use_alternative(self) for e in self.extensions),
            )
        return None

    def _opening_problem(self) -> tuple[str, str] | None:
        turn = self.turn
        minimum = self.play.opening_min_points
        if turn.laid_points < minimum:
            return self.play.cite("opening", "§2.3"), (
                f"an opening needs {minimum} points, these make {turn.laid_points}"
            )
        structure = self.play.opening_structure
        has_run = any(k is MeldKind.RUN for k, _ in turn.laid)
        has_set = any(k is MeldKind.SET for k, _ in turn.laid)
        if (
            structure is OpeningStructure.RUN_OR_ONES_SET
            and not has_run
            and not (len(turn.laid) == 1 and turn.laid[0] == (MeldKind.SET, 1))
        ):
            return (
                "§9.8/A-46",
                "an opening needs a run, or else a single set of 1s and nothing more",
            )
        if structure is OpeningStructure.RUN_AND_SET and not (has_run and has_set):
            return "§9.8/§10.5/A-45", "an opening needs a run and a set"
        if structure is OpeningStructure.RUN and not has_run:
            return "§5.5", "an opening needs a run"
        return None

    def _verify_discard(self, action: Discard) -> None:
        self.in_turn(action)
        seat = self.to_move
        (piece,) = self.pick_discard(seat, action.face, action)
        remaining = len(self.racks[seat]) - 1
        if problem := self.commit_problem(going_out=remaining == 0):
            raise self.fail(action, *problem)
        if (
            not self.play.discard_taken_allowed
            and self.turn.acquired == "last"
            and piece in self.turn.must_use
        ):
            raise self.fail(
                action,
                "§2.5/A-03",
                "the piece taken from the discard pile cannot be discarded in the same turn",
            )
        if remaining > self._rack_max:
            raise self.fail(
                action,
                "§9.6/A-50",
                f"at most {self._rack_max} tiles may stay on the rack after the turn",
            )

    def pick_discard(self, seat: int, face: Face, action: Action) -> list[int]:
        # Discard a piece without obligations when there is a choice.
        kind = face.kind
        faces = self.faces
        options = [p for p in self.racks[seat] if faces[p].kind == kind]
        if not options:
            raise self.fail(action, "§2.3", f"{face} is not on your rack")
        turn = self.turn
        if len(options) == 1:
            return options
        if not (turn.must_use or turn.pending_jokers or turn.reclaimed):
            return [min(options)]
        obligated = (
            set(self.turn.must_use) | set(self.turn.pending_jokers) | set(self.turn.reclaimed)
        )
        options.sort(key=lambda p: (p in obligated, p))
        return [options[0]]

    def _apply_discard(self, action: Discard) -> None:
        seat = self.to_move
        (piece,) = self.pick_discard(seat, action.face, action)
        self.racks[seat].remove(piece)
        self.column.append(piece)
        rack = len(self.racks[seat])
        hand = rack == 0 and not self.has_laid[seat]
        self.commit_turn(seat)
        if rack == 0:
            self.end_deal("close", seat, action.face, None, hand=hand)
            return
        for ext in self._discard_hooks:
            ext.discarded(self, seat)
        self._end_turn()

    def commit_turn(self, seat: int) -> None:
        """Record what the committed turn did: an opening, and that the seat has laid."""
        turn = self.turn
        if turn.new_formations and not self.opened[seat]:
            self.opened[seat] = True
        if turn.new_formations or turn.attached or turn.exchanged:
            self.has_laid[seat] = True

    def _go_out_if_empty(self) -> None:
        """§3.6: melding or laying off the last piece ends the deal (no discard needed)."""
        seat = self.to_move
        if self.racks[seat] or self._going_out_trial:
            return
        hand = not self.has_laid[seat]
        self.commit_turn(seat)
        self.end_deal("out", seat, None, None, hand=hand)

    def lay_out(self, seat: int, action: Meld) -> None:
        """Lay ``action``'s pieces from ``seat``'s hand face up as a formation."""
        pieces = self.pick(seat, action.faces, action)
        readings = read_meld(action.faces, self.rules, action.declared)
        reading = best_reading(action.faces, readings, self.variant.opening_value)
        order = sorted(range(len(pieces)), key=lambda i: reading.positions[i])
        self.table.append(
            Formation(
                id=len(self.table) + 1,
                owner=seat,
                kind=reading.kind,
                suit=reading.suit,
                pieces=tuple(pieces[i] for i in order),
                positions=tuple(reading.positions[i] for i in order),
                kinds=tuple(action.faces[i].kind for i in order),
            )
        )
        for p in pieces:
            self.racks[seat].remove(p)
            self.credit[p] = seat

    def rack_melds(self, seat: int) -> tuple[Meld, ...]:
        """Every meld ``seat``'s rack can lay, shortest first (a variant's own phases list
        them; a turn's melds are listed with what the table allows)."""
        counts = counts_of([self.faces[p].kind for p in self.racks[seat]])
        melds = self._melds_by_rack.get(counts)
        if melds is None:
            melds = self._melds_by_rack[counts] = _meld_actions(
                counts, self.rules, self.pieces.material, self._meld_parts
            )
        return melds[1]

    def _end_turn(self) -> None:
        if not self.stock and not self.play.recycle_stock:
            # the deal ends after the turn in which the last stock tile was drawn.
            self.end_deal("exhaustion", None, None, None)
            return
        self.turn_number += 1
        if self.phase is Phase.ROUND1 and self.turn_number >= self.players:
            self.phase = Phase.TURNS
        self._begin_turn((self.to_move + 1) % self.players)

    # ------------------------------------------------------------------ deal end

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
    ) -> None:
        n = self.players
        balances = self.totals[:]
        table_values = [0] * n
        for formation in self.table:
            for p in formation.pieces:
                table_values[self.credit[p]] += self._score_value(self.faces[p])
        shown: list[ShownHand] = []
        arrange = self.variant.arrange_hand
        rack_values = [sum(self._score_value(self.faces[p]) for p in rack) for rack in self.racks]
        laid_out = None
        if end != "void":
            for ext in self._shown_hooks:
                if laid_out is None:
                    laid_out = ext.shown_hands(self, rack_values)
        if laid_out is not None:
            shown = laid_out
        elif arrange is not None and end != "void":
            # RULES §6.6: every hand is laid out in its least-deadwood arrangement.
            shown = [arrange(self.rack_faces(s), self.options) for s in range(n)]
            rack_values = [hand_shown.points for hand_shown in shown]
        outcomes = [
            SeatOutcome(
                **self._outcome_fields(s),
                rack=tuple(self.faces[p] for p in self.racks[s]),
                hand=hand and s == closer,
                opened=self.opened[s],
                closed=(s == closer),
                table_value=table_values[s],
                rack_value=rack_values[s],
                contract=contract if s == closer else None,
                laid=tuple(
                    self.faces[p] for f in self.table for p in f.pieces if self.credit[p] == s
                ),
                first_turn=s == closer and self.turns_taken[s] == 1,
                before_draw=s == closer and before_draw,
                balance=balances[s],
            )
            for s in range(n)
        ]
        if end == "void":
            # §2.4/A-05: a deal that cannot go on has no winner and no score.
            scores: tuple[int, ...] = (0,) * n
        else:
            scores = self.variant.score_deal(outcomes, self.double_game, face, self.options)
        for s in range(n):
            self.totals[s] += scores[s]
        self.results.append(
            DealResult(
                deal=self.deal_number + 1,
                maker=self.maker,
                end=end,
                closer=closer,
                closing_face=None if face is None or face_down else str(face),
                contract=None if contract is None else contract.name,
                double_game=self.double_game,
                scores=tuple(scores),
                totals=tuple(self.totals),
                opened=tuple(self.opened),
                table_values=tuple(table_values),
                rack_values=tuple(rack_values),
                hand=hand,
                showdown=tuple(h.notation for h in shown),
                three_penalty=tuple(o.three_violation for o in outcomes),
            )
        )
        self.turn = _Turn()
        self.snapshot = None
        done = self.variant.match_over(self.totals, len(self.results), self.options)
        self.phase = Phase.MATCH_END if done else Phase.DEAL_END
        self.to_move = self._next_maker()

    def _outcome_fields(self, seat: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for ext in self.extensions:
            out.update(ext.outcome_fields(self, seat))
        return out

    def hidden_discard(self) -> tuple[int | None, int]:
        """(piece, seat): a discard lying face down (e.g. a closing card, RULES §6.6) and
        the one seat that saw it, or (None, -1)."""
        for ext in self.extensions:
            piece, seat = ext.hidden_discard(self)
            if piece is not None:
                return piece, seat
        return None, -1

    def view_fields(self, seat: int) -> dict[str, Any]:
        """The fields of ``seat``'s view that the variant's extensions fill."""
        out: dict[str, Any] = {}
        for ext in self.extensions:
            out.update(ext.view_fields(self, seat))
        return out

    def _next_maker(self) -> int:
        if self.play.winner_deals and self.results and self.results[-1].closer is not None:
            # the winner of the deal deals the next one.
            return self.results[-1].closer
        # §0.4: the right neighbour is the next seat in play order when play runs
        # counter-clockwise.  §9.1/A-65: the maker role passes to the right; §10.1: left.
        step = -1 if self.play.clockwise else 1
        if not self.play.maker_passes_right:
            step = -step
        return (self.maker + step) % self.players

    def _verify_next(self, action: NextDeal) -> None:
        if self.phase is not Phase.DEAL_END:
            raise self.fail(
                action,
                self.play.cite("deal_end", "§2.3"),
                "the next deal starts only after a deal ends",
            )

    def _apply_next(self, action: NextDeal) -> None:
        self.maker = self._next_maker()
        self.deal_number += 1
        self._start_deal()

    # ------------------------------------------------------------------ enumeration

    def legal_actions(self) -> list[Action]:
        """Every legal action for the seat to move, in a stable order."""
        if self.phase is Phase.MATCH_END:
            return []
        if self.phase is Phase.DEAL_END:
            return [NextDeal()]
        owner = self._phase_owners.get(self.phase)
        if owner is None:
            actions = self._turn_actions()
        else:
            listed = owner.legal(self)
            actions = (
                [a for a in owner.candidates(self) if self.can(a)] if listed is None else listed
            )
        # Legal actions are exactly those that verify, so applying one of them right
        # away (nothing logged in between) need not verify again.
        self._legal_cache = (len(self.log), actions)
        return actions

    def _turn_actions(self) -> list[Action]:
        seat = self.to_move
        rack = self.racks[seat]
        turn = self.turn
        play = self.play
        faces = self.faces
        out: list[Action] = []
        if turn.displaced is not None:
            # §4.5: the lifted joker goes back on the table before anything else.
            out.extend(self._joker_moves(self.table[turn.displaced_from - 1]))
            out.append(_RESET)
            return out
        if turn.acquired is None:
            if self.stock:
                out.append(_DRAW)
            last = len(self.column) - 1
            if self.phase is Phase.TURNS and last >= 0:
                if play.take_any_column_tile:
                    if len(rack) >= 3 and last >= 1:
                        takes = _takes(last)
                        if self._middle_take_problem() is None:
                            out.extend(takes[1:last])
                        out.append(takes[last])
                elif last >= (1 if play.first_discard_dead else 0):
                    out.append(_takes(last)[last])
        elif (
            self.phase is Phase.TURNS
            and play.table_melds
            and self._table_play_problem(seat) is None
            and (turn.acquired != "none" or play.first_turn_may_meld)
        ):
            self._table_actions(seat, rack, out)
        for ext in self._early_hooks:
            ext.actions_before_discards(self, seat, out)
        if turn.acquired is not None:
            kinds = sorted({faces[p].kind for p in rack})
            if (
                self.commit_problem(going_out=len(rack) == 1) is None
                and len(rack) - 1 <= self._rack_max
            ):
                discards = self._discards
                if not play.discard_taken_allowed and turn.acquired == "last":
                    # §2.5: the taken piece stays, unless an identical copy can go.
                    taken = set(turn.must_use)
                    stuck = {
                        k
                        for k in {faces[p].kind for p in taken}
                        if all(p in taken for p in rack if faces[p].kind == k)
                    }
                    if stuck:
                        kinds = [k for k in kinds if k not in stuck]
                out.extend(map(discards.__getitem__, kinds))
                for ext in self._closing_hooks:
                    ext.closing_discards(self, seat, kinds, out)
            for ext in self._late_hooks:
                ext.actions_after_discards(self, seat, out)
        if turn.dirty:
            out.append(_RESET)
        return out

    def _table_actions(self, seat: int, rack: list[int], out: list[Action]) -> None:
        faces = self.faces
        play = self.play
        size = len(rack)
        kinds_held = [faces[p].kind for p in rack]
        counts = counts_of(kinds_held)
        cached = self._melds_by_rack.get(counts)
        if cached is None:
            if len(self._melds_by_rack) > 20_000:
                self._melds_by_rack.clear()
            cached = _meld_actions(counts, self.rules, self.pieces.material, self._meld_parts)
            self._melds_by_rack[counts] = cached
        sizes, melds = cached
        # One piece must stay for the discard, unless going out without one is allowed
        # (then a meld of the whole rack must pass the turn's checks).
        keep = bisect_right(sizes, size - 1)
        out.extend(melds[:keep])
        if play.go_out_without_discard:
            out.extend(m for m in melds[keep : bisect_right(sizes, size)] if self.can(m))
        table = self.table
        if not table:
            return
        can_attach = self._may_lay_off(seat)
        minimum = 1 if play.go_out_without_discard else 2
        plays = [self._plays(formation) for formation in table]
        if size >= minimum and (can_attach or self.turn.pending_jokers):
            holds_joker = counts[JOKER_KIND] > 0
            shift = play.joker_shift
            own_only = play.joker_layoff_own_only
            found: list[Action] = []
            for formation_plays in plays:
                if can_attach:
                    found.extend([a for kind, a in formation_plays.attaches if counts[kind]])
                    if shift and formation_plays.shifts:
                        found.extend(self._shift_attaches(formation_plays, plays, counts))
                if holds_joker and (formation_plays.formation.owner == seat or not own_only):
                    found.extend(formation_plays.joker_attaches)
            if size == 1:
                found = [a for a in found if self.can(a)]
            out.extend(found)
        if play.joker_exchange and (self.opened[seat] or not play.exchange_needs_opened_before):
            out.extend(
                a for a in self._exchanges(seat, counts, size, plays) if size > 1 or self.can(a)
            )
        for ext in self._table_action_hooks:
            ext.table_actions(self, seat, out)

    def _shift_attaches(
        self,
        formation_plays: _FormationPlays,
        plays: list[_FormationPlays],
        counts: tuple[int, ...],
    ) -> Iterator[Attach]:
        """§4.5: lay-offs of a held natural onto the joker of a run that stands for it
        (where the lifted joker would have somewhere to go: see :meth:`_joker_moves`)."""
        relocation = self.play.joker_relocation
        for kind, action, stays_on_run in formation_plays.shifts:
            if not counts[kind]:
                continue
            if stays_on_run or (
                relocation
                and any(p.joker_attaches for p in plays if p.formation.id != action.target)
            ):
                yield action

    def _plays(self, formation: Formation) -> _FormationPlays:
        """What the seat to move may play on ``formation``, before looking at its rack
        (a formation is immutable: kept until the table's formation of its id changes)."""
        known = self._plays_by_formation.get(formation.id)
        if known is not None and known[0] is formation:
            return known[1]
        shared = self._shared_plays
        plays = shared.get(formation)
        if plays is None:
            if len(shared) > 10_000:
                shared.clear()
            plays = shared[formation] = self._formation_plays(formation)
        self._plays_by_formation[formation.id] = (formation, plays)
        return plays

    def _formation_plays(self, formation: Formation) -> _FormationPlays:
        kind_faces = self.kind_faces
        joker = kind_faces[JOKER_KIND]
        slots = _natural_slots(formation, self.rules)
        attaches = tuple((kind, _attach(kind_faces[kind], formation.id)) for kind in sorted(slots))
        joker_attaches = tuple(self._joker_attaches(formation, joker))
        shifts: list[tuple[int, Attach, bool]] = []
        run_exchanges: list[tuple[int, int, ExchangeJoker]] = []
        jokers = [i for i, k in enumerate(formation.kinds) if k == JOKER_KIND]
        missing: tuple[Face, ...] = ()
        all_exchange = None
        if formation.kind is MeldKind.RUN:
            for i in jokers:
                stands_for = formation.represented(self.pieces, i)
                assert stands_for is not None
                kind = stands_for.kind
                # What the lifted joker could do depends on the run without it, not
                # on which copy of the natural replaces it.
                lifted = formation.replacing(formation.pieces[i], formation.pieces[i], kind)
                stays_on_run = any(self._joker_attaches(lifted, joker))
                shifts.append((kind, Attach(kind_faces[kind], formation.id), stays_on_run))
                action = ExchangeJoker((stands_for,), formation.id)
                run_exchanges.append((formation.pieces[i], kind, action))
        elif jokers:
            material = self.pieces.material
            present = formation.natural_suits(self.pieces)
            missing = tuple(
                Face.of(material, s, formation.rank) for s in range(4) if s not in present
            )
            all_exchange = ExchangeJoker(missing, formation.id)
        return _FormationPlays(
            formation,
            slots,
            attaches,
            joker_attaches,
            tuple(shifts),
            tuple(run_exchanges),
            tuple(formation.pieces[i] for i in jokers),
            missing,
            tuple((f.kind, ExchangeJoker((f,), formation.id)) for f in missing),
            all_exchange,
        )

    def _joker_attaches(self, formation: Formation, joker: Face) -> Iterator[Attach]:
        material = self.pieces.material
        if formation.kind is MeldKind.SET:
            if self._attach_slot(formation, joker, None) is not None:
                yield Attach(joker, formation.id)
            return
        # The joker limits of _attach_slot, checked once for both ends.
        rules = self.rules
        wild = 1 + formation.kinds.count(JOKER_KIND)
        if (rules.max_wild is not None and wild > rules.max_wild) or (
            rules.wild_le_natural and wild > len(formation.kinds) + 1 - wild
        ):
            return
        seen = set()
        for p in (formation.positions[-1] + 1, formation.positions[0] - 1):
            if not 1 <= p <= 14:
                continue
            declared = Face.of(material, formation.suit, 1 if p == 14 else p)
            if declared.kind not in seen and formation.run_slot_for(joker, rules, declared) == p:
                seen.add(declared.kind)
                yield Attach(joker, formation.id, declared)

    def _exchanges(
        self,
        seat: int,
        counts: tuple[int, ...],
        size: int,
        table_plays: list[_FormationPlays],
    ) -> Iterator[Action]:
        locked = self.locked
        needs_all_suits = self.play.exchange_set_needs_all_suits
        for plays in table_plays:
            if not plays.jokers:
                continue
            if plays.formation.kind is MeldKind.RUN:
                for piece, kind, action in plays.run_exchanges:
                    if piece not in locked and counts[kind] and size >= 1:
                        yield action
                continue
            if needs_all_suits and (
                self.rules.set_max_size < 4 or any(p in locked for p in plays.jokers)
            ):
                continue
            if not needs_all_suits:
                yield from (a for kind, a in plays.one_exchanges if counts[kind])
                continue
            missing = plays.missing
            if len(missing) != len(plays.jokers) and self._exchange_one_for_one(seat):
                continue
            if (
                all(counts[f.kind] for f in missing)
                and size - len(missing) + len(plays.jokers) >= 1
            ):
                assert plays.all_exchange is not None  # a set holding a joker
                yield plays.all_exchange

    # ------------------------------------------------------------------ copies

    def copy(self) -> Game:
        """An independent copy for search (its random source too: see :attr:`rng`)."""
        new = object.__new__(Game)
        new.__dict__.update(self.__dict__)
        # Both now share one generator, which neither draws from until it has its own
        # (:attr:`rng`): copying a Mersenne Twister's state cost three quarters of a copy.
        self._rng_shared = new._rng_shared = True
        new.racks = [r[:] for r in self.racks]
        new.stock = self.stock[:]
        new.column = self.column[:]
        new.table = self.table[:]
        new.credit = self.credit[:]
        new.locked = set(self.locked)
        new.totals = self.totals[:]
        new.results = self.results[:]
        new.log = self.log[:]
        new.log_text = self.log_text[:]
        new.walls_used = self.walls_used[:]
        for name in (
            "opened",
            "turns_taken",
            "has_laid",
        ):
            setattr(new, name, getattr(self, name)[:])
        # Extensions' states are shared until either game changes one (writable_state).
        self._ext_shared = new._ext_shared = True
        new.turn = self.turn.copy()
        new._legal_cache = None
        new._plays_by_formation = {}
        return new

    @property
    def rng(self) -> random.Random:
        """The game's random source (the maker draw, each deal's wall, reshuffles).  A
        copy shares its original's generator until one of them draws: the drawer first
        takes a generator of its own in the same state (copy-on-write), so both draw
        the same numbers as they would from separate copies."""
        if self._rng_shared:
            own = random.Random()
            own.setstate(self._rng.getstate())
            self._rng = own
            self._rng_shared = False
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_shared = False

    def __getstate__(self) -> dict[str, Any]:
        # Pickle and deepcopy leave the caches out: the legal-action cache holds object
        # ids, and the meld cache is shared by every game of the variant in a process.
        state = self.__dict__.copy()
        del state["_melds_by_rack"]
        del state["_meld_parts"]
        del state["_shared_plays"]
        state["_legal_cache"] = None
        state["_plays_by_formation"] = {}
        for name in _DISPATCH_FIELDS:
            del state[name]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._melds_by_rack = _MELDS_BY_RACK.setdefault((self.variant.name, self.rules), {})
        self._meld_parts = _MELD_PARTS.setdefault((self.variant.name, self.rules), {})
        self._shared_plays = _SHARED_PLAYS.setdefault((self.variant.name, self.rules), {})
        self._set_dispatch()

    _VERIFY: Mapping[type, Any] = {
        Draw: _verify_draw,
        TakeColumn: _verify_take,
        Meld: _verify_meld,
        Attach: _verify_attach,
        ExchangeJoker: _verify_exchange,
        ResetTurn: _verify_reset,
        Discard: _verify_discard,
        NextDeal: _verify_next,
    }
    _APPLY: Mapping[type, Any] = {
        Draw: _apply_draw,
        TakeColumn: _apply_take,
        Meld: _apply_meld,
        Attach: _apply_attach,
        ExchangeJoker: _apply_exchange,
        ResetTurn: _apply_reset,
        Discard: _apply_discard,
        NextDeal: _apply_next,
    }
