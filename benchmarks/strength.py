"""Bot strength (issue 16): the ladder hard > medium > greedy > random in every variant,
hard against three medium seats, and decision times.

    python benchmarks/strength.py --deals 2000 --jobs 2 --logs strength-logs \\
        --write docs/strength.md

plays, for every variant at 2 seats, ``--deals`` duplicate deals (each deal once per
seat rotation on the same cards) of ``hard`` v ``medium``, ``medium`` v ``greedy`` and
``greedy`` v ``random``; at 4 seats (remi_ro, romme, basic, continental) one ``hard``
seat against three ``medium`` seats; then the ladder — every pair of random, greedy,
easy, medium and hard on ``--ladder-deals`` deals, rated by one OpenSkill model — and
the decision times of ``hard`` and ``medium`` (one core, wall-clock).  Every deal is
appended to ``LOGS/<cell>.jsonl`` so an interrupted run resumes; deal *i* uses seed
``SEED + i`` whatever ``--jobs``.  It prints the markdown tables, and with ``--write``
replaces the generated block of that file (between the ``strength:begin`` and
``strength:end`` markers).  ``--hard hard@N`` plays the search with N worlds a
decision and no clock (faster, reproducible); the default is the real ``hard``.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import re
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from rummykit.bots import Bot, GreedyBot, make_bot
from rummykit.bots.tournament import (
    LADDER,
    DealOutcome,
    Ladder,
    Standings,
    TournamentSpec,
    ladder_pairs,
    load_log,
    open_log,
    run_deals,
)
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import view
from rummykit.rules.variant import all_variants, find_variant

FOUR_SEATS = ("remi_ro", "romme", "basic", "continental")
TARGET_DEALS = 2_000
TARGET_HARD_V_MEDIUM = 0.55
TARGET_HARD_P95_S, TARGET_HARD_MAX_S, TARGET_MEDIUM_P95_S = 1.0, 3.0, 0.1
SIMULATION_RECYCLES = 3
"""RULES A-05: bots can recycle the stock for ever; like `rummykit tournament`, cap it."""
BEGIN, END = "<!-- strength:begin -->", "<!-- strength:end -->"


def options_for(variant: str) -> dict[str, object]:
    """The tournament command's options: the stock recycle cap where the variant has it."""
    v = find_variant(variant)
    if any(o.name == "max_stock_recycles" for o in v.options):
        return {"max_stock_recycles": SIMULATION_RECYCLES}
    return {}


LOGGED_ONLY = False
"""``--logged-only``: report the deals the logs hold, play none."""


def play_cell(
    variant: str, bots: Sequence[str], deals: int, seed: int, logs: Path, jobs: int
) -> Standings:
    """``deals`` duplicate deals of ``bots`` (one per seat), resumed from the cell's log
    (with :data:`LOGGED_ONLY`, only the logged ones)."""
    spec = TournamentSpec(variant, tuple(bots), options_for(variant), seed)
    path = logs / f"{variant}-{len(bots)}p-{'-'.join(bots)}.jsonl"
    done = [o for o in load_log(path, spec) if o.index < deals]
    standings = Standings(spec.labels())
    standings.extend(done)
    have = {o.index for o in done}
    todo = [] if LOGGED_ONLY else [i for i in range(deals) if i not in have]
    if not todo:
        return standings
    with open_log(path, spec) as log:

        def record(outcome: DealOutcome) -> None:
            standings.add(outcome)
            log.write(json.dumps(outcome.to_json()) + "\n")
            log.flush()

        run_deals(spec, todo, jobs=jobs, on_deal=record)
    print(f"  {variant} {'/'.join(bots)}: {len(standings.outcomes)} deals", file=sys.stderr)
    return standings


def _ci(low: float, high: float) -> str:
    return "n/a" if math.isinf(high) else f"{low:+.2f} … {high:+.2f}"


