"""Variant profiles: frozen data plus a few named hooks, and the registry."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

from rummykit.model.candidates import Candidate
from rummykit.model.melds import MeldKind, MeldRules
from rummykit.model.pieces import Face, Material, PieceSet
from rummykit.rules.options import (
    OptionError,
    Options,
    OptionSpec,
    VariantOptions,
    deals_match,
)

__all__ = [
    "BoardSettings",
    "CallSettings",
    "Constant",
    "Contract",
    "DealFromOrder",
    "DealLayout",
    "Layout",
    "OpeningStructure",
    "PieceNotInPackError",
    "PlayRules",
    "PrePlaySettings",
    "ScoringSettings",
    "SeatOutcome",
    "ShownHand",
    "TakeUse",
    "ThreeSettings",
    "UnknownVariantError",
    "Variant",
    "all_variants",
    "find_variant",
    "register",
]


class UnknownVariantError(ValueError):
    """No variant has that name or alias."""


class PieceNotInPackError(ValueError):
    """A piece the variant's pack does not hold (or holds fewer times than named);
    the message names the piece and the rule (RULES §N.1)."""

    def __init__(self, message: str, piece: str, rule: str) -> None:
        super().__init__(message)
        self.piece = piece
        self.rule = rule

    def __reduce__(self) -> tuple[type[PieceNotInPackError], tuple[str, str, str]]:
        # The default rebuilds from ``args`` (the message alone), which this constructor
        # refuses: the error would not cross a process boundary.
        return type(self), (str(self), self.piece, self.rule)


class OpeningStructure(StrEnum):
    """What the formations of a first laydown must include (RULES §5.5, §9.8, §10.5)."""

    NONE = "none"
    RUN_OR_ONES_SET = "run_or_ones_set"
    RUN_AND_SET = "run_and_set"
    RUN = "run"


class TakeUse(StrEnum):
    """What a player who takes from the discard pile must do with the piece that turn."""

    NONE = "none"
    """Nothing (RULES §3.3, §6.3, §7.3, §8.3)."""
    NEW_FORMATION = "new_formation"
    """Lay it in a formation newly laid this turn (§5.3, §9.6(b))."""
    NEW_FORMATION_IF_UNOPENED = "new_formation_if_unopened"
    """Only an unopened player must: he opens with it (§10.3)."""
    ON_TABLE = "on_table"
    """Put it on the table this turn: a new meld, or a lay-off by a player opened before
    this turn (§8.3 variation, A-37)."""


_T = TypeVar("_T")


@dataclass(frozen=True, slots=True, kw_only=True)
class PrePlaySettings:
    """What the ``preplay`` extension plays (RULES §9.4, §10.2), from the options."""

    swaps: bool = False
    """Players holding doubles may swap one tile of each (§9.4, §10.2(6))."""
    swap_same_category: bool = False
    """A swap exchanges doubles of the same category only (A-49)."""
    reshuffle: bool = False
    """A player dealt three doubles may have the deal broken and redealt (§9.4)."""
    atu_mandatory: bool = False
    """Atu is announced automatically (§9.4, BG) instead of optionally."""
    atu_on_joker: bool = False
    """With a joker indicator, the other joker's holder has atu (A-48)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardSettings:
    """What the ``board`` extension plays (RULES §9.13, §10.10), from the options."""

    declare_window: int = 0
    """A seat may declare board play only in its first this-many turns (§9.13/A-62);
    0: in any turn."""
    beaten_penalty: int = 0
    """What a board player scores when another seat closes first (§9.12, §9.13)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ThreeSettings:
    """What the ``three`` extension plays (RULES §9.11), from the options."""

    penalty: int = 0
    """What keeping three pieces or fewer unannounced costs (§9.11/A-56), as a
    positive number of points."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CallSettings:
    """What the ``call`` extension plays (RULES §6.6-§6.8), from the options."""

    failure_penalty: int = 0
    """What a caller who is not strictly lowest records (§6.8), zero or less."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoringSettings:
    """Scoring figures interfaces name in a deal's summary (RULES §9.12), from the
    options; a variant without them scores neither."""

    closing_bonus: int = 0
    """What closing the deal earns (§9.12)."""
    double_game_multiplier: int = 1
    """The factor of a double game (§9.12)."""
    special_close_multiplier: int = 1
    """The factor for closing with a 1 or a joker (§9.11)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayRules:
    """The structural switches of a variant's turn, derived from its options.

    Each switch names the rule it encodes; the engine reads only these (and the
    meld rules), never a variant's name.
    """

    extensions: tuple[str, ...] = ()
    """The engine extensions this variant plays, by name (``rummykit.engine.extension``):
    rules only some variants have, each owning its state, actions and phase; e.g.
    ``"preplay"``, the announcements before play (RULES §9.4)."""
    atu_announcement: bool = True
    """Before play, the holder of the indicator's twin may announce atu (§9.4); a
    variant with an indicator but no atu turns it off (§10.2(5))."""
    maker_passes_right: bool = True
    """The maker role passes to the previous maker's right (§9.1); else to his left
    (§10.1).  Which seat that is follows ``clockwise`` (§0.4)."""
    clockwise: bool = False
    """Play runs clockwise (§9.1/A-44, §10.1/A-68 ``direction`` option): the right
    neighbour is the previous seat in play order; else the next one (§0.4)."""
    first_turn_draws: bool = True
    """False: the first player's first turn is a discard only (§5.2, §9.5)."""
    first_turn_may_meld: bool = True
    """The first player may lay out on his discard-only first turn (§10.3, A-72)."""
    first_round_restricted: bool = False
    """Round 1 allows only draws and discards (§9.5(3))."""
    first_discard_dead: bool = False
    """The first discard can never be taken (§9.5(1))."""
    take_any_column_tile: bool = False
    """Any discard may be taken with all later ones (§9.6(c)); else only the top one."""
    middle_take_needs_opened: bool = False
    """With ``take_any_column_tile``: a take from below the top needs an opened player
    (§9.6(c)/A-50)."""
    middle_take_min_rack: int = 1
    """With ``take_any_column_tile``: a take from below the top needs at least this many
    pieces on the rack (§9.6(c)/A-50)."""
    draw_only_rack: int = 0
    """With ``take_any_column_tile``: a rack of at most this many pieces may only draw
    (Remi §9.6(1): 2; 0: no such rule)."""
    last_take_only_rack: int = 0
    """With ``take_any_column_tile``: a rack of at most this many pieces may take only
    the top discard (Remi §9.6(1): 3; 0: no such rule)."""
    taken_piece_may_attach: bool = False
    """The obligation of a taken discard is also met by attaching it to a formation on
    the table (A-51)."""
    rack_max_after_turn: int | None = None
    """Most pieces a rack may hold after the turn's discard (§9.6/A-50); None: no limit."""
    take_use: TakeUse = TakeUse.NONE
    """The obligation attached to a taken discard."""
    discard_taken_allowed: bool = True
    """The piece taken from the discard pile may be discarded again the same turn (§2.5)."""
    recycle_stock: bool = False
    """An empty stock is replaced by the turned-over discard pile (§2.4); else the deal
    ends after the turn in which the last stock piece was drawn (§9.11)."""
    recycle_limit: int | None = None
    """With ``recycle_stock``: after this many recycles an empty stock voids the deal
    (§2.4/A-05); None: no limit."""
    recycle_shuffle: bool = False
    """With ``recycle_stock``: the pile is shuffled before it becomes the stock (§2.4)."""
    layoff_before_opening: bool = False
    """Laying off is allowed before one's own first meld (§3.3, §4.3)."""
    layoff_on_opening_turn: bool = False
    """Laying off is allowed in the turn of the opening, after the opening melds."""
    go_out_without_discard: bool = False
    """Melding or laying off the last piece ends the deal (§3.6); else one piece must
    stay for a final discard (§9.11, §10.7)."""
    hand_waives_opening: bool = False
    """Going out in one turn from the full hand ignores the opening rule (§5.6)."""
    board_play: bool = False
    """A seat may declare play on the board, with contracts (§9.13; read by the ``board``
    extension, which the variant names when this is on)."""
    everyone_on_board: bool = False
    """Nobody lays out: every seat plays on his rack from the start and finishes by
    discarding beside a complete rack (§10.10, "Spiel auf der Tafel"; read by the
    ``board`` extension)."""
    joker_layoff_own_only: bool = False
    """A joker may be laid off only onto one's own formations (§9.6(2))."""
    joker_exchange: bool = False
    """A joker on the table can be exchanged for the piece it stands for."""
    joker_relocation: bool = False
    """A joker lifted from a run with no free end goes to any other formation where it
    fits (§4.5/A-10); without it, such a lay-off is illegal (read by the ``joker_shift``
    extension)."""
    exchange_needs_opened_before: bool = False
    """Only a player opened in an earlier turn may exchange (§8.5, A-39)."""
    exchange_needs_opened_by_end: bool = False
    """An exchanging player must be opened once the turn is committed (§9.10, A-55)."""
    reclaim_own_end_tiles: bool = False
    """A player may take an end tile of his own formation (laid in an earlier turn) back,
    to lay it in a new formation this turn (A-75 option)."""
    unopened_exchange_one_for_one: bool = False
    """An unopened player's exchange gives one piece per joker freed, so his rack
    keeps its size (§10.3, A-70); after his opening formations any exchange is fine."""
    exchanged_joker_locked: bool = False
    """An exchanged joker can never be exchanged again (§9.10)."""
    exchange_set_needs_all_suits: bool = True
    """A joker leaves a set only when all four suits lie there as naturals (§9.10)."""
    exchanged_joker_use: str = "formation"
    """``formation``: a new formation or one's own (§9.10); ``new_formation`` (§8.5);
    ``none``: it may stay on the rack (§10.6, A-70)."""
    opening_min_points: int = 0
    """Points the first laydown must reach (§5.5, §8.5, §9.8, §10.5)."""
    opening_structure: OpeningStructure = OpeningStructure.NONE
    """What the first laydown must include."""
    table_melds: bool = True
    """Formations are laid on the table during play; False: they stay in the hand until
    the deal ends, and nothing is laid, laid off or exchanged (§6.3)."""
    players_arrange: bool = False
    """After a call the seats lay out their own melds, caller first (A-24 alternative);
    else hands are arranged by the variant's ``arrange_hand`` hook."""
    close_drawn_only: bool = False
    """A caller closes only by discarding the card acquired this turn (A-21 alternative)."""
    match_winner: str = "highest"
    """``highest`` or ``lowest`` total wins the match."""
    go_out_before_first_draw: bool = False
    """Where players go out with a layout (``Variant.find_layout``): a dealt hand that
    is a layout may be laid at the start of the player's first turn, with no draw and
    no discard (§7.6, A-28)."""
    winner_deals: bool = False
    """The winner of a deal deals the next one (A-32); else the deal passes on (§2.6)."""
    sections: Mapping[str, str] = field(default_factory=dict)
    """Where this variant's rulebook states a shared rule, for error messages: keys
    ``first_turn``, ``acquire``, ``take_use``, ``opening``, ``exchange_use``."""
    settings: tuple[object, ...] = ()
    """The extensions' settings the options decide (e.g. :class:`PrePlaySettings`), one
    object per extension that has any; read with :meth:`setting`."""

    def setting(self, kind: type[_T]) -> _T:
        """The settings object of type ``kind`` (a variant naming the extension that
        reads it always provides one)."""
        for item in self.settings:
            if isinstance(item, kind):
                return item
        raise LookupError(f"these play rules have no {kind.__name__}")

    def find_setting(self, kind: type[_T]) -> _T | None:
        """The settings object of type ``kind``, or None where the variant has none."""
        return next((item for item in self.settings if isinstance(item, kind)), None)

    @property
    def stop_call(self) -> bool:
        """Right after drawing a player may stop the deal with "Remi!" and show his hand,
        closing face down if all his other cards lie in melds (§6.6; the ``call``
        extension)."""
        return "call" in self.extensions

    @property
    def three_announcement(self) -> bool:
        """Announce 'three' at 3 pieces or pay the penalty (§9.11; the ``three``
        extension)."""
        return "three" in self.extensions

    @property
    def joker_shift(self) -> bool:
        """Laying off the natural card a joker in a run stands for puts the card in the
        joker's place; the joker is then lifted and must be attached again at once, to a
        free end of the same run, never kept in the hand (§4.5; the ``joker_shift``
        extension)."""
        return "joker_shift" in self.extensions

    @property
    def preplay(self) -> bool:
        """Whether deals start with announcements before play (RULES §9.4)."""
        return "preplay" in self.extensions

    def cite(self, key: str, fallback: str) -> str:
        """The RULES section for ``key`` in this variant."""
        return self.sections.get(key, fallback)


