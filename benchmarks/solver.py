"""Exact solver speed, side by side with an integer program (HiGHS): one command, one table.

    python benchmarks/solver.py            # 1,000 racks per row (a few minutes)
    python benchmarks/solver.py --quick    # 40 racks per row, for smoke tests
    python benchmarks/solver.py --json results.json   # the rows as data as well


Each row solves the same seeded racks of 14-15 pieces, two of them jokers, with
rummykit's exact solver and with the integer-programming formulation the
exactness tests use (tests/ilp_support.py; needs the ``test`` extra).  Times are
CPU time of this process (``time.process_time``) on one core, per solve, each
side timed in its own pass with garbage collection paused (as ``timeit`` does);
the solver first warms its caches on other racks, as a long game would have them.
The ratio is the ILP median over the rummykit median.  Optimal values must agree
on every rack: a disagreement is reported and fails the run.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from ilp_support import Template, ilp_best
from rummykit.model.candidates import counts_of
from rummykit.model.pieces import Face
from rummykit.rules import find_variant
from rummykit.rules.variant import Variant
from rummykit.solver import (
    best_laydown,
    best_opening,
    least_deadwood,
    opening_requirement,
)

TARGETS = {"median": 0.3, "p99": 1.0}
"""Issue 4: milliseconds per solve on 14-15-piece racks with 2 jokers."""

Solver = Callable[[tuple[Face, ...]], int]


def racks(variant: Variant, count: int, seed: int) -> list[tuple[Face, ...]]:
    """Seeded racks of 12-13 naturals and 2 jokers from the variant's own pieces."""
    rng = random.Random(seed)
    faces = variant.pieces(variant.resolve(variant.default_players)).faces
    naturals = [f for f in faces if not f.is_joker]
    jokers = [f for f in faces if f.is_joker][:2]
    return [tuple(rng.sample(naturals, rng.choice((12, 13)))) + tuple(jokers) for _ in range(count)]


def objectives(variant: Variant) -> list[tuple[str, Solver, Solver]]:
    """(name, rummykit, ILP) pairs answering the same optimal value."""
    options = variant.resolve(variant.default_players)
    rules = variant.rules_for(options)
    requirement = opening_requirement(variant, options)
    structure = str(requirement.structure)
    material = variant.material

    def opening_points(t: Template) -> int:
        return sum(variant.opening_value(t.kind, p) for p in t.positions)

    def piece_values(t: Template) -> int:
        return sum(values[k] for k in t.kinds)

    faces = variant.pieces(options).faces
    values = {f.kind: variant.score_value(f) for f in faces}

    def counts(rack: tuple[Face, ...]) -> tuple[int, ...]:
        return counts_of([f.kind for f in rack])

    rows: list[tuple[str, Solver, Solver]] = [
        (
            f"opening ({structure})",
            lambda r: best_opening(r, variant, requirement, rules=rules).points,
            lambda r: ilp_best(counts(r), rules, material, opening_points, structure=structure),
        ),
        (
            "most value laid",
            lambda r: best_laydown(r, variant, rules=rules).points,
            lambda r: ilp_best(counts(r), rules, material, opening_points),
        ),
        (
            "least deadwood",
            lambda r: least_deadwood(r, variant, rules=rules).points,
            lambda r: (
                sum(values[f.kind] for f in r) - ilp_best(counts(r), rules, material, piece_values)
            ),
        ),
    ]
    return rows


def timed_pass(solve: Solver, measured: list[tuple[Face, ...]]) -> tuple[list[float], list[int]]:
    """Milliseconds and answer per rack; one solver at a time, garbage collection paused
    (as ``timeit`` does) so neither side pays for the other's garbage."""
    times: list[float] = []
    values: list[int] = []
    gc.collect()
    gc.disable()
    try:
        for rack in measured:
            start = time.process_time()
            values.append(solve(rack))
            times.append((time.process_time() - start) * 1000.0)
    finally:
        gc.enable()
    return times, values


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 racks per row")
    parser.add_argument("--racks", type=int, default=None, help="racks per row")
    parser.add_argument(
        "--variants",
        default="remi_ro,double",
        help="comma-separated variants (default: remi_ro,double)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        default=None,
        metavar="FILE",
        help="also write the rows to FILE as JSON (the solver library may print to stdout)",
    )
    args = parser.parse_args()
    count = args.racks or (40 if args.quick else 1000)
    header = (
        f"{'variant':<10} {'objective':<28} {'rummykit med':>12} {'p99':>7} "
        f"{'ILP med':>8} {'p99':>7} {'ratio':>6} {'agree':>7}"
    )
    print(f"rummykit solver vs HiGHS ILP, {count} racks per row, ms per solve (process time)")
    print(f"{platform.python_implementation()} {platform.python_version()}, one core")
    print(header)
    print("-" * len(header))
    failed = False
    rows: list[dict[str, object]] = []
    for name in args.variants.split(","):
        variant = find_variant(name.strip())
        measured = racks(variant, count, seed=1)
        warm = racks(variant, 2000 if count >= 100 else count, seed=2)
        for label, ours, theirs in objectives(variant):
            for rack in warm:
                ours(rack)
            for rack in warm[:5]:
                theirs(rack)  # builds the ILP's meld templates once
            ours_ms, ours_values = timed_pass(ours, measured)
            ilp_ms, ilp_values = timed_pass(theirs, measured)
            agree = sum(a == b for a, b in zip(ours_values, ilp_values, strict=True))
            failed |= agree != count
            med, med_ilp = statistics.median(ours_ms), statistics.median(ilp_ms)
            print(
                f"{variant.name:<10} {label:<28} {med:>12.3f} {p99(ours_ms):>7.3f} "
                f"{med_ilp:>8.3f} {p99(ilp_ms):>7.3f} {med_ilp / med:>5.0f}x "
                f"{agree:>3}/{count}"
            )
            rows.append(
                {
                    "variant": variant.name,
                    "objective": label,
                    "rummykit_median_ms": med,
                    "rummykit_p99_ms": p99(ours_ms),
                    "ilp_median_ms": med_ilp,
                    "ilp_p99_ms": p99(ilp_ms),
                    "agree": agree,
                    "racks": count,
                }
            )
    print(f"targets: median <= {TARGETS['median']} ms, p99 <= {TARGETS['p99']} ms")
    if args.json is not None:
        args.json.write_text(json.dumps({"targets": TARGETS, "rows": rows}, indent=2) + "\n")
    if failed:
        print("DISAGREEMENT: the solver and the ILP found different optima")
        sys.exit(1)


if __name__ == "__main__":
    main()
