"""Romanian Rummy as described in German, "Remmi" (RULES §10), with 8B "Spiel auf der Tafel".

The tiles and the wall are those of ``remi_ro`` (:mod:`rummykit.rules.tiles`);
everything else is this variant's own: discards pile up between neighbours and
only the predecessor's last one may be taken (an unopened player only to open
with it), a 50-point opening with a Kunst and a Laufend, jokers never
outnumbering numbered tiles, penalty scoring where the lowest total wins, and
the board game 8B in which every tile stays on the rack.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from rummykit.model.candidates import Candidate, candidates_with, counts_of
from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules
from rummykit.model.pieces import (
    JOKER_KIND,
    SUIT_COUNT,
    Face,
    Material,
    kind_of,
    suit_kinds,
)
from rummykit.rules.options import (
    OptionKind,
    Options,
    VariantOptions,
    option,
    per_player,
)
from rummykit.rules.tiles import TILES_106, alone_kinds, lay_wall, one_joker_refutes
from rummykit.rules.tiles import stack_wall as stack_tile_wall
from rummykit.rules.variant import (
    BoardSettings,
    Constant,
    Contract,
    DealFromOrder,
    DealLayout,
    OpeningStructure,
    PlayRules,
    PrePlaySettings,
    SeatOutcome,
    TakeUse,
    Variant,
    register,
)

__all__ = [
    "BOARD_CONTRACT",
    "MELD_RULES",
    "REMMI_DE",
    "board_closes",
    "build_wall",
    "find_contract",
    "meld_rules_for",
    "min_deadwood",
    "opening_value",
    "opening_value_for",
    "rack_value",
    "score_deal",
    "score_value_for",
    "stack_wall",
]

JOKER_INDICATOR_COUNT = 14
"""§10.2(2): a joker as the extra tile marks stack 14, as in §9.2."""

BOARD_CONTRACT = "kunst_und_laufend"
"""§10.10: the only way to finish in 8B, a rack of formations with a Kunst and a Laufend."""

MELD_RULES = MeldRules(
    min_size=3,
    ace_low=True,
    ace_high=True,
    ace_both_ends=True,  # §10.4/A-76: 1-2-…-13-1 is a Laufend
    set_distinct_suits=True,  # §10.4: a Kunst has different colours
    set_max_size=4,
    min_natural=1,
    wild_le_natural=True,  # §10.4: never more jokers than numbered tiles
)

WIDEST_MELD_RULES = MeldRules(
    min_size=3,
    ace_low=True,
    ace_high=True,
    ace_both_ends=True,
    set_distinct_suits=True,
    set_max_size=4,
    min_natural=1,
)
"""Every formation some ``max_jokers_rule``/``set_max_size`` allows (``one_natural``)."""

ENGINE = OptionKind.ENGINE


@dataclass(frozen=True, kw_only=True, eq=False)
class RemmiDeOptions(VariantOptions):
    """Remmi's options (RULES §10)."""

    direction: Literal["clockwise", "counterclockwise"] = option(
        "clockwise",
        choices=("clockwise", "counterclockwise"),
        kind=ENGINE,
        doc="§10.1/A-68: direction of play; the first player sits left of the dealer.",
    )
    opening_min_points: int = option(
        50,
        minimum=0,
        maximum=500,
        doc="§10.5: points the formations of the opening turn must reach.",
    )
    opening_requires_set_and_run: bool = option(
        True, doc="§10.5: the opening includes at least one Kunst and one Laufend."
    )
    one_value_high: int = option(
        14,
        minimum=0,
        maximum=100,
        doc="§10.5: opening value of a 1 at the top of a Laufend (12-13-1).",
    )
    one_value_set: int = option(
        10, minimum=0, maximum=100, doc="§10.5: opening value of a 1 in a Kunst."
    )
    one_value_low: int = option(
        1,
        minimum=0,
        maximum=100,
        doc="§10.5: opening value of a 1 at the bottom of a Laufend (1-2-3).",
    )
    max_jokers_rule: Literal["jokers_le_naturals", "one_natural", "one_joker"] = option(
        "jokers_le_naturals",
        choices=("jokers_le_naturals", "one_natural", "one_joker"),
        doc="§10.4: never more jokers than numbered tiles; or only one numbered tile "
        "needed (A-66); or at most one joker per formation.",
    )
    set_max_size: int = option(4, minimum=3, maximum=4, doc="§10.4: most tiles in a Kunst.")
    joker_rack_penalty: int = option(
        50, minimum=0, maximum=1000, doc="§10.9: penalty for a joker left on the rack."
    )
    one_rack_value: int = option(
        1, minimum=0, maximum=100, kind=ENGINE, doc="§10.9/A-69: penalty for a 1 left on the rack."
    )
    joker_exchange_by_unopened: bool = option(
        True, kind=ENGINE, doc="§10.6/A-70: a player who has not opened may exchange a joker."
    )
    joker_exchange_must_use_immediately: bool = option(
        False,
        kind=ENGINE,
        doc="§10.6/A-70: an exchanged joker must be laid or attached in the same turn.",
    )
    first_player_may_open_first_turn: bool = option(
        True,
        kind=ENGINE,
        doc="§10.3/A-72: the first player may lay out in his discard-only first turn.",
    )
    allow_reclaim_own_end_tiles: bool = option(
        False,
        kind=ENGINE,
        doc="A-75: end tiles of one's own formations may be taken back for a new formation.",
    )
    allow_discard_of_taken_discard: bool = option(
        False,
        kind=ENGINE,
        doc="§2.5/A-03: the tile taken from the predecessor may be discarded again.",
    )
    doubles_swap_enabled: bool = option(
        True, doc="§10.2(6): two players holding doubles may swap one tile of each, face down."
    )
    board_variant: bool = option(
        False, doc="§10.10: 8B, nobody lays out; finish with 14 tiles in formations on the rack."
    )
    board_joker_close_multiplier: int = option(
        2,
        minimum=1,
        maximum=10,
        doc="§10.10: the losers' charges are multiplied when the 8B winner discards a joker.",
    )
    board_count_all_rack_tiles: bool = option(
        True,
        kind=ENGINE,
        doc="§10.10/A-74: in 8B every rack tile counts, or only those outside formations.",
    )
    match_deals: int = option(
        per_player,
        minimum=1,
        maximum=1000,
        kind=ENGINE,
        doc="§10.9: deals in a match (default: one per player as dealer).",
    )


