"""Continental Rummy, "Kontinentalni Remi" (RULES §7).

Nothing is laid during play: a player goes out by laying his whole hand at once
as one of three layouts of runs (:func:`find_layout`), and every opponent pays
him chips (:func:`score_deal`).  Deuces and jokers are wild.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, product
from typing import Literal

from rummykit.model.candidates import Candidate, counts_of
from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules, position_rank, run_order
from rummykit.model.pieces import (
    JOKER_KIND,
    RANKS_PER_SUIT,
    SUIT_COUNT,
    Face,
    PieceSet,
    kind_of,
    rank_of_kind,
    suit_kinds,
)
from rummykit.rules.cards import RecycleOptions, card_pack, deal_in_packets
from rummykit.rules.options import (
    OptionError,
    OptionKind,
    Options,
    option,
)
from rummykit.rules.variant import (
    Constant,
    DealFromOrder,
    DealLayout,
    Layout,
    PlayRules,
    SeatOutcome,
    Variant,
    register,
)

__all__ = [
    "CONTINENTAL",
    "HAND_SIZE",
    "PATTERNS",
    "deal",
    "find_layout",
    "meld_rules_for",
    "packs_for",
    "payment",
    "score_deal",
]

HAND_SIZE = 15
"""RULES §7.2: fifteen cards each, in five rounds of three."""

PATTERNS = ((3, 3, 3, 3, 3), (4, 4, 4, 3), (5, 4, 3, 3))
"""RULES §7.6: the three layouts of the 15 cards, as run sizes."""

DEUCE = 2

MELD_RULES = MeldRules(
    min_size=3,
    runs_allowed=True,
    sets_allowed=False,  # §7.4: sets do not exist in this game
    ace_low=True,
    ace_high=True,
    ace_both_ends=False,  # §7.4: the ace is high or low, not both; no wrap
    min_natural=1,  # a run needs a natural card to have a suit
    wild_ranks=frozenset({DEUCE}),  # §7.1: every 2 is wild
    wild_rank_natural=False,  # A-26 (i): the 2 has no place of its own, so A-3-4 is a run
)

ENGINE = OptionKind.ENGINE


def packs_for(players: int) -> int:
    """RULES §7.1: 2 packs for 2-5 players, 3 for 6-9, 4 for 10-12."""
    return 2 if players <= 5 else 3 if players <= 9 else 4


@dataclass(frozen=True, kw_only=True, eq=False)
class ContinentalOptions(RecycleOptions):
    """Continental Rummy's options (RULES §7)."""

    deuces_wild: bool = option(
        True, doc="§7.1: every 2 is wild; false: 2s are ordinary cards in the order A-2-3."
    )
    deuce_has_natural_position: bool = option(
        False,
        kind=ENGINE,
        doc="A-26: a wild 2 may also be itself in A-2-3; false: the order is A-3-4.",
    )
    starting_chips: int = option(
        20,
        minimum=1,
        maximum=100_000,
        doc="§7.8: each player's chips (or points) at the start of the match.",
    )
    payment_per_opponent: bool = option(
        True,
        kind=ENGINE,
        doc="A-27: each opponent pays the deuce and joker premiums; false: paid once.",
    )
    allow_go_out_before_first_draw: bool = option(
        True, doc="§7.6/A-28: a dealt layout may be laid on the first turn without draw or discard."
    )
    min_naturals_per_run: int = option(
        1,
        minimum=1,
        maximum=3,
        kind=ENGINE,
        doc="A-29: natural (non-wild) cards each run of a layout needs.",
    )
    cap_payment_at_balance: bool = option(
        False, kind=ENGINE, doc="A-30: a player pays at most what he has left (physical chips)."
    )
    dealer_rotation: Literal["next_player", "winner_deals"] = option(
        "next_player",
        choices=("next_player", "winner_deals"),
        kind=ENGINE,
        doc="A-32: the deal passes to the next player, or the winner deals.",
    )
    packs: int = option(
        packs_for,
        minimum=2,
        maximum=4,
        kind=ENGINE,
        doc="§7.1: packs (each with one joker) by table size: 2 to 5 players 2, to 9 3, else 4.",
    )
    match_deals: int | None = option(
        None,
        minimum=1,
        maximum=10_000,
        nullable=True,
        kind=ENGINE,
        doc="§7.9: null plays until someone has no chips; N also ends the match after N deals.",
    )


