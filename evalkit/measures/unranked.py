"""trec_eval's set measures: the run's whole list as an unranked set (``set_P``, ``set_recall``, ``set_map``, ``set_F``, ``set_relative_P``, ``utility``).

With ``ret`` the documents the run returns for the topic, ``rel_ret`` the
relevant ones among them and ``R`` the topic's relevant documents (trec_eval's
``m_set_P.c``, ``m_set_recall.c``, ``m_set_map.c``, ``m_set_F.c``,
``m_set_rel_P.c``, ``m_utility.c``):

* ``set_P = rel_ret / ret`` (ir_measures' ``SetP``);
* ``set_recall = rel_ret / R`` (``SetR``);
* ``set_map = rel_ret^2 / (ret * R)``, recall times precision (``SetAP``);
* ``set_F = (beta + 1) P R / (beta P + R)`` with ``P = set_P``, ``R =
  set_recall`` (``SetF``; trec_eval's parameter, default 1, weighs P in the
  denominator as written: ``set_F.0.5``);
* ``set_relative_P = rel_ret / min(ret, R)``;
* ``utility = a rel_ret + b (ret - rel_ret) + c (R - rel_ret) + d (N + rel_ret - ret - R)``,
  trec_eval's contingency-table utility, coefficients ``utility.a,b,c,d``
  (default ``1,-1,0,0``); ``N``, the collection's size, is 0 here as in
  trec_eval without ``-N`` (so ``d`` should stay 0).

Each is 0 where its denominator is 0 (and ``set_F`` where ``rel_ret = 0``).
A topic the run does not return (``ret = 0``) scores 0, and ``utility``
``c R - d R``: 0 with the default coefficients, as trec_eval 10's ``-c``
prints it.  (trec_eval 10 scores such a topic as a stand-in ranking of one
unjudged document and clears ``utility`` only under its default name: with
coefficients, ``utility.2,-1,0,0``, it prints ``b + c R - d (1 + R)``, the
stand-in document's ``b`` included.)
"""

from __future__ import annotations

import numpy as np

from .ranked import RankedLists, num_relevant, per_topic, relevant, safe_ratio

__all__ = ["set_precision", "set_recall", "set_map", "set_f", "set_relative_precision",
           "utility", "DEFAULT_UTILITY"]

#: trec_eval's default utility coefficients (a, b, c, d).
DEFAULT_UTILITY = (1.0, -1.0, 0.0, 0.0)


def _counts(lists: RankedLists, rel: float):
    rel_ret = np.count_nonzero(relevant(lists.gains, rel), axis=-1).astype(float)
    ret = np.broadcast_to(lists.retrieved.astype(float), rel_ret.shape)
    return ret, rel_ret, num_relevant(lists, rel).astype(float)


def set_precision(lists: RankedLists, rel: float = 1) -> np.ndarray:
    """set_P ``(G, T)``."""
    ret, rel_ret, _ = _counts(lists, rel)
    return per_topic(lists, safe_ratio(rel_ret, ret))


def set_recall(lists: RankedLists, rel: float = 1) -> np.ndarray:
    """set_recall ``(G, T)``."""
    _, rel_ret, big_r = _counts(lists, rel)
    return per_topic(lists, safe_ratio(rel_ret, big_r))


def set_map(lists: RankedLists, rel: float = 1) -> np.ndarray:
    """set_map ``(G, T)``."""
    ret, rel_ret, big_r = _counts(lists, rel)
    return per_topic(lists, safe_ratio(rel_ret * rel_ret, ret * big_r))


def set_f(lists: RankedLists, beta: float = 1.0, rel: float = 1) -> np.ndarray:
    """set_F ``(G, T)`` with trec_eval's weight ``beta``."""
    ret, rel_ret, big_r = _counts(lists, rel)
    p, r = safe_ratio(rel_ret, ret), safe_ratio(rel_ret, big_r)
    return per_topic(lists, np.where(rel_ret > 0, safe_ratio((beta + 1.0) * p * r, beta * p + r),
                                     0.0))


def set_relative_precision(lists: RankedLists, rel: float = 1) -> np.ndarray:
    """set_relative_P ``(G, T)``."""
    ret, rel_ret, big_r = _counts(lists, rel)
    return per_topic(lists, safe_ratio(rel_ret, np.minimum(ret, big_r)))


def utility(lists: RankedLists, coefficients=DEFAULT_UTILITY, rel: float = 1) -> np.ndarray:
    """utility ``(G, T)`` with coefficients ``(a, b, c, d)``."""
    a, b, c, d = (float(x) for x in coefficients)
    ret, rel_ret, big_r = _counts(lists, rel)
    value = a * rel_ret + b * (ret - rel_ret) + c * (big_r - rel_ret) + d * (rel_ret - ret - big_r)
    return per_topic(lists, value)