# ---------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class OpeningValues:
    """§10.5 opening values with a 1 worth ``high`` high, ``in_set`` in a Kunst, ``low``
    low (a frozen callable, so that games under these options pickle)."""

    high: int
    in_set: int
    low: int

    def __call__(self, kind: MeldKind, position: int) -> int:
        if kind is MeldKind.SET:
            return self.in_set if position == 1 else position
        if position == HIGH_ACE:
            return self.high
        return self.low if position == 1 else position


@lru_cache(maxsize=64)
def _opening_values(high: int, in_set: int, low: int) -> Callable[[MeldKind, int], int]:
    return OpeningValues(high, in_set, low)


opening_value = _opening_values(14, 10, 1)
"""RULES §10.5 opening values: the number; a 1 is 14 at the top of a Laufend, 10 in a
Kunst, 1 at the bottom; a joker counts as the tile it stands for."""


def opening_value_for(options: Options) -> Callable[[MeldKind, int], int]:
    """The §10.5 opening values under the ``one_value_*`` options."""
    opts = RemmiDeOptions.of(options)
    return _opening_values(
        opts.one_value_high,
        opts.one_value_set,
        opts.one_value_low,
    )


@dataclass(frozen=True, slots=True)
class RackValues:
    """§10.9 rack values: the number, a 1 counts ``one``, a joker ``joker`` (a frozen
    callable, so that games under these options pickle)."""

    one: int
    joker: int

    def __call__(self, face: Face) -> int:
        if face.is_joker:
            return self.joker
        return self.one if face.rank == 1 else face.rank


@lru_cache(maxsize=64)
def _rack_values(one: int, joker: int) -> Callable[[Face], int]:
    return RackValues(one, joker)


