"""Ranked lists as trec_eval's measures see them: gains, judgment status and the topic's qrels.

The measures of :mod:`evalkit.measures.ndcg`, :mod:`.average_precision`,
:mod:`.set_measures`, :mod:`.reciprocal_rank`, :mod:`.bpref` and :mod:`.err`
read one :class:`RankedLists` holding, for ``G`` judgment columns (judges, or
gains pooled over judges), ``T`` topics and the first ``D`` ranks of a run:

* ``gains[g, t, r]``: the gain of the document at rank ``r + 1`` (0 when it
  is unjudged, graded below 0, or the rank is empty);
* ``status[g, t, r]``: :data:`NOT_IN_QRELS` (trec_eval's ``RELVALUE_NONPOOL``,
  also an empty rank), :data:`UNJUDGED` (in the qrels with a grade below 0:
  trec_eval's ``RELVALUE_UNJUDGED``, "in the pool but not judged") or
  :data:`JUDGED` (a grade of 0 or more);
* ``retrieved[t]``: how many documents the run returns for the topic;
* ``ideal[g, t, :]``: the gains of the topic's judged documents, descending
  (0-padded); ``judged[g, t]``: how many documents have a grade >= 0;
  ``in_qrels[g, t]``: whether the column's qrels hold the topic at all;
* ``gmax[g]``: the largest gain the column can give (ERR's normaliser).

trec_eval reads a qrels grade below 0 as a document in the pool but unjudged
(``form_res_rels.c``): it is never relevant, and bpref does not count it as a
judged non-relevant document either.  Binary measures call a document
relevant when its gain is at least the relevance level ``rel`` (trec_eval's
``-l``, default 1); for one judge's qrels the gain is the grade.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["RankedLists", "NOT_IN_QRELS", "UNJUDGED", "JUDGED", "relevant", "num_relevant",
           "per_topic", "safe_ratio", "regained", "gain_table", "memo"]

#: ``status`` codes (int8).
NOT_IN_QRELS, UNJUDGED, JUDGED = 0, 1, 2


@dataclass
class RankedLists:
    """One run's lists under ``G`` judgment columns (see the module docstring)."""

    gains: np.ndarray          # (G, T, D) float
    status: np.ndarray         # (G, T, D) int8
    retrieved: np.ndarray      # (T,) int
    ideal: np.ndarray          # (G, T, W) float, descending
    judged: np.ndarray         # (G, T) int
    in_qrels: np.ndarray       # (G, T) bool
    gmax: np.ndarray           # (G,) float

    @property
    def depth(self) -> int:
        return self.gains.shape[-1]

    def cut(self, k: int | None) -> tuple[np.ndarray, np.ndarray]:
        """``gains`` and ``status`` of the first ``k`` ranks (all for None), zero-padded."""
        if k is None or k == self.depth:
            return self.gains, self.status
        if k < self.depth:
            return self.gains[..., :k], self.status[..., :k]
        pad = [(0, 0)] * (self.gains.ndim - 1) + [(0, k - self.depth)]
        return np.pad(self.gains, pad), np.pad(self.status, pad)


def relevant(gains: np.ndarray, rel: float) -> np.ndarray:
    """Relevant ranks: a gain of at least ``rel > 0`` (trec_eval's ``rel >= -l``; unjudged
    documents, grades below 0 and empty ranks have gain 0, so they never are)."""
    return gains >= rel


def memo(lists: RankedLists, key, make):
    """``make()``, computed once per ``lists`` and ``key`` (many measures of one run share
    ``R`` or a precision curve; the lists, and so the cache, live for one run)."""
    cache = lists.__dict__.setdefault("_memo", {})
    if key not in cache:
        cache[key] = make()
    return cache[key]


def num_relevant(lists: RankedLists, rel: float) -> np.ndarray:
    """``R``: the topic's judged documents with a gain of at least ``rel``, ``(G, T)``."""
    return memo(lists, ("R", rel), lambda: np.count_nonzero(lists.ideal >= rel, axis=-1))


def per_topic(lists: RankedLists, values: np.ndarray) -> np.ndarray:
    """``values`` ``(G, T)`` with NaN where the column's qrels do not hold the topic
    (trec_eval evaluates only the topics of its qrels)."""
    return np.where(lists.in_qrels, values, np.nan)


def safe_ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den``, 0 where ``den`` is 0 (trec_eval's guard for topics without relevant
    documents)."""
    den = np.asarray(den)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), 0.0)


def regained(lists: RankedLists, gain) -> RankedLists:
    """``lists`` with each judged document's gain ``g`` replaced by ``gain(g)`` (an array
    function), the ideal lists re-sorted: trec_eval's ``ndcg.1=3,2=9`` gains and
    ir_measures' ``gains={...}`` and ``dcg='exp-log2'`` (``2^g - 1``).  A judged document of
    gain 0 takes ``gain(0)``; unjudged ones and empty ranks keep 0."""
    gains = np.where(lists.status == JUDGED, gain(lists.gains), 0.0)
    width = lists.ideal.shape[-1]
    at = np.arange(width)
    positive = np.count_nonzero(lists.ideal > 0, axis=-1)[..., None]
    judged = lists.judged[..., None]
    ideal = np.where(at < positive, gain(lists.ideal),
                     np.where(at < judged, gain(np.zeros_like(lists.ideal)), 0.0))
    ideal = -np.sort(-ideal, axis=-1)
    return RankedLists(gains, lists.status, lists.retrieved, ideal, lists.judged, lists.in_qrels,
                       lists.gmax)


def gain_table(pairs) -> callable:
    """``gain(g)`` from ``(level, gain)`` pairs; other levels keep their own gain."""
    table = dict(pairs)

    def gain(values: np.ndarray) -> np.ndarray:
        out = np.array(values, dtype=float, copy=True)
        for level, value in table.items():
            out[values == level] = value
        return out
    return gain
