"""The real-data notebook's figures (matplotlib; no I/O here).

Save them with :func:`evalkit.outputs.save_figure`.  One function per
figure under ``figures/real_data/`` except Figure 3 on the real pool, which is
Wang et al.'s (SIGIR 2015 §4.1) figure drawn by
:func:`evalkit.papers.wang2015_assessor_differences.cluster_timelines`:

* :func:`spread_comparison` — ``stc_spread.png``: spread D, real vs uniform;
* :func:`gain_scatter` — ``stc_rawg_vs_ug.png``: RawG vs UG (Sakai's Eq. 2) per item;
* :func:`subsets_figure` — ``stc_assessors_n.png``;
* :func:`agreement_figure` — ``stc_agreement.png``;
* :func:`controls_figure` — ``stc_controls.png``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["spread_comparison", "gain_scatter", "subsets_figure", "agreement_figure",
           "controls_figure"]


def spread_comparison(spread: pd.DataFrame):
    """Share of items per spread D: real ratings vs Sakai's uniform simulation."""
    import matplotlib.pyplot as plt

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
    import matplotlib.pyplot as plt
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


def subsets_figure(summary: pd.DataFrame):
    """Tau, discrepancies and unanimity against N (runs simulated: said on the figure)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    for m, part in summary.groupby("measure"):
        axes[0].errorbar(part["N"], part["tau"], marker="o", ms=4, capsize=3, label=m,
                         yerr=[part["tau"] - part["tau_min"], part["tau_max"] - part["tau"]])
        axes[1].plot(part["N"], part["discrepancies"], marker="o", ms=4, label=m)
    share = summary.groupby("N")[["share_D_below_dmax", "uniform_share_D_below_dmax"]].first()
    axes[2].plot(share.index, share.iloc[:, 0], marker="o", ms=4, color="k", label="real raters")
    axes[2].plot(share.index, share.iloc[:, 1], marker="o", ms=4, color="k", ls=":",
                 label="uniform (Sakai's simulation)")
    axes[0].set(xlabel="assessors per item N (drawn from the ten real ones)",
                ylabel="Kendall tau, RawG vs UG (p = 0.2)")
    axes[1].set(xlabel="assessors per item N", ylabel="HSD discrepancies (mean over subsets)")
    axes[2].set(xlabel="assessors per item N", ylabel="relevant items with D < Dmax", ylim=(0, 1))
    axes[0].legend(fontsize=8)
    axes[2].legend(fontsize=8)
    subsets = int(summary.loc[summary["N"] < summary["N"].max(), "subsets"].max())
    fig.suptitle(f"NTCIR-12 STC-ja: real ratings, N of 10 assessors per item ({subsets} seeded "
                 "subsets per N); runs are simulated (the real runs are not public)", fontsize=9)
    fig.tight_layout()
    return fig


def agreement_figure(worlds: pd.DataFrame, summary: pd.DataFrame):
    """Tau and RawG-significant pairs against the rating noise, with real and uniform marked."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for k, (m, part) in enumerate(worlds.groupby("measure")):
        colour = f"C{k}"
        axes[0].plot(part["sigma"], part["tau"], marker="o", ms=4, color=colour, label=m)
        axes[1].plot(part["sigma"], part["significant_RawG"], marker="o", ms=4, color=colour, label=m)
        for ax, col in ((axes[0], "tau"), (axes[1], "significant_RawG")):
            real = summary[(summary.measure == m) & (summary.ratings == "real")][col]
            uni = summary[(summary.measure == m) & (summary.ratings == "uniform")][col]
            ax.axhline(real.iloc[0], color=colour, ls="-", lw=0.6, alpha=0.6)
            ax.axhline(uni.iloc[0], color=colour, ls=":", lw=0.9)
    axes[0].set(xscale="log", xlabel="rating noise sigma around the item's real mean",
                ylabel="Kendall tau, RawG vs UG")
    axes[1].set(xscale="log", xlabel="rating noise sigma",
                ylabel="best-run pairs significant under RawG")
    axes[0].legend(fontsize=8, title="thin: real; dotted: uniform", title_fontsize=7)
    fig.suptitle("Real STC-ja pool: ratings around each item's real mean with noise sigma "
                 "(runs simulated)", fontsize=9)
    fig.tight_layout()
    return fig


def controls_figure(summary: pd.DataFrame, stc: pd.DataFrame):
    """Left: tau with RawG fixed against the share of unanimous items; right: tau by world."""
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [1.3, 1]})
    fixed = summary[summary["world"] == "fixed RawG"]
    worlds = ["real\n(agreement real,\nsignal real)", "shuffled\n(agreement real,\nsignal cut)",
              "uniform\n(no agreement,\nsignal cut)"]
    for k, (m, part) in enumerate(fixed.groupby("measure")):
        c = f"C{k}"
        a.plot(part["share_D_below_dmax"], part["tau"], marker="o", ms=4, color=c, label=m)
        real = stc[(stc.measure == m) & (stc.ratings == "real")].iloc[0]
        shuffled = summary[(summary.world == "shuffled") & (summary.measure == m)].iloc[0]
        uniform = stc[(stc.measure == m) & (stc.ratings == "uniform")].iloc[0]
        a.scatter([shuffled.share_D_below_dmax], [real.tau], marker="*", s=90, color=c, zorder=3)
        b.plot(worlds, [real.tau, shuffled.tau, uniform.tau], marker="o", color=c, label=m)
    a.set(xlabel="share of relevant items with D < Dmax (RawG fixed to the real one)",
          ylabel="Kendall tau, RawG vs UG (p = 0.2)")
    a.legend(fontsize=8, title="star: real ratings", title_fontsize=7, loc="lower right")
    b.set(ylabel="Kendall tau, RawG vs UG")
    b.tick_params(axis="x", labelsize=7)
    fig.suptitle("Real STC-ja pool, runs simulated: unanimity varied with RawG fixed (left); "
                 "real agreement with the item signal cut (shuffled, right)", fontsize=9)
    fig.tight_layout()
    return fig
