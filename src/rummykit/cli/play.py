"""Interactive play in the terminal: you against bots, in your language.

Messages come from :mod:`rummykit.i18n` (``--lang``, default from the locale); what
you type is always the documented notation.  ``help`` lists only the commands of the
game being played.  At the end of every deal the table shows the deal's sheet (laid,
in hand, the bonuses and penalties that applied) and waits for Enter: no bot starts
the next deal for you.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from rummykit.bots import Bot
from rummykit.cli.render import (
    face_markup,
    notation_from,
    notation_text,
    render_breakdown,
    render_results,
    render_view,
)
from rummykit.engine.actions import Action, Draw, NextDeal, parse_action
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.game import DealResult, Game, Phase
from rummykit.engine.record import save_record
from rummykit.engine.view import seat_legal_actions, view
from rummykit.i18n import Messages
from rummykit.model.pieces import Material, NotationError
from rummykit.rules.variant import PlayRules, ScoringSettings, Variant
from rummykit.solver.hints import Hint, hints, penalty_warning

__all__ = ["COMMANDS", "Command", "deal_notes", "help_text", "play_interactive"]


@dataclass(frozen=True, slots=True)
class Command:
    """One line of ``help``: what to type (tiles, cards), its message, and whether the
    game being played has it."""

    tiles: str
    cards: str
    message: str
    applies: Callable[[Variant, PlayRules], bool]
    verbs: tuple[str, ...] = ()
    """Engine verbs the line teaches (a test checks every legal verb is taught)."""


def _always(_: Variant, __: PlayRules) -> bool:
    return True


def _table_play(_: Variant, play: PlayRules) -> bool:
    # Formations on the table (not Vienna's hand melds nor Continental's layouts).
    return play.table_melds and not play.stop_call


COMMANDS: tuple[Command, ...] = (
    Command("draw", "draw", "cli.help_draw", _always, ("draw",)),
    Command(
        "take [N]",
        "take [N]",
        "cli.help_take_column",
        lambda _, p: p.take_any_column_tile,
        ("take",),
    ),
    Command(
        "take [N]",
        "take [N]",
        "cli.help_take_top",
        lambda _, p: not p.take_any_column_tile,
        ("take",),
    ),
    Command(
        "meld R5 R6 J(R7)",
        "meld 7H 8H JK(9H)",
        "cli.help_meld",
        lambda _, p: (p.table_melds and not p.stop_call) or p.players_arrange,
        ("meld",),
    ),
    Command("attach R8 -> m2", "attach 10H -> m2", "cli.help_attach", _table_play, ("attach",)),
    Command(
        "exchange K12 -> m1",
        "exchange QS -> m1",
        "cli.help_exchange",
        lambda v, p: _table_play(v, p) and (p.joker_exchange or p.joker_shift),
        ("exchange",),
    ),
    Command(
        "reclaim R13 <- m2",
        "reclaim KS <- m2",
        "cli.help_reclaim",
        lambda _, p: p.reclaim_own_end_tiles,
        ("reclaim",),
    ),
    Command("discard R4", "discard 4C", "cli.help_discard", _always, ("discard",)),
    Command("three", "three", "cli.help_three", lambda _, p: p.three_announcement, ("three",)),
    Command(
        "board | close R4",
        "board | close 4C",
        "cli.help_board",
        lambda _, p: p.board_play,
        ("board", "close"),
    ),
    Command(
        "remi | remi 9D",
        "remi | remi 9D",
        "cli.help_remi",
        lambda _, p: p.stop_call,
        ("remi",),
    ),
    Command(
        "out KC | out",
        "out KC | out",
        "cli.help_out",
        lambda v, _: v.find_layout is not None,
        ("out",),
    ),
    Command(
        "reset",
        "reset",
        "cli.help_reset",
        lambda v, p: _table_play(v, p) or p.stop_call or v.find_layout is not None,
        ("reset",),
    ),
    Command(
        "atu | doubles small|big|key | swap R5 P3 | accept R7 | decline | reshuffle | ready",
        "ready",
        "cli.help_preplay",
        lambda _, p: p.preplay,
        ("atu", "doubles", "swap", "accept", "decline", "reshuffle", "ready"),
    ),
    Command("legal", "legal", "cli.help_legal", _always),
    Command("hint", "hint", "cli.help_hint", _always),
    Command("sort colour|number", "sort colour|number", "cli.help_sort", _always),
    Command("scores", "scores", "cli.help_scores", _always),
    Command("save FILE", "save FILE", "cli.help_save", _always),
    Command("help", "help", "cli.help_help", _always),
)
"""Every command any game has; ``help`` shows those of the game being played."""


def help_text(game: Game, lang: str = "en") -> str:
    """The commands of ``game``'s variant (and options) only, in ``lang``."""
    msg = Messages(lang)
    tiles = game.pieces.material is Material.TILES
    lines = [msg("cli.help_tiles") if tiles else msg("cli.help_cards")]
    names = msg("cli.help_names")
    if names:
        lines.append("  " + names)
    play = game.play
    for command in COMMANDS:
        if not command.applies(game.variant, play):
            continue
        typed = command.tiles if tiles else command.cards
        # Vienna's showdown is played with meld/ready too: their lines stay.
        if typed == "ready" and not play.preplay:
            continue
        lines.append(f"  {typed:<24} {msg(command.message)}")
    return "\n".join(lines)


