"""Hidden information (issue 5 §4): every frame the server builds for a seat or a
spectator holds only what that recipient may know (server/frames.py, server/tables.py).

Two proofs, both on frames built by ``Table.frame_json`` / ``build_frame`` — the
functions the hub sends — and on error frames built by ``error_frame``:

* the canary scan: 1,000 full one-deal bot games per variant (in 8 tests of 125); in every frame to
  every recipient, every piece named is one the recipient may know (its own
  rack, the table, the visible column, the indicator, the pieces of actions it
  saw, the hands shown at the deal's end), and neither the seed nor the order of
  the stock appears;
* the swap test: permuting the pieces hidden from a seat (the other racks and
  the stock) leaves that seat's frame byte-identical.
"""

from __future__ import annotations

import json
import random
import re

import pytest

pytest.importorskip("pydantic", reason="the server extra is not installed")

from kit import draw, play
from romme_support import romme_game
from rummykit.engine.actions import AcceptSwap, CallRemi, ProposeSwap
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import view
from rummykit.rules import all_variants, find_variant
from rummykit.server.frames import error_frame, hands_of, hints_for
from rummykit.server.schema import StateFrame
from rummykit.server.tables import Lobby, ProtocolError, Table, build_frame

GAMES = 1000
"""Games per variant for the canary scan (the issue asks for at least 1,000)."""
SHARDS = 8
"""The scan of a variant runs as this many tests of ``GAMES // SHARDS`` games each, on
seeds of their own, so that parallel workers share it (one 1,000-game test ran for
minutes at the end of a run while the other worker waited)."""
SWAP_GAMES = 20
MAX_GAME_ACTIONS = 3_000
ONE_DEAL = {"match_mode": "deals", "match_deals": 1, "max_stock_recycles": 0}
VARIANTS = [v.name for v in all_variants()]

