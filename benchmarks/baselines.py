"""RL baselines: train the CleanRL-style PPO recipe, then rate it in the tournament.

    python benchmarks/baselines.py train remi_ro --minutes 13 --seed 1
    python benchmarks/baselines.py tournament remi_ro --deals 1000 --against random greedy medium

``train`` runs ``examples/cleanrl_ppo.py`` (2 seats, against ``random`` bots,
``action_space="features"``, ``public_memory=False`` so that the policy needs nothing
but a seat's view) for a wall-time budget and writes, under ``docs/baselines/``:
``<variant>.pt`` (the network's weights and its arguments), ``<variant>_curve.json``
(steps, episode return per training episode) and ``<variant>_curve.png`` (the learning
curve).  ``tournament`` loads the weights, registers the policy as the bot ``ppo``
(:class:`rummykit.rl.policy_bot.PolicyBot`, sampling from its softmax with a fixed
seed) and plays :mod:`rummykit.bots.tournament` duplicate deals against each
opponent, printing deals won and the mean score difference with its 95 % interval.
Needs the ``learn`` extra (torch) and matplotlib for the PNG.

The tournament's inference rules: the bot samples its softmax with the deal's own
``random.Random`` (a deal's result does not depend on ``--jobs``) and stops offering
``reset`` after ``--max-resets`` resets in a turn (default 2).  BLAS runs on one
thread: a one-state forward pass is far too small to share, and on a loaded machine
OpenBLAS's spinning threads made it 100x slower.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy and torch load their BLAS

import numpy as np  # noqa: E402
import torch  # noqa: E402
from rich.progress import Progress  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
import cleanrl_ppo  # noqa: E402  (examples/cleanrl_ppo.py)

import rummykit.bots.base as play_turn_module  # noqa: E402
from rummykit import bots, rl  # noqa: E402
from rummykit.bots.tournament import (  # noqa: E402
    DealOutcome,
    Standings,
    TournamentSpec,
    load_log,
    open_log,
    play_duplicate,
    run_deals,
)
from rummykit.engine import seat_legal_actions, view  # noqa: E402
from rummykit.engine.actions import ResetTurn  # noqa: E402
from rummykit.rl.policy_bot import PolicyBot  # noqa: E402
from rummykit.rules import find_variant  # noqa: E402

OUT = ROOT / "docs" / "baselines"


def train(variant: str, minutes: float, seed: int) -> None:
    args = cleanrl_ppo.Args(
        variant=variant,
        players=2,
        seed=seed,
        total_timesteps=10_000_000,
        minutes=minutes,
        public_memory=False,
        eval_deals=0,
    )
    curve: list[tuple[int, float]] = []
    start = time.perf_counter()
    agent, figures = cleanrl_ppo.train(args, lambda steps, ret: curve.append((steps, ret)))
    wall = time.perf_counter() - start
    OUT.mkdir(parents=True, exist_ok=True)
    torch.save({"args": asdict(args), "state_dict": agent.state_dict()}, OUT / f"{variant}.pt")
    record = {
        "variant": variant,
        "seed": seed,
        "minutes": minutes,
        "wall_seconds": round(wall, 1),
        "steps": figures["steps"],
        "episodes": len(curve),
        "curve": curve,
    }
    (OUT / f"{variant}_curve.json").write_text(json.dumps(record))
    plot(variant, curve)
    print(
        f"{variant}: {figures['steps']:.0f} steps, {len(curve)} episodes in {wall:.0f} s wall; "
        f"weights in {OUT / (variant + '.pt')}"
    )


def plot(variant: str, curve: list[tuple[int, float]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([s for s, _ in curve])
    returns = np.array([r for _, r in curve]) * 100  # back to game points (scale 0.01)
    window = max(1, min(200, len(returns) // 10))
    smooth = np.convolve(returns, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps, returns, ".", markersize=2, alpha=0.25, label="episode")
    ax.plot(steps[window - 1 :], smooth, label=f"mean of {window} episodes")
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("deal reward (relative, game points)")
    ax.set_title(f"PPO on {variant} (2 seats) vs random")
    ax.legend()
    fig.tight_layout()
    fig.savefig(OUT / f"{variant}_curve.png", dpi=80)
    plt.close(fig)


DEFAULT_MAX_RESETS = 2
"""The tournament's cap on ``reset`` per turn (PolicyBot ``max_resets_per_turn``)."""


