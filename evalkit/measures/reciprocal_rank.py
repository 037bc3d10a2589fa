"""Reciprocal rank as trec_eval computes it (``recip_rank``), ir_measures' ``RR``.

    RR = 1 / (rank of the first relevant document), 0 when none is retrieved

``RR@k`` looks at the top ``k`` only.  A document is relevant when its gain
is at least ``rel`` (default 1).
"""

from __future__ import annotations

import numpy as np

from .ranked import RankedLists, per_topic, relevant

__all__ = ["reciprocal_rank"]


def reciprocal_rank(lists: RankedLists, k: int | None = None, rel: float = 1) -> np.ndarray:
    """RR@k ``(G, T)`` (``k=None``: the whole run)."""
    gains, _ = lists.cut(k)
    hit = relevant(gains, rel)
    first = np.argmax(hit, axis=-1)
    return per_topic(lists, np.where(hit.any(axis=-1), 1.0 / (first + 1), 0.0))
