"""Bot-versus-bot simulation: many games, optionally in parallel, with a summary."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummykit.bots import make_bot, play_to_end
from rummykit.engine.game import Game
from rummykit.engine.record import save_record

__all__ = ["GameSummary", "SimulationSummary", "run_simulation", "simulate_one"]


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What one simulated game (a match) produced."""

    index: int
    seed: int
    totals: tuple[int, ...]
    deal_scores: tuple[tuple[int, ...], ...]
    turns_per_deal: tuple[int, ...]
    actions: int
    ends: tuple[str, ...]
    winners: tuple[int, ...] = ()
    """Seats with the best total (the variant says whether highest or lowest is best)."""


@dataclass(slots=True)
class SimulationSummary:
    """Totals over many games."""

    players: int
    bots: tuple[str, ...]
    games: int = 0
    wins: list[float] = field(default_factory=list)
    deal_score_sum: list[int] = field(default_factory=list)
    deals: int = 0
    turns: int = 0
    actions: int = 0
    ends: dict[str, int] = field(default_factory=dict)

    def add(self, game: GameSummary) -> None:
        """Fold one game in (ties share the win)."""
        if not self.wins:
            self.wins = [0.0] * self.players
            self.deal_score_sum = [0] * self.players
        self.games += 1
        best = max(game.totals)
        winners = game.winners or tuple(s for s, t in enumerate(game.totals) if t == best)
        for s in winners:
            self.wins[s] += 1 / len(winners)
        for scores in game.deal_scores:
            for s, v in enumerate(scores):
                self.deal_score_sum[s] += v
        self.deals += len(game.deal_scores)
        self.turns += sum(game.turns_per_deal)
        self.actions += game.actions
        for end in game.ends:
            self.ends[end] = self.ends.get(end, 0) + 1

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary."""
        deals = max(self.deals, 1)
        wins = self.wins or [0.0] * self.players
        scores = self.deal_score_sum or [0] * self.players
        return {
            "games": self.games,
            "deals": self.deals,
            "players": self.players,
            "bots": list(self.bots),
            "wins": wins,
            "mean_deal_score": [round(v / deals, 2) for v in scores],
            "turns_per_deal": round(self.turns / deals, 2),
            "actions": self.actions,
            "deal_ends": self.ends,
        }


def simulate_one(
    variant: str,
    players: int,
    options: dict[str, Any],
    bots: Sequence[str],
    seed: int,
    index: int,
    save_dir: str | None,
) -> GameSummary:
    """Play one game with bots (seat s plays ``bots[s]``); deterministic in ``seed``."""
    game = Game(variant, players, options, seed=seed)
    players_bots = [make_bot(b) for b in bots]
    actions = play_to_end(game, players_bots, random.Random(seed))
    turns: list[int] = []
    count = 0
    for _, action in game.log:
        if type(action).__name__ in ("Discard", "CloseBoard"):
            count += 1
        elif type(action).__name__ == "NextDeal":
            turns.append(count)
            count = 0
    turns.append(count)
    if save_dir is not None:
        seats = [{"seat": s, "name": bots[s], "bot": bots[s]} for s in range(players)]
        save_record(game, Path(save_dir) / f"game-{index:05d}.json", seats)
    return GameSummary(
        index=index,
        seed=seed,
        totals=tuple(game.totals),
        winners=tuple(game.winners()),
        deal_scores=tuple(r.scores for r in game.results),
        turns_per_deal=tuple(turns[: len(game.results)]),
        actions=actions,
        ends=tuple(r.end for r in game.results),
    )


def _run(
    args: tuple[str, int, dict[str, Any], tuple[str, ...], int, int, str | None],
) -> GameSummary:
    return simulate_one(*args)


def run_simulation(
    variant: str,
    players: int,
    options: dict[str, Any],
    bots: Sequence[str],
    games: int,
    seed: int,
    jobs: int,
    save_dir: str | None = None,
    progress: Callable[[GameSummary], None] | None = None,
) -> SimulationSummary:
    """Play ``games`` games (game i uses seed ``seed + i``) on ``jobs`` processes."""
    summary = SimulationSummary(players=players, bots=tuple(bots))
    tasks = [(variant, players, options, tuple(bots), seed + i, i, save_dir) for i in range(games)]
    results: Iterator[GameSummary]
    if jobs <= 1:
        results = map(_run, tasks)
        for result in results:
            summary.add(result)
            if progress is not None:
                progress(result)
        return summary
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(_run, tasks, chunksize=max(1, games // (jobs * 8))):
            summary.add(result)
            if progress is not None:
                progress(result)
    return summary
