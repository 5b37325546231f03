"""The ``rummykit`` command line."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from rummykit import __version__
from rummykit.bots import BOTS, make_bot
from rummykit.cli.play import play_interactive
from rummykit.cli.render import render_results
from rummykit.cli.simulate import GameSummary, run_simulation
from rummykit.engine.actions import parse_piece_token
from rummykit.engine.extensions.three import three_state
from rummykit.engine.game import Game
from rummykit.engine.position import analysis_game
from rummykit.engine.record import RecordError, load_record, replay
from rummykit.i18n import LANGUAGES, language_from_environment
from rummykit.model.pieces import Face, NotationError
from rummykit.rules.meldcheck import check_meld
from rummykit.rules.options import OptionError, Options, parse_option_value
from rummykit.rules.variant import (
    PieceNotInPackError,
    UnknownVariantError,
    Variant,
    all_variants,
    find_variant,
)
from rummykit.solver import goal_names, solve_goal
from rummykit.solver.hints import hints, hints_json

__all__ = ["cli", "main"]


def _variant(name: str) -> Variant:
    try:
        return find_variant(name)
    except UnknownVariantError as exc:
        raise click.BadParameter(str(exc)) from None


def _options(variant: Variant, pairs: tuple[str, ...]) -> dict[str, Any]:
    specs = {s.name: s for s in variant.options}
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep:
            raise click.BadParameter(
                f"{pair!r}: write options as NAME=VALUE", param_hint="--option"
            )
        if name not in specs:
            raise click.BadParameter(
                f"unknown option {name!r}; allowed: {', '.join(sorted(specs))}",
                param_hint="--option",
            )
        try:
            out[name] = parse_option_value(specs[name], value)
        except OptionError as exc:
            raise click.BadParameter(str(exc), param_hint="--option") from None
    return out


SIMULATION_RECYCLES = 3
"""Stock recycles per deal in simulations when the user sets none (RULES A-05)."""
SIMULATION_DEALS = 20
"""Deals per match in simulations of a variant whose match has no deal limit (§7.9)."""

_OPTION = click.option(
    "--option",
    "-o",
    "option_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="Set a variant option (repeatable); see `rummykit rules V`.",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rummykit")
def cli() -> None:
    """rummykit: play, simulate, replay and analyse Rummy-family games.

    Variants are named by id or alias (remi_ro, remi, rummy45, ...): see `rummykit rules`.
    """


@cli.command()
@click.option("--variant", "-v", default="remi_ro", show_default=True, help="Variant id or alias.")
@click.option("--players", "-p", type=int, default=None, help="Seats at the table (you + bots).")
@click.option("--seed", type=int, default=None, help="Seed for a reproducible game.")
@click.option(
    "--bots",
    default="greedy",
    show_default=True,
    help=f"Bot for the other seats: {', '.join(BOTS)} (or a comma list, one per seat).",
)
@click.option("--seat", type=int, default=1, show_default=True, help="Your seat, P1..Pn.")
@click.option(
    "--save",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the game record here when the game ends.",
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default=None,
    help="Language of the messages (default: from the locale, else English).",
)
@_OPTION
def play(
    variant: str,
    players: int | None,
    seed: int | None,
    bots: str,
    seat: int,
    save: Path | None,
    lang: str | None,
    option_pairs: tuple[str, ...],
) -> None:
    """Play against bots in the terminal. Type `help` at the prompt for commands."""
    v = _variant(variant)
    n = players if players is not None else v.default_players
    options = _options(v, option_pairs)
    try:
        game = Game(v, n, options, seed=seed)
    except (OptionError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    if not 1 <= seat <= n:
        raise click.BadParameter(f"seat must be 1..{n}", param_hint="--seat")
    if save is not None and not save.resolve().parent.is_dir():
        raise click.BadParameter(
            f"folder {save.resolve().parent} does not exist", param_hint="--save"
        )
    human = seat - 1
    bot_names = [b.strip() for b in bots.split(",") if b.strip()] or ["greedy"]
    try:
        seats = [
            None
            if s == human
            else make_bot(bot_names[min(s, len(bot_names) - 1) if len(bot_names) > 1 else 0])
            for s in range(n)
        ]
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--bots") from None
    names = ["you" if bot is None else bot.name for bot in seats]
    console = Console(highlight=False)

    def read_line(prompt: str) -> str:
        console.print(prompt, end="")
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line

    play_interactive(
        game,
        human,
        seats,
        names,
        random.Random(game.seed),
        console,
        read_line,
        save,
        lang or language_from_environment(),
    )


@cli.command()
@click.option("--variant", "-v", required=True, help="Variant id or alias.")
@click.option(
    "--games",
    "-n",
    type=click.IntRange(1),
    default=100,
    show_default=True,
    help="How many games (matches) to play.",
)
@click.option("--players", "-p", type=int, default=None, help="Seats per game.")
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Game i uses seed SEED+i, so results do not depend on --jobs.",
)
@click.option(
    "--bots",
    default="greedy",
    show_default=True,
    help="Comma list of bots, one per seat (the last repeats): random, greedy.",
)
@click.option(
    "--jobs", "-j", type=click.IntRange(1), default=1, show_default=True, help="Worker processes."
)
@click.option(
    "--save",
    "save_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write every game's record into this folder.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@_OPTION
def simulate(
    variant: str,
    games: int,
    players: int | None,
    seed: int,
    bots: str,
    jobs: int,
    save_dir: Path | None,
    as_json: bool,
    option_pairs: tuple[str, ...],
) -> None:
    """Play bot games and print a summary (wins, mean deal score, turns per deal).

    In card variants that recycle the stock (RULES §2.4) a deal could go on forever,
    so unless you set -o max_stock_recycles=... it is capped at 3 (A-05).
    """
    v = _variant(variant)
    n = players if players is not None else v.default_players
    options = _options(v, option_pairs)
    if any(o.name == "max_stock_recycles" for o in v.options):
        # RULES A-05: bots can recycle the stock forever; simulations cap it unless told.
        options.setdefault("max_stock_recycles", SIMULATION_RECYCLES)
    if any(o.name == "match_deals" and o.default is None for o in v.options):
        # RULES §7.9: a match that ends only when someone has no chips left never ends
        # while every deal is void; simulations cap it unless told.
        options.setdefault("match_deals", SIMULATION_DEALS)
    try:
        v.resolve(n, options)
    except OptionError as exc:
        raise click.UsageError(str(exc)) from None
    names = [b.strip().lower() for b in bots.split(",") if b.strip()]
    for name in names:
        if name not in BOTS:
            raise click.BadParameter(
                f"unknown bot {name!r}; choose from {', '.join(BOTS)}", param_hint="--bots"
            )
    seat_bots = [names[min(s, len(names) - 1)] for s in range(n)]
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=as_json or not console.is_terminal,
    ) as progress:
        task = progress.add_task("games", total=games)

        def advance(_: GameSummary) -> None:
            progress.advance(task)

        summary = run_simulation(
            v.name,
            n,
            options,
            seat_bots,
            games,
            seed,
            jobs,
            None if save_dir is None else str(save_dir),
            advance,
        )
    data = summary.to_json()
    if as_json:
        click.echo(json.dumps(data, indent=1))
        return
    out = Console(highlight=False)
    table = Table(
        title=f"{v.name}: {games} games, {summary.deals} deals, seeds {seed}..{seed + games - 1}"
    )
    table.add_column("seat")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("win %", justify="right")
    table.add_column("mean deal score", justify="right")
    for s in range(n):
        table.add_row(
            f"P{s + 1}",
            seat_bots[s],
            f"{summary.wins[s]:g}",
            f"{100 * summary.wins[s] / games:.1f}",
            f"{data['mean_deal_score'][s]:.1f}",
        )
    out.print(table)
    ends = ", ".join(f"{k} {v}" for k, v in sorted(summary.ends.items()))
    out.print(f"turns per deal: {data['turns_per_deal']}   deal ends: {ends}")


@cli.command()
@click.argument("variant", required=False)
@_OPTION
@click.option("--players", "-p", type=int, default=None, help="Player count for defaults.")
def rules(variant: str | None, option_pairs: tuple[str, ...], players: int | None) -> None:
    """Show a variant's rules summary and its options with defaults (no VARIANT: list them)."""
    out = Console(highlight=False)
    if variant is None:
        table = Table(title="Variants")
        for col in ("id", "aliases", "players", "name"):
            table.add_column(col)
        for v in all_variants():
            table.add_row(v.name, ", ".join(v.aliases), f"{v.min_players}-{v.max_players}", v.title)
        out.print(table)
        return
    v = _variant(variant)
    n = players if players is not None else v.default_players
    given = _options(v, option_pairs)
    try:
        values = v.resolve(n, given)
    except OptionError as exc:
        raise click.UsageError(str(exc)) from None
    out.print(
        f"[bold]{v.title}[/] ({v.name}; aliases: {', '.join(v.aliases)}) — RULES {v.rules_section}"
    )
    out.print(f"Players: {v.min_players}-{v.max_players}. {v.summary}")
    out.print(
        f"\n[bold]Options[/] (for {n} players; * = differs from the default; "
        "set with -o NAME=VALUE)"
    )
    for spec in v.options:
        default = spec.default_for(n)
        value = values[spec.name]
        mark = "*" if value != default else " "
        shown = json.dumps(value) + (
            "" if value == default else f" (default {json.dumps(default)})"
        )
        out.print(f" {mark}[bold]{spec.name}[/] = {shown}   [dim]{spec.kind}; {spec.allowed()}[/]")
        out.print(f"     {spec.doc}")


