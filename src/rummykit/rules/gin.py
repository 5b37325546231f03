"""Gin Rummy as OpenSpiel's ``gin_rummy`` plays it (docs/rules/gin.md).

Two players, one 52-card pack, ten cards each and an up-card.  Melds stay in the
hand until a player knocks (deadwood at most the knock card, default 10); the
knocker lays his melds, the defender lays off onto them and lays his own, and
the deadwood difference is scored, with the gin and undercut bonuses.  The
turn structure (the up-card offer, the knock and lay-off, the wall) is the
engine extension ``gin`` (``rummykit.engine.extensions.gin``); this module holds
the profile and the pure card arithmetic the extension asks: deadwood, the
melds a knocker may lay, the cards a defender may lay off.

Cards are numbered by their face kind, ``suit * 13 + rank - 1`` with the suits in
notation order S, H, D, C: where OpenSpiel breaks a tie by card order (which
best arrangement a hand of eleven is counted by), the same order is used.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rummykit.model.melds import MeldKind, MeldRules
from rummykit.model.pieces import JOKER_KIND, RANKS_PER_SUIT, Face, rank_of_kind, suit_of_kind
from rummykit.rules.cards import card_pack, deal_in_packets
from rummykit.rules.options import OptionError, OptionKind, Options, VariantOptions, option
from rummykit.rules.variant import (
    Constant,
    DealFromOrder,
    DealLayout,
    PlayRules,
    SeatOutcome,
    Variant,
    register,
)

__all__ = [
    "CARDS_PER_PLAYER",
    "GIN",
    "HAND_SIZE",
    "MAX_UPCARD_DRAWS",
    "WALL_SIZE",
    "card_value",
    "deadwood",
    "deal",
    "gin_melds",
    "knock_deadwood",
    "knock_discards",
    "knock_limit",
    "knock_melds",
    "layoff_kinds",
    "score_deal",
]

PACK = card_pack(1, 0)
"""§G.1: one 52-card pack, no jokers."""

CARDS_PER_PLAYER = 10
HAND_SIZE = CARDS_PER_PLAYER
"""§G.2: ten cards each."""
WALL_SIZE = 2
"""§G.6: the last two stock cards are never drawn (the wall)."""
MAX_UPCARD_DRAWS = 50
"""§G.7: the 50th take of the up-card after the first offer ends the deal as a draw."""
MAX_DEADWOOD = 98
"""§G.5: the defender's melds are checked against this limit (so any meld goes)."""

MELD_RULES = MeldRules(
    min_size=3,
    ace_low=True,
    ace_high=False,  # §G.3: the ace is low only
    ace_both_ends=False,
    set_distinct_suits=True,
    set_max_size=4,
)


@dataclass(frozen=True, kw_only=True, eq=False)
class GinOptions(VariantOptions):
    """Gin Rummy's options (docs/rules/gin.md, after OpenSpiel's gin_rummy)."""

    oklahoma: bool = option(
        False, doc="§G.4: the knock card is the first up-card's value (an ace: gin only)."
    )
    knock_card: int = option(
        10, minimum=0, maximum=10, doc="§G.4: the most deadwood a knocker may keep (0: gin only)."
    )
    gin_bonus: int = option(
        25, minimum=0, maximum=1000, doc="§G.8: bonus to a knocker with no deadwood."
    )
    undercut_bonus: int = option(
        25,
        minimum=0,
        maximum=1000,
        doc="§G.8: bonus to the defender when the knocker's deadwood is not lower.",
    )
    match_deals: int = option(
        1,
        minimum=1,
        maximum=1000,
        kind=OptionKind.ENGINE,
        doc="§G.9: deals in a match (OpenSpiel plays one); the highest total wins.",
    )


def check_options(players: int, options: Options) -> None:
    """§G.4: ``oklahoma`` decides the knock card, so a knock card given with it is an
    error rather than silently ignored."""
    opts = GinOptions.of(options)
    if opts.oklahoma and opts.knock_card != 10:
        raise OptionError(
            "option knock_card cannot be set with oklahoma = true (the up-card sets it)"
        )


# ------------------------------------------------------------------ card arithmetic


_RANKS = tuple(rank_of_kind(k) - 1 for k in range(JOKER_KIND + 1))
"""The 0-based rank (ace 0 .. king 12) of each natural kind (looked up: the knock check
reads it thousands of times a deal)."""
_SUITS = tuple(suit_of_kind(k) for k in range(JOKER_KIND + 1))
_VALUES = tuple(min(10, rank_of_kind(k)) for k in range(JOKER_KIND + 1))


def card_value(kind: int) -> int:
    """§G.8: ace 1, 2-10 face value, J/Q/K 10."""
    return _VALUES[kind]


