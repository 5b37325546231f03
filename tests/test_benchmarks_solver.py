"""Smoke test of benchmarks/solver.py --quick: the solver and the ILP agree, the table prints."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_quick_solver_benchmark_prints_its_table() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "solver.py"),
            "--racks",
            "10",
            "--variants",
            "remi_ro",
        ],
        cwd=ROOT,
        capture_output=True,
        env=env,
        timeout=300,
        check=False,
    )
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0, out + result.stderr.decode("utf-8", "replace")
    lines = out.splitlines()
    assert lines[0].startswith("rummykit solver vs HiGHS ILP, 10 racks per row")
    header = next(i for i, line in enumerate(lines) if line.startswith("variant"))
    assert header + 1 < len(lines) and set(lines[header + 1]) == {"-"}
    rows = lines[header + 2 : header + 5]
    assert [r.split()[0] for r in rows] == ["remi_ro"] * 3
    for row in rows:
        assert row.endswith("10/10"), row  # every optimum agrees
    assert lines[-1].startswith("targets: median <= 0.3 ms")
