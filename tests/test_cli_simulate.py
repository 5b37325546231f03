"""Bot simulations: simulate_one, run_simulation and SimulationSummary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummykit.cli.simulate import GameSummary, SimulationSummary, run_simulation, simulate_one
from rummykit.engine.record import load_record, replay

ONE_DEAL = {"match_deals": 1}


def _summary(index: int, totals: tuple[int, ...], **kw: object) -> GameSummary:
    fields: dict[str, object] = {
        "index": index,
        "seed": index,
        "totals": totals,
        "deal_scores": (totals,),
        "turns_per_deal": (20,),
        "actions": 100,
        "ends": ("close",),
    }
    fields.update(kw)
    return GameSummary(**fields)  # type: ignore[arg-type]


# --------------------------------------------------------------------- simulate_one


def test_simulate_one_is_deterministic_in_its_seed() -> None:
    a = simulate_one("remi_ro", 3, {}, ["greedy", "random", "greedy"], 11, 0, None)
    b = simulate_one("remi_ro", 3, {}, ["greedy", "random", "greedy"], 11, 0, None)
    c = simulate_one("remi_ro", 3, {}, ["greedy", "random", "greedy"], 12, 0, None)
    assert a == b
    assert a != c
    assert a.seed == 11
    assert a.index == 0


def test_simulate_one_summary_matches_its_record(tmp_path: Path) -> None:
    summary = simulate_one("remi_ro", 2, {}, ["greedy", "random"], 5, 3, str(tmp_path))
    path = tmp_path / "game-00003.json"
    assert path.exists()
    record = load_record(path)
    assert record["seats"] == [
        {"seat": 0, "name": "greedy", "bot": "greedy"},
        {"seat": 1, "name": "random", "bot": "random"},
    ]
    assert record["seed"] == 5
    assert record["finished"] is True
    assert summary.index == 3
    assert summary.actions == len(record["actions"])
    assert list(summary.totals) == record["totals"]
    assert [list(s) for s in summary.deal_scores] == [r["scores"] for r in record["results"]]
    assert list(summary.ends) == [r["end"] for r in record["results"]]
    assert len(summary.deal_scores) == 2  # match_deals = players
    # Turns per deal: discards (and board closes) between `next` actions.
    turns, count = [], 0
    for entry in record["actions"]:
        verb = entry["action"].split()[0]
        if verb in ("discard", "close"):
            count += 1
        elif verb == "next":
            turns.append(count)
            count = 0
    turns.append(count)
    assert list(summary.turns_per_deal) == turns
    result = replay(record)
    assert result.game.is_over
    assert list(result.game.totals) == list(summary.totals)


def test_simulate_one_respects_options_and_player_count() -> None:
    summary = simulate_one("remi_ro", 4, ONE_DEAL, ["greedy"] * 4, 2, 0, None)
    assert len(summary.totals) == 4
    assert len(summary.deal_scores) == 1
    assert summary.totals == summary.deal_scores[0]


def test_simulate_one_rejects_an_unknown_bot() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        simulate_one("remi_ro", 2, {}, ["greedy", "nobody"], 0, 0, None)


# --------------------------------------------------------------------- SimulationSummary


def test_summary_adds_games() -> None:
    s = SimulationSummary(players=3, bots=("greedy", "random", "random"))
    s.add(
        _summary(
            0,
            (100, 50, -100),
            deal_scores=((60, 0, -50), (40, 50, -50)),
            turns_per_deal=(20, 30),
            actions=200,
            ends=("close", "exhaustion"),
        )
    )
    s.add(_summary(1, (-100, 200, 0), turns_per_deal=(10,), actions=50))
    assert s.games == 2
    assert s.wins == [1.0, 1.0, 0.0]
    assert s.deal_score_sum == [60 + 40 - 100, 0 + 50 + 200, -50 - 50 + 0]
    assert s.deals == 3
    assert s.turns == 60
    assert s.actions == 250
    assert s.ends == {"close": 2, "exhaustion": 1}
    data = s.to_json()
    assert data == {
        "games": 2,
        "deals": 3,
        "players": 3,
        "bots": ["greedy", "random", "random"],
        "wins": [1.0, 1.0, 0.0],
        "mean_deal_score": [0.0, 83.33, -33.33],
        "turns_per_deal": 20.0,
        "actions": 250,
        "deal_ends": {"close": 2, "exhaustion": 1},
    }
    assert json.loads(json.dumps(data)) == data


def test_ties_share_the_win() -> None:
    s = SimulationSummary(players=4, bots=("greedy",) * 4)
    s.add(_summary(0, (100, 100, 50, -20)))
    assert s.wins == [0.5, 0.5, 0.0, 0.0]
    s.add(_summary(1, (7, 7, 7, 1)))
    assert s.wins == pytest.approx([0.5 + 1 / 3, 0.5 + 1 / 3, 1 / 3, 0.0])
    s.add(_summary(2, (0, 0, 0, 0)))
    assert s.wins == pytest.approx([0.5 + 1 / 3 + 0.25, 0.5 + 1 / 3 + 0.25, 1 / 3 + 0.25, 0.25])
    assert sum(s.wins) == pytest.approx(s.games)


def test_summary_without_games_is_still_json() -> None:
    data = SimulationSummary(players=2, bots=("greedy", "greedy")).to_json()
    assert data["games"] == 0
    assert data["deals"] == 0
    assert data["turns_per_deal"] == 0
    json.dumps(data)


# --------------------------------------------------------------------- run_simulation


def test_run_simulation_counts_and_progress() -> None:
    seen: list[GameSummary] = []
    s = run_simulation("remi_ro", 2, {}, ["greedy", "random"], 4, 10, 1, None, seen.append)
    assert s.games == 4
    assert s.players == 2
    assert s.bots == ("greedy", "random")
    assert s.deals == 8
    assert sum(s.wins) == pytest.approx(4)
    assert sorted(g.index for g in seen) == [0, 1, 2, 3]
    assert sorted(g.seed for g in seen) == [10, 11, 12, 13]
    assert all(isinstance(g, GameSummary) for g in seen)


def test_game_i_uses_seed_plus_i() -> None:
    s = run_simulation("remi_ro", 2, ONE_DEAL, ["greedy", "greedy"], 3, 20, 1)
    singles = SimulationSummary(players=2, bots=("greedy", "greedy"))
    for i in range(3):
        singles.add(simulate_one("remi_ro", 2, ONE_DEAL, ["greedy", "greedy"], 20 + i, i, None))
    assert s.to_json() == singles.to_json()


def test_run_simulation_is_deterministic_across_jobs() -> None:
    args = ("remi_ro", 3, ONE_DEAL, ["greedy", "random", "greedy"], 6, 4)
    one = run_simulation(*args, 1)
    again = run_simulation(*args, 1)
    two: list[GameSummary] = []
    parallel = run_simulation(*args, 2, None, two.append)
    assert one.to_json() == again.to_json() == parallel.to_json()
    assert sorted(g.index for g in two) == list(range(6))


def test_run_simulation_saves_every_game(tmp_path: Path) -> None:
    out = tmp_path / "records"
    out.mkdir()
    s = run_simulation("remi_ro", 2, ONE_DEAL, ["random", "greedy"], 3, 0, 1, str(out))
    files = sorted(p.name for p in out.iterdir())
    assert files == ["game-00000.json", "game-00001.json", "game-00002.json"]
    totals = [0, 0]
    for name in files:
        result = replay(load_record(out / name))
        for seat in range(2):
            totals[seat] += result.game.totals[seat]
    assert totals == s.deal_score_sum
