"""The least deadwood a hand can leave (RULES §6.6 / A-24, and any count of unmatched pieces).

A thin face-level wrapper over :func:`rummykit.model.arrange.min_deadwood`, which
is exact for the variant's meld rules (jokers, duplicates, ace positions and
joker limits).  Deadwood is valued with the variant's ``score_value``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.model.arrange import kind_values, min_deadwood
from rummykit.model.candidates import Candidate, counts_of
from rummykit.model.melds import MeldRules
from rummykit.model.pieces import Face
from rummykit.rules.options import Options
from rummykit.rules.variant import Variant

__all__ = ["Deadwood", "kind_points", "least_deadwood"]


@dataclass(frozen=True, slots=True)
class Deadwood:
    """A hand split into formations and unmatched pieces.

    ``melds`` are disjoint fully declared formations, ``deadwood`` the faces
    in none of them (sorted), ``points`` their total ``score_value``.
    """

    melds: tuple[Candidate, ...]
    deadwood: tuple[Face, ...]
    points: int


_VALUES: dict[int, tuple[Variant, tuple[int, ...]]] = {}


def kind_points(variant: Variant) -> tuple[int, ...]:
    """The variant's ``score_value`` of every face kind (53 entries, the joker last),
    built once per variant."""
    known = _VALUES.get(id(variant))
    if known is None or known[0] is not variant:
        known = _VALUES[id(variant)] = (variant, kind_values(variant.score_value, variant.material))
    return known[1]


def least_deadwood(
    faces: Sequence[Face],
    variant: Variant,
    options: Options | None = None,
    *,
    rules: MeldRules | None = None,
) -> Deadwood:
    """The arrangement of ``faces`` into the variant's formations leaving the least deadwood.

    The meld rules are ``rules`` if given, else ``variant.rules_for(options)``
    with resolved ``options``, else ``variant.meld_rules``.  Ties go to the
    arrangement :func:`min_deadwood` picks (deterministic).
    """
    if rules is None:
        rules = variant.meld_rules if options is None else variant.rules_for(options)
    arrangement = min_deadwood(counts_of([f.kind for f in faces]), rules, kind_points(variant))
    material = variant.material
    left = tuple(Face.from_kind(material, k) for k in arrangement.deadwood)
    return Deadwood(arrangement.melds, left, arrangement.points)
