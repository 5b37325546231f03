"""Duplicate-deal tournaments between bots, with ratings.

A *duplicate deal* is one shuffled wall or deck played once per seat rotation:
with ``n`` seats, every bot of the line-up sits in every seat against the same
cards, so the luck of the deal cancels out.  One duplicate deal yields, per bot,
its deal scores summed over the rotations (higher is better; variants where the
lowest total wins are negated).  The bot with the best sum wins the deal.

Deals are independent: :func:`play_duplicate` is a pure function of its
arguments, so they run in worker processes (or on Ray) and a run can be resumed
from its JSON-lines log.  :class:`Standings` folds deals into the figures the
tournament reports: deals won, mean score difference with a 95 % confidence
interval, and an OpenSkill rating.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummykit.bots import make_bot, play_to_end
from rummykit.engine.game import Game

__all__ = [
    "LADDER",
    "DealOutcome",
    "Ladder",
    "Standings",
    "TournamentSpec",
    "ladder_pairs",
    "load_log",
    "play_duplicate",
    "run_deals",
    "write_ladder_chart",
]

LADDER = ("random", "greedy", "easy", "medium", "hard")
"""The bots a ladder rates by default, weakest first."""

MAX_ACTIONS_PER_DEAL = 5_000
"""A bot game that runs past this is stopped and the rotation scores zero for all."""


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """What every deal of a tournament shares."""

    variant: str
    bots: tuple[str, ...]
    """One bot name per seat (make_bot names)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    """Deal ``i`` uses seed ``seed + i``: results do not depend on the job count."""

    def labels(self) -> list[str]:
        """Distinct labels for the line-up (a repeated bot gets ``#2``, ``#3``, ...)."""
        out: list[str] = []
        for name in self.bots:
            label, k = name, 2
            while label in out:
                label, k = f"{name}#{k}", k + 1
            out.append(label)
        return out


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """One duplicate deal: per label, its deal score in each seat rotation."""

    index: int
    seed: int
    scores: dict[str, list[int]]

    def totals(self) -> dict[str, int]:
        """Per label, the sum over the rotations."""
        return {label: sum(v) for label, v in self.scores.items()}

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (one line of the log)."""
        return {"deal": self.index, "seed": self.seed, "scores": self.scores}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DealOutcome:
        """The inverse of :meth:`to_json`."""
        scores = {str(k): [int(x) for x in v] for k, v in data["scores"].items()}
        return cls(int(data["deal"]), int(data["seed"]), scores)


def play_duplicate(spec: TournamentSpec, index: int) -> DealOutcome:
    """Play deal ``index`` of ``spec`` once per seat rotation and return the scores."""
    seed = spec.seed + index
    labels = spec.labels()
    n = len(spec.bots)
    scores: dict[str, list[int]] = {label: [] for label in labels}
    for rotation in range(n):
        # Same seed, same maker: the same wall or deck in every rotation.
        game = Game(spec.variant, n, dict(spec.options), seed=seed, maker=0)
        seat_of = {(s + rotation) % n: s for s in range(n)}
        bots = [make_bot(spec.bots[seat_of[seat]]) for seat in range(n)]
        play_to_end(
            game,
            bots,
            random.Random(seed * 31 + rotation),
            stop_at_deal_end=True,
            max_actions=MAX_ACTIONS_PER_DEAL,
        )
        sign = -1 if game.play.match_winner == "lowest" else 1
        result = game.results[0].scores if game.results else (0,) * n
        for seat in range(n):
            scores[labels[seat_of[seat]]].append(sign * result[seat])
    return DealOutcome(index, seed, scores)


def _play_many(spec: TournamentSpec, indices: Sequence[int]) -> list[DealOutcome]:
    return [play_duplicate(spec, i) for i in indices]


def run_deals(
    spec: TournamentSpec,
    indices: Sequence[int],
    *,
    jobs: int = 1,
    backend: str = "local",
    on_deal: Callable[[DealOutcome], None] | None = None,
) -> list[DealOutcome]:
    """Play the deals ``indices`` of ``spec``: in this process (``jobs == 1``), in
    ``jobs`` worker processes, or as Ray tasks (``backend == "ray"``; Ray must be
    installed and is initialised locally unless already connected)."""
    out: list[DealOutcome] = []

    def done(outcome: DealOutcome) -> None:
        out.append(outcome)
        if on_deal is not None:
            on_deal(outcome)

    if backend == "ray":
        for outcome in _run_ray(spec, indices, jobs):
            done(outcome)
    elif backend != "local":
        raise ValueError(f"unknown backend {backend!r}; choose local or ray")
    elif jobs <= 1:
        for i in indices:
            done(play_duplicate(spec, i))
    else:
        chunks = [list(indices[k : k + 4]) for k in range(0, len(indices), 4)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for batch in pool.map(_play_many, [spec] * len(chunks), chunks):
                for outcome in batch:
                    done(outcome)
    return sorted(out, key=lambda o: o.index)


def _run_ray(spec: TournamentSpec, indices: Sequence[int], jobs: int) -> Iterator[DealOutcome]:
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError as exc:
        raise RuntimeError(
            "the ray backend needs the 'ray' extra: pip install 'rummykit[ray]'"
        ) from exc
    if not ray.is_initialized():
        ray.init(num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False)
    remote = ray.remote(_play_many)
    chunks = [list(indices[k : k + 4]) for k in range(0, len(indices), 4)]
    pending = [remote.remote(spec, chunk) for chunk in chunks]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for batch in ray.get(ready):
            yield from batch


def load_log(path: Path, spec: TournamentSpec) -> list[DealOutcome]:
    """The deals already in the JSON-lines log ``path`` (empty if it does not exist).

    The first line records the spec; a log written for another tournament is an
    error rather than silently mixed in.
    """
    if not path.exists():
        return []
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not lines:
        return []
    head = json.loads(lines[0])
    if head.get("spec") != spec_json(spec):
        raise ValueError(f"{path} is the log of another tournament: {head.get('spec')}")
    outcomes: list[DealOutcome] = []
    for line in lines[1:]:
        try:
            outcomes.append(DealOutcome.from_json(json.loads(line)))
        except (ValueError, KeyError):
            # A line cut short by an interrupted run: that deal is played again.
            continue
    return outcomes


def spec_json(spec: TournamentSpec) -> dict[str, Any]:
    """The spec as the log's first line records it."""
    return {
        "variant": spec.variant,
        "bots": list(spec.bots),
        "options": dict(spec.options),
        "seed": spec.seed,
    }


