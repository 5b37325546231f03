"""Interactive play (cli/play.py), driven by a scripted read_line and a captured console."""

from __future__ import annotations

import io
import random
from collections.abc import Iterable
from pathlib import Path

import pytest
from rich.console import Console

from kit import three
from romme_support import romme_game
from rummykit.bots import Bot, GreedyBot, RandomBot, play_to_end
from rummykit.cli.play import COMMANDS, help_text, play_interactive
from rummykit.engine.actions import Ready
from rummykit.engine.game import Game, Phase
from rummykit.engine.position import analysis_game
from rummykit.engine.record import load_record, replay
from rummykit.engine.view import view
from rummykit.model.pieces import Material, parse_faces

HUMAN = 0


class Script:
    """read_line that answers with scripted lines, then raises EOFError."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def _console() -> Console:
    return Console(file=io.StringIO(), width=200, color_system=None, highlight=False)


def _text(console: Console) -> str:
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def _game(seed: int = 3) -> Game:
    return Game("remi_ro", 2, seed=seed)


def run(
    lines: Iterable[str],
    game: Game | None = None,
    save_to: Path | None = None,
    lang: str = "en",
) -> tuple[Game, str, Script]:
    """Play HUMAN = P1 against one greedy bot with scripted input."""
    game = _game() if game is None else game
    bots: list[Bot | None] = [None if s == HUMAN else GreedyBot() for s in range(game.players)]
    names = ["you" if b is None else b.name for b in bots]
    script = Script(lines)
    console = _console()
    play_interactive(game, HUMAN, bots, names, random.Random(1), console, script, save_to, lang)
    return game, _text(console), script


def _human_actions(game: Game) -> list[str]:
    return [str(a) for s, a in game.log if s == HUMAN]


# --------------------------------------------------------------------- commands


def test_greeting_bot_moves_and_prompt() -> None:
    game, text, script = run([])
    assert text.startswith("rummykit — Romanian tile Rummy")
    assert "You are P1. Type help for commands." in text
    assert script.prompts == ["P1> "]
    # The bot's public actions before the first prompt are shown.
    for seat, action in game.log:
        assert seat != HUMAN
        assert f"  P2 greedy: {action}" in text
    assert "Your rack " in text


def test_eof_leaves_the_game() -> None:
    game, text, _ = run([])
    assert "Input ended; leaving the game." in text
    assert not game.is_over
    assert "Match over" not in text


@pytest.mark.parametrize("word", ["quit", "exit", "QUIT"])
def test_quit_stops_reading(word: str) -> None:
    game, text, script = run([word, "ready", "draw"])
    assert "Bye." in text
    assert script.lines == ["ready", "draw"]  # nothing after quit is read
    assert _human_actions(game) == []


def test_help_prints_the_command_list() -> None:
    game, text, _ = run(["help"])
    shown_help = help_text(game)
    assert shown_help in text
    for command in (
        "draw",
        "take [N]",
        "meld",
        "attach",
        "exchange",
        "discard",
        "three",
        "board",
        "reset",
        "legal",
        "hint",
        "sort colour|number",
        "scores",
        "save FILE",
        "quit",
    ):
        assert command in shown_help


def test_hint_command_suggests_for_the_human() -> None:
    rack = parse_faces("R8 R6 B2 B3 K13", Material.TILES)
    run_with_joker = [(f, None) for f in parse_faces("R5 J R7", Material.TILES)]
    game = analysis_game("remi_ro", rack, [run_with_joker], players=2, opened=True)
    _, text, _ = run(["hint"], game)
    assert "hint: attach: attach R8 -> m1  (extends m1 [R5 J(R6) R7])" in text
    assert "hint: exchange: exchange R6 -> m1" in text
    assert "hint: discard: discard K13" in text
    # Before play (announcements) only atu can be suggested.
    _, text, _ = run(["hint"], _game())
    assert "No hints: draw or take first." not in text
    assert "No hints now." in text or "hint: atu: atu" in text


def test_hint_and_warning_before_the_three_penalty() -> None:
    # Issue 12 (10), RULES §9.11: with 4 tiles the discard leaves 3; the hint names the
    # announcement first, and a discard without it asks for confirmation.
    rack = parse_faces("Y9 R2 B5 K11", Material.TILES)
    game = analysis_game("remi_ro", rack, players=2, opened=True)
    _, text, _ = run(["hint"], game)
    assert "hint: discard: three; discard K11" in text
    game = analysis_game("remi_ro", rack, players=2, opened=True)
    game, text, script = run(["discard Y9", "n", "three", "discard Y9"], game)
    assert "Warning: ending the turn with 3 tiles without announcing 'three'" in text
    assert "-500" in text and "Cancelled." in text
    assert script.prompts[:2] == ["P1> ", "discard Y9 anyway? [y/N] "]
    assert _human_actions(game)[:2] == ["three", "discard Y9"]
    assert not three(game).violation[HUMAN]
    # Confirming plays the move (and the rule applies).
    game = analysis_game("remi_ro", rack, players=2, opened=True)
    game, _, _ = run(["discard Y9", "y"], game)
    assert _human_actions(game)[:1] == ["discard Y9"]


def test_hint_after_a_partial_opening_and_before_drawing() -> None:
    # Issue 12 (11), RULES §8.5: 36 of the 40 points are down; the hint completes them.
    game = romme_game(2, {0: "2H 3H 4H 9S 9D 9C QS QH QD"})
    game, text, _ = run(["hint", "draw", "meld 2H 3H 4H", "meld 9S 9D 9C", "hint"], game)
    assert "hint: draw: draw" in text or "hint: take: take 0" in text
    assert "No hints" not in text
    assert "hint: laydown: meld [QS QH QD]  (completes the opening: 36 points" in text


def test_legal_lists_the_legal_actions() -> None:
    game = _game()
    probe = _game()
    # Let the bot make the same pre-play moves on a probe to know the human's legal list.
    bot = GreedyBot()
    while probe.to_move != HUMAN:
        probe.apply(bot.choose(view(probe, probe.to_move), probe.legal_actions(), random.Random(1)))
    expected = "Legal now: " + ", ".join(str(a) for a in probe.legal_actions())
    _, text, _ = run(["legal"], game)
    assert expected in text
    assert "ready" in expected


def test_garbage_input_prints_an_error_and_continues() -> None:
    game, text, script = run(["xyzzy plugh", "meld R99", "discard", "ready"])
    assert "'xyzzy plugh' is not an action" in text
    assert "'R99' is not a tile" in text
    assert "Input ended" in text
    assert _human_actions(game) == ["ready"]
    assert len(script.prompts) >= 5


def test_illegal_action_prints_the_rule_and_changes_nothing() -> None:
    game, text, _ = run(["draw", "discard R5"])
    assert "illegal action 'draw'" in text
    assert "[RULES" in text
    assert _human_actions(game) == []
    assert game.phase is Phase.PREPLAY


def test_empty_lines_are_ignored() -> None:
    game, text, script = run(["", "   ", "ready"])
    assert _human_actions(game) == ["ready"]
    assert "is not an action" not in text
    assert "empty action" not in text
    assert len(script.prompts) >= 4


def test_a_typed_action_is_played_then_the_bots_continue() -> None:
    game, text, _ = run(["ready"])
    assert (HUMAN, Ready()) in game.log
    assert game.phase is not Phase.PREPLAY
    assert game.to_move == HUMAN  # the bot moved on until it was the human's turn again
    assert "· round1 ·" in text or "· turns ·" in text


def test_meld_brackets_are_optional() -> None:
    # In pre-play both spellings reach the engine (and are refused by its rule, not the parser).
    _, text, _ = run(["meld R5 R6 R7", "meld [R5 R6 R7]"])
    assert text.count("illegal action 'meld [R5 R6 R7]'") == 2


def test_sort_changes_the_rack_order() -> None:
    game, text, _ = run(["sort number", "sort colour", "sort sideways"])
    racks = [line for line in text.splitlines() if line.startswith("Your rack ")]
    assert len(racks) == 4
    by_number = racks[1].split()[2:]
    by_colour = racks[2].split()[2:]
    assert sorted(by_number) == sorted(by_colour)
    assert racks[0] == racks[2]
    assert "Use: sort colour  or  sort number" in text
    rack = sorted(
        game.rack_faces(HUMAN), key=lambda f: (f.rank if not f.is_joker else 99, f.suit_index)
    )
    assert by_number == [str(f) for f in rack]


def test_scores_prints_the_score_table() -> None:
    _, text, _ = run(["scores"])
    assert "Scores" in text
    assert "P1 you" in text
    assert "P2 greedy" in text


def test_save_command_writes_a_record(tmp_path: Path) -> None:
    target = tmp_path / "now.json"
    _, text, _ = run(["ready", f"save {target}", "save"])
    assert f"Saved to {target}." in text
    assert "Use: save FILE" in text
    record = load_record(target)
    assert record["seats"] == [{"seat": 0, "name": "you"}, {"seat": 1, "name": "greedy"}]
    assert record["finished"] is False
    assert {"seat": HUMAN, "action": "ready"} in record["actions"]
    assert len(replay(record).game.log) == len(record["actions"])


def test_save_to_is_written_when_input_ends(tmp_path: Path) -> None:
    target = tmp_path / "end.json"
    game, text, _ = run(["ready"], save_to=target)
    assert f"Record saved to {target}." in text
    record = load_record(target)
    assert len(record["actions"]) == len(game.log)
    assert replay(record).game.to_move == game.to_move


def test_save_to_is_written_after_quit(tmp_path: Path) -> None:
    target = tmp_path / "quit.json"
    run(["quit"], save_to=target)
    assert load_record(target)["finished"] is False


def test_a_full_match_typed_by_a_scripted_player(tmp_path: Path) -> None:
    """The human types what a greedy bot would play; the match runs to its end."""
    game = _game(seed=5)
    me = GreedyBot()
    rng = random.Random(2)
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Deal over"):
            return ""
        if len(prompts) > 2000:
            raise EOFError
        return str(me.choose(view(game, HUMAN), game.legal_actions(), rng))

    console = _console()
    target = tmp_path / "match.json"
    play_interactive(
        game,
        HUMAN,
        [None, GreedyBot()],
        ["you", "greedy"],
        random.Random(1),
        console,
        read_line,
        target,
    )
    text = _text(console)
    assert game.is_over
    assert "illegal action" not in text
    assert "is not" not in text
    best = max(game.totals)
    winners = ", ".join(
        f"P{s + 1} {n}" for s, n in enumerate(["you", "greedy"]) if game.totals[s] == best
    )
    assert f"Match over. Winner: {winners} with {best}." in text
    record = load_record(target)
    assert record["finished"] is True
    assert replay(record).game.totals == game.totals


def test_the_human_presses_enter_for_the_next_deal() -> None:
    game = _game(seed=1)
    bots = [GreedyBot(), GreedyBot()]
    play_to_end(game, bots, random.Random(1), stop_at_deal_end=True)
    human = game.to_move
    assert game.phase is Phase.DEAL_END
    seats: list[Bot | None] = [None if s == human else GreedyBot() for s in range(2)]
    script = Script([""])
    console = _console()
    play_interactive(game, human, seats, ["a", "b"], random.Random(0), console, script)
    assert script.prompts[0] == "Deal over. Press Enter for the next deal. "
    assert game.deal_number == 1
    assert "Scores" in _text(console)


# --------------------------------------------------------------------- bugs


def test_eof_at_the_deal_over_prompt_ends_gracefully(tmp_path: Path) -> None:
    game = _game(seed=1)
    play_to_end(game, [GreedyBot(), GreedyBot()], random.Random(1), stop_at_deal_end=True)
    human = game.to_move
    seats: list[Bot | None] = [None if s == human else GreedyBot() for s in range(2)]
    console = _console()
    target = tmp_path / "eof.json"
    play_interactive(game, human, seats, ["a", "b"], random.Random(0), console, Script([]), target)
    assert target.exists()


def test_input_with_markup_characters_does_not_crash() -> None:
    _, text, _ = run(["discard [/x]", "quit"])
    assert "Bye." in text


def test_save_to_a_missing_folder_reports_an_error(tmp_path: Path) -> None:
    _, text, _ = run([f"save {tmp_path / 'missing' / 'x.json'}", "quit"])
    assert "Bye." in text


def test_take_with_an_empty_column_says_so() -> None:
    _, text, _ = run(["take"])
    assert "the column is empty" in text


def test_help_in_a_card_game_speaks_of_cards() -> None:
    """Card variants get the card notation (7H, JK(9H)) and the card commands."""
    game = Game("double", 2, seed=3)
    _, text, _ = run(["help"], game=game)
    card_help = help_text(game)
    assert card_help in text and help_text(_game()) not in text
    for command in (
        "draw",
        "take [N]",
        "meld 7H 8H JK(9H)",
        "attach",
        "discard",
        "reset",
        "legal",
        "scores",
        "save FILE",
        "quit",
    ):
        assert command in card_help


def test_a_continental_player_goes_out_by_typing_out() -> None:
    """RULES §7.6 at the prompt: draw, then 'out KC' lays out 15 cards and closes."""
    from continental_support import con_game

    game = con_game(2, racks={0: "3H 4H 5H 6S 7S 8S 9C 10C JC QD KD AD 5C 6C KC"}, stock="7C")
    game, text, _ = run(["draw", "out KC", "quit"], game=game)
    assert "Deal 1 · round 1" in text  # §7.9: no fixed number of deals to show
    assert "38" in text  # P1's chips after the settlement (20 + 18)
    assert _human_actions(game)[:2] == ["draw", "out KC"]
    assert game.results[0].closer == HUMAN
    assert "out KC" in help_text(game)


def test_vienna_commands_are_in_vienna_s_help_only() -> None:
    """'remi' is Vienna's call (RULES §6): the other games' help leaves it out."""
    assert "remi | remi 9D" in help_text(Game("vienna", 2, seed=1))
    for other in ("remi_ro", "romme", "continental", "basic"):
        assert "remi | remi" not in help_text(Game(other, 2, seed=1)), other


VARIANTS = ("basic", "continental", "double", "german2", "remi_ro", "remmi_de", "romme", "vienna")


def _taught_verbs(game: Game) -> set[str]:
    shown = help_text(game)
    return {
        verb
        for command in COMMANDS
        if (command.tiles in shown or command.cards in shown)
        for verb in command.verbs
        if command.applies(game.variant, game.play)
    }


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_variant_s_help_teaches_its_moves_and_only_those(variant: str) -> None:
    """Issue 13 item 7: every move the game allows in seeded games is taught by its
    help, and Rommé's help no longer lists Vienna's or Continental's commands."""
    seen: set[str] = set()
    for seed in range(2):
        # One deal per seed (seat 0 plays randomly, to reach rarer moves), capped.
        game = Game(variant, seed=seed)
        rng = random.Random(seed)
        bots = [RandomBot()] + [GreedyBot() for _ in range(1, game.players)]
        for _ in range(400):
            if game.phase in (Phase.DEAL_END, Phase.MATCH_END):
                break
            legal = game.legal_actions()
            seen.update(str(a).split()[0] for a in legal)
            seat = game.to_move
            game.apply(bots[seat].choose(view(game, seat), legal, rng))
    seen.discard("next")  # the deal-over pause, not a command
    taught = _taught_verbs(Game(variant, seed=0))
    assert seen <= taught, f"{variant}: not in help {seen - taught}"
    if variant == "romme":
        shown = help_text(Game(variant, seed=0))
        for foreign in ("remi | remi 9D", "out KC", "three", "board", "atu", "reclaim"):
            assert foreign not in shown, foreign


