"""Action notation (RULES §2.3 turn model, §9.4-9.13 remi_ro actions): parse/print round-trip;
what each action proves about its actor's pieces (``proves()``), checked against the engine."""

from __future__ import annotations

import random
import typing
from collections import Counter

import pytest

from kit import preplay
from rummykit.bots import make_bot
from rummykit.engine.actions import (
    AcceptSwap,
    Action,
    AnnounceAtu,
    AnnounceDoubles,
    AnnounceThree,
    Attach,
    CallRemi,
    CloseBoard,
    DeclareBoard,
    DeclineSwap,
    Discard,
    DoublesCategory,
    Draw,
    ExchangeJoker,
    ExtensionAction,
    GoOut,
    Meld,
    NextDeal,
    Proof,
    ProposeSwap,
    ProvesPieces,
    Ready,
    Reclaim,
    ResetTurn,
    Reshuffle,
    TakeColumn,
    parse_action,
)
from rummykit.engine.extensions.gin import Knock, LayOff, Pass
from rummykit.engine.extensions.joker_shift import lifted_joker
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import view
from rummykit.model.pieces import Face, Material, NotationError
from rummykit.rules.variant import all_variants

TILES = Material.TILES
CARDS = Material.CARDS


def f(token: str) -> Face:
    return Face.parse(token)


# Every action type: its canonical notation and the record it parses to.
CANONICAL = [
    ("draw", Draw()),  # §9.6(1)(a)
    ("take 3", TakeColumn(3)),  # §9.6(1)(b)/(c)
    ("take 1", TakeColumn(1)),
    ("meld [R12 R13 J(R1)]", Meld((f("R12"), f("R13"), f("J")), (None, None, f("R1")))),
    ("meld [R5 J J]", Meld((f("R5"), f("J"), f("J")), (None, None, None))),
    ("meld [B7 R7 Y7]", Meld((f("B7"), f("R7"), f("Y7")), (None, None, None))),
    ("attach J(R10) -> m3", Attach(f("J"), 3, f("R10"))),  # §9.6(2) attach
    ("attach R6 -> m3", Attach(f("R6"), 3)),
    ("attach J -> m12", Attach(f("J"), 12)),
    ("exchange Y5 K5 -> m3", ExchangeJoker((f("Y5"), f("K5")), 3)),  # §9.10 both colours
    ("exchange K12 -> m1", ExchangeJoker((f("K12"),), 1)),
    ("discard R4", Discard(f("R4"))),  # §9.6(3)
    ("discard J", Discard(f("J"))),
    ("close R4", CloseBoard(f("R4"))),  # §9.13 board close
    ("reclaim K10 <- m2", Reclaim(f("K10"), 2)),  # A-75 option (remmi_de)
    ("out R4", GoOut(f("R4"))),  # §7.6 lay out the hand, close with R4
    ("out", GoOut()),  # §7.6/A-28 lay out the dealt hand
    ("three", AnnounceThree()),  # §9.11
    ("board", DeclareBoard()),  # §9.13
    ("reset", ResetTurn()),  # §2.3 reset turn
    ("atu", AnnounceAtu()),  # §9.4(3)
    ("doubles small", AnnounceDoubles(DoublesCategory.SMALL)),  # §9.4(1)
    ("doubles big", AnnounceDoubles(DoublesCategory.BIG)),
    ("doubles key", AnnounceDoubles(DoublesCategory.KEY)),
    ("swap R5 P3", ProposeSwap(f("R5"), 2)),  # §9.4(1) double swap
    ("accept R7", AcceptSwap(f("R7"))),
    ("decline", DeclineSwap()),
    ("reshuffle", Reshuffle()),  # §9.4(2)
    ("ready", Ready()),
    ("next", NextDeal()),
    # Declared by the gin extension (ExtensionAction): gin §G.2, §G.4, §G.5.
    ("pass", Pass()),
    ("knock", Knock()),
    ("layoff R7", LayOff(f("R7"))),
]


