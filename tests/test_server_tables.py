"""Tables (server/tables.py): the bots that play a seat keep their state for the game;
seats (issue 12): no deal before the last seat is filled, names, rematch seats, action ids."""

from __future__ import annotations

import dataclasses
import random
import uuid

import pytest

from kit import draw, play
from romme_support import romme_game
from rummykit.engine.game import Game
from rummykit.server.schema import is_seat_kind, is_table_status
from rummykit.server.tables import Lobby, ProtocolError, Table, _stored

# Found in the browser: Rommé, seat 2 an ``easy`` expert.  It takes the discard, lays
# two runs (39 points, one short of the opening), and its greedy plan resets the turn;
# a bot remade before every action forgot that it had reset and took the discard again,
# forever.
LIVELOCK_SEED = 3302083285926647350


def _bot_table(seed: int) -> Lobby:
    lobby = Lobby(None)
    lobby.create(
        variant="romme",
        players=2,
        options={"match_deals": 1},
        bots={0: "greedy", 1: "easy"},
        name="",
        seed=seed,
    )
    return lobby


def test_a_seat_keeps_one_bot_for_the_game() -> None:
    table = next(iter(_bot_table(LIVELOCK_SEED).tables.values()))
    made: dict[int, object] = {}
    for _ in range(40):
        seat = table.bot_to_move()
        if seat is None:
            break
        table.play_for(seat)
        bot = table.bots[seat][1]
        assert made.setdefault(seat, bot) is bot, f"P{seat + 1}'s bot was made again"
    assert set(made) == {0, 1}


def test_bots_finish_the_game_that_once_livelocked() -> None:
    table = next(iter(_bot_table(LIVELOCK_SEED).tables.values()))
    for _ in range(3_000):
        seat = table.bot_to_move()
        if seat is None:
            break
        table.play_for(seat)
    assert table.game.is_over and table.status == "finished"
    resets = sum(str(action) == "reset" for _, action in table.game.log)
    assert resets <= 2, f"{resets} resets: a bot keeps undoing its turn"


# ---------------------------------------------------------------- issue 12: seats


def _open_table(lobby: Lobby, players: int = 2, seed: int | None = None) -> tuple[Table, str]:
    table, seat, token = lobby.create(
        variant="remi_ro", players=players, options={}, bots={}, name="Ana", seed=seed
    )
    assert seat == 0 and token is not None
    return table, token


def test_nothing_of_the_deal_exists_until_the_last_seat_is_filled() -> None:
    # Issue 12 §1: the deal was made from a seed drawn at creation, and an open seat's
    # state held its rack: joining, reading and leaving harvested the later deal.
    seeds = random.Random(12)
    lobby = Lobby(None, seeds=seeds)
    table, _ = _open_table(lobby, players=3)
    assert table.row.seed is None and not table.dealt
    for seat in (None, 0):
        with pytest.raises(ProtocolError) as refused:
            table.frame(seat)
        assert refused.value.code == "not_started"
    # A joiner sits, looks and leaves: still no deal, nothing drawn.
    seat, _ = table.sit("Harvester")
    with pytest.raises(ProtocolError):
        table.frame(seat)
    table.leave(seat)
    assert table.row.seed is None and table.legal_for(seat) == [] and table.hints(seat) == []
    table.sit("Ion")
    assert not table.dealt
    expected = random.Random(12).getrandbits(62)
    table.sit("Eva")
    # The seed is drawn from the injected source when the last seat is filled.
    assert table.dealt and table.status == "playing" and table.row.seed == expected
    assert table.frame(0).view["rack"]


def test_the_stored_seed_and_actions_reproduce_the_game() -> None:
    lobby = Lobby(None)
    table, _ = _open_table(lobby)
    table.sit("Ion")
    for _ in range(6):
        mover = table.game.to_move
        table.submit(mover, uuid.uuid4().hex, table.event_id, table.legal_for(mover)[-1])
    again = Game(table.row.variant, table.row.players, table.row.options, seed=table.row.seed)
    for _, action in table.game.log:
        again.apply(action)
    assert again.racks == table.game.racks and again.stock == table.game.stock


