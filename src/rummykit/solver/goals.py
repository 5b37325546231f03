"""One entry point for every exact objective: ``solve_goal(goal, hand, variant, options)``.

Built-in goals (the same for every variant):

``opening``
    the best first laydown under the variant's opening rule (:func:`best_opening`);
``laydown``
    the most opening value a rack can lay, no structure rule (:func:`best_laydown`);
``deadwood``
    the arrangement leaving the least deadwood (:func:`least_deadwood`); where a
    variant has layouts it also says whether the hand forms one (``layout``,
    ``pattern``) and, if so, answers with that layout;
``contract``
    the best board-play contract (:func:`best_contract`, board-play variants);
``layout``
    whether and how a whole hand is laid out at once (``Variant.find_layout``,
    Continental's three patterns, RULES §7.6), where a variant has layouts.

A variant adds goals of its own through ``Variant.solver_goals`` (e.g. a layout
pattern); :func:`goal_names` lists what a variant supports.  Answers are
JSON-ready dicts; melds are lists of piece notation where a joker in a run shows
what it stands for (``J(R7)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummykit.model.candidates import Candidate
from rummykit.model.melds import MeldKind
from rummykit.model.pieces import Face, Material
from rummykit.rules.options import Options
from rummykit.rules.variant import Variant
from rummykit.solver.contract import best_contract, has_board_play
from rummykit.solver.deadwood import least_deadwood
from rummykit.solver.opening import best_laydown, best_opening, opening_requirement

__all__ = ["BUILTIN_GOALS", "goal_names", "meld_notation", "solve_goal"]

BUILTIN_GOALS = ("opening", "laydown", "deadwood", "contract", "layout")


def goal_names(variant: Variant, options: Options) -> tuple[str, ...]:
    """The goals :func:`solve_goal` answers for ``variant`` under resolved ``options``."""
    names = ["opening", "laydown", "deadwood"]
    if has_board_play(variant, options):
        names.append("contract")
    if variant.find_layout is not None:
        names.append("layout")
    names += [g for g in variant.solver_goals if g not in BUILTIN_GOALS]
    return tuple(names)


def meld_notation(cand: Candidate, material: Material) -> list[str]:
    """A formation's pieces as notation; a wild piece in a run shows its face, ``J(R7)``."""
    out = []
    for face, declared in zip(cand.faces(material), cand.declared(material), strict=True):
        shown = declared is not None and cand.kind is MeldKind.RUN
        out.append(f"{face}({declared})" if shown else str(face))
    return out


def solve_goal(
    goal: str, faces: Sequence[Face], variant: Variant, options: Options, *, keep: int = 0
) -> dict[str, Any]:
    """The exact answer to ``goal`` for the hand ``faces`` as a JSON-ready dict.

    ``options`` are the variant's resolved options; ``keep`` pieces must stay in
    hand (opening and laydown goals only).  Unknown goals raise ``ValueError``
    naming the goals the variant supports.
    """
    material = variant.material
    rules = variant.rules_for(options)
    if goal in ("opening", "laydown"):
        if goal == "opening":
            lay = best_opening(
                faces, variant, opening_requirement(variant, options), keep=keep, rules=rules
            )
        else:
            lay = best_laydown(faces, variant, keep=keep, rules=rules)
        data: dict[str, Any] = {
            "melds": [meld_notation(c, material) for c in lay.melds],
            "points": lay.points,
        }
        if goal == "opening":
            data["valid_opening"] = lay.valid_opening
        return data
    if keep:
        raise ValueError(f"keep applies to the opening and laydown goals, not {goal!r}")
    if goal == "deadwood":
        if variant.find_layout is not None:
            layout = variant.find_layout(faces, options)
            if layout is not None:
                # A variant scored by layouts (Continental) answers with the layout
                # itself: nothing is left over.
                return {
                    "melds": [meld_notation(c, material) for c in layout.melds],
                    "deadwood": [],
                    "deadwood_points": 0,
                    "layout": True,
                    "pattern": list(layout.pattern),
                }
        found = least_deadwood(faces, variant, rules=rules)
        data = {
            "melds": [meld_notation(c, material) for c in found.melds],
            "deadwood": [str(f) for f in found.deadwood],
            "deadwood_points": found.points,
        }
        if variant.find_layout is not None:
            data |= {"layout": False, "pattern": None}
        return data
    if goal == "contract" and has_board_play(variant, options):
        answer = best_contract(faces, variant, options)
        if answer is None:
            return {"contract": None, "value": 0, "discard": None}
        return {
            "contract": answer.contract.name,
            "value": answer.contract.value,
            "discard": None if answer.discard is None else str(answer.discard),
        }
    if goal == "layout" and variant.find_layout is not None:
        layout = variant.find_layout(faces, options)
        return {
            "layout": layout is not None,
            "pattern": None if layout is None else list(layout.pattern),
            "melds": [] if layout is None else [meld_notation(c, material) for c in layout.melds],
            "deadwood": None if layout is None else 0,
        }
    hook = variant.solver_goals.get(goal)
    if hook is None or goal in BUILTIN_GOALS:
        known = ", ".join(goal_names(variant, options))
        raise ValueError(f"{variant.name} has no solver goal {goal!r}; goals: {known}")
    return dict(hook(faces, options))
