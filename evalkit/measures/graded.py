"""NTCIREVAL-style graded measures fed with direct gain values (Sakai 2017, §4).

Sakai evaluates runs with NTCIREVAL's "direct gain value" mode: every judged
item carries a real-valued gain (RawG or UG) instead of a relevance level.
Definitions, per topic (see also ``docs/measures.md``):

* ``g(r)`` gain of the run's item at rank ``r`` (unjudged items get 0), the
  run cut at rank ``k``; ``g*(r)`` the same for the ideal list (all judged
  items sorted by gain, descending); ``cg``/``cg*`` their cumulative sums;
* ``C(r)`` the number of items with ``g > 0`` in the run's top ``r``;
  ``R`` the number of judged items with gain ``> 0``; ``gmax = g*(1)``;
* blended ratio ``BR(r) = (beta cg(r) + C(r)) / (beta cg*(r) + r)``.

Measures (each in ``[0, 1]``, and 1 for the ideal ranking):

* ``nG@1 = g(1) / g*(1)`` (no discount applies at rank 1);
* ``nERR@k = ERR@k / ERR*@k`` with ``ERR = sum_r (1/r) P(r) prod_{i<r} (1-P(i))``
  and satisfaction probability ``P(r) = g(r) / (gmax + 1)`` (NTCIREVAL);
* ``P+ = (1/C(rp)) sum_{r <= rp, g(r) > 0} BR(r)``, the preferred rank ``rp``
  being the first rank of the cut list holding its largest gain; 0 when the
  run retrieves nothing relevant (Sakai, NTCIR-12 STC overview);
* ``Q = (1/R) sum_{r: g(r) > 0} BR(r)`` (Sakai's Q-measure).

A topic with no positive gain cannot be normalised: every measure is NaN there,
and :func:`score_runs` drops such topics and reports them.

The numeric kernel :func:`batch_measures` works on arrays of any leading shape
(e.g. ``conditions x runs x topics``); the public per-run functions wrap it.
Their names, defaults, formulas and sources are registered in
:mod:`evalkit.measures.registry`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from ..errors import InputError, ParameterError

__all__ = [
    "ng_at_k",
    "nerr_at_k",
    "p_plus",
    "q_measure",
    "batch_measures",
    "RankedLists",
    "ranked_lists",
    "score_runs",
]


# --------------------------------------------------------------------------
# numeric kernel
# --------------------------------------------------------------------------
#: Lists from which :func:`batch_measures` scores compiled by default (numba's import and its
#: cached code cost about half a second a process, more than a small batch takes in numpy).
COMPILED_MIN_LISTS = 20_000

#: The measures :func:`batch_measures` computes.
BATCH_MEASURES = ("nG@1", "nERR", "P+", "Q")

def _ideal_sorted(ideal: np.ndarray) -> np.ndarray:
    return -np.sort(-ideal, axis=-1)


def batch_measures(
    run_gains,
    ideal_gains,
    measures: Sequence[str] = ("nG@1", "P+", "nERR", "Q"),
    beta: float = 1.0,
    ideal_sorted: bool = False,
    compiled: bool | None = None,
) -> dict[str, np.ndarray]:
    """Score many ranked lists at once.

    Parameters
    ----------
    run_gains:
        ``(..., k)`` gains of each list's items in rank order, already cut at
        the evaluation depth ``k`` (pad short lists with 0).
    ideal_gains:
        ``(..., L)`` gains of all judged items of the list's topic, broadcastable
        against ``run_gains`` in the leading axes; pad with 0.
    measures:
        Any of ``"nG@1"``, ``"nERR"`` (at depth ``k``), ``"P+"``, ``"Q"``.
    ideal_sorted:
        Skip sorting when ``ideal_gains`` is already descending.
    compiled:
        Score in one compiled pass over the lists
        (:mod:`evalkit.measures._graded_kernels`, the same bits as the numpy
        path); ``None`` (default) does so for :data:`COMPILED_MIN_LISTS` lists
        or more, so small batches never load numba.  Needs finite gains and
        ``k <= 128``; otherwise numpy scores.

    Returns
    -------
    dict
        measure name -> array of the leading shape; NaN where the topic has no
        positive gain.
    """
    g = np.asarray(run_gains, dtype=float)
    ideal = np.asarray(ideal_gains, dtype=float)
    if not ideal_sorted:
        ideal = _ideal_sorted(ideal)
    k = g.shape[-1]
    if ideal.shape[-1] < k:
        pad = [(0, 0)] * (ideal.ndim - 1) + [(0, k - ideal.shape[-1])]
        ideal_k = np.pad(ideal, pad)
    else:
        ideal_k = ideal[..., :k]
    gmax = ideal[..., 0]
    lead = np.broadcast_shapes(g.shape[:-1], ideal.shape[:-1])
    if compiled is None:
        compiled = math.prod(lead) >= COMPILED_MIN_LISTS
    if (compiled and k <= 128 and set(measures) <= set(BATCH_MEASURES) and np.isfinite(g).all()
            and np.isfinite(ideal).all()):
        from . import _graded_kernels

        rows = math.prod(lead)
        big_r = np.count_nonzero(ideal > 0, axis=-1) if "Q" in measures else np.zeros(1, np.int64)
        flat = _graded_kernels.scores(
            np.broadcast_to(g, lead + (k,)).reshape(rows, k),
            np.broadcast_to(ideal_k, lead + (k,)).reshape(rows, k),
            np.broadcast_to(gmax, lead).reshape(rows),
            np.broadcast_to(big_r, lead).reshape(rows) if "Q" in measures else np.zeros(rows, np.int64),
            measures, beta)
        return {m: v.reshape(lead) for m, v in flat.items()}
    valid = gmax > 0
    shared: dict[str, np.ndarray] = {}   # the blended ratio, computed once for P+ and Q
    with np.errstate(invalid="ignore", divide="ignore"):
        out: dict[str, np.ndarray] = {}
        for name in measures:
            if name == "nG@1":
                val = g[..., 0] / gmax
            elif name == "nERR":
                val = _err(g, gmax) / _err(ideal_k, gmax)
            elif name in ("P+", "Q"):
                ranks = np.arange(1, k + 1)
                if not shared:
                    shared["rel"] = g > 0
                    shared["br"] = (beta * np.cumsum(g, -1) + np.cumsum(shared["rel"], -1)) / (
                        beta * np.cumsum(ideal_k, -1) + ranks
                    )
                rel, br = shared["rel"], shared["br"]
                if name == "Q":
                    big_r = np.count_nonzero(ideal > 0, axis=-1)
                    val = np.where(rel, br, 0.0).sum(-1) / big_r
                else:
                    top = g.max(axis=-1, keepdims=True)
                    rp = np.argmax(g == top, axis=-1)[..., None]  # 0-based
                    upto = (ranks - 1 <= rp) & rel
                    c_rp = upto.sum(-1)
                    val = np.where(
                        c_rp > 0, np.where(upto, br, 0.0).sum(-1) / np.maximum(c_rp, 1), 0.0
                    )
            else:
                raise ParameterError("measures", name, f"one of {list(BATCH_MEASURES)}")
            out[name] = np.where(valid, val, np.nan)
    return out


def _err(g: np.ndarray, gmax: np.ndarray) -> np.ndarray:
    """ERR with NTCIREVAL's satisfaction probability ``P(r) = g(r)/(gmax+1)``."""
    prob = g / (gmax[..., None] + 1.0)
    reach = np.cumprod(1.0 - prob, axis=-1)
    reach = np.concatenate([np.ones_like(reach[..., :1]), reach[..., :-1]], axis=-1)
    ranks = np.arange(1, g.shape[-1] + 1)
    return (prob * reach / ranks).sum(axis=-1)


