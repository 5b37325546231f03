"""Double Rummy, "Dvostruki Remi" (RULES §4): Basic Rummy with two packs and jokers
that shift along the table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules
from rummykit.model.pieces import Face, PieceSet
from rummykit.rules.cards import (
    RecycleOptions,
    card_pack,
    deal_in_packets,
    target_or_deals_length,
    target_or_deals_over,
)
from rummykit.rules.options import OptionKind, Options, option
from rummykit.rules.variant import DealLayout, PlayRules, SeatOutcome, TakeUse, Variant, register

__all__ = [
    "CARDS_PER_PLAYER",
    "DOUBLE",
    "JOKER_VALUE",
    "VALUES",
    "deal",
    "meld_rules_for",
    "score_deal",
]

CARDS_PER_PLAYER = 14
"""RULES §4.2: fourteen cards each at every table size."""

VALUES = {1: 11, **{r: r for r in range(2, 11)}, 11: 10, 12: 10, 13: 10}
"""RULES §4.9: A = 11, K/Q/J = 10, 2-10 face value."""
JOKER_VALUE = 25
"""RULES §4.9: a joker left in a hand counts 25."""

RELOCATION = ("any_meld_player_choice", "forbidden")
"""§4.10 ``joker_complete_run_relocation``: the joker of a complete run goes to any
other meld the laying-off player picks (A-10), or the lay-off that would move it is
illegal."""


def meld_rules_for(options: Options) -> MeldRules:
    """RULES §4.4: runs with the ace low or high (never both); sets of any suits."""
    opts = DoubleOptions.of(options)
    return MeldRules(
        min_size=3,
        ace_low=True,
        ace_high=True,
        ace_both_ends=False,  # an ace ends a run, so at most 13 cards
        set_distinct_suits=False,  # §4.4: two packs, suits may repeat
        set_max_size=opts.set_max_size,
        min_natural=opts.min_naturals_per_meld,
    )


ENGINE = OptionKind.ENGINE


@dataclass(frozen=True, kw_only=True, eq=False)
class DoubleOptions(RecycleOptions):
    """Double Rummy's options (RULES §4)."""

    joker_count: int = option(
        2, minimum=0, maximum=4, doc="§4.1/§4.10: jokers added to the two packs."
    )
    set_max_size: int = option(
        10,
        minimum=4,
        maximum=12,
        doc="§4.4/§4.10: most cards in a set (all 8 naturals of a rank and 2 jokers).",
    )
    joker_complete_run_relocation: Literal["any_meld_player_choice", "forbidden"] = option(
        "any_meld_player_choice",
        choices=RELOCATION,
        doc="§4.5/A-10: where the joker of a complete run goes when its card is laid off.",
    )
    min_naturals_per_meld: int = option(
        1,
        minimum=1,
        maximum=3,
        kind=ENGINE,
        doc="A-13: natural cards every meld must hold (one card and two jokers is a meld).",
    )
    hand_bonus_multiplier: int = option(
        2,
        minimum=1,
        maximum=10,
        doc="§4.7: multiplier when the winner made a Hand (all 14 cards in one turn).",
    )
    match_mode: Literal["target", "deals"] = option(
        "target",
        choices=("target", "deals"),
        kind=ENGINE,
        doc="A-12 (as Basic §3.8): race to target_score, or play match_deals deals.",
    )
    target_score: int = option(
        750,
        minimum=1,
        maximum=1_000_000,
        kind=ENGINE,
        doc="A-12 (as Basic §3.8): the first total to reach it wins (match_mode target).",
    )
    match_deals: int = option(
        4,
        minimum=1,
        maximum=1000,
        kind=ENGINE,
        doc="A-12 (as Basic §3.8): number of deals (match_mode deals).",
    )


def pack(options: Options) -> PieceSet:
    """§4.1: two 52-card packs plus ``joker_count`` jokers (106 cards by default)."""
    opts = DoubleOptions.of(options)
    return card_pack(2, opts.joker_count)


