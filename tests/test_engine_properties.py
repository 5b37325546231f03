"""Properties of the remi_ro engine over random play (Hypothesis), and 1,000 random deals.

Random games use a biased legal-action policy (laying out, attaching and exchanging
are preferred over drawing and discarding) so that openings, joker exchanges, closes
and board play are reached often.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit import assert_conserved, state_key
from remi_ro_support import assert_table_valid
from rummykit.engine import Game, IllegalActionError, parse_action, view
from rummykit.engine.actions import (
    AcceptSwap,
    Action,
    AnnounceAtu,
    AnnounceDoubles,
    AnnounceThree,
    Attach,
    CloseBoard,
    DeclareBoard,
    DeclineSwap,
    Discard,
    DoublesCategory,
    Draw,
    ExchangeJoker,
    Meld,
    NextDeal,
    ProposeSwap,
    Ready,
    ResetTurn,
    Reshuffle,
    TakeColumn,
)
from rummykit.engine.game import Phase
from rummykit.model.pieces import RANKS_PER_SUIT, Face, Material
from rummykit.rules.remi_ro import REMI_RO, TILES_106

MAT = Material.TILES
ALL_FACES = [Face.of(MAT, s, r) for s in range(4) for r in range(1, 14)] + [Face.joker(MAT)]
WEIGHTS: dict[type, float] = {
    Meld: 8,
    Attach: 6,
    ExchangeJoker: 6,
    AnnounceThree: 5,
    CloseBoard: 10,
    TakeColumn: 0.7,
    DeclareBoard: 0.05,
    ResetTurn: 0.1,
    Discard: 1,
    Draw: 2,
}
PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def biased(game: Game, rng: random.Random) -> Action:
    """A random legal action, preferring table actions."""
    groups: dict[type, list[Action]] = defaultdict(list)
    for action in game.legal_actions():
        groups[type(action)].append(action)
    kinds = list(groups)
    kind = rng.choices(kinds, [WEIGHTS.get(k, 1.0) for k in kinds])[0]
    return rng.choice(groups[kind])


def random_play(
    seed: int,
    players: int,
    deals: int = 1,
    max_steps: int = 4000,
    policy: Callable[[Game, random.Random], Action] = biased,
) -> Iterator[Game]:
    """Yield the game after every action of a random match."""
    game = Game("remi_ro", players, {"match_deals": deals}, seed=seed)
    rng = random.Random(seed)
    yield game
    for _ in range(max_steps):
        if game.is_over:
            return
        game.apply(policy(game, rng))
        yield game


games = st.tuples(st.integers(0, 2**32 - 1), st.integers(2, 4))


# ------------------------------------------------------------------ conservation, table


@PROPERTY
@given(games)
def test_every_piece_is_in_exactly_one_place(case: tuple[int, int]) -> None:
    """Conservation: the 106 pieces are always split over racks, stock, column and table."""
    seed, players = case
    for game in random_play(seed, players, deals=2):
        assert_conserved(game)


@PROPERTY
@given(games)
def test_every_formation_on_the_table_is_valid(case: tuple[int, int]) -> None:
    """§9.7: every formation, read with its jokers' positions, is a run or a set; every
    piece on the table has an owner for scoring, and locked pieces are jokers."""
    seed, players = case
    for game in random_play(seed, players):
        assert_table_valid(game)
        for formation in game.table:
            assert all(0 <= game.credit[p] < players for p in formation.pieces)
        assert all(game.faces[p].is_joker for p in game.locked)


# ------------------------------------------------------------------ replay


@PROPERTY
@given(games)
def test_replaying_the_log_reproduces_the_state(case: tuple[int, int]) -> None:
    """The action log (also through its notation) replays to the identical state."""
    seed, players = case
    *_, game = random_play(seed, players, deals=2, max_steps=1500)
    fresh = Game("remi_ro", players, {"match_deals": 2}, seed=seed)
    for seat, action in game.log:
        assert fresh.to_move == seat
        again = parse_action(str(action), MAT)
        assert again == action
        fresh.apply(again)
    assert state_key(fresh) == state_key(game)
    assert fresh.totals == game.totals and fresh.results == game.results


@PROPERTY
@given(games, st.integers(0, 400))
def test_copies_are_equivalent_and_independent(case: tuple[int, int], at: int) -> None:
    """``Game.copy`` continues exactly like the original, and playing one of the two
    leaves the other untouched."""
    seed, players = case
    rng = random.Random(seed)
    game = Game("remi_ro", players, {"match_deals": 2}, seed=seed)
    for _ in range(at):
        if game.is_over:
            return
        game.apply(biased(game, rng))
    twin = game.copy()
    assert state_key(twin) == state_key(game)
    for _ in range(120):
        if game.is_over:
            break
        action = biased(game, rng)
        before = state_key(twin)
        game.apply(action)
        assert state_key(twin) == before
        twin.apply(parse_action(str(action), MAT))
        assert state_key(twin) == state_key(game)
        assert view(twin, 0).to_json() == view(game, 0).to_json()


# ------------------------------------------------------------------ hidden information


def _view_faces(data: object) -> set[str]:
    """Every face token in a JSON value (strings split on spaces, brackets and parens)."""
    found: set[str] = set()
    if isinstance(data, dict):
        for value in data.values():
            found |= _view_faces(value)
    elif isinstance(data, list):
        for value in data:
            found |= _view_faces(value)
    elif isinstance(data, str):
        for token in (
            data.replace("[", " ").replace("]", " ").replace("(", " ").replace(")", " ").split()
        ):
            try:
                found.add(str(Face.parse(token, MAT)))
            except ValueError:
                continue
    return found


@PROPERTY
@given(games)
def test_views_show_only_public_faces(case: tuple[int, int]) -> None:
    """A view holds only the seat's own rack, the table, the column, the indicator and
    the public history; the other racks only as sizes."""
    seed, players = case
    for step, game in enumerate(random_play(seed, players, max_steps=1500)):
        if step % 7:
            continue
        for seat in range(players):
            seat_view = view(game, seat)
            data = seat_view.to_json()
            assert data["rack_sizes"] == [len(r) for r in game.racks]
            assert sorted(data["rack"]) == sorted(str(game.faces[p]) for p in game.racks[seat])
            history = data.pop("history")
            data.pop("results")
            data.pop("options")
            public = (
                {str(game.faces[p]) for p in game.racks[seat]}
                | {str(game.faces[p]) for f in game.table for p in f.pieces}
                | {
                    str(f.represented(game.pieces, i))
                    for f in game.table
                    for i in range(len(f.pieces))
                }
                | {str(game.faces[p]) for p in game.column}
                | ({str(game.faces[game.indicator])} if game.indicator is not None else set())
            )
            assert _view_faces(data) <= public
            for actor, text in history:
                if actor == seat:
                    continue
                if text.startswith("accept"):
                    assert text == "accept ?"
                if text.startswith("swap") and not text.endswith(f" P{seat + 1}"):
                    assert text.startswith("swap ? ")


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.data())
def test_views_do_not_depend_on_hidden_tiles(seed: int, players: int, data: st.DataObject) -> None:
    """Swapping a tile of an opponent's rack with a stock tile of another face leaves a
    seat's view identical while the same public actions are played."""
    rng = random.Random(seed)
    order = REMI_RO.shuffled_order(TILES_106, rng)
    maker = rng.randrange(players)
    a = Game("remi_ro", players, {"match_deals": 1}, walls=[order], maker=maker, seed=0)
    seat = data.draw(st.integers(0, players - 1), label="seat")
    other = (seat + data.draw(st.integers(1, players - 1), label="offset")) % players
    hidden = a.stock[0]  # drawn last
    choices = [p for p in a.racks[other] if a.faces[p] != a.faces[hidden]]
    x = choices[data.draw(st.integers(0, len(choices) - 1), label="piece")]
    swapped = [hidden if p == x else x if p == hidden else p for p in order]
    b = Game("remi_ro", players, {"match_deals": 1}, walls=[swapped], maker=maker, seed=0)
    assert view(a, seat).to_json() == view(b, seat).to_json()
    for _ in range(1500):
        if a.phase not in (Phase.PREPLAY, Phase.ROUND1, Phase.TURNS) or len(a.stock) <= 1:
            break
        action = biased(a, rng)
        if not b.can(action):
            break
        a.apply(action)
        b.apply(action)
        seen_a, seen_b = view(a, seat).to_json(), view(b, seat).to_json()
        if a.phase is not b.phase or a.phase in (Phase.DEAL_END, Phase.MATCH_END):
            # The scoring reveals the racks' values: only the rest must agree.
            for seen in (seen_a, seen_b):
                del seen["results"], seen["totals"]
        assert seen_a == seen_b


