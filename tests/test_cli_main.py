"""The `rummykit` command line (cli/main.py), through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rummykit import __version__
from rummykit.cli.main import SIMULATION_DEALS, cli
from rummykit.engine.record import load_record
from rummykit.rules import all_variants, find_variant

COMMANDS = ("play", "simulate", "rules", "meld", "solve", "hint", "replay")


@pytest.fixture
def runner() -> CliRunner:
    # A wide, colourless "terminal" so rich tables are not wrapped or styled.
    return CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "FORCE_COLOR": None, "TERM": "dumb"})


def invoke(runner: CliRunner, *args: str, input: str | None = None) -> Result:
    return runner.invoke(cli, list(args), input=input)


def ok(runner: CliRunner, *args: str, input: str | None = None) -> str:
    result = invoke(runner, *args, input=input)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def usage_error(runner: CliRunner, *args: str) -> str:
    result = invoke(runner, *args)
    assert result.exit_code == 2, result.output
    assert "Error:" in result.output
    return result.output


def as_json(runner: CliRunner, *args: str) -> Any:
    return json.loads(ok(runner, *args))


# --------------------------------------------------------------------- help


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_top_level_help(runner: CliRunner, flag: str) -> None:
    out = ok(runner, flag)
    assert "Usage:" in out
    assert "play, simulate, replay and analyse" in out
    for command in COMMANDS:
        assert command in out


def test_version(runner: CliRunner) -> None:
    assert __version__ in ok(runner, "--version")


@pytest.mark.parametrize(
    ("command", "phrases"),
    [
        (
            "play",
            ["Play against bots", "--players", "--seed", "--bots", "--seat", "--save", "--option"],
        ),
        ("simulate", ["Play bot games", "--games", "--jobs", "--json", "--save", "--bots"]),
        ("rules", ["rules summary", "--option", "--players"]),
        ("meld", ["valid formation", "opening points", "--json"]),
        ("solve", ["best opening", "least deadwood", "--hand", "--goal", "--keep", "--json"]),
        ("hint", ["joker", "--hand", "--table", "--opened", "--announced", "--json"]),
        ("replay", ["Re-check every action", "--json", "FILE"]),
    ],
)
def test_command_help(runner: CliRunner, command: str, phrases: list[str]) -> None:
    out = " ".join(ok(runner, command, "--help").split())
    assert f"Usage: cli {command}" in out or f"Usage: rummykit {command}" in out
    for phrase in phrases:
        assert phrase in out


def test_unknown_command(runner: CliRunner) -> None:
    out = usage_error(runner, "dance")
    assert "dance" in out


# --------------------------------------------------------------------- rules


def test_rules_lists_the_variants(runner: CliRunner) -> None:
    out = ok(runner, "rules")
    assert "remi_ro" in out
    assert "rummy45" in out
    assert "2-4" in out


def test_rules_of_a_variant_by_alias(runner: CliRunner) -> None:
    out = ok(runner, "rules", "remi")
    assert "(remi_ro; aliases: remi, rummy45" in out
    assert "RULES §9" in out
    assert "Players: 2-4." in out
    assert "opening_min_points = 45" in out
    assert "match_deals = 4" in out
    assert not any(line.startswith(" *") for line in out.splitlines())


def test_rules_defaults_follow_the_player_count(runner: CliRunner) -> None:
    assert "match_deals = 2" in ok(runner, "rules", "remi_ro", "-p", "2")


def test_rules_marks_a_changed_option(runner: CliRunner) -> None:
    out = ok(runner, "rules", "remi", "-o", "mosaic_strict=false")
    lines = out.splitlines()
    changed = next(line for line in lines if "mosaic_strict =" in line)
    assert changed.startswith(" *mosaic_strict = false (default true)")
    unchanged = next(line for line in lines if "direction =" in line)
    assert unchanged.startswith("  direction = ")
    starred = [line for line in lines if line.startswith(" *")]
    assert starred == [changed]


def test_rules_several_options(runner: CliRunner) -> None:
    out = ok(
        runner,
        "rules",
        "remi_ro",
        "-o",
        "atu_bonus=100",
        "--option",
        "opening_structure=run_and_set",
    )
    starred = [
        line.split(" =")[0].strip(" *") for line in out.splitlines() if line.startswith(" *")
    ]
    assert starred == ["atu_bonus", "opening_structure"]


def test_unknown_variant_is_a_usage_error(runner: CliRunner) -> None:
    out = usage_error(runner, "rules", "canasta")
    assert "unknown variant 'canasta'" in out
    assert "remi_ro" in out


def test_unknown_option_names_the_allowed_ones(runner: CliRunner) -> None:
    out = usage_error(runner, "rules", "remi", "-o", "colour_blind=true")
    assert "unknown option 'colour_blind'" in out
    assert "allowed:" in out
    assert "mosaic_strict" in out
    assert "opening_min_points" in out


@pytest.mark.parametrize(
    ("pair", "allowed"),
    [
        ("mosaic_strict=maybe", "true | false"),
        ("direction=sideways", '"counterclockwise" | "clockwise"'),
        ("atu_bonus=lots", "an integer"),
    ],
)
def test_bad_option_value_names_the_allowed_values(
    runner: CliRunner, pair: str, allowed: str
) -> None:
    out = usage_error(runner, "rules", "remi", "-o", pair)
    assert "not allowed" in out
    assert allowed in out


def test_option_without_a_value(runner: CliRunner) -> None:
    assert "write options as NAME=VALUE" in usage_error(runner, "rules", "remi", "-o", "atu_bonus")


# --------------------------------------------------------------------- meld


def test_meld_json_valid_run(runner: CliRunner) -> None:
    out = ok(runner, "meld", "remi_ro", "R12", "R13", "R1", "--json")
    assert out.strip() == '{"valid": true, "kind": "run", "opening_points": 30, "reason": null}'


def test_meld_json_invalid_wrap(runner: CliRunner) -> None:
    data = as_json(runner, "meld", "remi_ro", "R13", "R1", "R2", "--json")
    assert data["valid"] is False
    assert data["kind"] is None
    assert data["opening_points"] is None
    assert "not consecutive" in data["reason"]


def test_meld_bare_jokers_take_the_best_reading(runner: CliRunner) -> None:
    data = as_json(runner, "meld", "remi", "R5", "J", "J", "--json")
    assert data == {"valid": True, "kind": "run", "opening_points": 15, "reason": None}
    data = as_json(runner, "meld", "remi", "R1", "J", "J", "--json")
    assert data == {"valid": True, "kind": "set", "opening_points": 75, "reason": None}


def test_meld_repeated_colour_is_not_a_set(runner: CliRunner) -> None:
    data = as_json(runner, "meld", "remi", "B7", "B7", "R7", "--json")
    assert data["valid"] is False
    assert "different suits/colours" in data["reason"]


def test_meld_declared_jokers_and_brackets(runner: CliRunner) -> None:
    data = as_json(runner, "meld", "remi_ro", "[R12", "R13", "J(R1)]", "--json")
    assert data == {"valid": True, "kind": "run", "opening_points": 30, "reason": None}


def test_meld_text_output(runner: CliRunner) -> None:
    assert ok(runner, "meld", "remi_ro", "R12", "R13", "R1").strip() == (
        "valid run, 30 opening points"
    )
    assert ok(runner, "meld", "remi_ro", "B7", "B7", "R7").strip() == (
        "not a formation: a set needs different suits/colours"
    )


def test_meld_errors(runner: CliRunner) -> None:
    assert "'X9' is not a tile" in usage_error(runner, "meld", "remi_ro", "X9", "R1", "R2")
    assert "unknown variant" in usage_error(runner, "meld", "nope", "R1", "R2", "R3")
    assert "PIECES" in usage_error(runner, "meld", "remi_ro")


def not_in_pack(runner: CliRunner, *args: str) -> str:
    """A piece outside the variant's pack: exit 1, one line on stderr; with --json, a
    JSON error on stdout naming the piece and the rule."""
    line = one_line_failure(invoke(runner, *args))
    result = invoke(runner, *args, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert set(data) == {"error", "piece", "rule"}
    assert data["rule"] in line
    assert data["piece"] in line
    return line


@pytest.mark.parametrize(("variant", "rule"), [("basic", "§3.1"), ("german2", "§5.1")])
def test_meld_refuses_a_joker_in_a_game_without_jokers(
    runner: CliRunner, variant: str, rule: str
) -> None:
    """RULES §3.1, §5.1: neither Basic Rummy nor German Rummy for two has jokers."""
    line = not_in_pack(runner, "meld", variant, "5H", "6H", "JK")
    assert line.startswith(f"Error: JK is not in the {variant} pack")
    assert f"(RULES {rule})" in line


def test_meld_follows_the_options_that_decide_the_pack(runner: CliRunner) -> None:
    """RULES §8.1/A-34: Rommé has jokers unless jokers_per_deck = 0."""
    assert ok(runner, "meld", "romme", "5H", "6H", "JK").startswith("valid run")
    line = not_in_pack(runner, "meld", "romme", "5H", "6H", "JK", "-o", "jokers_per_deck=0")
    assert "§8.1" in line
    assert "§9.1" in not_in_pack(runner, "meld", "remi_ro", "J", "J", "J", "R5")


def test_solve_and_hint_refuse_pieces_outside_the_pack(runner: CliRunner) -> None:
    line = not_in_pack(runner, "solve", "basic", "--hand", "5H 6H 7H JK", "--goal", "laydown")
    assert "JK" in line and "§3.1" in line
    line = not_in_pack(runner, "hint", "german2", "--hand", "5H 6H JK")
    assert "JK" in line and "§5.1" in line
    # The hand and the table together: basic has one 5H.
    line = not_in_pack(runner, "hint", "basic", "--hand", "5H 9C", "--table", "[5H 6H 7H]")
    assert "5H is named 2 times" in line


# --------------------------------------------------------------------- solve


def test_solve_ones_set_opening(runner: CliRunner) -> None:
    out = ok(
        runner, "solve", "remi_ro", "--hand", "R1 B1 K1 R9 B9 Y9", "--goal", "opening", "--json"
    )
    assert json.loads(out) == {"melds": [["R1", "B1", "K1"]], "points": 75, "valid_opening": True}
    assert out.strip() == '{"melds": [["R1", "B1", "K1"]], "points": 75, "valid_opening": true}'


@pytest.mark.parametrize(
    ("hand", "structure", "valid", "points"),
    [
        # RRT-09, default structure (a run, or a lone set of 1s)
        ("Y3 Y4 Y5 R10 B10 K10", None, True, 45),
        ("R10 B10 K10 R11 B11 Y11", None, False, None),
        ("R1 B1 K1", None, True, 75),
        ("R1 B1 K1 R9 B9 Y9", None, True, 75),  # (d): the 9s wait; the 1s alone open
        ("R9 R10 R11 R12 R13", None, True, 45),
        # RRT-09 with opening_structure = run_and_set
        ("Y3 Y4 Y5 R10 B10 K10", "run_and_set", True, 45),
        ("R1 B1 K1", "run_and_set", False, None),
        ("R9 R10 R11 R12 R13", "run_and_set", False, None),
        ("R10 B10 K10 R11 B11 Y11", "run_and_set", False, None),  # a run is still needed
    ],
)
def test_solve_rrt09(
    runner: CliRunner, hand: str, structure: str | None, valid: bool, points: int | None
) -> None:
    args = ["solve", "remi_ro", "--hand", hand, "--json"]
    if structure is not None:
        args += ["-o", f"opening_structure={structure}"]
    data = as_json(runner, *args)
    assert data["valid_opening"] is valid
    if valid:
        assert data["points"] == points
        laid = sorted(t for meld in data["melds"] for t in meld)
        assert set(laid) <= set(hand.split())


def test_solve_rrt09_a_lays_both_formations(runner: CliRunner) -> None:
    data = as_json(runner, "solve", "remi_ro", "--hand", "Y3 Y4 Y5 R10 B10 K10", "--json")
    assert sorted(map(sorted, data["melds"])) == [["B10", "K10", "R10"], ["Y3", "Y4", "Y5"]]


def test_solve_shows_declared_jokers_in_runs(runner: CliRunner) -> None:
    data = as_json(runner, "solve", "remi_ro", "--hand", "R12 R13 J R10 B10 K10", "--json")
    assert data == {
        "melds": [["R12", "R13", "J(R1)"], ["R10", "B10", "K10"]],
        "points": 60,
        "valid_opening": True,
    }


def test_solve_keep_leaves_tiles_on_the_rack(runner: CliRunner) -> None:
    data = as_json(
        runner, "solve", "remi_ro", "--hand", "Y3 Y4 Y5 R10 B10 K10", "--keep", "1", "--json"
    )
    assert data["valid_opening"] is False
    assert sum(len(m) for m in data["melds"]) <= 5


def test_solve_opening_threshold_option(runner: CliRunner) -> None:
    data = as_json(
        runner, "solve", "remi_ro", "--hand", "R12 R13 J", "-o", "opening_min_points=30", "--json"
    )
    assert data["valid_opening"] is True
    assert data["points"] == 30


def test_solve_text_output(runner: CliRunner) -> None:
    out = ok(runner, "solve", "remi_ro", "--hand", "R1 B1 K1 R9 B9 Y9")
    assert out.splitlines() == ["[R1 B1 K1]", "75 points: a valid opening"]
    assert ok(runner, "solve", "remi_ro", "--hand", "R2 B5").strip() == "no opening laydown"


def test_solve_errors(runner: CliRunner) -> None:
    assert "write jokers in a hand as plain J" in usage_error(
        runner, "solve", "remi_ro", "--hand", "J(R5) R6 R7"
    )
    assert "'opening'" in usage_error(runner, "solve", "remi_ro", "--hand", "R1", "--goal", "win")
    assert "--keep" in usage_error(
        runner, "solve", "remi_ro", "--hand", "R1", "--goal", "deadwood", "--keep", "1"
    )
    assert "14 or 15" in usage_error(
        runner, "solve", "remi_ro", "--hand", "R1", "--goal", "contract"
    )


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_solve_deadwood_for_every_variant(runner: CliRunner, variant: str) -> None:
    """Issue 3: `solve V --hand ... --goal deadwood` answers for every registered variant."""
    v = find_variant(variant)
    # Only pieces of the variant's pack (RULES §3.1, §5.1: no jokers in basic, german2).
    joker = "JK" if v.pieces(v.resolve(v.default_players)).joker_count else "9C"
    hand = "R1 R2 R3 B7 K7 Y7 J Y13" if v.material == "tiles" else f"AH 2H 3H 7S 7D 7C {joker} KD"
    data = as_json(runner, "solve", variant, "--hand", hand, "--goal", "deadwood", "--json")
    # A variant scored by layouts (Continental) also says whether the hand forms one.
    layouts = {"layout", "pattern"} if find_variant(variant).find_layout is not None else set()
    assert set(data) == {"melds", "deadwood", "deadwood_points"} | layouts
    assert sum(len(m) for m in data["melds"]) + len(data["deadwood"]) == 8
    assert isinstance(data["deadwood_points"], int)


def test_solve_every_goal_as_text(runner: CliRunner) -> None:
    hand = "R1 R2 R3 B7 K7 J Y13"
    lines = ok(runner, "solve", "remi_ro", "--hand", hand, "--goal", "deadwood").splitlines()
    assert lines[-1] == "deadwood: Y13 (10 points)"
    lines = ok(runner, "solve", "remi_ro", "--hand", hand, "--goal", "laydown").splitlines()
    assert lines[-1].endswith(" points")
    full_red = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 B4"
    out = ok(runner, "solve", "remi_ro", "--hand", full_red, "--goal", "contract")
    assert out.strip() == "monocolour (1500), closing with B4"
    assert ok(runner, "solve", "remi_ro", "--hand", "R1 R5", "--goal", "laydown").strip() == (
        "nothing to lay"
    )
    assert "--hand" in usage_error(runner, "solve", "remi_ro")


# --------------------------------------------------------------------- hint


def test_hint_text_and_json(runner: CliRunner) -> None:
    args = ["hint", "remi_ro", "--hand", "R8 R6 B2 B3 K13", "--table", "[R5 J R7] [B9 Y9 K9]"]
    lines = ok(runner, *args, "--opened").splitlines()
    assert lines == [
        "attach    attach R8 -> m1  (extends m1 [R5 J(R6) R7])",
        "exchange  exchange R6 -> m1  (frees the joker of m1 [R5 J(R6) R7])",
        "discard   discard K13  (keeps the rest best arranged: 20 points left unmatched)",
    ]
    data = as_json(runner, *args, "--opened", "--json")
    assert [h["topic"] for h in data] == ["attach", "exchange", "discard"]
    # Issue 13 item 6: with the reason's code and parameters, for interfaces to translate.
    assert all(set(h) == {"topic", "actions", "reason", "code", "params"} for h in data)
    # Not opened: no attachment (RULES §9.9), and no exchange either: an exchange is
    # allowed in the opening turn (§9.10, A-55) but the freed joker must go into a
    # 45-point opening this turn, which [B2 B3 J] is not.
    data = as_json(runner, *args, "--json")
    assert [h["topic"] for h in data] == ["discard"]
    # With the joker, [K10 K11 K12] + [B5 Y5 J] open with 45: the exchange is offered.
    hand = "R6 K10 K11 K12 B5 Y5 R2"
    opening = as_json(runner, "hint", "remi_ro", "--hand", hand, "--table", "[R5 J R7]", "--json")
    exchange = next(h for h in opening if h["topic"] == "exchange")
    assert exchange["actions"] == ["exchange R6 -> m1"]


def test_hint_names_the_three_announcement(runner: CliRunner) -> None:
    # Issue 12 (10), RULES §9.11: a discard that ends the turn with 3 tiles needs
    # 'three' first, unless it was announced earlier in the deal.
    args = ["hint", "remi_ro", "--hand", "Y9 R2 B5 K11", "--opened"]
    lines = ok(runner, *args).splitlines()
    assert lines[-1].startswith("discard   three; discard K11  (")
    assert "-500 (RULES §9.11)" in lines[-1]
    data = as_json(runner, *args, "--json")
    assert data[-1]["actions"] == ["three", "discard K11"]
    data = as_json(runner, *args, "--announced", "--json")
    assert data[-1]["actions"] == ["discard K11"]
    # Closing with the last tile needs no announcement.
    data = as_json(runner, "hint", "remi_ro", "--hand", "Y9", "--opened", "--json")
    assert data[-1]["actions"] == ["discard Y9"]
    assert "no 'three'" in usage_error(runner, "hint", "basic", "--hand", "9H", "--announced")


def test_hint_after_the_opening_is_never_a_short_laydown(runner: CliRunner) -> None:
    # Issue 12 (11), RULES §9.8: [Y3 Y4 Y5] alone is 15 of the 45 needed: a note, no move.
    data = as_json(runner, "hint", "remi_ro", "--hand", "Y3 Y4 Y5 B2 K7", "--json")
    assert data[0]["topic"] == "laydown"
    assert data[0]["actions"] == []
    assert "short of the 45 needed: wait" in data[0]["reason"]


def test_hint_for_a_card_variant(runner: CliRunner) -> None:
    data = as_json(
        runner, "hint", "basic", "--hand", "AH 2H 3H 7S KD", "--table", "[4H 5H 6H]", "--json"
    )
    assert data == [
        {
            "topic": "laydown",
            "actions": ["meld [AH 2H 3H]"],
            "reason": "lays 6 points, the most this rack can",
            "code": "laydown_most",
            "params": {"points": 6},
        },
        {
            "topic": "attach",
            "actions": ["attach 3H -> m1"],
            "reason": "extends m1 [4H 5H 6H]",
            "code": "attach",
            "params": {"target": 1, "notation": "[4H 5H 6H]"},
        },
        {
            "topic": "discard",
            "actions": ["discard KD"],
            "reason": "keeps the rest best arranged: 7 points left unmatched",
            "code": "discard_points",
            "params": {"piece": "KD", "left": 7, "remaining": 4},
        },
    ]


def test_hint_errors(runner: CliRunner) -> None:
    assert "not a formation" in usage_error(
        runner, "hint", "remi_ro", "--hand", "R1", "--table", "[R1 B7 K9]"
    )
    assert "plain J" in usage_error(runner, "hint", "remi_ro", "--hand", "J(R5)")


# --------------------------------------------------------------------- simulate and replay

SIM = ("simulate", "-v", "remi_ro", "-n", "4", "--bots", "greedy,random", "--json")


def test_simulate_json_summary(runner: CliRunner) -> None:
    data = as_json(runner, *SIM)
    assert {"games", "wins", "mean_deal_score", "turns_per_deal"} <= set(data)
    assert data["games"] == 4
    assert data["deals"] == 16
    assert data["bots"] == ["greedy", "random", "random", "random"]
    assert len(data["wins"]) == 4
    assert sum(data["wins"]) == pytest.approx(4)
    assert len(data["mean_deal_score"]) == 4
    assert data["turns_per_deal"] > 0


def test_simulate_is_deterministic_and_independent_of_jobs(runner: CliRunner) -> None:
    first = ok(runner, *SIM)
    assert ok(runner, *SIM) == first
    assert ok(runner, *SIM, "--jobs", "2") == first
    assert ok(runner, *SIM, "--seed", "1") != first


def test_simulate_table_output(runner: CliRunner) -> None:
    out = ok(runner, "simulate", "-v", "remi", "-n", "2", "-p", "2", "--seed", "5")
    assert "remi_ro: 2 games, 4 deals, seeds 5..6" in out
    for header in ("seat", "bot", "wins", "win %", "mean deal score"):
        assert header in out
    assert "turns per deal:" in out
    assert "deal ends:" in out


def test_simulate_errors(runner: CliRunner) -> None:
    assert "unknown bot 'deepblue'; choose from random, greedy" in usage_error(
        runner, "simulate", "-v", "remi_ro", "--bots", "greedy,deepblue"
    )
    assert "unknown variant" in usage_error(runner, "simulate", "-v", "nope")
    assert "--variant" in usage_error(runner, "simulate")
    assert "2 to 4 players" in usage_error(runner, "simulate", "-v", "remi_ro", "-p", "5")
    assert "unknown option" in usage_error(runner, "simulate", "-v", "remi_ro", "-o", "x=1")
    usage_error(runner, "simulate", "-v", "remi_ro", "-n", "0")


@pytest.fixture
def records(runner: CliRunner, tmp_path: Path) -> Path:
    out = tmp_path / "recs"
    ok(
        runner,
        "simulate",
        "-v",
        "remi_ro",
        "-n",
        "2",
        "-p",
        "2",
        "--bots",
        "greedy,random",
        "--save",
        str(out),
        "--json",
    )
    return out


def test_simulate_save_writes_replayable_records(runner: CliRunner, records: Path) -> None:
    files = sorted(p.name for p in records.iterdir())
    assert files == ["game-00000.json", "game-00001.json"]
    for name in files:
        out = ok(runner, "replay", str(records / name))
        assert "actions re-checked, all legal (remi_ro)" in out
        assert "Scores" in out
        assert "total" in out
        assert "not finished" not in out


def test_replay_json(runner: CliRunner, records: Path) -> None:
    path = records / "game-00000.json"
    data = as_json(runner, "replay", "--json", str(path))
    record = load_record(path)
    assert data["valid"] is True
    assert data["variant"] == "remi_ro"
    assert data["actions"] == len(record["actions"])
    assert data["deals"] == record["results"]
    assert data["totals"] == record["totals"]
    assert data["finished"] is True


def _tamper(path: Path, target: Path) -> int:
    """Turn one mid-game draw into a take of the dead tile (never legal); return its index."""
    record = json.loads(path.read_text(encoding="utf-8"))
    index = next(
        i for i, entry in enumerate(record["actions"]) if i > 10 and entry["action"] == "draw"
    )
    record["actions"][index]["action"] = "take 0"
    target.write_text(json.dumps(record), encoding="utf-8")
    return index


def test_replay_rejects_a_tampered_record(runner: CliRunner, records: Path) -> None:
    bad = records.parent / "bad.json"
    index = _tamper(records / "game-00001.json", bad)
    result = invoke(runner, "replay", str(bad))
    assert result.exit_code == 1
    assert f"invalid record: action {index}: illegal action 'take 0'" in result.output
    result = invoke(runner, "replay", "--json", str(bad))
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["valid"] is False
    assert data["index"] == index
    assert data["error"].startswith(f"action {index}: ")


def test_replay_rejects_changed_results(runner: CliRunner, records: Path) -> None:
    record = json.loads((records / "game-00000.json").read_text(encoding="utf-8"))
    record["results"][0]["scores"][0] += 5
    bad = records.parent / "scores.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    result = invoke(runner, "replay", str(bad))
    assert result.exit_code == 1
    assert "results differ" in result.output


def test_replay_of_a_file_that_is_not_a_record(runner: CliRunner, tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{}", encoding="utf-8")
    result = invoke(runner, "replay", str(junk))
    assert result.exit_code == 1
    assert "is not a rummykit-record file" in result.output
    assert "does not exist" in usage_error(runner, "replay", str(tmp_path / "missing.json"))


def one_line_failure(result: Result) -> str:
    """A handled failure: non-zero exit, no traceback, one line on stderr."""
    assert result.exit_code not in (0, None), result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def _edited(records: Path, name: str, edit: Any) -> Path:
    record = json.loads((records / "game-00000.json").read_text(encoding="utf-8"))
    edit(record)
    path = records.parent / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_replay_of_a_file_that_is_not_utf8(runner: CliRunner, records: Path) -> None:
    bad = records.parent / "latin1.json"
    bad.write_bytes((records / "game-00000.json").read_bytes().replace(b'"P1"', b'"P\xe91"'))
    bad.write_bytes(bad.read_bytes() + b"\xff")
    line = one_line_failure(invoke(runner, "replay", str(bad)))
    assert line.startswith("invalid record: cannot read record")
    assert "not UTF-8" in line


def test_replay_of_deeply_nested_json(runner: CliRunner, tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    line = one_line_failure(invoke(runner, "replay", str(deep)))
    assert "too deeply nested" in line
    result = invoke(runner, "replay", "--json", str(deep))
    assert result.exit_code == 1
    assert "too deeply nested" in json.loads(result.stdout)["error"]


def test_replay_rejects_edited_totals(runner: CliRunner, records: Path) -> None:
    def edit(record: dict[str, Any]) -> None:
        record["totals"][0] += 100

    bad = _edited(records, "totals.json", edit)
    line = one_line_failure(invoke(runner, "replay", str(bad)))
    assert "invalid record: the recorded totals" in line
    result = invoke(runner, "replay", "--json", str(bad))
    assert result.exit_code == 1
    assert json.loads(result.stdout)["valid"] is False


def test_replay_rejects_a_deal_total_edited_in_the_results(
    runner: CliRunner, records: Path
) -> None:
    def edit(record: dict[str, Any]) -> None:
        record["results"][0]["totals"][1] -= 1

    line = one_line_failure(invoke(runner, "replay", str(_edited(records, "deal.json", edit))))
    assert "deal 1 totals is recorded as" in line


@pytest.mark.parametrize(
    ("field", "value"), [("seed", "abc"), ("players", "2"), ("finished", "yes"), ("seats", 3)]
)
def test_replay_checks_the_type_of_every_field(
    runner: CliRunner, records: Path, field: str, value: Any
) -> None:
    def edit(record: dict[str, Any]) -> None:
        record[field] = value

    line = one_line_failure(invoke(runner, "replay", str(_edited(records, "typed.json", edit))))
    assert f"invalid record: field '{field}' must be" in line


# --------------------------------------------------------------------- serve


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Record the arguments ``serve`` would start the server with, never starting it."""
    import rummykit.server

    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(rummykit.server, "run", lambda *args, **kw: calls.append(args))
    return calls


