"""Tables (server/tables.py): the bots that play a seat keep their state for the game."""

from __future__ import annotations

from rummykit.server.tables import Lobby

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