_TOKEN = re.compile(r"[0-9A-Z()]+")
"""Words a piece could be written as; "J(R6)" or "2S(4C)" (a wild piece with what it
stands for) stays one word, so what a wild piece stands for is never taken for a piece."""
_NOTATION_HELP = re.compile(r"\([^()]*\.\.[^()]*\)")
"""The notation reminder of a parse error, "(R1..K13, J)": examples, not pieces."""
PIECES = frozenset(
    [f"{c}{r}" for c in "RYBK" for r in range(1, 14)]
    + [f"{r}{s}" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K") for s in "SHDC"]
)
"""Every natural tile and card (jokers are all alike, so naming one reveals nothing)."""


def pieces_named(text: str) -> set[str]:
    """Every natural piece named in ``text``."""
    return set(_TOKEN.findall(text)) & PIECES


def one_deal(variant: str) -> dict[str, object]:
    """Options that end the match after one deal (and bound a card deal's recycling)."""
    names = {o.name for o in find_variant(variant).options}
    options: dict[str, object] = {k: v for k, v in ONE_DEAL.items() if k in names}
    if "match_loss_threshold" in names:
        options["match_loss_threshold"] = 1
    return options


class Knowledge:
    """What each recipient may know, from the full state and the rules of the game —
    independently of the view code under test.  The log part grows incrementally."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.from_log: dict[int | None, set[str]] = {}
        self.read = 0

    def _catch_up(self) -> None:
        game = self.game
        recipients: list[int | None] = [None, *range(game.players)]
        for seat in recipients:
            self.from_log.setdefault(seat, set())
        for actor, action in game.log[self.read :]:
            named = pieces_named(str(action))
            if not named:
                continue
            for seat in recipients:
                private = isinstance(action, AcceptSwap | CallRemi) or (
                    isinstance(action, ProposeSwap) and seat not in (actor, action.seat)
                )
                if actor == seat or not private:
                    self.from_log[seat] |= named
        self.read = len(game.log)

    def of(self, seat: int | None) -> set[str]:
        """The pieces ``seat`` (None: a spectator) may know now."""
        self._catch_up()
        game = self.game
        faces = game.faces
        known = set(self.from_log[seat])
        if seat is not None:
            known.update(str(faces[p]) for p in game.racks[seat])
        for formation in game.table:
            known.update(str(faces[p]) for p in formation.pieces)
        face_down, face_down_seat = game.hidden_discard()
        known.update(
            str(faces[p])
            for p in game.column
            if p != face_down or (seat is not None and face_down_seat == seat)
        )
        if game.indicator is not None:
            known.add(str(faces[game.indicator]))
        for result in game.results:
            known |= pieces_named(json.dumps(result.to_json()))
        if game.phase in (Phase.DEAL_END, Phase.MATCH_END):
            for rack in game.racks:
                known.update(str(faces[p]) for p in rack)
        return known


def entitled(game: Game, seat: int | None) -> set[str]:
    """What ``seat`` may know now (see :class:`Knowledge`)."""
    return Knowledge(game).of(seat)


def stock_runs(game: Game) -> list[str]:
    """The next pieces of the stock, five at a time, as they would be written."""
    top = [str(game.faces[p]) for p in reversed(game.stock[-15:])]
    return [" ".join(top[i : i + 5]) for i in range(0, len(top) - 4, 5)]


def check(
    text: str,
    game: Game,
    seat: int | None,
    allowed: set[str] | None = None,
    knowledge: Knowledge | None = None,
) -> None:
    """Assert that ``text``, sent to ``seat``, names nothing hidden from it."""
    known = (knowledge or Knowledge(game)).of(seat)
    leaked = pieces_named(text) - known - (allowed or set())
    who = "a spectator" if seat is None else f"P{seat + 1}"
    assert not leaked, f"{who} was sent {sorted(leaked)} it may not know: {text[:300]}"
    assert str(game.seed) not in text, f"the seed reached {who}"
    for run in stock_runs(game):
        if set(run.split()) <= known:
            continue  # the same pieces in the same order are public elsewhere
        assert f'"{run}' not in text and f"[{run}" not in text, f"stock order reached {who}"


def probe_errors(table: Table, rng: random.Random, knowledge: Knowledge) -> None:
    """Rejected actions from every seat: the error frames name nothing hidden."""
    game = table.game
    for seat in range(game.players):
        own = [str(game.faces[p]) for p in game.racks[seat]]
        attempts = [
            f"meld [{' '.join(own[:2])}]",
            "discard " + (own[0] if own else "R1"),
            "take 99",
        ]
        attempts.append(rng.choice(["meld [", "attach R5 -> m99", "exchange J -> m1"]))
        for number, text in enumerate(attempts):
            state = table.event_id + (1 if number == 1 else 0)
            try:
                table.submit(seat, f"probe-{table.event_id}-{seat}-{number}", state, text)
            except ProtocolError as exc:
                frame = error_frame(exc.code, exc.message, None)
                check(
                    _NOTATION_HELP.sub("", frame),
                    game,
                    seat,
                    allowed=pieces_named(text),
                    knowledge=knowledge,
                )
            else:  # pragma: no cover - the probes are built to be refused
                raise AssertionError(f"probe {text!r} of P{seat + 1} was accepted")


MAX_ACTIONS = 1500
"""A game still running after this many actions is abandoned (its frames so far were
checked) and does not count: greedy bots can keep taking the discard instead of
drawing, so a deal may never reach the end of the stock."""


def bot_table(lobby: Lobby, variant: str, seed: int) -> Table:
    """A one-deal table of ``variant`` with greedy bots in its fewest seats."""
    players = find_variant(variant).min_players
    table, _, _ = lobby.create(
        variant=variant,
        players=players,
        options=one_deal(variant),
        bots=dict.fromkeys(range(players), "greedy"),
        name="",
        seed=seed,
    )
    return table


def play_scanned(lobby: Lobby, variant: str, rng: random.Random, probes: bool) -> int:
    """Play one bot game, checking every frame; the frames checked (negative when the
    game was abandoned)."""
    table = bot_table(lobby, variant, rng.randrange(10**17, 10**18))
    players = table.row.players
    table.rng = random.Random(rng.random())
    frames = 0
    recipients: list[int | None] = [None, *range(players)]
    knowledge = Knowledge(table.game)
    # A bounded walk: a game that does not end fails here instead of hanging the suite.
    for _ in range(MAX_GAME_ACTIONS):
        for seat in recipients:
            check(table.frame_json(seat), table.game, seat, knowledge=knowledge)
            frames += 1
        if table.status == "finished":
            return frames
        if table.event_id >= MAX_ACTIONS:
            return -frames
        if probes and table.event_id == 10:
            probe_errors(table, rng, knowledge)
        seat = table.bot_to_move()
        assert seat is not None
        table.play_for(seat)
    raise AssertionError(
        f"{variant}: greedy bots did not finish a one-deal game in "
        f"{MAX_GAME_ACTIONS} actions (table {table.code})"
    )


@pytest.mark.parametrize("shard", range(SHARDS))
@pytest.mark.parametrize("variant", VARIANTS)
def test_canary_scan_no_frame_names_a_hidden_piece_the_seed_or_the_stock(
    variant: str, shard: int
) -> None:
    games = GAMES // SHARDS
    lobby = Lobby(None)
    rng = random.Random(f"canary-{variant}-{shard}")
    frames = played = abandoned = 0
    while played < games:
        checked = play_scanned(lobby, variant, rng, probes=(played + abandoned) % 50 == 0)
        lobby.tables.clear()
        frames += abs(checked)
        if checked > 0:
            played += 1
        else:
            abandoned += 1
            assert abandoned <= games // 20, f"{abandoned} {variant} games never ended"
    assert frames > games * 10


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_state_frame_is_valid_against_the_schema(variant: str) -> None:
    """Frames are built without validation (speed): each must still be exactly what
    validating it through the schema gives back."""
    table = bot_table(Lobby(None), variant, 7)
    players = table.row.players
    table.rng = random.Random(7)
    for _ in range(MAX_GAME_ACTIONS):
        for seat in [None, *range(players)]:
            text = table.frame_json(seat)
            assert json.loads(StateFrame.model_validate_json(text).model_dump_json()) == (
                json.loads(text)
            )
        if table.status == "finished":
            return
        seat = table.bot_to_move()
        assert seat is not None
        table.play_for(seat)
    raise AssertionError(f"{variant}: the game did not end")


def permuted(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` where the pieces hidden from ``seat`` — the other racks and
    the stock — are shuffled among themselves.  The indicator stays where it is:
    everyone saw where it went."""
    copy = game.copy()
    fixed = copy.indicator
    others = [s for s in range(game.players) if s != seat]
    pool = [p for s in others for p in copy.racks[s] if p != fixed]
    pool += [p for p in copy.stock if p != fixed]
    rng.shuffle(pool)
    refill = iter(pool)
    for s in others:
        copy.racks[s] = sorted(p if p == fixed else next(refill) for p in copy.racks[s])
    copy.stock = [p if p == fixed else next(refill) for p in copy.stock]
    return copy


@pytest.mark.parametrize("variant", VARIANTS)
def test_swap_hidden_pieces_leave_every_frame_byte_identical(variant: str) -> None:
    lobby = Lobby(None)
    rng = random.Random(f"swap-{variant}")
    checked = moved = 0
    for _ in range(SWAP_GAMES):
        players = find_variant(variant).min_players + 1
        if players > find_variant(variant).max_players:
            players -= 1
        table, _, _ = lobby.create(
            variant=variant,
            players=players,
            options=one_deal(variant),
            bots=dict.fromkeys(range(players), "greedy"),
            name="",
            seed=rng.randrange(2**62),
        )
        table.rng = random.Random(rng.random())
        while table.status != "finished" and table.event_id < MAX_ACTIONS:
            game = table.game
            if game.phase not in (Phase.DEAL_END, Phase.MATCH_END):
                for seat in range(players):
                    twin = permuted(game, seat, rng)
                    moved += twin.racks != game.racks or twin.stock != game.stock
                    assert (
                        build_frame(twin, seat).model_dump_json()
                        == build_frame(game, seat).model_dump_json()
                    ), f"P{seat + 1}'s frame depends on pieces hidden from it"
                    checked += 1
            seat_to_move = table.bot_to_move()
            assert seat_to_move is not None
            table.play_for(seat_to_move)
        lobby.tables.clear()
    assert checked > SWAP_GAMES * 10 and moved > checked // 2


def test_hands_are_shown_only_once_a_deal_has_ended() -> None:
    game = Game("remi_ro", 2, {"match_deals": 1}, seed=5)
    with pytest.raises(ValueError, match="ended"):
        hands_of([view(game, 0), view(game, 1)])


def test_the_canary_catches_a_leak() -> None:
    game = Game("remi_ro", 2, {"match_deals": 1}, seed=123456789012345678)
    theirs = {str(game.faces[p]) for p in game.racks[1]} - entitled(game, 0)
    assert theirs, "the opponent holds a piece seat 0 cannot know"
    with pytest.raises(AssertionError, match="may not know"):
        check(json.dumps({"rack": sorted(theirs)}), game, 0)
    with pytest.raises(AssertionError, match="seed"):
        check(f"seed {game.seed}", game, 0)
    run = stock_runs(game)[0]
    with pytest.raises(AssertionError, match="stock order"):
        check(json.dumps({"x": [run]}), game, None, allowed=pieces_named(run))


def test_hints_come_from_the_view_of_the_seat_to_move() -> None:
    game = Game("remi_ro", 2, {"match_deals": 1}, seed=3)
    while game.phase is Phase.PREPLAY:
        game.apply(next(a for a in game.legal_actions() if str(a) == "ready"))
    seat = game.to_move
    legal = {str(a) for a in game.legal_actions()}
    assert hints_for(view(game, 1 - seat), legal) == []
    found = hints_for(view(game, seat), legal)
    assert found and all(set(h) == {"topic", "actions", "reason", "code", "params"} for h in found)


def test_hints_offer_only_what_the_phase_allows() -> None:
    # RULES §9.5(3) (remi_ro): the first round allows no laydown; hints are built from
    # the seat's legal list, so none is offered even for a rack that could lay one.
    game = Game("remi_ro", 2, {"match_deals": 1}, seed=0)
    while game.phase is Phase.PREPLAY:
        game.apply(next(a for a in game.legal_actions() if str(a) == "ready"))
    assert game.phase is Phase.ROUND1
    seen = view(game, game.to_move)
    legal = [str(a) for a in game.legal_actions()]
    found = hints_for(seen, legal)
    assert [h["topic"] for h in found] == ["discard"]
    assert all(h["actions"][0] in legal for h in found)


def test_hints_after_a_partial_opening_count_this_turns_laydown() -> None:
    # Issue 12 (11), RULES §8.5: 36 points are down this turn; the browser was told that
    # no laydown meets the opening.  [QS QH QD] completes it (66 >= 40).
    game = romme_game(2, {0: "2H 3H 4H 9S 9D 9C QS QH QD"})
    draw(game)
    play(game, "meld [2H 3H 4H]", "meld [9S 9D 9C]")
    legal = [str(a) for a in game.legal_actions()]
    found = hints_for(view(game, 0), legal)
    assert found[0]["topic"] == "laydown"
    assert found[0]["actions"] == ["meld [QS QH QD]"]
    assert "36 points laid this turn" in found[0]["reason"]


def test_an_error_frame_needs_a_websocket_error_code() -> None:
    """``error_frame`` refuses a code the protocol does not list (a REST-only code such
    as ``table_full``) instead of sending clients a frame they cannot read."""
    assert json.loads(error_frame("stale_state", "replay"))["code"] == "stale_state"
    with pytest.raises(ValueError, match="table_full"):
        error_frame("table_full", "every seat is taken")
