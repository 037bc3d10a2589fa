"""Compiled batch path of the graded measures (Sakai 2017, §4): every ranked list in one pass.

Used by :func:`evalkit.measures.graded.batch_measures` for large batches only
(numba is imported then).  Each list's arithmetic is numpy's, in numpy's
order: running sums and products left to right, and a sum over ranks in
numpy's pairwise order (8 partial sums from 8 terms on), so the scores have
the same bits as the numpy path (``tests/measures/test_graded_kernels.py``).
"""

from __future__ import annotations

import numba
import numpy as np

#: Measure codes of :func:`scores`.
CODES = {"nG@1": 0, "nERR": 1, "P+": 2, "Q": 3}


@numba.njit(cache=True, inline="always")
def _pairwise_sum(a, n):  # pragma: no cover - compiled
    """``a[:n].sum()`` as numpy adds it (n <= 128)."""
    if n < 8:
        r = -0.0
        for i in range(n):
            r += a[i]
        return r
    p0, p1, p2, p3, p4, p5, p6, p7 = a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
    i = 8
    while i < n - n % 8:
        p0 += a[i]
        p1 += a[i + 1]
        p2 += a[i + 2]
        p3 += a[i + 3]
        p4 += a[i + 4]
        p5 += a[i + 5]
        p6 += a[i + 6]
        p7 += a[i + 7]
        i += 8
    r = ((p0 + p1) + (p2 + p3)) + ((p4 + p5) + (p6 + p7))
    while i < n:
        r += a[i]
        i += 1
    return r


@numba.njit(cache=True, inline="always")
def _err(g, gmax, term):  # pragma: no cover - compiled
    """ERR with ``P(r) = g(r)/(gmax+1)``: ``sum_r P(r) prod_{i<r}(1 - P(i)) / r``."""
    k = g.size
    d = gmax + 1.0
    reach = 1.0
    for i in range(k):
        p = g[i] / d
        term[i] = p * reach / (i + 1)
        reach = reach * (1.0 - p)
    return _pairwise_sum(term, k)


@numba.njit(cache=True, error_model="numpy")
def _scores(g, ideal_k, gmax, big_r, codes, beta):  # pragma: no cover - compiled
    rows, k = g.shape
    out = np.empty((codes.size, rows))
    term = np.empty(k)
    br = np.empty(k)
    want_br = False
    for c in codes:
        if c >= 2:
            want_br = True
    for r in range(rows):
        if want_br:
            cg = 0.0
            ci = 0.0
            crel = 0
            for i in range(k):
                cg += g[r, i]
                ci += ideal_k[r, i]
                if g[r, i] > 0:
                    crel += 1
                br[i] = (beta * cg + crel) / (beta * ci + (i + 1))
        for q in range(codes.size):
            c = codes[q]
            if c == 0:
                val = g[r, 0] / gmax[r]
            elif c == 1:
                val = _err(g[r], gmax[r], term) / _err(ideal_k[r], gmax[r], term)
            elif c == 3:
                for i in range(k):
                    term[i] = br[i] if g[r, i] > 0 else 0.0
                val = _pairwise_sum(term, k) / big_r[r]
            else:
                top = g[r, 0]
                rp = 0
                for i in range(1, k):
                    if g[r, i] > top:
                        top = g[r, i]
                        rp = i
                c_rp = 0
                for i in range(k):
                    if i <= rp and g[r, i] > 0:
                        term[i] = br[i]
                        c_rp += 1
                    else:
                        term[i] = 0.0
                val = _pairwise_sum(term, k) / max(c_rp, 1) if c_rp > 0 else 0.0
            out[q, r] = val if gmax[r] > 0 else np.nan
    return out


def scores(g: np.ndarray, ideal_k: np.ndarray, gmax: np.ndarray, big_r: np.ndarray,
           measures, beta: float) -> dict[str, np.ndarray]:
    """nG@1, nERR, P+ and Q of ``rows x k`` run gains ``g`` against ``ideal_k`` (the ideal
    gains cut at ``k``, one row per list), ``gmax`` and ``big_r`` per row; NaN where
    ``gmax <= 0``.  Finite gains, ``k <= 128``."""
    codes = np.array([CODES[m] for m in measures], dtype=np.int64)
    out = _scores(np.ascontiguousarray(g, dtype=float), np.ascontiguousarray(ideal_k, dtype=float),
                  np.ascontiguousarray(gmax, dtype=float), np.ascontiguousarray(big_r, dtype=np.int64),
                  codes, float(beta))
    return {m: out[q] for q, m in enumerate(measures)}