def two_seat_rows(variants: Sequence[str], args: argparse.Namespace) -> list[str]:
    rows = [
        "| variant | match | deals | first bot's deals won | mean score diff (95% CI) | "
        "step holds |",
        "|---|---|---|---|---|---|",
    ]
    hard = args.hard
    for variant in variants:
        for pair in ((hard, "medium"), ("medium", "greedy"), ("greedy", "random")):
            if pair[0] == hard and variant not in args.hard_variants.split(","):
                rows.append(f"| {variant} | {pair[0]} v {pair[1]} | 0 | not run | | |")
                continue
            deals = args.hard_deals if pair[0] == hard else args.deals
            standings = play_cell(variant, pair, deals, args.seed, args.logs, args.jobs)
            n = len(standings.outcomes)
            if not n:
                rows.append(f"| {variant} | {pair[0]} v {pair[1]} | 0 | not run | | |")
                continue
            first = standings.table()[0]
            holds = first.ci95[0] > 0
            if pair[0] == hard:
                holds = holds and first.win_rate >= TARGET_HARD_V_MEDIUM
            verdict = "yes" if holds else "no"
            if n < TARGET_DEALS:
                verdict += f" ({n} < {TARGET_DEALS:,} deals)"
            rows.append(
                f"| {variant} | {pair[0]} v {pair[1]} | {n} | {first.deals_won:g} "
                f"({100 * first.win_rate:.1f}%) | {first.mean_diff:+.2f} "
                f"({_ci(*first.ci95)}) | {verdict} |"
            )
    return rows


def four_seat_rows(args: argparse.Namespace) -> list[str]:
    rows = [
        f"| variant | deals | {args.hard} deals won (fair share 25%) | "
        "mean score diff v the medium seats (95% CI) | target holds |",
        "|---|---|---|---|---|",
    ]
    for variant in FOUR_SEATS:
        bots = (args.hard, "medium", "medium", "medium")
        standings = play_cell(variant, bots, args.deals4, args.seed, args.logs, args.jobs)
        n = len(standings.outcomes)
        if not n:
            rows.append(f"| {variant} | 0 | not run | | |")
            continue
        first = standings.table()[0]
        holds = first.win_rate > 0.25 and first.ci95[0] > 0
        verdict = ("yes" if holds else "no") + (
            f" ({n} < {TARGET_DEALS:,} deals)" if n < TARGET_DEALS else ""
        )
        rows.append(
            f"| {variant} | {n} | {first.deals_won:g} ({100 * first.win_rate:.1f}%) | "
            f"{first.mean_diff:+.2f} ({_ci(*first.ci95)}) | {verdict} |"
        )
    return rows


def ladder_rows(variants: Sequence[str], args: argparse.Namespace) -> list[str]:
    # Strongest first, so the pairs (hard, medium), (medium, greedy), (greedy, random)
    # are the 2-seat cells above (the same logs, the same deals).
    bots = [args.hard if b == "hard" else b for b in reversed(LADDER)]
    rows = [
        "| variant | pairs played (of 10) | deals a pair | ladder, strongest first: "
        "bot (OpenSkill ordinal) |",
        "|---|---|---|---|",
    ]
    for variant in variants:
        ladder = Ladder(bots)
        counts: list[int] = []
        played: set[str] = set()
        for pair in ladder_pairs(bots):
            standings = play_cell(variant, pair, args.ladder_deals, args.seed, args.logs, args.jobs)
            if standings.outcomes:
                counts.append(len(standings.outcomes))
                played.update(pair)
            for outcome in standings.outcomes:
                ladder.add(pair, outcome)
        ranked = ", ".join(
            f"{b} ({o:.1f})" for b, (_, _, o) in ladder.ratings().items() if b in played
        )
        unplayed = [b for b in bots if b not in played]
        if unplayed:
            ranked += f"; not played: {', '.join(unplayed)}"
        spread = f"{min(counts)}–{max(counts)}" if counts else "0"
        rows.append(f"| {variant} | {len(counts)} | {spread} | {ranked} |")
    return rows


def decision_times(name: str, positions: int, seed: int, variants: Sequence[str]) -> list[float]:
    """Seconds per decision of bot ``name`` with more than one legal action, in deals
    against greedy (2 seats, the variants in turn), one core, wall-clock."""
    rng = random.Random(seed)
    times: list[float] = []
    game_seed = seed
    while len(times) < positions:
        variant = variants[game_seed % len(variants)]
        game = Game(variant, 2, options_for(variant), seed=game_seed)
        seat = game_seed // len(variants) % 2
        game_seed += 1
        bots: list[Bot] = [GreedyBot(), GreedyBot()]
        bots[seat] = make_bot(name)
        actions = 0
        while not game.results and len(times) < positions and actions < 3_000:
            to_move = game.to_move
            legal = game.legal_actions()
            seen = view(game, to_move)
            start = time.perf_counter()
            action = bots[to_move].choose(seen, legal, rng)
            spent = time.perf_counter() - start
            if to_move == seat and len(legal) > 1 and game.phase in (Phase.TURNS, Phase.ROUND1):
                times.append(spent)
            game.apply(action)
            actions += 1
    return times


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_rows(variants: Sequence[str], args: argparse.Namespace) -> list[str]:
    rows = [
        "| bot | decisions timed | median | p95 | max | target |",
        "|---|---|---|---|---|---|",
    ]
    for name, target in (
        ("hard", f"p95 ≤ {TARGET_HARD_P95_S:g} s, max ≤ {TARGET_HARD_MAX_S:g} s"),
        ("medium", f"p95 ≤ {TARGET_MEDIUM_P95_S:g} s"),
    ):
        times = decision_times(name, args.positions, args.seed, variants)
        p95, top = _pct(times, 0.95), max(times)
        if name == "hard":
            met = p95 <= TARGET_HARD_P95_S and top <= TARGET_HARD_MAX_S
        else:
            met = p95 <= TARGET_MEDIUM_P95_S
        rows.append(
            f"| {name} | {len(times)} | {_pct(times, 0.5):.4f} s | {p95:.4f} s | "
            f"{top:.3f} s | {target} ({'met' if met else 'not met'}) |"
        )
    return rows


