"""bpref as trec_eval computes it (``bpref``; Buckley & Voorhees, SIGIR 2004), ir_measures' ``Bpref``.

Only judged documents count: for each relevant document retrieved,

    bpref = (1/R) sum_{relevant r} (1 - min(n_r, R) / min(N, R))

where ``n_r`` is the number of judged non-relevant documents ranked above it,
``R`` the topic's relevant documents and ``N`` its judged non-relevant ones
(a grade of 0 or more, gain below ``rel``); the term is 1 when ``n_r = 0``.
Documents outside the qrels, and those graded below 0 (trec_eval: "in the
pool but unjudged"), are skipped (``m_bpref.c``).  A topic with ``R = 0``
scores 0.
"""

from __future__ import annotations

import numpy as np

from .ranked import JUDGED, RankedLists, num_relevant, per_topic, relevant, safe_ratio
from .running import running_sum

__all__ = ["bpref"]


def bpref(lists: RankedLists, rel: float = 1) -> np.ndarray:
    """bpref ``(G, T)`` over the whole run."""
    hit = relevant(lists.gains, rel)
    nonrel = (lists.status == JUDGED) & ~hit
    above = running_sum(nonrel, np.int64)       # at a relevant rank: those above it
    big_r = num_relevant(lists, rel)
    big_n = lists.judged - big_r
    worst = np.minimum(big_n, big_r)[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        term = np.where(above > 0, 1.0 - np.minimum(above, big_r[..., None]) / worst, 1.0)
    return per_topic(lists, safe_ratio(np.where(hit, term, 0.0).sum(axis=-1), big_r))
