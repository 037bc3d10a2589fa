"""The values of one run's ranked lists: a number per measure, or a string (``relstring``).

:func:`measure_values` computes every measure of the registry (or a
judgment-group measure with its own ``compute``) on one block of a run's
lists (:mod:`evalkit.evaluate.scoring.lists`); :func:`string_values` the
string measures, which have their own path (trec_eval's ``relstring``).
"""

from __future__ import annotations

import numpy as np

from ...measures.ranked import RankedLists
from ...measures.registry import MEASURES, MeasureSpec
from ...measures.relstring import relstring

__all__ = ["measure_values", "string_values"]


def measure_values(lists: RankedLists, specs: list[MeasureSpec], present: np.ndarray,
                   missing: str) -> np.ndarray:
    """``(G, M, T)`` values of one run; NaN for topics the run lacks with ``skip``.  A spec
    with its own ``compute(lists)`` (trec_eval's judgment-group measures,
    :mod:`evalkit.evaluate.scoring.judgment_groups`) is computed by it."""
    out = np.stack([s.compute(lists) if hasattr(s, "compute") else
                    MEASURES[s.base].compute(lists, s) for s in specs], axis=1)
    if missing == "skip":
        out[..., ~present] = np.nan
    return out


def string_values(lists: RankedLists, spec: MeasureSpec, present: np.ndarray,
                  missing: str) -> np.ndarray:
    """``(G, T)`` texts of a string measure (``relstring``); None for topics the run lacks
    with ``skip``."""
    out = relstring(lists, spec.k)
    if missing == "skip":
        out[..., ~present] = None
    return out