@pytest.mark.parametrize(("text", "action"), CANONICAL)
def test_every_action_round_trips(text: str, action: object) -> None:
    parsed = parse_action(text, TILES)
    assert parsed == action
    assert type(parsed) is type(action)
    assert str(parsed) == text
    assert parse_action(str(parsed), TILES) == parsed


def test_every_action_type_is_covered() -> None:
    covered = {type(a) for _, a in CANONICAL}
    expected = {
        Draw,
        TakeColumn,
        Meld,
        Attach,
        ExchangeJoker,
        Discard,
        CloseBoard,
        GoOut,
        AnnounceThree,
        DeclareBoard,
        ResetTurn,
        AnnounceAtu,
        AnnounceDoubles,
        ProposeSwap,
        AcceptSwap,
        DeclineSwap,
        Reshuffle,
        Ready,
        NextDeal,
        Reclaim,
        Pass,
        Knock,
        LayOff,
    }
    assert covered == expected


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("  draw  ", "draw"),
        ("DRAW", "draw"),
        ("meld R12 R13 J(R1)", "meld [R12 R13 J(R1)]"),  # brackets are optional
        ("meld [r12  r13   j(r1)]", "meld [R12 R13 J(R1)]"),
        ("attach R6->m3", "attach R6 -> m3"),
        ("attach R6 -> 3", "attach R6 -> m3"),
        ("attach R6 -> M3", "attach R6 -> m3"),
        ("exchange [Y5 K5] -> m3", "exchange Y5 K5 -> m3"),
        ("swap R5 3", "swap R5 P3"),
        ("swap r5 p3", "swap R5 P3"),
        ("doubles BIG", "doubles big"),
        ("discard  r4", "discard R4"),
        ("take  10", "take 10"),
    ],
)
def test_lenient_spellings_parse_to_the_canonical_action(text: str, canonical: str) -> None:
    assert str(parse_action(text, TILES)) == canonical


def test_meld_keeps_the_order_written() -> None:
    """§0.3: a meld is an ordered list; parsing does not reorder or re-read it."""
    meld = parse_action("meld [R1 R13 R12]", TILES)
    assert isinstance(meld, Meld)
    assert [str(x) for x in meld.faces] == ["R1", "R13", "R12"]


def test_card_actions_parse_with_card_material() -> None:
    """§0.1: card variants write cards and `JK(7H)`."""
    meld = parse_action("meld [5H 6H JK(7H)]", CARDS)
    assert meld == Meld((f("5H"), f("6H"), f("JK")), (None, None, f("7H")))
    assert str(meld) == "meld [5H 6H JK(7H)]"
    assert parse_action("discard 10S", CARDS) == Discard(f("10S"))


# --------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "text",
    [
        "fly away",
        "drawx",
        "draw 2",
        "three please",
        "pass 2",
        "knock R4",
        "layoff",
        "discard_R4",
        "-> m3",
        "meld[R1",
    ],
)
def test_garbage_is_a_notation_error_naming_the_text(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text, TILES)
    assert repr(text) in str(info.value) or text in str(info.value)


@pytest.mark.parametrize("text", ["", "   "])
def test_an_empty_action_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match="empty"):
        parse_action(text, TILES)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("take", "take"),
        ("take x", "take x"),
        ("take 2.5", "take 2.5"),
        ("doubles medium", "doubles medium"),
        ("discard X5", "X5"),
        ("discard R14", "R14"),
        ("discard QH", "QH"),  # a card in a tile game
        ("discard", "''"),
        ("close R0", "R0"),
        ("accept 1S", "1S"),
        ("meld [R5 X6 R7]", "X6"),
        ("meld [R5 R6 J(X7)]", "X7"),
        ("meld [R5 R6 R7(R8)]", "R7(R8)"),  # only a joker can stand for another piece
        ("meld [R5 R6 J(J)]", "J(J)"),
        ("meld [R5 R6 J(R7]", "J(R7"),
        ("attach R6", "target"),
        ("attach R6 R7 -> m3", "exactly one"),
        ("attach R6 -> mx", "target"),
        ("exchange J(R5) -> m3", "natural"),
        ("exchange -> m3", "natural"),
        ("reclaim K10", "source"),
        ("reclaim K10 <- mx", "source"),
        ("swap R5", "seat"),
        ("swap R5 Q3", "seat"),
        ("swap X5 P3", "X5"),
        ("meld []", "pieces"),
    ],
)
def test_bad_arguments_are_notation_errors_saying_what_is_wrong(text: str, named: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text, TILES)
    assert named in str(info.value)


