"""Tables (server/tables.py): the bots that play a seat keep their state for the game."""

from __future__ import annotations

from romme_support import romme_game
from rummykit.server.tables import Lobby
from scripting import draw, play

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


def test_hints_after_a_partial_opening_count_this_turns_laydown() -> None:
    # Issue 12 (11), RULES §8.5: the browser said no laydown meets the opening after
    # 36 points were laid this turn; the hint frame now completes it with [QS QH QD].
    lobby = Lobby(None)
    table, seat, _ = lobby.create(
        variant="romme", players=2, options={}, bots={1: "greedy"}, name="Ana"
    )
    assert seat == 0 and table.row.status == "playing"
    table.game = romme_game(2, {0: "2H 3H 4H 9S 9D 9C QS QH QD"})
    assert table.hints(0)[0]["topic"] in ("draw", "take")
    assert table.hints(1) == []
    draw(table.game)
    play(table.game, "meld [2H 3H 4H]", "meld [9S 9D 9C]")
    found = table.hints(0)
    assert found[0]["actions"] == ["meld [QS QH QD]"]
    assert "36 points laid this turn" in found[0]["reason"]
    legal = [str(a) for a in table.game.legal_actions()]
    assert all(h["actions"][0] in legal for h in found if h["actions"])