rack_value = _rack_values(1, 50)
"""RULES §10.9 penalty values of a tile left on the rack: its number (a 1 counts 1,
A-69); a joker 50."""


def score_value_for(options: Options) -> Callable[[Face], int]:
    """The §10.9 rack values under ``one_rack_value`` and ``joker_rack_penalty``."""
    opts = RemmiDeOptions.of(options)
    return _rack_values(
        opts.one_rack_value,
        opts.joker_rack_penalty,
    )


def meld_rules_for(options: Options) -> MeldRules:
    """The §10.4 formation rules under ``max_jokers_rule`` and ``set_max_size``."""
    opts = RemmiDeOptions.of(options)
    rule = opts.max_jokers_rule
    size = opts.set_max_size
    if rule == "jokers_le_naturals" and size == MELD_RULES.set_max_size:
        return MELD_RULES
    return MeldRules(
        min_size=3,
        ace_low=True,
        ace_high=True,
        ace_both_ends=True,
        set_distinct_suits=True,
        set_max_size=size,
        min_natural=1,
        max_wild=1 if rule == "one_joker" else None,
        wild_le_natural=rule == "jokers_le_naturals",
    )


# ---------------------------------------------------------------- the deal


def build_wall(order: Sequence[int], players: int, dealer: int, options: Options) -> DealLayout:
    """RULES §10.2: the §9.2 wall; the 8-tile stack goes to the dealer's left neighbour.

    Seats are in play order.  With clockwise play (A-68) the left neighbour is the
    next seat; with counter-clockwise play it is the previous one (§0.4).
    """
    opts = RemmiDeOptions.of(options)
    clockwise = opts.direction == "clockwise"
    first = (dealer + 1) % players if clockwise else (dealer - 1) % players
    wall = lay_wall(order, players, first, joker_count=JOKER_INDICATOR_COUNT)
    face = TILES_106.faces[wall.indicator]
    # §10.2(5): no double game and no atu, whatever the extra tile is.
    return DealLayout(
        racks=wall.racks,
        stock=wall.stock,
        first_seat=first,
        indicator=wall.indicator,
        double_game=False,
        notes=(f"extra tile {face}, stack {wall.count}",),
    )


def stack_wall(
    players: int,
    dealer: int,
    options: Options,
    *,
    indicator: int,
    racks: Sequence[Sequence[int]],
    stock: Sequence[int] = (),
) -> list[int]:
    """The wall order that deals ``racks`` (seat order: the first player 15, others 14)
    and draws ``stock`` first (see :func:`rummykit.rules.tiles.stack_wall`)."""
    return stack_tile_wall(
        lambda order: build_wall(order, players, dealer, options),
        indicator=indicator,
        racks=racks,
        stock=stock,
    )


# ---------------------------------------------------------------- 8B: covers of a rack
# Searches work on count vectors (53 entries, the joker last).  Bit b of a cover mask
# says a cover exists with has_set = b >> 1 and has_run = b & 1.

_BOTH = 1 << 3


def _needs_partner(rules: MeldRules) -> bool:
    """Whether every formation holds two numbered tiles (so a tile with no possible
    partner can never be in one)."""
    known = _NEEDS_PARTNER.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    answer = _needs_partner_of(rules)
    _NEEDS_PARTNER[id(rules)] = (rules, answer)
    return answer


_NEEDS_PARTNER: dict[int, tuple[MeldRules, bool]] = {}
""":func:`_needs_partner` by the rules' id (asked on every step of the cover search:
cheaper than hashing the rules)."""


