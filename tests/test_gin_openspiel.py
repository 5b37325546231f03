"""rummykit's ``gin`` against OpenSpiel's ``gin_rummy``, deal by deal (docs/rules/gin.md).

Each deal is shuffled once by a seeded ``random.Random``; rummykit deals it as the wall
of its game and OpenSpiel's chance nodes receive the same cards (the non-dealer's ten,
the dealer's ten, the up-card, then each stock card as rummykit draws it).  At every
step the two legal sets must be the same once mapped (a card is its face kind, which
is OpenSpiel's card number; ``ready`` is OpenSpiel's pass in the lay-out steps), and the
action chosen, at random, is played in both.  At the end the deal scores must equal
OpenSpiel's returns.

Half the deals choose uniformly among the legal actions; the other half knock whenever
they may and otherwise discard to keep deadwood low more often than not, so the knock,
the lay-offs, gin and undercuts are reached often (uniform play rarely knocks).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from rummykit.engine import Game
from rummykit.engine.actions import Action, Discard, Draw, Meld, Ready, TakeColumn
from rummykit.engine.extensions.gin import Knock, LayOff, Pass
from rummykit.rules.gin import deadwood

try:
    import pyspiel
except ImportError:  # pragma: no cover - the test extra installs it
    if os.environ.get("CI") == "true":
        pytest.fail(
            "CI must run the OpenSpiel differential test: pyspiel is missing (the test extra)",
            pytrace=False,
        )
    pytest.skip("pyspiel is not installed (the test extra)", allow_module_level=True)

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
RANKS, SUITS = "A23456789TJQK", "scdh"

DEALS = 1000
CHUNKS = 20
OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"oklahoma": True},
    {"knock_card": 5, "gin_bonus": 20, "undercut_bonus": 10},
    {"knock_card": 0},
)


def _os_params(options: dict[str, Any]) -> str:
    if not options:
        return "gin_rummy"
    inner = ",".join(f"{k}={str(v).lower()}" for k, v in sorted(options.items()))
    return f"gin_rummy({inner})"


def _meld_ids(state: Any) -> dict[frozenset[int], int]:
    """OpenSpiel's meld actions by their cards (read from the action names)."""
    out = {}
    for action in range(MELD_BASE, MELD_BASE + 185):
        text = state.action_to_string(0, action).split("Action: ")[1]
        cards = frozenset(
            SUITS.index(text[i + 1]) * 13 + RANKS.index(text[i]) for i in range(0, len(text), 2)
        )
        out[cards] = action
    return out


def _to_openspiel(action: Action, melds: dict[frozenset[int], int]) -> int:
    if isinstance(action, Draw):
        return DRAW_STOCK
    if isinstance(action, TakeColumn):
        return DRAW_UPCARD
    if isinstance(action, Pass | Ready):
        return PASS
    if isinstance(action, Knock):
        return KNOCK
    if isinstance(action, Discard | LayOff):
        return action.face.kind
    assert isinstance(action, Meld), action
    return melds[frozenset(f.kind for f in action.faces)]


def _choose(game: Game, legal: list[Action], rng: random.Random, eager: bool) -> Action:
    """A random legal action; ``eager``: knock when allowed, and mostly discard the card
    that keeps the least deadwood."""
    if eager:
        knocks = [a for a in legal if isinstance(a, Knock)]
        if knocks:
            return knocks[0]
        kinds = [game.faces[p].kind for p in game.racks[game.to_move]]
        takes = [a for a in legal if isinstance(a, TakeColumn)]
        if takes and rng.random() < 0.8:
            upcard = game.faces[game.column[-1]].kind
            helps = min(deadwood([*kinds[:i], *kinds[i + 1 :], upcard]) for i in range(len(kinds)))
            if helps < deadwood(kinds):
                return takes[0]
            return next((a for a in legal if not isinstance(a, TakeColumn)), takes[0])
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards and rng.random() < 0.8:

            def left(a: Discard) -> int:
                rest = list(kinds)
                rest.remove(a.face.kind)
                return deadwood(rest)

            return min(discards, key=left)
        melds = [a for a in legal if isinstance(a, Meld | LayOff)]
        if melds and rng.random() < 0.8:
            return rng.choice(melds)
    return rng.choice(legal)


