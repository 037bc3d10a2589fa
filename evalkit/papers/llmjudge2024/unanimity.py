"""Sakai's question on real judgments: does the LLM judges' unanimity carry information?

Sakai (EVIA 2017) rewards unanimous items: UG = RawG + p N (Dmax - D), with
D = max - min of an item's N grades (:mod:`evalkit.measures.gains`).  Here
the N = 33 graders are the LLM judges and the human label is the truth they
are measured against.

* :func:`spread_table`: per spread D, how often a single LLM judge gives the
  human grade (``exact``) and how far off it is on average (``abs_error``),
  each with a 95% topic-bootstrap interval (per-topic sums resampled with
  :func:`evalkit.stats.confusion_agreement.topic_bootstrap`).  (Not alpha
  within each D: keeping only the items of one spread narrows the grades'
  range, so alpha's expected disagreement shrinks with it and the numbers
  are not comparable across D.)
* :func:`gains_vs_n`: RawG, WG (Sakai's Eq. 1) and UG computed from N of the
  33 judges (``draws`` seeded subsets per N; N = 33 is all of them, one set),
  each correlated with the human grade by Kendall's tau-b over all items
  pooled (scipy's ``kendalltau`` statistic, counted from the table of distinct values:
  :func:`_tau_b`).
* :func:`ug_minus_raw`: UG's tau minus RawG's on the same subsets, averaged
  over them, with its paired 95% topic-bootstrap interval: whether 25 topics
  resolve the difference at all.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...measures import gains
from ...stats.confusion_agreement import percentile_interval, topic_bootstrap
from .labels import GRADES, LabelMatrix

__all__ = ["N_GRID", "GAINS", "spread_table", "gains_vs_n", "gains_summary", "ug_minus_raw"]

#: Numbers of LLM judges per item (N = 33: all of them).
N_GRID = (1, 2, 3, 5, 9, 17, 33)
#: The gains compared, as :func:`evalkit.measures.gains.gain_values` names them.
GAINS = ("raw", "wg", "ug")


def spread_table(m: LabelMatrix, bootstrap: int = 1000, seed: int = 0) -> pd.DataFrame:
    """``D, items, share, exact, exact_low, exact_high, abs_error, abs_low, abs_high``: a single
    LLM judge's agreement with the human label, by the LLM judges' spread D."""
    llm, human = m.llm, m.human
    d = llm.max(axis=1) - llm.min(axis=1)
    exact = (llm == human[:, None]).mean(axis=1)
    error = np.abs(llm - human[:, None]).mean(axis=1)
    _, t = m.topic_codes
    n_t = t.max() + 1
    spreads = np.unique(d)
    sums = np.zeros((3, n_t, len(spreads)))          # items, exact, abs_error per topic and D
    col = np.searchsorted(spreads, d)
    for i, w in enumerate((np.ones_like(exact), exact, error)):
        np.add.at(sums[i], (t, col), w)
    weights = topic_bootstrap(n_t, bootstrap, seed).astype(float)
    boot = np.tensordot(weights, sums, axes=(1, 1))                     # (B, 3, D)
    with np.errstate(invalid="ignore", divide="ignore"):      # a D absent from a resample
        ex_lo, ex_hi = percentile_interval(boot[:, 1] / boot[:, 0])
        ab_lo, ab_hi = percentile_interval(boot[:, 2] / boot[:, 0])
    total = sums.sum(axis=1)
    return pd.DataFrame({"D": spreads, "items": total[0].astype(int), "share": total[0] / len(d),
                         "exact": total[1] / total[0], "exact_low": ex_lo, "exact_high": ex_hi,
                         "abs_error": total[2] / total[0], "abs_low": ab_lo, "abs_high": ab_hi})


def _tau_b(x, y) -> float:
    """``scipy.stats.kendalltau(x, y).statistic`` (tau-b), its pair counts taken from the
    contingency table of the distinct values (a few grades here) instead of a merge sort:
    the same integers, hence the same bits (tested), without importing ``scipy.stats``.
    """
    x, y = np.asarray(x).ravel(), np.asarray(y).ravel()
    if x.size != y.size or not x.size:
        raise ValueError(f"tau_b needs paired non-empty values, got {x.size} and {y.size}")
    if np.isnan(x).any() or np.isnan(y).any():
        return float("nan")                                      # scipy's nan_policy="propagate"
    _, xi = np.unique(x, return_inverse=True)
    _, yi = np.unique(y, return_inverse=True)
    nx, ny = int(xi.max()) + 1, int(yi.max()) + 1
    table = np.bincount(xi.ravel() * ny + yi.ravel(), minlength=nx * ny).reshape(nx, ny)
    return float(_tau_b_tables(table.astype(np.int64)))


def _below(t: np.ndarray) -> np.ndarray:
    """Per cell (i, j) of each table ``(..., nx, ny)``: the count in the rows above i and the
    columns below j (the pairs discordant with a pair in cell (i, j))."""
    higher_x = np.zeros_like(t)
    higher_x[..., :-1, :] = np.flip(np.flip(t, -2).cumsum(axis=-2), -2)[..., 1:, :]   # rows above i
    below = np.zeros_like(t)
    below[..., :, 1:] = higher_x.cumsum(axis=-1)[..., :, :-1]                      # ... columns below j
    return below


def _tau_from_counts(tot, xtie, ytie, ntie, dis) -> np.ndarray:
    """tau-b = (tot - xtie - ytie + ntie - 2 dis) / sqrt(tot - xtie) / sqrt(tot - ytie), clipped
    to [-1, 1]; NaN when x or y is constant (every pair tied)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (tot - xtie - ytie + ntie - 2 * dis) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
    return np.where((xtie == tot) | (ytie == tot), np.nan, np.minimum(1., np.maximum(-1., tau)))


