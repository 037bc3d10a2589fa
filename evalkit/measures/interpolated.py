"""Interpolated precision at recall levels (``iprec_at_recall``, ``11pt_avg``), as trec_eval 10 computes them.

The recall-precision curve of the textbooks (trec_eval's
``m_iprec_at_recall.c`` and ``m_11pt_avg.c``; ir_measures' ``IPrec@r``):

    IPrec@x = max_{i >= i_c} P@i,    c = lround(x * R),   i_c = rank of the c-th relevant document

the interpolated precision (the best precision at or after a rank) where the
run has found ``c`` of the topic's ``R`` relevant documents (``c = 0``: the
first one); 0 when the run finds fewer than ``c`` (or none).  ``11pt_avg``
is the mean of ``IPrec@x`` over the levels ``0, 0.1, ..., 1`` (or those
given, ``11pt_avg..25,.5,.75``).

trec_eval 10 rounds ``x * R`` to the nearest integer (``lround``: halves away
from 0).  trec_eval 9 and earlier, and pytrec_eval, which builds on 9, take
``(long)(x * R + 0.9)``: ``R = 5, x = 0.1`` gives ``c = 1`` in both, but
``R = 12, x = 0.1`` gives 1 in 10 and 2 in 9, and the values differ.
evalkit follows 10; ``rounding="v9"`` gives 9's cutoffs (the tests use it to
show where pytrec_eval differs).
"""

from __future__ import annotations

import numpy as np

from .ranked import RankedLists, memo, num_relevant, per_topic, relevant
from .running import running_sum

__all__ = ["DEFAULT_LEVELS", "interpolated_precision", "eleven_point_average", "recall_cutoff"]

#: trec_eval's default recall levels.
DEFAULT_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def recall_cutoff(x: float, big_r: np.ndarray, rounding: str = "v10") -> np.ndarray:
    """``c``: how many relevant documents recall level ``x`` means for ``R`` relevant ones
    (``v10``: C's ``lround(x * R)``, halves away from 0; ``v9``: ``(long)(x * R + 0.9)``)."""
    scaled = x * np.asarray(big_r, dtype=float)
    if rounding == "v9":
        return np.trunc(scaled + 0.9).astype(np.int64)
    if rounding != "v10":
        raise ValueError(f"rounding {rounding!r}: v10 or v9")
    low = np.floor(scaled)
    return np.where(scaled - low >= 0.5, low + 1, low).astype(np.int64)


class _Curve:
    """One run's interpolated precision curve, computed once for several levels."""

    def __init__(self, lists: RankedLists, rel: float):
        hit = relevant(lists.gains, rel)
        self.found = running_sum(hit, np.int64)                 # in the top i
        precision = self.found / np.arange(1, hit.shape[-1] + 1)
        self.best = np.flip(np.maximum.accumulate(np.flip(precision, -1), axis=-1), -1)
        self.rel_ret = self.found[..., -1] if hit.shape[-1] else np.zeros(hit.shape[:-1], np.int64)
        self.big_r = num_relevant(lists, rel)
        self.done: dict = {}

    def at(self, x: float, rounding: str) -> np.ndarray:
        """IPrec@x (each level computed once: 11pt_avg reuses iprec_at_recall's)."""
        key = (float(x), rounding)
        if key not in self.done:
            self.done[key] = self._at(x, rounding)
        return self.done[key]

    def _at(self, x: float, rounding: str) -> np.ndarray:
        c = recall_cutoff(x, self.big_r, rounding)
        wanted = np.maximum(c, 1)
        rank = np.argmax(self.found >= wanted[..., None], axis=-1)         # the c-th relevant
        value = np.take_along_axis(self.best, rank[..., None], axis=-1)[..., 0]
        return np.where((self.rel_ret > 0) & (c <= self.rel_ret), value, 0.0)


def _curve(lists: RankedLists, rel: float) -> _Curve:
    """The run's curve, computed once for all its levels."""
    return memo(lists, ("curve", rel), lambda: _Curve(lists, rel))


def interpolated_precision(lists: RankedLists, x: float, rel: float = 1,
                           rounding: str = "v10") -> np.ndarray:
    """IPrec@x ``(G, T)`` over the whole run."""
    return per_topic(lists, _curve(lists, rel).at(x, rounding))


def eleven_point_average(lists: RankedLists, levels=DEFAULT_LEVELS, rel: float = 1,
                         rounding: str = "v10") -> np.ndarray:
    """The mean of IPrec@x over ``levels`` ``(G, T)``."""
    curve = _curve(lists, rel)
    total = sum(curve.at(float(x), rounding) for x in levels)
    return per_topic(lists, total / len(levels))
