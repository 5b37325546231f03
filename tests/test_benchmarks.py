"""Smoke tests of benchmarks/run.py --quick, benchmarks/copies.py and benchmarks/peers.py
--quick: they run and print their tables (timings unchecked)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROWS = (
    "random playout actions/s",
    "greedy 4-seat deals/s",
    "state copy (µs)",
    "state memory (KB)",
    "fresh game peak (KB)",
)


def _bench(script: str, *args: str, timeout: int = 120) -> subprocess.CompletedProcess[bytes]:
    """Run ``benchmarks/<script>`` with ``args`` from the repository root."""
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        cwd=ROOT,
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=timeout,
        check=False,
    )


def test_quick_benchmark_prints_its_table() -> None:
    result = _bench("run.py", "--quick")
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0, out + result.stderr.decode("utf-8", "replace")
    assert out.startswith("rummykit benchmarks — remi_ro; Python ")
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("| measure"))
    assert [c.strip() for c in lines[header].strip("|").split("|")] == [
        "measure",
        "value",
        "target",
    ]
    assert set(lines[header + 1]) <= {"|", "-"}
    rows = {}
    for line in lines[header + 2 :]:
        if not line.startswith("|"):
            break  # the end of the first table
        label, value, target = (c.strip() for c in line.strip("|").split("|"))
        rows[label] = (value, target)
    assert set(ROWS) <= set(rows), rows
    for value, _ in rows.values():
        float(value.replace(",", ""))  # a number; its size is not checked
    for label in ROWS[:3]:
        assert f"  measuring {label} ..." in lines
    assert rows["random playout actions/s"][1] == ">= 20,000"
    # The second table has a row for every registered variant.
    from rummykit.rules import all_variants

    listed = {line.strip("|").split("|")[0].strip() for line in lines if line.startswith("| ")}
    assert {v.name for v in all_variants()} <= listed


def test_copy_benchmark_prints_a_row_per_variant() -> None:
    result = _bench("copies.py", "--copies", "20")
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0, out + result.stderr.decode("utf-8", "replace")
    from rummykit.rules import all_variants

    rows = [line.strip("|").split("|") for line in out.splitlines()[2:]]
    assert [r[0].strip() for r in rows] == [v.name for v in all_variants()]
    for row in rows:
        assert float(row[2]) > 0 and row[3].strip() == "≤ 20"


def test_peers_benchmark_prints_two_variants_beside_openspiel() -> None:
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    result = _bench("peers.py", "--quick", "--variants", "continental,german2")
    out, err = result.stdout.decode("utf-8"), result.stderr.decode("utf-8", "replace")
    assert result.returncode == 0, out + err
    assert out.startswith("rummykit beside OpenSpiel — Python ")
    table = [line.strip("|").split("|") for line in out.splitlines() if line.startswith("|")]
    assert [c.strip() for c in table[0]] == [
        "variant",
        "players",
        "player actions/s",
        "× OpenSpiel",
        "copy µs",
        "× clone",
    ]
    assert set("".join(table[1])) <= {"-"}
    rows = {r[0].strip(): [c.strip() for c in r[1:]] for r in table[2:]}
    # The rows asked for, in the variants' order, then the peer every ratio divides by.
    assert list(rows) == ["continental", "german2", "OpenSpiel gin_rummy"]
    assert [r[0] for r in rows.values()] == ["4", "2", "2"]
    for _players, speed, ratio, copy, copy_ratio in rows.values():
        assert float(speed.replace(",", "")) > 0 and float(copy) > 0
        float(ratio), float(copy_ratio)  # numbers; their size is not checked
    assert rows["OpenSpiel gin_rummy"][2] == rows["OpenSpiel gin_rummy"][4] == "1.00"
    # Progress went to stderr: every contestant in both quick rounds.
    assert "round 2/2: OpenSpiel gin_rummy" in err.splitlines()
    assert "round 1/2: continental" in err.splitlines()


def test_peers_benchmark_rejects_an_unknown_variant() -> None:
    result = _bench("peers.py", "--variants", "nope")
    assert result.returncode == 2
    assert b"unknown --variants nope" in result.stderr


def test_peers_benchmark_times_another_source_tree_in_the_same_rounds() -> None:
    """--against SRC adds a row per variant from a worker process importing SRC (here
    this checkout's own src/); row labels with spaces cross the worker's pipe intact."""
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    result = _bench(
        "peers.py",
        "--quick",
        "--rounds",
        "1",
        "--variants",
        "remmi_de 8B",
        "--against",
        str(ROOT / "src"),
    )
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0, out + result.stderr.decode("utf-8", "replace")
    assert f"(against) rows: rummykit from {ROOT / 'src'}" in out
    labels = [line.split("|")[1].strip() for line in out.splitlines() if line.startswith("| ")]
    assert labels[1:] == ["remmi_de 8B", "remmi_de 8B (against)", "OpenSpiel gin_rummy"]


def test_behaviour_hash_is_the_same_twice_and_names_every_variant_asked() -> None:
    """The fingerprint is reproducible (same seeds, same bots), and a different bot
    line-up changes it."""

    def run(*args: str) -> str:
        result = _bench("behaviour_hash.py", *args, timeout=300)
        assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
        return result.stdout.decode("utf-8")

    args = ("--variant", "basic", "--variant", "vienna", "--games", "1")
    first = run("--bots", "random", *args)
    assert first == run("--bots", "random", *args)
    assert [line.split()[0] for line in first.splitlines()] == ["basic", "vienna", "all"]
    assert first != run("--bots", "greedy", *args)


def test_behaviour_hash_rejects_an_unknown_bot() -> None:
    result = _bench("behaviour_hash.py", "--bots", "nobody")
    assert result.returncode == 2 and b"unknown bot 'nobody'" in result.stderr
