"""Bot strength: expert against greedy over duplicate deals, and the expert's decision time.

    python benchmarks/strength.py --deals 2000 --level medium --logs strength-logs

plays ``--deals`` duplicate deals (each deal twice, seats swapped) of expert
(``--level``, default ``medium``: what ``expert`` means) against greedy in 2-seat
remi_ro and 2-seat romme, one process (one core), appending every deal to
``LOGS/<variant>-<level>.jsonl`` so an interrupted run resumes where it stopped.
It then times ``--time-level`` decisions (default ``hard``) in expert-vs-greedy
deals, one core.  It prints
one table: per variant, deals played, expert's deals won, mean score difference
with its 95 % interval, the OpenSkill ordinals, and whether the issue 4
targets hold (positive difference whose interval excludes zero, ≥ 60 % of
deals won, ≥ 2,000 deals); then the decision-time percentiles.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

from rummykit.bots import Bot, GreedyBot, make_bot
from rummykit.bots.tournament import (
    Standings,
    TournamentSpec,
    load_log,
    open_log,
    play_duplicate,
)
from rummykit.engine.game import Game, Phase
from rummykit.engine.view import view

VARIANTS = ("remi_ro", "romme")
TARGET_DEALS = 2_000
TARGET_WIN_RATE = 0.60
TARGET_P95_S = 1.0


def run_variant(variant: str, level: str, deals: int, logs: Path, seed: int) -> Standings:
    spec = TournamentSpec(variant, (f"expert-{level}", "greedy"), {}, seed)
    path = logs / f"{variant}-{level}.jsonl"
    done = load_log(path, spec)
    have = {o.index for o in done}
    standings = Standings(spec.labels())
    standings.extend(o for o in done if o.index < deals)
    with open_log(path, spec) as log:
        for index in range(deals):
            if index in have:
                continue
            outcome = play_duplicate(spec, index)
            standings.add(outcome)
            log.write(json.dumps(outcome.to_json()) + "\n")
            log.flush()
            if (index + 1) % 50 == 0:
                print(
                    f"  {variant}: {index + 1}/{deals} deals",
                    file=sys.stderr,
                    flush=True,
                )
    return standings


def decision_times(level: str, positions: int, seed: int) -> list[float]:
    """Seconds per expert decision with more than one legal action, in expert-vs-greedy
    deals (the positions the expert meets, board play included), one core."""
    rng = random.Random(seed)
    times: list[float] = []
    game_seed = seed
    while len(times) < positions:
        variant = VARIANTS[game_seed % len(VARIANTS)]
        game = Game(variant, 2, seed=game_seed)
        expert_seat = game_seed // len(VARIANTS) % 2
        game_seed += 1
        bots: list[Bot] = [GreedyBot(), GreedyBot()]
        bots[expert_seat] = make_bot("expert", level=level)
        while game.phase is not Phase.DEAL_END and not game.is_over and len(times) < positions:
            seat = game.to_move
            legal = game.legal_actions()
            seen = view(game, seat)
            timed = seat == expert_seat and game.phase in (Phase.TURNS, Phase.ROUND1)
            start = time.perf_counter()
            action = bots[seat].choose(seen, legal, rng)
            if timed and len(legal) > 1:
                times.append(time.perf_counter() - start)
            game.apply(action)
    return times


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=TARGET_DEALS, help="duplicate deals")
    parser.add_argument("--level", default="medium", help="expert level played (easy/medium/hard)")
    parser.add_argument("--logs", type=Path, default=Path("strength-logs"), help="log folder")
    parser.add_argument("--seed", type=int, default=0, help="deal i uses seed SEED+i")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma list")
    parser.add_argument("--time-level", default="hard", help="level whose decisions are timed")
    parser.add_argument("--positions", type=int, default=300, help="decisions timed")
    parser.add_argument("--quick", action="store_true", help="10 deals, 20 decisions")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.positions = 10, 20
    args.logs.mkdir(parents=True, exist_ok=True)
    print(
        f"rummykit strength — expert-{args.level} vs greedy, 2 seats; Python "
        f"{platform.python_version()} on {platform.machine()}, one process"
    )
    print()
    print(
        "| variant | deals | expert deals won | mean score diff (95% CI) | ordinal expert / greedy "
        "| targets |"
    )
    print("|---|---|---|---|---|---|")
    for variant in args.variants.split(","):
        standings = run_variant(variant, args.level, args.deals, args.logs, args.seed)
        expert, greedy = standings.table()
        n = len(standings.outcomes)
        ok = expert.ci95[0] > 0 and expert.win_rate >= TARGET_WIN_RATE and n >= TARGET_DEALS
        print(
            f"| {variant} | {n} | {expert.deals_won:g} ({100 * expert.win_rate:.1f}%) | "
            f"{expert.mean_diff:+.2f} ({expert.ci95[0]:+.2f} … {expert.ci95[1]:+.2f}) | "
            f"{expert.ordinal:.2f} / {greedy.ordinal:.2f} | {'met' if ok else 'not met'} |",
            flush=True,
        )
    times = decision_times(args.time_level, args.positions, args.seed)
    print()
    print("| decision time | value | target |")
    print("|---|---|---|")
    print(f"| expert-{args.time_level} decisions timed | {len(times)} | |")
    print(f"| median (s) | {_pct(times, 0.5):.4f} | |")
    p95 = _pct(times, 0.95)
    verdict = "met" if p95 <= TARGET_P95_S else "not met"
    print(f"| p95 (s) | {p95:.4f} | ≤ {TARGET_P95_S:g} ({verdict}) |")
    print(f"| max (s) | {max(times):.4f} | |")


if __name__ == "__main__":
    main()
