"""Shared card-variant helpers (``rummykit.rules.cards``): packs, packet dealing, hand
values, the target/deals match end, the shared options of RULES §2.4/§2.5 and the
stacked-deal builder ``stack_cards``."""

from __future__ import annotations

import random

import pytest

from card_support import card_order, cards, first_player_dealer
from rummykit.engine import Game
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.rules import OptionError, OptionKind, find_variant
from rummykit.rules.basic import BASIC
from rummykit.rules.basic import VALUES as BASIC_VALUES
from rummykit.rules.cards import (
    RECYCLE_OPTIONS,
    card_pack,
    deal_in_packets,
    hand_value,
    stack_cards,
    target_or_deals_over,
)
from rummykit.rules.german2 import GERMAN2

CARDS = Material.CARDS


# ------------------------------------------------------------------ packs


@pytest.mark.parametrize(("decks", "jokers", "size"), [(1, 0, 52), (2, 0, 104), (2, 4, 108)])
def test_card_pack_sizes_and_copies(decks: int, jokers: int, size: int) -> None:
    """§0.1: ``decks`` 52-card packs plus jokers; identical copies are told apart by #n."""
    pack = card_pack(decks, jokers)
    assert len(pack) == size and pack.material is CARDS
    assert sum(f.is_joker for f in pack.faces) == jokers
    for face in parse_faces("AS 10H QC KD", CARDS):
        assert [pack.faces[p] for p in pack.pieces_of(face)] == [face] * decks
    assert pack.name(pack.parse_piece(f"7C#{decks}")) == f"7C#{decks}"
    assert pack.faces[pack.parse_piece("7C")] == Face.parse("7C")
    # Frozen, so every game of that size shares one (a new game asks each time).
    assert card_pack(decks, jokers) is pack


# ------------------------------------------------------------------ dealing


def test_deal_in_packets_one_at_a_time_with_up_card() -> None:
    """§3.2: one card at a time from ``first`` in play order, then the up-card."""
    layout = deal_in_packets(list(range(52)), 3, 1, [1] * 7, upcard=True)
    assert layout.racks[1] == tuple(range(0, 21, 3))
    assert layout.racks[2] == tuple(range(1, 21, 3))
    assert layout.racks[0] == tuple(range(2, 21, 3))
    assert layout.discard == (21,) and layout.stock == tuple(range(22, 52))
    assert layout.first_seat == 1


def test_deal_in_packets_with_packets_extra_and_no_up_card() -> None:
    """Packets of several cards, an extra card for one seat, no up-card."""
    layout = deal_in_packets(list(range(20)), 2, 0, [3, 2], upcard=False, extra={1: 1})
    assert layout.racks[0] == (0, 1, 2, 6, 7)
    assert layout.racks[1] == (3, 4, 5, 8, 9, 10)
    assert layout.discard == () and layout.stock == tuple(range(11, 20))


# ------------------------------------------------------------------ values, match end


def test_hand_value() -> None:
    """§3.8: the value of the cards in a hand; jokers count the given value."""
    faces = list(parse_faces("KH 5D AC 2S 3S", CARDS))
    assert hand_value(faces, BASIC_VALUES) == 21
    assert hand_value([*faces, Face.joker(CARDS)], BASIC_VALUES, joker=25) == 46
    assert hand_value([], BASIC_VALUES) == 0


@pytest.mark.parametrize(
    ("totals", "deals", "given", "over"),
    [
        ([749, 0, 0], 9, {}, False),
        ([750, 0, 0], 1, {}, True),
        ([0, 812, 3], 2, {}, True),
        ([10, 20], 3, {"match_mode": "deals", "match_deals": 4}, False),
        ([10, 20], 4, {"match_mode": "deals", "match_deals": 4}, True),
        ([900, 0], 1, {"match_mode": "deals", "match_deals": 4}, False),
        ([99, 0], 1, {"target_score": 100}, False),
        ([100, 0], 1, {"target_score": 100}, True),
    ],
)
def test_target_or_deals_over(
    totals: list[int], deals: int, given: dict[str, object], over: bool
) -> None:
    """§3.8, A-08: "target" ends when a total reaches (or exceeds) ``target_score``;
    "deals" after ``match_deals`` deals, whatever the totals."""
    options = BASIC.resolve(len(totals), given)
    assert target_or_deals_over(totals, deals, options) is over


# ------------------------------------------------------------------ shared options


@pytest.mark.parametrize(
    ("name", "default", "kind"),
    [
        ("recycle_shuffle", False, OptionKind.DOCUMENTED),
        ("max_stock_recycles", None, OptionKind.ENGINE),
        ("allow_discard_of_taken_discard", False, OptionKind.ENGINE),
    ],
)
def test_recycle_options(name: str, default: object, kind: OptionKind) -> None:
    """§2.4, §2.5, A-03, A-05: the options every card variant shares."""
    spec = next(s for s in RECYCLE_OPTIONS if s.name == name)
    assert spec.default == default and spec.kind is kind
    for variant in (BASIC, GERMAN2):
        assert name in {s.name for s in variant.options}
        assert variant.resolve(2)[name] == default


