"""Game records (STYLE: every game reproducible from its record; RULES §9.15 options and their
fingerprint travel with it): save, load and replay random-bot games, and reject tampering."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from rummykit.engine.actions import parse_action
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.game import Game, Phase
from rummykit.engine.record import (
    RECORD_FORMAT,
    RECORD_VERSION,
    RecordError,
    load_record,
    record_of,
    replay,
    save_record,
)
from rummykit.rules.remi_ro import TILES_106, stack_wall

MAX_ACTIONS = 5000


def play_random(game: Game, seed: int, limit: int = MAX_ACTIONS) -> Game:
    """A random bot: uniformly one of game.legal_actions(), until the match ends or `limit`."""
    rng = random.Random(seed)
    for _ in range(limit):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def random_game(seed: int, players: int, **options: Any) -> Game:
    game = Game("remi_ro", players, {"match_deals": 1, **options}, seed=seed)
    return play_random(game, seed)


@pytest.fixture(scope="module")
def finished() -> list[Game]:
    games = [random_game(seed, 2 + seed % 3) for seed in range(6)]
    for g in games:
        assert g.is_over, "a random game must end (A-60 stock exhaustion at the latest)"
    return games


def prefix_game(record: dict[str, Any], upto: int) -> Game:
    """The game after the first `upto` recorded actions."""
    cut = copy.deepcopy(record)
    cut["actions"] = cut["actions"][:upto]
    cut["results"] = cut["totals"] = cut["finished"] = None
    return replay(cut).game


# --------------------------------------------------------------- round trip


def test_random_games_round_trip_through_a_file(finished: list[Game], tmp_path: Path) -> None:
    for n, game in enumerate(finished):
        path = tmp_path / f"game{n}.json"
        save_record(game, path)
        loaded = load_record(path)
        assert loaded == json.loads(json.dumps(record_of(game)))
        assert loaded["format"] == RECORD_FORMAT
        assert loaded["version"] == RECORD_VERSION
        assert loaded["variant"] == "remi_ro"
        assert loaded["players"] == game.players
        assert loaded["fingerprint"] == game.fingerprint
        assert loaded["finished"] is True
        assert len(loaded["actions"]) == len(game.log)

        result = replay(loaded)
        assert result.actions == len(game.log)
        assert result.results == tuple(game.results)
        assert result.game.totals == game.totals
        assert result.game.is_over
        assert [(s, str(a)) for s, a in result.game.log] == [(s, str(a)) for s, a in game.log]
        assert record_of(result.game) == record_of(game)


def test_replay_reproduces_every_intermediate_state() -> None:
    """Replaying a prefix gives the same state as the original game had at that point."""
    seed = 4
    original = Game("remi_ro", 3, {"match_deals": 1}, seed=seed)
    rng = random.Random(seed)
    record_points: list[tuple[int, list[list[int]], list[int], int]] = []
    while not original.is_over:
        if len(original.log) % 37 == 0:
            record_points.append(
                (
                    len(original.log),
                    [r[:] for r in original.racks],
                    original.column[:],
                    original.to_move,
                )
            )
        original.apply(rng.choice(original.legal_actions()))
    record = record_of(original)
    for upto, racks, column, to_move in record_points:
        game = prefix_game(record, upto)
        assert game.racks == racks
        assert game.column == column
        assert game.to_move == to_move


def test_a_multi_deal_match_with_next_actions_replays() -> None:
    """A-63: a match of several deals; `next` starts each following deal."""
    game = random_game(21, 2, match_deals=2)
    assert game.is_over
    assert len(game.results) == 2
    assert any(str(a) == "next" for _, a in game.log)
    result = replay(record_of(game))
    assert result.results == tuple(game.results)
    assert result.game.totals == game.totals


def test_an_unfinished_game_replays_to_the_same_position() -> None:
    game = play_random(Game("remi_ro", 4, {"match_deals": 1}, seed=8), 8, limit=60)
    assert not game.is_over
    record = record_of(game)
    assert record["finished"] is False
    again = replay(record).game
    assert again.racks == game.racks
    assert again.stock == game.stock
    assert again.to_move == game.to_move
    assert again.phase is game.phase


def test_json_record_keeps_options_and_seats() -> None:
    game = Game("remi_ro", 2, {"match_deals": 1, "direction": "clockwise"}, seed=3)
    seats = [{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Bogdan"}]
    record = record_of(game, seats)
    assert record["seats"] == seats
    assert record["options"]["direction"] == "clockwise"
    assert record["seed"] == 3
    assert record["walls"] is None  # a seeded game needs no explicit walls
    assert record_of(game)["seats"] == [{"seat": 0, "name": "P1"}, {"seat": 1, "name": "P2"}]


# --------------------------------------------------------------- explicit walls


def test_records_with_explicit_walls_replay() -> None:
    """STYLE 8: any deal can be given explicitly; the record then stores the walls."""
    rng = random.Random(77)
    for players in (2, 3, 4):
        order = list(range(len(TILES_106)))
        rng.shuffle(order)
        maker = rng.randrange(players)
        game = Game("remi_ro", players, {"match_deals": 1}, seed=999, walls=[order], maker=maker)
        assert game.first_maker == maker
        play_random(game, players)
        assert game.is_over
        record = record_of(game)
        assert record["first_maker"] == maker
        assert record["walls"][0] == [TILES_106.name(p) for p in order]
        assert len(record["walls"]) == len(game.walls_used)
        # the walls, not the seed, decide the deal
        record["seed"] = 12345
        record["fingerprint"] = game.fingerprint
        result = replay(record)
        assert result.results == tuple(game.results)
        assert result.game.walls_used[0] == tuple(order)


def test_a_stacked_deal_record_replays() -> None:
    """A wall built with stack_wall (RRT-style stacked deal) replays from its record."""
    options = {"match_deals": 1}
    game0 = Game("remi_ro", 4, options, seed=1)
    ids = [p for p in range(106) if p != TILES_106.parse_piece("K4#1")]
    racks = [ids[:15], ids[15:29], ids[29:43], ids[43:57]]
    order = stack_wall(4, 3, game0.options, indicator=TILES_106.parse_piece("K4#1"), racks=racks)
    game = Game("remi_ro", 4, options, seed=1, walls=[order], maker=3)
    assert game.first_seat == 0
    assert game.racks[0] == sorted(racks[0])
    play_random(game, 5)
    assert replay(record_of(game)).results == tuple(game.results)


def test_a_reshuffled_deal_replays_from_its_record() -> None:
    """RRT-05 / §9.4(2): P2 is dealt `R5 R5`, `K11 K11`, `B1 B1` and demands a reshuffle; the
    same maker rebuilds the wall, and the record keeps both walls so the replay matches."""
    name = TILES_106.parse_piece
    doubles = [name(t) for t in ("R5#1", "R5#2", "K11#1", "K11#2", "B1#1", "B1#2")]
    indicator = name("K4#1")
    rest = [p for p in range(106) if p not in doubles and p != indicator]
    racks = [rest[:15], doubles + rest[15:23], rest[23:37], rest[37:51]]
    options = {"match_deals": 1}
    probe = Game("remi_ro", 4, options, seed=2)
    order = stack_wall(4, 3, probe.options, indicator=indicator, racks=racks)
    game = Game("remi_ro", 4, options, seed=2, walls=[order], maker=3)
    assert game.to_move == 0
    game.apply(parse_action("ready", TILES_106.material))
    game.apply(parse_action("reshuffle", TILES_106.material))
    assert game.maker == 3
    assert len(game.walls_used) == 2
    play_random(game, 2)
    record = record_of(game)
    assert len(record["walls"]) == 2
    assert [e["action"] for e in record["actions"][:2]] == ["ready", "reshuffle"]
    assert replay(record).results == tuple(game.results)


def test_a_reshuffle_in_a_seeded_game_replays() -> None:
    """§9.4(2) with RNG walls: the redeal comes from the seeded RNG and replays identically."""
    for seed in range(500):
        game = Game("remi_ro", 4, {"match_deals": 1}, seed=seed)
        reshuffle = parse_action("reshuffle", TILES_106.material)
        if game.can(reshuffle):
            break
    else:
        pytest.fail("no seed deals three doubles to the first player")
    game.apply(reshuffle)
    play_random(game, seed)
    record = record_of(game)
    assert record["walls"] is None
    assert replay(record).results == tuple(game.results)


# --------------------------------------------------------------- tampering


def altered(record: dict[str, Any], index: int, text: str) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    bad["actions"][index]["action"] = text
    return bad


ILLEGAL_CANDIDATES = [
    "next",
    "take 0",
    "discard K13",
    "discard J",
    "draw",
    "reset",
    "reshuffle",
    "ready",
    "board",
    "attach R5 -> m1",
    "close R1",
    "three",
]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_altered_action_fails_at_its_index_with_the_reason(
    finished: list[Game], seed: int
) -> None:
    game = finished[seed]
    record = record_of(game)
    rng = random.Random(seed)
    indices = rng.sample(range(len(record["actions"])), 6)
    checked = 0
    for index in indices:
        state = prefix_game(record, index)
        for text in rng.sample(ILLEGAL_CANDIDATES, len(ILLEGAL_CANDIDATES)):
            action = parse_action(text, TILES_106.material)
            try:
                state.verify(action)
            except IllegalActionError as exc:
                reason = exc.reason
                break
        else:
            continue
        with pytest.raises(RecordError) as info:
            replay(altered(record, index, text))
        assert info.value.index == index
        assert f"action {index}:" in str(info.value)
        assert reason in str(info.value)
        assert text in str(info.value)
        checked += 1
    assert checked >= 4


def test_an_altered_discard_fails_at_its_index(finished: list[Game]) -> None:
    """§9.6(3): the recorded player must hold the tile he discards."""
    game = finished[3]
    record = record_of(game)
    index = next(
        i for i, e in enumerate(record["actions"]) if e["action"].startswith("discard") and i > 10
    )
    state = prefix_game(record, index)
    held = {str(f) for f in state.rack_faces(state.to_move)}
    missing = next(t for t in ("R1", "Y7", "B13", "K4", "R9", "Y2", "J", "K11") if t not in held)
    with pytest.raises(RecordError) as info:
        replay(altered(record, index, f"discard {missing}"))
    assert info.value.index == index
    assert f"discard {missing}" in str(info.value)


def test_a_wrong_seat_fails_at_its_index(finished: list[Game]) -> None:
    game = finished[1]
    record = record_of(game)
    for index in (0, 5, len(record["actions"]) // 2, len(record["actions"]) - 1):
        bad = copy.deepcopy(record)
        seat = bad["actions"][index]["seat"]
        bad["actions"][index]["seat"] = (seat + 1) % game.players
        with pytest.raises(RecordError) as info:
            replay(bad)
        assert info.value.index == index
        message = str(info.value)
        assert f"P{(seat + 1) % game.players + 1}" in message
        assert f"P{seat + 1} is to move" in message


@pytest.mark.parametrize(
    "entry",
    [
        {"seat": 0, "action": "fly away"},
        {"action": "draw"},
        {"seat": "x", "action": "draw"},
        {"seat": 0},
        "draw",
    ],
)
def test_a_malformed_entry_fails_at_its_index(finished: list[Game], entry: Any) -> None:
    record = record_of(finished[0])
    index = 3
    record["actions"][index] = entry
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.index == index


def test_a_changed_result_is_detected(finished: list[Game]) -> None:
    record = record_of(finished[2])
    record["results"][0]["scores"][0] += 5
    with pytest.raises(RecordError, match="results differ") as info:
        replay(record)
    assert info.value.index is None
    assert replay(record, check_results=False).results == tuple(finished[2].results)


def test_a_fingerprint_mismatch_fails(finished: list[Game]) -> None:
    """STYLE 3: a replay runs under the rules it was played with, or not at all."""
    record = record_of(finished[0])
    forged = copy.deepcopy(record)
    forged["fingerprint"] = "0" * 16
    with pytest.raises(RecordError, match="fingerprint"):
        replay(forged)
    changed = copy.deepcopy(record)
    changed["options"]["atu_bonus"] = 60  # options edited, fingerprint kept
    with pytest.raises(RecordError, match="fingerprint"):
        replay(changed)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"variant": "poker"}, "poker"),
        ({"players": 5}, "5"),
        ({"options": {"no_such_option": 1}}, "no_such_option"),
        ({"options": {"atu_bonus": -3}}, "atu_bonus"),
        ({"walls": [["R1#1", "X9#1"]]}, "X9"),
        ({"walls": [["R1#1", "R2#1"]]}, "106"),
        ({"first_maker": 7}, "maker"),
    ],
)
def test_a_record_that_cannot_set_up_a_game_fails(
    finished: list[Game], change: dict[str, Any], message: str
) -> None:
    record = record_of(finished[0])
    record.update(change)
    with pytest.raises(RecordError, match="cannot set up") as info:
        replay(record)
    assert message in str(info.value)
    assert info.value.index is None


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_bad_format_and_version_are_rejected(finished: list[Game], tmp_path: Path) -> None:
    record = record_of(finished[0])
    other = {**record, "format": "some-other-format"}
    with pytest.raises(RecordError, match=RECORD_FORMAT):
        load_record(write(tmp_path / "a.json", other))
    newer = {**record, "version": RECORD_VERSION + 1}
    with pytest.raises(RecordError, match="version") as info:
        load_record(write(tmp_path / "b.json", newer))
    assert str(RECORD_VERSION + 1) in str(info.value)
    with pytest.raises(RecordError):
        load_record(write(tmp_path / "c.json", [record]))
    missing = {k: v for k, v in record.items() if k != "version"}
    with pytest.raises(RecordError, match="version"):
        load_record(write(tmp_path / "d.json", missing))
    (tmp_path / "e.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "e.json")
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "absent.json")


def test_record_errors_are_value_errors() -> None:
    err = RecordError("boom", 4)
    assert isinstance(err, ValueError)
    assert err.index == 4
    assert str(err) == "action 4: boom"
    assert RecordError("boom").index is None
    assert str(RecordError("boom")) == "boom"


def test_the_random_games_reach_play_and_end(finished: list[Game]) -> None:
    """Sanity of the fixture: the random games leave pre-play and end by a close or exhaustion."""
    for game in finished:
        assert game.phase is Phase.MATCH_END
        assert game.results[-1].end in ("close", "board", "exhaustion")
        assert any(str(a) == "draw" for _, a in game.log)


def test_a_game_with_an_injected_rng_replays_from_its_record() -> None:
    """STYLE 8: randomness is injected, and every game is reproducible from its record."""
    game = Game("remi_ro", 3, {"match_deals": 1}, rng=random.Random(5))
    play_random(game, 5)
    record = record_of(game)
    assert replay(record).results == tuple(game.results)


# --------------------------------------------------------------- hostile input (issue 12 item 9)


def test_a_file_that_is_not_utf8_is_a_clear_error(finished: list[Game], tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(json.dumps(record_of(finished[0])).encode() + b"\xff\xfe")
    with pytest.raises(RecordError, match="not UTF-8") as info:
        load_record(path)
    assert str(path) in str(info.value)


def test_deeply_nested_json_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(RecordError, match="too deeply nested"):
        load_record(path)
    nested = tmp_path / "deep-field.json"
    nested.write_text(
        '{"format": "rummykit-record", "version": 1, "seats": ' + "[" * 50_000 + "]" * 50_000 + "}",
        encoding="utf-8",
    )
    with pytest.raises(RecordError, match="too deeply nested"):
        load_record(nested)


def test_an_integer_too_long_to_read_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text('{"format": "rummykit-record", "seed": ' + "7" * 5000 + "}", encoding="utf-8")
    with pytest.raises(RecordError, match="cannot read record"):
        load_record(path)


def test_edited_totals_are_detected(finished: list[Game]) -> None:
    """Replay recomputes the match totals and names the difference."""
    record = record_of(finished[1])
    true_totals = list(record["totals"])
    record["totals"][0] += 5
    with pytest.raises(RecordError, match="totals") as info:
        replay(record)
    message = str(info.value)
    assert str(record["totals"]) in message
    assert str(true_totals) in message
    assert info.value.index is None


@pytest.mark.parametrize("field", ["scores", "totals", "end", "rack_values"])
def test_an_edited_deal_result_names_the_deal_and_the_field(
    finished: list[Game], field: str
) -> None:
    record = record_of(finished[2])
    result = record["results"][0]
    result[field] = "edited" if field == "end" else [v + 1 for v in result[field]]
    with pytest.raises(RecordError, match=f"deal 1 {field}"):
        replay(record)


def test_missing_or_extra_deal_results_are_detected(finished: list[Game]) -> None:
    record = record_of(finished[0])
    extra = copy.deepcopy(record)
    extra["results"].append(extra["results"][0])
    with pytest.raises(RecordError, match=r"2 deal results.*replay gives 1"):
        replay(extra)
    none = copy.deepcopy(record)
    none["results"] = []
    with pytest.raises(RecordError, match=r"0 deal results.*replay gives 1"):
        replay(none)


def test_an_edited_finished_flag_is_detected(finished: list[Game]) -> None:
    record = record_of(finished[0])
    record["finished"] = False
    with pytest.raises(RecordError, match="finished"):
        replay(record)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seed", "abc"),
        ("seed", 1.5),
        ("seed", True),
        ("seed", [1]),
        ("variant", 3),
        ("players", "4"),
        ("players", 4.0),
        ("options", ["atu_bonus"]),
        ("options", {"atu_bonus": [50]}),
        ("fingerprint", 12),
        ("first_maker", "1"),
        ("walls", "R1#1"),
        ("walls", [[1, 2]]),
        ("actions", {"seat": 0}),
        ("actions", "draw"),
        ("seats", "P1"),
        ("seats", ["P1"]),
        ("results", {"deal": 1}),
        ("results", ["deal 1"]),
        ("totals", "12"),
        ("totals", [1, "2"]),
        ("finished", "yes"),
    ],
)
def test_every_field_has_its_type_checked(finished: list[Game], field: str, value: Any) -> None:
    """A record with a field of the wrong type is refused, naming the field."""
    record = record_of(finished[0])
    record[field] = value
    with pytest.raises(RecordError, match=f"'{field}'"):
        replay(record)


@pytest.mark.parametrize(
    "entry",
    [{"seat": "1", "action": "draw"}, {"seat": 1.0, "action": "draw"}, {"seat": 0, "action": 5}],
)
def test_action_entries_have_their_types_checked(finished: list[Game], entry: Any) -> None:
    record = record_of(finished[0])
    record["actions"][3] = entry
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.index == 3


def test_a_record_error_keeps_its_index_across_pickle() -> None:
    """A replay refused in a worker process reaches its parent with the failing action's
    index and the same message."""
    import pickle

    err = RecordError("not a legal action", 7)
    back = pickle.loads(pickle.dumps(err))
    assert (back.index, back.detail, str(back)) == (7, "not a legal action", str(err))
    assert str(back) == "action 7: not a legal action"
