"""rummykit beside OpenSpiel's gin_rummy: random playouts in interleaved rounds (issue 14 item 5).

    python benchmarks/peers.py                     # full run (about a minute and a half)
    python benchmarks/peers.py --quick             # a few seconds, for smoke tests
    python benchmarks/peers.py --variants continental,vienna --against /tmp/base/src

Every contestant (each rummykit variant at its default table size, the settings rows
of benchmarks/run.py, and OpenSpiel's C++ ``gin_rummy`` through pyspiel) plays single
random deals for a fixed slice of CPU time, one contestant after the other; that round
is repeated, so load on a shared machine falls on every contestant alike.  rummykit
deals are played by benchmarks/run.py's loop (one deal per game, ``one_deal`` options,
a uniformly random legal action from ``random.Random(seed)``); OpenSpiel's deals pick
a uniformly random legal action at player nodes and sample chance nodes by their
probabilities from the same kind of seeded ``random.Random``; only player actions are
counted.  The copy column times ``Game.copy()`` of benchmarks/copies.py's mid-deal
state against ``state.clone()`` of an OpenSpiel state 60 actions into its deal.

``--against SRC`` adds a row per variant played by a rummykit imported from another
source tree (say a checkout of the base commit) in a worker process that takes its
turn in the same rounds: a before/after comparison under the same load.

Progress goes to stderr, the table to stdout.  Speeds and copy times are the median
over the rounds (``--stat best`` for the best round instead).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent))
from copies import best_call_time, mid_deal  # benchmarks/copies.py
from run import EXTRA_ROWS, playout_counts  # benchmarks/run.py

OPENSPIEL = "OpenSpiel gin_rummy"
MID_DEAL_ACTIONS = 60
"""Actions (chance outcomes included) into OpenSpiel's deal before its state is cloned,
as benchmarks/copies.py plays 60 actions into a rummykit deal."""


# ------------------------------------------------------------------ OpenSpiel


def _openspiel_game() -> Any:
    import pyspiel  # type: ignore[import-not-found]  # the test extra installs it (open_spiel)

    return pyspiel.load_game("gin_rummy")


def _openspiel_step(state: Any, rng: random.Random) -> bool:
    """Apply one action to ``state``: a chance outcome by its probability, or a
    uniformly random legal action.  True if it was a player action."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        point = rng.random()
        action = outcomes[-1][0]  # where rounding leaves ``point`` >= 0 after the loop
        for outcome, probability in outcomes:
            point -= probability
            if point < 0:
                action = outcome
                break
        state.apply_action(action)
        return False
    legal = state.legal_actions()
    state.apply_action(legal[rng.randrange(len(legal))])
    return True


def openspiel_counts(game: Any, deals: int, first_seed: int) -> tuple[int, float]:
    """(player actions, CPU seconds) of random OpenSpiel deals from ``first_seed`` on."""
    actions = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + deals):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            actions += _openspiel_step(state, rng)
    return actions, time.process_time() - start