# ------------------------------------------------------------------ legality


def _key(action: Action) -> object:
    """Actions the enumeration lists in one canonical form, compared by content."""
    if isinstance(action, Meld):
        return ("meld", tuple(sorted(action.faces)))
    if isinstance(action, Attach):
        return ("attach", action.face, action.target)
    if isinstance(action, ExchangeJoker):
        return ("exchange", tuple(sorted(action.faces)), action.target)
    return action


def random_actions(game: Game, rng: random.Random, count: int) -> Iterator[Action]:
    """Syntactically valid actions, mostly near the current state."""
    rack = [game.faces[p] for p in game.racks[game.to_move]] or ALL_FACES

    def some_face() -> Face:
        return rng.choice(rack) if rng.random() < 0.7 else rng.choice(ALL_FACES)

    def target() -> int:
        return rng.randrange(0, len(game.table) + 2)

    makers: list[Callable[[], Action]] = [
        Draw,
        AnnounceThree,
        DeclareBoard,
        ResetTurn,
        NextDeal,
        Ready,
        AnnounceAtu,
        DeclineSwap,
        Reshuffle,
        lambda: TakeColumn(rng.randrange(-1, len(game.column) + 2)),
        lambda: Discard(some_face()),
        lambda: CloseBoard(some_face()),
        lambda: AnnounceDoubles(rng.choice(list(DoublesCategory))),
        lambda: ProposeSwap(some_face(), rng.randrange(-1, game.players + 1)),
        lambda: AcceptSwap(some_face()),
        lambda: Attach(
            some_face(), target(), rng.choice(ALL_FACES[:52]) if rng.random() < 0.2 else None
        ),
        lambda: ExchangeJoker(tuple(some_face() for _ in range(rng.randint(1, 2))), target()),
    ]

    def plausible_meld() -> Meld:
        # A run or set built around a rack tile, jokers filling gaps: often legal.
        base = rng.choice(rack)
        jokers = [f for f in rack if f.is_joker]
        if base.is_joker:
            faces = [base, *rng.sample(rack, min(len(rack), rng.randint(2, 4)))]
        elif rng.random() < 0.5:
            faces = [base]
            for rank in range(base.rank + 1, base.rank + rng.randint(3, 6)):
                nxt = Face.of(MAT, base.suit_index, (rank - 1) % RANKS_PER_SUIT + 1)
                if nxt in rack:
                    faces.append(nxt)
                elif jokers:
                    faces.append(jokers.pop())
        else:
            faces = [base] + [f for f in rack if f.rank == base.rank and f != base]
            faces += jokers[: rng.randint(0, len(jokers))]
        rng.shuffle(faces)
        faces = faces[: rng.randint(3, max(3, len(faces)))]
        declared = tuple(
            rng.choice(ALL_FACES[:52]) if f.is_joker and rng.random() < 0.3 else None for f in faces
        )
        return Meld(tuple(faces), declared)

    def plausible_exchange() -> Action:
        with_jokers = [f for f in game.table if any(game.faces[p].is_joker for p in f.pieces)]
        if not with_jokers:
            return ExchangeJoker((some_face(),), target())
        formation = rng.choice(with_jokers)
        wanted = (
            [
                f
                for i in range(len(formation.pieces))
                if (f := formation.represented(game.pieces, i)) is not None and not f.is_joker
            ]
            if formation.kind.value == "run"
            else [Face.of(MAT, s, formation.rank) for s in range(4)]
        )
        picked = rng.sample(wanted, rng.randint(1, min(3, len(wanted))))
        return ExchangeJoker(tuple(picked), formation.id)

    makers += [
        plausible_meld,
        plausible_meld,
        plausible_exchange,
        lambda: Attach(rng.choice(rack), target()),
    ]
    for _ in range(count):
        yield rng.choice(makers)()