def _pieces(variant: Variant, tokens: tuple[str, ...]) -> tuple[list[Any], list[Any]]:
    faces, declared = [], []
    for text in " ".join(tokens).replace("[", " ").replace("]", " ").split():
        try:
            face, decl = parse_piece_token(text, variant.material, variant.meld_rules.wild_ranks)
        except NotationError as exc:
            raise click.BadParameter(str(exc), param_hint="PIECE") from None
        faces.append(face)
        declared.append(decl)
    return faces, declared


def _check_pack(variant: Variant, faces: list[Face], options: Options, as_json: bool) -> None:
    """Refuse pieces the variant's pack (with these options) does not hold: one line
    on stderr, or a JSON error naming the piece and the rule, and exit status 1."""
    try:
        variant.check_pieces(faces, options)
    except PieceNotInPackError as exc:
        if as_json:
            click.echo(json.dumps({"error": str(exc), "piece": exc.piece, "rule": exc.rule}))
            sys.exit(1)
        raise click.ClickException(str(exc)) from None


@cli.command()
@click.argument("variant")
@click.argument("pieces", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_OPTION
def meld(
    variant: str, pieces: tuple[str, ...], as_json: bool, option_pairs: tuple[str, ...]
) -> None:
    """Check whether PIECES form one valid formation of VARIANT and count its opening points.

    A bare joker takes the reading worth the most opening points; write J(R7) to fix it.
    Options (-o NAME=VALUE) apply a variation's meld rules and opening values.
    """
    v = _variant(variant)
    faces, declared = _pieces(v, pieces)
    try:
        options = v.resolve(v.default_players, _options(v, option_pairs))
    except OptionError as exc:
        raise click.UsageError(str(exc)) from None
    _check_pack(v, faces, options, as_json)
    verdict = check_meld(v, faces, declared, options=options)
    data = verdict.to_json()
    if as_json:
        click.echo(json.dumps(data))
        return
    if verdict.valid:
        points = (
            "" if verdict.opening_points is None else f", {verdict.opening_points} opening points"
        )
        click.echo(f"valid {verdict.kind}{points}")
    else:
        click.echo(f"not a formation: {verdict.reason}")


@cli.command()
@click.argument("variant")
@click.option("--hand", required=True, help='The pieces, e.g. "R1 B1 K1 Y3 Y4 Y5 J".')
@click.option(
    "--goal",
    default="opening",
    show_default=True,
    help="What to solve for: opening, laydown (most value), deadwood (least left over), "
    "contract (board play), layout (a whole-hand layout, Continental), or a goal of the "
    "variant's own.",
)
@click.option(
    "--keep",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="Pieces that must stay in hand (1 keeps a tile for the discard); opening/laydown.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_OPTION
def solve(
    variant: str, hand: str, goal: str, keep: int, as_json: bool, option_pairs: tuple[str, ...]
) -> None:
    """Solve a hand exactly: the best opening, the most value laid, the least deadwood,
    the best board contract, or a variant's own goal."""
    v = _variant(variant)
    faces, declared = _pieces(v, (hand,))
    if any(d is not None for d in declared):
        raise click.BadParameter("write jokers in a hand as plain J", param_hint="--hand")
    try:
        options = v.resolve(v.default_players, _options(v, option_pairs))
    except OptionError as exc:
        raise click.UsageError(str(exc)) from None
    _check_pack(v, faces, options, as_json)
    goals = goal_names(v, options)
    if goal not in goals:
        known = ", ".join(repr(g) for g in goals)
        raise click.BadParameter(
            f"{v.name} has no goal {goal!r}; choose from {known}", param_hint="--goal"
        )
    if keep and goal not in ("opening", "laydown"):
        raise click.BadParameter("--keep applies to opening and laydown", param_hint="--keep")
    try:
        data = solve_goal(goal, faces, v, options, keep=keep)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--hand") from None
    if as_json:
        click.echo(json.dumps(data))
        return
    for line in _solve_lines(goal, data):
        click.echo(line)


def _solve_lines(goal: str, data: dict[str, Any]) -> list[str]:
    melds = ["[" + " ".join(m) + "]" for m in data.get("melds", [])]
    if goal == "opening":
        if not melds:
            return ["no opening laydown"]
        verdict = "a valid opening" if data["valid_opening"] else "not enough for an opening"
        return [*melds, f"{data['points']} points: {verdict}"]
    if goal == "laydown":
        return [*melds, f"{data['points']} points"] if melds else ["nothing to lay"]
    if goal == "deadwood":
        left = " ".join(data["deadwood"]) or "none"
        lines = [*melds, f"deadwood: {left} ({data['deadwood_points']} points)"]
        if data.get("layout") is not None:
            pattern = data.get("pattern")
            shape = "+".join(map(str, pattern)) if pattern else ""
            lines.append(f"layout: {shape}" if data["layout"] else "layout: none")
        return lines
    if goal == "layout":
        if not data["layout"]:
            return ["no layout: these cards cannot all be laid out"]
        pattern = "+".join(map(str, data["pattern"]))
        return [*melds, f"layout {pattern}: all cards laid out"]
    if goal == "contract":
        if data["contract"] is None:
            return ["no contract"]
        close = "" if data["discard"] is None else f", closing with {data['discard']}"
        return [f"{data['contract']} ({data['value']}){close}"]
    return [json.dumps(data, indent=2)]


@cli.command()
@click.argument("variant")
@click.option("--hand", required=True, help='Your pieces after drawing, e.g. "R1 B1 K1 Y3 J".')
@click.option(
    "--table",
    "table_text",
    default="",
    help='Formations on the table, in brackets: "[R5 R6 R7] [B9 Y9 J]" (J(R7) fixes a joker).',
)
@click.option(
    "--opened/--not-opened",
    default=False,
    show_default=True,
    help="Whether you opened in an earlier turn.",
)
@click.option(
    "--announced",
    is_flag=True,
    help="You have already announced 'three' this deal (remi_ro, RULES §9.11).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_OPTION
def hint(
    variant: str,
    hand: str,
    table_text: str,
    opened: bool,
    announced: bool,
    as_json: bool,
    option_pairs: tuple[str, ...],
) -> None:
    """Hints for a hand and a table: the best laydown now, what attaches where, joker
    exchanges and a discard, each with a one-line reason and preceded by any
    announcement the rules require then (remi_ro: 'three' before a discard that leaves
    1-3 tiles)."""
    v = _variant(variant)
    faces, declared = _pieces(v, (hand,))
    if any(d is not None for d in declared):
        raise click.BadParameter("write jokers in a hand as plain J", param_hint="--hand")
    groups = []
    for chunk in table_text.replace("]", "]\n").splitlines():
        chunk = chunk.strip().strip("[]").strip()
        if chunk:
            group, marks = _pieces(v, (chunk,))
            groups.append(list(zip(group, marks, strict=True)))
    options = _options(v, option_pairs)
    try:
        resolved = v.resolve(v.default_players, options)
    except OptionError as exc:
        raise click.BadParameter(str(exc)) from None
    _check_pack(v, faces + [f for group in groups for f, _ in group], resolved, as_json)
    try:
        game = analysis_game(v.name, faces, groups, options=options, opened=opened)
    except (ValueError, OptionError) as exc:
        raise click.BadParameter(str(exc)) from None
    if announced:
        if not game.play.three_announcement:
            raise click.BadParameter(
                f"{v.name} has no 'three' announcement", param_hint="--announced"
            )
        state = three_state(game, writable=True)
        assert state is not None
        state.announced[0] = True
    found = hints(game)
    if as_json:
        click.echo(json.dumps(hints_json(found)))
        return
    if not found:
        click.echo("no hints: nothing to do but draw")
    for h in found:
        shown = "; ".join(h.actions) if h.actions else "-"
        click.echo(f"{h.topic:<9} {shown}  ({h.reason})")


@cli.command(name="replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def replay_cmd(file: Path, as_json: bool) -> None:
    """Re-check every action of a game record and print per-deal and match scores."""
    try:
        result = replay(load_record(file))
    except RecordError as exc:
        if as_json:
            click.echo(json.dumps({"valid": False, "error": str(exc), "index": exc.index}))
        else:
            click.echo(f"invalid record: {exc}", err=True)
        sys.exit(1)
    game = result.game
    if as_json:
        click.echo(
            json.dumps(
                {
                    "valid": True,
                    "variant": game.variant.name,
                    "actions": result.actions,
                    "deals": [r.to_json() for r in result.results],
                    "totals": list(game.totals),
                    "finished": game.is_over,
                }
            )
        )
        return
    out = Console(highlight=False)
    out.print(f"{file}: {result.actions} actions re-checked, all legal ({game.variant.name}).")
    seats = load_record(file).get("seats") or []
    names = [str(s.get("name", "")) if isinstance(s, dict) else "" for s in seats]
    names += [""] * (game.players - len(names))
    if result.results:
        out.print(render_results(result.results, names))
    if not game.is_over:
        out.print("The match is not finished.")


def _rate(_: click.Context, __: click.Parameter, value: str) -> str | None:
    """A rate option checked (``off``: None)."""
    try:
        from rummykit.server.quotas import parse_rate
    except ImportError:
        return value  # serve names the missing extra
    try:
        return parse_rate(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@cli.command()
@click.option(
    "--host",
    envvar="RUMMYKIT_HOST",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on.",
)
@click.option(
    "--port",
    envvar="RUMMYKIT_PORT",
    type=click.IntRange(1, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (1-65535).",
)
@click.option(
    "--database-url",
    envvar="RUMMYKIT_DATABASE_URL",
    default=None,
    help="SQLAlchemy URL, e.g. postgresql://user@host/db "
    "[default: an SQLite file in your data directory].",
)
@click.option(
    "--bot-delay",
    envvar="RUMMYKIT_BOT_DELAY",
    type=float,
    default=0.4,
    show_default=True,
    help="Seconds a bot waits before it moves, so people can follow.",
)
@click.option(
    "--grace",
    envvar="RUMMYKIT_GRACE",
    type=float,
    default=30.0,
    show_default=True,
    help="Seconds a disconnected player's seat is held before a bot plays it.",
)
@click.option(
    "--limit-create",
    envvar="RUMMYKIT_LIMIT_CREATE",
    default="20/minute",
    show_default=True,
    metavar="RATE",
    callback=_rate,
    help="Tables one client address may create: N/second, N/minute or N/hour "
    "('off': no limit). Past it the answer is 429 rate_limited with Retry-After.",
)
@click.option(
    "--limit-join",
    envvar="RUMMYKIT_LIMIT_JOIN",
    default="30/minute",
    show_default=True,
    metavar="RATE",
    callback=_rate,
    help="Seats one client address may take (join), as --limit-create.",
)
@click.option(
    "--limit-lookup",
    envvar="RUMMYKIT_LIMIT_LOOKUP",
    default="30/minute",
    show_default=True,
    metavar="RATE",
    callback=_rate,
    help="Table codes that name no table one client address may ask for; past it every "
    "request naming a table code is refused until the window frees (invite codes "
    "cannot be guessed by trying them).",
)
@click.option(
    "--expire-open",
    envvar="RUMMYKIT_EXPIRE_OPEN",
    type=click.FloatRange(min=0),
    default=3600.0,
    show_default=True,
    metavar="SECONDS",
    help="Close a table that never started once it has been unused this long (no seat "
    "taken or left, nobody connected); 0: never.",
)
@click.option(
    "--redis-url",
    envvar="RUMMYKIT_REDIS_URL",
    default=None,
    help="Redis URL, e.g. redis://host:6379/0: many processes (this machine's --workers, "
    "or other machines) then serve the same tables from one PostgreSQL database.",
)
@click.option(
    "--redis-prefix",
    envvar="RUMMYKIT_REDIS_PREFIX",
    default="rk",
    show_default=True,
    help="Prefix of every Redis key and channel (several sites on one Redis).",
)
@click.option(
    "--workers",
    envvar="RUMMYKIT_WORKERS",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Server processes on this port; above 1 needs --redis-url and PostgreSQL.",
)
@click.option(
    "--lease-ms",
    envvar="RUMMYKIT_LEASE_MS",
    type=click.IntRange(min=300),
    default=3000,
    show_default=True,
    help="With --redis-url: how long a process's hold on a table's bots and timers "
    "lasts unless renewed (another process takes over within about this long).",
)
@click.option(
    "--log-format",
    envvar="RUMMYKIT_LOG_FORMAT",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Log lines as text or as one JSON object each (tokens are blanked either way).",
)
@click.option(
    "--ws-compression/--no-ws-compression",
    envvar="RUMMYKIT_WS_COMPRESSION",
    default=False,
    show_default=True,
    help="Compress WebSocket frames (permessage-deflate). Off: a state frame is a few KB, "
    "and compressing each one for every socket costs the server more CPU than it saves.",
)
def serve(
    host: str,
    port: int,
    database_url: str | None,
    bot_delay: float,
    grace: float,
    limit_create: str | None,
    limit_join: str | None,
    limit_lookup: str | None,
    expire_open: float,
    redis_url: str | None,
    redis_prefix: str,
    workers: int,
    lease_ms: int,
    log_format: str,
    ws_compression: bool,
) -> None:
    """Serve tables for friends and bots: a browser lobby at http://HOST:PORT/,
    the HTTP API (OpenAPI at /openapi.json) and the table WebSocket.

    Tables are stored in the database and survive a restart. Rate limits count
    requests per client address (behind a reverse proxy on this machine, the
    address it forwards in X-Forwarded-For).  Every option can also be set by
    its environment variable (RUMMYKIT_DATABASE_URL, RUMMYKIT_REDIS_URL ...).
    """
    try:
        from rummykit.server import run
        from rummykit.server.config import DatabaseBusyError, ServeConfig
    except ImportError as exc:
        raise click.ClickException(
            f"the server needs the 'server' extra ({exc.name} is missing): "
            "pip install 'rummykit[server]' (from a clone: pip install -e '.[server]')"
        ) from None
    if database_url is not None:
        _check_database(database_url)
    if redis_url is not None and not (database_url or "").startswith(("postgres", "postgresql")):
        raise click.ClickException(
            "--redis-url needs a PostgreSQL --database-url: an SQLite file serves one process"
        )
    if workers > 1 and redis_url is None:
        raise click.ClickException(
            "--workers above 1 needs --redis-url (and a PostgreSQL --database-url)"
        )
    config = ServeConfig(
        database_url=database_url,
        redis_url=redis_url,
        redis_prefix=redis_prefix,
        lease_ms=lease_ms,
        bot_delay=bot_delay,
        grace=grace,
        limit_create=limit_create,
        limit_join=limit_join,
        limit_lookup=limit_lookup,
        expire_open=expire_open,
    )
    click.echo(f"rummykit server on http://{host}:{port}/  (Ctrl+C stops it)")
    try:
        run(
            host,
            port,
            database_url,
            config=config,
            workers=workers,
            log_format=log_format,
            ws_compression=ws_compression,
        )
    except DatabaseBusyError as exc:
        raise click.ClickException(str(exc)) from None


def _check_database(url: str) -> None:
    """Open (and migrate) the database at ``url`` once before serving, so that a URL
    that cannot work ends in one clear line instead of a traceback from the server."""
    import sqlalchemy as sa
    from alembic.util import CommandError

    from rummykit.server.store import Store, normalize_url

    try:
        parsed = sa.engine.make_url(normalize_url(url))
    except sa.exc.ArgumentError:
        raise click.ClickException(
            # The text is not echoed: it may hold a password that could not be found.
            "cannot open the database: --database-url is not a database URL "
            "(e.g. postgresql://user@host/db or sqlite:///path/to/file.db)"
        ) from None
    shown = parsed.render_as_string(hide_password=True)
    database = parsed.database or ""
    if parsed.get_backend_name() == "sqlite" and database not in ("", ":memory:"):
        folder = Path(database).expanduser().parent
        if not database.startswith("file:") and not folder.is_dir():
            # SQLite creates the file but not its folder; a typo should not make one.
            raise click.ClickException(
                f"cannot open the database {shown}: the folder {folder} does not exist"
            )
    try:
        Store(url).close()
    except sa.exc.NoSuchModuleError:
        reason = f"no database driver for {parsed.drivername!r} (use postgresql:// or sqlite:///)"
    except sa.exc.DBAPIError as exc:
        reason = "cannot connect: " + _first_line(str(exc.orig))
    except (sa.exc.SQLAlchemyError, CommandError, ImportError, OSError) as exc:
        reason = _first_line(str(exc))
    else:
        return
    raise click.ClickException(f"cannot open the database {shown}: {reason}")


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else "unknown error"


from rummykit.cli.tournament import tournament  # noqa: E402  (a command of its own module)

cli.add_command(tournament)


def main() -> None:
    """Console-script entry point."""
    cli()
