"""trec_eval's ``relstring``: the judgments of a run's first ranks as a string, one per topic.

``relstring.k`` (default 10; ``m_relstring.c``) writes one character per
rank of the top ``min(k, retrieved)``: the document's grade for ``0``..``9``,
``>`` above 9, ``-`` for a document outside the qrels and ``.`` for one in
the qrels graded below 0 (in the pool, unjudged).  Not a number: it has its
own path (:func:`relstring`, flagged ``strings`` in
:data:`evalkit.measures.registry.MEASURES`), no mean, and ``evalkit score``
leaves it out of its numbers (``--format trec_eval`` prints it).  With
several judges' pooled gains the character is the gain's integer part.
"""

from __future__ import annotations

import numpy as np

from .ranked import JUDGED, NOT_IN_QRELS, RankedLists

__all__ = ["relstring", "DEFAULT_LENGTH"]

#: trec_eval's default length.
DEFAULT_LENGTH = 10


def _char(gain: float, status: int) -> str:
    if status == NOT_IN_QRELS:
        return "-"
    if status != JUDGED:
        return "."
    return ">" if gain > 9 else str(int(gain))


def relstring(lists: RankedLists, k: int = DEFAULT_LENGTH) -> np.ndarray:
    """``(G, T)`` strings (object array); None where the column's qrels lack the topic."""
    gains, status = lists.cut(k)
    n_cols, n_topics = gains.shape[:2]
    out = np.empty((n_cols, n_topics), dtype=object)
    shown = np.broadcast_to(np.minimum(lists.retrieved, k), (n_cols, n_topics))  # (T,) or (G, T)
    judged = status == JUDGED
    if (gains[judged] >= 0).all():
        # every character is one byte of a table: built for all ranks at once
        chars = np.where(status == NOT_IN_QRELS, ord("-"), np.where(~judged, ord("."), np.where(
            gains > 9, ord(">"), ord("0") + np.floor(np.where(judged, gains, 0))))).astype(np.uint8)
        text = lambda g, t: chars[g, t, :shown[g, t]].tobytes().decode("ascii")  # noqa: E731
    else:                                   # a negative or odd gain: one character at a time
        text = lambda g, t: "".join(_char(x, s) for x, s in zip(  # noqa: E731
            gains[g, t, :shown[g, t]], status[g, t, :shown[g, t]]))
    for g in range(n_cols):
        for t in range(n_topics):
            out[g, t] = text(g, t) if lists.in_qrels[g, t] else None
    return out