@pytest.mark.parametrize("port", ["99999", "65536", "0", "-1"])
def test_serve_refuses_a_port_out_of_range(
    runner: CliRunner, no_server: list[tuple[Any, ...]], port: str
) -> None:
    out = usage_error(runner, "serve", "--port", port)
    assert "--port" in out
    assert "1<=x<=65535" in out
    assert no_server == []


def test_serve_passes_a_valid_port_and_database_on(
    runner: CliRunner, no_server: list[tuple[Any, ...]], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    out = ok(runner, "serve", "--port", "8123", "--database-url", url)
    assert "http://127.0.0.1:8123/" in out
    assert no_server == [("127.0.0.1", 8123, url)]


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("bogus://x", "bogus"),
        ("not a url", "not a database URL"),
        ("postgresql://nobody:secret@127.0.0.1:1/none", "cannot connect"),
    ],
)
def test_serve_refuses_a_database_it_cannot_open(
    runner: CliRunner, no_server: list[tuple[Any, ...]], url: str, reason: str
) -> None:
    line = one_line_failure(invoke(runner, "serve", "--database-url", url))
    assert line.startswith("Error: cannot open the database")
    assert reason in line
    assert "secret" not in line
    assert no_server == []


def test_serve_refuses_a_database_of_an_unknown_schema(
    runner: CliRunner, no_server: list[tuple[Any, ...]], tmp_path: Path
) -> None:
    """A database migrated by a newer rummykit (an unknown Alembic revision)."""
    import sqlite3

    path = tmp_path / "newer.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)")
        db.execute("INSERT INTO alembic_version VALUES ('fromthefuture')")
    line = one_line_failure(invoke(runner, "serve", "--database-url", f"sqlite:///{path}"))
    assert line.startswith("Error: cannot open the database")
    assert "fromthefuture" in line
    assert no_server == []


