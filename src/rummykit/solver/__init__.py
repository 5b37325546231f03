"""Exact solvers over a hand (and a table): the public API other layers rely on.

Hand objectives (pure functions of faces, a variant and its options):

* :func:`best_opening` — the best first laydown under an opening rule
  (:func:`opening_requirement` turns resolved options into that rule);
* :func:`best_laydown` — the most opening value a rack can lay;
* :func:`least_deadwood` — the arrangement leaving the least deadwood;
* :func:`best_contract` — the best board-play contract (RULES §9.13);
* :func:`solve_goal` — any of these, or a variant's own goal, by name, as JSON.

Table objectives:

* :func:`table_moves` — every legal attachment and joker exchange for a seat's
  rack, from its :class:`~rummykit.engine.view.SeatView` (the engine decides);
* :func:`hints` — for the seat to move in a game (:func:`advise` from a seat's view
  and legal actions): draw or take, best laydown toward the opening, attachments,
  exchanges, a closing move and a discard with any announcement then due, each
  with a one-line reason; :func:`penalty_warning` names the penalty a move incurs.

The exact core under the deadwood objective, usable below the solver layer, is
:func:`rummykit.model.arrange.min_deadwood`.

Every answer is exact (proved against an integer program in the tests);
formations are :class:`rummykit.model.candidates.Candidate` objects with every
joker declared.
"""

from rummykit.solver.contract import ContractAnswer, best_contract
from rummykit.solver.deadwood import Deadwood, least_deadwood
from rummykit.solver.goals import BUILTIN_GOALS, goal_names, meld_notation, solve_goal
from rummykit.solver.hints import Hint, advise, hints, hints_json, penalty_warning
from rummykit.solver.opening import Laydown, best_laydown, best_opening, opening_requirement
from rummykit.solver.table import TableMoves, table_moves

__all__ = [
    "BUILTIN_GOALS",
    "ContractAnswer",
    "Deadwood",
    "Hint",
    "Laydown",
    "TableMoves",
    "advise",
    "best_contract",
    "best_laydown",
    "best_opening",
    "goal_names",
    "hints",
    "hints_json",
    "least_deadwood",
    "meld_notation",
    "opening_requirement",
    "penalty_warning",
    "solve_goal",
    "table_moves",
]
