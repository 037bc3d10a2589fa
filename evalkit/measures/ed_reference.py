"""The numpy originals of the ED engine's loops (Kim, Zhai & Han, ECIR 2010, §5.2): the tests' oracles.

:class:`~evalkit.measures.discriminativeness.SetEngine` computes every
held-out judgment at once and FreSPA's tables compiled; these functions are
the versions it replaced, one held-out judgment at a time, kept so that the
differential tests (``tests/measures/test_ed_engine_differential.py``,
``tests/measures/test_frespa_kernels.py``) can check the fast paths give the
same bits.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .aggregation import _average_ranks, _corr_of_ranks, wca_weights
from .discriminativeness import SetEngine, _column_means, _frespa_weights

__all__ = ["correlation_ed_reference", "wca_ed_reference", "subset_tables_reference",
           "frespa_ed_reference"]


def correlation_ed_reference(engine: SetEngine, method: str, kind: str) -> float:
    """ED of AC or RBA, one held-out judgment at a time."""
    c = engine.tau if method == "kendall" else engine.rho
    n = engine.n
    diffs = np.empty(n)
    for i in range(n):
        others = np.delete(np.arange(n), i)
        ci = c[i, others]
        if kind == "ac":
            score = ci.mean()
        else:  # rba
            cons = _average_ranks(engine.ranks[others].sum(0))
            score = _corr_of_ranks(engine.ranks[i], cons, method)
        diffs[i] = score
    return float(diffs.mean())


def wca_ed_reference(engine: SetEngine, method: str, offsets: Sequence[float]) -> np.ndarray:
    """WCA's ED per weight offset, one held-out judgment at a time."""
    c = engine.tau if method == "kendall" else engine.rho
    n = engine.n
    out = np.zeros((n, len(offsets)))
    for i in range(n):
        others = np.delete(np.arange(n), i)
        ci = c[i, others]
        if others.size == 1:
            out[i] = ci[0]
            continue
        sub = c[np.ix_(others, others)]
        raw = (sub.sum(1) - np.diag(sub)) / (others.size - 1)
        for q, a in enumerate(offsets):
            w = wca_weights(raw, a)
            out[i, q] = ci.mean() if abs(w.sum()) < 1e-12 else (w @ ci) / w.sum()
    return _column_means(out)


def subset_tables_reference(engine: SetEngine) -> dict:
    """:meth:`SetEngine._subset_tables` in numpy, 63 pairs to a word (the tests' oracle for the
    compiled tables; the same numpy code serves ``SetEngine(compiled=False)``)."""
    from .discriminativeness import _subset_tables_numpy

    equal, reverse, length = _subset_tables_numpy(engine.signs > 0, engine.pair_i, engine.pair_j,
                                                  engine.k)
    return dict(length=length, equal=equal, reverse=reverse)


def frespa_ed_reference(engine: SetEngine, params: list[dict]) -> np.ndarray:
    """:meth:`SetEngine.frespa_ed` in numpy on :func:`subset_tables_reference` (the tests' oracle)."""
    t = subset_tables_reference(engine)
    length, equal, reverse = t["length"], t["equal"], t["reverse"]
    n = engine.n
    total = equal.sum(1)  # n x M: support of g's pattern among all judgments
    sup = np.arange(n)
    by_len, by_sup, per_gold = _frespa_weights(engine.k, n, length, params)
    out = np.zeros(len(params))
    for i in range(n):
        others = np.delete(np.arange(n), i)
        sup_g = total[others] - equal[others, i]       # (n-1) x M, >= 1
        target = total[i] - 1
        rev = reverse[i, others].sum(0)
        if len(params) <= 4:
            den = (per_gold[:, sup_g].sum(1) * by_len).sum(1)
        else:
            den = ((by_len @ (sup_g.T[:, :, None] == sup).sum(1)) * per_gold).sum(1)
        num_t = (by_sup[:, target] * by_len).sum(1)
        num_r = (by_sup[:, rev] * by_len).sum(1)
        some = den > 0
        out[some] += (num_t[some] - num_r[some]) / den[some]
    return out / n