def check_options(players: int, options: Options) -> None:
    """The packs must hold the deal, the up-card and at least one card of stock."""
    opts = ContinentalOptions.of(options)
    packs = opts.packs
    needed = players * HAND_SIZE + 2
    if packs * 53 < needed:
        raise OptionError(
            f"option packs = {packs} is too few for {players} players "
            f"({packs * 53} cards, {needed} needed); use at least {packs_for(players)}"
        )


@cache
def pack(packs: int) -> PieceSet:
    """RULES §7.1: ``packs`` 52-card packs and one joker per pack."""
    return card_pack(packs, packs)


def pieces(options: Options) -> PieceSet:
    """The cards for these options."""
    opts = ContinentalOptions.of(options)
    return pack(opts.packs)


@cache
def _meld_rules(deuces_wild: bool, deuce_natural: bool, min_natural: int) -> MeldRules:
    return MeldRules(
        min_size=3,
        sets_allowed=False,
        ace_low=True,
        ace_high=True,
        ace_both_ends=False,
        min_natural=min_natural,
        wild_ranks=frozenset({DEUCE}) if deuces_wild else frozenset(),
        wild_rank_natural=deuce_natural,
    )


def meld_rules_for(options: Options) -> MeldRules:
    """RULES §7.4 under ``deuces_wild``, ``deuce_has_natural_position`` (A-26) and
    ``min_naturals_per_run`` (A-29)."""
    opts = ContinentalOptions.of(options)
    return _meld_rules(
        opts.deuces_wild,
        opts.deuce_has_natural_position,
        opts.min_naturals_per_run,
    )


def deal(order: Sequence[int], players: int, dealer: int, options: Options) -> DealLayout:
    """RULES §7.2: five rounds of three cards from the dealer's right; then the up-card."""
    first = (dealer + 1) % players
    return deal_in_packets(order, players, first, [3] * 5, upcard=True)


# ------------------------------------------------------------------ layouts

_Window = tuple[int, int, tuple[int, ...]]
"""(first slot, length, slots holding a natural card) of one run in a suit."""

_PARTIAL = frozenset(
    tuple(sorted(sub))
    for pattern in PATTERNS
    for k in range(len(pattern) + 1)
    for sub in combinations(pattern, k)
)
"""Every sorted sub-multiset of a pattern: the run sizes a partial layout may have."""


@lru_cache(maxsize=1 << 16)
def _suit_covers(
    have: tuple[int, ...], min_natural: int, budget: int
) -> dict[tuple[int, ...], tuple[_Window, ...]]:
    """Ways to lay every natural of one suit in runs of 3-5 cards with at most
    ``budget`` wild cards, by run sizes.

    ``have[j]`` counts the naturals at run slot ``j``.  The lowest natural left must
    sit in some run: try each run through it, with any choice of the later naturals
    it holds; the other places of the run take wild cards.
    """
    low = next((j for j, n in enumerate(have) if n), None)
    if low is None:
        return {(): ()}
    out: dict[tuple[int, ...], tuple[_Window, ...]] = {}
    for length in (3, 4, 5):
        for start in range(max(0, low - length + 1), low + 1):
            if start + length > len(have):
                continue
            later = [j for j in range(low + 1, start + length) if have[j]]
            for k in range(len(later) + 1):
                if length - 1 - k > budget:
                    continue  # too many wild places
                for chosen in combinations(later, k):
                    naturals = (low, *chosen)
                    if len(naturals) < min_natural:
                        continue
                    left = list(have)
                    for j in naturals:
                        left[j] -= 1
                    rest = _suit_covers(tuple(left), min_natural, budget - (length - 1 - k))
                    for sizes, windows in rest.items():
                        key = tuple(sorted((*sizes, length)))
                        if key in _PARTIAL and key not in out:
                            out[key] = (*windows, (start, length, naturals))
    return out


