"""Checking one formation under a variant: valid or not, its kind and opening points."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.model.melds import MeldRules, best_reading, read_meld
from rummykit.model.pieces import Face
from rummykit.rules.options import Options
from rummykit.rules.variant import Variant

__all__ = ["MeldVerdict", "check_meld"]


@dataclass(frozen=True, slots=True)
class MeldVerdict:
    """Whether pieces form one formation, which kind, and its opening points."""

    valid: bool
    kind: str | None
    opening_points: int | None
    reason: str | None

    def to_json(self) -> dict[str, Any]:
        """The ``rummykit meld --json`` document."""
        return {
            "valid": self.valid,
            "kind": self.kind,
            "opening_points": self.opening_points,
            "reason": self.reason,
        }


def check_meld(
    variant: Variant,
    faces: Sequence[Face],
    declared: Sequence[Face | None] | None = None,
    *,
    options: Options | None = None,
) -> MeldVerdict:
    """Check ``faces`` as one formation of ``variant``; a bare joker takes the reading
    with the most opening points (RULES §2.2).

    ``options`` (resolved, as :meth:`Variant.resolve` returns them) apply the meld
    rules and opening values of a variation; without them the defaults apply.
    """
    has_opening = any(o.name == "opening_min_points" for o in variant.options)
    if options is None:
        rules, opening_value = variant.meld_rules, variant.opening_value
    else:
        rules, opening_value = variant.rules_for(options), variant.opening_values(options)
    if any(f.material is not variant.material for f in faces):
        return MeldVerdict(False, None, None, f"{variant.name} is played with {variant.material}")
    if len(faces) < rules.min_size:
        return MeldVerdict(False, None, None, f"a formation needs at least {rules.min_size} pieces")
    readings = read_meld(faces, rules, declared)
    if not readings:
        return MeldVerdict(False, None, None, _why_not(faces, rules))
    reading = best_reading(faces, readings, opening_value)
    points = sum(opening_value(reading.kind, p) for p in reading.positions)
    return MeldVerdict(True, str(reading.kind), points if has_opening else None, None)


def _why_not(faces: Sequence[Face], rules: MeldRules) -> str:
    naturals = [f for f in faces if not rules.always_wild(f)]
    wild = len(faces) - len(naturals)
    if len(naturals) < rules.min_natural:
        return f"a formation needs at least {rules.min_natural} natural piece(s)"
    if rules.max_wild is not None and wild > rules.max_wild:
        return f"at most {rules.max_wild} joker(s) per formation"
    if rules.wild_le_natural and wild > len(naturals):
        return "jokers may not outnumber the natural pieces"
    if len({f.rank for f in naturals}) == 1:
        if not rules.sets_allowed:
            return "sets are not formations in this game; only runs"
        if len(faces) > rules.set_max_size:
            return f"a set has at most {rules.set_max_size} pieces"
        return "a set needs different suits/colours"
    if len({f.suit for f in naturals}) > 1:
        return "not a set (ranks differ) and not a run (suits/colours differ)"
    if rules.skipped_ranks:
        skipped = "/".join(map(str, sorted(rules.skipped_ranks)))
        return f"the ranks are not consecutive (the order skips the wild {skipped}: A-3-4)"
    return "the ranks are not consecutive (a 1 sits only at an end; K-A-2 never wraps)"
