"""Basic Rummy, "Običan Remi" (RULES §3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rummykit.model.melds import MeldKind, MeldRules
from rummykit.model.pieces import Face
from rummykit.rules.cards import (
    RecycleOptions,
    card_pack,
    deal_in_packets,
    target_or_deals_length,
    target_or_deals_over,
)
from rummykit.rules.options import OptionKind, Options, option
from rummykit.rules.variant import (
    Constant,
    DealFromOrder,
    DealLayout,
    PlayRules,
    SeatOutcome,
    TakeUse,
    Variant,
    register,
)

__all__ = ["BASIC", "CARDS_PER_PLAYER", "VALUES", "deal", "score_deal"]

PACK = card_pack(1, 0)
"""RULES §3.1: one 52-card pack, no jokers."""

CARDS_PER_PLAYER = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
"""RULES §3.2: cards dealt to each player by table size."""

VALUES = {1: 1, **{r: r for r in range(2, 11)}, 11: 10, 12: 10, 13: 10}
"""RULES §3.8: A = 1, 2-10 face value, J/Q/K = 10."""

MELD_RULES = MeldRules(
    min_size=3,
    ace_low=True,
    ace_high=False,  # §3.4: the ace is low only; Q-K-A and K-A-2 are not runs
    ace_both_ends=False,
    set_distinct_suits=True,
    set_max_size=4,
)


@dataclass(frozen=True, kw_only=True, eq=False)
class BasicOptions(RecycleOptions):
    """Basic Rummy's options (RULES §3)."""

    match_mode: Literal["target", "deals"] = option(
        "target",
        choices=("target", "deals"),
        doc="§3.8/A-08: race to target_score, or play match_deals deals.",
    )
    target_score: int = option(
        750,
        minimum=1,
        maximum=1_000_000,
        doc="§3.8: the first total to reach it wins (match_mode target).",
    )
    match_deals: int = option(
        4,
        minimum=1,
        maximum=1000,
        kind=OptionKind.ENGINE,
        doc="§3.8: number of deals (match_mode deals).",
    )
    allow_go_out_without_discard: bool = option(
        True, doc="§3.6/A-06: melding or laying off the last card ends the deal without a discard."
    )
    hand_bonus_multiplier: int = option(
        2,
        minimum=1,
        maximum=10,
        doc="§3.8: multiplier when the winner made a Hand (all cards in one turn).",
    )


def opening_value(kind: MeldKind, position: int) -> int:
    """A card's value in a meld (a high ace at position 14 counts as a 1)."""
    return VALUES.get(1 if position == 14 else position, 0)


def score_value(face: Face) -> int:
    """A card's scoring value (no jokers in play)."""
    return VALUES[face.rank] if not face.is_joker else 0


def deal(order: Sequence[int], players: int, dealer: int, options: Options) -> DealLayout:
    """RULES §3.2: one card at a time from the dealer's right; then the up-card."""
    first = (dealer + 1) % players
    return deal_in_packets(order, players, first, [1] * CARDS_PER_PLAYER[players], upcard=True)


def score_deal(
    outcomes: Sequence[SeatOutcome], double_game: bool, closing: Face | None, options: Options
) -> tuple[int, ...]:
    """RULES §3.8: the winner collects every opponent's hand value (×2 for a Hand)."""
    opts = BasicOptions.of(options)
    winner = next((i for i, o in enumerate(outcomes) if o.closed), None)
    scores = [0] * len(outcomes)
    if winner is not None:
        total = sum(sum(VALUES[f.rank] for f in o.rack) for o in outcomes)
        if outcomes[winner].hand:
            total *= opts.hand_bonus_multiplier
        scores[winner] = total
    return tuple(scores)


def play_rules(options: Options) -> PlayRules:
    """RULES §3.3-§3.7."""
    opts = BasicOptions.of(options)
    return PlayRules(
        take_use=TakeUse.NONE,
        discard_taken_allowed=opts.allow_discard_of_taken_discard,
        recycle_stock=True,
        recycle_limit=opts.max_stock_recycles,
        recycle_shuffle=opts.recycle_shuffle,
        layoff_before_opening=True,  # §3.3: lay off before one's own first meld
        go_out_without_discard=opts.allow_go_out_without_discard,
        sections={
            "acquire": "§3.3",
            "opening": "§3.5",
            "meld": "§3.4",
            "attach": "§3.3",
            "keep_discard": "§3.6",
            "deal_end": "§3.8",
        },
    )


BASIC = register(
    Variant(
        name="basic",
        title='Basic Rummy ("Običan Remi")',
        aliases=("rummy", "obican", "obican-remi"),
        rules_section="§3",
        summary=(
            "One 52-card pack, no jokers, 2-6 players (10/7/7/6/6 cards). Draw the top of "
            "the stock or of the discard pile; meld runs (ace low only) and sets; lay off on "
            "any meld, even before your own first meld; discard. Go out by melding or laying "
            "off everything, with or without a final discard. The winner collects the cards "
            "left in every opponent's hand (A=1, J/Q/K=10), doubled for a Hand (all cards in "
            "one turn). First to 750 wins."
        ),
        material=PACK.material,
        min_players=2,
        max_players=6,
        default_players=4,
        meld_rules=MELD_RULES,
        option_type=BasicOptions,
        pieces=Constant(PACK),
        # §3.5: no opening requirement; the value of the cards laid lets a solver or a bot
        # prefer laying high cards (they would count against it in an opponent's win).
        opening_value=opening_value,
        score_value=score_value,
        deal=DealFromOrder(deal),
        score_deal=score_deal,
        play_rules=play_rules,
        match_over=target_or_deals_over,
        deals_in_match=target_or_deals_length,
    )
)
