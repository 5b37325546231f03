"""Continental's layout distance (bots/layout.py): RULES §7.4 runs, §7.6 layouts."""

from __future__ import annotations

import random
from dataclasses import replace

from rummykit.bots.layout import LayoutCounter, _complement, layout_distance, opponents_took
from rummykit.engine.game import Game
from rummykit.engine.view import view
from rummykit.model.melds import position_rank, run_order
from rummykit.model.pieces import Face, Material, parse_faces
from rummykit.rules.continental import PATTERNS, find_layout
from rummykit.rules.variant import find_variant

CONTINENTAL = find_variant("continental")
OPTIONS = CONTINENTAL.resolve(2)
COUNTER = LayoutCounter(CONTINENTAL.rules_for(OPTIONS))
FACES = list(CONTINENTAL.pieces(OPTIONS).faces)
WILD = [f for f in FACES if COUNTER.is_wild(f)]


def _cards(text: str) -> list[Face]:
    return list(parse_faces(text, Material.CARDS))


def _near_layout(rng: random.Random) -> list[Face]:
    """A random layout (§7.6: a pattern of runs, now and then a wild card in a run),
    then up to three cards replaced by random ones."""
    order = run_order(COUNTER.rules)
    hand: list[Face] = []
    for size in rng.choice(PATTERNS):
        suit = rng.randrange(4)
        start = rng.randrange(len(order) - size + 1)
        hand += [
            Face.of(Material.CARDS, suit, position_rank(p)) for p in order[start : start + size]
        ]
    if rng.random() < 0.5:
        hand[rng.randrange(15)] = rng.choice(WILD)
    for _ in range(rng.randrange(4)):
        hand[rng.randrange(15)] = rng.choice(FACES)
    return hand


def test_a_layout_is_distance_zero_and_one_card_short_is_one() -> None:
    """§7.6: 5-4-3-3 with A-3-4 the lowest run (§7.4); a card off the 3-run of clubs
    leaves one card missing."""
    layout = _cards("AH 3H 4H 5S 6S 7S 8S 9D 10D JD QD KD 4C 5C 6C")
    assert find_layout(layout, OPTIONS) is not None
    assert COUNTER.distance(layout) == 0
    short = _cards("AH 3H 4H 5S 6S 7S 8S 9D 10D JD QD KD 4C 5C 9C")
    assert COUNTER.distance(short) == 1
    assert layout_distance(short, COUNTER.rules) == 1


def test_wild_cards_fill_any_place() -> None:
    """§7.1: a 2 or a joker stands for the missing 6C; a second 2 is one card too many."""
    assert COUNTER.distance(_cards("AH 3H 4H 5S 6S 7S 8S 9D 10D JD QD KD 4C 5C 2D")) == 0
    assert COUNTER.distance(_cards("AH 3H 4H 5S 6S 7S 8S 9D 10D JD QD KD 4C JK 2D")) == 0
    assert COUNTER.distance(_cards("AH 3H 4H 5S 6S 7S 8S 9D 10D JD QD KD 4C 5C 6C 2D")) == 0


def test_distance_zero_exactly_when_the_rules_find_a_layout() -> None:
    """The count agrees with the rules' exact layout search on near-layout hands
    (wild-only runs aside, A-29: none of these hands has three wild cards)."""
    rng = random.Random(7)
    checked = 0
    while checked < 150:
        hand = _near_layout(rng)
        if sum(COUNTER.is_wild(f) for f in hand) >= 3:
            continue
        assert (COUNTER.distance(hand) == 0) == (find_layout(hand, OPTIONS) is not None), hand
        checked += 1


def test_a_draw_brings_a_hand_at_most_one_card_nearer() -> None:
    rng = random.Random(3)
    for _ in range(60):
        hand = rng.sample(FACES, 15)
        now = COUNTER.distance(hand)
        for card in rng.sample(FACES, 8):
            after = COUNTER.distance([*hand, card])
            assert now - 1 <= after <= now


def test_discards_and_outs_agree_with_the_distance_asked_card_by_card() -> None:
    rng = random.Random(11)
    for _ in range(40):
        hand = rng.sample(FACES, 16)
        for card, missing in COUNTER.discards(hand).items():
            rest = list(hand)
            rest.remove(card)
            assert COUNTER.distance(rest) == missing
        fifteen = hand[:15]
        now = COUNTER.distance(fifteen)
        pool = rng.sample(FACES, 50)
        brute = sum(now > 0 and COUNTER.distance([*fifteen, c]) < now for c in pool)
        assert COUNTER.outs(fifteen, pool) == brute


def test_opponents_took_follows_takes_and_later_discards() -> None:
    """§7.3: a take is the pile's top, the last card discarded; a card taken and later
    discarded is no longer held; the seat's own takes do not count."""
    history = (
        (0, "discard 7H"),
        (1, "take 1"),
        (1, "discard KS"),
        (0, "take 1"),
        (0, "discard 4C"),
        (1, "draw"),
        (1, "discard 9D"),
    )
    seen = replace(view(Game("continental", 2, seed=5), 0), history=history)
    assert opponents_took(seen) == _cards("7H")
    later = (*history, (0, "draw"), (0, "discard 5S"), (1, "take 3"), (1, "discard 7H"))
    assert opponents_took(replace(seen, history=later)) == _cards("5S")
    # The up-card taken before any discard is not known.
    assert opponents_took(replace(seen, history=((1, "take 0"), (1, "discard 3H")))) == []


def test_suit_covers_hold_one_card_a_place_per_run() -> None:
    """One suit's runs: 5-6-7 in a run of 3 holds three; a second 6 needs a second run
    (two runs of the same suit are allowed, §7.6) and the two hold four."""
    row = [0] * 13
    for rank in (5, 6, 6, 7):
        row[rank - 1] += 1
    covers = COUNTER.suit(row)
    assert covers[_code(3)] == 3
    assert covers[_code(3, 3)] == 4
    assert covers[_code(4)] == 3
    assert max(covers.values()) == 4


def test_complement_leaves_room_in_a_pattern() -> None:
    """§7.6: beside a run of 5 there is room only for 4-3-3, so the runs of 5 of another
    suit do not count."""
    other = {_code(): 0, _code(5): 5, _code(3): 3}
    room = _complement(other)
    assert room[_code(5)] == 3  # only the other's run of 3 fits beside a 5
    assert room[_code(4, 3, 3)] == 5
    assert room[_code(3, 3, 3, 3, 3)] == 0


def _code(*sizes: int) -> int:
    return sum({3: 1, 4: 16, 5: 256}[s] for s in sizes)