def deal_notes(game: Game, result: DealResult, lang: str = "en") -> list[list[str]]:
    """The bonuses and penalties of a finished deal by seat, in words: the closer and
    the closing bonus, never opened, 'three' not announced (RULES §9.11), atu, a whole
    hand in one turn, a double game and a board contract."""
    msg = Messages(lang)
    play = game.play
    scoring = play.find_setting(ScoringSettings) or ScoringSettings()
    seen = view(game, 0)
    notes: list[list[str]] = [[] for _ in result.scores]
    opening_rule = play.opening_min_points > 0
    for seat in range(len(result.scores)):
        if seat == result.closer:
            notes[seat].append(msg("cli.note_closed"))
            if scoring.closing_bonus:
                notes[seat].append(msg("cli.note_closing_bonus", n=scoring.closing_bonus))
            if result.hand:
                notes[seat].append(msg("cli.note_hand"))
            if result.contract:
                notes[seat].append(msg("cli.note_contract", name=result.contract))
        if opening_rule and not result.opened[seat]:
            notes[seat].append(msg("cli.note_never_opened"))
        if seat < len(result.three_penalty) and result.three_penalty[seat]:
            notes[seat].append(msg("cli.note_three"))
        if seen.atu[seat]:
            notes[seat].append(msg("cli.note_atu"))
        if result.double_game:
            factor = scoring.double_game_multiplier
            notes[seat].append(msg("cli.note_double_game", n=factor))
    return notes


def _normalise(text: str, game: Game) -> str:
    words = text.strip().split()
    if words[:1] == ["take"] and len(words) == 1:
        if not game.column:
            raise NotationError("the column is empty")
        return f"take {len(game.column) - 1}"
    if words[:1] == ["meld"] and len(words) > 1 and not words[1].startswith("["):
        return "meld [" + " ".join(words[1:]) + "]"
    return " ".join(words)


def _hint_line(h: Hint, msg: Messages, material: Material) -> str:
    """A hint as its reason code's message; English engine text only in English."""
    if msg.lang == "en" or not msg.has(f"reason.{h.code}"):
        reason = msg.local(h.reason)
    else:
        params = dict(h.params)
        if "target" in params:
            params["target"] = f"m{params['target']}"
        for key in ("piece", "meld", "notation"):
            if key in params:
                params[key] = notation_text(str(params[key]), material, msg.lang)
        parts = [msg(f"reason.{h.code}", **params)]
        if "then_three" in params:
            parts.append(msg("reason.then_three", left=params["then_three"]))
        if "three_first" in params:
            parts.append(
                msg("reason.three_first", left=params["three_first"], penalty=params["penalty"])
            )
        reason = "; ".join(parts)
    what = "; ".join(notation_text(a, material, msg.lang) for a in h.actions) or "-"
    topic = h.topic if msg.lang == "en" else msg.family("hint.topic", h.topic)
    return msg("cli.hint", topic=topic, actions=what, reason=reason)


