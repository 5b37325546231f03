"""`rummykit tournament`: table, JSON, chart, log resume and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rummykit.cli.main import cli


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["tournament", *args])
    return result.exit_code, result.output


def test_tournament_prints_json_and_writes_the_chart(tmp_path: Path) -> None:
    chart = tmp_path / "c.png"
    code, out = _run(
        "-v",
        "basic",
        "--bots",
        "random,greedy",
        "-n",
        "3",
        "--out",
        str(chart),
        "--json",
    )
    assert code == 0, out
    data = json.loads(out)
    assert data["deals"] == 3 and data["chart"] == str(chart)
    bots = {row["bot"]: row for row in data["bots"]}
    assert set(bots) == {"random", "greedy"}
    assert bots["random"]["deals_won"] + bots["greedy"]["deals_won"] == 3
    assert {"mu", "sigma", "ordinal"} <= set(bots["greedy"]["rating"])
    assert chart.read_bytes()[:4] == b"\x89PNG"


def test_tournament_table_and_resume(tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    args = [
        "-v",
        "romme",
        "--bots",
        "greedy,easy",
        "--out",
        str(tmp_path / "c.png"),
        "--log",
        str(log),
    ]
    code, out = _run(*args, "-n", "2")
    assert code == 0, out
    assert "deals won" in out and "ordinal" in out and "greedy" in out and "easy" in out
    assert len(log.read_text().splitlines()) == 3  # the spec line and two deals
    code, out = _run(*args, "-n", "3")
    assert code == 0, out
    assert len(log.read_text().splitlines()) == 4  # only the third deal was played
    code, out = _run(
        "-v",
        "romme",
        "--bots",
        "greedy,random",
        "--log",
        str(log),
        "--out",
        str(tmp_path / "c.png"),
    )
    assert code != 0 and "another tournament" in out


def test_tournament_refuses_bad_input(tmp_path: Path) -> None:
    chart = str(tmp_path / "c.png")
    code, out = _run("-v", "basic", "--bots", "greedy,alphazero", "--out", chart)
    assert code != 0 and "unknown bot 'alphazero'" in out
    code, out = _run("-v", "basic", "--bots", "greedy", "--out", chart)
    assert code != 0 and "at least two bots" in out
    code, out = _run("-v", "nosuchgame", "--bots", "greedy,random", "--out", chart)
    assert code != 0
    code, out = _run("-v", "basic", "--bots", "greedy,random", "-o", "nosuch=1", "--out", chart)
    assert code != 0 and "unknown option" in out
    assert not Path(chart).exists()


def test_ladder_rates_every_bot_from_every_pair_and_resumes(tmp_path: Path) -> None:
    chart, log = tmp_path / "ladder.png", tmp_path / "ladder.jsonl"
    args = ["-v", "basic", "--ladder", "--bots", "random,greedy,easy", "--out", str(chart)]
    code, out = _run(*args, "-n", "2", "--log", str(log), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert {r["bot"] for r in data["ratings"]} == {"random", "greedy", "easy"}
    assert [m["pair"] for m in data["matches"]] == [
        ["random", "greedy"],
        ["random", "easy"],
        ["greedy", "easy"],
    ]
    assert all(m["deals"] == 2 for m in data["matches"])
    # Random is last: it lost its deals against both others.
    assert data["ratings"][-1]["bot"] == "random"
    assert chart.read_bytes()[:4] == b"\x89PNG"
    pair_log = tmp_path / "ladder.random-greedy.jsonl"
    assert len(pair_log.read_text().splitlines()) == 3
    code, out = _run(*args, "-n", "3", "--log", str(log))
    assert code == 0, out
    assert "random v greedy" in out and "ordinal" in out
    assert len(pair_log.read_text().splitlines()) == 4  # one more deal, the others kept


def test_ladder_refuses_a_bot_named_twice_and_a_tournament_needs_bots(tmp_path: Path) -> None:
    chart = str(tmp_path / "c.png")
    code, out = _run("-v", "basic", "--ladder", "--bots", "greedy,greedy", "--out", chart)
    assert code != 0 and "each bot once" in out
    code, out = _run("-v", "basic", "--out", chart)
    assert code != 0 and "--ladder" in out