# --------------------------------------------------------------------------
# per-run public functions
# --------------------------------------------------------------------------
def _prepare(run_gains, ideal_gains, k: int | None):
    g = np.asarray(run_gains, dtype=float).ravel()
    ideal = np.asarray(ideal_gains, dtype=float).ravel()
    for name, arr in (("run_gains", g), ("ideal_gains", ideal)):
        if not np.all(np.isfinite(arr)) or np.any(arr < 0):
            raise InputError(f"{name} must be finite and >= 0")
    if k is not None:
        if isinstance(k, bool) or int(k) != k or k < 1:
            raise ParameterError("k", k, "a whole number >= 1")
        k = int(k)
        g = np.pad(g[:k], (0, max(0, k - g.size)))
    if g.size == 0:
        g = np.zeros(1)
    return g, ideal if ideal.size else np.zeros(1)


def _one(name: str, run_gains, ideal_gains, k, beta=1.0) -> float:
    g, ideal = _prepare(run_gains, ideal_gains, k)
    return float(batch_measures(g, ideal, (name,), beta=beta)[name])


def ng_at_k(run_gains, ideal_gains, k: int = 1) -> float:
    """Normalised gain at rank ``k``: ``g(k) / g*(k)`` (NaN if ``g*(k) = 0``).

    Sakai's nG@1 (no discount or cumulation applies at rank 1).
    """
    g, ideal = _prepare(run_gains, ideal_gains, k)
    ideal = _ideal_sorted(ideal)
    ideal_k = ideal[k - 1] if ideal.size >= k else 0.0
    if ideal[0] <= 0:
        return float("nan")
    return float(g[k - 1] / ideal_k) if ideal_k > 0 else float("nan")


def nerr_at_k(run_gains, ideal_gains, k: int = 10) -> float:
    """nERR@k with ``P(r) = g(r)/(gmax+1)`` (NTCIREVAL, direct gains)."""
    return _one("nERR", run_gains, ideal_gains, k)


def p_plus(run_gains, ideal_gains, beta: float = 1.0, k: int = 10) -> float:
    """P+ (Sakai): mean blended ratio over relevant ranks up to the preferred rank."""
    return _one("P+", run_gains, ideal_gains, k, beta)


def q_measure(run_gains, ideal_gains, beta: float = 1.0, k: int | None = None) -> float:
    """Q-measure (Sakai): ``(1/R) sum_{g(r)>0} BR(r)``; ``k=None`` uses the whole run."""
    return _one("Q", run_gains, ideal_gains, k, beta)