@lru_cache(maxsize=1 << 16)
def _suit_options(
    row: tuple[int, ...], order: tuple[int, ...], min_natural: int, budget: int
) -> dict[tuple[int, ...], tuple[_Window, ...]]:
    """:func:`_suit_covers` of one suit's 13 rank counts, each ace low or high."""
    out: dict[tuple[int, ...], tuple[_Window, ...]] = {}
    for have in _ace_splits(row, order):
        for sizes, windows in _suit_covers(have, min_natural, budget).items():
            out.setdefault(sizes, windows)
    return out


def find_layout(faces: Sequence[Face], options: Options) -> Layout | None:
    """RULES §7.6: the layout the 15 cards ``faces`` form (None: they form none).

    The check is exact: every way of using the wild cards, of placing each ace
    low or high and (A-26 (ii)) of letting a 2 be itself is considered.
    """
    if len(faces) != HAND_SIZE:
        return None
    check = _layout_check(options)
    if check.too_few_wild(faces):
        return None
    return _layout(counts_of([f.kind for f in faces]), check.rules)


def layout_discards(faces: Sequence[Face], options: Options) -> frozenset[Face]:
    """RULES §7.6: the cards of the hand ``faces`` (one card over a layout's 15) whose
    discard leaves a layout: the same answer as :func:`find_layout` asked once per
    card, from one count vector and one packed hand instead of a hand per card."""
    if len(faces) != HAND_SIZE + 1:
        return frozenset()
    check = _layout_check(options)
    nibbles = check.nibbles
    kinds = [f.kind for f in faces]
    by_kind = {f.kind: f for f in faces}
    open_kinds = check.open_discards(sum(map(nibbles.__getitem__, kinds)), by_kind)
    if not open_kinds:
        return frozenset()  # nearly every turn: every discard is refuted
    counts = list(counts_of(kinds))
    found: set[Face] = set()
    for kind in open_kinds:
        counts[kind] -= 1
        if _layout(tuple(counts), check.rules) is not None:
            found.add(by_kind[kind])
        counts[kind] += 1
    return frozenset(found)


_SUIT_BITS = SUIT_COUNT * RANKS_PER_SUIT
_SUIT_MASK = (1 << _SUIT_BITS) - 1
_WILD_SHIFT = 4 * JOKER_KIND
_WILD_NEEDS_LIMIT = 1 << 16
"""Entries of one rule set's memo of wild cards needed before it starts afresh."""