def test_serve_refuses_an_sqlite_file_in_a_missing_folder(
    runner: CliRunner, no_server: list[tuple[Any, ...]], tmp_path: Path
) -> None:
    folder = tmp_path / "missing"
    line = one_line_failure(
        invoke(runner, "serve", "--database-url", f"sqlite:///{folder / 'tables.db'}")
    )
    assert f"folder {folder} does not exist" in line
    assert not folder.exists()
    assert no_server == []


# --------------------------------------------------------------------- play


PLAY = ("play", "--players", "2", "--seed", "3")


def test_play_commands_then_quit(runner: CliRunner) -> None:
    out = ok(runner, *PLAY, input="help\nlegal\nfoo bar\nsort number\nquit\n")
    assert "You are P1" in out
    assert "P1> " in out
    assert "legal    " in out and "list every legal action now" in out  # help text
    assert "Legal now: " in out
    assert "'foo bar' is not an action" in out
    assert "Bye." in out
    assert "Traceback" not in out


def test_play_input_end_leaves_gracefully(runner: CliRunner) -> None:
    out = ok(runner, *PLAY, input="legal\n")
    assert "Input ended; leaving the game." in out


def test_play_save_writes_a_record_when_input_ends(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    out = ok(runner, *PLAY, "--save", str(target), input="ready\n")
    assert "Input ended" in out
    assert f"Record saved to {target}." in " ".join(out.split())
    record = load_record(target)
    assert record["finished"] is False
    assert record["seed"] == 3
    assert record["seats"][0] == {"seat": 0, "name": "you"}
    assert {"seat": 0, "action": "ready"} in record["actions"]
    replayed = ok(runner, "replay", str(target))
    assert "all legal" in replayed
    assert "The match is not finished." in replayed


def test_play_is_reproducible_with_a_seed(runner: CliRunner) -> None:
    assert ok(runner, *PLAY, input="ready\n") == ok(runner, *PLAY, input="ready\n")


def test_play_as_another_seat_with_a_random_bot(runner: CliRunner) -> None:
    out = ok(
        runner, "play", "-p", "3", "--seed", "1", "--seat", "2", "--bots", "random", input="quit\n"
    )
    assert "You are P2" in out
    assert "P2> " in out
    assert "random" in out


def test_play_errors(runner: CliRunner) -> None:
    assert "seat must be 1..2" in usage_error(runner, *PLAY, "--seat", "3")
    assert "unknown bot 'hal'" in usage_error(runner, *PLAY, "--bots", "hal")
    assert "2 to 4 players" in usage_error(runner, "play", "--players", "7")
    assert "unknown variant" in usage_error(runner, "play", "-v", "nope")
    assert "unknown option 'x'" in usage_error(runner, *PLAY, "-o", "x=1")


def test_play_survives_markup_in_the_input(runner: CliRunner) -> None:
    out = ok(runner, *PLAY, input="[/x]\nquit\n")
    assert "Bye." in out


def test_play_save_into_a_missing_folder_is_reported(runner: CliRunner, tmp_path: Path) -> None:
    result = invoke(runner, *PLAY, "--save", str(tmp_path / "no" / "such.json"), input="quit\n")
    assert not isinstance(result.exception, OSError), result.exception


# --------------------------------------------------------------------- Double Rummy


def test_double_rules_meld_simulate_and_replay(runner: CliRunner, tmp_path: Path) -> None:
    """RULES §4 through the command line: the rules page by alias with a changed option,
    a repeated-suit set, a short simulated match saved and replayed."""
    out = ok(runner, "rules", "dvostruki", "-o", "joker_count=3")
    assert "(double; aliases: dvostruki" in out and "RULES §4" in out
    starred = [line for line in out.splitlines() if line.startswith(" *")]
    assert len(starred) == 1 and starred[0].startswith(" *joker_count = 3 (default 2)")
    assert as_json(runner, "meld", "--json", "double", "7C", "7C", "7D")["kind"] == "set"
    # One pack in Basic Rummy (RULES §3.1): a second 7C does not exist there.
    assert "7C is named 2 times" in not_in_pack(runner, "meld", "basic", "7C", "7C", "7D")
    data = as_json(
        runner,
        "simulate",
        "-v",
        "double",
        "-n",
        "2",
        "-p",
        "3",
        "--bots",
        "greedy,random",
        "-o",
        "match_mode=deals",
        "-o",
        "match_deals=1",
        "--save",
        str(tmp_path),
        "--json",
    )
    assert data["games"] == 2 and sum(data["wins"]) == pytest.approx(2)
    for path in sorted(tmp_path.iterdir()):
        assert "all legal (double)" in ok(runner, "replay", str(path))


# --------------------------------------------------------------------- continental (§7)


def test_solve_layout_finds_a_continental_layout(runner: CliRunner) -> None:
    """§7.6: the 15 cards form the 5-4-3-3 layout, wild cards shown with what they are."""
    hand = "AH 3H 4H 5S 6S 7S 8S 9S 10S JD QD KD AD 2C JK"
    data = as_json(runner, "solve", "kontinentalni", "--hand", hand, "--goal", "layout", "--json")
    assert data["layout"] is True and data["deadwood"] == 0
    assert data["pattern"] == [5, 4, 3, 3]
    assert sorted(c for m in data["melds"] for c in m) == sorted(
        [
            "AH",
            "3H",
            "4H",
            "6S",
            "7S",
            "8S",
            "9S",
            "10S",
            "JD",
            "QD",
            "KD",
            "AD",
            "5S",
            "JK(3S)",
            "2C(4S)",
        ]
    )
    out = ok(runner, "solve", "continental", "--hand", hand, "--goal", "layout")
    assert "layout 5+4+3+3" in out and "[AH 3H 4H]" in out


def test_solve_layout_says_when_there_is_no_layout(runner: CliRunner) -> None:
    hand = "AH 3H 4H 5S 6S 7S 8S 9S 10S JD QD KD AD 5C 7C"
    data = as_json(runner, "solve", "continental", "--hand", hand, "--goal", "layout", "--json")
    assert data == {"layout": False, "pattern": None, "melds": [], "deadwood": None}
    assert "no layout" in ok(runner, "solve", "continental", "--hand", hand, "--goal", "layout")
    # A-26 (ii) under an option: the order A-2-3, so A-3-4 has a gap.
    natural = "AH 3H 4H 6S 7S 8S 9C 10C JC QD KD AD 5C 6C 7C"
    assert (
        as_json(runner, "solve", "continental", "--hand", natural, "--goal", "layout", "--json")[
            "layout"
        ]
        is True
    )
    assert (
        as_json(
            runner,
            "solve",
            "continental",
            "--hand",
            natural,
            "--goal",
            "layout",
            "-o",
            "deuce_has_natural_position=true",
            "--json",
        )["layout"]
        is False
    )


def test_solve_layout_is_refused_where_no_layout_exists(runner: CliRunner) -> None:
    assert "basic has no goal 'layout'" in usage_error(
        runner, "solve", "basic", "--hand", "AH 2H 3H", "--goal", "layout"
    )


def test_meld_continental_wild_deuces_and_no_sets(runner: CliRunner) -> None:
    """CON-03, CON-13 through the command line."""
    assert ok(runner, "meld", "continental", "7H", "7D", "7S").startswith("not a formation")
    assert "only runs" in ok(runner, "meld", "continental", "7H", "7D", "7S")
    assert ok(runner, "meld", "kontinentalni", "JK(3D)", "2C(4D)", "5D").startswith("valid run")
    assert ok(runner, "meld", "continental", "AH", "3H", "4H").startswith("valid run")
    assert ok(runner, "meld", "continental", "JK", "2C", "2D").startswith("not a formation")


def test_rules_continental_marks_changed_options(runner: CliRunner) -> None:
    out = ok(runner, "rules", "continental", "--players", "12", "-o", "starting_chips=30")
    assert "Kontinentalni" in out
    assert "*starting_chips = 30 (default 20)" in out
    assert "packs = 4" in out


def test_simulate_caps_a_match_that_ends_only_when_chips_run_out(runner: CliRunner) -> None:
    """§7.9: random bots never go out, so every deal is void (here at the first empty
    stock, §2.4) and the match ends only by the simulation's deal cap."""
    args = [
        "simulate",
        "-v",
        "continental",
        "-n",
        "1",
        "-p",
        "2",
        "--bots",
        "random",
        "-o",
        "max_stock_recycles=0",
        "--json",
    ]
    assert as_json(runner, *args)["deals"] == SIMULATION_DEALS
    assert as_json(runner, *args, "-o", "match_deals=2")["deals"] == 2


def test_meld_takes_variant_options(runner: CliRunner) -> None:
    """`rummykit meld V -o ...` judges under the variation (remmi_de §10.4, §10.5)."""
    out = ok(runner, "meld", "remmi_de", "R5", "J", "J", "R8", "--json")
    assert json.loads(out)["valid"] is True
    out = ok(runner, "meld", "remmi_de", "R5", "J", "J", "R8", "-o", "max_jokers_rule=one_joker")
    assert out.strip() == "not a formation: at most 1 joker(s) per formation"
    out = ok(runner, "meld", "remmi_de", "R12", "R13", "R1", "-o", "one_value_high=20", "--json")
    assert json.loads(out)["opening_points"] == 45
    assert "unknown option" in usage_error(runner, "meld", "remmi_de", "R1", "-o", "nope=1")


def test_solve_deadwood_prints_continentals_layout(runner: CliRunner) -> None:
    hand = "AH 3H 4H 5S 6S 7S 8D 9D 10D JC QC KC 4D 5D 6D"
    out = ok(runner, "solve", "continental", "--hand", hand, "--goal", "deadwood")
    assert out.strip().endswith("layout: 3+3+3+3+3")
    spoiled = hand.replace("6D", "9H")
    out = ok(runner, "solve", "continental", "--hand", spoiled, "--goal", "deadwood")
    assert out.strip().endswith("layout: none")


# --------------------------------------------------------------------- serve


def test_serve_limits_are_flags_explained_and_checked(runner: CliRunner) -> None:
    pytest.importorskip("limits", reason="the server extra is not installed")
    out = " ".join(ok(runner, "serve", "--help").split())
    for phrase in ("--limit-create", "--limit-join", "--limit-lookup", "--expire-open"):
        assert phrase in out
    assert "20/minute" in out and "'off'" in out and "429" in out and "0: never" in out
    for bad in (
        ["--limit-create", "bogus"],
        ["--limit-join", "20"],
        ["--limit-lookup", "0/minute"],
        ["--expire-open", "-1"],
    ):
        assert bad[0] in usage_error(runner, "serve", *bad)
