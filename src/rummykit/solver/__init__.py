"""Exact searches over a rack: the best first laydown and the most value it can lay."""

from rummykit.solver.opening import Laydown, best_laydown, best_opening

__all__ = ["Laydown", "best_laydown", "best_opening"]