class _LayoutCheck:
    """A quick refutation of layouts under one set of meld options (see :meth:`too_few_wild`)."""

    __slots__ = ("needs", "nibbles", "refutable", "rules")

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        deuces_wild = bool(rules.wild_ranks)
        # A hand packs into one int, 4 bits a kind (15 cards hold < 16 of any); the wild
        # cards (jokers and, when wild, the 2s: §7.1) all count in the joker's field.
        self.nibbles = tuple(
            1
            << (
                _WILD_SHIFT
                if k == JOKER_KIND or (deuces_wild and rank_of_kind(k) == DEUCE)
                else 4 * k
            )
            for k in range(JOKER_KIND + 1)
        )
        # A-26 (ii): where a 2 may also be itself the wild cards are not fixed.
        self.refutable = not (rules.wild_rank_natural and deuces_wild)
        self.needs: dict[int, tuple[int, int]] = {}
        """A suit's packed naturals -> (the wild budget searched with, the fewest wild
        cards its runs can use within it, or that budget + 1): see :meth:`need`."""

    def too_few_wild(self, faces: Sequence[Face]) -> bool:
        """True if the 15 cards ``faces`` cannot form a layout for want of wild cards.

        A layout lays all 15 cards, so its runs take every wild card: each suit's runs
        (:func:`_suit_options`) use some, and together exactly the hand's.  If the
        fewest each suit can make do with already add up to more, :func:`_layout` would
        find nothing.  Most hands are refuted here by a memo look-up per suit, where the
        full search builds a count vector and looks up four 13-tuples before combining
        the suits, and the engine asks about every discard on every turn (§7.6).
        """
        if not self.refutable:
            return False
        nibbles = self.nibbles
        return self.too_few_wild_packed(sum([nibbles[f.kind] for f in faces]))

    def too_few_wild_packed(self, code: int) -> bool:
        """:meth:`too_few_wild` of a hand packed as the sum of its :attr:`nibbles`."""
        if not self.refutable:
            return False
        wild = code >> _WILD_SHIFT
        used = 0
        for shift in _SUIT_SHIFTS:
            used += self.need((code >> shift) & _SUIT_MASK, wild)
            if used > wild:
                return True
        return False

    def open_discards(self, code: int, kinds: Iterable[int]) -> list[int]:
        """The ``kinds`` whose discard from the 16 cards packed as ``code`` leaves 15
        that :meth:`too_few_wild_packed` does not refute, in the order given.

        A discard changes one suit's row (or, a wild card, the wild count), so each
        suit's need is looked up once for the whole hand and once per card of it.
        """
        if not self.refutable:
            return list(kinds)
        nibbles = self.nibbles
        need = self.need
        wild = code >> _WILD_SHIFT
        rows = [(code >> shift) & _SUIT_MASK for shift in _SUIT_SHIFTS]
        full = [need(row, wild) for row in rows]
        total = sum(full)
        needs = self.needs
        out: list[int] = []
        for kind in kinds:
            nibble = nibbles[kind]
            if nibble == _WILD_NIBBLE:
                if sum([need(row, wild - 1) for row in rows]) <= wild - 1:
                    out.append(kind)
                continue
            suit = kind // RANKS_PER_SUIT
            others = total - full[suit]
            if others > wild:
                continue  # the other suits alone need more wild cards than are held
            row = rows[suit] - (nibble >> _SUIT_SHIFTS[suit])
            entry = needs.get(row)  # need(row, wild), its usual case inline
            if entry is not None and (entry[1] <= entry[0] or wild <= entry[0]):
                found = entry[1]
            else:
                found = need(row, wild)
            if others + found <= wild:
                out.append(kind)
        return out

    def need(self, row: int, wild: int) -> int:
        """The fewest wild cards the suit's naturals ``row`` (packed 4 bits a rank) need
        as part of a layout when ``wild`` are held (:func:`_fewest_wild`); any answer
        above ``wild`` only says "more than ``wild``".

        The memo is keyed by the row alone: it keeps the budget ``b`` the row was
        searched with and the answer ``r``.  ``r <= b`` is the row's true minimum under
        any budget (a larger budget only adds options using more wild cards); ``r = b+1``
        says "more than ``b``", final for any ``wild <= b``.
        """
        entry = self.needs.get(row)
        if entry is not None:
            searched, found = entry
            if found <= searched or wild <= searched:
                return found
        needs = self.needs
        if len(needs) >= _WILD_NEEDS_LIMIT:
            needs.clear()
        found = _fewest_wild(row, wild, self.rules)
        needs[row] = (wild, found)
        return found


_SUIT_SHIFTS = (0, _SUIT_BITS, 2 * _SUIT_BITS, 3 * _SUIT_BITS)
_WILD_NIBBLE = 1 << _WILD_SHIFT


def _layout_check(options: Options) -> _LayoutCheck:
    """The layout check under ``options`` (the options :func:`meld_rules_for` reads)."""
    opts = ContinentalOptions.of(options)
    return _layout_check_of(
        opts.deuces_wild,
        opts.deuce_has_natural_position,
        opts.min_naturals_per_run,
    )


@cache
def _layout_check_of(deuces_wild: bool, deuce_natural: bool, min_natural: int) -> _LayoutCheck:
    return _LayoutCheck(_meld_rules(deuces_wild, deuce_natural, min_natural))


