"""The figures of the Sakai (EVIA 2017) notebook (matplotlib/seaborn; no I/O here).

* :func:`tau_grid` — Table 2 as a figure: tau with its interval per
  measure, N and Dmax, the paper's values beside (``table2_tau_grid``).
* :func:`replication_distributions` — tau and discrepancy counts over
  rating draws (``replications``).
* :func:`es_figure` — ES of borderline pairs against the number of topics
  (``es_denominator``).
* :func:`run_spread_figure` — the run-spread worlds (``run_spread_worlds``).

Save them with :func:`evalkit.outputs.save_figure`, which strips
dates so the same data gives the same bytes.  matplotlib and seaborn are
imported on use: importing the paper package stays cheap.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...simulate.stc import STC_DEFAULTS
from .tables import PUBLISHED_D

__all__ = ["tau_grid", "replication_distributions", "es_figure", "run_spread_figure"]


def tau_grid(reproduced: pd.DataFrame, published: pd.DataFrame | None = None):
    """Kendall tau (RawG vs UG) with CI bars per measure, N on x, one colour per dmax.

    Published values, if given, are drawn as hollow markers beside them.
    """
    import matplotlib.pyplot as plt
    import seaborn as sns  # imported on use: it costs a kernel ~0.7 s

    measures = list(dict.fromkeys(reproduced["measure"]))
    dmaxes = sorted(reproduced["dmax"].unique())
    ns = sorted(reproduced["N"].unique())
    colours = dict(zip(dmaxes, sns.color_palette("colorblind", len(dmaxes))))
    fig, axes = plt.subplots(1, len(measures), figsize=(4.2 * len(measures), 3.6),
                             sharey=True, squeeze=False)
    width = 0.8 / max(len(dmaxes), 1)
    for ax, m in zip(axes[0], measures):
        for j, d in enumerate(dmaxes):
            sub = reproduced[(reproduced.measure == m) & (reproduced.dmax == d)].set_index("N")
            x = np.array([ns.index(n) for n in sub.index]) + (j - (len(dmaxes) - 1) / 2) * width
            ax.errorbar(x, sub.tau, yerr=[sub.tau - sub.low, sub.high - sub.tau], fmt="o",
                        color=colours[d], capsize=3, label=f"Dmax={d} (reproduced)")
            if published is not None:
                pub = published[(published.measure == m) & (published.dmax == d)].set_index("N")
                pub = pub[pub.index.isin(ns)]
                xp = np.array([ns.index(n) for n in pub.index]) + (j - (len(dmaxes) - 1) / 2) * width
                ax.plot(xp + width * 0.3, pub.tau, "o", mfc="none", color=colours[d], ms=6,
                        label=f"Dmax={d} (published)")
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_xticks(range(len(ns)), [str(n) for n in ns])
        ax.set_xlabel("N (assessors per item)")
        ax.set_title(f"Mean {m}")
    axes[0][0].set_ylabel("Kendall's tau, RawG vs UG (95% CI)")
    handles, labels = axes[0][-1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 6), frameon=False,
               bbox_to_anchor=(0.5, -0.08))
    fig.tight_layout()
    return fig


def replication_distributions(reps: pd.DataFrame):
    """Box plots over replications: tau (top) and discrepancy counts (bottom)."""
    import matplotlib.pyplot as plt
    import seaborn as sns  # imported on use: it costs a kernel ~0.7 s

    measures = list(dict.fromkeys(reps["measure"]))
    fig, axes = plt.subplots(2, len(measures), figsize=(4.2 * len(measures), 6.4),
                             sharey="row", squeeze=False)
    for j, m in enumerate(measures):
        sub = reps[reps.measure == m]
        for i, col in enumerate(("tau", "discrepancies")):
            ax = axes[i][j]
            sns.boxplot(data=sub, x="N", y=col, hue="dmax", ax=ax, palette="colorblind",
                        fliersize=2, linewidth=0.8)
            ax.set_title(f"{m}: {col} over {sub.replication.nunique()} rating draws")
            if i == 0:
                ax.axhline(1.0, color="grey", lw=0.8, ls="--")
            if j:
                ax.set_ylabel("")
            if ax.get_legend() is not None and (i, j) != (0, len(measures) - 1):
                ax.get_legend().remove()
    fig.tight_layout()
    return fig


def es_figure(summary: pd.DataFrame, paper_rows: pd.DataFrame):
    """ES of borderline pairs against n, with q / sqrt(n) and the paper's range."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import ScalarFormatter

    fig, ax = plt.subplots(figsize=(6.5, 4))
    curve = summary.groupby("topics")["q_over_root_n"].first()
    ax.plot(curve.index, curve.values, color="k", lw=1, label="q / sqrt(n) (HSD border)")
    for k, (m, part) in enumerate(summary.groupby("measure")):
        ax.scatter(part["topics"], part["es_median"], color=f"C{k}", s=22, zorder=3,
                   label=f"{m}: median ES of pairs with p near 0.05")
    lo, hi = paper_rows["ES"].min(), paper_rows["ES"].max()
    ax.axhspan(lo, hi, color="tab:red", alpha=0.12, label=f"paper's ES {lo:.2f}-{hi:.2f} (n = 100)")
    n_lo, n_hi = paper_rows["implied_topics"].min(), paper_rows["implied_topics"].max()
    ax.axvspan(n_lo, n_hi, color="tab:red", alpha=0.06)
    ax.set(xscale="log", yscale="log", xlabel="topics n (random subsets of the simulated collection)",
           ylabel="ES_HSD = |d| / sqrt(V_E)")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(ScalarFormatter())
    ax.legend(fontsize=7)
    ax.set_title(f"Borderline pairs: ES ~ q/sqrt(n); the paper's ES needs n ~ {n_lo:.0f}-{n_hi:.0f} "
                 "(shaded)", fontsize=9)
    fig.tight_layout()
    return fig


def run_spread_figure(worlds: pd.DataFrame):
    """Upper limits reaching 1, and the HSD border |d| (calibration), against run_spread."""
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(9.5, 3.6))
    mean = worlds.groupby("run_spread").mean(numeric_only=True).reset_index()
    a.scatter(worlds["run_spread"], worlds["upper_at_least_1"], s=14, color="0.6", label="one collection")
    a.plot(mean["run_spread"], mean["upper_at_least_1"], marker="o", label="mean")
    a.axhline(worlds["conditions"].max(), ls="--", color="k", lw=0.8, label="paper: all conditions")
    a.set(xlabel="run_spread (sd of run skill within a team)",
          ylabel="conditions with upper limit >= 1")
    b.scatter(worlds["run_spread"], worlds["hsd_border_d"], s=14, color="0.6")
    b.plot(mean["run_spread"], mean["hsd_border_d"], marker="o")
    b.axhspan(*PUBLISHED_D, color="tab:green", alpha=0.15, label="paper's borderline |d|")
    b.set(xlabel="run_spread", ylabel="HSD border |d|, nG@1 (calibration)")
    for ax in (a, b):
        ax.axvline(STC_DEFAULTS["run_spread"], color="tab:red", lw=0.8, ls=":")
    a.legend(fontsize=7)
    b.legend(fontsize=7)
    fig.suptitle("Alternative STC worlds: only run_spread varies (dotted: the calibrated default)",
                 fontsize=9)
    fig.tight_layout()
    return fig