def test_notation_errors_are_value_errors() -> None:
    """Like python-chess, parse errors are ValueError subclasses."""
    with pytest.raises(ValueError):
        parse_action("nonsense", TILES)


def test_actions_are_frozen_and_hashable() -> None:
    actions = [a for _, a in CANONICAL]
    assert len({hash(a) for a in actions}) > 1
    assert len(set(actions)) == len(actions)
    with pytest.raises(AttributeError):
        TakeColumn(3).index = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("token", "category"),
    [
        ("R1", "key"),
        ("K1", "key"),
        ("Y2", "small"),
        ("B9", "small"),
        ("R10", "big"),
        ("K13", "big"),
    ],
)
def test_rule_9_4_doubles_categories(token: str, category: str) -> None:
    """§9.4(1): small 2-9, big 10-13, key 1-1."""
    assert DoublesCategory.of(f(token)) is DoublesCategory(category)


# ------------------------------------------------------------ what an action proves

# The built-in types, and those the extensions declare (ExtensionAction subclasses).
ACTION_TYPES = (
    *(t for t in typing.get_args(Action) if t is not ExtensionAction),
    Pass,
    Knock,
    LayOff,
)


def test_every_action_type_answers_what_it_proves() -> None:
    """Each class states its own proof: none inherits or forgets one."""
    samples = {type(a): a for _, a in CANONICAL} | {CallRemi: CallRemi(f("R4"))}
    assert set(samples) == set(ACTION_TYPES)
    for cls in ACTION_TYPES:
        assert "proves" in vars(cls), f"{cls.__name__} does not say what it proves"
        action = samples[cls]
        assert isinstance(action, ProvesPieces)
        assert isinstance(action.proves(), Proof)


@pytest.mark.parametrize(
    ("text", "held", "expected"),
    [
        # §9.6(2): every piece of a laid formation was in the hand; a joker's
        # declaration names a face the actor need not hold (§9.7).
        (
            "meld [R12 R13 J(R1)]",
            "R12 R13 J",
            Proof(lays=(f("R12"), f("R13"), f("J")), declared=(f("R1"),)),
        ),
        ("attach J(R10) -> m3", "J", Proof(lays=(f("J"),), declared=(f("R10"),))),
        # §9.10: the naturals were held; the formation's joker comes into the hand.
        ("exchange Y5 K5 -> m3", "Y5 K5", Proof(lays=(f("Y5"), f("K5")), takes_jokers_from=3)),
        # §9.6(1)(c): the pile from the chosen position up comes into the hand.
        ("take 3", "", Proof(takes_column_from=3)),
        ("discard R4", "R4", Proof(discards=(f("R4"),))),
        # §6.6: "remi X" closes with X face down on the pile; a bare call names nothing.
        ("remi R4", "R4", Proof(discards=(f("R4"),))),
        ("remi", "", Proof()),
        # §7.6: going out lays the whole hand but the closing card.
        ("out R4", "R4", Proof(discards=(f("R4"),), lays_hand=True)),
        ("out", "", Proof(lays_hand=True)),
        # §9.4(1): offering or accepting a swap proves both tiles of the double; one leaves.
        ("swap R5 P3", "R5 R5", Proof(passes=(f("R5"),), shows=(f("R5"),))),
        ("accept R7", "R7 R7", Proof(passes=(f("R7"),), shows=(f("R7"),))),
        # §9.4(1): a doubles announcement names the category only, no tile.
        ("doubles key", "", Proof(shows_double=DoublesCategory.KEY)),
        ("atu", "", Proof(shows_atu=True)),
        ("reclaim K10 <- m2", "", Proof(takes=(f("K10"),))),
        ("reset", "", Proof(undoes_turn=True)),
        ("draw", "", Proof()),
        ("three", "", Proof()),
    ],
)
def test_what_an_action_proves(text: str, held: str, expected: Proof) -> None:
    proof = parse_action(text, TILES).proves()
    assert proof == expected
    assert sorted(proof.held) == sorted(f(t) for t in held.split())