def _fewest_wild(row: int, wild: int, rules: MeldRules) -> int:
    """The fewest of ``wild`` wild cards with which runs lay the suit's naturals ``row``
    (packed 4 bits a rank) as part of a layout; ``wild + 1`` if none will do.

    The same answer as the least ``sum(sizes) - naturals`` over :func:`_suit_options`'
    run sizes, from :func:`_cover_sizes`' bit sets of those sizes (no windows kept).
    """
    counts = tuple((row >> 4 * r) & 15 for r in range(13))
    reach = 0
    for have in _ace_splits(counts, run_order(rules)):
        reach |= _cover_sizes(have, rules.min_natural, wild)
    if reach:
        naturals = sum(counts)
        for code, total in _SIZE_TOTALS:  # fewest cards in runs first
            if reach >> code & 1:
                return total - naturals  # runs of total size S through n naturals: S - n wild
    return wild + 1


def _ace_splits(row: tuple[int, ...], order: tuple[int, ...]) -> list[tuple[int, ...]]:
    """:func:`_suit_options`' slot counts of one suit's 13 rank counts, one per way of
    placing its aces low or high."""
    base = [row[position_rank(p) - 1] if position_rank(p) != 1 else 0 for p in order]
    aces = row[0]
    if not aces:
        return [tuple(base)]
    slot_of = {p: j for j, p in enumerate(order)}
    ends = [slot_of[p] for p in (1, HIGH_ACE) if p in slot_of]
    splits = []
    for low in range(aces + 1) if len(ends) == 2 else [aces] if ends else []:
        split = base[:]
        split[ends[0]] += low
        split[ends[-1]] += aces - low
        splits.append(tuple(split))
    return splits


def _size_code(sizes: Sequence[int]) -> int:
    """A multiset of run sizes 3-5 as a bit index: 1 per 3, 8 per 4, 64 per 5."""
    return sum(_SIZE_STEP[size] for size in sizes)


_SIZE_STEP = {3: 1, 4: 8, 5: 64}
_PARTIAL_MASK = sum(1 << _size_code(sizes) for sizes in _PARTIAL)
"""Bit :func:`_size_code` of every partial layout's run sizes (at most five 3s, three
4s and one 5: adding a run never carries into the next count)."""
_SIZE_TOTALS = sorted(((_size_code(sizes), sum(sizes)) for sizes in _PARTIAL), key=lambda t: t[1])


@lru_cache(maxsize=1 << 16)
def _cover_sizes(have: tuple[int, ...], min_natural: int, budget: int) -> int:
    """The run sizes of :func:`_suit_covers`, as a bit set of :func:`_size_code` s.

    The same search without the windows: adding a run of size ``s`` to every size
    multiset of the rest is one shift of the bit set, and the partial layouts one mask.
    """
    low = next((j for j, n in enumerate(have) if n), None)
    if low is None:
        return 1  # the empty multiset
    out = 0
    slots = len(have)
    for length in (3, 4, 5):
        step = _SIZE_STEP[length]
        for start in range(max(0, low - length + 1), low + 1):
            if start + length > slots:
                continue
            later = [j for j in range(low + 1, start + length) if have[j]]
            for k in range(len(later) + 1):
                wild = length - 1 - k
                if wild > budget or k + 1 < min_natural:
                    continue
                for chosen in combinations(later, k):
                    left = list(have)
                    left[low] -= 1
                    for j in chosen:
                        left[j] -= 1
                    out |= _cover_sizes(tuple(left), min_natural, budget - wild) << step
    return out & _PARTIAL_MASK


@lru_cache(maxsize=1 << 16)
def _layout(counts: tuple[int, ...], rules: MeldRules) -> Layout | None:
    order = run_order(rules)
    deuces = [kind_of(s, DEUCE) for s in range(SUIT_COUNT)] if rules.wild_ranks else []
    flexible = rules.wild_rank_natural and bool(rules.wild_ranks)
    # A-26 (ii): each 2 may be natural in its own suit; choose how many per suit are.
    natural_deuces = product(*(range(counts[k] + 1) for k in deuces)) if flexible else [()]
    for kept in natural_deuces:
        rows = []
        for suit in range(4):
            row = list(counts[suit_kinds(suit)])
            if deuces:
                row[DEUCE - 1] = kept[suit] if flexible else 0
            rows.append(tuple(row))
        wild = HAND_SIZE - sum(map(sum, rows))
        found = _combine(rows, order, rules.min_natural, wild)
        if found is not None:
            return _build(found, counts, kept, deuces, order)
    return None


