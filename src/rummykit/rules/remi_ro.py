"""Romanian tile Rummy, "Remi etalat" / Rummy 45 (RULES §9), including board play (§9.13)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import Literal

from rummykit.model.candidates import candidates_with, counts_of
from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules, read_meld
from rummykit.model.pieces import (
    JOKER_KIND,
    RANKS_PER_SUIT,
    SUIT_COUNT,
    Face,
    Material,
    kind_of,
    rank_of_kind,
    suit_kinds,
    suit_of_kind,
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
    ScoringSettings,
    SeatOutcome,
    TakeUse,
    ThreeSettings,
    Variant,
    register,
)

__all__ = [
    "MELD_RULES",
    "REMI_RO",
    "TILES_106",
    "board_closes",
    "build_wall",
    "find_contract",
    "opening_value",
    "score_deal",
    "score_value",
    "stack_wall",
]

MELD_RULES = MeldRules(
    min_size=3,
    ace_low=True,
    ace_high=True,
    ace_both_ends=True,  # RULES §9.7 / A-64: the complete run 1-2-…-13-1 is legal
    set_distinct_suits=True,
    set_max_size=4,
    max_wild=None,  # no joker limit beyond one natural tile
    min_natural=1,
)

ENGINE = OptionKind.ENGINE


@dataclass(frozen=True, kw_only=True, eq=False)
class RemiRoOptions(VariantOptions):
    """Remi etalat's options (RULES §9)."""

    direction: Literal["counterclockwise", "clockwise"] = option(
        "counterclockwise",
        choices=("counterclockwise", "clockwise"),
        doc="§9.1/A-44: direction of play (RO counter-clockwise, BG clockwise).",
    )
    joker_indicator_count: int = option(
        14,
        minimum=1,
        maximum=15,
        kind=ENGINE,
        doc="§9.2/A-47: the stack counted to when the indicator is a joker.",
    )
    stack_deal_order: Literal["round_robin", "pairs"] = option(
        "round_robin",
        choices=("round_robin", "pairs"),
        kind=ENGINE,
        doc="§9.3/A-65: stacks handed out one at a time, or two at a time.",
    )
    doubles_swap_enabled: bool = option(
        True, doc="§9.4: players holding doubles may swap one tile of each, face down."
    )
    doubles_swap_same_category_only: bool = option(
        True, kind=ENGINE, doc="A-49: a swap exchanges doubles of the same category only."
    )
    three_doubles_reshuffle: bool = option(
        True, doc="§9.4: a player dealt 3 doubles may have the game broken and redealt."
    )
    atu_bonus: int = option(
        50,
        minimum=0,
        maximum=1000,
        doc="§9.4/§9.12: bonus for announcing the indicator's twin (atu).",
    )
    atu_mandatory: bool = option(
        False, doc="§9.4: atu is announced automatically (BG) instead of optionally (RO)."
    )
    atu_on_joker_indicator: bool = option(
        True, kind=ENGINE, doc="A-48: with a joker indicator, the other joker's holder has atu."
    )
    opening_min_points: int = option(
        45, minimum=0, maximum=500, doc="§9.8: opening points the first laydown must reach."
    )
    opening_structure: Literal["run_or_ones_set", "run_and_set"] = option(
        "run_or_ones_set",
        choices=("run_or_ones_set", "run_and_set"),
        doc="§9.8/A-45/A-46: at least one run (or a lone set of 1s); BG: a run and a set.",
    )
    column_take_middle_requires_opened: bool = option(
        True, doc="§9.6(c)/A-50: a middle take needs a player opened before this turn (RO)."
    )
    column_take_middle_min_rack: int = option(
        4,
        minimum=1,
        maximum=15,
        doc="§9.6(c)/A-50: tiles on the rack needed before a middle take (RO 4, BG 1).",
    )
    column_take_allow_attach: bool = option(
        False,
        kind=ENGINE,
        doc="A-51: a taken column tile may satisfy its obligation by being attached.",
    )
    attach_on_opening_turn: bool = option(
        False, kind=ENGINE, doc="A-53: attaching is allowed in the turn of the opening."
    )
    joker_exchange_on_opening_turn: bool = option(
        True,
        kind=ENGINE,
        doc="A-55: an exchange may feed the opening formation in the opening turn.",
    )
    rack_max_after_turn: int = option(
        14,
        minimum=14,
        maximum=106,
        doc="§9.6/A-50: most tiles on a rack after the turn's discard (14 or more).",
    )
    three_tile_penalty: int = option(
        500, minimum=0, maximum=10000, doc="§9.11/A-56: penalty for not announcing three tiles."
    )
    three_tile_penalty_mode: Literal["replace", "add"] = option(
        "replace",
        choices=("replace", "add"),
        doc="A-56: the penalty replaces the deal score (RO) or is subtracted from it.",
    )
    unopened_penalty: int = option(
        100, minimum=0, maximum=10000, doc="§9.12: flat penalty of a player who never opened."
    )
    unopened_on_exhaustion: Literal["flat", "rack"] = option(
        "flat",
        choices=("flat", "rack"),
        kind=ENGINE,
        doc="A-58: at stock exhaustion the unopened pay the flat penalty, or their rack.",
    )
    closing_bonus: int = option(
        50, minimum=0, maximum=1000, doc="§9.12: bonus to the player who closes."
    )
    closing_with_1_or_joker_multiplier: int = option(
        2, minimum=1, maximum=10, doc="§9.11: multiplier for closing with a 1 or a joker."
    )
    double_game_multiplier: int = option(
        2,
        minimum=1,
        maximum=10,
        doc="§9.2: multiplier for every score when the indicator is a 1 or a joker.",
    )
    double_game_applies_to_penalties: bool = option(
        True, kind=ENGINE, doc="A-59: negative deal scores are multiplied in a double game too."
    )
    board_play_enabled: bool = option(
        True, doc="§9.13: play on the board (contracts) may be declared."
    )
    board_declare_within_turns: int = option(
        3,
        minimum=1,
        maximum=50,
        doc="§9.13/A-62: board play is declared within a player's first N turns.",
    )
    board_closing_bonus: bool = option(
        False, kind=ENGINE, doc="A-61: a board closer also receives the closing bonus."
    )
    mosaic_strict: bool = option(
        True, doc="§9.13: Mosaic also needs four colours first and two different 1s (RO)."
    )
    bicolor_definition: Literal[
        "two_single_colour_runs", "complete_run_two_colours", "runs_of_two_colours"
    ] = option(
        "two_single_colour_runs",
        choices=("two_single_colour_runs", "complete_run_two_colours", "runs_of_two_colours"),
        kind=ENGINE,
        doc="A-61: what the Bicolour contract requires.",
    )
    board_jokers_allowed: bool = option(
        True, kind=ENGINE, doc="A-61: jokers are wild in board contracts."
    )
    match_deals: int = option(
        per_player,
        minimum=1,
        maximum=1000,
        kind=ENGINE,
        doc="A-63: deals in a match (default: one per player as maker).",
    )
    target_score: int | None = option(
        None,
        minimum=1,
        maximum=1_000_000,
        nullable=True,
        kind=ENGINE,
        doc="A-63: the match ends once a player's total reaches this.",
    )