@pytest.mark.parametrize(
    "name",
    [
        "Ana\x00",  # PostgreSQL refuses NUL in text: the write failed after memory changed
        "\x1b[31mred",
        "two\nlines",
        "tab\there",
        "zero\u200bwidth",
        "\ud800",  # a lone surrogate (JSON can carry one)
        "x" * 41,
    ],
)
def test_a_bad_name_is_refused_and_changes_nothing(name: str) -> None:
    lobby = Lobby(None)
    table, _ = _open_table(lobby)
    before = [dataclasses.replace(s) for s in table.row.seats]
    with pytest.raises(ProtocolError) as refused:
        table.sit(name)
    assert refused.value.code == "bad_name"
    assert table.row.seats == before and table.status == "open"
    with pytest.raises(ProtocolError) as refused:
        lobby.create(variant="remi_ro", players=2, options={}, bots={}, name=name)
    assert refused.value.code == "bad_name" and len(lobby.tables) == 1
    with pytest.raises(ProtocolError):
        lobby.create(
            variant="remi_ro", players=2, options={}, bots={}, name="", table_name=name + "x" * 40
        )
    assert len(lobby.tables) == 1


def test_names_are_trimmed_and_may_be_any_printable_text() -> None:
    table, _ = _open_table(Lobby(None), players=3)
    seat, _ = table.sit("  Ștefan   Łukasz  ")
    assert table.row.seats[seat].name == "Ștefan Łukasz"
    seat, _ = table.sit(" " * 3)
    assert table.row.seats[seat].name == f"P{seat + 1}"
    behind_a_bot, creator, _ = Lobby(None).create(
        variant="remi_ro", players=3, options={}, bots={0: "greedy"}, name=""
    )
    assert creator == 1 and behind_a_bot.row.seats[1].name == "P2"


def _finished_two_seat_table(lobby: Lobby) -> tuple[Table, str, str]:
    table, a = _open_table(lobby)
    _, b = table.sit("Ion")
    # Every seat played by its bot: the game finishes without any client.
    table.standin.update({0, 1})
    for _ in range(3_000):
        for human in table.awaited():  # between deals: each human asks for the next one
            table.submit(human, f"next-{table.event_id}", table.event_id, "next")
        seat = table.bot_to_move()
        if seat is None:
            break
        table.play_for(seat)
    assert table.status == "finished"
    return table, a, b


def test_a_seat_claims_only_its_own_seat_of_the_rematch() -> None:
    # Issue 12 §7: the second rematch call of one seat took the next free seat.
    lobby = Lobby(None)
    table, a, b = _finished_two_seat_table(lobby)
    new, got, _ = lobby.rematch(table, table.seat_of_token(a))  # type: ignore[arg-type]
    assert got == 0 and new.status == "open"
    with pytest.raises(ProtocolError) as refused:
        lobby.rematch(table, 0)
    assert refused.value.code == "seat_taken"
    assert [s.kind for s in new.row.seats] == ["human", "open"]
    again, got, _ = lobby.rematch(table, table.seat_of_token(b))  # type: ignore[arg-type]
    assert again is new and got == 1 and new.status == "playing"


def test_another_seats_action_id_is_answered_as_an_unknown_id() -> None:
    # Issue 12 §7: reusing another seat's id answered "used by another seat".
    def answers(reuse: bool) -> list[object]:
        table, _ = _open_table(Lobby(None), seed=3)
        table.sit("Ion")
        first = table.game.to_move
        table.submit(first, "shared-id", 0, table.legal_for(first)[-1])
        other = 1 - first
        out: list[object] = []
        probes = [
            (other, 0),  # a stale state
            (other, table.event_id),
            (first, table.event_id),  # not its turn (or its turn, whatever the game says)
        ]
        for seat, state_id in probes:
            action_id = "shared-id" if reuse and seat == other else f"fresh-{seat}-{state_id}"
            try:
                applied = table.submit(seat, action_id, state_id, "draw")
                out.append(("applied", applied.event_id, applied.duplicate))
            except ProtocolError as exc:
                out.append((exc.code, exc.message))
        return out

    assert answers(reuse=True) == answers(reuse=False)


