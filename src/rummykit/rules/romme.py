"""German Rommé, "Deutsches Rommé" / "niemiecki remik" (RULES §8), with its variations."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rummykit.model.melds import HIGH_ACE, MeldKind, MeldRules
from rummykit.model.pieces import Face, PieceSet
from rummykit.rules.cards import RecycleOptions, card_pack, deal_in_packets
from rummykit.rules.options import (
    OptionKind,
    Options,
    option,
    per_player,
)
from rummykit.rules.variant import (
    DealLayout,
    OpeningStructure,
    PlayRules,
    SeatOutcome,
    TakeUse,
    Variant,
    register,
)

__all__ = ["PENALTY", "ROMME", "deal", "meld_rules_for", "opening_value", "score_deal"]

PENALTY = {1: 11, **{r: r for r in range(2, 11)}, 11: 10, 12: 10, 13: 10}
"""RULES §8.8: A = 11, K/Q/J = 10, 2-10 face value (a joker left in hand: 30)."""
JOKER_PENALTY = 30

MELD_RULES = MeldRules(
    min_size=3,
    ace_low=True,
    ace_high=True,
    ace_both_ends=False,  # §8.4/A-11: K-A-2 never, and no ace at both ends
    set_distinct_suits=True,  # §8.4: 3 or 4 cards of different suits
    set_max_size=4,
    min_natural=2,  # §8.4/A-38: at least two natural cards per figure
)

ENGINE = OptionKind.ENGINE


@dataclass(frozen=True, kw_only=True, eq=False)
class RommeOptions(RecycleOptions):
    """Deutsches Rommé's options (RULES §8)."""

    jokers_per_deck: int = option(
        3,
        minimum=0,
        maximum=3,
        doc="§8.1/A-34: jokers in each of the two packs (commercial packs often have 2).",
    )
    start_mode: Literal["upcard", "fourteenth_card"] = option(
        "upcard",
        choices=("upcard", "fourteenth_card"),
        doc="§8.2/A-33: an up-card starts the discard pile, or one player gets a 14th card.",
    )
    fourteenth_card_to: Literal["dealer", "forehand"] = option(
        "dealer",
        choices=("dealer", "forehand"),
        doc="§8.2: who gets the 14th card and starts without drawing.",
    )
    rauben: bool = option(
        False, doc="§8.2: a joker at the bottom of the cut is kept by the cutter (joker robbing)."
    )
    rauben_reduces_deal: bool = option(
        False, kind=ENGINE, doc="A-35: the robbing cutter is dealt 12 cards instead of 13."
    )
    discard_pickup_requires_immediate_meld: bool = option(
        False, doc="§8.3/A-37: the top discard is taken only to put it on the table this turn."
    )
    opening_min_points: int = option(
        40,
        minimum=0,
        maximum=500,
        doc="§8.5/A-42: points of the first meld (30 is a common alternative).",
    )
    layoff_on_opening_turn: bool = option(
        False, kind=ENGINE, doc="A-36: lay-offs are allowed in the turn of the first meld."
    )
    dskv_strict_set_exchange: bool = option(
        False, doc="§8.5/A-40: a joker leaves a set only when all four suits lie there as naturals."
    )
    joker_exchange_use: Literal["new_meld", "any_formation"] = option(
        "new_meld",
        choices=("new_meld", "any_formation"),
        kind=ENGINE,
        doc="A-39: the freed joker must go into a new meld this turn (or any formation).",
    )
    min_naturals_per_figure: int = option(
        2, minimum=1, maximum=3, doc="§8.4/A-38: natural cards every figure must hold."
    )
    jokers_le_naturals: bool = option(
        False,
        kind=ENGINE,
        doc="A-38: the stricter rule, no figure with more jokers than natural cards.",
    )
    winner_collects: bool = option(
        False,
        kind=ENGINE,
        doc="A-41: the winner is credited with the sum of the losers' penalties.",
    )
    match_deals: int = option(
        per_player,
        minimum=1,
        maximum=1000,
        kind=ENGINE,
        doc="A-41: deals in a match (default: each player deals once).",
    )
    loss_limit: int | None = option(
        None,
        minimum=1,
        maximum=1_000_000,
        nullable=True,
        kind=ENGINE,
        doc="A-41: the match ends when a total falls below minus this.",
    )


def meld_rules_for(options: Options) -> MeldRules:
    """The figure rules under these options (§8.4, A-38)."""
    opts = RommeOptions.of(options)
    return MeldRules(
        min_size=3,
        ace_low=True,
        ace_high=True,
        ace_both_ends=False,
        set_distinct_suits=True,
        set_max_size=4,
        min_natural=opts.min_naturals_per_figure,
        wild_le_natural=opts.jokers_le_naturals,
    )


def pack(options: Options) -> PieceSet:
    """§8.1: two packs with ``jokers_per_deck`` jokers each."""
    opts = RommeOptions.of(options)
    return card_pack(2, 2 * opts.jokers_per_deck)


def opening_value(kind: MeldKind, position: int) -> int:
    """RULES §8.5: A is 1 only as the low ace of a run, else 11; K/Q/J 10; 2-10 face."""
    if kind is MeldKind.RUN and position == 1:
        return 1
    return PENALTY.get(1 if position == HIGH_ACE else position, 0)


