"""Vienna / Rauber Rummy, "Bečki Remi" (RULES §6).

Nothing is laid on the table during play: a turn is a draw and a discard, or the
"Remi!" call that stops the deal.  Every hand is then shown in its
least-deadwood arrangement (A-24), which :func:`arrange` computes exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

from rummykit.model.arrange import best_packing
from rummykit.model.candidates import Candidate, candidates, counts_of
from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules, position_rank
from rummykit.model.pieces import (
    JOKER_KIND,
    RANKS_PER_SUIT,
    SUIT_COUNT,
    Face,
    Material,
    PieceSet,
    kind_of,
    rank_of_kind,
    suit_of_kind,
)
from rummykit.rules.cards import RecycleOptions, card_pack, deal_in_packets
from rummykit.rules.options import OptionKind, Options, option
from rummykit.rules.variant import (
    CallSettings,
    DealFromOrder,
    DealLayout,
    PlayRules,
    SeatOutcome,
    ShownHand,
    TakeUse,
    Variant,
    register,
)

__all__ = [
    "CARDS_PER_PLAYER",
    "JOKER_VALUE",
    "VALUES",
    "VIENNA",
    "arrange",
    "closing_discards",
    "deal",
    "meld_rules_for",
    "score_deal",
]

CARDS_PER_PLAYER = 10
"""RULES §6.2: every player is dealt 10 cards."""

VALUES = {1: 11, **{r: r for r in range(2, 11)}, 11: 10, 12: 10, 13: 10}
"""RULES §6.8: A = 11, K/Q/J = 10, 2-10 face value."""
JOKER_VALUE = 25
"""RULES §6.8: a joker left unmatched counts 25."""

_KIND_VALUES = (*(VALUES[rank_of_kind(k)] for k in range(JOKER_KIND)), JOKER_VALUE)
"""Deadwood value of each face kind (index 52: the joker)."""

ENGINE = OptionKind.ENGINE


@dataclass(frozen=True, kw_only=True, eq=False)
class ViennaOptions(RecycleOptions):
    """Vienna Rummy's options (RULES §6)."""

    joker_count: int = option(4, minimum=0, maximum=8, doc="§6.1: jokers added to the two packs.")
    max_jokers_per_meld: int = option(
        1, minimum=0, maximum=4, doc="§6.4: jokers one meld may hold (runs and sets alike)."
    )
    set_distinct_suits: bool = option(
        False, doc="§6.4: each suit at most once in a set (by default suits may repeat)."
    )
    caller_failure_penalty: int = option(
        -20, minimum=-1000, maximum=0, doc="§6.8: what a caller who is not strictly lowest records."
    )
    non_caller_winner_bonus: int = option(
        10,
        minimum=0,
        maximum=1000,
        doc="§6.8: bonus for the non-caller who wins when the caller fails.",
    )
    close_discard_any_card: bool = option(
        True,
        kind=ENGINE,
        doc="§6.6/A-21: any card may be the face-down closing card (else only the one drawn).",
    )
    tie_winner_rule: Literal["first_after_caller", "all_tied_win"] = option(
        "first_after_caller",
        choices=("first_after_caller", "all_tied_win"),
        kind=ENGINE,
        doc="§6.8/A-22: tied lowest non-callers: the first after the caller wins, or all do.",
    )
    auto_arrange_deadwood: bool = option(
        True,
        kind=ENGINE,
        doc="§6.6/A-24: the engine lays every hand out in its least-deadwood arrangement "
        "(false: each player lays out his own melds, caller first).",
    )
    match_deals: int = option(
        5, minimum=1, maximum=1000, doc="§6.9/A-23: deals in a match; the highest total wins."
    )


def meld_rules_for(options: Options) -> MeldRules:
    """RULES §6.4: runs with the ace high or low (no wrap), sets of any suits, and at
    most ``max_jokers_per_meld`` jokers in a meld."""
    opts = ViennaOptions.of(options)
    return _meld_rules(
        opts.set_distinct_suits,
        opts.max_jokers_per_meld,
    )