def _needs_partner_of(rules: MeldRules) -> bool:
    most_wild = rules.min_size - max(rules.min_natural, 1)
    if rules.max_wild is not None:
        most_wild = min(most_wild, rules.max_wild)
    if rules.wild_le_natural:
        most_wild = min(most_wild, rules.min_size // 2)
    return rules.min_size - most_wild >= 2


def _isolated(counts: Sequence[int], enough: int, rules: MeldRules) -> list[int]:
    """Up to ``enough`` natural kinds with no tile that could share a formation.

    A formation of two or more numbered tiles puts each next to another one: of the
    same number (a Kunst), or of its colour at most one position plus the jokers
    available away (a Laufend, ``[R5 J J R8]``).  Asked for every rack of an 8B board
    player on every turn, so it works on bit masks: bit p of a colour's mask is set
    when it holds the tile for run position p (1..14, the 1 at both 1 and 14).
    """
    jokers = counts[JOKER_KIND]
    if rules.max_wild is not None:
        jokers = min(jokers, rules.max_wild)
    masks = [_position_mask(counts[s]) for s in _SUIT_SLICES]
    found: list[int] = []
    for colour, own in enumerate(masks):
        if not own:
            continue
        others = masks[(colour + 1) % 4] | masks[(colour + 2) % 4] | masks[(colour + 3) % 4]
        near = 0
        for d in range(1, jokers + 2):
            near |= (own << d) | (own >> d)
        # Alone: no tile of its colour within reach, no tile of its number elsewhere.
        alone = own & ~near & ~others
        if not alone:
            continue
        found += alone_kinds(alone, kind_of(colour, 1))
        if len(found) >= enough:
            return found[:enough]
    return found


def _loose(counts: Sequence[int], enough: int, rules: MeldRules) -> list[int]:
    """Up to ``enough`` natural tiles (a kind once per tile) that lie in no formation.

    Sound for any rules with formations of three or more, and stronger than
    :func:`_isolated` where at most one joker can join a formation: a formation then
    holds a run of three positions of which at most one lacks a tile of the rack (a
    longer run holds such a three around each tile), or two tiles of one number in
    different colours (three without a joker).  With more jokers nothing is found.
    """
    jokers = counts[JOKER_KIND]
    wild = jokers if rules.max_wild is None else min(jokers, rules.max_wild)
    if wild >= 2 or rules.min_size < 3:
        return []
    masks = [_position_mask(counts[s]) for s in _SUIT_SLICES]
    m0, m1, m2, m3 = masks
    # Numbers held in at least 3 - wild colours (bits by position, the 1 at both).
    if wild:
        in_set = (m0 & m1) | (m0 & m2) | (m0 & m3) | (m1 & m2) | (m1 & m3) | (m2 & m3)
    else:
        in_set = (m0 & m1 & m2) | (m0 & m1 & m3) | (m0 & m2 & m3) | (m1 & m2 & m3)
    if not rules.set_distinct_suits:
        in_set = _ALL_POSITIONS  # repeated colours: not worked out here
    found: list[int] = []
    for colour, own in enumerate(masks):
        if not own:
            continue
        if wild:  # two of three positions held
            starts = (own & own >> 1) | (own & own >> 2) | (own >> 1 & own >> 2)
        else:
            starts = own & own >> 1 & own >> 2
        starts &= _RUN_STARTS
        alone = own & ~(starts | starts << 1 | starts << 2 | in_set)
        if not alone:
            continue
        base = kind_of(colour, 1)
        if alone & _ONE_BITS == _ONE_BITS:
            found += [base] * counts[base]
        rest = alone & _MIDDLE_BITS
        while rest:  # positions 2..13, lowest first
            low = rest & -rest
            kind = base + low.bit_length() - 2  # position p is tile base + p - 1
            found += [kind] * counts[kind]
            rest ^= low
        if len(found) >= enough:
            break
    return found[:enough]


def _joker_cannot_hold(counts: Sequence[int]) -> bool:
    """With one joker in the rack: whether no discard leaves tiles that all lie in
    formations, because the tiles only a formation with the joker can hold (no run of
    three held, no number in three colours) are too spread out.

    At most one formation holds the joker, and it holds all of them but the discard:
    they are one colour or one number.  For formations of three or more in distinct
    colours where one joker can join (the caller checks).
    """
    masks = [_position_mask(counts[s]) for s in _SUIT_SLICES]
    m0, m1, m2, m3 = masks
    in_three = (m0 & m1 & m2) | (m0 & m1 & m3) | (m0 & m2 & m3) | (m1 & m2 & m3)
    in_two = (m0 & m1) | (m0 & m2) | (m0 & m3) | (m1 & m2) | (m1 & m3) | (m2 & m3)
    alone = 0
    helped: list[int] = []
    for colour, own in enumerate(masks):
        if not own:
            continue
        starts = own & own >> 1 & own >> 2 & _RUN_STARTS
        natural = starts | starts << 1 | starts << 2 | in_three
        starts = ((own & own >> 1) | (own & own >> 2) | (own >> 1 & own >> 2)) & _RUN_STARTS
        joker = starts | starts << 1 | starts << 2 | in_two
        base = kind_of(colour, 1)
        for kind in range(base, base + 13):
            if not counts[kind]:
                continue
            bits = _ONE_BITS if kind == base else 1 << (kind - base + 1)
            if natural & bits:
                continue
            if joker & bits:
                helped += [kind] * counts[kind]
            else:
                alone += counts[kind]
    return one_joker_refutes(helped, alone)


_ONE_BITS = 1 << 1 | 1 << HIGH_ACE
_MIDDLE_BITS = sum(1 << position for position in range(2, HIGH_ACE))
_ALL_POSITIONS = sum(1 << position for position in range(1, HIGH_ACE + 1))
_RUN_STARTS = sum(1 << start for start in range(1, HIGH_ACE - 1))
"""The first positions of the runs of three on positions 1..14."""
_SUIT_SLICES = tuple(suit_kinds(c) for c in range(SUIT_COUNT))


@lru_cache(maxsize=16384)
def _position_mask(row: tuple[int, ...]) -> int:
    """The run positions (bits 1..14) one colour's 13 counts hold (the 1 low and high)."""
    mask = 0
    for rank0, count in enumerate(row):
        if count:
            mask |= _ONE_BITS if rank0 == 0 else 1 << (rank0 + 1)
    return mask


def _rest(counts: tuple[int, ...], cand: Candidate) -> tuple[int, ...] | None:
    rest = list(counts)
    for k, c in cand.need:
        rest[k] -= c
        if rest[k] < 0:
            return None
    return tuple(rest)


@lru_cache(maxsize=65536)
def _cover_mask(counts: tuple[int, ...], rules: MeldRules) -> int:
    """Which mixes of Kunst/Laufend an exact cover of ``counts`` can have (0: none).

    Once a cover with both kinds is found the search stops: callers only ask for it.
    """
    first = next((k for k in range(52) if counts[k]), None)
    if first is None:
        return 1 if not counts[JOKER_KIND] else 0  # jokers alone form nothing
    if _needs_partner(rules) and _isolated(counts, 1, rules):
        return 0
    if _loose(counts, 1, rules):
        return 0  # a tile in no formation: no cover
    mask = 0
    for cand in candidates_with(counts, rules, first):
        rest = _rest(counts, cand)
        if rest is None:
            continue
        sub = _cover_mask(rest, rules)
        bit = 2 if cand.kind is MeldKind.SET else 1
        for b in range(4):
            if sub >> b & 1:
                mask |= 1 << (b | bit)
        if mask & _BOTH:
            break
    return mask


def _one_cover(counts: tuple[int, ...], rules: MeldRules, want: int) -> list[Candidate]:
    """A cover of ``counts`` whose mix of kinds includes ``want`` bits (a Kunst: 2,
    a Laufend: 1); the caller knows one exists."""
    first = next(k for k in range(52) if counts[k])
    for cand in candidates_with(counts, rules, first):
        rest = _rest(counts, cand)
        if rest is None:
            continue
        bit = 2 if cand.kind is MeldKind.SET else 1
        still = want & ~bit
        if not any(_cover_mask(rest, rules) >> b & 1 for b in range(4) if b & still == still):
            continue
        if not any(rest):
            return [cand]
        return [cand, *_one_cover(rest, rules, still)]
    raise AssertionError("no cover although one was found")


def _faces_of(cands: Sequence[Candidate]) -> tuple[tuple[Face, ...], ...]:
    return tuple(c.faces(Material.TILES) for c in cands)


def find_contract(faces: Sequence[Face], options: Options) -> Contract | None:
    """§10.10: whether 14 faces are formations including a Kunst and a Laufend."""
    if len(faces) != 14:
        return None
    rules = meld_rules_for(options)
    counts = counts_of([f.kind for f in faces])
    if not _cover_mask(counts, rules) & _BOTH:
        return None
    return Contract(BOARD_CONTRACT, 0, _faces_of(_one_cover(counts, rules, 3)))


@lru_cache(maxsize=16384)
def _closing_kinds(counts: tuple[int, ...], rules: MeldRules) -> tuple[int, ...]:
    """Kinds whose discard leaves 14 tiles that are formations with a Kunst and a Laufend."""
    kinds = [k for k in range(53) if counts[k]]
    if _needs_partner(rules):
        lonely = _isolated(counts, 2, rules)
        if len(lonely) > 1:
            return ()
        if lonely:
            kinds = lonely
    loose = _loose(counts, 2, rules)
    if len(loose) > 1:
        return ()  # two tiles in no formation: one could be discarded, never both
    if (
        counts[JOKER_KIND] == 1
        and rules.max_wild != 0
        and rules.min_size >= 3
        and rules.set_distinct_suits
        and _joker_cannot_hold(counts)
    ):
        return ()
    if loose:  # any other discard leaves it in the 14
        kinds = [k for k in kinds if k == loose[0]]
    out = []
    for kind in kinds:
        rest = list(counts)
        rest[kind] -= 1
        if _cover_mask(tuple(rest), rules) & _BOTH:
            out.append(kind)
    return tuple(out)


def board_closes(faces: Sequence[Face], options: Options) -> dict[Face, Contract]:
    """§10.10: each face an 8B player holding ``faces`` (15) can discard to finish."""
    if len(faces) != 15:
        return {}
    rules = meld_rules_for(options)
    counts = counts_of([f.kind for f in faces])
    out: dict[Face, Contract] = {}
    for kind in _closing_kinds(counts, rules):
        face = next(f for f in faces if f.kind == kind)
        rest = list(counts)
        rest[kind] -= 1
        cover = _one_cover(tuple(rest), rules, 3)
        out[face] = Contract(BOARD_CONTRACT, 0, _faces_of(cover))
    return out


@lru_cache(maxsize=16384)
def _deadwood(counts: tuple[int, ...], rules: MeldRules, values: tuple[int, ...]) -> int:
    first = next((k for k in range(52) if counts[k]), None)
    if first is None:
        return counts[JOKER_KIND] * values[JOKER_KIND]
    rest = list(counts)
    rest[first] -= 1
    best = values[first] + _deadwood(tuple(rest), rules, values)
    for cand in candidates_with(counts, rules, first):
        after = _rest(counts, cand)
        if after is not None:
            best = min(best, _deadwood(after, rules, values))
    return best


def min_deadwood(faces: Sequence[Face], options: Options) -> int:
    """The least rack value of the tiles left outside formations (A-74 alternative)."""
    value = score_value_for(options)
    values = (
        *(value(Face.from_kind(Material.TILES, k)) for k in range(52)),
        value(Face.joker(Material.TILES)),
    )
    return _deadwood(counts_of([f.kind for f in faces]), meld_rules_for(options), values)


# ---------------------------------------------------------------- scoring


def score_deal(
    outcomes: Sequence[SeatOutcome],
    double_game: bool,
    closing_face: Face | None,
    options: Options,
) -> tuple[int, ...]:
    """Penalty points per RULES §10.9 (and §10.10 in 8B): the winner 0, everyone else
    his rack; at stock exhaustion (A-73) everyone his rack."""
    opts = RemmiDeOptions.of(options)
    board = opts.board_variant
    multiplier = 1
    if board and closing_face is not None and closing_face.is_joker:
        multiplier = opts.board_joker_close_multiplier
    scores = []
    for o in outcomes:
        if o.closed:
            scores.append(0)
        elif board and not opts.board_count_all_rack_tiles:
            scores.append(min_deadwood(o.rack, options) * multiplier)
        else:
            scores.append(o.rack_value * multiplier)
    return tuple(scores)


def play_rules(options: Options) -> PlayRules:
    """The turn structure of RULES §10.3-§10.10 under these options."""
    opts = RemmiDeOptions.of(options)
    board = opts.board_variant
    return PlayRules(
        # §10.2(6): the double swap; §10.10: "Spiel auf der Tafel" puts everyone on the board.
        # A-75 (an option): taking one's own end tiles back.
        extensions=("preplay", "board", "reclaim"),
        # §10.2: no same-category rule, no reshuffle, no atu; §10.10 has no declaring.
        settings=(PrePlaySettings(swaps=opts.doubles_swap_enabled), BoardSettings()),
        atu_announcement=False,  # §10.2(5)
        maker_passes_right=False,  # §10.1: the dealer role moves to the left
        clockwise=opts.direction == "clockwise",
        first_turn_draws=False,
        first_turn_may_meld=opts.first_player_may_open_first_turn,
        # §10.10/A-74: without an opening, taking the predecessor's tile is free.
        take_use=TakeUse.NONE if board else TakeUse.NEW_FORMATION_IF_UNOPENED,
        discard_taken_allowed=opts.allow_discard_of_taken_discard,
        recycle_stock=False,
        layoff_before_opening=False,
        layoff_on_opening_turn=True,  # §10.3(3), §10.5's example
        go_out_without_discard=False,  # §10.7
        everyone_on_board=board,
        joker_layoff_own_only=False,
        joker_exchange=not board,
        exchange_needs_opened_before=False,
        exchange_needs_opened_by_end=not opts.joker_exchange_by_unopened,
        unopened_exchange_one_for_one=True,
        reclaim_own_end_tiles=opts.allow_reclaim_own_end_tiles,
        exchanged_joker_locked=False,
        exchange_set_needs_all_suits=True,  # §10.6
        exchanged_joker_use=("formation" if opts.joker_exchange_must_use_immediately else "none"),
        opening_min_points=opts.opening_min_points,
        opening_structure=(
            OpeningStructure.RUN_AND_SET
            if opts.opening_requires_set_and_run
            else OpeningStructure.NONE
        ),
        match_winner="lowest",  # §10.9
        sections={
            "first_turn": "§10.3",
            "acquire": "§10.3(1)",
            "take_top": "§10.3(1)",
            "take_use": "§10.3(1)",
            "opening": "§10.5",
            "exchange_use": "§10.6/A-70",
            "exchange_opened": "§10.6/A-70",
            "meld": "§10.4",
            "attach": "§10.3(3)",
            "attach_opening": "§10.3(3)",
            "exchange": "§10.6",
            "exchange_set": "§10.6",
            "keep_discard": "§10.7",
            "deal_end": "§10.9",
            "layoff_unopened": "§10.3(3)",
            "board": "§10.10",
        },
    )


REMMI_DE = register(
    Variant(
        name="remmi_de",
        title='Romanian Rummy as described in German ("Remmi")',
        aliases=("remmi",),
        rules_section="§10",
        summary=(
            "106 tiles, 2-4 players, clockwise. The wall of 15 stacks with a face-up extra "
            "tile; the first player (dealer's left) has 15 tiles and starts by discarding. "
            "Draw, or take your predecessor's last discard (unopened: only to open with it). "
            "Open with 50 points including a Kunst and a Laufend (1 = 1 low, 14 high, 10 in "
            "a Kunst); then lay, attach anywhere and exchange jokers (a Kunst must then hold "
            "all four colours). Never more jokers than numbers. Finish by discarding your "
            "last tile. Losers pay their rack (1 = 1, joker 50); the lowest total wins. "
            "8B (board_variant): nobody lays out; finish with 14 tiles in formations."
        ),
        material=Material.TILES,
        min_players=2,
        max_players=4,
        default_players=4,
        meld_rules=MELD_RULES,
        option_type=RemmiDeOptions,
        pieces=Constant(TILES_106),
        opening_value=opening_value,
        score_value=rack_value,
        deal=DealFromOrder(build_wall),
        score_deal=score_deal,
        find_contract=find_contract,
        board_closes=board_closes,
        meld_rules_for=meld_rules_for,
        catalogue_meld_rules=WIDEST_MELD_RULES,
        opening_value_for=opening_value_for,
        score_value_for=score_value_for,
        play_rules=play_rules,
    )
)