def test_max_stock_recycles_values() -> None:
    """§2.4: null (no limit) or a non-negative count."""
    assert BASIC.resolve(3, {"max_stock_recycles": 0})["max_stock_recycles"] == 0
    assert BASIC.resolve(3, {"max_stock_recycles": None})["max_stock_recycles"] is None
    with pytest.raises(OptionError):
        BASIC.resolve(3, {"max_stock_recycles": -1})
    with pytest.raises(OptionError):
        BASIC.resolve(3, {"recycle_shuffle": "yes"})


# ------------------------------------------------------------------ stack_cards


def stacking_cases() -> list[tuple[str, int, int]]:
    return [("basic", n, d) for n in range(2, 7) for d in (0, n - 1)] + [
        ("german2", 2, 0),
        ("german2", 2, 1),
    ]


@pytest.mark.parametrize(("name", "players", "dealer"), stacking_cases())
def test_stack_cards_round_trip(name: str, players: int, dealer: int) -> None:
    """``stack_cards`` builds the order that deals the named racks, discard pile and first
    stock cards; every other card fills the rest of the stock."""
    variant = find_variant(name)
    options = variant.resolve(players)
    pieces = variant.pieces(options)
    probe = variant.deal(pieces, list(range(len(pieces))), players, dealer, options)
    rng = random.Random(players * 7 + dealer)
    ids = list(range(len(pieces)))
    rng.shuffle(ids)
    racks, i = [], 0
    for seat in range(players):
        size = len(probe.racks[seat])
        racks.append(ids[i : i + size])
        i += size
    discard = ids[i : i + len(probe.discard)]
    i += len(discard)
    stock = ids[i : i + 5]
    order = stack_cards(
        variant, players, dealer, options, racks=racks, discard=discard, stock=stock
    )
    assert sorted(order) == list(range(len(pieces)))
    layout = variant.deal(pieces, order, players, dealer, options)
    assert [sorted(r) for r in layout.racks] == [sorted(r) for r in racks]
    assert list(layout.discard) == discard
    assert list(layout.stock[:5]) == stock
    game = Game(variant, players, walls=[order], maker=dealer, seed=0)
    assert [sorted(r) for r in game.racks] == [sorted(r) for r in racks]
    assert game.column == discard
    assert list(reversed(game.stock))[:5] == stock


def test_stack_cards_fills_the_unnamed_stock_in_id_order() -> None:
    """Stock slots not named are filled with the remaining pieces in id order."""
    options = BASIC.resolve(2)
    pieces = BASIC.pieces(options)
    kc = pieces.parse_piece("KC")
    order = stack_cards(
        BASIC, 2, 1, options, racks=[list(range(10)), list(range(10, 20))], discard=[kc]
    )
    layout = BASIC.deal(pieces, order, 2, 1, options)
    assert layout.discard == (kc,)
    assert list(layout.stock) == list(range(20, 51))


def test_stack_cards_rejects_bad_requests() -> None:
    """Wrong rack sizes, a piece named twice and too many named cards are errors."""
    options = BASIC.resolve(2)
    with pytest.raises(ValueError, match="dealt 10 cards"):
        stack_cards(BASIC, 2, 1, options, racks=[[0, 1], list(range(10, 20))])
    with pytest.raises(ValueError, match="named twice"):
        stack_cards(BASIC, 2, 1, options, racks=[list(range(10)), list(range(9, 19))])
    with pytest.raises(ValueError, match="discard pile"):
        stack_cards(
            BASIC, 2, 1, options, racks=[list(range(10)), list(range(10, 20))], discard=[20, 21]
        )
    with pytest.raises(ValueError, match="stock"):
        stack_cards(
            BASIC,
            2,
            1,
            options,
            racks=[list(range(10)), list(range(10, 20))],
            stock=list(range(20, 53)),
        )


# ------------------------------------------------------------------ test helpers


def test_first_player_dealer() -> None:
    """The dealer that makes seat 0 the first player: the last seat in basic (§3.2), seat 0
    in german2 (§5.2)."""
    assert [first_player_dealer("basic", n) for n in range(2, 7)] == [1, 2, 3, 4, 5]
    assert first_player_dealer("german2", 2) == 0


def test_card_order_fillers_form_no_melds() -> None:
    """The stacked-deal helper's fillers form no meld with anything in the same hand."""
    from rummykit.model.candidates import candidates, counts_of

    for name, players in [("basic", 2), ("basic", 4), ("german2", 2)]:
        variant = find_variant(name)
        order, dealer = card_order(variant, players, racks={0: "7H 8H"})
        game = Game(variant, players, walls=[order], maker=dealer, seed=0)
        assert set(cards("7H 8H")) <= set(map(str, game.rack_faces(0)))
        for seat in range(players):
            counts = counts_of([f.kind for f in game.rack_faces(seat)])
            assert not list(candidates(counts, variant.meld_rules)), (name, seat)
