"""nDCG and nDCG@k as trec_eval computes them (``ndcg``, ``ndcg_cut.k``): the grade is the gain.

Järvelin & Kekäläinen (2002), in trec_eval's form (``m_ndcg.c``,
``m_ndcg_cut.c``), which ir_measures and PyTerrier call ``nDCG`` and
``nDCG@k``:

    DCG@k  = sum_{r=1}^{k} g(r) / log2(r + 1)
    nDCG@k = DCG@k / IDCG@k

with ``g(r)`` the gain of the run's document at rank ``r`` (its grade for one
judge's qrels; 0 when unjudged or graded below 0) and IDCG@k the DCG@k of the
topic's judged documents sorted by gain, descending.  ``nDCG`` (no cutoff)
sums over the whole run and the whole ideal list.  A topic without a positive
gain scores 0, as in trec_eval.  Any gain works: ``--gain ug --measure
nDCG@10`` is Sakai's unanimity-aware gain inside nDCG.
"""

from __future__ import annotations

import numpy as np

from .ranked import RankedLists, gain_table, per_topic, regained, safe_ratio

__all__ = ["ndcg", "dcg", "discounted_gain", "with_gains", "DCG_KINDS"]

#: ``dcg=``: how a grade becomes a gain (ir_measures' names).
DCG_KINDS = ("log2", "exp-log2")


def with_gains(lists: RankedLists, dcg: str = "log2", gains=()) -> RankedLists:
    """``lists`` with the gains of ``gains`` (``(level, gain)`` pairs) and then, for
    ``dcg='exp-log2'``, ``2^g - 1``."""
    if gains:
        lists = regained(lists, gain_table(gains))
    if dcg == "exp-log2":
        lists = regained(lists, lambda g: np.exp2(g) - 1.0)
    elif dcg != "log2":
        raise ValueError(f"dcg={dcg!r}: one of {', '.join(DCG_KINDS)}")
    return lists


def _discount(n: int) -> np.ndarray:
    return 1.0 / np.log2(np.arange(2, n + 2))


def dcg(gains: np.ndarray) -> np.ndarray:
    """``sum_r g(r) / log2(r + 1)`` over the last axis."""
    return gains @ _discount(gains.shape[-1])


def ndcg(lists: RankedLists, k: int | None = None) -> np.ndarray:
    """nDCG@k per column and topic ``(G, T)`` (``k=None``: trec_eval's ``ndcg``, uncut)."""
    gains, _ = lists.cut(k)
    ideal = lists.ideal if k is None else lists.ideal[..., :k]
    return per_topic(lists, safe_ratio(dcg(gains), dcg(ideal)))


def discounted_gain(lists: RankedLists, k: int | None = None) -> np.ndarray:
    """DCG@k per column and topic ``(G, T)``, unnormalised (``k=None``: the whole run)."""
    gains, _ = lists.cut(k)
    return per_topic(lists, dcg(gains))