@PROPERTY
@given(games)
def test_legal_actions_agree_with_can(case: tuple[int, int]) -> None:
    """Every listed action passes ``can``; a random action that passes ``can`` is listed
    (melds and exchanges up to order, attaches up to the joker's declaration)."""
    seed, players = case
    rng = random.Random(seed ^ 0x5EED)
    for game in random_play(seed, players, max_steps=1500):
        legal = game.legal_actions()
        assert len(set(legal)) == len(legal)
        for action in legal:
            assert game.can(action), action
        keys = {_key(a) for a in legal}
        for action in random_actions(game, rng, 6):
            if game.can(action):
                assert _key(action) in keys, (str(action), game.describe())
        if game.phase is Phase.TURNS and game.turn.acquired not in (None, "none"):
            # Every attachment of every rack face to every formation.
            for face in {game.faces[p] for p in game.racks[game.to_move]}:
                for formation in game.table:
                    action = Attach(face, formation.id)
                    if game.can(action):
                        assert _key(action) in keys, (str(action), game.describe())


@PROPERTY
@given(games)
def test_illegal_actions_change_nothing(case: tuple[int, int]) -> None:
    """An illegal action raises IllegalActionError (with action, rule and state) and the
    state is unchanged."""
    seed, players = case
    rng = random.Random(seed ^ 0xBAD)
    for step, game in enumerate(random_play(seed, players, max_steps=1000)):
        if step % 3:
            continue
        before = state_key(game)
        for action in random_actions(game, rng, 4):
            if game.can(action):
                continue
            with pytest.raises(IllegalActionError) as info:
                game.apply(action)
            assert info.value.action == str(action) and info.value.rule.startswith("§")
            assert state_key(game) == before


# ------------------------------------------------------------------ 1,000 random deals

CHUNKS = 20
DEALS = 1000


def uniform(game: Game, rng: random.Random) -> Action:
    legal = game.legal_actions()
    return legal[rng.randrange(len(legal))]


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_complete_deals(chunk: int) -> None:
    """1,000 complete deals (seeds 0..999, 2/3/4 players) of uniformly random legal actions
    finish without error; every piece is accounted for at each deal end."""
    for seed in range(chunk, DEALS, CHUNKS):
        players = 2 + seed % 3
        game = Game("remi_ro", players, {"match_deals": 1}, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over:
            game.apply(uniform(game, rng))
            steps += 1
            assert steps < 20000, f"seed {seed} does not end"
        assert_conserved(game)
        result = game.results[-1]
        assert result.end in ("close", "board", "exhaustion")
        assert len(result.scores) == players and tuple(game.totals) == result.scores