def test_hints_after_a_partial_opening_count_this_turns_laydown() -> None:
    # Issue 12 (11), RULES §8.5: the browser said no laydown meets the opening after
    # 36 points were laid this turn; the hint frame now completes it with [QS QH QD].
    lobby = Lobby(None)
    table, seat, _ = lobby.create(
        variant="romme", players=2, options={}, bots={1: "greedy"}, name="Ana"
    )
    assert seat == 0 and table.row.status == "playing"
    # The position under test: the table's deal replaced by a stacked one.
    table._game = romme_game(2, {0: "2H 3H 4H 9S 9D 9C QS QH QD"})
    assert table.hints(0)[0]["topic"] in ("draw", "take")
    assert table.hints(1) == []
    draw(table.game)
    play(table.game, "meld [2H 3H 4H]", "meld [9S 9D 9C]")
    found = table.hints(0)
    assert found[0]["actions"] == ["meld [QS QH QD]"]
    assert "36 points laid this turn" in found[0]["reason"]
    legal = [str(a) for a in table.game.legal_actions()]
    assert all(h["actions"][0] in legal for h in found if h["actions"])


# ---------------------------------------------------------------- issue 13: between deals


def _to_deal_end(table: Table) -> None:
    """Play every seat with the stand-in bot until the first deal ends."""
    for _ in range(3_000):
        if table.game.phase.value == "deal_end":
            return
        table.play_for(table.game.to_move)
    raise AssertionError("the deal did not end")


def test_the_next_deal_waits_for_every_human_and_no_bot_starts_it() -> None:
    lobby = Lobby(None)
    table, _, _ = lobby.create(
        variant="romme",
        players=3,
        options={"match_deals": 2},
        bots={2: "greedy"},
        name="Ana",
        seed=5,
    )
    table.sit("Bo")
    _to_deal_end(table)
    ended = table.event_id
    assert table.awaited() == [0, 1]
    assert table.bot_to_move() is None and table.deadline is None
    # Every human seat may ask, not only the seat to move; a bot seat is never offered it.
    assert table.frame(0).legal == ["next"] and table.frame(1).legal == ["next"]
    assert table.frame(2).legal is None
    with pytest.raises(ProtocolError) as refused:
        table.submit(0, "x0", ended, "draw")
    assert refused.value.code == "illegal_action" and table.row.ready == []
    asked = table.submit(0, "a0", ended, "next")
    assert asked.header and asked.event_id == ended
    assert table.event_id == ended and table.info().ready == [0] and table.awaited() == [1]
    assert table.bot_to_move() is None, "a bot started the deal for a human"
    assert table.submit(0, "a0-again", ended, "next").duplicate
    table.submit(1, "a1", ended, "next")
    assert table.awaited() == []
    seat = table.bot_to_move()
    assert seat == table.game.to_move
    table.play_for(seat)
    assert table.game.phase.value != "deal_end" and table.event_id == ended + 1
    assert table.row.ready == [] and table.info().ready == []


def test_a_human_leaving_between_deals_is_no_longer_awaited() -> None:
    lobby = Lobby(None)
    table, _, _ = lobby.create(
        variant="romme", players=2, options={"match_deals": 2}, bots={}, name="Ana", seed=6
    )
    table.sit("Bo")
    _to_deal_end(table)
    table.submit(0, "a0", table.event_id, "next")
    assert table.awaited() == [1]
    table.leave(1)
    assert table.awaited() == [] and table.bot_to_move() is not None


def test_a_stored_value_the_protocol_does_not_know_is_refused() -> None:
    """A seat kind or table status no migration wrote (a corrupt store) is refused
    rather than sent to every client as a table header."""
    assert _stored("bot", is_seat_kind) == "bot"
    with pytest.raises(ValueError, match="paused"):
        _stored("paused", is_table_status)
