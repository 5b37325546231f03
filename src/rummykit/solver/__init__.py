"""Exact solvers over a hand (and a table): the public API other layers rely on.

Hand objectives (pure functions of faces, a variant and its options):

* :func:`best_opening` — the best first laydown under an opening rule
  (:func:`opening_requirement` turns resolved options into that rule);
* :func:`best_laydown` — the most opening value a rack can lay;
* :func:`least_deadwood` — the arrangement leaving the least deadwood;
* :func:`best_contract` — the best board-play contract (RULES §9.13);
* :func:`solve_goal` — any of these, or a variant's own goal, by name, as JSON.

Every answer is exact (proved against an integer program in the tests);
formations are :class:`rummykit.model.candidates.Candidate` objects with every
joker declared.
"""

from rummykit.solver.contract import ContractAnswer, best_contract
from rummykit.solver.deadwood import Deadwood, least_deadwood
from rummykit.solver.goals import BUILTIN_GOALS, goal_names, meld_notation, solve_goal
from rummykit.solver.opening import Laydown, best_laydown, best_opening, opening_requirement

__all__ = [
    "BUILTIN_GOALS",
    "ContractAnswer",
    "Deadwood",
    "Laydown",
    "best_contract",
    "best_laydown",
    "best_opening",
    "goal_names",
    "least_deadwood",
    "meld_notation",
    "opening_requirement",
    "solve_goal",
]