@dataclass(frozen=True, slots=True)
class DealLayout:
    """How a deal starts: who holds what, the draw order, and what lies face up.

    ``stock`` is in draw order (``stock[0]`` is drawn first); ``discard`` is the
    discard pile, oldest first (a card game's up-card).
    """

    racks: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    first_seat: int
    discard: tuple[int, ...] = ()
    indicator: int | None = None
    """The face-up indicator piece (tile games), or None."""
    double_game: bool = False
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Contract:
    """A board-play contract (RULES §9.13) found in a rack."""

    name: str
    value: int
    groups: tuple[tuple[Face, ...], ...]


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand laid out at the end of a deal: its melds and the unmatched rest."""

    melds: tuple[tuple[Face, ...], ...]
    deadwood: tuple[Face, ...]
    points: int
    """Value of the deadwood."""

    @property
    def notation(self) -> str:
        """``[3H 4H 5H] [7C 7C 7D] / KH 3C``: melds, then the deadwood after a slash."""
        melds = " ".join("[" + " ".join(map(str, m)) + "]" for m in self.melds)
        rest = " ".join(map(str, self.deadwood))
        return f"{melds} / {rest}".strip()


@dataclass(frozen=True, slots=True)
class Layout:
    """A whole hand laid out at once (RULES §7.6): the run sizes and the formations."""

    pattern: tuple[int, ...]
    """The sizes of the formations, longest first (``(5, 4, 3, 3)``)."""
    melds: tuple[Candidate, ...]
    """The formations, fully declared, in the order of ``pattern``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatOutcome:
    """What the scoring hook needs to know about one seat at the end of a deal."""

    rack: tuple[Face, ...] = ()
    """The faces left on the seat's rack or hand."""
    hand: bool = False
    """The seat went out in one turn from its full hand ("Hand", RULES §3.6)."""
    opened: bool
    board: bool = False
    """The seat played on the board (RULES §9.13, §10.10; the ``board`` extension)."""
    three_violation: bool = False
    """The seat broke the "three" rule (RULES §9.11; the ``three`` extension)."""
    atu: bool = False
    """The seat announced atu before play (RULES §9.4; the pre-play extension)."""
    closed: bool
    table_value: int
    """Scoring value of the pieces credited to the seat on the table."""
    rack_value: int
    contract: Contract | None = None
    laid: tuple[Face, ...] = ()
    """The faces the seat laid out when it went out with a layout (§7.6)."""
    first_turn: bool = False
    """The seat went out on its first turn of the deal (§7.8 items 5-6)."""
    before_draw: bool = False
    """The seat went out before drawing (§7.8 item 6)."""
    balance: int = 0
    """The seat's match total before this deal (§7.9, A-30)."""


