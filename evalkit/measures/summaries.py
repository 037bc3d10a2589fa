"""How a measure's per-topic values become its summary (the ``all`` row): mean, sum or geometric mean.

trec_eval forms its summary line three ways (``meas_avg.c``):

* ``mean``: the arithmetic mean over the topics scored (most measures);
* ``sum``: the counts (``num_ret``, ``num_rel``, ``num_rel_ret``,
  ``num_nonrel_judged_ret``, ``num_q``) are summed;
* ``gmean``: ``gm_map`` and ``gm_bpref`` are geometric means,
  ``exp(mean(log(max(v, 0.00001))))``: a topic scoring 0 counts as 0.00001
  (trec_eval's ``MIN_GEO_MEAN``, chosen because it prints four decimals), so
  that one failed topic does not zero the whole mean.

:func:`summarise` computes any of them over the last axis of an array of
per-topic values, NaN (a topic not scored) left out, as the mean leaves it
out; NaN where no topic is scored.  The values are added in topic order, one
after another, as trec_eval adds them.
"""

from __future__ import annotations

import numpy as np

from .running import sequential_total

__all__ = ["SUMMARIES", "MIN_GEO_MEAN", "summarise"]

#: The ways a summary is formed.
SUMMARIES = ("mean", "sum", "gmean")

#: trec_eval's floor for a geometric mean's values (``trec_eval.h``).
MIN_GEO_MEAN = 0.00001


def summarise(values: np.ndarray, how: str = "mean") -> np.ndarray:
    """The summary ``how`` of ``values`` over the last axis, NaN left out."""
    if how not in SUMMARIES:
        raise ValueError(f"summary {how!r}: one of {', '.join(SUMMARIES)}")
    values = np.asarray(values, dtype=float)
    counted = np.isfinite(values)
    n = counted.sum(axis=-1)
    if how == "gmean":
        values = np.log(np.maximum(np.where(counted, values, 1.0), MIN_GEO_MEAN))
    total = _in_order(np.where(counted, values, 0.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = total if how == "sum" else total / np.maximum(n, 1)
        if how == "gmean":
            out = np.exp(out)
    return np.where(n > 0, out, np.nan)


def _in_order(values: np.ndarray) -> np.ndarray:
    """The sum over the last axis, adding one value after another as trec_eval does
    (``meas_acc.c``): a pairwise sum can differ in the last bit, and a mean lying on a
    rounding boundary would print another fourth decimal."""
    return sequential_total(values)
