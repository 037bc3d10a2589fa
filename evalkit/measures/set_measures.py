"""Measures that count documents in the top k, as trec_eval and ir_measures define them.

* ``P@k`` (trec_eval ``P.k``): relevant documents in the top ``k``, over
  ``k`` (always ``k``, also when the run returns fewer).
* ``R@k`` (``recall.k``): relevant documents in the top ``k``, over ``R``
  (0 when ``R = 0``).
* ``Rprec`` (``Rprec``): relevant documents in the top ``R``, over ``R``.
* ``Success@k`` (``success.k``): 1 when a relevant document is in the top
  ``k``, else 0.
* ``Judged@k`` (ir_measures' ``Judged``, after OpenNIR): documents of the top
  ``k`` that the qrels hold (any grade, below 0 included), over
  ``min(k, retrieved)``; 0 for a topic the run does not return.  ir_measures
  sorts tied scores by document id ascending for this one measure; evalkit
  scores it on the same trec_eval order as every other measure.

A document is relevant when its gain is at least ``rel`` (default 1), ``R``
counts the topic's judged documents that are.
"""

from __future__ import annotations

import numpy as np

from .ranked import NOT_IN_QRELS, RankedLists, num_relevant, per_topic, relevant, safe_ratio

__all__ = ["precision", "recall", "r_precision", "success", "judged"]


def _found(lists: RankedLists, k: int | None, rel: float) -> np.ndarray:
    gains, _ = lists.cut(k)
    return np.count_nonzero(relevant(gains, rel), axis=-1)


def precision(lists: RankedLists, k: int, rel: float = 1) -> np.ndarray:
    """P@k ``(G, T)``."""
    return per_topic(lists, _found(lists, k, rel) / k)


def recall(lists: RankedLists, k: int | None, rel: float = 1) -> np.ndarray:
    """R@k ``(G, T)`` (``k=None``: the whole run)."""
    return per_topic(lists, safe_ratio(_found(lists, k, rel), num_relevant(lists, rel)))


def r_precision(lists: RankedLists, rel: float = 1) -> np.ndarray:
    """R-precision ``(G, T)``: relevant in the top ``R`` over ``R``."""
    big_r = num_relevant(lists, rel)
    hit = relevant(lists.gains, rel)
    found = np.concatenate([np.zeros(hit.shape[:-1] + (1,), np.int64),
                            np.cumsum(hit, axis=-1, dtype=np.int64)], axis=-1)
    at = np.minimum(big_r, hit.shape[-1])[..., None]
    return per_topic(lists, safe_ratio(np.take_along_axis(found, at, axis=-1)[..., 0], big_r))


def success(lists: RankedLists, k: int | None, rel: float = 1) -> np.ndarray:
    """Success@k ``(G, T)``: 1 if a relevant document is in the top ``k``."""
    return per_topic(lists, (_found(lists, k, rel) > 0).astype(float))


def judged(lists: RankedLists, k: int | None) -> np.ndarray:
    """Judged@k ``(G, T)``: the share of the top ``min(k, retrieved)`` the qrels hold."""
    _, status = lists.cut(k)
    held = np.count_nonzero(status != NOT_IN_QRELS, axis=-1)
    shown = lists.retrieved if k is None else np.minimum(lists.retrieved, k)
    return per_topic(lists, safe_ratio(held, shown))
