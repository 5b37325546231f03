"""Interactive play in the terminal: you against bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from rummykit.bots import Bot
from rummykit.cli.render import face_markup, render_results, render_view
from rummykit.engine.actions import Action, Draw, NextDeal, parse_action
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.game import Game, Phase
from rummykit.engine.record import save_record
from rummykit.engine.view import seat_legal_actions, view
from rummykit.model.pieces import Material, NotationError
from rummykit.solver.hints import hints, penalty_warning

__all__ = ["CARD_HELP", "HELP", "play_interactive"]

HELP = """Commands (tiles: R/Y/B/K + 1..13, joker J, declared joker J(R7)):
  draw                     draw from the stock
  take [N]                 take column tile N (default: the last); see the numbers shown
  meld R5 R6 J(R7)         lay a new formation (brackets optional)
  attach R8 -> m2          attach a tile to formation m2 (J(R10) to say where a joker goes)
  exchange K12 -> m1       put K12 in m1 and take its joker (sets: all missing tiles)
  discard R4               discard and end your turn (closes if it was your last tile)
  three                    announce that at most 3 tiles remain (before a discard that
                           leaves 1-3; a move that costs a penalty asks to confirm)
  board                    declare play on the board;  close R4: show a contract and close
  reset                    undo this turn's table actions
  atu | doubles small|big|key | swap R5 P3 | accept R7 | decline | reshuffle | ready
                           before play: announcements and double swaps
  legal                    list every legal action now
  hint                     draw or take, best laydown, attachments, joker exchanges and a
                           discard (with any announcement due), each with a reason
  sort colour|number       how your rack is shown
  scores                   the score table
  save FILE                save the game record
  help                     this text;   quit   leave the game"""

CARD_HELP = """Commands (cards: A 2..10 J Q K + suit S H D C, e.g. 10H; joker JK, or JK(7H)):
  draw                     draw from the stock
  take [N]                 take the top discard (default; N is its number as shown)
  meld 7H 8H JK(9H)        lay a new meld (brackets optional; declare what a joker stands for)
  attach 10H -> m2         lay off a card on meld m2 (JK(JH) to say where a joker goes)
  exchange QS -> m1        put QS in m1 and take its joker, where the game allows it
                           (Double Rummy: never; laying off the card a joker stands for
                           lifts it, then attach JK(..) -> mN puts it back on the table)
  discard 4C               discard and end your turn (goes out if it was your last card)
  remi | remi 9D           Vienna: stop the deal after drawing; with a card, close with it
                           (showdown by the players: meld ..., then ready)
  out KC | out             Continental: lay out all 15 other cards and close with KC;
                           "out" alone lays out your dealt hand before your first draw
  reset                    undo this turn's table actions
  legal                    list every legal action now
  hint                     draw or take, best laydown, lay-offs, joker exchanges and a
                           discard, each with a reason
  sort colour|number       how your hand is shown (by suit or by rank)
  scores                   the score table
  save FILE                save the game record
  help                     this text;   quit   leave the game"""


def _normalise(text: str, game: Game) -> str:
    words = text.strip().split()
    if words[:1] == ["take"] and len(words) == 1:
        if not game.column:
            raise NotationError("the column is empty")
        return f"take {len(game.column) - 1}"
    if words[:1] == ["meld"] and len(words) > 1 and not words[1].startswith("["):
        return "meld [" + " ".join(words[1:]) + "]"
    return " ".join(words)


def play_interactive(
    game: Game,
    human: int,
    bots: Sequence[Bot | None],
    names: Sequence[str],
    rng: random.Random,
    console: Console,
    read_line: Callable[[str], str],
    save_to: Path | None = None,
) -> None:
    """Run the game loop; ``read_line`` raises EOFError when input ends."""
    sort_by = "colour"
    shown = 0
    seats_json = [{"seat": s, "name": names[s]} for s in range(game.players)]
    console.print(
        f"[bold]rummykit[/] — {game.variant.title}. You are "
        f"P{human + 1}. Type [bold]help[/] for commands."
    )
    last_phase = None
    while not game.is_over:
        seat = game.to_move
        history = view(game, human).history
        for actor, text in history[shown:]:
            if actor != human:
                console.print(f"  P{actor + 1} {names[actor]}: {text}")
        shown = len(history)
        if game.phase is Phase.DEAL_END and last_phase is not Phase.DEAL_END:
            for seat_shown, hand in enumerate(game.results[-1].showdown):
                # RULES §6.6: every hand is laid out at the showdown.
                points = game.results[-1].rack_values[seat_shown]
                console.print(f"  P{seat_shown + 1} shows {hand}  ({points})", markup=False)
            console.print(render_results(game.results, names))
        last_phase = game.phase
        bot = bots[seat]
        if bot is not None:
            action = bot.choose(view(game, seat), seat_legal_actions(game, seat), rng)
            game.apply(action)
            if isinstance(action, NextDeal):
                shown = 0
            continue
        if game.phase is Phase.DEAL_END:
            try:
                read_line("Deal over. Press Enter for the next deal. ")
            except EOFError:
                console.print("\nInput ended; leaving the game.")
                break
            game.apply(NextDeal())
            shown = 0
            continue
        console.print(render_view(view(game, human), names, sort_by))
        verbs = dict.fromkeys(str(a).split()[0] for a in seat_legal_actions(game, human))
        console.print("[dim]you can: " + ", ".join(verbs) + "  (legal: list them all)[/]")
        try:
            line = read_line(f"P{human + 1}> ").strip()
        except EOFError:
            console.print("\nInput ended; leaving the game.")
            break
        if not line:
            continue
        word = line.split()[0].lower()
        if word in ("quit", "exit"):
            console.print("Bye.")
            break
        if word == "help":
            tiles = game.pieces.material is Material.TILES
            console.print(HELP if tiles else CARD_HELP, markup=False)
            continue
        if word == "legal":
            console.print(
                "Legal now: " + ", ".join(str(a) for a in seat_legal_actions(game, human)),
                markup=False,
            )
            continue
        if word == "hint":
            found = hints(game)
            if not found:
                console.print("No hints now.")
            for h in found:
                what = "; ".join(h.actions) if h.actions else "-"
                console.print(f"hint: {h.topic}: {what}  ({h.reason})", markup=False)
            continue
        if word == "sort":
            arg = line.split()[1:2]
            if arg and arg[0] in ("colour", "color", "number"):
                sort_by = "number" if arg[0] == "number" else "colour"
            else:
                console.print("Use: sort colour  or  sort number")
            continue
        if word == "scores":
            console.print(render_results(game.results, names))
            continue
        if word == "save":
            parts = line.split(maxsplit=1)
            if len(parts) < 2:
                console.print("Use: save FILE")
                continue
            try:
                save_record(game, parts[1], seats_json)
            except OSError as exc:
                console.print(f"[red]Cannot save: {escape(str(exc))}[/]")
            else:
                console.print(f"Saved to {escape(parts[1])}.")
            continue
        try:
            typed: Action = parse_action(_normalise(line, game), game.pieces.material)
            warning = penalty_warning(view(game, human), typed) if game.can(typed) else None
            if warning is not None:
                console.print(f"[yellow]Warning: {escape(warning)}.[/]")
                try:
                    answer = read_line(f"{typed} anyway? [y/N] ").strip().lower()
                except EOFError:
                    console.print("\nInput ended; leaving the game.")
                    break
                if answer not in ("y", "yes"):
                    console.print("Cancelled.")
                    continue
            before = list(view(game, human).rack)
            game.apply(typed)
            if isinstance(typed, Draw):
                after = list(view(game, human).rack)
                for face in before:
                    after.remove(face)
                console.print("You drew " + " ".join(face_markup(f) for f in after) + ".")
        except (NotationError, IllegalActionError) as exc:
            console.print(f"[red]{escape(str(exc))}[/]")
    if game.results:
        console.print(render_results(game.results, names))
    if game.is_over:
        seats = game.winners()
        winners = [f"P{s + 1} {names[s]}" for s in seats]
        console.print(
            f"[bold]Match over.[/] Winner: {', '.join(winners)} with {game.totals[seats[0]]}."
        )
    if save_to is not None:
        try:
            save_record(game, save_to, seats_json)
        except OSError as exc:
            console.print(f"[red]Cannot save the record: {escape(str(exc))}[/]")
        else:
            console.print(f"Record saved to {escape(str(save_to))}.")