def deal(
    pieces: PieceSet, order: Sequence[int], players: int, dealer: int, options: Options
) -> DealLayout:
    """RULES §4.2: 14 cards each, one at a time from the dealer's right; then the up-card."""
    first = (dealer + 1) % players
    return deal_in_packets(order, players, first, [1] * CARDS_PER_PLAYER, upcard=True)


def card_value(face: Face) -> int:
    """RULES §4.9: the value of one card left in a hand."""
    return JOKER_VALUE if face.is_joker else VALUES[face.rank]


def opening_value(kind: MeldKind, position: int) -> int:
    """The value of a card laid at a run position or in a set of that rank (§4.9 values).

    Double Rummy has no opening (§4.6); the value only settles an undeclared joker's
    position (RULES §2.2) and lets solvers and bots prefer shedding high cards.
    """
    return VALUES.get(1 if position == HIGH_ACE else position, 0)


def score_deal(
    outcomes: Sequence[SeatOutcome], double_game: bool, closing: Face | None, options: Options
) -> tuple[int, ...]:
    """RULES §4.9: the winner collects every opponent's hand value (×2 for a Hand)."""
    opts = DoubleOptions.of(options)
    winner = next((i for i, o in enumerate(outcomes) if o.closed), None)
    scores = [0] * len(outcomes)
    if winner is not None:
        total = sum(card_value(f) for o in outcomes for f in o.rack)
        if outcomes[winner].hand:
            total *= opts.hand_bonus_multiplier
        scores[winner] = total
    return tuple(scores)


def play_rules(options: Options) -> PlayRules:
    """RULES §4.3-§4.8."""
    opts = DoubleOptions.of(options)
    return PlayRules(
        take_use=TakeUse.NONE,
        discard_taken_allowed=opts.allow_discard_of_taken_discard,
        recycle_stock=True,  # §4.8/A-04
        recycle_limit=opts.max_stock_recycles,
        recycle_shuffle=opts.recycle_shuffle,
        layoff_before_opening=True,  # §4.3: lay off without ever having melded
        go_out_without_discard=True,  # §4.3/§4.7
        extensions=("joker_shift",),  # §4.5
        joker_relocation=opts.joker_complete_run_relocation == "any_meld_player_choice",
        sections={
            "acquire": "§4.3",
            "opening": "§4.6",
            "meld": "§4.4",
            "attach": "§4.5",
            "exchange": "§4.5",
            "joker_shift": "§4.5",
            "joker_relocation": "§4.5/A-10",
            "keep_discard": "§4.7",
            "deal_end": "§4.9",
        },
    )


DOUBLE = register(
    Variant(
        name="double",
        title='Double Rummy ("Dvostruki Remi")',
        aliases=("dvostruki", "dvostruki-remi", "double-rummy"),
        rules_section="§4",
        summary=(
            "Two 52-card packs and 2 jokers (106 cards), 2-6 players, 14 cards each. Draw "
            "the top of the stock or of the discard pile; meld runs (ace low or high, never "
            "beyond it) and sets of any suits up to 10 cards; lay off anywhere, even without "
            "a meld of your own. A joker never leaves the table: laying off the card it "
            "stands for moves it to a free end of its run (or, from a complete run, to any "
            "other meld). Go out with or without a final discard; the winner collects the "
            "cards left in the other hands (joker 25, A 11, J/Q/K 10), doubled for a Hand. "
            "First to 750 wins."
        ),
        material=pack(DoubleOptions.parse({}, 4)).material,
        min_players=2,
        max_players=6,
        default_players=4,
        meld_rules=meld_rules_for(DoubleOptions.parse({}, 4)),
        option_type=DoubleOptions,
        pieces=pack,
        opening_value=opening_value,
        score_value=card_value,
        deal=deal,
        score_deal=score_deal,
        play_rules=play_rules,
        match_over=target_or_deals_over,
        deals_in_match=target_or_deals_length,
        meld_rules_for=meld_rules_for,
    )
)
