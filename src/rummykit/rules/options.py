"""Variant options: declared once with their allowed values, validated on every use."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any

__all__ = [
    "OptionError",
    "OptionKind",
    "OptionSpec",
    "Options",
    "fingerprint",
    "per_player",
    "resolve_options",
]

OptionValue = bool | int | str | None
Options = Mapping[str, OptionValue]


class OptionError(ValueError):
    """An option is unknown or has a value it does not allow."""


class OptionKind(StrEnum):
    """Where an option comes from (RULES conventions)."""

    DOCUMENTED = "documented"
    """A variation a source describes."""
    ENGINE = "engine"
    """Settles an ambiguity or keeps the engine safe."""


def per_player(players: int) -> int:
    """A default of one per player (e.g. ``match_deals``: each seat deals once)."""
    return players


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionSpec:
    """One option of a variant: its type, allowed values and default."""

    name: str
    default: OptionValue | Callable[[int], OptionValue]
    """A value, or a function of the player count (e.g. ``match_deals``)."""
    doc: str
    kind: OptionKind = OptionKind.DOCUMENTED
    choices: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False

    @property
    def value_type(self) -> type:
        """bool, int or str, inferred from the declaration."""
        if self.choices is not None:
            return str
        if self.minimum is not None or self.maximum is not None:
            return int
        sample = self.default(2) if callable(self.default) else self.default
        return type(sample) if sample is not None else int

    def default_for(self, players: int) -> OptionValue:
        """The default value at a table of ``players``."""
        return self.default(players) if callable(self.default) else self.default

    def allowed(self) -> str:
        """Human description of the allowed values."""
        if self.choices is not None:
            text = " | ".join(f'"{c}"' for c in self.choices)
        elif self.value_type is bool:
            text = "true | false"
        else:
            if self.minimum is not None and self.maximum is not None:
                text = f"an integer {self.minimum}..{self.maximum}"
            elif self.minimum is not None:
                text = f"an integer >= {self.minimum}"
            elif self.maximum is not None:
                text = f"an integer <= {self.maximum}"
            else:
                text = "an integer"
        return text + (" | null" if self.nullable else "")

    def validate(self, value: Any) -> OptionValue:
        """``value`` if it is allowed, else :class:`OptionError` naming what is."""
        if value is None:
            if self.nullable:
                return None
        elif self.choices is not None:
            if isinstance(value, str) and value in self.choices:
                return value
        elif self.value_type is bool:
            if isinstance(value, bool):
                return value
        elif (
            isinstance(value, int)
            and not isinstance(value, bool)
            and (self.minimum is None or value >= self.minimum)
            and (self.maximum is None or value <= self.maximum)
        ):
            return value
        raise OptionError(f"option {self.name} = {value!r} is not allowed; use {self.allowed()}")


def resolve_options(
    specs: tuple[OptionSpec, ...], given: Mapping[str, Any], players: int
) -> Options:
    """Every option's value: the validated ``given`` ones, defaults for the rest.

    An unknown name is an error listing the known ones; nothing is replaced silently.
    """
    known = {s.name: s for s in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise OptionError(
            f"unknown option(s) {', '.join(unknown)}; allowed: {', '.join(sorted(known))}"
        )
    values = {
        name: spec.validate(given[name]) if name in given else spec.default_for(players)
        for name, spec in known.items()
    }
    return MappingProxyType(values)


def parse_option_value(spec: OptionSpec, text: str) -> OptionValue:
    """Parse a command-line ``name=value`` right-hand side for ``spec``."""
    lowered = text.strip().lower()
    if lowered in ("null", "none") and spec.nullable:
        return None
    if spec.value_type is bool:
        if lowered in ("true", "yes", "1", "on"):
            return True
        if lowered in ("false", "no", "0", "off"):
            return False
    elif spec.value_type is int:
        try:
            return spec.validate(int(lowered))
        except ValueError as exc:
            if isinstance(exc, OptionError):
                raise
    else:
        return spec.validate(text.strip())
    raise OptionError(f"option {spec.name} = {text!r} is not allowed; use {spec.allowed()}")


def fingerprint(variant: str, options: Mapping[str, OptionValue]) -> str:
    """A short stable hash of a variant name and its full option values."""
    blob = json.dumps({"variant": variant, "options": dict(options)}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


__all__ += ["parse_option_value"]