def opening_value(kind: MeldKind, position: int) -> int:
    """RULES §9.8 opening values: 2–9 → 5, 10–13 → 10, 1 low 5 / high 10 / in a set 25."""
    if kind is MeldKind.SET:
        return 25 if position == 1 else (10 if position >= 10 else 5)
    if position == 1:
        return 5
    return 10 if position >= 10 else 5


def score_value(face: Face) -> int:
    """RULES §9.12 scoring values: joker 50, 1 → 25, 10–13 → 10, 2–9 → 5."""
    if face.is_joker:
        return 50
    rank = face.rank
    return 25 if rank == 1 else (10 if rank >= 10 else 5)


def build_wall(order: Sequence[int], players: int, maker: int, options: Options) -> DealLayout:
    """Build the wall of 15 stacks and hand them out (RULES §9.2–9.3).

    ``order`` lists the 106 pieces: ``order[7*i : 7*i+7]`` is stack ``i+1``
    from bottom to top, and ``order[105]`` is the indicator.  Seats are in
    play order; the first player is the one on the maker's right.
    """
    opts = RemiRoOptions.of(options)
    counterclockwise = opts.direction == "counterclockwise"
    # §0.4/A-44: the maker's right neighbour is the next seat in play order when play
    # runs counter-clockwise, the previous one when it runs clockwise.
    first = (maker + 1) % players if counterclockwise else (maker - 1) % players
    wall = lay_wall(
        order,
        players,
        first,
        joker_count=opts.joker_indicator_count,
        pairs=opts.stack_deal_order == "pairs",
    )
    face = TILES_106.faces[wall.indicator]
    return DealLayout(
        racks=wall.racks,
        stock=wall.stock,
        first_seat=first,
        indicator=wall.indicator,
        double_game=face.is_joker or face.rank == 1,
        notes=(f"indicator {face}, stack {wall.count}",),
    )