def test_a_bot_never_starts_the_next_deal_for_the_human() -> None:
    """Issue 13 item 7: after a deal the sheet is shown and the table waits for the
    person, even when a bot would move first."""
    game = _game(seed=1)
    play_to_end(game, [GreedyBot(), GreedyBot()], random.Random(1), stop_at_deal_end=True)
    human = 1 - game.to_move  # the bot is the one to start the next deal
    seats: list[Bot | None] = [None if s == human else GreedyBot() for s in range(2)]
    script = Script([])
    console = _console()
    play_interactive(game, human, seats, ["a", "b"], random.Random(0), console, script)
    assert script.prompts == ["Deal over. Press Enter for the next deal. "]
    assert game.deal_number == 0, "the bot started the next deal"
    text = _text(console)
    assert "bonuses and penalties" in text and "Deal 1: " in text
    result = game.results[-1]
    if result.closer is not None:
        assert "closed the deal" in text


def test_a_german_session_speaks_german_and_reads_german_pieces() -> None:
    """Issue 13 item 7: --lang de: messages in German, no English engine text, piece
    names as German players write them, and input in either writing."""
    game = Game("basic", 2, seed=4)
    rack = [str(f) for f in view(game, HUMAN).rack]
    german_piece = rack[0]
    from rummykit.cli.render import face_text

    shown = face_text(german_piece, "de")
    game, text, script = run(["help", f"discard {shown}", "legal", "quit"], game=game, lang="de")
    assert "Du bist P1" in text and "Tschüss." in text
    # Discarding before drawing is refused: the German reason, not the engine's English.
    assert "Nicht erlaubt" in text
    for english in ("You are", "Legal now", "Bye.", "not allowed", "must draw", "is not"):
        assert english not in text, english
    assert "Jetzt erlaubt: draw" in text
    rack_line = next(line for line in text.splitlines() if line.startswith("Dein Bänkchen "))
    # Every card is written German (each suit differs: Ka, He, Pi, Kr).
    assert sorted(rack_line.split()[2:]) == sorted(face_text(f, "de") for f in rack)
    assert script.prompts[0] == "P1> "
