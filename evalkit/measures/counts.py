"""trec_eval's counts (``num_ret``, ``num_rel``, ``num_rel_ret``, ``num_nonrel_judged_ret``, ``num_q``).

Not measures of quality but the numbers behind them, per topic, as
trec_eval's ``m_num_ret.c``, ``m_num_rel.c``, ``m_num_rel_ret.c``,
``m_num_nonrel_judged_ret.c`` and ``m_num_q.c`` count them:

* ``num_ret``: documents the run returns for the topic (all of them, not only
  the ranks a cutoff reads);
* ``num_rel``: ``R``, the topic's judged documents with a gain of at least
  ``rel`` (retrieved or not);
* ``num_rel_ret``: the relevant ones the run returns;
* ``num_nonrel_judged_ret``: returned documents judged (a grade of 0 or more)
  but not relevant;
* ``num_q``: 1 for each topic scored.

Their summary over topics (the ``all`` row) is the sum, not the mean, as
trec_eval prints it (:data:`evalkit.measures.registry.MEASURES`' ``summary``).
ir_measures calls ``num_ret`` ``NumRet``, ``num_rel_ret`` ``NumRet(rel=1)``,
``num_rel`` ``NumRel`` and ``num_q`` ``NumQ``.  A topic the run does not
return counts ``num_ret = 0`` and its ``num_rel``, as trec_eval 10's ``-c``
counts it.
"""

from __future__ import annotations

import numpy as np

from .ranked import JUDGED, RankedLists, num_relevant, per_topic, relevant

__all__ = ["num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "num_q"]


def _shape(lists: RankedLists) -> tuple[int, int]:
    return lists.gains.shape[:2]


def num_ret(lists: RankedLists) -> np.ndarray:
    """Documents returned per topic ``(G, T)``."""
    return per_topic(lists, np.broadcast_to(lists.retrieved.astype(float), _shape(lists)))


def num_rel(lists: RankedLists, rel: float = 1) -> np.ndarray:
    """``R`` per column and topic ``(G, T)``."""
    return per_topic(lists, num_relevant(lists, rel).astype(float))


def num_rel_ret(lists: RankedLists, rel: float = 1) -> np.ndarray:
    """Relevant documents returned ``(G, T)`` (the lists must hold the whole run)."""
    return per_topic(lists, np.count_nonzero(relevant(lists.gains, rel), axis=-1).astype(float))


def num_nonrel_judged_ret(lists: RankedLists, rel: float = 1) -> np.ndarray:
    """Judged, non-relevant documents returned ``(G, T)``."""
    judged_nonrel = (lists.status == JUDGED) & ~relevant(lists.gains, rel)
    return per_topic(lists, np.count_nonzero(judged_nonrel, axis=-1).astype(float))


def num_q(lists: RankedLists) -> np.ndarray:
    """1 for every topic the column scores ``(G, T)`` (the sum counts the topics)."""
    return per_topic(lists, np.ones(_shape(lists)))