def write_block(path: Path, text: str) -> None:
    """Replace the generated block of ``path`` (between the markers) with ``text``."""
    doc = path.read_text(encoding="utf-8")
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"{path} has no {BEGIN} … {END} block to replace")
    block = f"{BEGIN}\n{text.rstrip()}\n{END}"
    path.write_text(
        re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, doc, flags=re.S),
        encoding="utf-8",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=TARGET_DEALS, help="2-seat deals a cell")
    parser.add_argument("--deals4", type=int, default=TARGET_DEALS, help="4-seat deals a cell")
    parser.add_argument("--hard-deals", type=int, default=None, help="hard v medium deals")
    parser.add_argument("--hard-variants", default=None, help="hard v medium variants (all)")
    parser.add_argument("--ladder-deals", type=int, default=200, help="ladder deals a pair")
    parser.add_argument("--ladder-variants", default=None, help="ladder variants (all)")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="worker processes")
    parser.add_argument("--hard", default="hard", help="the hard bot: hard, or hard@N")
    parser.add_argument("--logs", type=Path, default=Path("strength-logs"), help="log folder")
    parser.add_argument("--seed", type=int, default=100_000, help="deal i uses seed SEED+i")
    parser.add_argument("--variants", default=",".join(sorted(v.name for v in all_variants())))
    parser.add_argument("--positions", type=int, default=300, help="decisions timed a bot")
    parser.add_argument(
        "--parts", default="two,four,ladder,times", help="which tables (comma list)"
    )
    parser.add_argument("--write", type=Path, default=None, help="replace this doc's block")
    parser.add_argument("--quick", action="store_true", help="3 deals a cell, 10 decisions")
    parser.add_argument(
        "--logged-only", action="store_true", help="report the logged deals, play none"
    )
    args = parser.parse_args()
    global LOGGED_ONLY
    LOGGED_ONLY = args.logged_only
    if args.quick:
        args.deals = args.deals4 = args.ladder_deals = args.hard_deals = 3
        args.positions = 10
    if args.hard_deals is None:
        args.hard_deals = args.deals
    if args.hard_variants is None:
        args.hard_variants = args.variants
    args.logs.mkdir(parents=True, exist_ok=True)
    variants = args.variants.split(",")
    parts = set(args.parts.split(","))
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        f"Generated by `benchmarks/strength.py` ({started}): Python "
        f"{platform.python_version()} on {platform.machine()}, {args.jobs} job(s), "
        f"deals from seed {args.seed}; `{args.hard}` is the hard bot played.",
        "",
    ]
    if "two" in parts:
        out += ["**2 seats, every variant** (each step of the ladder):", ""]
        out += [*two_seat_rows(variants, args), ""]
    if "four" in parts:
        out += [f"**4 seats:** one `{args.hard}` seat against three `medium` seats:", ""]
        out += [*four_seat_rows(args), ""]
    if "ladder" in parts:
        out += ["**The ladder** (every pair at 2 seats, one OpenSkill model):", ""]
        ladder_variants = (args.ladder_variants or args.variants).split(",")
        out += [*ladder_rows(ladder_variants, args), ""]
    if "times" in parts:
        out += [
            "**Decision time**, decisions with more than one legal action in deals "
            f"against greedy ({', '.join(variants)}), one process:",
            "",
        ]
        out += [*time_rows(variants, args), ""]
    text = "\n".join(out)
    print(text)
    if args.write is not None:
        write_block(args.write, text)


if __name__ == "__main__":
    main()