# --------------------------------------------------------------------------
# collections: runs x topics at once
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class RankedLists:
    """Runs' top-``k`` lists as indices into each topic's judged items.

    ``items[t]`` lists topic ``t``'s judged item ids; ``index[r, t, i]`` is the
    position in ``items[t]`` of run ``r``'s item at rank ``i + 1``, or -1 for an
    unjudged item or an empty rank.  Gains for any gain definition are then a
    single gather (:meth:`run_gains`).
    """

    runs: tuple[str, ...]
    topics: tuple[str, ...]
    items: tuple[tuple[str, ...], ...]
    index: np.ndarray
    unjudged: int  # number of retrieved (run, topic, item) rows not in the qrels

    @property
    def k(self) -> int:
        return self.index.shape[-1]

    def pad(self, per_topic_gains: Sequence[np.ndarray]) -> np.ndarray:
        """Stack per-topic gain vectors (aligned with ``items``) into ``(T, L+1)``.

        The extra last column is 0 and serves rank positions with index -1.
        """
        width = max((len(i) for i in self.items), default=0) + 1
        out = np.zeros((len(self.topics), width))
        for t, gains in enumerate(per_topic_gains):
            gains = np.asarray(gains, dtype=float)
            if gains.shape != (len(self.items[t]),):
                raise InputError(
                    f"topic {self.topics[t]}: got {gains.shape[0]} gains for "
                    f"{len(self.items[t])} judged items"
                )
            out[t, : gains.size] = gains
        return out

    def run_gains(self, padded: np.ndarray) -> np.ndarray:
        """``(..., T, L+1)`` padded gains -> ``(..., R, T, k)`` run gains."""
        padded = np.asarray(padded, dtype=float)
        t_idx = np.arange(len(self.topics))[:, None]
        return padded[..., t_idx, self.index]  # index -1 hits the zero column


def ranked_lists(runs: pd.DataFrame, qrels: pd.DataFrame, k: int = 10) -> RankedLists:
    """Index tidy ``runs`` (run, topic, doc, rank) against ``qrels`` (topic, doc, grade).

    Items are ordered within a run by ``rank`` and cut at ``k``.  Topics are the
    qrels' topics; a run that misses a topic gets an empty list there (scores 0).
    Run rows for topics absent from the qrels must be removed beforehand
    (:func:`evalkit.formats.trec.read_run` reports them).
    """
    if isinstance(k, bool) or int(k) != k or k < 1:
        raise ParameterError("k", k, "a whole number >= 1")
    topics = tuple(sorted(qrels["topic"].unique()))
    run_names = tuple(sorted(runs["run"].unique()))
    items = tuple(
        tuple(g["doc"]) for _, g in qrels.sort_values(["topic", "doc"]).groupby("topic", sort=True)
    )
    lookup = {(t, d): i for t, docs in zip(topics, items) for i, d in enumerate(docs)}
    topic_pos = {t: i for i, t in enumerate(topics)}
    run_pos = {r: i for i, r in enumerate(run_names)}
    index = np.full((len(run_names), len(topics), int(k)), -1, dtype=np.int64)
    ordered = runs.sort_values(["run", "topic", "rank"], kind="stable")
    pos_in_list = ordered.groupby(["run", "topic"], sort=False).cumcount().to_numpy()
    keep = pos_in_list < k
    unjudged = 0
    for run, topic, doc, pos in zip(
        ordered["run"].to_numpy()[keep],
        ordered["topic"].to_numpy()[keep],
        ordered["doc"].to_numpy()[keep],
        pos_in_list[keep],
    ):
        t = topic_pos.get(topic)
        if t is None:
            raise InputError(
                f"run {run} has topic {topic!r}, which the qrels do not judge",
                hint="drop it first; evalkit.formats.trec.read_run(..., qrels=...) does so and reports it",
            )
        j = lookup.get((topic, doc), -1)
        unjudged += j < 0
        index[run_pos[run], t, pos] = j
    return RankedLists(run_names, topics, items, index, int(unjudged))


def score_runs(
    lists: RankedLists,
    padded_gains: np.ndarray,
    measures: Sequence[str] = ("nG@1", "P+", "nERR"),
    beta: float = 1.0,
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Score every run on every topic for one or many gain assignments.

    ``padded_gains`` is ``(..., T, L+1)`` (see :meth:`RankedLists.pad`).
    Returns ``(scores, valid)``: ``scores[m]`` has shape ``(..., R, T)`` and is
    NaN at topics without a positive gain; ``valid`` is that boolean topic mask
    ``(..., T)``.  Callers drop and report the ``~valid`` topics.
    """
    g = lists.run_gains(padded_gains)  # (..., R, T, k)
    ideal = _ideal_sorted(np.asarray(padded_gains, dtype=float))[..., None, :, :]
    scores = batch_measures(g, ideal, measures, beta=beta, ideal_sorted=True)
    valid = np.asarray(padded_gains).max(axis=-1) > 0
    return scores, valid
