"""The real-data notebook's figures (matplotlib; no I/O here).

Save them with :func:`evalkit.outputs.show_figure`.  One function per
figure under ``figures/real_data/`` except Figure 3 on the real pool, which is
Wang et al.'s (SIGIR 2015 §4.1) figure drawn by
:func:`evalkit.papers.wang2015_assessor_differences.cluster_timelines`:

* :func:`real_pool_timelines` — ``figure3_real_topics.png``: that figure with
  its time axes labelled and readable over the real pool's dates;
* :func:`spread_comparison` — ``stc_spread.png``: spread D, real vs uniform;
* :func:`gain_scatter` — ``stc_rawg_vs_ug.png``: RawG vs UG (Sakai's Eq. 2) per item;
* :func:`subsets_figure` — ``stc_assessors_n.png``;
* :func:`agreement_figure` — ``stc_agreement.png``;
* :func:`controls_figure` — ``stc_controls.png``.

Colours are the Okabe-Ito colour-blind-safe palette (:data:`COLOURS`), one
per measure; categories sit at fixed positions, legends sit outside the axes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["COLOURS", "real_pool_timelines", "spread_comparison", "gain_scatter", "subsets_figure", "agreement_figure",
           "controls_figure"]

#: Okabe-Ito colours: one per measure, and for real vs uniform ratings.
COLOURS = {"P+": "#0072B2", "nERR": "#E69F00", "nG@1": "#009E73",
           "real": "#0072B2", "uniform": "#D55E00", "shuffled": "#CC79A7"}
#: Horizontal offset of each measure's markers around a shared position.
_DODGE = {"P+": -0.15, "nERR": 0.0, "nG@1": 0.15}


def _legend_below(fig, ax, ncol: int, **kw) -> None:
    """One legend for ``ax``'s series, centred below the figure (never over the data)."""
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=ncol,
               frameon=False, fontsize=8, **kw)


def real_pool_timelines(panels: dict):
    """Wang et al.'s Figure 3 on the real pool: real tweet times on labelled date axes.

    Draws :func:`~evalkit.papers.wang2015_assessor_differences.cluster_timelines`
    and gives each time axis a label and at most five concise date ticks (the
    real pool spans days, so full timestamps would overlap).
    """
    import matplotlib.dates as mdates

    from ..wang2015_assessor_differences import cluster_timelines

    fig = cluster_timelines(panels)
    for ax in fig.axes:
        locator = mdates.AutoDateLocator(maxticks=5)
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
        ax.tick_params(axis="x", rotation=0)
        ax.set_xlabel("time the tweet was posted (UTC)")
    fig.tight_layout()
    return fig