def load_policy(variant: str, max_resets: int | None = DEFAULT_MAX_RESETS) -> PolicyBot:
    saved = torch.load(OUT / f"{variant}.pt", weights_only=True)
    known = {f.name for f in fields(cleanrl_ppo.Args)}
    args = cleanrl_ppo.Args(**{k: v for k, v in saved["args"].items() if k in known})
    env = cleanrl_ppo.make_env(args)
    features = env.features
    assert features is not None
    obs_size = env.observation_space["observation"].shape[0]  # type: ignore[index]
    agent = cleanrl_ppo.Agent(obs_size, features.size, args.hidden)
    agent.load_state_dict(saved["state_dict"])
    agent.eval()
    # Inference in NumPy (the same weights and arithmetic as Agent.act): torch's per-call
    # overhead dominates a one-state forward pass.
    w = {k: v.numpy().astype(np.float64) for k, v in agent.state_dict().items()}

    def scores(observation: np.ndarray, rows: np.ndarray) -> np.ndarray:
        state = np.tanh(
            w["state.2.weight"] @ np.tanh(w["state.0.weight"] @ observation + w["state.0.bias"])
            + w["state.2.bias"]
        )
        row = np.tanh(rows @ w["row.0.weight"].T + w["row.0.bias"])
        joined = np.concatenate([np.broadcast_to(state, (len(rows), len(state))), row], axis=1)
        hidden = np.tanh(joined @ w["score.0.weight"].T + w["score.0.bias"])
        logits: np.ndarray = hidden @ w["score.2.weight"][0] + w["score.2.bias"][0]
        return logits

    # Sampled, as in training (an argmax can loop on take/reset), with the deal's rng.
    return PolicyBot(
        name=f"ppo-{variant}",
        max_rows=args.max_legal_actions,
        scores=scores,
        max_resets_per_turn=max_resets,
    )


def log_path(variant: str, opponent: str) -> Path:
    return OUT / f"{variant}_vs_{opponent}.jsonl"


def spec_for(variant: str, opponent: str, seed: int) -> TournamentSpec:
    options: dict[str, Any] = rl.episode_options(find_variant(variant), {})
    return TournamentSpec(variant, ("ppo", opponent), options, seed=seed)


def tournament(
    variant: str, deals: int, against: list[str], seed: int, jobs: int, max_resets: int | None
) -> None:
    """Play the deals missing from each opponent's log (resumable, like the CLI's --log)."""
    torch.set_num_threads(1)
    bot = load_policy(variant, max_resets)
    bots.register_bot("ppo", lambda: bot)
    for opponent in against:
        spec = spec_for(variant, opponent, seed)
        path = log_path(variant, opponent)
        done = {o.index for o in load_log(path, spec)}
        todo = [i for i in range(deals) if i not in done]
        with open_log(path, spec) as handle, Progress(transient=True) as progress:
            task = progress.add_task(f"{variant}: ppo vs {opponent}", total=len(todo))

            def write(outcome: DealOutcome, handle: Any = handle, task: Any = task) -> None:
                handle.write(json.dumps(outcome.to_json()) + "\n")
                handle.flush()
                progress.advance(task)

            start = time.perf_counter()
            run_deals(spec, todo, jobs=jobs, on_deal=write)
            wall = time.perf_counter() - start
        print(
            f"{variant} vs {opponent}: {len(todo)} deals in {wall:.0f} s wall "
            f"(jobs {jobs}, load average {os.getloadavg()[0]:.1f} at the end)"
        )
    report(variant, against, seed)


def report(variant: str, against: list[str], seed: int) -> None:
    """Deals won and the mean score difference (95 % interval) from the logs."""
    for opponent in against:
        spec = spec_for(variant, opponent, seed)
        outcomes = load_log(log_path(variant, opponent), spec)
        if not outcomes:
            print(f"| {variant} | {opponent} | 0 | – | – | – |")
            continue
        standings = Standings(list(spec.labels()))
        standings.extend(outcomes)
        for r in standings.table():
            if r.label == "ppo":
                low, high = r.ci95
                print(
                    f"| {variant} | {opponent} | {len(outcomes)} | {r.deals_won:g} "
                    f"| {r.mean_diff:+.1f} | [{low:+.1f}, {high:+.1f}] |"
                )