@dataclass(frozen=True, slots=True)
class Constant(Generic[_T]):
    """A hook that returns ``value`` whatever it is given (e.g. a variant's fixed pieces).

    A module-level callable object rather than a lambda, so that variants and the
    games holding them can be pickled and deep-copied.
    """

    value: _T

    def __call__(self, *args: object) -> _T:
        return self.value


DealFunction = Callable[[Sequence[int], int, int, Options], DealLayout]


@dataclass(frozen=True, slots=True)
class DealFromOrder:
    """A ``Variant.deal`` hook for a dealing function that does not need the piece set."""

    function: DealFunction

    def __call__(
        self, pieces: PieceSet, order: Sequence[int], players: int, dealer: int, options: Options
    ) -> DealLayout:
        return self.function(order, players, dealer, options)


def no_contract(faces: Sequence[Face], options: Options) -> Contract | None:
    """No board contracts (the default ``find_contract``)."""
    return None


def no_board_closes(faces: Sequence[Face], options: Options) -> Mapping[Face, Contract]:
    """No board closes (the default ``board_closes``)."""
    return {}


def no_closing_discards(faces: Sequence[Face], options: Options) -> frozenset[Face]:
    """No face-down closing discards (the default ``closing_discards``)."""
    return frozenset()


def default_play_rules(options: Options) -> PlayRules:
    """Every switch at its default (the default ``play_rules``)."""
    return PlayRules()