def spread_comparison(spread: pd.DataFrame):
    """Share of relevant items per spread D: real ratings vs Sakai's uniform simulation."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.2))
    x = np.arange(len(spread))
    ax.bar(x - 0.2, spread.real_share, 0.4, color=COLOURS["real"], label="real (STC-ja, N = 10)")
    ax.bar(x + 0.2, spread.uniform_share, 0.4, color=COLOURS["uniform"],
           label="uniform simulation (Sakai)")
    ax.set_xticks(x, [f"D = {d}" for d in spread.D])
    ax.set(xlabel="rating spread D = max - min of an item's ten ratings (Dmax = 2)",
           ylabel="share of items with RawG > 0", ylim=(0, 1))
    _legend_below(fig, ax, 2)
    fig.tight_layout()
    return fig


def gain_scatter(raw: np.ndarray, ug: np.ndarray, spread: np.ndarray, p: float):
    """RawG against UG per item, coloured by spread D, point size the number of items."""
    import matplotlib.pyplot as plt

    frame = pd.DataFrame({"RawG": raw, "UG": ug, "D": spread})
    counts = frame.value_counts().rename("items").reset_index()
    fig, ax = plt.subplots(figsize=(5.6, 4))
    scale = 300 / counts["items"].max()
    for d, colour in zip(sorted(counts.D.unique()), ("#009E73", "#0072B2", "#D55E00")):
        part = counts[counts.D == d]
        ax.scatter(part.RawG, part.UG, s=np.maximum(part["items"] * scale, 6), color=colour,
                   alpha=0.7, label=f"D = {d}")
    lim = [0, max(frame.UG.max(), 1)]
    ax.plot(lim, lim, color="grey", lw=0.8, ls="--", label="UG = RawG")
    ax.set(xlabel="RawG (sum of the ten ratings)",
           ylabel=f"UG = RawG + pN(Dmax - D), p = {p:g}")
    ax.set_title("STC-ja items (point area: number of items)", fontsize=9)
    legend = ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1))
    for handle in legend.legend_handles[:-1]:     # the D markers at one size (area is data)
        handle.set_sizes([30])
    fig.tight_layout()
    return fig


def subsets_figure(summary: pd.DataFrame, by_n: pd.DataFrame | None = None):
    """Tau, discrepancies and unanimity against N: mean and 95% interval over the subsets.

    N below the maximum: mean over the seeded subsets with its 95% t interval
    (bars). The maximum N (all ten assessors) is one set, not a draw: an open
    marker, and in the tau panel, when ``by_n`` (:func:`~.stc_assessors_n.assessor_subsets`'
    rows, with ``low`` and ``high``) is given, with the 95% confidence interval
    of that one Kendall tau (dashed bars). The tau axis starts at 0.9 or lower,
    so a change in the third decimal is not drawn as a fall.
    """
    import matplotlib.pyplot as plt

    full = summary["N"].max()
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.0))
    lows, highs = [], [1.0]
    for m, part in summary.groupby("measure"):
        c, dx = COLOURS[m], _DODGE.get(m, 0.0)
        sub, one = part[part["N"] < full], part[part["N"] == full]
        axes[0].errorbar(sub["N"] + dx, sub["tau"], yerr=sub["tau_ci"], color=c, marker="o",
                         ms=4, capsize=3, label=f"{m}: mean of subsets, 95% CI over subsets")
        lows.append((sub["tau"] - sub["tau_ci"]).min())
        whole = None if by_n is None else by_n[(by_n["measure"] == m) & (by_n["N"] == full)]
        if whole is not None and len(whole):
            w = whole.iloc[0]
            bars = axes[0].errorbar([full + dx], [w["tau"]], yerr=[[w["tau"] - w["low"]],
                                                                  [w["high"] - w["tau"]]],
                                    ls="none", marker="D", mfc="none", color=c, capsize=3,
                                    label=f"{m}: all ten (one set), 95% CI of its tau")
            bars[-1][0].set_linestyle("--")
            lows.append(w["low"])
            highs.append(w["high"])
        else:
            axes[0].plot(one["N"] + dx, one["tau"], ls="none", marker="D", mfc="none", color=c,
                         label=f"{m}: all ten (one set)")
        low = np.minimum(sub["discrepancies_ci"], sub["discrepancies"])   # a count is >= 0
        axes[1].errorbar(sub["N"] + dx, sub["discrepancies"], yerr=[low, sub["discrepancies_ci"]],
                         color=c, marker="o", ms=4, capsize=3)
        axes[1].plot(one["N"] + dx, one["discrepancies"], ls="none", marker="D", mfc="none", color=c)
    axes[0].set_ylim(min(0.9, min(lows) - 0.01), max(highs) + 0.01)
    axes[0].axhline(1.0, color="grey", lw=0.8, ls=":")
    share = summary.groupby("N")[["share_D_below_dmax", "uniform_share_D_below_dmax"]].first()
    axes[2].plot(share.index, share.iloc[:, 0], marker="o", ms=4, color="k",
                 label="real raters (mean of subsets)")
    axes[2].plot(share.index, share.iloc[:, 1], marker="s", ms=4, color=COLOURS["uniform"], ls=":",
                 label="uniform raters (Sakai; closed form)")
    ns = sorted(summary["N"].unique())
    for ax in axes:
        ax.set_xticks(ns)
        ax.set_xlabel("assessors per item N (of the ten real ones)")
    axes[0].set_ylabel("Kendall tau, RawG vs UG (p = 0.2)")
    axes[1].set_ylabel("HSD discrepancies (best runs)")
    axes[2].set(ylabel="share of relevant items with D < Dmax", ylim=(0, 1))
    subsets = int(summary.loc[summary["N"] < full, "subsets"].max())
    fig.suptitle(f"NTCIR-12 STC-ja: N of the ten real ratings per item ({subsets} seeded subsets per "
                 f"N < {full}; N = {full} is one set); runs simulated", fontsize=9)
    handles, labels = axes[0].get_legend_handles_labels()
    handles, labels = map(list, zip(*sorted(zip(handles, labels), key=lambda hl: hl[1])))
    more, names = axes[2].get_legend_handles_labels()
    fig.legend(handles + more, labels + names, loc="upper center", bbox_to_anchor=(0.5, 0.0),
               ncol=4, frameon=False, fontsize=8)
    fig.tight_layout()
    return fig


def agreement_figure(worlds: pd.DataFrame, summary: pd.DataFrame):
    """Tau and RawG-significant pairs against the rating noise, real and uniform as lines."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for m, part in worlds.groupby("measure"):
        c = COLOURS[m]
        axes[0].plot(part["sigma"], part["tau"], marker="o", ms=4, color=c, label=m)
        axes[1].plot(part["sigma"], part["significant_RawG"], marker="o", ms=4, color=c, label=m)
        for ax, col in ((axes[0], "tau"), (axes[1], "significant_RawG")):
            real = summary[(summary.measure == m) & (summary.ratings == "real")][col]
            uni = summary[(summary.measure == m) & (summary.ratings == "uniform")][col]
            ax.axhline(real.iloc[0], color=c, ls="-", lw=0.7, alpha=0.7)
            ax.axhline(uni.iloc[0], color=c, ls=":", lw=1.0)
    axes[0].set(xscale="log", xlabel="rating noise sigma around the item's real mean (rating points)",
                ylabel="Kendall tau, RawG vs UG")
    axes[1].set(xscale="log", xlabel="rating noise sigma (rating points)",
                ylabel="best-run pairs significant under RawG")
    sigmas = sorted(worlds["sigma"].unique())
    for ax in axes:                                  # one plain tick per sigma drawn, no minor ones
        ax.minorticks_off()
        ax.set_xticks(sigmas, [f"{s:g}" for s in sigmas])
    handles, labels = axes[0].get_legend_handles_labels()
    handles += [Line2D([], [], color="grey", lw=0.7), Line2D([], [], color="grey", ls=":")]
    labels += ["real ratings (thin line)", "uniform ratings, mean of draws (dotted)"]
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=5,
               frameon=False, fontsize=8)
    fig.suptitle("Real STC-ja pool: ratings around each item's real mean with noise sigma "
                 "(one draw per sigma; runs simulated)", fontsize=9)
    fig.tight_layout()
    return fig