def openspiel_mid_deal(game: Any, seed: int = 3) -> Any:
    """An OpenSpiel gin_rummy state ``MID_DEAL_ACTIONS`` random actions into its deal."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(MID_DEAL_ACTIONS):
        if state.is_terminal():
            break
        _openspiel_step(state, rng)
    return state


# ------------------------------------------------------------------ contestants


@dataclass
class Contestant:
    """One row: how it plays a batch of deals and how it copies a mid-deal state."""

    label: str
    players: int
    play: Callable[[int, int], tuple[int, float]]
    """(deals, first seed) -> (player actions, CPU seconds)."""
    copy_seconds: Callable[[int], float]
    """copies -> seconds per copy (best of three)."""
    next_seed: int = 0
    speeds: list[float] = field(default_factory=list)
    copies: list[float] = field(default_factory=list)

    def play_for(self, seconds: float, *, record: bool = True) -> None:
        """Play whole deals until ``seconds`` of CPU time are spent; record the speed."""
        actions, spent = 0, 0.0
        while spent < seconds:
            a, s = self.play(1, self.next_seed)
            self.next_seed += 1
            actions += a
            spent += s
        if record:
            self.speeds.append(actions / spent)


def rummykit_contestant(label: str, variant: str, extra: dict[str, object]) -> Contestant:
    from rummykit.rules import find_variant

    players = find_variant(variant).default_players
    state = mid_deal(variant, players, extra)
    return Contestant(
        label=label,
        players=players,
        play=lambda deals, seed: playout_counts(variant, deals, players, seed, extra),
        copy_seconds=lambda copies: best_call_time(state.copy, copies),
    )


def openspiel_contestant() -> Contestant:
    game = _openspiel_game()
    state = openspiel_mid_deal(game)
    return Contestant(
        label=OPENSPIEL,
        players=game.num_players(),
        play=lambda deals, seed: openspiel_counts(game, deals, seed),
        copy_seconds=lambda copies: best_call_time(state.clone, copies),
    )


class Worker:
    """A rummykit from another source tree, in a process of its own (``--against``)."""

    def __init__(self, src: str) -> None:
        env = {**os.environ, "PYTHONPATH": src, "PYTHONIOENCODING": "utf-8"}
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        self.where = self.ask("where")

    def ask(self, *words: object) -> str:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(words) + "\n")  # row labels hold spaces ("remmi_de 8B")
        stdin.flush()
        answer = stdout.readline().strip()
        if not answer:
            raise RuntimeError(f"the --against worker stopped (exit {self.process.poll()})")
        return answer

    def contestant(self, row: str) -> Contestant:
        def play(deals: int, seed: int) -> tuple[int, float]:
            actions, seconds = self.ask("play", row, deals, seed).split()
            return int(actions), float(seconds)

        return Contestant(
            label=f"{row} (against)",
            players=int(self.ask("players", row)),
            play=play,
            copy_seconds=lambda copies: float(self.ask("copy", row, copies)),
        )

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def _settings() -> list[tuple[str, tuple[str, dict[str, object]]]]:
    """(row label, (variant, extra options)) of every rummykit row, as run.py lists them."""
    from rummykit.rules import all_variants

    rows: list[tuple[str, tuple[str, dict[str, object]]]] = [
        (v.name, (v.name, {})) for v in all_variants()
    ]
    return rows + list(EXTRA_ROWS.items())


def serve(stdin: TextIO, stdout: TextIO) -> None:
    """The ``--worker`` loop: one command a line, one answer a line."""
    import rummykit

    rows = dict(_settings())
    made: dict[str, Contestant] = {}
    for line in stdin:
        command, *args = json.loads(line)
        if command == "where":
            answer = str(Path(rummykit.__file__).resolve().parents[1])
        else:
            row = args[0]
            if row not in made:
                made[row] = rummykit_contestant(row, *rows[row])
            c = made[row]
            if command == "players":
                answer = str(c.players)
            elif command == "play":
                actions, seconds = c.play(int(args[1]), int(args[2]))
                answer = f"{actions} {seconds!r}"
            else:
                answer = repr(c.copy_seconds(int(args[1])))
        stdout.write(answer + "\n")
        stdout.flush()


# ------------------------------------------------------------------ the run


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog=__doc__.split("\n\n", 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true", help="a few seconds, for smoke tests")
    parser.add_argument("--rounds", type=int, help="rounds (default 5; --quick 2)")
    parser.add_argument(
        "--slice", type=float, help="CPU seconds per contestant per round (default 1; --quick 0.05)"
    )
    parser.add_argument(
        "--copies", type=int, help="copies timed per contestant per round (default 5,000)"
    )
    parser.add_argument(
        "--variants", help="comma-separated rummykit rows (default: every variant and setting)"
    )
    parser.add_argument(
        "--stat",
        choices=("median", "best"),
        default="median",
        help="the round each row reports (default median)",
    )
    parser.add_argument(
        "--against",
        metavar="SRC",
        help="also time a rummykit imported from SRC (a checkout's src/) in a worker process",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        serve(sys.stdin, sys.stdout)
        return
    rounds = args.rounds or (2 if args.quick else 5)
    seconds = args.slice or (0.05 if args.quick else 1.0)
    copies = args.copies or (200 if args.quick else 5_000)
    if rounds < 1 or seconds <= 0 or copies < 1:
        parser.error("--rounds, --slice and --copies must be positive")
    settings = _settings()
    if args.variants:
        wanted = args.variants.split(",")
        unknown = sorted(set(wanted) - {row for row, _ in settings})
        if unknown:
            parser.error(
                f"unknown --variants {', '.join(unknown)}; known: "
                f"{', '.join(row for row, _ in settings)}"
            )
        settings = [s for s in settings if s[0] in wanted]

    worker = Worker(args.against) if args.against else None
    contestants: list[Contestant] = []
    for row, (variant, extra) in settings:
        contestants.append(rummykit_contestant(row, variant, extra))
        if worker is not None:
            contestants.append(worker.contestant(row))
    contestants.append(openspiel_contestant())
    # The best round is the fastest: the most actions/s, the fewest µs per copy.
    speed_of: Callable[[list[float]], float] = statistics.median if args.stat == "median" else max
    copy_of: Callable[[list[float]], float] = statistics.median if args.stat == "median" else min

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"rummykit beside OpenSpiel — Python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} CPUs, load average {load:.2f}; {rounds} rounds of {seconds:g} s "
        f"per contestant, {args.stat} round"
    )
    if worker is not None:
        print(f"(against) rows: rummykit from {worker.where}")
    for c in contestants:  # warm-up on other seeds (caches, imports), not recorded
        _progress(f"warm-up: {c.label}")
        c.next_seed = 1_000_000
        c.play_for(seconds / 2, record=False)
        c.next_seed = 0
    for r in range(rounds):
        for c in contestants:
            _progress(f"round {r + 1}/{rounds}: {c.label}")
            c.play_for(seconds)
            c.copies.append(c.copy_seconds(copies) * 1e6)
    if worker is not None:
        worker.close()

    peer = contestants[-1]
    peer_speed, peer_copy = speed_of(peer.speeds), copy_of(peer.copies)
    print()
    print(
        f"| {'variant':<22} | {'players':>7} | {'player actions/s':>16} | {'× OpenSpiel':>11} "
        f"| {'copy µs':>7} | {'× clone':>7} |"
    )
    print(f"|{'-' * 24}|{'-' * 9}|{'-' * 18}|{'-' * 13}|{'-' * 9}|{'-' * 9}|")
    for c in contestants:
        speed, copy = speed_of(c.speeds), copy_of(c.copies)
        print(
            f"| {c.label:<22} | {c.players:>7} | {speed:>16,.0f} | {speed / peer_speed:>11.2f} "
            f"| {copy:>7.1f} | {copy / peer_copy:>7.2f} |"
        )
    print()
    print(
        f"player actions/s: {args.stat} of {rounds} rounds; × OpenSpiel: ÷ {OPENSPIEL}'s "
        f"{peer_speed:,.0f}; copy µs: Game.copy() mid-deal (OpenSpiel: state.clone(), "
        f"{peer_copy:.1f} µs)"
    )


if __name__ == "__main__":
    main()