@cache
def _meld_rules(distinct: bool, jokers: int) -> MeldRules:
    # One object per option pair: the closing check (every turn) and the deal-end
    # arrangement look their answers up in caches keyed by it.
    return MeldRules(
        min_size=3,
        ace_low=True,
        ace_high=True,
        ace_both_ends=False,
        set_distinct_suits=distinct,
        # Two packs hold 8 naturals of a rank; jokers come on top of them.
        set_max_size=(4 if distinct else 8) + jokers,
        max_wild=jokers,
        min_natural=1,
    )


MELD_RULES = meld_rules_for(ViennaOptions.parse({}, 4))


def pack(options: Options) -> PieceSet:
    """§6.1: two 52-card packs and ``joker_count`` jokers (108 cards by default)."""
    opts = ViennaOptions.of(options)
    return card_pack(2, opts.joker_count)


def deal(order: Sequence[int], players: int, dealer: int, options: Options) -> DealLayout:
    """RULES §6.2: 10 cards each from the dealer's right, then the up-card; no hand-card."""
    first = (dealer + 1) % players
    return deal_in_packets(order, players, first, [1] * CARDS_PER_PLAYER, upcard=True)


# ------------------------------------------------------------------ arrangement


Need = tuple[tuple[int, int], ...]
"""(face kind, count) pairs a meld takes from a hand, by kind."""


def _melds_of(counts: tuple[int, ...], rules: MeldRules) -> tuple[Candidate, ...]:
    """Every meld ``counts`` can supply (§6.4; sets may repeat suits)."""
    return candidates(counts, rules)


def _by_lowest(counts: tuple[int, ...], rules: MeldRules) -> dict[int, list[Need]]:
    """The distinct melds ``counts`` can supply, as piece needs, by their lowest kind."""
    out: dict[int, list[Need]] = {}
    for need in dict.fromkeys(c.need for c in _melds_of(counts, rules)):
        out.setdefault(need[0][0], []).append(need)
    return out


def _take(counts: tuple[int, ...], need: Need) -> tuple[int, ...] | None:
    """``counts`` less ``need``, or None if it does not fit."""
    left = list(counts)
    for kind, count in need:
        left[kind] -= count
        if left[kind] < 0:
            return None
    return tuple(left)


def _lowest(counts: tuple[int, ...]) -> int:
    return next(k for k, c in enumerate(counts) if c)


def _faces_of(kinds: Sequence[int], material: Material) -> tuple[Face, ...]:
    return tuple(Face.from_kind(material, k) for k in kinds)


def arrange(hand: Sequence[Face], options: Options) -> ShownHand:
    """RULES §6.6/A-24: ``hand`` laid out with the least deadwood (A 11, joker 25)."""
    opts = ViennaOptions.of(options)
    material = hand[0].material if hand else Material.CARDS
    return _shown(
        tuple(sorted([f.kind for f in hand])),
        material,
        opts.set_distinct_suits,
        opts.max_jokers_per_meld,
    )


@lru_cache(maxsize=4096)
def _shown(kinds: tuple[int, ...], material: Material, distinct: bool, jokers: int) -> ShownHand:
    """:func:`arrange` of the sorted face kinds ``kinds``.

    It depends on nothing else: the two options are all that :func:`meld_rules_for`
    reads.  The key is the short sorted hand, not its counts: a random deal's end
    shows four new hands, a bot's search asks for the same ones again.
    """
    faces = _face_table(material).__getitem__
    value = _KIND_VALUES.__getitem__
    points = sum(map(value, kinds))
    counts = counts_of(kinds)
    found = _melds_of(counts, _meld_rules(distinct, jokers))
    if not found:  # a third of the hands at a random deal's end
        return ShownHand(melds=(), deadwood=tuple(map(faces, kinds)), points=points)
    # A meld saves the value of its cards: the best packing leaves the least deadwood.
    packing = best_packing(counts, found, [sum(map(value, c.kinds)) for c in found])
    left = list(counts)
    chosen = [found[i].kinds for i in packing.chosen]
    for meld in chosen:
        for kind in meld:
            left[kind] -= 1
    # Faces order as their kinds do (one material): runs show in rank order with the
    # joker in its place, sets in suit order; the melds sorted, the deadwood by kind.
    return ShownHand(
        melds=tuple(tuple(map(faces, meld)) for meld in sorted(chosen)),
        deadwood=tuple(faces(k) for k in dict.fromkeys(kinds) for _ in range(left[k])),
        points=points - packing.score,
    )


