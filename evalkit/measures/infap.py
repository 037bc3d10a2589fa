"""Inferred AP (Yilmaz & Aslam, CIKM 2006) as trec_eval computes it (``infAP``, ``m_infap.c``), ir_measures' ``infAP``.

AP estimated from a judged sample of the pool.  Walking down the run, a
document not in the qrels counts as non-relevant, one in the qrels with a
grade below 0 (in the pool, unjudged) is skipped from the precision estimate
but counts as a document above, and at each relevant document at rank
``k > 1``

    E[P@k] = 1/k + ((k-1)/k) * (|d100| / (k-1)) * ((rel + eps) / (rel + nonrel + 2 eps))

with ``|d100|`` the documents above it that are in the pool (judged or not),
``rel`` and ``nonrel`` the judged relevant and non-relevant ones above it and
``eps = 0.00001`` (trec_eval's ``INFAP_EPSILON``); ``E[P@1] = 1``.  infAP
is the sum of these over the relevant documents retrieved, over ``R`` (0
when ``R = 0``).  A document is relevant when its gain is at least ``rel``.
"""

from __future__ import annotations

import numpy as np

from .ranked import JUDGED, UNJUDGED, RankedLists, num_relevant, per_topic, relevant, safe_ratio
from .running import running_sum

__all__ = ["inferred_ap", "INFAP_EPSILON"]

#: trec_eval's smoothing constant (``trec_eval.h``).
INFAP_EPSILON = 0.00001


def _above(mask: np.ndarray) -> np.ndarray:
    """How many ranks above each rank are in ``mask``."""
    return running_sum(mask, np.int64) - mask


def inferred_ap(lists: RankedLists, rel: float = 1) -> np.ndarray:
    """infAP ``(G, T)`` over the whole run."""
    hit = relevant(lists.gains, rel)
    judged = lists.status == JUDGED
    rel_above = _above(hit)
    nonrel_above = _above(judged & ~hit)
    pooled_above = rel_above + nonrel_above + _above(lists.status == UNJUDGED)
    k = np.arange(hit.shape[-1], dtype=float)                 # rank - 1
    with np.errstate(invalid="ignore", divide="ignore"):
        term = (1.0 / (k + 1.0) + (k / (k + 1.0)) * (pooled_above / k)
                * ((rel_above + INFAP_EPSILON) / (rel_above + nonrel_above + 2 * INFAP_EPSILON)))
    term = np.where(k == 0, 1.0, term)
    total = np.where(hit, term, 0.0).sum(axis=-1)
    return per_topic(lists, safe_ratio(total, num_relevant(lists, rel)))
