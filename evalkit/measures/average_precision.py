"""Average precision as trec_eval computes it (``map``, ``map_cut.k``).

Buckley & Voorhees; trec_eval's ``m_map.c`` and ``m_map_cut.c``, which
ir_measures and PyTerrier call ``AP`` and ``AP@k``:

    AP@k = (1/R) sum_{r <= k, rel(r)} P@r,     P@r = (relevant in the top r) / r

``R`` is the number of the topic's judged documents with a gain of at least
``rel`` (the relevance level, default 1) — all of them, not only those in the
top ``k`` (as trec_eval's ``map_cut`` divides).  A topic with ``R = 0``
scores 0.
"""

from __future__ import annotations

import numpy as np

from .ranked import RankedLists, memo, num_relevant, per_topic, relevant, safe_ratio
from .running import running_sum

__all__ = ["average_precision"]


def average_precision(lists: RankedLists, k: int | None = None, rel: float = 1) -> np.ndarray:
    """AP@k per column and topic ``(G, T)`` (``k=None``: the whole run)."""
    sums = memo(lists, ("AP sums", rel), lambda: _running_sums(lists.gains, rel))
    depth = sums.shape[-1]
    if depth == 0:
        total = np.zeros(sums.shape[:-1])
    else:
        total = sums[..., depth - 1 if k is None else min(k, depth) - 1]
    return per_topic(lists, safe_ratio(total, num_relevant(lists, rel)))


def _running_sums(gains: np.ndarray, rel: float) -> np.ndarray:
    """``sums[..., r]``: the sum of P@i over the relevant ranks i <= r + 1, added rank by rank
    as ``m_map.c`` adds them (numpy's pairwise sum can differ in the last bit, and so a
    printed fourth decimal: 0.5812 against 0.5813 at a half); ``AP@k``'s numerator is
    ``sums[..., k - 1]``, so every cutoff of one run reads one array (the ranks past the
    list add nothing)."""
    hit = relevant(gains, rel)
    found = running_sum(hit, np.int32)
    ranks = np.arange(1, hit.shape[-1] + 1)
    return running_sum(np.where(hit, found / ranks, 0.0))
