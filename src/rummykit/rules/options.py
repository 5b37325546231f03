"""Variant options: declared once with their allowed values, validated on every use."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from functools import cache
from types import MappingProxyType
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

__all__ = [
    "DealsMatch",
    "OptionError",
    "OptionKind",
    "OptionSpec",
    "Options",
    "TargetMatch",
    "VariantOptions",
    "deals_match",
    "fingerprint",
    "option",
    "per_player",
    "resolve_options",
    "target_match",
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


def option(
    default: OptionValue | Callable[[int], OptionValue],
    *,
    doc: str,
    kind: OptionKind = OptionKind.DOCUMENTED,
    choices: tuple[str, ...] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
    nullable: bool = False,
) -> Any:
    """Declare one field of a :class:`VariantOptions` class: its default (a value, or a
    function of the player count), documentation and allowed values.

    The field has no dataclass default: a typed options object is made by
    :meth:`VariantOptions.parse`, which fills every field, never by hand.
    """
    return field(
        metadata={
            "spec": {
                "default": default,
                "doc": doc,
                "kind": kind,
                "choices": choices,
                "minimum": minimum,
                "maximum": maximum,
                "nullable": nullable,
            }
        }
    )


_O = TypeVar("_O", bound="VariantOptions")


@dataclass(frozen=True, kw_only=True, eq=False)
class VariantOptions(Mapping[str, OptionValue]):
    """A variant's options, parsed once into a frozen typed object.

    Each variant subclasses it with one typed field per option, declared with
    :func:`option`; rules read ``options.name``, never a string key.  It is also a
    read-only mapping from option names to values (records, views and fingerprints
    store it as a plain dict), equal to any mapping with the same items.
    """

    @classmethod
    def specs(cls) -> tuple[OptionSpec, ...]:
        """The options' declarations, in the order users see them: the class's own
        fields first, then each base's (a shared group such as the card games'
        recycling options comes last)."""
        return _specs_of(cls)

    @classmethod
    def parse(cls: type[_O], given: Mapping[str, Any], players: int) -> _O:
        """Validate ``given`` (unknown names and disallowed values are errors) and fill
        every other option with its default for ``players`` seats."""
        if isinstance(given, cls):
            return given
        values = resolve_options(cls.specs(), given, players)
        return cls(**values)

    @classmethod
    def of(cls: type[_O], options: Mapping[str, Any]) -> _O:
        """``options`` as this class: the typed object a game of this variant holds, or
        a complete mapping of its options (validated; a missing or unknown name is an
        error, never filled in)."""
        if isinstance(options, cls):
            return options
        names = set(_names_of(cls))
        if isinstance(options, VariantOptions) or set(options) != names:
            missing = sorted(names - set(options))
            raise OptionError(
                f"expected every option of {cls.__name__}"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; got {type(options).__name__}" if isinstance(options, VariantOptions) else "")
            )
        return cls(**resolve_options(cls.specs(), options, 0))

    def __getitem__(self, name: str) -> OptionValue:
        if name not in _names_of(type(self)):
            raise KeyError(name)
        value: OptionValue = getattr(self, name)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(_names_of(type(self)))

    def __len__(self) -> int:
        return len(_names_of(type(self)))

    def __hash__(self) -> int:
        return hash(tuple(self.items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.items())
        return f"{type(self).__name__}({inner})"


@runtime_checkable
class DealsMatch(Protocol):
    """Options of a match of a fixed number of deals."""

    @property
    def match_deals(self) -> int: ...


@runtime_checkable
class TargetMatch(Protocol):
    """Options of a match raced to a target score, or played for a number of deals."""

    @property
    def match_mode(self) -> str: ...
    @property
    def match_deals(self) -> int: ...
    @property
    def target_score(self) -> int: ...


def deals_match(options: Mapping[str, Any]) -> DealsMatch:
    """``options`` as those of a match of a fixed number of deals (shared hooks)."""
    if _conforms(options, DealsMatch):
        return cast(DealsMatch, options)
    raise OptionError(f"{type(options).__name__} has no match_deals option")


def target_match(options: Mapping[str, Any]) -> TargetMatch:
    """``options`` as those of a match raced to a target score (shared hooks)."""
    if _conforms(options, TargetMatch):
        return cast(TargetMatch, options)
    raise OptionError(f"{type(options).__name__} has not the options of a target match")


_CONFORMS: dict[tuple[type, type], bool] = {}


def _conforms(options: Mapping[str, Any], protocol: type) -> bool:
    """Whether ``options`` are a variant's options with the members of ``protocol``.

    Decided once per options class: a variant's options are a dataclass, so every
    instance has the same fields, and a runtime protocol check costs tens of
    microseconds (asked at the end of every deal)."""
    key = (type(options), protocol)
    known = _CONFORMS.get(key)
    if known is None:
        known = _CONFORMS[key] = isinstance(options, VariantOptions) and isinstance(
            options, protocol
        )
    return known


@cache
def _specs_of(cls: type[VariantOptions]) -> tuple[OptionSpec, ...]:
    declared = {f.name: f for f in fields(cls)}
    order: list[str] = []
    for klass in cls.__mro__:
        for name in vars(klass).get("__annotations__", {}):
            if name in declared and name not in order:
                order.append(name)
    specs = []
    for name in order:
        meta = declared[name].metadata.get("spec")
        if meta is None or declared[name].default is not MISSING:
            raise TypeError(f"{cls.__name__}.{name} must be declared with option()")
        specs.append(OptionSpec(name=name, **meta))
    return tuple(specs)


@cache
def _names_of(cls: type[VariantOptions]) -> tuple[str, ...]:
    return tuple(s.name for s in _specs_of(cls))


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