def stack_wall(
    players: int,
    maker: int,
    options: Options,
    *,
    indicator: int,
    racks: Sequence[Sequence[int]],
    stock: Sequence[int] = (),
) -> list[int]:
    """The wall order that deals ``racks`` (in seat order) and draws ``stock`` first.

    The inverse of :func:`build_wall` (see :func:`rummykit.rules.tiles.stack_wall`):
    the first player's rack needs 15 pieces, the others 14.
    """
    return stack_tile_wall(
        lambda order: build_wall(order, players, maker, options),
        indicator=indicator,
        racks=racks,
        stock=stock,
    )


def score_deal(
    outcomes: Sequence[SeatOutcome],
    double_game: bool,
    closing_face: Face | None,
    options: Options,
) -> tuple[int, ...]:
    """Deal scores per RULES §9.12 (and §9.13 for a board closer)."""
    opts = RemiRoOptions.of(options)
    ended_by_close = any(o.closed for o in outcomes)
    scores: list[int] = []
    atu_bonus = opts.atu_bonus
    for o in outcomes:
        if o.closed and o.contract is not None:
            base = o.contract.value + atu_bonus * o.atu
            if opts.board_closing_bonus:
                base += opts.closing_bonus
        elif not o.opened:
            if not ended_by_close and opts.unopened_on_exhaustion == "rack":
                base = -o.rack_value + atu_bonus * o.atu
            else:
                base = -opts.unopened_penalty + atu_bonus * o.atu
        else:
            base = o.table_value - o.rack_value + atu_bonus * o.atu
            if o.closed:
                base += opts.closing_bonus
        if (
            o.closed
            and closing_face is not None
            and (closing_face.is_joker or closing_face.rank == 1)
        ):
            base *= opts.closing_with_1_or_joker_multiplier
        if double_game and (base >= 0 or opts.double_game_applies_to_penalties):
            base *= opts.double_game_multiplier
        if o.three_violation:
            # the penalty is flat and never multiplied.
            penalty = opts.three_tile_penalty
            base = -penalty if opts.three_tile_penalty_mode == "replace" else base - penalty
        scores.append(base)
    return tuple(scores)


# ---------------------------------------------------------------- board contracts
# Contract checks work on sorted face-kind tuples (0..51 naturals, 52 joker) because
# legal-move generation asks them for every possible discard of a board player.


def _complete_run_colourings(kinds: Sequence[int]) -> list[list[int]] | None:
    """Colours per run position 1..14 (-1 for a joker) if the kinds form 1-2-…-13-1.

    The run may mix colours (Mosaic); one list per way to place the 1s.
    """
    naturals = [k for k in kinds if k != JOKER_KIND]
    ranks = [rank_of_kind(k) for k in naturals]
    if (
        len(kinds) != 14
        or ranks.count(1) > 2
        or len(set(ranks)) != len(ranks) - max(0, ranks.count(1) - 1)
    ):
        return None
    base = [-1] * (HIGH_ACE + 1)
    aces = []
    for k in naturals:
        if rank_of_kind(k) == 1:
            aces.append(suit_of_kind(k))
        else:
            base[rank_of_kind(k)] = suit_of_kind(k)
    out: list[list[int]] = []
    for slots in permutations((1, HIGH_ACE), len(aces)):
        pos = base[:]
        for c, p in zip(aces, slots, strict=True):
            pos[p] = c
        out.append(pos[1:])
    return out


