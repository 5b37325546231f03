"""Game records: a versioned JSON document that replays and re-checks a whole match.

See ``docs/records.md`` for the format.  A record holds the variant, every
option and their fingerprint, the seats, the seed and/or explicit walls, every
action in notation with its seat, and the results.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummykit.engine.actions import parse_action
from rummykit.engine.errors import IllegalActionError
from rummykit.engine.game import DealResult, Game
from rummykit.model.pieces import NotationError
from rummykit.rules.options import OptionError, fingerprint
from rummykit.rules.variant import UnknownVariantError, find_variant

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "RecordError",
    "ReplayResult",
    "load_record",
    "record_of",
    "replay",
    "save_record",
]

RECORD_FORMAT = "rummykit-record"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A record is malformed, or replaying it fails (the message names the action index)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(message if index is None else f"action {index}: {message}")


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """A replayed match: the final game and its deal results."""

    game: Game
    results: tuple[DealResult, ...]
    actions: int


def record_of(game: Game, seats: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The record of ``game`` so far (a JSON-ready dict)."""
    names = game.pieces.name
    # Without a seed (an injected RNG) the walls are the only way to replay the deals.
    explicit = game.explicit_walls is not None or game.seed is None
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "variant": game.variant.name,
        "players": game.players,
        "options": dict(game.options),
        "fingerprint": game.fingerprint,
        "seats": list(seats)
        if seats is not None
        else [{"seat": s, "name": f"P{s + 1}"} for s in range(game.players)],
        "seed": game.seed,
        "first_maker": game.first_maker,
        "walls": [[names(p) for p in w] for w in game.walls_used] if explicit else None,
        "actions": [{"seat": seat, "action": str(action)} for seat, action in game.log],
        "results": [r.to_json() for r in game.results],
        "totals": list(game.totals),
        "finished": game.is_over,
    }


def save_record(
    game: Game, path: str | Path, seats: Sequence[dict[str, Any]] | None = None
) -> None:
    """Write the record of ``game`` to ``path`` as JSON."""
    Path(path).write_text(json.dumps(record_of(game, seats), indent=1) + "\n", encoding="utf-8")


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file (JSON), checking its format and version."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RecordError(f"cannot read record {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise RecordError(f"{path} is not a {RECORD_FORMAT} file")
    if data.get("version") != RECORD_VERSION:
        raise RecordError(
            f"record version {data.get('version')!r} is not supported "
            f"(this rummykit reads version {RECORD_VERSION})"
        )
    return data


def replay(record: dict[str, Any], *, check_results: bool = True) -> ReplayResult:
    """Re-play every action of ``record``, checking seats, legality and results."""
    try:
        variant = find_variant(str(record["variant"]))
        players = int(record["players"])
        options = dict(record.get("options") or {})
        seed = record.get("seed")
        walls_text = record.get("walls")
        pieces = variant.pieces(variant.resolve(players, options))
        walls = (
            [[pieces.parse_piece(t) for t in wall] for wall in walls_text] if walls_text else None
        )
        game = Game(
            variant, players, options, seed=seed, walls=walls, maker=record.get("first_maker")
        )
    except (
        KeyError,
        TypeError,
        ValueError,
        UnknownVariantError,
        OptionError,
        NotationError,
    ) as exc:
        raise RecordError(f"cannot set up the game: {exc}") from None
    expected = record.get("fingerprint")
    if expected is not None and expected != fingerprint(variant.name, game.options):
        raise RecordError("the options fingerprint does not match the options")
    actions = record.get("actions") or []
    for index, entry in enumerate(actions):
        try:
            seat = int(entry["seat"])
            action = parse_action(str(entry["action"]), pieces.material)
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed entry {entry!r}: {exc}", index) from None
        if seat != game.to_move:
            raise RecordError(
                f"'{entry['action']}' is recorded for P{seat + 1}, but P{game.to_move + 1} "
                "is to move",
                index,
            )
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise RecordError(str(exc), index) from None
    if check_results and record.get("results") is not None:
        recorded = record["results"]
        replayed = [r.to_json() for r in game.results]
        if recorded != replayed:
            raise RecordError("the replayed deal results differ from the recorded ones")
    return ReplayResult(game, tuple(game.results), len(actions))