def _proof_holds(game: Game, action: Action) -> None:
    """The engine agrees with ``action.proves()``: the named pieces were on the actor's
    rack, and the rack changes by exactly the pieces the proof moves."""
    seat = game.to_move
    proof = action.proves()
    before = Counter(game.rack_faces(seat))
    assert not Counter(proof.held) - before, f"{action} names pieces P{seat + 1} lacks"
    if proof.shows_atu:
        assert game.indicator is not None
        assert before[game.faces[game.indicator]] >= 1
    if proof.shows_double is not None:
        assert any(
            DoublesCategory.of(Face.from_kind(game.pieces.material, k)) is proof.shows_double
            for k in preplay(game).dealt_doubles[seat]
        )
    column = [game.faces[p] for p in game.column]
    game.apply(action)
    moves_unnamed = proof.passes or proof.lays_hand or proof.undoes_turn or proof.discards
    if isinstance(action, Draw | NextDeal | Reshuffle) or moves_unnamed:
        # A hidden draw, a new deal, a swap, going out, an undo, the end of a turn
        # (which may turn the pile over): the rack changes by pieces no one names.
        return
    expected = before - Counter(proof.lays) + Counter(proof.takes)
    if proof.takes_column_from is not None:
        expected += Counter(column[proof.takes_column_from :])
    after = Counter(game.rack_faces(seat))
    freed = after - expected
    assert not expected - after, f"{action}: P{seat + 1} lost more than it laid"
    if proof.takes_jokers_from is not None:
        assert freed and all(face.is_joker for face in freed)
    elif isinstance(action, Attach) and (lifted := lifted_joker(game)) is not None:
        # §4.5 joker shifting: the joker the piece displaced must be attached again
        # before anything else, so it is not a piece the hand keeps.
        assert freed == Counter({game.pieces.faces[lifted[0]]: 1})
    else:
        assert not freed, f"{action}: P{seat + 1} gained {freed} unannounced"


@pytest.mark.parametrize("variant", sorted(v.name for v in all_variants()))
def test_every_played_action_proves_what_it_says(variant: str) -> None:
    """Games of greedy play mixed with random picks that favour announcements, swaps
    and takes (doubles swaps on): every action's proof holds on the real racks."""
    options = {"doubles_swap_enabled": True} if variant == "remi_ro" else {}
    greedy = make_bot("greedy")
    seen: Counter[str] = Counter()
    for seed in range(3):
        game = Game(variant, None, options, seed=seed)
        rng = random.Random(seed)
        for _ in range(200):
            if game.is_over:
                break
            legal = game.legal_actions()
            telling = [a for a in legal if a.proves() != Proof() and not isinstance(a, Draw)]
            action: Action
            if telling and rng.random() < (0.8 if game.phase is Phase.PREPLAY else 0.2):
                action = telling[rng.randrange(len(telling))]
            else:
                action = greedy.choose(view(game, game.to_move), legal, rng)
            _proof_holds(game, action)
            seen[type(action).__name__] += 1
    # Vienna lays out only at the call's showdown, Continental in one whole-hand layout.
    assert seen["Discard"] and seen["Meld"] + seen["GoOut"] + seen["CallRemi"], seen
    if variant == "remi_ro":
        assert seen["ProposeSwap"] and seen["AcceptSwap"] and seen["AnnounceDoubles"], seen