def _mosaic_ok(colours: list[int], strict: bool) -> bool:
    """Fill joker positions (-1) so no neighbours share a colour (and the RO extras)."""

    def fits(i: int, c: int, seq: list[int]) -> bool:
        if i > 0 and seq[i - 1] == c:
            return False
        if strict and i < 4 and c in seq[:i]:
            return False
        return not (strict and i == 13 and c == seq[0])

    def fill(i: int, seq: list[int]) -> bool:
        if i == 14:
            return True
        choices = [colours[i]] if colours[i] >= 0 else [0, 1, 2, 3]
        for c in choices:
            if fits(i, c, seq) and (i == 13 or colours[i + 1] != c):
                seq.append(c)
                if fill(i + 1, seq):
                    return True
                seq.pop()
        return False

    return fill(0, [])


def _single_colour_run(kinds: Sequence[int]) -> bool:
    faces = [Face.from_kind(Material.TILES, k) for k in kinds]
    return any(r.kind is MeldKind.RUN for r in read_meld(faces, MELD_RULES))


def _has_isolated_tile(counts: tuple[int, ...], runs_only: bool) -> bool:
    """A cheap refutation: some natural tile has no possible formation partners."""
    return bool(_isolated_kinds(counts, runs_only, 1))


@lru_cache(maxsize=16384)
def _row_mask(row: tuple[int, ...]) -> int:
    """Bit p set when the colour has a tile for run position p (the 1 at both 1 and 14)."""
    mask = 0
    for rank0, count in enumerate(row):
        if count:
            mask |= (1 << 1) | (1 << HIGH_ACE) if rank0 == 0 else 1 << (rank0 + 1)
    return mask


def _isolated_kinds(counts: tuple[int, ...], runs_only: bool, enough: int) -> list[int]:
    """Natural kinds with no possible formation partner (the search stops at ``enough``).

    Works on bit masks: bit p of a colour's row is set when that colour has a
    tile for run position p (1..14, the 1 sitting at both 1 and 14).
    """
    if counts[JOKER_KIND] >= 2:
        return []
    rows = [_row_mask(counts[s]) for s in _SUIT_SLICES]
    return _isolated_in_rows(rows, counts[JOKER_KIND], runs_only, enough)


def _isolated_in_rows(rows: list[int], jokers: int, runs_only: bool, enough: int) -> list[int]:
    """:func:`_isolated_kinds` of the colours' run-position masks ``rows`` (:func:`_row_mask`)."""
    found: list[int] = []
    if jokers >= 2:
        return found
    r0, r1, r2, r3 = rows
    if runs_only:
        set_ok = 0
    elif jokers:
        # One joker: a second tile of the number in another colour makes a set.
        set_ok = (r0 & r1) | (r0 & r2) | (r0 & r3) | (r1 & r2) | (r1 & r3) | (r2 & r3)
    else:
        set_ok = (r0 & r1 & r2) | (r0 & r1 & r3) | (r0 & r2 & r3) | (r1 & r2 & r3)
    for colour, row in enumerate(rows):
        if not row:
            continue
        if jokers:
            run_ok = (row << 1) | (row << 2) | (row >> 1) | (row >> 2)
        else:
            run_ok = (
                ((row << 1) & (row << 2)) | ((row << 1) & (row >> 1)) | ((row >> 1) & (row >> 2))
            )
        alone = row & ~(run_ok | set_ok)
        if not alone:
            continue
        found += alone_kinds(alone, kind_of(colour, 1))
        if len(found) >= enough:
            return found[:enough]
    return found