@cache
def _face_table(material: Material) -> tuple[Face, ...]:
    """Every face of ``material`` by kind."""
    return tuple(Face.from_kind(material, k) for k in range(JOKER_KIND + 1))


def _partner_masks() -> tuple[int, ...]:
    """Per natural kind, the bits (``1 << kind``) of the other naturals it could share a
    meld with alongside at most one joker: same rank in another suit, or same suit at
    most two run positions away (the ace low at 1 or high at 14)."""
    masks = []
    for kind in range(JOKER_KIND):
        suit, rank = suit_of_kind(kind), rank_of_kind(kind)
        mask = sum(1 << kind_of(other, rank) for other in range(SUIT_COUNT) if other != suit)
        for p in (1, HIGH_ACE) if rank == 1 else (rank,):
            for q in (p - 2, p - 1, p + 1, p + 2):
                if 1 <= q <= HIGH_ACE and position_rank(q) != rank:
                    mask |= 1 << kind_of(suit, position_rank(q))
        masks.append(mask)
    return tuple(masks)


_PARTNERS = _partner_masks()
_BITS = tuple(1 << kind for kind in range(JOKER_KIND + 1))


def _partnerless(counts: tuple[int, ...], rules: MeldRules) -> int:
    """How many natural cards have no other natural they could share a meld with.

    With at most one joker a meld holds two naturals of one rank, or of one suit at
    most two positions apart, so such a card lies in no meld.  (With two jokers a card
    may meld alone: then nothing is counted.)  Asked on every turn (§6.6 closing
    discards), so the hand is a bit set and each card one mask test (``_PARTNERS``).
    """
    wild = counts[JOKER_KIND] if rules.max_wild is None else min(rules.max_wild, counts[JOKER_KIND])
    if wild >= 2:
        return 0
    held = [kind for kind in range(52) if counts[kind]]
    present = sum(map(_BITS.__getitem__, held))
    repeats_meld = not rules.set_distinct_suits  # two copies of a card make a set's pair
    alone = 0
    for kind in held:
        if not present & _PARTNERS[kind] and not (repeats_meld and counts[kind] > 1):
            alone += counts[kind]
    return alone


@lru_cache(maxsize=4096)
def _closing_kinds(counts: tuple[int, ...], rules: MeldRules) -> frozenset[int]:
    if _partnerless(counts, rules) > 1:
        return frozenset()  # two cards in no meld: one could close, never both
    by_low = _by_lowest(counts, rules)
    covered = {k for needs in by_low.values() for need in needs for k, _ in need}
    # A card in no meld at all must be the closing card: two such cards, no close.
    loose = [k for k, c in enumerate(counts) if c and k not in covered]
    if len(loose) > 1 or any(counts[k] > 1 for k in loose):
        return frozenset()
    memo: dict[tuple[int, ...], bool] = {}

    def covers(left: tuple[int, ...]) -> bool:
        known = memo.get(left)
        if known is None:
            known = not any(left)
            if not known:
                low = _lowest(left)
                for need in by_low.get(low, ()):
                    smaller = _take(left, need)
                    if smaller is not None and covers(smaller):
                        known = True
                        break
            memo[left] = known
        return known

    out = set()
    for kind in loose or [k for k, c in enumerate(counts) if c]:
        rest = list(counts)
        rest[kind] -= 1
        if covers(tuple(rest)):
            out.add(kind)
    return frozenset(out)


