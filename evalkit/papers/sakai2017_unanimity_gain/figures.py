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
    """Box plots over replications: tau (top) and discrepancy counts (bottom).

    Boxes span the quartiles over rating draws, whiskers reach the furthest draw within
    1.5 IQR, dots are the draws beyond; counts get whole-number ticks.
    """
    import matplotlib.pyplot as plt
    import seaborn as sns  # imported on use: it costs a kernel ~0.7 s
    from matplotlib.ticker import MaxNLocator

    measures = list(dict.fromkeys(reps["measure"]))
    draws = reps.replication.nunique()
    fig, axes = plt.subplots(2, len(measures), figsize=(4.2 * len(measures), 6.6),
                             sharey="row", squeeze=False)
    for j, m in enumerate(measures):
        sub = reps[reps.measure == m]
        for i, col in enumerate(("tau", "discrepancies")):
            ax = axes[i][j]
            sns.boxplot(data=sub, x="N", y=col, hue="dmax", ax=ax, palette="colorblind",
                        fliersize=2, linewidth=0.8)
            ax.set_title(f"{m}: {'tau' if i == 0 else 'discrepant pairs'} over {draws} draws",
                         fontsize=9)
            ax.set_xlabel("N (assessors per item)")
            ax.set_ylabel("Kendall's tau, RawG vs UG" if i == 0 else
                          "number of discrepant pairs (of 120)")
            if i == 0:
                ax.axhline(1.0, color="grey", lw=0.8, ls="--")
            else:
                ax.set_ylim(-0.5, max(int(reps[col].max()), 1) + 0.5)
                ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            if ax.get_legend() is not None:
                ax.get_legend().remove()
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, [f"Dmax = {x}" for x in labels], loc="lower center", ncol=len(labels),
               frameon=False, bbox_to_anchor=(0.5, -0.02))
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def es_figure(summary: pd.DataFrame, paper_rows: pd.DataFrame):
    """ES of borderline pairs against n, with q / sqrt(n) and the paper's range."""
    import matplotlib.pyplot as plt
    import seaborn as sns  # imported on use
    from matplotlib.ticker import NullFormatter, ScalarFormatter

    fig, ax = plt.subplots(figsize=(6.5, 4.6))
    curve = summary.groupby("topics")["q_over_root_n"].first()
    ax.plot(curve.index, curve.values, color="k", lw=1, label="q / sqrt(n) (HSD border)")
    colours = sns.color_palette("colorblind", summary["measure"].nunique())
    markers = ("o", "s", "^", "D")
    for k, (m, part) in enumerate(summary.groupby("measure")):
        ax.scatter(part["topics"], part["es_median"], color=colours[k], marker=markers[k % 4],
                   s=24, zorder=3, label=f"{m}: median ES of pairs with p near 0.05")
    lo, hi = paper_rows["ES"].min(), paper_rows["ES"].max()
    ax.axhspan(lo, hi, color="tab:red", alpha=0.12, label=f"paper's ES {lo:.2f}-{hi:.2f} (n = 100)")
    n_lo, n_hi = paper_rows["implied_topics"].min(), paper_rows["implied_topics"].max()
    ax.axvspan(n_lo, n_hi, color="tab:red", alpha=0.06,
               label=f"topics the paper's ES needs, {n_lo:.0f}-{n_hi:.0f}")
    ax.set(xscale="log", yscale="log", xlabel="topics n (random subsets of the simulated collection)",
           ylabel="ES_HSD = |d| / sqrt(V_E)")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(ScalarFormatter())
        axis.set_minor_formatter(NullFormatter())
    ax.set_yticks([0.5, 1, 2])
    ax.set_xticks([5, 10, 25, 50, 100])
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
    ax.set_title("Borderline pairs: ES ~ q/sqrt(n), whatever the measure", fontsize=9)
    fig.tight_layout()
    return fig


def run_spread_figure(worlds: pd.DataFrame, summary: pd.DataFrame | None = None):
    """Upper limits reaching 1 per collection and their mean with a 95% t interval (left), and
    the HSD border |d| (the calibration target, right), against run_spread."""
    import matplotlib.pyplot as plt
    import seaborn as sns  # imported on use
    from matplotlib.ticker import MaxNLocator

    from .run_spread import run_spread_summary

    summary = run_spread_summary(worlds) if summary is None else summary
    total = worlds["conditions"].max()
    grey, mean_c, paper_c = "0.55", sns.color_palette("colorblind")[0], "k"
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4.4))
    spreads = sorted(worlds["run_spread"].unique())
    step = min(np.diff(spreads)) if len(spreads) > 1 else 0.1
    rng = np.random.default_rng(0)          # jitter only: a fixed seed, the same bytes every run
    jitter = rng.uniform(-0.06, 0.06, len(worlds)) * step
    a.scatter(worlds["run_spread"] + jitter, worlds["upper_at_least_1"], s=12, color=grey,
              alpha=0.7, label="one collection (seed), jittered")
    high = np.minimum(summary["high"], total)            # a count cannot exceed the total
    clipped = summary["high"] > total
    yerr = np.vstack([summary["mean"] - summary["low"], high - summary["mean"]])
    a.errorbar(summary["run_spread"], summary["mean"], yerr=np.where(np.isfinite(yerr), yerr, 0),
               fmt="o-", color=mean_c, capsize=3, label="mean, 95% t interval over seeds")
    if clipped.any():
        a.scatter(summary["run_spread"][clipped], [total + 0.25] * int(clipped.sum()),
                  marker="^", s=22, color=mean_c, label=f"interval clipped at {total}")
    a.axhline(total, ls="--", color=paper_c, lw=0.8, label=f"paper: all {total} conditions")
    a.set_ylim(min(worlds["upper_at_least_1"].min(), summary["low"].min()) - 0.5, total + 0.6)
    a.yaxis.set_major_locator(MaxNLocator(integer=True))
    a.set(xlabel="run_spread (sd of run skill within a team)",
          ylabel=f"number of conditions, upper limit >= 1 (of {total})")
    b.scatter(worlds["run_spread"] + jitter, worlds["hsd_border_d"], s=12, color=grey, alpha=0.7,
              label="one collection (seed), jittered")
    mean = worlds.groupby("run_spread")["hsd_border_d"].mean()
    b.plot(mean.index, mean.values, marker="o", color=mean_c, label="mean over seeds")
    b.axhspan(*PUBLISHED_D, color="tab:green", alpha=0.15,
              label=f"borderline |d| about {PUBLISHED_D[0]:g}-{PUBLISHED_D[1]:g} (workspace reading of Table 3)")
    b.set(xlabel="run_spread (sd of run skill within a team)",
          ylabel="HSD border |d| of mean nG@1 (calibration)")
    for ax in (a, b):
        ax.set_xticks(spreads)
        ax.axvline(STC_DEFAULTS["run_spread"], color="tab:red", lw=0.8, ls=":",
                   label="the calibrated default")
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2,
                  frameon=False)
    fig.suptitle(f"Alternative STC worlds: only run_spread varies (the collection seeds of the "
                 f"first {int(summary['worlds'].min())} worlds, the same at each value)", fontsize=9)
    fig.tight_layout()
    return fig