def _joker_cannot_hold(rows: list[int], naturals: Sequence[int]) -> bool:
    """With one joker in 15 tiles: whether no discard leaves 14 that split into formations
    because the tiles that only a formation with the joker can hold are too spread out.

    At most one formation holds the joker; every natural tile in no joker-free
    formation (no run of three held, no number in three colours) must be in it, but for
    the discard: those are one colour or one number.  ``rows`` are :func:`_row_mask`'s.
    """
    r0, r1, r2, r3 = rows
    in_three = (r0 & r1 & r2) | (r0 & r1 & r3) | (r0 & r2 & r3) | (r1 & r2 & r3)
    in_two = (r0 & r1) | (r0 & r2) | (r0 & r3) | (r1 & r2) | (r1 & r3) | (r2 & r3)
    natural_runs = []
    joker_runs = []
    for row in rows:
        starts = row & row >> 1 & row >> 2 & _RUN_STARTS
        natural_runs.append(starts | starts << 1 | starts << 2 | in_three)
        starts = ((row & row >> 1) | (row & row >> 2) | (row >> 1 & row >> 2)) & _RUN_STARTS
        joker_runs.append(starts | starts << 1 | starts << 2 | in_two)
    alone = 0
    helped: list[int] = []
    for kind in naturals:
        bit = _POSITION_BITS[kind]
        colour = kind // RANKS_PER_SUIT
        if natural_runs[colour] & bit:
            continue
        if joker_runs[colour] & bit:
            helped.append(kind)
        else:
            alone += 1
    return one_joker_refutes(helped, alone)


_RUN_STARTS = sum(1 << start for start in range(1, HIGH_ACE - 1))
"""The first positions of the runs of three on positions 1..14."""
_POSITION_BITS = tuple(
    (1 << 1 | 1 << HIGH_ACE) if rank_of_kind(k) == 1 else 1 << rank_of_kind(k)
    for k in range(JOKER_KIND)
)
"""Per natural kind, :func:`_row_mask`'s bits for one tile of it."""
_RANK_OF = tuple(rank_of_kind(k) for k in range(JOKER_KIND))
_SUIT_SLICES = tuple(suit_kinds(c) for c in range(SUIT_COUNT))


@lru_cache(maxsize=65536)
def _covers(counts: tuple[int, ...], runs_only: bool) -> bool:
    """Whether every piece counted can be split into formations (exact cover)."""
    if not any(counts):
        return True
    if _has_isolated_tile(counts, runs_only):
        return False
    first = next((k for k in range(52) if counts[k]), None)
    if first is None:
        return False  # only jokers left: a formation needs a natural tile
    for cand in candidates_with(counts, MELD_RULES, first):
        if runs_only and cand.kind is not MeldKind.RUN:
            continue
        rest = list(counts)
        for k, c in cand.need:
            rest[k] -= c
        if min(rest) >= 0 and _covers(tuple(rest), runs_only):
            return True
    return False


@lru_cache(maxsize=65536)
def _cover_skips(counts: tuple[int, ...], skip: bool) -> frozenset[int]:
    """Kinds that can be left out so that the rest splits into formations (``skip``),
    or ``{-1}`` when everything splits (not ``skip``); empty when impossible.

    One search answers "which discard leaves a cover?" for a 15-tile board rack.
    """
    if not any(counts):
        return frozenset() if skip else frozenset({-1})
    isolated = _isolated_kinds(counts, False, 2)
    if len(isolated) > int(skip):
        return frozenset()
    first = next((k for k in range(52) if counts[k]), None)
    if first is None:
        # Only jokers remain: a formation needs a natural tile.
        return frozenset({JOKER_KIND}) if skip and counts[JOKER_KIND] == 1 else frozenset()
    found: set[int] = set()
    if skip and (not isolated or isolated == [first]):
        rest = list(counts)
        rest[first] -= 1
        if _cover_skips(tuple(rest), False):
            found.add(first)
    for cand in candidates_with(counts, MELD_RULES, first):
        rest = list(counts)
        for k, c in cand.need:
            rest[k] -= c
        if min(rest) >= 0:
            found |= _cover_skips(tuple(rest), skip)
            if not skip and found:
                break
    return frozenset(found)