def over_after_match_deals(totals: Sequence[int], deals: int, options: Options) -> bool:
    """The match ends after ``match_deals`` deals (default 1; the default ``match_over``)."""
    return deals >= deals_match(options).match_deals


def fixed_match_deals(options: Options) -> int | None:
    """The ``match_deals`` option (the default ``deals_in_match``)."""
    return deals_match(options).match_deals


def no_fixed_match_deals(options: Options) -> int | None:
    """A match of no fixed number of deals (a ``deals_in_match`` hook)."""
    return None


def zero_starting_total(options: Options) -> int:
    """Every total starts at 0 (the default ``starting_total``)."""
    return 0


def accept_options(players: int, options: Options) -> None:
    """Options valid one by one fit together (the default ``check_options``)."""


@dataclass(frozen=True, kw_only=True)
class Variant:
    """One rule-set: every switch the engine reads, with the rule it encodes.

    Profiles are immutable and built once per module.  Behaviour that is not a
    switch is a named hook (``deal``, ``score_deal``, ``find_contract``).
    """

    name: str
    title: str
    aliases: tuple[str, ...]
    rules_section: str
    """Where RULES.md states this variant (e.g. ``"§9"``)."""
    summary: str
    material: Material
    min_players: int
    max_players: int
    default_players: int
    meld_rules: MeldRules
    option_type: type[VariantOptions]
    """The variant's typed options (a :class:`VariantOptions` subclass, one field each)."""
    pieces: Callable[[Options], PieceSet]
    """The physical pieces for a game with these options."""
    opening_value: Callable[[MeldKind, int], int]
    """Opening value of one piece at a run position, or in a set of that rank."""
    score_value: Callable[[Face], int]
    """Scoring value of one piece on the table or on a rack."""
    deal: Callable[[PieceSet, Sequence[int], int, int, Options], DealLayout]
    """Lay out a deal from a shuffled piece order, the player count and the maker."""
    score_deal: Callable[[Sequence[SeatOutcome], bool, Face | None, Options], tuple[int, ...]]
    """Deal scores from the seats' outcomes, the double-game flag and the closing face."""
    find_contract: Callable[[Sequence[Face], Options], Contract | None] = no_contract
    """The best board contract 14 faces form (tile games with board play)."""
    board_closes: Callable[[Sequence[Face], Options], Mapping[Face, Contract]] = no_board_closes
    """Faces a board player holding these pieces may discard to close, with the contract."""
    arrange_hand: Callable[[Sequence[Face], Options], ShownHand] | None = None
    """How a hand is shown when the deal ends: its least-deadwood arrangement, whose
    points become the seat's rack value (RULES §6.6); None: hands are just counted."""
    closing_discards: Callable[[Sequence[Face], Options], frozenset[Face]] = no_closing_discards
    """Faces a caller holding ``faces`` may discard face down to close, all the other
    cards lying in melds (RULES §6.6)."""
    meld_rules_for: Callable[[Options], MeldRules] | None = None
    """The meld rules under given options, where options change them (else ``meld_rules``)."""
    catalogue_meld_rules: MeldRules | None = None
    """Meld rules admitting every formation that any option value allows, where options
    widen ``meld_rules``: fixed catalogues (the RL action space) are built from them."""
    opening_value_for: Callable[[Options], Callable[[MeldKind, int], int]] | None = None
    """The opening values under given options, where options change them."""
    score_value_for: Callable[[Options], Callable[[Face], int]] | None = None
    """The scoring values under given options, where options change them."""
    play_rules: Callable[[Options], PlayRules] = default_play_rules
    """The turn's structural switches for these options."""
    match_over: Callable[[Sequence[int], int, Options], bool] = over_after_match_deals
    """Whether the match ends, given the totals and the number of deals played."""
    find_layout: Callable[[Sequence[Face], Options], Layout | None] | None = None
    """Where a player goes out by laying his whole hand at once (§7.6): the layout the
    hand ``faces`` forms, or None.  Unset for every other variant."""
    layout_discards: Callable[[Sequence[Face], Options], frozenset[Face]] | None = None
    """Optional, with ``find_layout``: the faces of a hand one card over a layout whose
    discard leaves a layout (the engine asks on every turn; without it, it calls
    ``find_layout`` once per card)."""
    melds_during_play: bool = True
    """Formations can reach the table during play (RULES §1).  False (a variant whose
    ``PlayRules.table_melds`` is false under every option, and where nothing is shown
    but a winner's final layout) also leaves meld, lay-off and exchange numbers and
    formation slots out of the RL spaces."""
    deals_in_match: Callable[[Options], int | None] = fixed_match_deals
    """How many deals a match lasts under these options, or None where it is not a fixed
    number (a race to a target score, §3.8; until someone has no chips, §7.9)."""
    starting_total: Callable[[Options], int] = zero_starting_total
    """Every seat's match total before the first deal (chips, §7.8)."""
    check_options: Callable[[int, Options], None] = accept_options
    """Raise :class:`OptionError` when options that are valid one by one do not fit
    together or the table size."""
    solver_goals: Mapping[str, Callable[[Sequence[Face], Options], Mapping[str, Any]]] = field(
        default_factory=dict
    )
    """Exact objectives of this variant's own (e.g. a layout pattern), by goal name: each
    takes a hand and the resolved options and returns a JSON-ready answer.  The solver
    and ``rummykit solve --goal NAME`` dispatch to them; built-in goals cannot be
    overridden."""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __reduce__(self) -> tuple[Any, ...]:
        # A registered variant pickles by name, so that an unpickled game holds the very
        # profile of its process (caches key on it); an unregistered one by value (every
        # hook is a module-level function or a frozen callable object, never a lambda).
        if _REGISTRY.get(self.name) is self:
            return (find_variant, (self.name,))
        return (_rebuild_variant, (dict(self.__dict__),))

    def __copy__(self) -> Variant:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Variant:
        # Immutable: copies of a game share their variant, as Game.copy does.
        return self

    @property
    def options(self) -> tuple[OptionSpec, ...]:
        """The options' declarations (names, allowed values, defaults, documentation)."""
        return self.option_type.specs()

    def resolve(self, players: int, given: Mapping[str, Any] | None = None) -> VariantOptions:
        """Validate the player count and options; return them parsed, every option's
        value in a typed object of :attr:`option_type`."""
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
        values = self.option_type.parse(given or {}, players)
        self.check_options(players, values)
        return values

    def rules_for(self, options: Options) -> MeldRules:
        """The meld rules in force under ``options``."""
        return self.meld_rules if self.meld_rules_for is None else self.meld_rules_for(options)

    def opening_values(self, options: Options) -> Callable[[MeldKind, int], int]:
        """The opening value function in force under ``options``."""
        if self.opening_value_for is None:
            return self.opening_value
        return self.opening_value_for(options)

    def score_values(self, options: Options) -> Callable[[Face], int]:
        """The scoring value function in force under ``options``."""
        return self.score_value if self.score_value_for is None else self.score_value_for(options)

    @property
    def pack_rule(self) -> str:
        """The RULES section that lists this variant's components (``§9`` → ``§9.1``)."""
        return f"{self.rules_section}.1"

    def check_pieces(self, faces: Sequence[Face], options: Options | None = None) -> None:
        """Raise :class:`PieceNotInPackError` for the first face of ``faces`` that the
        pack does not hold, or holds fewer times than ``faces`` names it.

        ``options`` are resolved options (:meth:`resolve`); without them the pack of
        the default options at the default table size is used.  Options decide the
        pack where a variant says so (Rommé's ``jokers_per_deck``, Continental's packs).
        """
        resolved = options if options is not None else self.resolve(self.default_players)
        pack = self.pieces(resolved)
        rule = self.pack_rule
        held = Counter(pack.faces)
        named = Counter(faces)
        kind = "cards" if pack.material is Material.CARDS else "tiles"
        for face in faces:
            if face.material is not pack.material:
                raise PieceNotInPackError(
                    f"{face} is not in the {self.name} pack: {self.name} is played with "
                    f"{kind} (RULES {rule})",
                    str(face),
                    rule,
                )
            if held[face] == 0:
                jokers = f"{pack.joker_count} jokers" if pack.joker_count else "no jokers"
                raise PieceNotInPackError(
                    f"{face} is not in the {self.name} pack: {pack.copies} × 52 {kind} and "
                    f"{jokers} (RULES {rule})",
                    str(face),
                    rule,
                )
            if named[face] > held[face]:
                raise PieceNotInPackError(
                    f"{face} is named {named[face]} times, but the {self.name} pack holds "
                    f"{held[face]} (RULES {rule})",
                    str(face),
                    rule,
                )

    def shuffled_order(self, pieces: PieceSet, rng: random.Random) -> list[int]:
        """A uniformly shuffled order of every piece id, from the injected RNG."""
        order = list(range(len(pieces)))
        rng.shuffle(order)
        return order


