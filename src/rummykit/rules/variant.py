"""Variant profiles: frozen data plus a few named hooks, and the registry."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rummykit.model.melds import MeldKind, MeldRules
from rummykit.model.pieces import Face, Material, PieceSet
from rummykit.rules.options import OptionError, Options, OptionSpec, resolve_options

__all__ = [
    "Contract",
    "DealLayout",
    "OpeningStructure",
    "SeatOutcome",
    "UnknownVariantError",
    "Variant",
    "all_variants",
    "find_variant",
    "register",
]


class UnknownVariantError(ValueError):
    """No variant has that name or alias."""


class OpeningStructure(StrEnum):
    """What the formations of a first laydown must include (RULES §9.8)."""

    NONE = "none"
    RUN_OR_ONES_SET = "run_or_ones_set"
    RUN_AND_SET = "run_and_set"


@dataclass(frozen=True, slots=True)
class DealLayout:
    """How a deal starts: who holds what, the draw order, and what lies face up.

    ``stock`` is in draw order (``stock[0]`` is drawn first).
    """

    racks: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    first_seat: int
    indicator: int | None = None
    """The face-up indicator piece (tile games), or None."""
    double_game: bool = False
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Contract:
    """A board-play contract (RULES §9.13) found in a rack."""

    name: str
    value: int
    groups: tuple[tuple[Face, ...], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatOutcome:
    """What the scoring hook needs to know about one seat at the end of a deal."""

    opened: bool
    board: bool
    three_violation: bool
    atu: bool
    closed: bool
    table_value: int
    """Scoring value of the pieces credited to the seat on the table."""
    rack_value: int
    contract: Contract | None = None


@dataclass(frozen=True, kw_only=True)
class Variant:
    """One rule-set: every switch the engine reads, with the rule it encodes.

    Profiles are immutable and built once per module.  Behaviour that is not a
    switch is a named hook (``deal``, ``score_deal``, ``find_contract``).
    """

    name: str
    title: str
    aliases: tuple[str, ...]
    rules_section: str
    """Where RULES.md states this variant (e.g. ``"§9"``)."""
    summary: str
    material: Material
    min_players: int
    max_players: int
    default_players: int
    meld_rules: MeldRules
    options: tuple[OptionSpec, ...]
    pieces: Callable[[Options], PieceSet]
    """The physical pieces for a game with these options."""
    opening_value: Callable[[MeldKind, int], int]
    """Opening value of one piece at a run position, or in a set of that rank."""
    score_value: Callable[[Face], int]
    """Scoring value of one piece on the table or on a rack."""
    deal: Callable[[PieceSet, Sequence[int], int, int, Options], DealLayout]
    """Lay out a deal from a shuffled piece order, the player count and the maker."""
    score_deal: Callable[[Sequence[SeatOutcome], bool, Face | None, Options], tuple[int, ...]]
    """Deal scores from the seats' outcomes, the double-game flag and the closing face."""
    find_contract: Callable[[Sequence[Face], Options], Contract | None] = lambda faces, options: (
        None
    )
    """The best board contract 14 faces form (tile games with board play)."""
    board_closes: Callable[[Sequence[Face], Options], Mapping[Face, Contract]] = (
        lambda faces, options: {}
    )
    """Faces a board player holding these pieces may discard to close, with the contract."""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def resolve(self, players: int, given: Mapping[str, Any] | None = None) -> Options:
        """Validate the player count and options; return every option's value."""
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
        return resolve_options(self.options, given or {}, players)

    def shuffled_order(self, pieces: PieceSet, rng: random.Random) -> list[int]:
        """A uniformly shuffled order of every piece id, from the injected RNG."""
        order = list(range(len(pieces)))
        rng.shuffle(order)
        return order


_REGISTRY: dict[str, Variant] = {}
_ALIASES: dict[str, str] = {}


def register(variant: Variant) -> Variant:
    """Add ``variant`` to the registry under its name and aliases."""
    keys = [key.lower().replace("_", "-") for key in (variant.name, *variant.aliases)]
    for key, norm in zip((variant.name, *variant.aliases), keys, strict=True):
        if norm in _ALIASES and _ALIASES[norm] != variant.name:
            raise ValueError(f"variant name {key!r} is already taken by {_ALIASES[norm]}")
    for norm in keys:
        _ALIASES[norm] = variant.name
    _REGISTRY[variant.name] = variant
    return variant


def find_variant(name: str) -> Variant:
    """The variant called ``name`` or having it as an alias (case-insensitive)."""
    from rummykit.rules import catalogue  # noqa: F401  (registers the built-in variants)

    norm = name.strip().lower().replace("_", "-")
    if norm not in _ALIASES:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownVariantError(f"unknown variant {name!r}; known variants: {known}")
    return _REGISTRY[_ALIASES[norm]]


def all_variants() -> list[Variant]:
    """Every registered variant, by name."""
    from rummykit.rules import catalogue  # noqa: F401

    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