def controls_figure(summary: pd.DataFrame, stc: pd.DataFrame):
    """Left: tau with RawG fixed against the share of unanimous items; right: tau per world.

    Right panel: the three worlds at fixed positions, one marker per measure;
    bars span the draws' range (min to max); the real ratings are one set.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [1.3, 1]})
    fixed = summary[summary["world"] == "fixed RawG"]
    worlds = ["real ratings\n(agreement real,\nsignal real)", "shuffled\n(agreement real,\nsignal cut)",
              "uniform\n(no agreement,\nsignal cut)"]
    for m, part in fixed.groupby("measure"):
        c, dx = COLOURS[m], _DODGE.get(m, 0.0)
        a.plot(part["share_D_below_dmax"], part["tau"], marker="o", ms=4, color=c, label=m)
        real = stc[(stc.measure == m) & (stc.ratings == "real")].iloc[0]
        shuffled = summary[(summary.world == "shuffled") & (summary.measure == m)].iloc[0]
        uniform = stc[(stc.measure == m) & (stc.ratings == "uniform")].iloc[0]
        a.scatter([shuffled.share_D_below_dmax], [real.tau], marker="*", s=90, color=c, zorder=3)
        rows = (real, shuffled, uniform)
        tau = np.array([r.tau for r in rows])
        low = tau - np.array([r.tau_min for r in rows])
        high = np.array([r.tau_max for r in rows]) - tau
        b.errorbar(np.arange(3) + dx, tau, yerr=[low, high], ls="none", marker="o", color=c,
                   capsize=3, label=m)
    a.set(xlabel="share of relevant items with D < Dmax (RawG fixed to the real one)",
          ylabel="Kendall tau, RawG vs UG (p = 0.2)")
    b.set_xticks(range(3), worlds)
    b.set(xlim=(-0.5, 2.5), xlabel="ratings (world)", ylabel="Kendall tau, RawG vs UG")
    b.tick_params(axis="x", labelsize=7)
    handles, labels = a.get_legend_handles_labels()
    handles.append(Line2D([], [], ls="none", marker="*", ms=9, color="grey"))
    labels.append("real ratings (their share of D < Dmax)")
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=4,
               frameon=False, fontsize=8)
    fig.suptitle("Real STC-ja pool, runs simulated: unanimity varied with RawG fixed (left, mean "
                 "of draws); tau per world, bars the range over draws (right)", fontsize=9)
    fig.tight_layout()
    return fig
