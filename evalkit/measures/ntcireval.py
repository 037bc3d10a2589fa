"""NTCIREVAL's graded measures (nG@k, nERR@k, P+, Q) on :class:`~evalkit.measures.ranked.RankedLists`.

The formulas are those of :mod:`evalkit.measures.graded` (Sakai 2017 §4,
NTCIREVAL's direct gain values); this module feeds them a run's ranked gains
and each topic's ideal list.  Unlike trec_eval's measures, a topic whose
judged documents all have gain 0 cannot be normalised: its value is NaN, and
``evalkit score`` leaves it out of the mean and says so (NTCIREVAL's users
do the same).
"""

from __future__ import annotations

import numpy as np

from .graded import batch_measures
from .ranked import RankedLists

__all__ = ["ntcireval", "normalised_gain"]


def normalised_gain(g: np.ndarray, ideal: np.ndarray) -> np.ndarray:
    """``nG@k = g(k) / g*(k)`` from gains cut at ``k`` ``(..., k)`` and the descending ideal
    gains ``(..., L)``; NaN where ``g*(k) = 0`` or the topic has no positive gain."""
    k = g.shape[-1]
    ideal_k = ideal[..., k - 1] if ideal.shape[-1] >= k else np.zeros(ideal.shape[:-1])
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.where(ideal_k > 0, g[..., k - 1] / ideal_k, np.nan)
    return np.where(ideal[..., 0] > 0, values, np.nan) * np.ones(g.shape[:-1])


def ntcireval(lists: RankedLists, base: str, k: int | None, beta: float = 1.0) -> np.ndarray:
    """``base`` (``nG``, ``nERR``, ``P+`` or ``Q``) at cutoff ``k`` per column and topic
    ``(G, T)``; NaN where the topic has no positive gain or is not in the column's qrels."""
    g, _ = lists.cut(k)
    if base == "nG":
        values = normalised_gain(g, lists.ideal)
    else:
        values = batch_measures(g, lists.ideal, [base], beta=beta, ideal_sorted=True)[base]
    return np.where(lists.in_qrels, values, np.nan)
