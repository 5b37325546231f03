"""The game state machine: a match of deals under one variant.

Every action goes through :meth:`Game.verify` (raises with the rule),
:meth:`Game.can` (a bool) and :meth:`Game.apply` (does it and logs it); an
illegal action leaves the game unchanged.  :meth:`Game.legal_actions` lists
exactly the actions that verify, and depends only on what the seat to move may
know.  Hidden information leaves only through :func:`rummykit.engine.view.view`
and :func:`rummykit.engine.view.seat_legal_actions`.

``Game`` keeps the state, the set-up, the dispatch, the turn's lifecycle (draw, take,
discard) and copies; its other parts are mixins: the turn's obligations
(:mod:`~rummykit.engine.turn`), the table plays (:mod:`~rummykit.engine.table_play`),
the legal lists (:mod:`~rummykit.engine.legal`) and the deal's end
(:mod:`~rummykit.engine.deal_end`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rummykit.engine.actions import (
    Action,
    Attach,
    Discard,
    Draw,
    ExchangeJoker,
    Meld,
    NextDeal,
    ResetTurn,
    TakeColumn,
)
from rummykit.engine.core import HistoryMemo, Phase, copy_plan
from rummykit.engine.deal_end import DealEnd, DealResult
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.extension import (
    Extension,
    ExtensionState,
    Handler,
    make_extensions,
    phase_owners,
)
from rummykit.engine.legal import (
    _MELD_PARTS,
    _MELDS_BY_RACK,
    _SHARED_PLAYS,
    Enumeration,
    _FormationPlays,
)
from rummykit.engine.table import Formation
from rummykit.engine.table_play import TablePlay
from rummykit.engine.turn import Snapshot, Turn, TurnChecks, _compiled, take_snapshot
from rummykit.model.pieces import JOKER_KIND, Face
from rummykit.rules.options import VariantOptions, fingerprint
from rummykit.rules.variant import DealLayout, Variant, find_variant

__all__ = ["DealResult", "Game", "HistoryMemo", "Phase"]


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
    "_action_hooks",
    "_turn_list_hooks",
    "_commit_hooks",
    "_obliged_hooks",
    "_formation_piece_hooks",
    "_misfit_hooks",
    "_attached_hooks",
    "_formation_attach_hooks",
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


class Game(TurnChecks, TablePlay, Enumeration, DealEnd):
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
        self.play = self.variant.play_rules(self.options)
        self._shared_plays = _SHARED_PLAYS.setdefault(
            (self.variant.name, self.rules, self.play.extensions), {}
        )
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
        self.turn = Turn()
        self.snapshot: Snapshot | None = None
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
        self._action_hooks = _overriding(self.extensions, "verify_turn_action")
        self._turn_list_hooks = _overriding(self.extensions, "turn_actions")
        self._commit_hooks = _overriding(self.extensions, "turn_commit_problem")
        self._obliged_hooks = _overriding(self.extensions, "obliged_pieces")
        self._formation_piece_hooks = _overriding(self.extensions, "formation_pieces")
        self._misfit_hooks = _overriding(self.extensions, "verify_misfit_attach")
        self._attached_hooks = _overriding(self.extensions, "attached")
        self._formation_attach_hooks = _overriding(self.extensions, "formation_data")

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
        if self.turn.extensions:
            for ext in self._action_hooks:
                ext.verify_turn_action(self, action)
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
        self.turn = Turn(start_rack=len(self.racks[seat]))
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

    def _take_snapshot(self) -> Snapshot:
        return take_snapshot(self)

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
        if rack <= (draw_only := self.play.draw_only_rack):
            sizes = {1: "1", 2: "1 or 2"}.get(draw_only, f"1 to {draw_only}")
            raise self.fail(
                action,
                self.play.cite("draw_only", "§9.6(1)"),
                f"with {sizes} tiles you may only draw",
            )
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
        last_only = self.play.last_take_only_rack
        if rack <= last_only:
            return (
                self.play.cite("last_take_only", "§9.6(1)"),
                f"with {last_only} tiles you may draw or take the last tile",
            )
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

    def _end_turn(self) -> None:
        if not self.stock and not self.play.recycle_stock:
            # the deal ends after the turn in which the last stock tile was drawn.
            self.end_deal("exhaustion", None, None, None)
            return
        self.turn_number += 1
        if self.phase is Phase.ROUND1 and self.turn_number >= self.players:
            self.phase = Phase.TURNS
        self._begin_turn((self.to_move + 1) % self.players)

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

    # ------------------------------------------------------------------ copies

    def copy(self) -> Game:
        """An independent copy for search (its random source too: see :attr:`rng`)."""
        new = object.__new__(Game)
        new.__dict__.update(self.__dict__)
        # Both now share one generator, which neither draws from until it has its own
        # (:attr:`rng`): copying a Mersenne Twister's state cost three quarters of a copy.
        self._rng_shared = new._rng_shared = True
        # Extensions' states are shared until either game changes one (writable_state).
        self._ext_shared = new._ext_shared = True
        _copy_containers(self, new)
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
        self._shared_plays = _SHARED_PLAYS.setdefault(
            (self.variant.name, self.rules, self.play.extensions), {}
        )
        self._set_dispatch()

    _VERIFY: Mapping[type, Any] = {
        Draw: _verify_draw,
        TakeColumn: _verify_take,
        Meld: TablePlay._verify_meld,
        Attach: TablePlay._verify_attach,
        ExchangeJoker: TablePlay._verify_exchange,
        ResetTurn: TablePlay._verify_reset,
        Discard: _verify_discard,
        NextDeal: _verify_next,
    }
    _APPLY: Mapping[type, Any] = {
        Draw: _apply_draw,
        TakeColumn: _apply_take,
        Meld: TablePlay._apply_meld,
        Attach: TablePlay._apply_attach,
        ExchangeJoker: TablePlay._apply_exchange,
        ResetTurn: TablePlay._apply_reset,
        Discard: _apply_discard,
        NextDeal: _apply_next,
    }


_copy_containers: Callable[[Game, Game], None] = _compiled(
    "def copy_containers(self, new):\n"
    + "".join(f"    new.{name} = {source}\n" for name, source in copy_plan()),
    {},
)
"""Copies every container field of ``self`` into ``new`` (generated from
:class:`~rummykit.engine.core.GameFields`, so a new field cannot be forgotten)."""
