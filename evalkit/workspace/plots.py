"""Figures shared by the notebooks (seaborn/matplotlib; no I/O here).

Save them with :func:`evalkit.outputs.save_figure`, which strips dates so the same
data gives the same bytes.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg", force=False)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

__all__ = [
    "tau_grid", "replication_distributions", "ed_vs_noise", "precision_recall_scatter",
    "cluster_timelines", "official_vs_alternate", "swap_histograms", "ari_histogram",
    "tau_vs_disagreement", "spread_comparison", "gain_scatter", "kappa_bars",
    "kappa_by_metric", "kappa_small_multiples",
]


def tau_grid(reproduced: pd.DataFrame, published: pd.DataFrame | None = None):
    """Kendall tau (RawG vs UG) with CI bars per measure, N on x, one colour per dmax.

    Published values, if given, are drawn as hollow markers beside them.
    """
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


def ed_vs_noise(long: pd.DataFrame, published: pd.DataFrame | None = None):
    """ED against noise ratio per method: mean over draws with min-max band.

    ``published`` (wide, one column per method) is drawn dashed for comparison.
    """
    import seaborn as sns  # imported on use: it costs a kernel ~0.7 s

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    methods = list(dict.fromkeys(long["method"]))
    colours = dict(zip(methods, sns.color_palette("colorblind", len(methods))))
    for m in methods:
        g = long[long.method == m].groupby("noise_ratio")["ED"]
        mean, lo, hi = g.mean(), g.min(), g.max()
        ax.plot(mean.index, mean.values, "o-", color=colours[m], label=m)
        ax.fill_between(mean.index, lo.values, hi.values, color=colours[m], alpha=0.15, lw=0)
        if published is not None and m in published:
            ax.plot(published["noise_ratio"], published[m], ls="--", color=colours[m], lw=1,
                    alpha=0.8)
    ax.set_xlabel("noise ratio r (random orderings added per judgment)")
    ax.set_ylabel("evaluation discriminativeness (ED)")
    ax.set_title("ED against noise: simulated (solid, band = min-max over draws), published (dashed)")
    ax.title.set_fontsize(9)
    ax.legend(ncol=2, fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


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


def spread_comparison(spread: pd.DataFrame):
    """Share of items per spread D: real ratings vs Sakai's uniform simulation."""
    fig, ax = plt.subplots(figsize=(5, 3.2))
    x = np.arange(len(spread))
    ax.bar(x - 0.2, spread.real_share, 0.4, label="real (STC-ja, N = 10)")
    ax.bar(x + 0.2, spread.uniform_share, 0.4, label="uniform simulation")
    ax.set_xticks(x, [f"D = {d}" for d in spread.D])
    ax.set_ylabel("share of items with RawG > 0")
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def gain_scatter(raw: np.ndarray, ug: np.ndarray, spread: np.ndarray, p: float):
    """RawG against UG per item, coloured by spread D (jittered counts as point size)."""
    import seaborn as sns  # imported on use: it costs a kernel ~0.7 s

    frame = pd.DataFrame({"RawG": raw, "UG": ug, "D": spread})
    counts = frame.value_counts().rename("items").reset_index()
    fig, ax = plt.subplots(figsize=(5.2, 4))
    sns.scatterplot(data=counts, x="RawG", y="UG", hue="D", size="items", sizes=(10, 300),
                    palette="colorblind", ax=ax)
    lim = [0, max(frame.UG.max(), 1)]
    ax.plot(lim, lim, color="grey", lw=0.8, ls="--")
    ax.set_title(f"RawG vs UG (p = {p:g}) per item", fontsize=9)
    ax.legend(fontsize=7, frameon=False, loc="upper left")
    fig.tight_layout()
    return fig


def kappa_bars(agg: pd.DataFrame, group: str = "bin", ax=None, annotate: bool = True):
    """Bars of kappa per group with 95% CI; labels "neither | preferences" under each bar.

    An undefined kappa (NaN) leaves the bar out; a kappa of exactly 0 is drawn
    as a dash (the paper's convention in Figure 9).
    """
    ax = ax or plt.gca()
    x = np.arange(len(agg))
    k = agg["kappa"].to_numpy(float)
    ok = np.isfinite(k)
    ax.bar(x[ok], k[ok], color="tab:blue", alpha=0.8)
    ax.errorbar(x[ok], k[ok], yerr=[k[ok] - agg["low"].to_numpy(float)[ok],
                                     agg["high"].to_numpy(float)[ok] - k[ok]],
                fmt="none", ecolor="black", capsize=2, lw=0.8)
    zero = ok & (k == 0)
    ax.plot(x[zero], k[zero], "_", color="black", ms=14, mew=2)
    ax.axhline(0, color="grey", lw=0.6)
    ax.set_xticks(x, agg[group].astype(str), rotation=30, fontsize=7)
    ax.set_ylim(-0.6, 1.15)
    if annotate:
        for xi, (n, p) in enumerate(zip(agg["neither"], agg["preferences"])):
            ax.text(xi, -0.55, f"{n}|{p}", ha="center", fontsize=6)
    return ax


def kappa_by_metric(agg: pd.DataFrame, metrics, group: str = "bin", title: str = ""):
    """Figure 7 / Figure 9: one panel per metric."""
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.4 * len(metrics), 3.2), sharey=True)
    for ax, m in zip(np.atleast_1d(axes), metrics):
        kappa_bars(agg[agg.metric == m], group, ax)
        ax.set_title(m.replace("_", " "), fontsize=9)
    np.atleast_1d(axes)[0].set_ylabel("Cohen's kappa (95% CI)")
    if title:
        fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    return fig


def kappa_small_multiples(agg: pd.DataFrame, metrics, assessors):
    """Figure 8: rows = metrics, columns = assessors."""
    fig, axes = plt.subplots(len(metrics), len(assessors), figsize=(2.2 * len(assessors),
                             1.8 * len(metrics)), sharey=True, squeeze=False)
    for i, m in enumerate(metrics):
        for j, a in enumerate(assessors):
            ax = axes[i][j]
            kappa_bars(agg[(agg.metric == m) & (agg.assessor == a)], "bin", ax, annotate=False)
            ax.tick_params(labelbottom=False, labelsize=6)
            if i == 0:
                ax.set_title(a, fontsize=8)
            if j == 0:
                ax.set_ylabel(m.replace("_", " "), fontsize=7)
    fig.tight_layout()
    return fig