def play_deal(seed: int) -> tuple[int, int]:
    """Play deal ``seed`` in both engines, checking every step; (steps, knocked)."""
    rng = random.Random(seed)
    options = OPTIONS[seed % len(OPTIONS)]
    eager = seed % 2 == 1
    order = list(range(52))
    rng.shuffle(order)
    maker = rng.randrange(2)
    game = Game("gin", 2, options, seed=seed, walls=[order], maker=maker)
    first = game.first_seat
    faces = game.faces
    state = pyspiel.load_game(_os_params(options)).new_initial_state()
    melds = _meld_ids(state)
    # OpenSpiel deals its player 0 (the non-dealer) first, then player 1, then the up-card.
    dealt = [*game.racks[first], *game.racks[1 - first]]
    assert len(dealt) == 20
    for piece in [*order[:10], *order[10:20], order[20]]:
        state.apply_action(faces[piece].kind)
    steps = 0
    while not game.is_over:
        assert not state.is_terminal(), f"seed {seed}: OpenSpiel ended first"
        seat = (first + state.current_player()) % 2
        assert game.to_move == seat, f"seed {seed} step {steps}: seat differs"
        legal = game.legal_actions()
        mapped = [_to_openspiel(a, melds) for a in legal]
        expected = sorted(state.legal_actions())
        assert sorted(mapped) == expected, (
            f"seed {seed} step {steps} ({game.describe()}): rummykit "
            f"{sorted(map(str, legal))} ≠ OpenSpiel "
            f"{[state.action_to_string(state.current_player(), a) for a in expected]}"
        )
        action = _choose(game, legal, rng, eager)
        next_card = faces[game.stock[-1]].kind if game.stock else None
        game.apply(action)
        state.apply_action(_to_openspiel(action, melds))
        while state.is_chance_node():
            assert isinstance(action, Draw) and next_card is not None
            state.apply_action(next_card)
        steps += 1
    assert state.is_terminal(), f"seed {seed}: rummykit ended first ({game.results[-1]})"
    returns = state.returns()
    scores = game.results[-1].scores
    assert [scores[(first + p) % 2] for p in range(2)] == [int(r) for r in returns], (
        f"seed {seed}: scores {scores} ≠ OpenSpiel returns {returns} ({game.results[-1]})"
    )
    return steps, int(game.results[-1].end == "knock")


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_gin_plays_as_openspiel(chunk: int) -> None:
    """Legal moves agree at every step and the scores agree, over DEALS random deals."""
    size = DEALS // CHUNKS
    knocks = 0
    for seed in range(chunk * size, (chunk + 1) * size):
        knocks += play_deal(seed)[1]
    assert knocks > 0, "no deal of this chunk reached a knock: the comparison missed it"


def _tie_heavy_hand(rng: random.Random, size: int) -> list[int]:
    """``size`` cards from few neighbouring ranks: many melds, many equal arrangements."""
    ranks = rng.sample(range(13), 4)
    pool = sorted({s * 13 + r + d for s in range(4) for r in ranks for d in (0, 1) if r + d < 13})
    return rng.sample(pool, size)


def test_card_arithmetic_equals_openspiels_utilities() -> None:
    """The rules layer's deadwood (with OpenSpiel's tie-break among equal arrangements of
    eleven), knock discards, knock melds and lay-offs equal GinRummyUtils' answers on
    random and tie-heavy hands (the tie-break decides 14 of 30,000 such hands)."""
    from rummykit.rules import gin

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    rng = random.Random(2026)
    by_id = {i: tuple(sorted(utils.int_to_meld[i])) for i in range(185)}
    ids = {cards: i for i, cards in by_id.items()}
    for trial in range(3000):
        hand = _tie_heavy_hand(rng, 11) if trial % 2 else rng.sample(range(52), 11)
        assert gin.knock_deadwood(hand) == utils.min_deadwood(hand), hand
        for limit in (0, 5, 10):
            assert list(gin.knock_discards(hand, limit)) == utils.legal_discards(hand, limit)
        ten = hand[:10]
        assert gin.deadwood(ten) == utils.min_deadwood(ten)
        for limit in (0, 10, gin.MAX_DEADWOOD):
            mine = sorted(ids[m] for m in gin.knock_melds(ten, limit))
            assert mine == sorted(utils.legal_melds(ten, limit)), (ten, limit)
        melds = [by_id[i] for i in rng.sample(range(185), 2)]
        layoffs = rng.sample(range(52), 3)
        expected = utils.all_layoffs([ids[m] for m in melds], layoffs)
        assert sorted(gin.layoff_kinds(melds, layoffs)) == sorted(expected)
