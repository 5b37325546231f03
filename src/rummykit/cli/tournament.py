"""`rummykit tournament`: duplicate deals between bots, a table and a chart."""

from __future__ import annotations

import importlib.util
import json
import math
from collections.abc import Callable
from pathlib import Path

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from rummykit.bots import bot_names, is_bot_name
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
    write_chart,
    write_ladder_chart,
)
from rummykit.rules.options import OptionError

__all__ = ["tournament"]


@click.command()
@click.option("--variant", "-v", required=True, help="Variant id or alias.")
@click.option(
    "--bots",
    default=None,
    help="Comma list of bots, one per seat (2 or more): random, greedy, expert, easy, "
    "medium, hard, hard@N (N worlds a decision, no clock), expert-easy, ...  With "
    f"--ladder, the bots to rate (default {','.join(LADDER)}).",
)
@click.option(
    "--ladder",
    is_flag=True,
    help="Rate the bots together: every pair plays the same 2-seat duplicate deals and "
    "one OpenSkill model rates them all (the ladder of docs/strength.md).",
)
@click.option(
    "--deals",
    "-n",
    type=click.IntRange(1),
    default=100,
    show_default=True,
    help="Duplicate deals: each is played once per seat rotation on the same cards.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Worker processes.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Deal i uses seed SEED+i, so results do not depend on --jobs or --backend.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("tournament.png"),
    show_default=True,
    help="Write the PNG chart here.",
)
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Append every deal to this JSON-lines file; an interrupted run resumes from it.",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="local: this machine's processes; ray: Ray tasks (pip install 'rummykit[ray]').",
)
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@click.option(
    "--option",
    "-o",
    "option_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="Set a variant option (repeatable); see `rummykit rules V`.",
)
def tournament(
    variant: str,
    bots: str | None,
    ladder: bool,
    deals: int,
    jobs: int,
    seed: int,
    out: Path,
    log_path: Path | None,
    backend: str,
    as_json: bool,
    option_pairs: tuple[str, ...],
) -> None:
    """Play bots against each other on duplicate deals and rate them.

    Every deal is dealt once and played once per seat rotation, so each bot plays
    the same cards from every seat.  The table shows deals won (ties shared), the
    mean score difference per deal (a bot's summed score minus the others' mean,
    with a 95% confidence interval) and an OpenSkill rating; the chart goes to
    --out.  Examples:

        rummykit tournament -v romme --bots hard,greedy --deals 200 -j 2

        rummykit tournament -v romme --ladder --deals 50 -j 2
    """
    from rummykit.cli.main import SIMULATION_RECYCLES, _options, _variant

    for module in ("openskill", "matplotlib"):
        if importlib.util.find_spec(module) is None:
            raise click.ClickException(
                f"tournaments need the 'tournament' extra ({module} is missing): "
                "pip install 'rummykit[tournament]'"
            )
    v = _variant(variant)
    if bots is None and not ladder:
        raise click.UsageError("name the bots (--bots), or rate the ladder (--ladder)")
    names = [b.strip().lower() for b in (bots or ",".join(LADDER)).split(",") if b.strip()]
    if len(names) < 2:
        raise click.BadParameter("name at least two bots", param_hint="--bots")
    for name in names:
        if not is_bot_name(name):
            raise click.BadParameter(
                f"unknown bot {name!r}; choose from {', '.join(bot_names())}",
                param_hint="--bots",
            )
    options = _options(v, option_pairs)
    if any(o.name == "max_stock_recycles" for o in v.options):
        # RULES A-05: bots can recycle the stock forever; tournaments cap it unless told.
        options.setdefault("max_stock_recycles", SIMULATION_RECYCLES)
    try:
        v.resolve(2 if ladder else len(names), options)
    except OptionError as exc:
        raise click.UsageError(str(exc)) from None
    if ladder:
        _ladder(v.name, names, options, deals, jobs, seed, out, log_path, backend, as_json)
        return
    spec = TournamentSpec(v.name, tuple(names), options, seed)
    standings = Standings(spec.labels())
    _play_logged(
        spec,
        deals,
        log_path,
        standings.add,
        label=v.name,
        console=Console(stderr=True),
        jobs=jobs,
        backend=backend,
        quiet=as_json,
    )
    seeds = f"seeds {seed}..{seed + deals - 1}"
    title = f"{v.name}, {len(names)} seats: {deals} duplicate deals, {seeds}"
    write_chart(standings, out, title)
    if as_json:
        click.echo(json.dumps({**standings.to_json(), "chart": str(out)}, indent=1))
        return
    table = Table(title=title)
    for column in (
        "bot",
        "deals won",
        "win %",
        "mean score diff",
        "95% CI",
        "μ",
        "σ",
        "ordinal",
    ):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in standings.table():
        low, high = row.ci95
        table.add_row(
            row.label,
            f"{row.deals_won:g}",
            f"{100 * row.win_rate:.1f}",
            f"{row.mean_diff:+.2f}",
            "n/a" if math.isinf(high) else f"{low:+.2f} … {high:+.2f}",
            f"{row.rating_mu:.2f}",
            f"{row.rating_sigma:.2f}",
            f"{row.ordinal:.2f}",
        )
    Console(highlight=False).print(table)
    click.echo(f"chart: {out}")