def _combine(
    rows: list[tuple[int, ...]], order: tuple[int, ...], min_natural: int, wild: int
) -> list[tuple[int, _Window]] | None:
    """Runs for all four suits whose sizes make a pattern with ``wild`` wild cards."""
    per_suit = []
    for row in rows:
        options = _suit_options(row, order, min_natural, wild)
        if not options:
            return None  # some natural fits no run
        per_suit.append(options)
    # Run sizes reachable suit by suit (the wild cards used follow from the sizes).
    reach: list[dict[tuple[int, ...], tuple[int, ...]]] = [{(): ()}]
    for options in per_suit:
        step: dict[tuple[int, ...], tuple[int, ...]] = {}
        for sizes in reach[-1]:
            for more in options:
                key = tuple(sorted(sizes + more))
                if key in _PARTIAL and key not in step:
                    step[key] = more
        if not step:
            return None
        reach.append(step)
    final = next((p for p in reach[-1] if p in _PATTERNS_SORTED), None)
    if final is None:
        return None
    runs: list[tuple[int, _Window]] = []
    sizes = final
    for suit in range(3, -1, -1):
        more = reach[suit + 1][sizes]
        runs += [(suit, w) for w in per_suit[suit][more]]
        left = list(sizes)
        for x in more:
            left.remove(x)
        sizes = tuple(left)
    return runs


_PATTERNS_SORTED = frozenset(tuple(sorted(p)) for p in PATTERNS)


def _build(
    runs: list[tuple[int, _Window]],
    counts: tuple[int, ...],
    kept: tuple[int, ...],
    deuces: list[int],
    order: tuple[int, ...],
) -> Layout:
    """The layout of ``runs``, giving each wild place a concrete wild card."""
    natural_deuces = set()
    wild: list[int] = []
    for suit, k in enumerate(deuces):
        n_natural = kept[suit] if kept else 0
        if n_natural:
            natural_deuces.add(k)
        wild += [k] * (counts[k] - n_natural)
    wild += [JOKER_KIND] * counts[JOKER_KIND]
    melds = []
    for suit, (start, length, naturals) in runs:
        positions = order[start : start + length]
        kinds = tuple(
            kind_of(suit, position_rank(p)) if j in naturals else wild.pop()
            for j, p in zip(range(start, start + length), positions, strict=True)
        )
        need: dict[int, int] = {}
        for k in kinds:
            need[k] = need.get(k, 0) + 1
        melds.append(Candidate(MeldKind.RUN, suit, positions, kinds, tuple(sorted(need.items()))))
    melds.sort(key=lambda c: (-len(c.kinds), c.suit, c.positions))
    return Layout(tuple(len(c.kinds) for c in melds), tuple(melds))


# ------------------------------------------------------------------ settlement


def payment(outcome: SeatOutcome, options: Options) -> tuple[int, int]:
    """RULES §7.8: (what each opponent pays, premium paid once by nobody in particular).

    Per opponent ``1 + 10 (no wild card) + 7 (out on the first turn, after drawing)
    + 10 (out before the first draw)``, plus ``D + 2J`` for the 2s and jokers laid
    out: per opponent by default (A-27), else once in total.
    """
    opts = ContinentalOptions.of(options)
    deuces_wild = opts.deuces_wild
    deuces = sum(1 for f in outcome.laid if deuces_wild and f.rank == DEUCE)
    jokers = sum(1 for f in outcome.laid if f.is_joker)
    each = 1
    if deuces + jokers == 0:
        each += 10
    if outcome.before_draw:
        each += 10
    elif outcome.first_turn:
        each += 7
    premium = deuces + 2 * jokers
    if opts.payment_per_opponent:
        return each + premium, 0
    return each, premium


