"""Wang et al. (SIGIR 2015) §4, beyond the paper: does tau fall as the assessors disagree more?

From :func:`.draws.whole_worlds`' rows: on every whole world the alternate
assessor is re-drawn with its per-topic disagreement scaled by each level
(the same random draws, so each level is paired with the world's own
alternate at x1), the official clusters and runs fixed.  One point per
(level, draw): the mean per-topic ARI and Kendall tau per metric.

The question is fixed in the package's declaration
(:data:`evalkit.papers.wang2015_assessor_differences.DISAGREEMENT_TREND`), but not before
the draws: an earlier version read each metric's direction from the medians of the same
draws, and the rows' ``revised`` column says so (:mod:`.history`).  The question:
for every metric, tau *falls* as the alternate disagrees more, i.e. at no
step to a larger disagreement level does it rise, and from the smallest
level to the largest it falls by at least ``drop``.  The verdict tests that
statement in each world; the data only report how tau moves.

* :func:`curve_draws` — the long table, one row per (level, draw, metric).
* :func:`summarise_curve` — per (level, metric): median ARI and tau, the
  interquartile range and range of tau over draws.
* :func:`curve_trends` — per metric: the median tau at every level, and in
  how many draws tau falls as declared (and, for the record, how many end
  lower and how many rise at some step).
* :func:`describe_trends` — the question and its answer, one sentence per metric.
* :func:`trend_rows` — the ``beyond`` claims rows, one per metric.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...measures.timeline import METRICS

__all__ = ["curve_draws", "summarise_curve", "curve_trends", "describe_trends", "trend_rows"]


def curve_draws(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (level, draw, metric): ``mean_ARI`` and ``tau`` (rows ``default`` = level 1 and
    ``disagreement only`` of :func:`.draws.whole_worlds`)."""
    rows = table[table["world"].isin(["default", "disagreement only"])]
    long = rows.melt(id_vars=["level", "draw", "ari_mean"], value_vars=[f"tau_{m}" for m in METRICS],
                     var_name="metric", value_name="tau")
    long["metric"] = long["metric"].str[4:]
    return (long.rename(columns={"ari_mean": "mean_ARI"}).sort_values(["level", "metric", "draw"])
            .reset_index(drop=True)[["level", "draw", "mean_ARI", "metric", "tau"]])


def summarise_curve(long: pd.DataFrame) -> pd.DataFrame:
    """Per (level, metric): draws, median mean ARI, and tau's median, quartiles and range."""
    g = long.groupby(["level", "metric"], sort=False)
    out = pd.DataFrame({"draws": g.size(), "mean_ARI": g.mean_ARI.median(), "tau": g.tau.median(),
                        "tau_q1": g.tau.quantile(0.25), "tau_q3": g.tau.quantile(0.75),
                        "tau_min": g.tau.min(), "tau_max": g.tau.max()}).reset_index()
    order = {m: i for i, m in enumerate(METRICS)}
    return out.sort_values(["level", "metric"], key=lambda s: s.map(order) if s.name == "metric" else s,
                           ignore_index=True)


def _falls(taus: np.ndarray, drop: float) -> np.ndarray:
    """Per draw (rows of ``taus``, one column per level in increasing order): no step rises and the
    last level is at least ``drop`` below the first."""
    return (np.diff(taus, axis=1) <= 0).all(axis=1) & (taus[:, -1] - taus[:, 0] <= -drop)


