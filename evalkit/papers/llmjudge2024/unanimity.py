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
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...measures import gains
from ...stats.confusion_agreement import percentile_interval, topic_bootstrap
from .labels import GRADES, LabelMatrix

__all__ = ["N_GRID", "GAINS", "spread_table", "gains_vs_n", "gains_summary"]

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

    With ``tot`` pairs, ``xtie``/``ytie`` pairs tied in x/y, ``ntie`` tied in both and
    ``dis`` discordant: tau = (tot - xtie - ytie + ntie - 2 dis) / sqrt(tot - xtie) /
    sqrt(tot - ytie), clipped to [-1, 1]; NaN when x or y is constant.
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
    table = table.astype(np.int64)

    def tied(c):
        return int((c * (c - 1) // 2).sum())

    tot = x.size * (x.size - 1) // 2
    xtie, ytie, ntie = tied(table.sum(axis=1)), tied(table.sum(axis=0)), tied(table)
    if xtie == tot or ytie == tot:
        return float("nan")
    higher_x = np.zeros_like(table)
    higher_x[:-1] = table[::-1].cumsum(axis=0)[::-1][1:]          # rows above i
    below = np.zeros_like(table)
    below[:, 1:] = higher_x.cumsum(axis=1)[:, :-1]                # ... and columns below j
    dis = int((table * below).sum())
    tau = (tot - xtie - ytie + ntie - 2 * dis) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
    return float(np.minimum(1., max(-1., tau)))


def gains_vs_n(m: LabelMatrix, n_grid=N_GRID, draws: int = 20, p: float = 0.2,
               seed: int = 0) -> pd.DataFrame:
    """``N, draw, gain, tau``: Kendall's tau-b of each gain from N judges with the human grade.

    For each N below the number of judges, ``draws`` subsets of N judges
    drawn without replacement (``numpy.random.default_rng(seed)``); N equal
    to the number of judges is the one full set (``draw`` 0).
    """
    rng = np.random.default_rng(seed)
    total = m.llm.shape[1]
    dmax = GRADES[1]
    rows = []
    for n in n_grid:
        subsets = ([np.arange(total)] if n >= total else
                   [rng.choice(total, size=n, replace=False) for _ in range(draws)])
        for r, cols in enumerate(subsets):
            x = m.llm[:, cols].astype(float)
            raw, d = x.sum(axis=1), x.max(axis=1) - x.min(axis=1)
            for g in GAINS:
                value = gains.gain_values(g, raw, d, np.full(len(raw), float(n)), dmax, p)
                rows.append((int(min(n, total)), r, g, _tau_b(value, m.human)))
    return pd.DataFrame(rows, columns=["N", "draw", "gain", "tau"])


def gains_summary(by_n: pd.DataFrame) -> pd.DataFrame:
    """``N, gain, draws, mean_tau, min_tau, max_tau, ug_best``: per N and gain over the draws;
    ``ug_best`` counts the draws where UG's tau is at least RawG's and WG's."""
    wide = by_n.pivot_table(index=["N", "draw"], columns="gain", values="tau")
    best = (wide["ug"] >= wide[["raw", "wg"]].max(axis=1)).groupby("N").sum()
    out = (by_n.groupby(["N", "gain"])["tau"].agg(draws="size", mean_tau="mean", min_tau="min",
                                                   max_tau="max").reset_index())
    out["ug_best"] = out["N"].map(best).astype(int)
    return out