def _cannot_close(kinds: Sequence[int], rules: MeldRules) -> bool:
    """Whether the cards ``kinds`` surely cannot close (§6.6): a sound, cheaper form of
    :func:`_closing_kinds`' first tests, asked first on every turn.

    With at most one joker a meld holds a run of 3 in which at most one position
    lacks a natural of the hand, or two naturals of one rank (three without a joker).
    Two naturals in no meld: one could be the closing card, never both.  With one
    joker, at most one meld holds it, and with it every natural that only a joker's
    meld can hold, but for the closing card: they must be of one suit or one rank.
    Works on one bit set of run positions per suit.
    """
    jokers = kinds.count(JOKER_KIND)
    wild = jokers if rules.max_wild is None else min(jokers, rules.max_wild)
    if wild >= 2:
        return False  # a natural with two jokers makes a run
    naturals = [kind for kind in kinds if kind != JOKER_KIND]
    rows = [0, 0, 0, 0]
    bits = _POSITION_BITS
    for kind in naturals:
        rows[kind // RANKS_PER_SUIT] |= bits[kind]
    natural_runs = []  # per suit: positions in a run of three held naturals
    joker_runs = []  # per suit: positions in a run of three with one gap
    for row in rows:
        starts = row & row >> 1 & row >> 2 & _RUN_STARTS
        natural_runs.append(starts | starts << 1 | starts << 2)
        if wild:
            starts = ((row & row >> 1) | (row & row >> 2) | (row >> 1 & row >> 2)) & _RUN_STARTS
            joker_runs.append(starts | starts << 1 | starts << 2)
    # Naturals of each rank a set could draw on (distinct suits: the suits present).
    by_rank = [0] * (RANKS_PER_SUIT + 1)
    # Distinct suits: each card counts once, however many copies the hand holds.
    for kind in set(naturals) if rules.set_distinct_suits else naturals:
        by_rank[kind % RANKS_PER_SUIT + 1] += 1
    alone = 0
    helped: list[int] = []  # naturals only a meld with the joker can hold
    for kind in naturals:
        suit = kind // RANKS_PER_SUIT
        held = by_rank[kind % RANKS_PER_SUIT + 1]
        if natural_runs[suit] & bits[kind] or held >= 3:
            continue
        if wild and (joker_runs[suit] & bits[kind] or held >= 2):
            helped.append(kind)
            continue
        alone += 1
        if alone > 1:
            return True
    if jokers != 1 or len(helped) < 2:
        return False
    if alone:  # the closing card is the one in no meld
        return not _one_meld(helped)
    return not (
        _one_meld(helped)
        or any(_one_meld(helped[:i] + helped[i + 1 :]) for i in range(len(helped)))
    )


def _one_meld(kinds: list[int]) -> bool:
    """Whether the naturals ``kinds`` are of one suit or one rank (as one meld's are)."""
    return (
        len({kind // RANKS_PER_SUIT for kind in kinds}) <= 1
        or len({kind % RANKS_PER_SUIT for kind in kinds}) <= 1
    )


_POSITION_BITS = tuple(
    (1 << 1 | 1 << HIGH_ACE) if rank_of_kind(k) == 1 else 1 << rank_of_kind(k)
    for k in range(JOKER_KIND)
)
"""Per natural kind, its run positions as bits (the ace at 1 and at 14)."""
_RUN_STARTS = sum(1 << start for start in range(1, HIGH_ACE - 1))
"""The first positions of the runs of three on positions 1..14."""


def closing_discards(hand: Sequence[Face], options: Options) -> frozenset[Face]:
    """RULES §6.6/A-21: the cards whose face-down discard leaves every other card of
    ``hand`` in a meld."""
    if not hand:
        return frozenset()
    rules = meld_rules_for(options)
    held = [f.kind for f in hand]
    if _cannot_close(held, rules):
        return frozenset()  # nearly every turn
    kinds = _closing_kinds(counts_of(held), rules)
    return frozenset(_faces_of(sorted(kinds), hand[0].material))


# ------------------------------------------------------------------ scoring


def opening_value(kind: MeldKind, position: int) -> int:
    """A card's value in a meld (a high ace at position 14 counts as the 1)."""
    return VALUES.get(1 if position == 14 else position, 0)


def score_value(face: Face) -> int:
    """A card's value in the deadwood count (§6.7)."""
    return JOKER_VALUE if face.is_joker else VALUES[face.rank]


def score_deal(
    outcomes: Sequence[SeatOutcome], double_game: bool, closing: Face | None, options: Options
) -> tuple[int, ...]:
    """RULES §6.8: the caller wins the deadwood differences if strictly lowest; else the
    lowest non-caller wins them plus the bonus and the caller records the penalty."""
    opts = ViennaOptions.of(options)
    n = len(outcomes)
    scores = [0] * n
    caller = next((i for i, o in enumerate(outcomes) if o.closed), None)
    if caller is None:
        return tuple(scores)
    dead = [o.rack_value for o in outcomes]
    others = [(caller + k) % n for k in range(1, n)]  # play order after the caller
    if all(dead[caller] < dead[p] for p in others):
        scores[caller] = sum(dead[p] - dead[caller] for p in others)
        return tuple(scores)
    lowest = min(dead[p] for p in others)
    tied = [p for p in others if dead[p] == lowest]
    # the first tied non-caller in play order after the caller, or all of them.
    winners = tied if opts.tie_winner_rule == "all_tied_win" else tied[:1]
    bonus = opts.non_caller_winner_bonus
    for w in winners:
        scores[w] = sum(dead[p] - lowest for p in range(n) if p != w) + bonus
    scores[caller] = opts.caller_failure_penalty
    return tuple(scores)


def play_rules(options: Options) -> PlayRules:
    """RULES §6.3-§6.7."""
    opts = ViennaOptions.of(options)
    return PlayRules(
        take_use=TakeUse.NONE,  # §6.3: either pile, always, with no condition
        discard_taken_allowed=opts.allow_discard_of_taken_discard,
        recycle_stock=True,  # §6.7/A-04
        recycle_limit=opts.max_stock_recycles,
        recycle_shuffle=opts.recycle_shuffle,
        table_melds=False,  # §6.3
        extensions=("call",),  # §6.6: the stop call
        settings=(CallSettings(failure_penalty=opts.caller_failure_penalty),),
        close_drawn_only=not opts.close_discard_any_card,
        players_arrange=not opts.auto_arrange_deadwood,
        sections={
            "acquire": "§6.3",
            "table": "§6.3",
            "call": "§6.6",
            "close_card": "§6.6/A-21",
            "meld": "§6.4",
            "deal_end": "§6.8",
        },
    )


VIENNA = register(
    Variant(
        name="vienna",
        title='Vienna / Rauber Rummy ("Bečki Remi")',
        aliases=("rauber", "becki", "becki-remi", "rauber-rummy"),
        rules_section="§6",
        summary=(
            "Two packs and 4 jokers (108 cards), 2-6 players, 10 cards each, an up-card. "
            "Draw from the stock or the discard pile, then discard, or call 'Remi!' with "
            "11 cards. Melds stay in the hand: runs (ace high or low), sets of any suits, "
            "at most one joker each. At the call every hand is laid out with the least "
            "deadwood (A 11, joker 25); a caller with 10 cards melded closes with the 11th "
            "face down. A caller strictly below everyone collects the differences; "
            "otherwise he records -20 and the lowest other player collects them plus 10. "
            "Five deals; highest total wins."
        ),
        material=pack(ViennaOptions.parse({}, 4)).material,
        min_players=2,
        max_players=6,
        default_players=4,
        meld_rules=MELD_RULES,
        option_type=ViennaOptions,
        pieces=pack,
        # §6.5: no opening; a meld's value is what it saves from the deadwood count.
        opening_value=opening_value,
        score_value=score_value,
        deal=DealFromOrder(deal),
        score_deal=score_deal,
        play_rules=play_rules,
        meld_rules_for=meld_rules_for,
        arrange_hand=arrange,
        closing_discards=closing_discards,
    )
)