def curve_trends(long: pd.DataFrame, trend: dict | None = None) -> pd.DataFrame:
    """Per metric, over the levels in increasing order: the median mean ARI and tau at each
    (``aris``, ``taus``, tuples), the medians at both ends, and per draw whether tau falls as
    ``trend`` declares (:data:`~evalkit.papers.wang2015_assessor_differences.DISAGREEMENT_TREND`:
    no step rises, the end at least ``drop`` below the start): ``k`` of ``r`` draws, ``outcomes``
    (one bool per draw); for the record ``end_lower`` / ``end_higher`` (draws whose end is at least
    ``drop`` below / above the start) and ``step_rise`` (draws where some step rises)."""
    from . import DISAGREEMENT_TREND

    trend = trend or DISAGREEMENT_TREND
    drop = float(trend["drop"])
    levels = sorted(long.level.unique())
    rows = []
    for m in [x for x in METRICS if x in set(long.metric)]:
        g = long[long.metric == m]
        wide = g.pivot(index="draw", columns="level", values="tau")[levels].dropna()
        taus = wide.to_numpy(float)
        outcomes = _falls(taus, drop)
        change = taus[:, -1] - taus[:, 0]
        med = g.groupby("level").tau.median().loc[levels]
        ari = g.groupby("level").mean_ARI.median().loc[levels]
        rows.append({"metric": m, "levels": tuple(levels), "aris": tuple(ari), "taus": tuple(med),
                     "level_from": levels[0], "level_to": levels[-1], "ari_from": ari.iloc[0],
                     "ari_to": ari.iloc[-1], "tau_from": med.iloc[0], "tau_to": med.iloc[-1],
                     "change": float(np.median(change)), "drop": drop,
                     "k": int(outcomes.sum()), "r": int(len(outcomes)), "outcomes": tuple(bool(x) for x in outcomes),
                     "monotone": tuple(bool(x) for x in (np.diff(taus, axis=1) <= 0).all(axis=1)),
                     "changes": tuple(float(x) for x in change),
                     "end_lower": int((change <= -drop).sum()), "end_higher": int((change >= drop).sum()),
                     "step_rise": int((np.diff(taus, axis=1) > 0).any(axis=1).sum())})
    return pd.DataFrame(rows)


def _path(values, fmt: str = "{:.3f}") -> str:
    return " -> ".join(fmt.format(v) for v in values)


def describe_trends(trends: pd.DataFrame) -> str:
    """The declared question and, per metric, how its median tau moves and in how many draws it
    falls as declared (:func:`curve_trends`)."""
    first = trends.iloc[0]
    head = (f"Does tau fall as the assessors disagree more (fixed after earlier readings of the same draws: at no step from "
            f"x{first.level_from:g} to x{first.level_to:g} does it rise, and it ends at least "
            f"{first['drop']:g} lower)? Over the levels {_path(first.levels, 'x{:g}')} (median mean ARI "
            f"{_path(first.aris, '{:.2f}')}): ")
    parts = [f"{r.metric.replace('_', ' ')}'s median tau {_path(r.taus)}, falling as declared in {r.k} of "
             f"{r.r} worlds (ending {r.drop:g} or more lower in {r.end_lower}, higher in {r.end_higher})"
             for r in trends.itertuples()]
    return head + "; ".join(parts) + "."


def trend_rows(c, trends: pd.DataFrame, varies: str, trend: dict | None = None) -> None:
    """One ``beyond`` row per metric of :func:`curve_trends`: the declared statement judged per draw
    (its ``drop`` recomputed over the declared ``drop_range``), the median path as evidence; a row
    that does not hold says how tau moves instead."""
    from ...declare.claims import sensitivity
    from . import DISAGREEMENT_TREND

    trend = trend or DISAGREEMENT_TREND
    for r in trends.itertuples():
        def at(t, r=r):
            return [bool(m and x <= -t) for m, x in zip(r.monotone, r.changes)]

        name = r.metric.replace("_", " ")
        peak = r.levels[int(np.argmax(r.taus))]
        how = ("its median rises to the largest level" if peak == r.levels[-1] else
               f"its median peaks at x{peak:g} and falls after" if peak != r.levels[0] else
               "its median is highest at the smallest level but rises at some step in most worlds")
        why = ("" if r.k >= 0.8 * r.r else
               f"Tau of {name} does not fall step by step: {how} ({_path(r.taus)}); some step rises in "
               f"{r.step_rise} of {r.r} worlds. So less agreement between the clusterings does not by itself "
               "make this ranking less stable here; why tau moves this way is not tested (see "
               "wang2015/tau_vs_disagreement.csv).")
        c.add_over_draws(f"Beyond the paper: tau of {name} falls as the alternate disagrees more (fixed "
                         f"after earlier readings of the same draws: no step from x{r.level_from:g} to x{r.level_to:g} rises, and it ends "
                         f"at least {r.drop:g} lower)",
                         f"median tau {_path(r.taus)} over x{_path(r.levels, '{:g}')} (median mean ARI "
                         f"{_path(r.aris, '{:.2f}')}); falls as declared in {r.k} of {r.r} draws; ends "
                         f"{r.drop:g} or more lower in {r.end_lower}, higher in {r.end_higher}",
                         list(r.outcomes), why, kind="beyond", varies=varies,
                         id=f"tau-falls-{r.metric.replace('_', '-')}",
                         threshold=f"no step rises; end - start <= -{r.drop:g}", source="workspace",
                         sensitivity=sensitivity(trend["drop_range"], at))
