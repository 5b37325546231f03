"""Game records: a versioned JSON document that replays and re-checks a whole match.

See ``docs/records.md`` for the format.  A record holds the variant, every
option and their fingerprint, the seats, the seed and/or explicit walls, every
action in notation with its seat, and the results.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
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
        self.detail = message
        super().__init__(message if index is None else f"action {index}: {message}")

    def __reduce__(self) -> tuple[type[RecordError], tuple[str, int | None]]:
        # Rebuilt from the constructor's arguments, not from the message alone, so that a
        # worker process's error keeps its index.
        return type(self), (self.detail, self.index)


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
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"cannot read record {path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} "
            f"at offset {exc.start})"
        ) from None
    except RecursionError:
        raise RecordError(f"cannot read record {path}: its JSON is too deeply nested") from None
    except (OSError, ValueError) as exc:
        # ValueError: not JSON, or an integer too long to convert (Python's digit limit).
        raise RecordError(f"cannot read record {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise RecordError(f"{path} is not a {RECORD_FORMAT} file")
    if data.get("version") != RECORD_VERSION:
        raise RecordError(
            f"record version {data.get('version')!r} is not supported "
            f"(this rummykit reads version {RECORD_VERSION})"
        )
    return data


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list_of(check: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda value: isinstance(value, list) and all(check(v) for v in value)


def _is_option_value(value: object) -> bool:
    return value is None or isinstance(value, bool | int | float | str)


_FIELDS: dict[str, tuple[str, Callable[[object], bool], bool]] = {
    "variant": ("a string", lambda v: isinstance(v, str), True),
    "players": ("an integer", _is_int, True),
    "options": (
        "an object of option values",
        lambda v: isinstance(v, dict) and all(_is_option_value(x) for x in v.values()),
        False,
    ),
    "fingerprint": ("a string", lambda v: isinstance(v, str), False),
    "seats": ("a list of objects", _list_of(lambda v: isinstance(v, dict)), False),
    "seed": ("an integer", _is_int, False),
    "first_maker": ("an integer", _is_int, False),
    "walls": (
        "a list of lists of piece names",
        _list_of(_list_of(lambda v: isinstance(v, str))),
        False,
    ),
    # Each action entry is checked where it is replayed, so the error names its index.
    "actions": ("a list", lambda v: isinstance(v, list), False),
    "results": ("a list of objects", _list_of(lambda v: isinstance(v, dict)), False),
    "totals": ("a list of integers", _list_of(_is_int), False),
    "finished": ("true or false", lambda v: isinstance(v, bool), False),
}
"""Each record field: what it must be, its check, and whether it is required (an
optional field may be missing or null)."""


def _check_fields(record: dict[str, Any]) -> None:
    for name, (what, check, required) in _FIELDS.items():
        value = record.get(name)
        if value is None and not required:
            continue
        if value is None or not check(value):
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
            nullable = "" if required else " or null"
            raise RecordError(f"field {name!r} must be {what}{nullable}, not {shown}")


def replay(record: dict[str, Any], *, check_results: bool = True) -> ReplayResult:
    """Re-play every action of ``record``, checking the type of every field, seats,
    legality and (with ``check_results``) every recorded result, total and the
    finished flag against the replayed ones."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    _check_fields(record)
    try:
        variant = find_variant(record["variant"])
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
            seat, text = entry["seat"], entry["action"]
            if not _is_int(seat) or not isinstance(text, str):
                raise TypeError("'seat' must be an integer and 'action' a string")
            action = parse_action(text, pieces.material)
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
    if check_results:
        _compare_results(record, game)
    return ReplayResult(game, tuple(game.results), len(actions))


def _shown(value: object) -> str:
    return json.dumps(value, default=repr)


def _compare_results(record: dict[str, Any], game: Game) -> None:
    """Every recorded result, total and the finished flag equal the replayed ones."""
    recorded = record.get("results")
    if recorded is not None:
        replayed = [r.to_json() for r in game.results]
        if len(recorded) != len(replayed):
            raise RecordError(
                f"the replayed deal results differ from the recorded ones: the record has "
                f"{len(recorded)} deal results, the replay gives {len(replayed)}"
            )
        for number, (mine, theirs) in enumerate(zip(recorded, replayed, strict=True), 1):
            for key in sorted(set(mine) | set(theirs)):
                if mine.get(key) != theirs.get(key):
                    raise RecordError(
                        f"the replayed deal results differ from the recorded ones: deal "
                        f"{number} {key} is recorded as {_shown(mine.get(key))}, the "
                        f"replay gives {_shown(theirs.get(key))}"
                    )
    totals = record.get("totals")
    if totals is not None and totals != game.totals:
        raise RecordError(
            f"the recorded totals {_shown(totals)} differ from the replayed "
            f"totals {_shown(game.totals)}"
        )
    finished = record.get("finished")
    if finished is not None and finished != game.is_over:
        raise RecordError(
            f"the record says finished={_shown(finished)}, but the replayed match "
            f"{'is over' if game.is_over else 'is not over'}"
        )
