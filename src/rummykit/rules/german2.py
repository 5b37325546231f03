"""German Rummy for two, "Njemački Remi" (RULES §5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules
from rummykit.model.pieces import Face
from rummykit.rules.cards import RecycleOptions, card_pack
from rummykit.rules.options import OptionKind, Options, option
from rummykit.rules.variant import (
    Constant,
    DealFromOrder,
    DealLayout,
    OpeningStructure,
    PlayRules,
    SeatOutcome,
    TakeUse,
    Variant,
    no_fixed_match_deals,
    register,
)

__all__ = ["GERMAN2", "PENALTY", "deal", "opening_value", "score_deal"]

PACK = card_pack(2, 0)
"""RULES §5.1: two 52-card packs, no jokers."""

PENALTY = {1: 10, **{r: r for r in range(2, 11)}, 11: 10, 12: 10, 13: 10}
"""RULES §5.9: A = 10, K/Q/J = 10, 2-10 face value."""

MELD_RULES = MeldRules(
    min_size=3,
    ace_low=True,
    ace_high=True,
    ace_both_ends=False,  # §5.4: low or high, not both; no wrap
    set_distinct_suits=True,  # §5.4: all different suits, so at most 4
    set_max_size=4,
)

ENGINE = OptionKind.ENGINE


@dataclass(frozen=True, kw_only=True, eq=False)
class German2Options(RecycleOptions):
    """German two-player Rummy's options (RULES §5)."""

    opening_min_points: int = option(
        51, minimum=0, maximum=500, doc="§5.5: points the first laydown must reach."
    )
    opening_requires_run: bool = option(
        True, doc="§5.5: the first laydown includes at least one run."
    )
    discard_take_requires_new_meld: bool = option(
        True, doc="§5.3/A-15: the top discard is taken only to lay it in a new meld this turn."
    )
    dealer_first_turn_discard_only: bool = option(
        True, doc="§5.2: the dealer's first turn is a discard without a draw."
    )
    dealer_may_meld_first_turn: bool = option(
        False, kind=ENGINE, doc="A-14: the dealer may lay melds on that first turn."
    )
    layoff_on_opening_turn: bool = option(
        True,
        kind=ENGINE,
        doc="A-17: lay-offs are allowed right after the opening melds, in the same turn.",
    )
    allow_go_out_without_discard: bool = option(
        True,
        kind=ENGINE,
        doc="A-18: melding or laying off the last card ends the deal without a discard.",
    )
    unopened_loser_penalty: int = option(
        100, minimum=0, maximum=10_000, doc="§5.9: flat penalty of a loser who never opened."
    )
    match_loss_threshold: int = option(
        200,
        minimum=1,
        maximum=100_000,
        doc="§5.9/A-19: a total strictly above this loses the match.",
    )


def opening_value(kind: MeldKind, position: int) -> int:
    """RULES §5.5/A-16: the ace is 1 only as the low ace of a run, else 10; court 10."""
    if kind is MeldKind.RUN and position == 1:
        return 1
    rank = 1 if position == HIGH_ACE else position
    return PENALTY.get(rank, 0)


def deal(order: Sequence[int], players: int, dealer: int, options: Options) -> DealLayout:
    """RULES §5.2: dealer 3, then packets of 2, opponent first, until 15 and 14.

    The dealer plays first; no card is turned up.
    """
    opponent = 1 - dealer
    racks: list[list[int]] = [[], []]
    racks[dealer].extend(order[0:3])
    i = 3
    for _ in range(6):
        racks[opponent].extend(order[i : i + 2])
        racks[dealer].extend(order[i + 2 : i + 4])
        i += 4
    racks[opponent].extend(order[i : i + 2])
    i += 2
    return DealLayout(
        racks=(tuple(racks[0]), tuple(racks[1])), stock=tuple(order[i:]), first_seat=dealer
    )


def score_value(face: Face) -> int:
    """A card's penalty value left in the hand (no jokers in play)."""
    return PENALTY[face.rank] if not face.is_joker else 0


def score_deal(
    outcomes: Sequence[SeatOutcome], double_game: bool, closing: Face | None, options: Options
) -> tuple[int, ...]:
    """RULES §5.9: the winner records nothing; the loser his hand (100 if unopened)."""
    opts = German2Options.of(options)
    winner = next((i for i, o in enumerate(outcomes) if o.closed), None)
    if winner is None:
        return (0,) * len(outcomes)
    flat = opts.unopened_loser_penalty
    return tuple(
        0 if i == winner else (sum(PENALTY[f.rank] for f in o.rack) if o.opened else flat)
        for i, o in enumerate(outcomes)
    )


def match_over(totals: Sequence[int], deals: int, options: Options) -> bool:
    """RULES §5.9/A-19: the first total strictly above the threshold loses."""
    opts = German2Options.of(options)
    return max(totals) > opts.match_loss_threshold


def play_rules(options: Options) -> PlayRules:
    """RULES §5.2-§5.8."""
    opts = German2Options.of(options)
    return PlayRules(
        first_turn_draws=not opts.dealer_first_turn_discard_only,
        first_turn_may_meld=opts.dealer_may_meld_first_turn,
        take_use=(TakeUse.NEW_FORMATION if opts.discard_take_requires_new_meld else TakeUse.NONE),
        discard_taken_allowed=opts.allow_discard_of_taken_discard,
        recycle_stock=True,
        recycle_limit=opts.max_stock_recycles,
        recycle_shuffle=opts.recycle_shuffle,
        layoff_on_opening_turn=opts.layoff_on_opening_turn,
        go_out_without_discard=opts.allow_go_out_without_discard,
        hand_waives_opening=True,
        opening_min_points=opts.opening_min_points,
        opening_structure=(
            OpeningStructure.RUN if opts.opening_requires_run else OpeningStructure.NONE
        ),
        match_winner="lowest",
        sections={
            "first_turn": "§5.2/A-14",
            "acquire": "§5.3",
            "take_use": "§5.3/A-15",
            "opening": "§5.5",
            "meld": "§5.4",
            "attach": "§5.3",
            "attach_opening": "§5.3/A-17",
            "keep_discard": "§5.7/A-18",
            "deal_end": "§5.9",
            "layoff_unopened": "§5.3/§5.6",
        },
    )


GERMAN2 = register(
    Variant(
        name="german2",
        title='German Rummy for two ("Njemački Remi")',
        aliases=("njemacki", "njemacki-remi", "german-two"),
        rules_section="§5",
        summary=(
            "Two packs, no jokers, exactly 2 players. The dealer gets 15 cards and opens the "
            "discard pile with a discard-only first turn; the opponent gets 14. Draw from the "
            "stock; the top discard only to lay it in a new meld at once. First laydown: 51 "
            "points including a run (ace 1 only as a low run ace, else 10). Lay off only once "
            "opened. A Hand (all cards in one turn) needs no opening. The loser is charged "
            "his hand (100 if never opened); over 200 loses the match."
        ),
        material=PACK.material,
        min_players=2,
        max_players=2,
        default_players=2,
        meld_rules=MELD_RULES,
        option_type=German2Options,
        pieces=Constant(PACK),
        opening_value=opening_value,
        score_value=score_value,
        deal=DealFromOrder(deal),
        score_deal=score_deal,
        play_rules=play_rules,
        match_over=match_over,
        deals_in_match=no_fixed_match_deals,
    )
)