def _bete(kinds: Sequence[int]) -> bool:
    """2 sets of 4 + 2 sets of 3 (RULES §9.13); with two copies of every tile, two of
    the sets may share a number."""
    kinds.count(JOKER_KIND)
    by_rank: dict[int, list[int]] = {}
    for k in kinds:
        if k != JOKER_KIND:
            by_rank.setdefault(rank_of_kind(k), []).append(suit_of_kind(k))
    # For each number, the ways its tiles split into one or two sets of distinct colours,
    # as tuples of natural counts per set.
    splits: list[list[tuple[int, ...]]] = []
    for colours in by_rank.values():
        doubled = len(colours) - len(set(colours))
        single = len(set(colours)) - doubled
        ways: list[tuple[int, ...]] = []
        if doubled == 0:
            ways.append((len(colours),))
        ways += [
            (doubled + x, doubled + single - x)
            for x in range(single + 1)
            if doubled + x >= 1 and doubled + single - x >= 1
        ]
        splits.append(ways)

    def fits(chosen: list[int]) -> bool:
        sizes = sorted(chosen, reverse=True)
        return len(sizes) == 4 and all(n <= s for n, s in zip(sizes, (4, 4, 3, 3), strict=True))

    def search(i: int, chosen: list[int]) -> bool:
        if len(chosen) > 4:
            return False
        if i == len(splits):
            return fits(chosen)
        return any(search(i + 1, chosen + list(way)) for way in splits[i])

    return len(kinds) == 14 and search(0, [])


def _doubles(kinds: Sequence[int]) -> bool:
    jokers = kinds.count(JOKER_KIND)
    singles = sum(kinds.count(k) % 2 for k in set(kinds) if k != JOKER_KIND)
    return singles <= jokers and (jokers - singles) % 2 == 0


def _bicolour(kinds: Sequence[int], definition: str) -> bool:
    colours = {suit_of_kind(k) for k in kinds if k != JOKER_KIND}
    if len(colours) != 2:
        return False
    if definition == "complete_run_two_colours":
        return _complete_run_colourings(kinds) is not None
    if definition == "runs_of_two_colours":
        return _covers(counts_of(list(kinds)), True)
    jokers = kinds.count(JOKER_KIND)
    c1, c2 = sorted(colours)
    first = [k for k in kinds if k != JOKER_KIND and suit_of_kind(k) == c1]
    second = [k for k in kinds if k != JOKER_KIND and suit_of_kind(k) == c2]
    return any(
        _single_colour_run(first + [JOKER_KIND] * j)
        and _single_colour_run(second + [JOKER_KIND] * (jokers - j))
        for j in range(jokers + 1)
    )


def find_contract(faces: Sequence[Face], options: Options) -> Contract | None:
    """The highest-valued board contract the 14 faces form (RULES §9.13), or None."""
    opts = RemiRoOptions.of(options)
    if len(faces) != 14:
        return None
    found = contract_of(
        tuple(sorted(f.kind for f in faces)),
        opts.board_jokers_allowed,
        opts.mosaic_strict,
        str(opts.bicolor_definition),
    )
    if found is None:
        return None
    name, value = found
    return Contract(name, value, (tuple(sorted(faces)),))


def board_closes(faces: Sequence[Face], options: Options) -> dict[Face, Contract]:
    """Each face a board player holding ``faces`` (15) can discard to close, with the contract."""
    opts = RemiRoOptions.of(options)
    if len(faces) != 15:
        return {}
    key = tuple(sorted(f.kind for f in faces))
    found = _closing_kinds(
        key,
        opts.board_jokers_allowed,
        opts.mosaic_strict,
        str(opts.bicolor_definition),
    )
    out: dict[Face, Contract] = {}
    for kind, (name, value) in found:
        face = next(f for f in faces if f.kind == kind)
        rest = list(faces)
        rest.remove(face)
        out[face] = Contract(name, value, (tuple(sorted(rest)),))
    return out


