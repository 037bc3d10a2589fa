"""Beyond the paper: N of the ten real STC-ja assessors per item.

Sakai (EVIA 2017, §4-5) expects the unanimity effect to shrink as N grows,
because N independent uniform ratings almost surely span 0..Dmax.
:func:`assessor_subsets` keeps N of each item's real ratings and compares
RawG with UG as :func:`~evalkit.papers.real_data.stc_rawg_vs_ug.stc_experiment`
does; :func:`uniform_share_below_dmax` is the same agreement statistic for
Sakai's uniform raters, in closed form; :func:`tau_trend` fits how tau moves
with N over the subsets (the trend the claims and the text state).  Outputs
``stc_assessors_n*``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ...measures import gains
from ...simulate import stc as simulate
from .. import sakai2017_unanimity_gain as unanimity
from .stc_rawg_vs_ug import rawg_vs_ug_many, split_by_topic

__all__ = ["N_GRID", "assessor_subsets", "uniform_share_below_dmax", "subset_summary", "replicate_slopes",
           "tau_trend", "trend_sentence"]

#: Assessors drawn per item in the N-subsampling experiment (STC-ja has ten).
N_GRID = (2, 3, 5, 7, 10)


def assessor_subsets(collection: unanimity.Collection, per_topic: list, p: float, trials: int,
                     alpha: float, seed: int, subsets: int, n_grid=N_GRID, dmax: int = 2,
                     progress: bool = True) -> pd.DataFrame:
    """Beyond the paper: RawG vs UG with N of the real assessors per item.

    For each N and each of ``subsets`` seeded draws, every item keeps N of its
    real ratings chosen at random (:func:`evalkit.simulate.stc.subsample_assessors`:
    its own draw, so different items keep different assessors: crowd-style
    pools of correlated, real raters); RawG and UG (N_i = N) are compared as in
    :func:`stc_experiment` (Kendall tau of all runs, HSD discrepancies among
    each team's best run).  N equal to the ratings per item keeps every rating
    (one draw), so its rows equal the real-ratings row.  The runs are the
    simulated ones of :func:`stc_collection` (or any collection over the pool).
    """
    flat = np.concatenate(per_topic)
    full = flat.shape[1]
    best = unanimity.best_runs(collection)
    jobs, shares = [], []
    todo = [(n, s) for n in n_grid for s in range(subsets if n < full else 1)]
    for n, s in tqdm(todo, desc="assessor subsets", disable=not progress):
        picked = simulate.subsample_assessors(flat, n, np.random.default_rng(
            np.random.SeedSequence([seed, n, s])))
        spread = gains.rating_spread(picked[gains.raw_gain(picked) > 0])
        jobs.append((split_by_topic(picked, per_topic), seed + s))
        shares.append(float((spread < dmax).mean()))
    frames = rawg_vs_ug_many(collection, best, jobs, dmax, p, trials, alpha)
    return pd.concat([f.assign(subset=s, share_D_below_dmax=share)
                      for f, (_, s), share in zip(frames, todo, shares)], ignore_index=True)


def uniform_share_below_dmax(n: int, dmax: int = 2) -> float:
    """P(D < Dmax) for ``n`` independent ratings uniform on ``0..dmax`` (Sakai's simulation).

    D < Dmax unless both 0 and Dmax occur: P(no 0) + P(no Dmax) - P(neither)
    = 2 (dmax / (dmax + 1))^n - ((dmax - 1) / (dmax + 1))^n.
    """
    return 2 * (dmax / (dmax + 1)) ** n - ((dmax - 1) / (dmax + 1)) ** n


def _t_quantile(q: float, df) -> float:
    """``scipy.stats.t.ppf(q, df)``: the special function it calls (``stdtrit``), without
    importing ``scipy.stats`` (about half a second) for a few numbers (the same bits, tested)."""
    from scipy.special import stdtrit

    return stdtrit(df, q)


def _line_fit(x, y) -> tuple[float, float]:
    """``(slope, stderr)`` of ``scipy.stats.linregress(x, y)``, its arithmetic step by step
    (scipy 1.17's ``_stats_py.linregress``; the same bits, tested) without importing ``scipy.stats``."""
    x, y = np.asarray(x), np.asarray(y)
    if x.size == 0 or y.size == 0 or np.amax(x) == np.amin(x) and len(x) > 1:
        raise ValueError("a line needs two or more distinct x values")
    ssxm, ssxym, _, ssym = np.cov(x, y, bias=1).flat
    if ssxm == 0.0 or ssym == 0.0:
        r = np.asarray(np.nan if ssxym == 0 else 0.0)[()]
    else:
        r = min(max(ssxym / np.sqrt(ssxm * ssym), -1.0), 1.0)
    slope = ssxym / ssxm
    if len(x) == 2:
        return slope, 0.0
    return slope, np.sqrt((1 - r**2) * ssym / ssxm / (len(x) - 2))


def _half_width(values: pd.Series) -> float:
    """Half-width of the 95% t interval of the mean of ``values`` (0 for a single value)."""
    n = len(values)
    return float(_t_quantile(0.975, n - 1) * values.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0


def subset_summary(res: pd.DataFrame) -> pd.DataFrame:
    """Per measure and N: mean tau with the half-width of its 95% t interval over the subsets
    (``tau_ci``), min and max; mean discrepancy count (``discrepancies_ci`` likewise) and
    max; the number of subsets; the shares of relevant items with D < Dmax."""
    return (res.groupby(["measure", "N"])
            .agg(tau=("tau", "mean"), tau_ci=("tau", _half_width),
                 tau_min=("tau", "min"), tau_max=("tau", "max"),
                 discrepancies=("discrepancies", "mean"),
                 discrepancies_ci=("discrepancies", _half_width),
                 discrepancies_max=("discrepancies", "max"), subsets=("tau", "size"),
                 share_D_below_dmax=("share_D_below_dmax", "mean"))
            .reset_index()
            .assign(uniform_share_D_below_dmax=lambda f: [uniform_share_below_dmax(n) for n in f["N"]]))


def replicate_slopes(res: pd.DataFrame, full: int = 10) -> pd.DataFrame:
    """Per measure and subset index ``s``: the least-squares slope of tau on N over N < ``full``.

    Subset ``s`` at each N is its own seeded draw, so the subsets with one
    index form one replicate of the whole N experiment; its slope is one
    draw of the trend.
    """
    sub = res[res["N"] < full]
    rows = [{"measure": m, "subset": s, "slope": float(np.polyfit(g["N"], g["tau"], 1)[0])}
            for (m, s), g in sub.groupby(["measure", "subset"]) if g["N"].nunique() > 1]
    return pd.DataFrame(rows, columns=["measure", "subset", "slope"])


def tau_trend(res: pd.DataFrame, full: int = 10) -> pd.DataFrame:
    """How Kendall tau (RawG vs UG) moves with N, fitted over the subsampled N (N < ``full``).

    Per measure: the least-squares slope of tau on N over every subset with
    N < ``full`` (tau per added assessor) with its 95% interval
    ``slope ± t(0.975, n - 2) SE``; and, treating subset index ``s`` as one
    replicate of the whole experiment (its own draw at every N), the slope of
    each replicate and how many of them are positive (``rising``, of
    ``replicates``): Sakai's prediction (more assessors, less UG effect) is a
    rising tau.  N = ``full`` keeps every rating: one set, not a draw, so it is
    reported (``tau_full``) but not fitted.
    """
    rows = []
    slopes = replicate_slopes(res, full)
    for m, part in res.groupby("measure"):
        sub = part[part["N"] < full]
        slope, stderr = _line_fit(sub["N"], sub["tau"])
        half = _t_quantile(0.975, len(sub) - 2) * stderr
        per = slopes.loc[slopes["measure"] == m, "slope"]
        means = sub.groupby("N")["tau"].mean()
        whole = part.loc[part["N"] == full, "tau"]
        rows.append({"measure": m, "slope": slope, "slope_low": slope - half,
                     "slope_high": slope + half, "rising": int((per > 0).sum()),
                     "replicates": len(per), "N_low": int(means.index.min()),
                     "N_high": int(means.index.max()), "tau_low_N": means.iloc[0],
                     "tau_high_N": means.iloc[-1],
                     "tau_full": float(whole.iloc[0]) if len(whole) else np.nan,
                     "subsets_fitted": len(sub)})
    return pd.DataFrame(rows)


def trend_sentence(trend: pd.DataFrame, full: int = 10) -> str:
    """The trend of tau in N in words, generated from :func:`tau_trend` (no hand-typed finding).

    A measure "falls" or "rises" when the 95% interval of its slope excludes
    0, and shows "no clear trend" otherwise.
    """
    parts = []
    for r in trend.itertuples():
        way = "falls" if r.slope_high < 0 else "rises" if r.slope_low > 0 else "shows no clear trend"
        parts.append(f"{r.measure} tau {way} with N ({r.tau_low_N:.3f} at N = {r.N_low} to "
                     f"{r.tau_high_N:.3f} at N = {r.N_high}; slope {r.slope:+.4f} per assessor, "
                     f"95% CI {r.slope_low:+.4f} to {r.slope_high:+.4f}, over "
                     f"{r.subsets_fitted} subsets; rising in {r.rising} of {r.replicates} "
                     "replicates)")
    full_taus = ", ".join(f"{r.measure} {r.tau_full:.3f}" for r in trend.itertuples())
    return ("; ".join(parts) + f". At N = {full} every item keeps all its ratings: one set, not a "
            f"draw (tau {full_taus}), so it is shown but not fitted.")
