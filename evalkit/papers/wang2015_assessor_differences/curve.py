"""Wang et al. (SIGIR 2015) §4, beyond the paper: does tau fall as the assessors disagree more?

From :func:`.draws.whole_worlds`' rows: on every whole world the alternate
assessor is re-drawn with its per-topic disagreement scaled by each level
(the same random draws, so each level is paired with the world's own
alternate at x1), the official clusters and runs fixed.  One point per
(level, draw): the mean per-topic ARI and Kendall tau per metric.

* :func:`curve_draws` — the long table, one row per (level, draw, metric).
* :func:`summarise_curve` — per (level, metric): median ARI and tau, the
  interquartile range and range of tau over draws.
* :func:`curve_trends` — per metric, from the lowest to the highest level:
  the median change of tau and in how many draws it moves that way.
* :func:`describe_trends` — one sentence from :func:`curve_trends`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...measures.timeline import METRICS

__all__ = ["FLAT", "curve_draws", "summarise_curve", "curve_trends", "describe_trends"]

#: A metric's tau "stays flat" when its median change over the curve is smaller than this.
FLAT = 0.02


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


def curve_trends(long: pd.DataFrame) -> pd.DataFrame:
    """Per metric, from the lowest to the highest level: medians at both ends, the median of the
    per-draw change of tau, its direction (``"rises"`` / ``"falls"``, ``"flat"`` when the median
    change is below :data:`FLAT`) and in ``k`` of ``r`` draws tau moves that way."""
    lo, hi = long.level.min(), long.level.max()
    rows = []
    for m in [x for x in METRICS if x in set(long.metric)]:
        g = long[long.metric == m]
        a, b = (g[g.level == x].set_index("draw") for x in (lo, hi))
        change = (b.tau - a.tau).dropna()
        med = float(change.median())
        direction = "flat" if abs(med) < FLAT else "rises" if med > 0 else "falls"
        k = int((np.abs(change) < FLAT).sum() if direction == "flat" else
                (change > 0).sum() if direction == "rises" else (change < 0).sum())
        rows.append({"metric": m, "level_from": lo, "level_to": hi, "ari_from": a.mean_ARI.median(),
                     "ari_to": b.mean_ARI.median(), "tau_from": a.tau.median(), "tau_to": b.tau.median(),
                     "change": med, "direction": direction, "k": k, "r": int(change.size)})
    return pd.DataFrame(rows)


def describe_trends(trends: pd.DataFrame) -> str:
    """One sentence from :func:`curve_trends`: which metrics' tau rise, fall or stay flat."""
    parts = []
    for direction in ("falls", "rises"):
        for r in trends[trends.direction == direction].itertuples():
            parts.append(f"{r.metric.replace('_', ' ')}'s median tau {direction} from {r.tau_from:.3f} to "
                         f"{r.tau_to:.3f} (in {r.k} of {r.r} draws)")
    flat = trends[trends.direction == "flat"]
    if len(flat):
        parts.append(", ".join(f"{r.metric.replace('_', ' ')}" for r in flat.itertuples())
                     + f" change by less than {FLAT:g} in median (within {FLAT:g} in "
                     + ", ".join(f"{r.k} of {r.r}" for r in flat.itertuples()) + " draws)")
    first = trends.iloc[0]
    return (f"As the alternate's disagreement grows from x{first.level_from:g} to x{first.level_to:g} "
            f"(median mean ARI {first.ari_from:.2f} to {first.ari_to:.2f}), " + "; ".join(parts) + ".")