@lru_cache(maxsize=16384)
def _closing_kinds(
    kinds: tuple[int, ...], jokers_allowed: bool, mosaic_strict: bool, bicolour: str
) -> tuple[tuple[int, tuple[str, int]], ...]:
    """(discarded kind, contract) for every discard from 15 kinds that leaves a contract."""
    if not jokers_allowed and JOKER_KIND in kinds:
        return ()
    # Cheap tests on all 15 tiles rule out whole families before any discard is tried.
    jokers = kinds.count(JOKER_KIND)
    naturals = kinds[: len(kinds) - jokers]  # sorted: the jokers (52) come last
    by_rank = [0] * 14  # by_rank[r]: naturals of number r
    rows = [0, 0, 0, 0]  # each colour's run positions held (_row_mask)
    odd = 0  # bit k: kind k held an odd number of times
    for k in naturals:
        by_rank[_RANK_OF[k]] += 1
        rows[k // RANKS_PER_SUIT] |= _POSITION_BITS[k]
        odd ^= 1 << k
    # A complete run holds each number once, the 1 twice (at both ends).
    excess = sum(
        n - (2 if r == 1 else 1) for r, n in enumerate(by_rank) if n > (2 if r == 1 else 1)
    )
    complete_run = excess <= 1  # Monocolour, Mosaic (and one Bicolour reading)
    singles = odd.bit_count()  # kinds held an odd number of times
    doubles = singles - 1 <= jokers
    bete = 14 - by_rank.count(0) <= 5
    # Cover contracts (Simple, Bicolour) need the other 14 to split into formations;
    # one search finds every discard that allows it.  Two tiles with no possible
    # partner rule it out at once (its own first test, here without a count vector).
    if len(_isolated_in_rows(rows, jokers, False, 2)) > 1 or (
        jokers == 1 and _joker_cannot_hold(rows, naturals)
    ):
        covers: frozenset[int] = frozenset()
    else:
        covers = _cover_skips(counts_of(list(kinds)), True)
    if not (complete_run or doubles or bete or covers):
        return ()
    out = []
    for kind in sorted(set(kinds)):
        rest = list(kinds)
        rest.remove(kind)
        cover = kind in covers
        found = contract_of(
            tuple(rest),
            jokers_allowed,
            mosaic_strict,
            bicolour,
            families=(complete_run, doubles, bete, cover),
        )
        if found is not None:
            out.append((kind, found))
    return tuple(out)


@lru_cache(maxsize=65536)
def contract_of(
    kinds: tuple[int, ...],
    jokers_allowed: bool,
    mosaic_strict: bool,
    bicolour: str,
    families: tuple[bool, bool, bool, bool] | None = None,
) -> tuple[str, int] | None:
    """(name, value) of the best contract of 14 sorted face kinds, or None.

    ``families``, when given, says which contract families are still possible:
    (complete 1..1 runs, Doubles, Bete, covers by formations); a True for covers
    means the caller has already found that the 14 split into formations.
    """
    complete_run, doubles, bete, cover = families or (True, True, True, True)
    if not jokers_allowed and JOKER_KIND in kinds:
        return None
    colourings = _complete_run_colourings(kinds) if complete_run else None
    natural_colours = {suit_of_kind(k) for k in kinds if k != JOKER_KIND}
    if colourings is not None and len(natural_colours) == 1:
        return "monocolour", 1500
    if doubles and _doubles(kinds):
        return "doubles", 1300
    bicolour_family = complete_run if bicolour == "complete_run_two_colours" else cover
    if bicolour_family and _bicolour(kinds, bicolour):
        return "bicolour", 1200
    if colourings is not None and any(_mosaic_ok(c, mosaic_strict) for c in colourings):
        return "mosaic", 1000
    if bete and _bete(kinds):
        return "bete", 700
    if cover and (families is not None or _covers(counts_of(list(kinds)), False)):
        return "simple", 500
    return None


def play_rules(options: Options) -> PlayRules:
    """The turn structure of RULES §9.5-§9.13 under these options."""
    opts = RemiRoOptions.of(options)
    board = opts.board_play_enabled
    return PlayRules(
        # §9.4 announcements, §9.11 "three", §9.13 board play (with the option off, the
        # extension stays to say why "board" is refused).
        extensions=("preplay", "three", "board"),
        settings=(
            PrePlaySettings(
                swaps=opts.doubles_swap_enabled,
                swap_same_category=opts.doubles_swap_same_category_only,
                reshuffle=opts.three_doubles_reshuffle,
                atu_mandatory=opts.atu_mandatory,
                atu_on_joker=opts.atu_on_joker_indicator,
            ),
            ThreeSettings(penalty=opts.three_tile_penalty),
            ScoringSettings(
                closing_bonus=opts.closing_bonus,
                double_game_multiplier=opts.double_game_multiplier,
                special_close_multiplier=opts.closing_with_1_or_joker_multiplier,
            ),
            BoardSettings(
                declare_window=opts.board_declare_within_turns,
                beaten_penalty=opts.unopened_penalty,
            ),
        ),
        first_turn_draws=False,
        first_turn_may_meld=False,
        first_round_restricted=True,
        first_discard_dead=True,
        take_any_column_tile=True,
        draw_only_rack=2,
        last_take_only_rack=3,
        middle_take_needs_opened=opts.column_take_middle_requires_opened,
        middle_take_min_rack=opts.column_take_middle_min_rack,
        taken_piece_may_attach=opts.column_take_allow_attach,
        rack_max_after_turn=opts.rack_max_after_turn,
        clockwise=opts.direction == "clockwise",
        take_use=TakeUse.NEW_FORMATION,
        recycle_stock=False,
        layoff_before_opening=False,
        layoff_on_opening_turn=opts.attach_on_opening_turn,
        go_out_without_discard=False,
        board_play=board,
        joker_layoff_own_only=True,
        joker_exchange=True,
        exchange_needs_opened_before=not opts.joker_exchange_on_opening_turn,
        exchange_needs_opened_by_end=True,
        exchanged_joker_locked=True,
        exchange_set_needs_all_suits=True,
        exchanged_joker_use="formation",
        opening_min_points=opts.opening_min_points,
        opening_structure=OpeningStructure(str(opts.opening_structure)),
        sections={
            "first_turn": "§9.5",
            "acquire": "§9.6(1)",
            "take_use": "§9.6(b)/(c)",
            "opening": "§9.8",
            "exchange_use": "§9.10",
            "exchange_opened": "§9.10/A-55",
            "meld": "§9.7",
            "attach": "§9.6(2)",
            "attach_opening": "§9.6(2)/A-53",
            "exchange": "§9.10",
            "exchange_set": "§9.10",
            "keep_discard": "§9.6/§9.11",
            "deal_end": "§9.12",
            "layoff_unopened": "§9.6(2)",
        },
    )


def match_over(totals: Sequence[int], deals: int, options: Options) -> bool:
    """A-63: after ``match_deals`` deals, or once a total reaches ``target_score``."""
    opts = RemiRoOptions.of(options)
    target = opts.target_score
    return deals >= opts.match_deals or (target is not None and max(totals) >= int(target))


REMI_RO = register(
    Variant(
        name="remi_ro",
        title='Romanian tile Rummy ("Remi etalat" / Rummy 45)',
        aliases=("remi", "rummy45", "remi-etalat", "remi_etalat"),
        rules_section="§9",
        summary=(
            "106 tiles, 2-4 players. A wall of 15 stacks and a face-up indicator; its twin is "
            "atu (+50), a 1 or joker makes a double game. The first player has 15 tiles and "
            "only discards in round 1. Draw, or take the last column tile (or, once opened, a "
            "middle one with everything after it) and lay it in a new formation this turn. "
            "Open with 45 points including a run (or a lone set of 1s); then lay, attach and "
            "exchange jokers. Announce 'three' at 3 tiles or lose 500. Close by discarding "
            "your last tile; positive scoring: laid minus rack, +50 closing, ×2 for a 1/joker "
            "close and in double games. Board play: declare in your first 3 turns and close "
            "with a 14-tile contract (500-1500)."
        ),
        material=Material.TILES,
        min_players=2,
        max_players=4,
        default_players=4,
        meld_rules=MELD_RULES,
        option_type=RemiRoOptions,
        pieces=Constant(TILES_106),
        opening_value=opening_value,
        score_value=score_value,
        deal=DealFromOrder(build_wall),
        score_deal=score_deal,
        find_contract=find_contract,
        board_closes=board_closes,
        play_rules=play_rules,
        match_over=match_over,
        extra={"JOKER_KIND": JOKER_KIND},
    )
)