def deal(
    pieces: PieceSet, order: Sequence[int], players: int, dealer: int, options: Options
) -> DealLayout:
    """RULES §8.2: packets of 3, 3, 3, 4 clockwise from the dealer's left.

    Seats are in play order (clockwise), so the dealer's left is the next seat and
    the cutter, on his right, the previous one.
    """
    opts = RommeOptions.of(options)
    order = list(order)
    forehand = (dealer + 1) % players
    cutter = (dealer - 1) % players
    robbed: int | None = None
    if opts.rauben and pieces.faces[order[-1]].is_joker:
        # The bottom card of the lifted portion is taken as the pack's last card.
        robbed = order.pop()
    fourteenth = opts.start_mode == "fourteenth_card"
    first = forehand
    extra: dict[int, int] = {}
    if fourteenth:
        first = dealer if opts.fourteenth_card_to == "dealer" else forehand
        extra[first] = 1
    layout = deal_in_packets(
        order, players, forehand, [3, 3, 3, 4], upcard=not fourteenth, extra=extra
    )
    if robbed is None:
        return DealLayout(
            racks=layout.racks, stock=layout.stock, first_seat=first, discard=layout.discard
        )
    racks = [list(r) for r in layout.racks]
    stock = list(layout.stock)
    if opts.rauben_reduces_deal:
        stock.insert(0, racks[cutter].pop())
    racks[cutter].append(robbed)
    return DealLayout(
        racks=tuple(tuple(r) for r in racks),
        stock=tuple(stock),
        first_seat=first,
        discard=layout.discard,
        notes=(f"P{cutter + 1} robbed a joker at the cut",),
    )


def score_value(face: Face) -> int:
    """A card's penalty value left in the hand (joker 30)."""
    return JOKER_PENALTY if face.is_joker else PENALTY[face.rank]


def score_deal(
    outcomes: Sequence[SeatOutcome], double_game: bool, closing: Face | None, options: Options
) -> tuple[int, ...]:
    """RULES §8.8/A-41: losers are charged their hand (joker 30); the winner 0 or the sum."""
    opts = RommeOptions.of(options)
    winner = next((i for i, o in enumerate(outcomes) if o.closed), None)
    if winner is None:
        return (0,) * len(outcomes)
    charges = [
        sum(JOKER_PENALTY if f.is_joker else PENALTY[f.rank] for f in o.rack) for o in outcomes
    ]
    scores = [-c for c in charges]
    scores[winner] = sum(charges) if opts.winner_collects else 0
    return tuple(scores)


def match_over(totals: Sequence[int], deals: int, options: Options) -> bool:
    """A-41: after ``match_deals`` deals, or when a total falls below −``loss_limit``."""
    opts = RommeOptions.of(options)
    limit = opts.loss_limit
    return deals >= opts.match_deals or (limit is not None and min(totals) < -int(limit))


def play_rules(options: Options) -> PlayRules:
    """RULES §8.2-§8.7."""
    opts = RommeOptions.of(options)
    fourteenth = opts.start_mode == "fourteenth_card"
    return PlayRules(
        first_turn_draws=not fourteenth,
        first_turn_may_meld=True,
        take_use=(
            TakeUse.ON_TABLE if opts.discard_pickup_requires_immediate_meld else TakeUse.NONE
        ),
        discard_taken_allowed=opts.allow_discard_of_taken_discard,
        recycle_stock=True,
        recycle_limit=opts.max_stock_recycles,
        recycle_shuffle=opts.recycle_shuffle,
        layoff_on_opening_turn=opts.layoff_on_opening_turn,
        go_out_without_discard=True,  # §8.6
        joker_exchange=True,
        # exchanges wait for a turn after the first meld, unless lay-offs are
        # allowed in the opening turn (the two are tied), then opened by the turn's end.
        exchange_needs_opened_before=not opts.layoff_on_opening_turn,
        exchange_needs_opened_by_end=True,
        exchange_set_needs_all_suits=opts.dskv_strict_set_exchange,
        exchanged_joker_use=(
            "new_formation" if opts.joker_exchange_use == "new_meld" else "formation"
        ),
        opening_min_points=opts.opening_min_points,
        opening_structure=OpeningStructure.NONE,
        sections={
            "first_turn": "§8.2",
            "acquire": "§8.3",
            "take_use": "§8.3/A-37",
            "opening": "§8.5",
            "exchange_use": "§8.5/A-39",
            "exchange_opened": "§8.5/A-39",
            "meld": "§8.4",
            "attach": "§8.5",
            "attach_opening": "§8.5/A-36",
            "exchange": "§8.5",
            "exchange_set": "§8.5/A-40",
            "keep_discard": "§8.6",
            "deal_end": "§8.8",
            "layoff_unopened": "§8.5/A-36",
        },
    )


ROMME = register(
    Variant(
        name="romme",
        title="German Rommé (Deutsches Rommé)",
        aliases=("deutsches-romme", "remik", "rommé", "niemiecki-remik"),
        rules_section="§8",
        summary=(
            "Two packs with 3 jokers each (110 cards), 2-6 players, 13 cards, clockwise. "
            "Draw the up-card or the stock; first meld at least 40 points (ace 1 only low in "
            "a run, else 11; a joker counts as the card it replaces); no lay-offs in that "
            "turn; figures need two natural cards. Opened players lay off anywhere and may "
            "exchange a joker for the card it stands for, melding it at once. Go out with or "
            "without a final discard; the others are charged their hands (joker 30)."
        ),
        material=pack(RommeOptions.parse({}, 4)).material,
        min_players=2,
        max_players=6,
        default_players=4,
        meld_rules=MELD_RULES,
        option_type=RommeOptions,
        pieces=pack,
        opening_value=opening_value,
        score_value=score_value,
        deal=deal,
        score_deal=score_deal,
        play_rules=play_rules,
        match_over=match_over,
        meld_rules_for=meld_rules_for,
    )
)
