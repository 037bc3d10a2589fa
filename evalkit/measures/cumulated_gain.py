"""trec_eval's experimental gain measures (``G``, ``binG``, ``ndcg_rel``, ``Rndcg``), Buckley 2008.

From trec_eval's ``m_G.c``, ``m_binG.c``, ``m_ndcg_rel.c`` and
``m_Rndcg.c`` (gains: the grade, or the column's gain, as for nDCG; ``I(i)``
the ``i``-th gain of the topic's ideal list, 0 past its positive gains;
``g(r)`` the run's gain at rank ``r``, ``n`` the documents returned):

* ``binG = (1/R) sum_{relevant r} 1 / log2(2 + nonrel above r)``: binary
  gain discounted by the non-relevant documents above (0 when none is
  retrieved);
* ``G = (1/sum_i I(i)) sum_{r <= n, g(r) != 0} g(r) / log2(2 + C(r) - S(r))``
  with ``S(r) = sum_{i <= r} g(i)`` the gain collected and ``C(r) = sum_{i <=
  r} max(I(i), 1)`` the ideal's, each rank costing at least 1: a document
  counts more when the documents above it had higher gains;
* ``ndcg_rel``: nDCG averaged over the ``P`` documents with a positive gain,
  at the rank of each retrieved one (``DCG(r) / IDCG(min(r, P))``) and at the
  end of the run for each one not retrieved (``DCG(n) / IDCG(P)``), over
  ``P`` (0 when that sum is 0);
* ``Rndcg``: nDCG averaged over the "R levels", the ranks ``b`` where the
  ideal gain changes (``I(b) != I(b-1)``, the last being ``b = P``), each
  ``DCG(min(b, n)) / IDCG(b)``, and, when ``n > P + 1``, once more at the
  end of the run, ``DCG(n) / IDCG(P)`` (trec_eval's loop has passed rank
  ``P + 1`` when it looks for the end, so a run of exactly ``P + 1``
  documents gets no end term); 0 when ``R = 0``.

``DCG(k) = sum_{r <= k} g(r) / log2(r + 1)`` and ``IDCG`` its ideal as in
:mod:`evalkit.measures.ndcg`.
"""

from __future__ import annotations

import numpy as np

from .ranked import RankedLists, memo, num_relevant, per_topic, relevant, safe_ratio
from .running import running_sum

__all__ = ["bin_g", "g_measure", "ndcg_rel", "r_ndcg"]


def _ideal(lists: RankedLists, length: int) -> np.ndarray:
    """The ideal gains ``(G, T, length)``, 0-padded or cut."""
    ideal = lists.ideal[..., :length]
    if ideal.shape[-1] < length:
        ideal = np.pad(ideal, [(0, 0), (0, 0), (0, length - ideal.shape[-1])])
    return ideal


def _cumulated(gains: np.ndarray) -> np.ndarray:
    """``DCG(k)`` for ``k = 0 .. len`` over the last axis."""
    terms = gains / np.log2(np.arange(2, gains.shape[-1] + 2))
    return np.concatenate([np.zeros(gains.shape[:-1] + (1,)), running_sum(terms)], axis=-1)


def _run_dcg(lists: RankedLists) -> np.ndarray:
    """``DCG(k)``, ``k = 0 .. depth``, of the run (shared by ndcg_rel and Rndcg)."""
    return memo(lists, "dcg", lambda: _cumulated(lists.gains))


def _ideal_dcg(lists: RankedLists) -> np.ndarray:
    """``IDCG(k)``, ``k = 0 .. max(W, D) + 1`` (shared by ndcg_rel and Rndcg: a shorter
    ideal's ``IDCG`` is a prefix of it, the same additions in the same order)."""
    length = max(lists.ideal.shape[-1], lists.depth) + 1
    return memo(lists, "idcg", lambda: _cumulated(_ideal(lists, length)))


def bin_g(lists: RankedLists, rel: float = 1) -> np.ndarray:
    """binG ``(G, T)``."""
    hit = relevant(lists.gains, rel)
    above = np.arange(hit.shape[-1]) - (running_sum(hit) - hit)     # non-relevant above
    total = np.where(hit, 1.0 / np.log2(2.0 + above), 0.0).sum(axis=-1)
    return per_topic(lists, safe_ratio(total, num_relevant(lists, rel)))


def g_measure(lists: RankedLists) -> np.ndarray:
    """G ``(G, T)``."""
    gains = lists.gains
    ideal = _ideal(lists, gains.shape[-1])
    cost = running_sum(np.maximum(ideal, 1.0))
    collected = running_sum(gains)
    with np.errstate(invalid="ignore", divide="ignore"):
        terms = np.where(gains != 0, gains / np.log2(2.0 + cost - collected), 0.0)
    return per_topic(lists, safe_ratio(terms.sum(axis=-1), lists.ideal.sum(axis=-1)))


def ndcg_rel(lists: RankedLists) -> np.ndarray:
    """ndcg_rel ``(G, T)``."""
    gains = lists.gains
    depth = gains.shape[-1]
    positive = np.count_nonzero(lists.ideal > 0, axis=-1)                   # P
    dcg = _run_dcg(lists)[..., 1:]                                          # DCG(r), r = 1..D
    idcg = _ideal_dcg(lists)[..., :depth + 1]                               # IDCG(k), k = 0..D
    at = np.minimum(np.arange(1, depth + 1), positive[..., None])
    with np.errstate(invalid="ignore", divide="ignore"):
        found = np.where(gains > 0, dcg / np.take_along_axis(idcg, at, axis=-1), 0.0).sum(-1)
        full = _ideal_dcg(lists)[..., :lists.ideal.shape[-1] + 1]
        best = np.take_along_axis(full, positive[..., None], axis=-1)[..., 0]
        missed = positive - np.count_nonzero(gains > 0, axis=-1)
        total = found + missed * dcg[..., -1] / best
    return per_topic(lists, np.where(total > 0, safe_ratio(total, positive), 0.0))


def r_ndcg(lists: RankedLists, rel: float = 1, big_r: np.ndarray | None = None) -> np.ndarray:
    """Rndcg ``(G, T)``; ``big_r``: the topics' relevant documents when ``lists`` carry
    gains given per grade (trec_eval counts them by grade, before its gains)."""
    gains = lists.gains
    depth = gains.shape[-1]
    length = max(lists.ideal.shape[-1], depth) + 1
    ideal = _ideal(lists, length)
    positive = np.count_nonzero(ideal > 0, axis=-1)                         # P
    dcg = _run_dcg(lists)                                                   # DCG(k), k = 0..D
    idcg = _ideal_dcg(lists)                                                # IDCG(k), k = 0..length
    b = np.arange(1, length)
    boundary = ideal[..., 1:] != ideal[..., :-1]                            # I(b) != I(b-1)
    run_dcg = dcg[..., np.minimum(b, depth)]
    retrieved = np.broadcast_to(lists.retrieved, gains.shape[:2])
    with np.errstate(invalid="ignore", divide="ignore"):
        terms = np.where(boundary, run_dcg / idcg[..., 1:-1], 0.0).sum(axis=-1)
        best = np.take_along_axis(idcg, positive[..., None], axis=-1)[..., 0]
        end = np.where(retrieved > positive + 1, dcg[..., -1] / best, 0.0)
    count = np.count_nonzero(boundary, axis=-1) + (retrieved > positive + 1)
    value = safe_ratio(terms + end, count)
    big_r = num_relevant(lists, rel) if big_r is None else big_r
    return per_topic(lists, np.where(big_r > 0, value, 0.0))
