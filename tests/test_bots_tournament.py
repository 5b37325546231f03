"""Duplicate-deal tournaments: rotations on the same cards, resumable logs, standings with
confidence intervals and OpenSkill ratings, the chart, and the process and Ray backends."""

from __future__ import annotations

import importlib.util
import json
import math
import os
from pathlib import Path

import pytest

from rummykit.bots.tournament import (
    DealOutcome,
    Ladder,
    Standings,
    TournamentSpec,
    ladder_pairs,
    load_log,
    open_log,
    play_duplicate,
    run_deals,
    write_chart,
    write_ladder_chart,
)

BASIC = TournamentSpec("basic", ("random", "greedy"), {"max_stock_recycles": 3}, seed=5)


def test_labels_tell_repeated_bots_apart() -> None:
    spec = TournamentSpec("basic", ("greedy", "greedy", "random", "greedy"))
    assert spec.labels() == ["greedy", "greedy#2", "random", "greedy#3"]


def test_every_rotation_plays_the_same_cards() -> None:
    """Two copies of a deterministic bot score the same on a duplicate deal: each
    played both seats of the same deal."""
    spec = TournamentSpec("remi_ro", ("greedy", "greedy"), seed=3)
    outcome = play_duplicate(spec, 0)
    first, second = outcome.scores["greedy"], outcome.scores["greedy#2"]
    assert len(first) == len(second) == 2
    assert first == list(reversed(second))
    assert outcome.totals()["greedy"] == outcome.totals()["greedy#2"]


def test_lowest_wins_variants_are_turned_round() -> None:
    spec = TournamentSpec("german2", ("greedy", "random"), seed=1)
    totals = [play_duplicate(spec, i).totals() for i in range(3)]
    # German 2-player Rommé charges the loser: a penalty counts against its owner.
    assert all(t["greedy"] <= 0 or t["random"] <= 0 for t in totals)
    assert sum(t["greedy"] for t in totals) > sum(t["random"] for t in totals)


def test_processes_give_the_same_deals_as_one_process() -> None:
    one = run_deals(BASIC, [0, 1, 2, 3, 4])
    two = run_deals(BASIC, [0, 1, 2, 3, 4], jobs=2)
    assert [o.to_json() for o in one] == [o.to_json() for o in two]


def test_an_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown backend"):
        run_deals(BASIC, [0], backend="spark")


def test_the_log_resumes_and_refuses_another_tournament(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    assert load_log(path, BASIC) == []
    with open_log(path, BASIC) as log:
        for outcome in run_deals(BASIC, [0, 1]):
            log.write(json.dumps(outcome.to_json()) + "\n")
        log.write('{"deal": 2, "seed"')  # a line cut short by an interrupted run
    assert [o.index for o in load_log(path, BASIC)] == [0, 1]
    other = TournamentSpec("basic", ("greedy", "random"))
    with pytest.raises(ValueError, match="another tournament"):
        load_log(path, other)


def _outcome(i: int, a: int, b: int) -> DealOutcome:
    return DealOutcome(i, i, {"a": [a, 0], "b": [b, 0]})


def test_standings_count_wins_differences_and_ratings() -> None:
    standings = Standings(["a", "b"])
    standings.extend([_outcome(0, 10, 0), _outcome(1, 20, 0), _outcome(2, 0, 0), _outcome(3, 0, 6)])
    a, b = standings.table()
    assert (a.deals_won, b.deals_won) == (2.5, 1.5)
    assert a.win_rate == pytest.approx(2.5 / 4)
    assert a.mean_diff == pytest.approx((10 + 20 + 0 - 6) / 4)
    assert b.mean_diff == pytest.approx(-a.mean_diff)
    diffs = [10, 20, 0, -6]
    sd = math.sqrt(sum((d - 6) ** 2 for d in diffs) / 3)
    assert a.ci95[1] - a.mean_diff == pytest.approx(1.959964 * sd / 2)
    assert a.ordinal > b.ordinal and a.rating_mu > b.rating_mu
    data = standings.to_json()
    assert data["deals"] == 4 and [r["bot"] for r in data["bots"]] == ["a", "b"]


def test_the_chart_is_a_png(tmp_path: Path) -> None:
    standings = Standings(["a", "b"])
    standings.extend([_outcome(0, 10, 0), _outcome(1, 0, 4)])
    path = tmp_path / "chart.png"
    write_chart(standings, path, "test")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None and os.environ.get("CI") != "true",
    reason="Ray is an optional extra (pip install 'rummykit[ray]'); not installed here",
)
def test_the_ray_backend_plays_the_same_deals() -> None:
    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_deals(BASIC, [0, 1, 2], backend="ray")
    finally:
        ray.shutdown()
    assert [o.to_json() for o in remote] == [o.to_json() for o in run_deals(BASIC, [0, 1, 2])]


def test_ladder_rates_all_bots_with_one_model() -> None:
    ladder = Ladder(["a", "b", "c"])
    assert ladder_pairs(ladder.bots) == [("a", "b"), ("a", "c"), ("b", "c")]
    for i in range(4):
        ladder.add(("a", "b"), DealOutcome(i, i, {"a": [10], "b": [0]}))
        ladder.add(("b", "c"), DealOutcome(i, i, {"b": [5], "c": [0]}))
        ladder.add(
            ("a", "c"), DealOutcome(i, i, {"a": [0], "c": [0]} if i == 0 else {"a": [3], "c": [1]})
        )
    ratings = ladder.ratings()
    assert list(ratings) == ["a", "b", "c"]
    data = ladder.to_json()
    assert [r["bot"] for r in data["ratings"]] == ["a", "b", "c"]
    assert [m["pair"] for m in data["matches"]] == [["a", "b"], ["a", "c"], ["b", "c"]]


def test_the_ladder_chart_is_a_png(tmp_path: Path) -> None:
    ladder = Ladder(["a", "b"])
    ladder.add(("a", "b"), DealOutcome(0, 0, {"a": [1], "b": [0]}))
    path = tmp_path / "ladder.png"
    write_ladder_chart(ladder, path, "test")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