def open_log(path: Path, spec: TournamentSpec) -> Any:
    """Open ``path`` for appending deals, writing the spec line first if it is new."""
    fresh = not path.exists() or not path.read_text(encoding="utf-8").strip()
    handle = path.open("a", encoding="utf-8")
    if fresh:
        handle.write(json.dumps({"spec": spec_json(spec)}) + "\n")
        handle.flush()
    return handle


# ---------------------------------------------------------------------- standings


@dataclass(frozen=True, slots=True)
class BotStanding:
    """One bot's line of the table."""

    label: str
    deals_won: float
    win_rate: float
    mean_diff: float
    """Mean over deals of this bot's summed score minus the mean of the others'."""
    ci95: tuple[float, float]
    rating_mu: float
    rating_sigma: float
    ordinal: float


@dataclass(slots=True)
class Standings:
    """Deals folded into the tournament's figures."""

    labels: list[str]
    outcomes: list[DealOutcome] = field(default_factory=list)

    def add(self, outcome: DealOutcome) -> None:
        """Fold one deal in."""
        self.outcomes.append(outcome)

    def extend(self, outcomes: Iterable[DealOutcome]) -> None:
        """Fold many deals in."""
        self.outcomes.extend(outcomes)

    def table(self) -> list[BotStanding]:
        """Per bot: deals won (ties shared), mean score difference with a 95 % interval
        (normal approximation, t-free: deals are many), and an OpenSkill rating
        (Plackett-Luce, deals in index order, ranked by summed score)."""
        from openskill.models import PlackettLuce

        ordered = sorted(self.outcomes, key=lambda o: o.index)
        n = len(ordered)
        won = dict.fromkeys(self.labels, 0.0)
        diffs: dict[str, list[float]] = {label: [] for label in self.labels}
        model = PlackettLuce()
        ratings = {label: model.rating(name=label) for label in self.labels}
        for outcome in ordered:
            totals = outcome.totals()
            best = max(totals.values())
            winners = [label for label, v in totals.items() if v == best]
            for label in winners:
                won[label] += 1 / len(winners)
            for label in self.labels:
                others = [v for k, v in totals.items() if k != label]
                diffs[label].append(totals[label] - sum(others) / len(others))
            teams = [[ratings[label]] for label in self.labels]
            # OpenSkill ranks: lower is better; equal sums tie.
            order = sorted({-totals[label] for label in self.labels})
            ranks = [float(order.index(-totals[label])) for label in self.labels]
            rated = model.rate(teams, ranks=ranks)
            for label, team in zip(self.labels, rated, strict=True):
                ratings[label] = team[0]
        out = []
        for label in self.labels:
            mean, half = _mean_ci(diffs[label])
            r = ratings[label]
            out.append(
                BotStanding(
                    label,
                    won[label],
                    won[label] / n if n else 0.0,
                    mean,
                    (mean - half, mean + half),
                    float(r.mu),
                    float(r.sigma),
                    float(r.ordinal()),
                )
            )
        return out

    def to_json(self) -> dict[str, Any]:
        """The table as JSON."""
        return {
            "deals": len(self.outcomes),
            "bots": [
                {
                    "bot": s.label,
                    "deals_won": s.deals_won,
                    "win_rate": round(s.win_rate, 4),
                    "mean_score_diff": round(s.mean_diff, 3),
                    "ci95": [round(s.ci95[0], 3), round(s.ci95[1], 3)],
                    "rating": {
                        "mu": round(s.rating_mu, 3),
                        "sigma": round(s.rating_sigma, 3),
                        "ordinal": round(s.ordinal, 3),
                    },
                }
                for s in self.table()
            ],
        }


