"""Smoke tests of benchmarks/rl.py and examples/train_remi_vs_random.py: they run and
print what docs/rl.md says they print (speeds and scores are not checked)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> str:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    result = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, env=env, timeout=300, check=False
    )
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0, out + result.stderr.decode("utf-8", "replace")
    return out


def test_quick_rl_benchmark_prints_its_table() -> None:
    out = _run(str(ROOT / "benchmarks" / "rl.py"), "--quick", "--variant", "remi_ro")
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("| variant"))
    assert [c.strip() for c in lines[header].strip("|").split("|")] == [
        "variant",
        "players",
        "AEC env steps/s",
        "Gym steps/s",
        "engine actions/s",
        "env/engine",
        "mask only",
        "load",
    ]
    row = [c.strip() for c in lines[header + 2].strip("|").split("|")]
    assert row[0] == "remi_ro" and row[1] == "4"
    for value in row[2:8]:
        float(value.replace(",", ""))


def test_training_example_runs_and_reports_both_scores() -> None:
    out = _run(
        str(ROOT / "examples" / "train_remi_vs_random.py"),
        "--minutes",
        "0.01",
        "--eval-deals",
        "3",
        "--batch",
        "2",
    )
    assert re.search(r"^random learner : mean deal score +-?\d+\.\d", out, re.M)
    assert re.search(r"^trained policy : mean deal score +-?\d+\.\d", out, re.M)
    assert "largest weights:" in out