def _tau_b_tables(tables: np.ndarray) -> np.ndarray:
    """Kendall's tau-b of each contingency table in ``tables`` (``(..., nx, ny)``: counts of the
    pairs at each distinct x, rows in increasing order, and y, columns likewise).

    With ``tot`` pairs, ``xtie``/``ytie`` pairs tied in x/y, ``ntie`` tied in both and
    ``dis`` discordant (:func:`_tau_from_counts`).  Integer tables give integer counts
    (scipy's bits).
    """
    t = np.asarray(tables)

    def tied(c, axes):
        return (c * (c - 1) // 2).sum(axis=axes)

    n = t.sum(axis=(-2, -1))
    return _tau_from_counts(n * (n - 1) // 2, tied(t.sum(axis=-1), -1), tied(t.sum(axis=-2), -1),
                            tied(t, (-2, -1)), (t * _below(t)).sum(axis=(-2, -1)))


def _tau_b_resampled(per_topic: list, weights: np.ndarray) -> np.ndarray:
    """``(B, K)``: tau-b of the table ``sum_t w_t tables[t]`` for every row ``w`` of ``weights``
    (``(B, T)`` topic counts of :func:`topic_bootstrap`) and each of the K per-topic tables
    ``(T, nx, ny)`` in ``per_topic``, without building the B x K tables.

    Every pair count is a quadratic form in ``w``: with ``R_t``, ``C_t`` and ``F_t`` topic t's
    row sums, column sums and cells, sum_i r_i^2 = w' (R R') w, so xtie = (w' R R' w - n) / 2
    (ytie and ntie alike with C and F), and dis = w' D w with D[t, s] = sum_ij
    tables[t, i, j] below(tables[s])[i, j] (:func:`_below` is linear in the table).  All the
    forms are evaluated in one product with the B x T^2 matrix of w_t w_s; the counts are
    whole numbers, exact in float64 here.
    """
    grams = []
    for tables in per_topic:
        t = np.asarray(tables, dtype=float)
        flat, cells = t.reshape(len(t), -1), _below(t).reshape(len(t), -1)
        for a, b in ((t.sum(axis=2),) * 2, (t.sum(axis=1),) * 2, (flat, flat), (flat, cells)):
            grams.append((a @ b.T).ravel())
    pairs = (weights[:, :, None] * weights[:, None, :]).reshape(len(weights), -1)   # (B, T^2)
    sq, sc, sf, dis = (pairs @ np.array(grams).T).reshape(len(weights), -1, 4).transpose(2, 0, 1)
    n = weights @ np.array([np.asarray(x).sum(axis=(1, 2)) for x in per_topic], dtype=float).T
    return _tau_from_counts(n * (n - 1) / 2, (sq - n) / 2, (sc - n) / 2, (sf - n) / 2, dis)


def _subsets(total: int, n_grid, draws: int, seed: int):
    """``(N, draw, judges)`` for every N: ``draws`` subsets of N of ``total`` judges drawn without
    replacement (``numpy.random.default_rng(seed)``, in this order); N >= total is all of them."""
    rng = np.random.default_rng(seed)
    for n in n_grid:
        subsets = ([np.arange(total)] if n >= total else
                   [rng.choice(total, size=n, replace=False) for _ in range(draws)])
        for r, cols in enumerate(subsets):
            yield int(min(n, total)), r, cols


def _gain_of(m: LabelMatrix, cols: np.ndarray, n: int, gain: str, p: float) -> np.ndarray:
    """One gain per item from the judges ``cols`` (N_i = n for every item)."""
    x = m.llm[:, cols].astype(float)
    raw, d = x.sum(axis=1), x.max(axis=1) - x.min(axis=1)
    return gains.gain_values(gain, raw, d, np.full(len(raw), float(n)), GRADES[1], p)


def gains_vs_n(m: LabelMatrix, n_grid=N_GRID, draws: int = 20, p: float = 0.2,
               seed: int = 0) -> pd.DataFrame:
    """``N, draw, gain, tau``: Kendall's tau-b of each gain from N judges with the human grade.

    For each N below the number of judges, ``draws`` subsets of N judges
    drawn without replacement (``numpy.random.default_rng(seed)``); N equal
    to the number of judges is the one full set (``draw`` 0).
    """
    rows = [(n, r, g, _tau_b(_gain_of(m, cols, n, g, p), m.human))
            for n, r, cols in _subsets(m.llm.shape[1], n_grid, draws, seed) for g in GAINS]
    return pd.DataFrame(rows, columns=["N", "draw", "gain", "tau"])


def ug_minus_raw(m: LabelMatrix, n_grid=N_GRID, draws: int = 20, p: float = 0.2, seed: int = 0,
                 bootstrap: int = 1000) -> pd.DataFrame:
    """``N, draws, ug_at_least_raw, mean_diff, diff_low, diff_high``: UG's Kendall tau-b with the
    human grade minus RawG's, averaged over the subsets of N judges of :func:`gains_vs_n` (the same
    subsets), with the paired 95% topic-bootstrap percentile interval of that mean.

    Each bootstrap replicate resamples the 25 topics (:func:`topic_bootstrap`, ``bootstrap``
    replicates from ``seed``, as :func:`spread_table`), recomputes both taus of every subset on
    the resampled items (per-topic contingency tables summed with the replicate's weights,
    :func:`_tau_b_resampled`) and averages the differences over the subsets: the topics, not the
    subsets, are what a claim about these gains generalises over.  ``ug_at_least_raw`` counts
    the subsets whose UG tau is at least RawG's on the topics as they are.
    """
    _, t = m.topic_codes
    n_topics, ny = int(t.max()) + 1, int(m.human.max()) + 1
    weights = topic_bootstrap(n_topics, bootstrap, seed).astype(float)         # (B, topics)
    keys, tables, point = [], [], {}
    for n, r, cols in _subsets(m.llm.shape[1], n_grid, draws, seed):
        taus = []
        for g in ("ug", "raw"):
            _, code = np.unique(_gain_of(m, cols, n, g, p), return_inverse=True)
            nx = int(code.max()) + 1
            per_topic = np.bincount((t * nx + code) * ny + m.human, minlength=n_topics * nx * ny)
            tables.append(per_topic.reshape(n_topics, nx, ny))
            taus.append(float(_tau_b_tables(tables[-1].sum(axis=0))))
        keys.append(n)
        point.setdefault(n, []).append(taus[0] - taus[1])
    resampled = _tau_b_resampled(tables, weights)                           # (B, 2 x subsets)
    diffs = resampled[:, 0::2] - resampled[:, 1::2]
    boot = {n: diffs[:, [k == n for k in keys]] for n in point}
    rows = []
    for n in point:
        low, high = percentile_interval(boot[n].mean(axis=1)[:, None])
        rows.append((n, len(point[n]), int(sum(d >= 0 for d in point[n])), float(np.mean(point[n])),
                     float(low[0]), float(high[0])))
    return pd.DataFrame(rows, columns=["N", "draws", "ug_at_least_raw", "mean_diff", "diff_low",
                                       "diff_high"])


def gains_summary(by_n: pd.DataFrame) -> pd.DataFrame:
    """``N, gain, draws, mean_tau, min_tau, q1_tau, q3_tau, max_tau, ug_best``: per N and gain over
    the draws (quartiles by pandas' linear interpolation); ``ug_best`` counts the draws where UG's
    tau is at least RawG's and WG's."""
    wide = by_n.pivot_table(index=["N", "draw"], columns="gain", values="tau")
    best = (wide["ug"] >= wide[["raw", "wg"]].max(axis=1)).groupby("N").sum()
    out = (by_n.groupby(["N", "gain"])["tau"].agg(
        draws="size", mean_tau="mean", min_tau="min", q1_tau=lambda v: v.quantile(0.25),
        q3_tau=lambda v: v.quantile(0.75), max_tau="max").reset_index())
    out["ug_best"] = out["N"].map(best).astype(int)
    return out