def _ladder(
    variant: str,
    names: list[str],
    options: dict[str, object],
    deals: int,
    jobs: int,
    seed: int,
    out: Path,
    log_path: Path | None,
    backend: str,
    as_json: bool,
) -> None:
    """Every pair of ``names`` plays ``deals`` 2-seat duplicate deals (the same deals for
    every pair); one OpenSkill model rates them all.  With ``log_path`` each pair has its
    own log beside it (``STEM.A-B.jsonl``), so an interrupted ladder resumes."""
    if len(set(names)) != len(names):
        raise click.BadParameter("a ladder names each bot once", param_hint="--bots")
    board = Ladder(names)
    console = Console(stderr=True)
    for pair in ladder_pairs(names):
        spec = TournamentSpec(variant, pair, options, seed)
        path = None
        if log_path is not None:
            path = log_path.with_name(f"{log_path.stem}.{pair[0]}-{pair[1]}.jsonl")
        _play_pair(spec, board, deals, path, jobs, backend, console, quiet=as_json)
    title = (
        f"{variant}, ladder of {len(names)} bots: {deals} duplicate 2-seat deals a pair, "
        f"seeds {seed}..{seed + deals - 1}"
    )
    write_ladder_chart(board, out, title)
    if as_json:
        click.echo(json.dumps({**board.to_json(), "deals": deals, "chart": str(out)}, indent=1))
        return
    ratings = Table(title=title)
    for column in ("rank", "bot", "μ", "σ", "ordinal"):
        ratings.add_column(column, justify="left" if column == "bot" else "right")
    for rank, (bot, (mu, sigma, ordinal)) in enumerate(board.ratings().items(), start=1):
        ratings.add_row(str(rank), bot, f"{mu:.2f}", f"{sigma:.2f}", f"{ordinal:.2f}")
    printer = Console(highlight=False)
    printer.print(ratings)
    matches = Table(title="matches (first bot's figures)")
    for column in ("match", "deals won", "win %", "mean score diff", "95% CI"):
        matches.add_column(column, justify="left" if column == "match" else "right")
    for pair in ladder_pairs(names):
        first = board.matches[pair].table()[0]
        low, high = first.ci95
        matches.add_row(
            f"{pair[0]} v {pair[1]}",
            f"{first.deals_won:g}",
            f"{100 * first.win_rate:.1f}",
            f"{first.mean_diff:+.2f}",
            "n/a" if math.isinf(high) else f"{low:+.2f} … {high:+.2f}",
        )
    printer.print(matches)
    click.echo(f"chart: {out}")


def _play_pair(
    spec: TournamentSpec,
    board: Ladder,
    deals: int,
    path: Path | None,
    jobs: int,
    backend: str,
    console: Console,
    *,
    quiet: bool,
) -> None:
    """One match of a ladder: the deals its log lacks are played and folded in."""
    pair = (spec.bots[0], spec.bots[1])
    _play_logged(
        spec,
        deals,
        path,
        lambda outcome: board.add(pair, outcome),
        label=f"{spec.variant} {pair[0]} v {pair[1]}",
        console=console,
        jobs=jobs,
        backend=backend,
        quiet=quiet,
    )


def _play_logged(
    spec: TournamentSpec,
    deals: int,
    path: Path | None,
    fold: Callable[[DealOutcome], None],
    *,
    label: str,
    console: Console,
    jobs: int,
    backend: str,
    quiet: bool,
) -> None:
    """Fold in the deals ``path``'s log already holds, then play the rest with a
    progress bar, logging each as it ends (so an interrupted run resumes)."""
    todo = list(range(deals))
    log = None
    if path is not None:
        try:
            done = [o for o in load_log(path, spec) if o.index < deals]
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
        for outcome in done:
            fold(outcome)
        have = {o.index for o in done}
        todo = [i for i in todo if i not in have]
        log = open_log(path, spec)
    try:
        with Progress(
            TextColumn(f"[bold]{label}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            disable=quiet or not console.is_terminal,
        ) as progress:
            task = progress.add_task("deals", total=deals, completed=deals - len(todo))

            def record(outcome: DealOutcome) -> None:
                fold(outcome)
                if log is not None:
                    log.write(json.dumps(outcome.to_json()) + "\n")
                    log.flush()
                progress.advance(task)

            try:
                run_deals(spec, todo, jobs=jobs, backend=backend, on_deal=record)
            except RuntimeError as exc:
                raise click.ClickException(str(exc)) from None
    finally:
        if log is not None:
            log.close()