def starting_total(options: Options) -> int:
    """Every seat starts the match with ``starting_chips`` (§7.8)."""
    opts = ContinentalOptions.of(options)
    return opts.starting_chips


def score_deal(
    outcomes: Sequence[SeatOutcome], double_game: bool, closing: Face | None, options: Options
) -> tuple[int, ...]:
    """RULES §7.8: every opponent pays the winner; A-30: capped at the payer's chips."""
    opts = ContinentalOptions.of(options)
    winner = next((i for i, o in enumerate(outcomes) if o.closed), None)
    scores = [0] * len(outcomes)
    if winner is None:
        return tuple(scores)
    each, once = payment(outcomes[winner], options)
    for seat, o in enumerate(outcomes):
        if seat == winner:
            continue
        paid = min(each, max(o.balance, 0)) if opts.cap_payment_at_balance else each
        scores[seat] = -paid
        scores[winner] += paid
    scores[winner] += once
    return tuple(scores)


def match_over(totals: Sequence[int], deals: int, options: Options) -> bool:
    """RULES §7.9/A-30: the match ends once a player has no chips left (or, with
    ``match_deals``, after that many deals: simulations need an end)."""
    opts = ContinentalOptions.of(options)
    limit = opts.match_deals
    return min(totals) <= 0 or (limit is not None and deals >= int(limit))


def deals_in_match(options: Options) -> int | None:
    """§7.9: a match has a fixed length only when ``match_deals`` is set."""
    return ContinentalOptions.of(options).match_deals


def play_rules(options: Options) -> PlayRules:
    """RULES §7.3-§7.7."""
    opts = ContinentalOptions.of(options)
    return PlayRules(
        discard_taken_allowed=opts.allow_discard_of_taken_discard,
        recycle_stock=True,  # §7.7/A-04: the shared rule of §2.4
        recycle_limit=opts.max_stock_recycles,
        recycle_shuffle=opts.recycle_shuffle,
        table_melds=False,  # §7.3: nothing is laid until a player goes out
        extensions=("layout",),  # §7.6: going out with the whole hand laid out
        go_out_before_first_draw=opts.allow_go_out_before_first_draw,
        winner_deals=opts.dealer_rotation == "winner_deals",
        sections={
            "acquire": "§7.3",
            "meld": "§7.3",
            "table": "§7.3",
            "go_out": "§7.6",
            "deal_end": "§7.8",
        },
    )


CONTINENTAL = register(
    Variant(
        name="continental",
        title='Continental Rummy ("Kontinentalni Remi")',
        aliases=("kontinentalni", "kontinentalni-remi"),
        rules_section="§7",
        summary=(
            "2-12 players with 2-4 packs and one joker per pack; every 2 and every joker is "
            "wild. 15 cards each; draw the stock or the top discard, discard. Nothing is laid "
            "during play: go out by laying all 15 cards at once as runs only (5x3, 4-4-4-3 or "
            "5-4-3-3; A-3-4 is the lowest run) and discarding the 16th, or lay a dealt layout "
            "before drawing. Every opponent pays the winner chips: 1, +1 per 2, +2 per joker, "
            "+10 without wild cards, +7 out on the first turn, +10 before the first draw. "
            "Each starts with 20; the match ends when someone has none."
        ),
        material=pack(2).material,
        min_players=2,
        max_players=12,
        default_players=4,
        meld_rules=MELD_RULES,
        option_type=ContinentalOptions,
        pieces=pieces,
        # §7.5: there is no opening and no card values; a solver or bot ranks formations
        # by their length only.
        opening_value=Constant(1),
        score_value=Constant(0),
        deal=DealFromOrder(deal),
        score_deal=score_deal,
        play_rules=play_rules,
        match_over=match_over,
        deals_in_match=deals_in_match,
        meld_rules_for=meld_rules_for,
        find_layout=find_layout,
        layout_discards=layout_discards,
        melds_during_play=False,
        starting_total=starting_total,
        check_options=check_options,
    )
)