def play_interactive(
    game: Game,
    human: int,
    bots: Sequence[Bot | None],
    names: Sequence[str],
    rng: random.Random,
    console: Console,
    read_line: Callable[[str], str],
    save_to: Path | None = None,
    lang: str = "en",
) -> None:
    """Run the game loop; ``read_line`` raises EOFError when input ends."""
    msg = Messages(lang)
    material = game.pieces.material
    sort_by = "colour"
    shown = 0
    seats_json = [{"seat": s, "name": names[s]} for s in range(game.players)]
    title = game.variant.title if lang == "en" else msg.family("variant", game.variant.name)
    console.print(msg("cli.greeting", title=escape(title), seat=human + 1))
    last_phase = None
    while not game.is_over:
        seat = game.to_move
        history = view(game, human).history
        for actor, text in history[shown:]:
            if actor != human:
                move = notation_text(text, material, lang)
                line = msg("cli.moved", seat=f"P{actor + 1}", name=names[actor], move=move)
                console.print("  " + line, markup=False)
        shown = len(history)
        if game.phase is Phase.DEAL_END and last_phase is not Phase.DEAL_END:
            result = game.results[-1]
            for seat_shown, hand in enumerate(result.showdown):
                # RULES §6.6: every hand is laid out at the showdown.
                points = result.rack_values[seat_shown]
                line = msg(
                    "cli.shows",
                    seat=f"P{seat_shown + 1}",
                    hand=notation_text(hand, material, lang),
                    points=points,
                )
                console.print("  " + line, markup=False)
            console.print(render_breakdown(result, names, deal_notes(game, result, lang), lang))
            console.print(render_results(game.results, names, lang))
        last_phase = game.phase
        if game.phase is Phase.DEAL_END:
            # Every deal ends with a pause for the person at the table: a bot moving
            # first never starts the next deal for them.
            try:
                read_line(msg("cli.deal_over_prompt"))
            except EOFError:
                console.print("\n" + msg("cli.input_ended"))
                break
            game.apply(NextDeal())
            shown = 0
            continue
        bot = bots[seat]
        if bot is not None:
            action = bot.choose(view(game, seat), seat_legal_actions(game, seat), rng)
            game.apply(action)
            continue
        console.print(render_view(view(game, human), names, sort_by, lang))
        verbs = dict.fromkeys(str(a).split()[0] for a in seat_legal_actions(game, human))
        console.print(f"[dim]{escape(msg('cli.you_can', verbs=', '.join(verbs)))}[/]")
        try:
            line = read_line(f"P{human + 1}> ").strip()
        except EOFError:
            console.print("\n" + msg("cli.input_ended"))
            break
        if not line:
            continue
        word = line.split()[0].lower()
        if word in ("quit", "exit"):
            console.print(msg("cli.bye"))
            break
        if word == "help":
            console.print(help_text(game, lang), markup=False)
            continue
        if word == "legal":
            legal = ", ".join(
                notation_text(str(a), material, lang) for a in seat_legal_actions(game, human)
            )
            console.print(msg("cli.legal_now", actions=legal), markup=False)
            continue
        if word == "hint":
            found = hints(game)
            if not found:
                console.print(msg("cli.no_hints"))
            for h in found:
                console.print(_hint_line(h, msg, material), markup=False)
            continue
        if word == "sort":
            arg = line.split()[1:2]
            if arg and arg[0] in ("colour", "color", "number"):
                sort_by = "number" if arg[0] == "number" else "colour"
            else:
                console.print(msg("cli.sort_usage"))
            continue
        if word == "scores":
            console.print(render_results(game.results, names, lang))
            continue
        if word == "save":
            parts = line.split(maxsplit=1)
            if len(parts) < 2:
                console.print(msg("cli.save_usage"))
                continue
            try:
                save_record(game, parts[1], seats_json)
            except OSError as exc:
                console.print(f"[red]{escape(msg('cli.cannot_save', error=exc))}[/]")
            else:
                console.print(escape(msg("cli.saved", path=parts[1])))
            continue
        try:
            typed: Action = parse_action(
                _normalise(notation_from(line, material, lang), game), material
            )
            warning = penalty_warning(view(game, human), typed) if game.can(typed) else None
            if warning is not None:
                shown_warning = msg.local(warning) or msg("warning.title")
                console.print(f"[yellow]{escape(msg('cli.warning', text=shown_warning))}[/]")
                try:
                    prompt = msg("cli.anyway", action=notation_text(str(typed), material, lang))
                    answer = read_line(prompt).strip().lower()
                except EOFError:
                    console.print("\n" + msg("cli.input_ended"))
                    break
                if answer not in ("y", "yes", "d", "da", "j", "ja", "t", "tak", "д", "да"):
                    console.print(msg("cli.cancelled"))
                    continue
            before = list(view(game, human).rack)
            game.apply(typed)
            if isinstance(typed, Draw):
                after = list(view(game, human).rack)
                for face in before:
                    after.remove(face)
                drawn = " ".join(face_markup(f, lang) for f in after)
                console.print(msg("cli.you_drew", pieces=drawn))
        except NotationError as exc:
            text = str(exc) if lang == "en" else msg("cli.not_understood", text=line)
            console.print(f"[red]{escape(text)}[/]")
        except IllegalActionError as exc:
            if lang == "en":
                text = str(exc)
            else:
                detail = msg.local(str(exc))
                text = msg("error.illegal_action") + (f": {detail}" if detail else "")
            console.print(f"[red]{escape(text)}[/]")
    if game.results:
        console.print(render_results(game.results, names, lang))
    if game.is_over:
        seats = game.winners()
        winners = ", ".join(f"P{s + 1} {names[s]}" for s in seats)
        console.print(msg("cli.match_over", names=escape(winners), total=game.totals[seats[0]]))
    if save_to is not None:
        try:
            save_record(game, save_to, seats_json)
        except OSError as exc:
            console.print(f"[red]{escape(msg('cli.cannot_save_record', error=exc))}[/]")
        else:
            console.print(escape(msg("cli.record_saved", path=save_to)))