def profile(
    variant: str, deals: int, against: list[str], seed: int, max_resets: int | None
) -> None:
    """Where a duplicate deal's time goes: the policy (its inputs, its network), the
    opponent bot, the engine (view and legal actions, apply).  Deals ``seed`` onwards,
    in this process, outside the tournament's logs."""
    torch.set_num_threads(1)
    bot = load_policy(variant, max_resets)
    bots.register_bot("ppo", lambda: bot)
    spent: dict[str, float] = {}
    counts: dict[str, int] = {}

    def timed(key: str, fn: Any) -> Any:
        def run(*a: Any) -> Any:
            t = time.perf_counter()
            out = fn(*a)
            spent[key] = spent.get(key, 0.0) + time.perf_counter() - t
            return out

        return run

    bot.inputs = timed("policy inputs", bot.inputs)  # type: ignore[method-assign]
    bot.scores = timed("policy network + sampling", bot.scores)
    original = play_turn_module.play_turn

    def play_turn(game: Any, player: Any, rng: Any) -> Any:
        seat = game.to_move
        t0 = time.perf_counter()
        v, legal = view(game, seat), seat_legal_actions(game, seat)
        t1 = time.perf_counter()
        action = player.choose(v, legal, rng)
        t2 = time.perf_counter()
        game.apply(action)
        t3 = time.perf_counter()
        who = "policy" if player is bot else "opponent"
        spent["engine"] = spent.get("engine", 0.0) + (t1 - t0) + (t3 - t2)
        spent[f"{who} choose"] = spent.get(f"{who} choose", 0.0) + t2 - t1
        counts[f"{who} actions"] = counts.get(f"{who} actions", 0) + 1
        if who == "policy" and isinstance(action, ResetTurn):
            counts["policy resets"] = counts.get("policy resets", 0) + 1
        return action

    play_turn_module.play_turn = play_turn
    try:
        for opponent in against:
            spent.clear()
            counts.clear()
            spec = spec_for(variant, opponent, 0)
            start = time.perf_counter()
            for i in range(seed, seed + deals):
                play_duplicate(spec, i)
            wall = time.perf_counter() - start
            policy_own = spent.get("policy choose", 0.0)
            split = {
                "policy inputs": spent.get("policy inputs", 0.0),
                "policy network + sampling": spent.get("policy network + sampling", 0.0),
                "opponent": spent.get("opponent choose", 0.0),
                "engine": spent.get("engine", 0.0),
            }
            split["policy other"] = (
                policy_own - split["policy inputs"] - split["policy network + sampling"]
            )
            parts = ", ".join(f"{k} {100 * v / wall:.0f} %" for k, v in split.items())
            per = {k: round(v / deals) for k, v in counts.items()}
            print(
                f"{variant} vs {opponent}: {wall / deals:.2f} s per duplicate deal "
                f"({deals} deals, load average {os.getloadavg()[0]:.1f}): {parts}; "
                f"per deal {per}"
            )
    finally:
        play_turn_module.play_turn = original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train and write weights, curve and PNG")
    t.add_argument("variant")
    t.add_argument("--minutes", type=float, default=13.0, help="wall-time budget")
    t.add_argument("--seed", type=int, default=1)
    m = sub.add_parser("tournament", help="duplicate deals against bots")
    m.add_argument("variant")
    m.add_argument("--deals", type=int, default=1000)
    m.add_argument("--against", nargs="+", default=["random", "greedy", "medium"])
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--jobs", type=int, default=1, help="worker processes (deals in parallel)")
    m.add_argument(
        "--max-resets",
        type=int,
        default=DEFAULT_MAX_RESETS,
        help="resets a turn before reset is no longer offered (-1: no limit)",
    )
    pr = sub.add_parser("profile", help="where a duplicate deal's time goes (no log)")
    pr.add_argument("variant")
    pr.add_argument("--deals", type=int, default=5)
    pr.add_argument("--against", nargs="+", default=["random", "greedy", "medium"])
    pr.add_argument("--seed", type=int, default=0, help="the first deal")
    pr.add_argument("--max-resets", type=int, default=DEFAULT_MAX_RESETS, help="-1: no limit")
    r = sub.add_parser("report", help="the standings so far, from the logs")
    r.add_argument("variant")
    r.add_argument("--against", nargs="+", default=["random", "greedy", "medium"])
    r.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.command == "train":
        train(args.variant, args.minutes, args.seed)
    elif args.command == "tournament":
        cap = None if args.max_resets < 0 else args.max_resets
        tournament(args.variant, args.deals, args.against, args.seed, args.jobs, cap)
    elif args.command == "profile":
        cap = None if args.max_resets < 0 else args.max_resets
        profile(args.variant, args.deals, args.against, args.seed, cap)
    else:
        report(args.variant, args.against, args.seed)


if __name__ == "__main__":
    main()