def _mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % normal confidence interval."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.959964 * math.sqrt(var / n)


def write_chart(standings: Standings, path: Path, title: str) -> None:
    """A PNG: mean score difference with its 95 % interval, and the deal win rate."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = standings.table()
    labels = [r.label for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    means = [r.mean_diff for r in rows]
    errors = [0.0 if math.isinf(r.ci95[1]) else r.ci95[1] - r.mean_diff for r in rows]
    left.bar(labels, means, yerr=errors, capsize=6, color="#4c72b0")
    left.axhline(0, color="black", linewidth=0.8)
    left.set_title("mean score difference per deal (95% CI)")
    right.bar(labels, [100 * r.win_rate for r in rows], color="#55a868")
    right.axhline(100 / max(len(rows), 1), color="black", linewidth=0.8, linestyle="--")
    right.set_ylim(0, 100)
    right.set_title("deals won (%)")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ---------------------------------------------------------------------- ladder


def ladder_pairs(bots: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of ``bots`` once, in order (a round robin of 2-seat matches)."""
    return [(a, b) for i, a in enumerate(bots) for b in bots[i + 1 :]]


@dataclass(slots=True)
class Ladder:
    """A round robin of 2-seat duplicate matches rated together: every pair of bots
    plays the same deals, and one OpenSkill model (Plackett-Luce) rates every bot from
    all of them, pair by pair in the order of :func:`ladder_pairs`, deals in index order."""

    bots: list[str]
    matches: dict[tuple[str, str], Standings] = field(default_factory=dict)

    def add(self, pair: tuple[str, str], outcome: DealOutcome) -> None:
        """Fold one deal of the match ``pair`` in."""
        if pair not in self.matches:
            self.matches[pair] = Standings(list(pair))
        self.matches[pair].add(outcome)

    def ratings(self) -> dict[str, tuple[float, float, float]]:
        """Per bot: (mu, sigma, ordinal), strongest first."""
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        rating = {bot: model.rating(name=bot) for bot in self.bots}
        for pair in ladder_pairs(self.bots):
            standings = self.matches.get(pair)
            if standings is None:
                continue
            for outcome in sorted(standings.outcomes, key=lambda o: o.index):
                totals = outcome.totals()
                a, b = pair
                if totals[a] == totals[b]:
                    ranks = [0.0, 0.0]
                else:
                    ranks = [0.0, 1.0] if totals[a] > totals[b] else [1.0, 0.0]
                rated = model.rate([[rating[a]], [rating[b]]], ranks=ranks)
                rating[a], rating[b] = rated[0][0], rated[1][0]
        table = {
            bot: (float(r.mu), float(r.sigma), float(r.ordinal())) for bot, r in rating.items()
        }
        return dict(sorted(table.items(), key=lambda kv: -kv[1][2]))

    def to_json(self) -> dict[str, Any]:
        """Ratings and every match's table, as JSON."""
        return {
            "ratings": [
                {"bot": bot, "mu": round(mu, 3), "sigma": round(sigma, 3), "ordinal": round(o, 3)}
                for bot, (mu, sigma, o) in self.ratings().items()
            ],
            "matches": [
                {"pair": list(pair), **self.matches[pair].to_json()}
                for pair in ladder_pairs(self.bots)
                if pair in self.matches
            ],
        }


def write_ladder_chart(ladder: Ladder, path: Path, title: str) -> None:
    """A PNG: each bot's OpenSkill ordinal, with mu ± sigma drawn around mu."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(ladder.ratings().items())[::-1]
    names = [bot for bot, _ in rows]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.5))
    ax.barh(names, [o for _, (_, _, o) in rows], color="#4c72b0", label="ordinal (mu - 3 sigma)")
    ax.errorbar(
        [mu for _, (mu, _, _) in rows],
        names,
        xerr=[sigma for _, (_, sigma, _) in rows],
        fmt="o",
        color="black",
        capsize=4,
        label="mu ± sigma",
    )
    ax.set_xlabel("OpenSkill rating (Plackett-Luce)")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
