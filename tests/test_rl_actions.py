"""The integer action space (rl/actions.py): a fixed table, total and injective on legal sets."""

from __future__ import annotations

import random

import pytest

from kit import pass_turn, pass_turns, play
from remi_ro_support import act, stacked_game
from rummykit.engine import parse_action
from rummykit.engine.actions import (
    AnnounceThree,
    Attach,
    CloseBoard,
    DeclareBoard,
    Discard,
    Draw,
    ExchangeJoker,
    Meld,
    NextDeal,
    Reclaim,
    ResetTurn,
    TakeColumn,
)
from rummykit.model.candidates import candidates, counts_of
from rummykit.model.pieces import Face, Material
from rummykit.rl import ActionCodec, Table, UnencodableActionError, action_codec
from rummykit.rl.conformance import check_action_encoding, check_legal_set
from rummykit.rules import all_variants, find_variant

VARIANTS = [v.name for v in all_variants()]


def _codec(name: str) -> ActionCodec:
    variant = find_variant(name)
    players = variant.default_players
    return action_codec(variant, variant.pieces(variant.resolve(players)))


@pytest.mark.parametrize("name", VARIANTS)
def test_every_number_round_trips(name: str) -> None:
    """decode then encode is the identity (formations sampled in the largest spaces:
    building every Meld object of romme's 129,605 takes seconds)."""
    codec = _codec(name)
    melds = codec.block("meld")
    stride = max(1, melds.size // 20_000)
    numbers = [i for i in range(codec.size) if i not in melds or (i - melds.start) % stride == 0]
    actions = [codec.decode(i) for i in numbers]
    assert len(set(actions)) == len(actions)
    for index, action in zip(numbers, actions, strict=True):
        assert codec.encode(action) == index, action
        assert codec.decode(index) is action


@pytest.mark.parametrize("name", VARIANTS)
def test_blocks_tile_the_space_in_the_documented_order(name: str) -> None:
    codec = _codec(name)
    names = [b.name for b in codec.blocks]
    assert names == [
        "draw",
        "take",
        "meld",
        "attach",
        "exchange",
        "discard",
        "close",
        "call",
        "out",
        "turn",
        "preplay",
        "reclaim",
        "extension",
    ]
    position = 0
    for block in codec.blocks:
        assert block.start == position
        # Empty blocks (no "out" where nobody goes out with a layout, no "reclaim" where
        # nothing is reclaimed) hold no number.
        if block.size:
            assert all(codec.block_of(i) == block for i in (block.start, block.stop - 1))
        position = block.stop
    assert position == codec.size
    assert codec.block("take").size == codec.piece_count
    assert codec.block("attach").size == codec.max_formations * (53 + 52)
    assert codec.block("exchange").size == codec.max_formations * (52 + 13 * 11)
    reclaims = any(o.name == "allow_reclaim_own_end_tiles" for o in find_variant(name).options)
    assert codec.block("reclaim").size == (codec.max_formations * 52 if reclaims else 0)
    # Only gin's extension declares actions of its own: pass, knock, a lay-off per card.
    assert codec.block("extension").size == (2 + 52 if name == "gin" else 0)


def test_remi_ro_space_size_is_fixed() -> None:
    """106 tiles: 106 column positions, 9,945 formations, 35 formation ids."""
    codec = _codec("remi_ro")
    assert codec.max_formations == 35
    assert codec.block("meld").size == 9945
    assert codec.size == 20982
    assert codec.decode(0) == Draw()
    assert codec.decode(1) == TakeColumn(0)
    assert str(codec.decode(codec.block("discard").start)) == "discard R1"


def test_codec_is_built_once_per_variant_and_piece_set() -> None:
    assert _codec("remi_ro") is _codec("remi")


@pytest.mark.parametrize("name", VARIANTS)
def test_meld_catalogue_holds_every_formation_of_any_rack(name: str) -> None:
    """Candidates of random sub-multisets of the piece set are all in the catalogue."""
    variant = find_variant(name)
    pieces = variant.pieces(variant.resolve(variant.default_players))
    codec = action_codec(variant, pieces)
    if not variant.melds_during_play:
        # RULES §7.3: nothing is laid during play, so there is no meld to number.
        assert codec.block("meld").size == codec.max_formations == 0
        return
    kinds = [f.kind for f in pieces.faces]
    rng = random.Random(5)
    for size in [*range(3, 17), 20, 30] * 5:
        counts = counts_of(rng.sample(kinds, min(size, len(kinds))))
        for c in candidates(counts, variant.meld_rules):
            meld = Meld(c.faces(pieces.material), c.declared(pieces.material))
            assert codec.block_of(codec.encode(meld)).name == "meld"


def test_unencodable_actions_are_refused_by_name() -> None:
    codec = _codec("remi_ro")
    r5 = Face.parse("R5", Material.TILES)
    for action in (
        NextDeal(),  # played by the environment, never by an agent
        TakeColumn(-1),
        TakeColumn(106),
        Attach(r5, 0),
        Attach(r5, 36),
        Attach(r5, 1, r5),  # only a joker is declared
        ExchangeJoker((r5, r5), 1),
        Meld((r5,), (None,)),
    ):
        with pytest.raises(UnencodableActionError, match="has no number"):
            codec.encode(action)
    with pytest.raises(IndexError, match=r"outside 0\.\.20981"):
        codec.decode(codec.size)


def test_joker_attaches_are_numbered_by_declared_face() -> None:
    codec = _codec("remi_ro")
    joker = Face.parse("J", Material.TILES)
    plain = codec.encode(Attach(joker, 3))
    declared = codec.encode(Attach(joker, 3, Face.parse("B7", Material.TILES)))
    base = codec.block("attach").start + 2 * 105
    assert (plain, declared) == (base + 52, base + 53 + 13 * 2 + 6)


def test_set_exchanges_are_numbered_by_rank_and_suits() -> None:
    codec = _codec("remi_ro")
    single = codec.encode(ExchangeJoker((Face.parse("Y9", Material.TILES),), 1))
    pair = codec.encode(ExchangeJoker(tuple(map(act_face, ("R9", "K9"))), 1))
    base = codec.block("exchange").start
    assert single == base + 13 + 8
    # Groups of suits in order: (R,Y) (R,B) (R,K) ...; rank 9 is the ninth row of 11.
    assert pair == base + 52 + 8 * 11 + 2
    assert codec.decode(pair) == ExchangeJoker(tuple(map(act_face, ("R9", "K9"))), 1)


def act_face(text: str) -> Face:
    return Face.parse(text, Material.TILES)


def test_board_close_is_reachable_through_its_number() -> None:
    """RRT-25: a board player's closing discard has a number, and playing it scores the
    contract as the deal score."""
    game = stacked_game(
        4,
        {1: "R5 B5 Y5 K5 R9 B9 Y9 K9 R12 B12 Y12 B2 Y2 R7"},
        stock="- - - - K2",
        options={"match_deals": 1},
    )
    pass_turn(game)
    play(game, "P2: board")
    pass_turns(game, 4)
    play(game, "P2: draw")
    table = Table("remi_ro", 4, {})
    table.game = game
    numbers = check_legal_set(table)
    close = table.codec.encode(act("close R7"))
    assert close in numbers and isinstance(table.codec.decode(close), CloseBoard)
    outcome = table.play(close)
    assert outcome.deal is not None and outcome.finished
    assert table.rewards(outcome.deal) == [-100.0, 700.0, -100.0, -100.0]


def test_turn_actions_have_fixed_numbers() -> None:
    codec = _codec("remi_ro")
    start = codec.block("turn").start
    assert [codec.encode(a) for a in (AnnounceThree(), DeclareBoard(), ResetTurn())] == [
        start,
        start + 1,
        start + 2,
    ]
    assert codec.encode(Discard(Face.parse("J", Material.TILES))) == codec.block("discard").stop - 1


def test_reclaims_have_numbers_where_the_variant_has_them() -> None:
    """remmi_de's A-75 option: ``reclaim X <- mN`` is numbered per source and face."""
    codec = _codec("remmi_de")
    start = codec.block("reclaim").start
    action = Reclaim(Face.parse("K10", Material.TILES), 2)
    assert codec.encode(action) == start + 52 + action.face.kind
    assert codec.decode(codec.encode(action)) == action
    with pytest.raises(UnencodableActionError):
        _codec("remi_ro").encode(action)


@pytest.mark.parametrize(
    "options",
    [{"max_jokers_rule": "one_natural"}, {"allow_reclaim_own_end_tiles": True}],
)
def test_remmi_options_that_widen_the_actions_stay_encodable(options: dict[str, object]) -> None:
    """The catalogue holds every formation any option allows ([R1 J J] under
    ``one_natural``); masked random play under such options verifies every number."""
    codec = _codec("remmi_de")
    meld = parse_action("meld [R1 J(R2) J(R3)]", Material.TILES)
    assert codec.decode(codec.encode(meld)) == meld
    assert check_action_encoding("remmi_de", 3, steps=1500, seed=5, options=options) >= 1