def gin_melds(hand: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """§G.3: every meld ``hand`` (face kinds) holds: sets of 3 or 4 of a rank, runs of
    3 to 5 of a suit; in OpenSpiel's listing order (sets by rank then card, four-card
    sets first; then runs by card, five-card runs first)."""
    out: list[tuple[int, ...]] = []
    ranks = _RANKS
    by_rank = sorted(hand, key=lambda k: (ranks[k], k))
    n = len(by_rank)
    for i in range(n - 3):
        if ranks[by_rank[i]] == ranks[by_rank[i + 3]]:
            a, b, c, d = by_rank[i : i + 4]
            out += [(a, b, c, d), (a, b, d), (a, c, d)]
    for i in range(n - 2):
        if ranks[by_rank[i]] == ranks[by_rank[i + 2]]:
            out.append(tuple(by_rank[i : i + 3]))
    by_card = sorted(hand)
    for size in (5, 4, 3):
        for i in range(n - size + 1):
            low, high = by_card[i], by_card[i + size - 1]
            if high - low == size - 1 and _SUITS[low] == _SUITS[high]:
                out.append(tuple(by_card[i : i + size]))
    return tuple(out)


def _mask(kinds: Sequence[int]) -> int:
    out = 0
    for k in kinds:
        out |= 1 << k
    return out


def _all_melds() -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per card: (mask, value) of each meld of the whole pack whose lowest card it is."""
    by_low: list[list[tuple[int, int]]] = [[] for _ in range(52)]
    for meld in gin_melds(range(52)):
        by_low[min(meld)].append((_mask(meld), sum(map(card_value, meld))))
    return tuple(tuple(m) for m in by_low)


_MELDS_BY_LOW = _all_melds()


@lru_cache(maxsize=65536)
def _best_value(mask: int) -> int:
    """The most card value disjoint melds of the hand ``mask`` can hold."""
    if not mask:
        return 0
    low = (mask & -mask).bit_length() - 1
    best = _best_value(mask & ~(1 << low))
    for meld, value in _MELDS_BY_LOW[low]:
        if meld & mask == meld:
            best = max(best, value + _best_value(mask & ~meld))
    return best


def _total(kinds: Sequence[int]) -> int:
    values = _VALUES
    return sum([values[k] for k in kinds])


def deadwood(hand: Sequence[int]) -> int:
    """§G.3: the least deadwood ``hand`` can leave (card value outside melds)."""
    return _total(hand) - _best_value(_mask(hand))


@lru_cache(maxsize=65536)
def _knock_deadwood(hand: tuple[int, ...]) -> int:
    melds = gin_melds(hand)
    masks = [_mask(m) for m in melds]
    values = [_total(m) for m in melds]
    target = _best_value(_mask(hand))
    chosen = 0

    def first_best(index: int, pool: list[int], used: int, value: int) -> int | None:
        # OpenSpiel's order: each meld, then recursively the melds after filtering those
        # overlapping it; the first maximal group worth the most is the one counted.
        used |= masks[index]
        value += values[index]
        children = [j for j in pool if not masks[j] & used]
        if not children:
            return used if value == target else None
        for j in children:
            found = first_best(j, children, used, value)
            if found is not None:
                return found
        return None

    if target:
        every = list(range(len(melds)))
        for i in every:
            found = first_best(i, every, 0, 0)
            if found is not None:
                chosen = found
                break
    dead = [k for k in hand if not chosen >> k & 1]
    total = _total(dead)
    if len(hand) == HAND_SIZE + 1 and dead:
        total -= _VALUES[max(dead, key=lambda k: (_RANKS[k], k))]
    return total


def knock_deadwood(hand: Sequence[int]) -> int:
    """§G.4: the deadwood a knock is checked against.  With eleven cards, the
    deadwood of one best arrangement less its highest card (the one to be discarded);
    among arrangements worth the same, the first in OpenSpiel's listing order counts."""
    # The answer does not depend on the order the cards are held in.
    return _knock_deadwood(tuple(sorted(hand)))


def knock_discards(hand: Sequence[int], limit: int) -> tuple[int, ...]:
    """§G.5: the cards a knocker holding eleven may discard: each leaves a hand whose
    least deadwood is at most ``limit``."""
    kinds = sorted(set(hand))
    out = []
    for k in kinds:
        rest = list(hand)
        rest.remove(k)
        if deadwood(rest) <= limit:
            out.append(k)
    return tuple(out)


def knock_melds(hand: Sequence[int], limit: int) -> tuple[tuple[int, ...], ...]:
    """§G.5: the melds a hand may lay now: each belongs to some set of disjoint melds
    that leaves at most ``limit`` deadwood (sorted by their cards)."""
    total = _total(hand)
    mask = _mask(hand)
    out = {
        tuple(sorted(m))
        for m in gin_melds(hand)
        if total - _total(m) - _best_value(mask & ~_mask(m)) <= limit
    }
    return tuple(sorted(out))


def _run_ends(run: Sequence[int]) -> Iterator[int]:
    low, high = min(run), max(run)
    if _RANKS[low] > 0:
        yield low - 1
    if _RANKS[high] < RANKS_PER_SUIT - 1:
        yield high + 1


def layoff_kinds(melds: Sequence[Sequence[int]], layoffs: Sequence[int]) -> frozenset[int]:
    """§G.5: the cards the defender may lay off onto the knocker's ``melds`` after
    ``layoffs``: the fourth card of a three-card set; a card next to either end of a run,
    counting only lay-offs that touched the run as the knocker laid it (so a run grows
    by at most two cards at each end)."""
    out: set[int] = set()
    for meld in melds:
        if len({_RANKS[k] for k in meld}) == 1:
            if len(meld) == 3:
                suits = {_SUITS[k] for k in meld}
                missing = min(s for s in range(4) if s not in suits)
                out.add(missing * RANKS_PER_SUIT + _RANKS[meld[0]])
            continue
        ends = set(_run_ends(meld))
        out.update(_run_ends([*meld, *(k for k in layoffs if k in ends)]))
    return frozenset(out)


def knock_limit(upcard: int | None, options: Options) -> int:
    """§G.4: the knock card; with ``oklahoma`` the first up-card's value (an ace: 0)."""
    opts = GinOptions.of(options)
    if opts.oklahoma and upcard is not None:
        value = card_value(upcard)
        return 0 if value == 1 else value
    return opts.knock_card


# ------------------------------------------------------------------ profile hooks


def deal(order: Sequence[int], players: int, dealer: int, options: Options) -> DealLayout:
    """§G.2: the non-dealer receives the first ten cards, the dealer the next ten, then
    the up-card; the non-dealer is offered the up-card first."""
    first = (dealer + 1) % players
    return deal_in_packets(order, players, first, [CARDS_PER_PLAYER], upcard=True)


def opening_value(kind: MeldKind, position: int) -> int:
    """A card's value in a meld (there is no opening in gin)."""
    return min(10, position)


def score_value(face: Face) -> int:
    """§G.8: a card's deadwood value."""
    return card_value(face.kind)


def score_deal(
    outcomes: Sequence[SeatOutcome], double_game: bool, closing: Face | None, options: Options
) -> tuple[int, ...]:
    """§G.8: the knocker scores the defender's deadwood less his own, plus the gin bonus
    with no deadwood; a result below zero costs him the undercut bonus too.  The defender
    scores the opposite; a deal nobody knocked scores nothing."""
    opts = GinOptions.of(options)
    knocker = next((i for i, o in enumerate(outcomes) if o.closed), None)
    scores = [0] * len(outcomes)
    if knocker is None:
        return tuple(scores)
    defender = 1 - knocker
    mine, theirs = outcomes[knocker].rack_value, outcomes[defender].rack_value
    score = theirs - mine
    if mine == 0:
        score += opts.gin_bonus
    if score < 0:
        score -= opts.undercut_bonus
    scores[knocker] = score
    scores[defender] = -score
    return tuple(scores)


def play_rules(options: Options) -> PlayRules:
    """§G.2-§G.7: the whole turn is the ``gin`` extension's."""
    return PlayRules(
        table_melds=False,  # §G.3: melds stay in the hand until the knock
        discard_taken_allowed=True,  # §G.2: the taken up-card may go straight back
        extensions=("gin",),
        sections={
            "acquire": "§G.2",
            "table": "§G.3",
            "meld": "§G.3",
            "deal_end": "§G.8",
        },
    )


GIN = register(
    Variant(
        name="gin",
        title="Gin Rummy",
        aliases=("gin-rummy", "ginrummy"),
        rules_section="§G",
        summary=(
            "One pack, 2 players, 10 cards each and an up-card, as OpenSpiel's gin_rummy "
            "plays it. The non-dealer, then the dealer, may take the first up-card; then "
            "draw from the stock or take the up-card, and discard. With deadwood at most "
            "the knock card (10) a player knocks: he discards, lays his melds, the other "
            "lays off onto them and lays his own. The knocker scores the deadwood "
            "difference (+25 for gin); if that is not positive the defender scores it "
            "plus 25. The deal is a draw when only two stock cards are left."
        ),
        material=PACK.material,
        min_players=2,
        max_players=2,
        default_players=2,
        meld_rules=MELD_RULES,
        option_type=GinOptions,
        pieces=Constant(PACK),
        opening_value=opening_value,
        score_value=score_value,
        deal=DealFromOrder(deal),
        score_deal=score_deal,
        play_rules=play_rules,
        check_options=check_options,
    )
)
