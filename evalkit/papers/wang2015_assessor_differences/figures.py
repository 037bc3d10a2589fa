"""Wang et al. (SIGIR 2015) §3–4: the figures of ``wang2015_assessor_differences.ipynb``.

Figures 2–5, the ARI histogram, tau against disagreement and the
alternative-assessor worlds (matplotlib/seaborn; no I/O here).  Save them
with :func:`evalkit.outputs.save_figure`, which strips dates so the
same data gives the same bytes.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg", force=False)  # figures go to files
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from matplotlib import dates as mdates  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from .verdicts import SMALL_DIFF, TAU_STABLE  # noqa: E402
from .worlds import summarise_worlds  # noqa: E402

#: seaborn's ``color_palette("husl", 12)`` (to 4 decimals), for Figure 3's clusters without importing
#: seaborn (seconds of a kernel's start).
HUSL12 = ((0.9678, 0.4413, 0.5358), (0.9036, 0.512, 0.1959), (0.735, 0.5953, 0.1944), (0.5921, 0.6418, 0.1935),
          (0.3127, 0.6929, 0.1924), (0.2031, 0.6881, 0.5178), (0.2104, 0.6773, 0.6434),
          (0.2179, 0.6657, 0.7483), (0.233, 0.6396, 0.9261), (0.6423, 0.5498, 0.9583),
          (0.9083, 0.402, 0.9577), (0.9633, 0.4064, 0.7593))
#: A colour-blind-safe palette (Okabe & Ito), one colour per series.
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000")

__all__ = ["precision_recall_scatter", "ari_histogram", "cluster_timelines", "official_vs_alternate",
           "swap_histograms", "tau_vs_disagreement", "assessor_worlds_figure"]


def _iso_f1(ax):
    grid = np.linspace(0.001, 1, 200)
    p, r = np.meshgrid(grid, grid)
    f = 2 * p * r / (p + r)
    cs = ax.contour(r, p, f, levels=np.arange(0.1, 1.0, 0.1), colors="tab:blue", linewidths=0.6,
                    alpha=0.6)
    ax.clabel(cs, fmt="%.1f", fontsize=7)


def precision_recall_scatter(panels: dict):
    """Figure 2: precision vs unweighted / weighted recall with iso-F1 contours.

    ``panels`` maps a row label (e.g. "simulated", "TREC 2014 official") to a
    frame with ``precision``, ``recall``, ``weighted_recall`` columns.
    """
    fig, axes = plt.subplots(len(panels), 2, figsize=(9, 4.2 * len(panels)), squeeze=False)
    for row, (label, frame) in zip(axes, panels.items()):
        for ax, col, name in zip(row, ("recall", "weighted_recall"),
                                 ("unweighted recall", "weighted recall")):
            _iso_f1(ax)
            ax.scatter(frame[col], frame["precision"], s=18, color="black", zorder=3)
            ax.set_xlim(0, 1)
            ax.set_ylim(0, 1)
            ax.set_xlabel(name)
            ax.set_ylabel("precision")
            ax.set_title(f"{label}: precision vs {name}", fontsize=9)
    fig.tight_layout()
    return fig


def ari_histogram(ari: pd.Series):
    """Per-topic ARI between the two assessors."""
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.hist(ari, bins=np.linspace(0, 1, 21), color="tab:grey", edgecolor="white")
    ax.axvline(ari.mean(), color="black", ls="--", lw=1, label=f"mean {ari.mean():.3f}")
    ax.axvline(ari.median(), color="tab:red", ls=":", lw=1, label=f"median {ari.median():.3f}")
    ax.set_xlabel("adjusted Rand index, official vs alternate")
    ax.set_ylabel("topics")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    return fig


def cluster_timelines(panels: dict):
    """Figure 3: tweets at their times, one level per cluster (ordered by first tweet).

    ``panels`` maps a title to ``(clusters, times)`` where ``clusters`` is a list
    of tweet-id lists and ``times`` maps tweet id -> datetime.  Panels are
    laid out in two columns (topics) by rows (assessors), in insertion order.
    """
    titles = list(panels)
    ncols = 2 if len(titles) > 1 else 1
    nrows = int(np.ceil(len(titles) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(6.5 * ncols, 3.2 * nrows), squeeze=False)
    palette = HUSL12
    for ax, title in zip(axes.T.ravel(), titles):
        clusters, times = panels[title]
        ordered = sorted((sorted(times[t] for t in c) for c in clusters), key=lambda ts: ts[0])
        # one collection of lines and one of points per panel (not two artists per cluster)
        num = [mdates.date2num(ts) for ts in ordered]
        colours = [palette[level % len(palette)] for level in range(len(ordered))]
        ax.add_collection(LineCollection([[(x[0], level), (x[-1], level)] for level, x in enumerate(num)],
                                         colors=colours, linewidths=0.8))
        sizes = [len(x) for x in num]
        ax.scatter(np.concatenate(num), np.repeat(np.arange(len(num)), sizes), s=4,
                   c=np.repeat(np.asarray(colours), sizes, axis=0), zorder=3)
        ax.xaxis_date()
        ax.autoscale_view()
        ax.set_title(title, fontsize=9)
        ax.set_ylabel("cluster (by first tweet)")
        ax.set_xlabel("posting time (UTC)", fontsize=8)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.tick_params(axis="x", labelsize=7, rotation=30)
    fig.tight_layout()
    return fig


def official_vs_alternate(official: pd.DataFrame, alternate: pd.DataFrame, metrics):
    """Figure 4: every run's score under both cluster sets, runs sorted by official score."""
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.3 * len(metrics), 3.4), sharey=False)
    for ax, m in zip(np.atleast_1d(axes), metrics):
        order = official[m].sort_values(ascending=False).index
        x = np.arange(1, len(order) + 1)
        ax.plot(x, official.loc[order, m], "o", ms=3, color=COLOURS[0], label="official clusters")
        ax.plot(x, alternate.loc[order, m], "x", ms=4, color=COLOURS[5], label="alternate clusters")
        ax.set_title(m.replace("_", " "), fontsize=9)
        ax.set_xlabel("run (rank by official score)")
        ax.set_ylabel(f"mean {m.replace('_', ' ')} over topics")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.legend(*np.atleast_1d(axes)[0].get_legend_handles_labels(), fontsize=8, frameon=False,
               loc="lower center", ncol=2)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig


def swap_histograms(diffs: dict, width: float = 0.01, published: dict | None = None):
    """Figure 5: rank swaps binned by absolute score difference in equal bins of ``width``
    (the paper's 0.01), one panel per metric; the dashed line is the "small" threshold;
    ``published`` (metric -> the paper's Table 1 swap count) puts the paper's count beside ours
    (its histogram is printed without numbers)."""
    top = max((float(d.max()) for d in diffs.values() if len(d)), default=width)
    edges = np.arange(0, np.ceil(top / width + 1e-9) * width + width / 2, width)
    fig, axes = plt.subplots(1, len(diffs), figsize=(4.5 * len(diffs), 3.9), squeeze=False)
    for ax, (m, d) in zip(axes[0], diffs.items()):
        counts = np.histogram(d, bins=edges)[0]
        ax.bar(edges[:-1], counts, width=width, align="edge", color="0.55", edgecolor="white",
               label=f"rank swaps per {width:g} bin")
        ax.axvline(SMALL_DIFF, color=COLOURS[5], ls="--", lw=1,
                   label=f"|diff| < {SMALL_DIFF:g} (workspace threshold): {(d < SMALL_DIFF).mean():.0%} of swaps")
        paper = f" (paper: {published[m]})" if published and m in published else ""
        ax.set_title(f"{m.replace('_', ' ')}: {len(d)} rank swaps{paper}", fontsize=9)
        ax.set_xlabel("absolute score difference of the swapped pair")
        ax.set_ylabel("rank swaps (count)")
        ax.set_xlim(0, edges[-1])
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(fontsize=7, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    fig.tight_layout()
    return fig


def tau_vs_disagreement(summary: pd.DataFrame):
    """Kendall tau of the two rankings against the alternate's disagreement
    (:func:`.curve.summarise_curve`): the median over whole worlds with its interquartile range,
    placed at the median mean ARI each level gives (axis reversed: the assessors disagree more to
    the right), so unequal steps between the levels look unequal; the metrics dodged sideways."""
    fig, ax = plt.subplots(figsize=(8.2, 4.3))
    levels = sorted(summary["level"].unique())
    metrics = list(dict.fromkeys(summary["metric"]))
    ari = summary.groupby("level").mean_ARI.median().loc[levels]
    span = float(ari.max() - ari.min()) or 1.0
    gap = float(np.diff(np.sort(ari.to_numpy())).min()) if len(ari) > 1 else span
    width = 0.6 * gap / max(len(metrics), 1)       # a level's metrics within 60% of the closest gap
    for i, (colour, m) in enumerate(zip(COLOURS, metrics)):
        g = summary[summary["metric"] == m].set_index("level").loc[levels]
        x = ari.to_numpy() - (i - (len(metrics) - 1) / 2) * width
        ax.errorbar(x, g.tau, yerr=[g.tau - g.tau_q1, g.tau_q3 - g.tau], fmt="o-", ms=3.5, capsize=2,
                    lw=1, color=colour, label=m.replace("_", " "))
    ax.set_xticks(ari.to_numpy(), [f"{a:.2f}\n(x{lv:g})" for lv, a in zip(levels, ari)], fontsize=8)
    ax.set_xlim(float(ari.max()) + 0.15 * span, float(ari.min()) - 0.15 * span)   # reversed
    draws = int(summary["draws"].min())
    ax.set_xlabel("median mean per-topic ARI between the two assessors (level: multiplier of each topic's "
                  "re-judged share)\n-> the assessors disagree more; at x0 no tweet is re-judged, yet the "
                  "granularity difference alone leaves ARI " f"{ari.loc[levels[0]]:.2f}", fontsize=8)
    ax.set_ylabel("Kendall tau, official vs alternate")
    ax.set_title(f"median over {draws} whole worlds per level, bars: interquartile range", fontsize=9)
    ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    return fig


def assessor_worlds_figure(draws: pd.DataFrame):
    """Weighted F1's tau and small-swap share, and the mean ARI (calibration), per world of the
    two knobs; last panel: tau against the alternate's largest-cluster share, with the worlds
    where that share is set directly."""
    knobs = draws[draws["world"] != "largest share set"]
    sets = draws[draws["world"] == "largest share set"]
    summary = summarise_worlds(knobs)
    fig, grid = plt.subplots(2, 2, figsize=(11, 7.6))
    axes = grid.ravel()[:3]
    levels = sorted(summary["level"].unique())
    colours = dict(zip(levels, COLOURS))
    d0 = knobs[(knobs["world"] == "default") & (knobs["draw"] == 0)]
    for ax, col, label in zip(axes, ("tau_weighted_f1", "small_weighted_f1", "ari_mean"),
                              ("Kendall tau, weighted F1",
                               f"weighted-F1 swaps, share |diff| < {SMALL_DIFF:g}",
                               "mean per-topic ARI (calibration)")):
        for lv in levels:
            d = knobs[knobs["level"] == lv]
            s = summary[summary["level"] == lv].sort_values("merge_size_bias")
            ax.plot(s["merge_size_bias"], s[col], marker="o", color=colours[lv],
                    label=f"disagreement x{lv:g} (mean of draws)")
            ax.scatter(d["merge_size_bias"], d[col], s=10, color=colours[lv], alpha=0.5)
        ax.scatter(d0["merge_size_bias"], d0[col], marker="*", s=120, color=COLOURS[5], zorder=5,
                   label="default world (committed draw)")
        ax.set(xlabel="merge_size_bias (1: by size, default)", ylabel=label)
        ax.set_xticks(sorted(summary["merge_size_bias"].unique()))
        ax.invert_xaxis()
    axes[0].axhline(TAU_STABLE, ls="--", color="k", lw=0.8,
                    label=f"tau >= {TAU_STABLE:g}: the workspace's reading of 'stable' for every metric "
                          "(the paper's weighted F1: 0.853; 'highly correlated' excludes it)")
    axes[1].axhline(0.5, ls="--", color="k", lw=0.8,
                    label=f"half the swaps below the workspace's {SMALL_DIFF:g} (paper: 'most ... small')")
    from .verdicts import TARGETS

    _, low, high = TARGETS["mean"]
    axes[2].axhspan(low, high, color=COLOURS[2], alpha=0.15, label=f"paper's target {low:g}-{high:g}")
    handles = {}
    for ax in axes:
        handles |= dict(zip(*reversed(ax.get_legend_handles_labels())))
    last = grid[1, 1]
    for lv in levels:
        d = knobs[knobs["level"] == lv]
        last.scatter(d["largest_share_alternate"], d["tau_weighted_f1"], s=14, color=colours[lv])
    for share, g in sets.groupby("share_set"):
        last.scatter(g["largest_share_alternate"], g["tau_weighted_f1"], s=16, marker="x",
                     color="black", label="largest share set directly (paired draws)"
                     if share == sets["share_set"].min() else None)
    last.axvline(draws["largest_share_official"].iloc[0], color="0.5", ls=":", lw=0.8,
                 label="official assessor's largest share")
    last.axhline(TAU_STABLE, ls="--", color="k", lw=0.8)
    last.set(xlabel="mean share of a topic's tweets in its largest alternate cluster",
             ylabel="Kendall tau, weighted F1")
    last.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.legend(list(handles.values()), list(handles.keys()), fontsize=7, frameon=False,
               loc="lower center", ncol=3)
    fig.suptitle("Alternative alternate assessors (each world's official clusters and runs fixed): which "
                 "units are lumped together (committed world),\nhow much they disagree and the largest "
                 "cluster set directly (every whole world)", fontsize=9)
    fig.tight_layout(rect=(0, 0.08, 1, 1), w_pad=2.5)
    return fig
