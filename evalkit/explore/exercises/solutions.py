"""The exercises' solutions, as the notebooks' exercise cells know them: re-exported from
:mod:`evalkit.declare.solutions` (where they live, below the workspace's book, which
builds the instructor edition from them)."""

from ...declare.solutions import SOLUTIONS, answer_cells, load, parse, with_solutions

__all__ = ["SOLUTIONS", "parse", "load", "answer_cells", "with_solutions"]
