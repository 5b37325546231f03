"""Exact searches over a rack: the best first laydown and the most value it can lay."""

from rummykit.solver.opening import Laydown, best_laydown, best_opening, opening_requirement

__all__ = ["Laydown", "best_laydown", "best_opening", "opening_requirement"]