def _rebuild_variant(fields: dict[str, Any]) -> Variant:
    """Unpickle an unregistered variant from its fields."""
    return Variant(**fields)


_REGISTRY: dict[str, Variant] = {}
_ALIASES: dict[str, str] = {}


def register(variant: Variant) -> Variant:
    """Add ``variant`` to the registry under its name and aliases."""
    keys = [key.lower().replace("_", "-") for key in (variant.name, *variant.aliases)]
    for key, norm in zip((variant.name, *variant.aliases), keys, strict=True):
        if norm in _ALIASES and _ALIASES[norm] != variant.name:
            raise ValueError(f"variant name {key!r} is already taken by {_ALIASES[norm]}")
    for norm in keys:
        _ALIASES[norm] = variant.name
    _REGISTRY[variant.name] = variant
    return variant


def find_variant(name: str) -> Variant:
    """The variant called ``name`` or having it as an alias (case-insensitive)."""
    from rummykit.rules import catalogue  # noqa: F401  (registers the built-in variants)

    norm = name.strip().lower().replace("_", "-")
    if norm not in _ALIASES:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownVariantError(f"unknown variant {name!r}; known variants: {known}")
    return _REGISTRY[_ALIASES[norm]]


def all_variants() -> list[Variant]:
    """Every registered variant, by name."""
    from rummykit.rules import catalogue  # noqa: F401

    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
