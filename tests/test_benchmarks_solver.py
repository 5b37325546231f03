"""Smoke test of benchmarks/solver.py: the solver and the ILP agree, the table prints.

The results are read from the benchmark's ``--json`` file, never parsed out of
standard output: HiGHS prints its own banner there (highspy 1.16 does, at every
``Highs()``), and what a library prints is not ours to depend on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_quick_solver_benchmark_writes_agreeing_rows(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    out_file = tmp_path / "solver.json"
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "solver.py"),
            "--racks",
            "10",
            "--variants",
            "remi_ro",
            "--json",
            str(out_file),
        ],
        cwd=ROOT,
        capture_output=True,
        env=env,
        timeout=300,
        check=False,
    )
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0, out + result.stderr.decode("utf-8", "replace")
    data = json.loads(out_file.read_text(encoding="utf-8"))
    rows = data["rows"]
    assert [r["variant"] for r in rows] == ["remi_ro"] * 3
    assert len({r["objective"] for r in rows}) == 3
    for row in rows:
        assert (row["agree"], row["racks"]) == (10, 10), row  # every optimum agrees
        assert row["rummykit_median_ms"] > 0 and row["ilp_median_ms"] > 0
    assert data["targets"] == {"median": 0.3, "p99": 1.0}
    # The human table is printed too; find its lines wherever the library's output lands.
    lines = out.splitlines()
    assert any(line.startswith("rummykit solver vs HiGHS ILP, 10 racks per row") for line in lines)
    assert sum(line.startswith("remi_ro ") and line.endswith("10/10") for line in lines) == 3
