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
* ``relative_P@k`` (``relative_P.k``): relevant documents in the top ``k``
  over ``min(k, R)``, the most the top ``k`` could hold (0 when ``R = 0``).
* ``Rprec_mult@x`` (``Rprec_mult.x``): P@c at ``c = (long)(x * R + 0.9)``,
  precision at a multiple of ``R`` (``Rprec_mult@1`` is ``Rprec``); 0 when
  ``c = 0``.  trec_eval 10 kept 9's ``+ 0.9`` here (only the interpolated
  measures changed to ``lround``).
* ``unj@k`` (trec_eval 10's ``unj.k``, ``m_unjudged.c``): documents of the
  top ``k`` the qrels do not judge (absent, or graded below 0) over ``k``
  (ranks past the run's end count as judged non-relevant: ``k`` always).

A document is relevant when its gain is at least ``rel`` (default 1), ``R``
counts the topic's judged documents that are.
"""

from __future__ import annotations

import numpy as np

from .ranked import (JUDGED, NOT_IN_QRELS, RankedLists, memo, num_relevant, per_topic,
                     relevant, safe_ratio)
from .running import running_sum

__all__ = ["precision", "recall", "r_precision", "success", "judged", "relative_precision",
           "r_precision_multiple", "unjudged"]


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
                            running_sum(hit, np.int64)], axis=-1)
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


def relative_precision(lists: RankedLists, k: int, rel: float = 1) -> np.ndarray:
    """relative_P@k ``(G, T)``: relevant in the top ``k`` over ``min(k, R)``."""
    return per_topic(lists, safe_ratio(_found(lists, k, rel),
                                       np.minimum(k, num_relevant(lists, rel))))


def _found_by_rank(lists: RankedLists, rel: float) -> np.ndarray:
    """Relevant documents in the top ``i``, ``i = 0 .. depth`` ``(G, T, depth + 1)``."""
    hit = relevant(lists.gains, rel)
    return np.concatenate([np.zeros(hit.shape[:-1] + (1,), np.int64),
                           running_sum(hit, np.int64)], axis=-1)


def r_precision_multiple(lists: RankedLists, x: float, rel: float = 1) -> np.ndarray:
    """Rprec_mult@x ``(G, T)``: P@c at ``c = (long)(x * R + 0.9)`` (0 for ``c = 0``)."""
    cut = np.trunc(x * num_relevant(lists, rel).astype(float) + 0.9).astype(np.int64)
    found = memo(lists, ("found", rel), lambda: _found_by_rank(lists, rel))
    at = np.take_along_axis(found, np.minimum(cut, lists.depth)[..., None], axis=-1)[..., 0]
    return per_topic(lists, safe_ratio(at, cut))


def unjudged(lists: RankedLists, k: int) -> np.ndarray:
    """unj@k ``(G, T)``: returned documents of the top ``k`` without a judgment, over ``k``."""
    _, status = lists.cut(k)
    returned = np.arange(status.shape[-1]) < lists.retrieved[..., None]
    return per_topic(lists, np.count_nonzero((status != JUDGED) & returned, axis=-1) / k)
