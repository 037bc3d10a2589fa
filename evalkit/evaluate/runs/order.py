"""The order of a run's documents per topic: trec_eval's (by score) or the rank column's.

trec_eval ignores the rank column: it sorts each topic's documents by score,
descending, and breaks ties by document id, descending (``strcmp`` on the
ids' bytes; ``form_res_rels.c``, ``comp_sim_docno``); pytrec_eval,
ir_measures and PyTerrier do the same.  NTCIREVAL reads ranked lists in the
order given, which is what ``--order rank`` does: rank ascending, ties in
file order.  :func:`row_order` gives either, and counts the topics whose two
orders differ, so that a run whose ranks contradict its scores (all ranks 0,
shuffled lines, negated scores) is not scored silently one way.

Most run files are already in trec_eval's order with increasing ranks: that
is checked in one pass over the rows and costs no sort.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...measures.running import running_sum

__all__ = ["ORDERS", "Ordered", "row_order"]

#: ``--order`` choices.
ORDERS = ("score", "rank")


@dataclass
class Ordered:
    """Rows grouped by topic (ascending topic code), each topic's in the chosen order.

    ``rows`` indexes the input rows; ``topic`` is each ordered row's topic
    code; ``disagree`` the number of topics whose rank-column order differs
    from the score order.
    """

    rows: np.ndarray
    topic: np.ndarray
    disagree: int


def _group(topic: np.ndarray) -> np.ndarray:
    """Rows by topic code, file order within a topic (no sort when already grouped)."""
    if len(topic) < 2 or (np.diff(topic) >= 0).all():
        return np.arange(len(topic))
    return np.argsort(topic, kind="stable")


def _by_score(topic: np.ndarray, score: np.ndarray, doc_ids) -> np.ndarray:
    """trec_eval's order: topic, score descending, document id descending.

    Rows whose scores already fall (or tie) within each topic keep their place
    and only runs of tied scores are sorted by id; otherwise one stable sort by
    (topic, -score) first.  ``doc_ids(rows)`` gives the ids of some rows.
    """
    rows = _group(topic)
    t, s = topic[rows], score[rows]
    same = t[1:] == t[:-1]
    if (same & (s[1:] > s[:-1])).any():               # not falling within some topic: sort
        rows = rows[np.lexsort((-s, t))]
        t, s = topic[rows], score[rows]
        same = t[1:] == t[:-1]
    tied = same & (s[1:] == s[:-1])
    if not tied.any():
        return rows
    # runs of equal (topic, score): each sorted by document id, descending (byte order)
    at = np.flatnonzero(np.r_[False, tied] | np.r_[tied, False])
    group = running_sum(np.r_[True, ~tied])[at]
    ids = np.asarray(doc_ids(rows[at]), dtype=object)
    code = np.unique(ids.astype(str), return_inverse=True)[1].ravel()
    rows[at] = rows[at][np.lexsort((-code, group))]
    return rows


def _by_rank(topic: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """Topic, then rank ascending, ties in file order."""
    rows = _group(topic)
    t, r = topic[rows], rank[rows]
    if (~(t[1:] == t[:-1]) | (r[1:] >= r[:-1])).all():
        return rows
    return rows[np.lexsort((r, t))]


def row_order(topic: np.ndarray, rank: np.ndarray, score: np.ndarray, doc_ids,
              order: str = "score") -> Ordered:
    """Order rows (``topic`` codes, ``rank``, ``score``) as ``order`` says (:data:`ORDERS`).

    ``doc_ids(rows)`` gives the document ids of some rows (asked only for rows
    whose scores tie).  ``disagree`` counts the topics whose rank order differs from
    trec_eval's order.
    """
    if len(topic) > 1:                                  # the usual file: no sort, no copy
        same = topic[1:] == topic[:-1]
        if (np.diff(topic) >= 0).all() and not (same & (score[1:] >= score[:-1])).any() \
                and not (same & (rank[1:] < rank[:-1])).any():
            return Ordered(np.arange(len(topic)), topic, 0)
    by_score = _by_score(topic, score, doc_ids)
    by_rank = _by_rank(topic, rank)
    rows = by_score if order == "score" else by_rank
    t = topic[rows]
    differs = by_score != by_rank
    disagree = int(len(np.unique(t[differs]))) if differs.any() else 0
    return Ordered(rows, t, disagree)
