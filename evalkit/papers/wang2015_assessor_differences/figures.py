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

from .worlds import summarise_worlds  # noqa: E402

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
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def cluster_timelines(panels: dict):
    """Figure 3: tweets at their times, one level per cluster (ordered by first tweet).

    ``panels`` maps a title to ``(clusters, times)`` where ``clusters`` is a list
    of tweet-id lists and ``times`` maps tweet id -> datetime.  Panels are
    laid out in two columns (topics) by rows (assessors), in insertion order.
    """
    import seaborn as sns  # imported on use: it costs a kernel ~0.7 s

    titles = list(panels)
    ncols = 2 if len(titles) > 1 else 1
    nrows = int(np.ceil(len(titles) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(6.5 * ncols, 3.2 * nrows), squeeze=False)
    palette = sns.color_palette("husl", 12)
    for ax, title in zip(axes.T.ravel(), titles):
        clusters, times = panels[title]
        ordered = sorted(clusters, key=lambda c: min(times[t] for t in c))
        for level, c in enumerate(ordered):
            ts = sorted(times[t] for t in c)
            colour = palette[level % len(palette)]
            ax.plot(ts, [level] * len(ts), "-", color=colour, lw=0.8)
            ax.plot(ts, [level] * len(ts), "o", color=colour, ms=2.5)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel("cluster (by first tweet)")
        ax.tick_params(axis="x", labelsize=7, rotation=30)
    fig.tight_layout()
    return fig


def official_vs_alternate(official: pd.DataFrame, alternate: pd.DataFrame, metrics):
    """Figure 4: every run's score under both cluster sets, runs sorted by official score."""
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.3 * len(metrics), 3.2), sharey=False)
    for ax, m in zip(np.atleast_1d(axes), metrics):
        order = official[m].sort_values(ascending=False).index
        x = np.arange(len(order))
        ax.plot(x, official.loc[order, m], "o", ms=3, label="official")
        ax.plot(x, alternate.loc[order, m], "x", ms=4, label="alternate")
        ax.set_title(m.replace("_", " "), fontsize=9)
        ax.set_xlabel("runs (by official score)")
    np.atleast_1d(axes)[0].legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def swap_histograms(diffs: dict, bins):
    """Figure 5: rank swaps binned by absolute score difference, one panel per metric."""
    fig, axes = plt.subplots(1, len(diffs), figsize=(4.5 * len(diffs), 3.2), squeeze=False)
    labels = [f"[{a:g},{b:g})" for a, b in zip(bins[:-1], bins[1:])]
    for ax, (m, d) in zip(axes[0], diffs.items()):
        counts = np.histogram(d, bins=bins)[0]
        ax.bar(range(len(counts)), counts, color="tab:grey")
        ax.set_xticks(range(len(counts)), labels, rotation=30, fontsize=7)
        ax.set_title(f"{m.replace('_', ' ')}: {len(d)} rank swaps", fontsize=9)
        ax.set_xlabel("absolute score difference")
        ax.set_ylabel("rank swaps")
    fig.tight_layout()
    return fig


def tau_vs_disagreement(curve: pd.DataFrame):
    """Kendall tau (with CI) of the two rankings against the assessors' mean ARI."""
    fig, ax = plt.subplots(figsize=(6, 3.8))
    for m, g in curve.groupby("metric", sort=False):
        g = g.sort_values("mean_ARI")
        ax.errorbar(g.mean_ARI, g.tau, yerr=[g.tau - g.low, g.high - g.tau], fmt="o-", ms=3,
                    capsize=2, label=m.replace("_", " "))
    ax.set_xlabel("mean per-topic ARI between the two assessors")
    ax.set_ylabel("Kendall tau, official vs alternate ranking")
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def assessor_worlds_figure(draws: pd.DataFrame):
    """Weighted F1's tau and small-swap share, and the mean ARI (calibration), per world."""
    summary = summarise_worlds(draws)
    fig, grid = plt.subplots(2, 2, figsize=(10, 7.2))
    axes = grid.ravel()[:3]
    levels = sorted(summary["level"].unique())
    for ax, col, label in zip(axes, ("tau_weighted_f1", "small_weighted_f1", "ari_mean"),
                              ("Kendall tau, weighted F1", "share of swaps with |diff| < 0.03, weighted F1",
                               "mean per-topic ARI (calibration)")):
        for lv in levels:
            d = draws[draws["level"] == lv]
            s = summary[summary["level"] == lv].sort_values("merge_size_bias")
            line, = ax.plot(s["merge_size_bias"], s[col], marker="o", label=f"disagreement x{lv:g}")
            ax.scatter(d["merge_size_bias"], d[col], s=10, color=line.get_color(), alpha=0.5)
        ax.set(xlabel="merge_size_bias (1 = by size, the default; 0 = any unit)", ylabel=label)
        ax.invert_xaxis()
    axes[0].axhline(0.85, ls="--", color="k", lw=0.8, label="paper: tau >= 0.85")
    axes[1].axhline(0.5, ls="--", color="k", lw=0.8, label="paper: most swaps small")
    axes[2].axhspan(0.395, 0.495, color="tab:green", alpha=0.15, label="paper 0.445 +- 0.05")
    d0 = draws[(draws["world"] == "default") & (draws["draw"] == 0)]
    for ax, col in zip(axes, ("tau_weighted_f1", "small_weighted_f1", "ari_mean")):
        ax.scatter(d0["merge_size_bias"], d0[col], marker="*", s=120, color="tab:red", zorder=5,
                   label="default world (committed)")
        ax.legend(fontsize=6)
    last = grid[1, 1]
    for lv in levels:
        d = draws[draws["level"] == lv]
        last.scatter(d["largest_share_alternate"], d["tau_weighted_f1"], s=14, label=f"disagreement x{lv:g}")
    last.axvline(draws["largest_share_official"].iloc[0], color="0.5", ls=":", lw=0.8,
                 label="official assessor")
    last.axhline(0.85, ls="--", color="k", lw=0.8)
    last.set(xlabel="mean share of a topic's tweets in its largest alternate cluster",
             ylabel="Kendall tau, weighted F1")
    last.legend(fontsize=6)
    fig.suptitle("Alternative alternate assessors (official clusters and runs fixed): which units are "
                 "lumped together, and how much they disagree", fontsize=9)
    fig.tight_layout()
    return fig
