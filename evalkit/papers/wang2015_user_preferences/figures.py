"""Wang et al. (SIGIR 2015) §5: the figures of ``wang2015_user_preferences.ipynb``.

Figures 7–9 (kappa bars per metric, per assessor, by time spent) and the
precision ANOVA over simulated studies (matplotlib; no I/O here).  Save them
with :func:`evalkit.outputs.save_figure`, which strips dates so the
same data gives the same bytes.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg", force=False)  # figures go to files
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .study import paper_anova_p  # noqa: E402
from .worlds import summarise_anova_worlds  # noqa: E402

__all__ = ["kappa_bars", "kappa_by_metric", "kappa_small_multiples", "anova_worlds_figure"]


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


def anova_worlds_figure(studies: pd.DataFrame, committed_p: float | None = None):
    """p of the precision ANOVA per simulated study against ``insensitive_share``."""
    summary = summarise_anova_worlds(studies)
    fig, (a, b) = plt.subplots(1, 2, figsize=(9.5, 3.6))
    rng = np.random.default_rng(0)
    x = studies["insensitive_share"] + rng.uniform(-0.02, 0.02, len(studies))
    a.scatter(x, studies["p"], s=12, color="0.4", label="one simulated study")
    a.axhline(0.05, ls="--", color="k", lw=0.8, label="p = 0.05")
    a.axhline(paper_anova_p(), color="tab:green", lw=0.8, label=f"paper p = {paper_anova_p():.4f}")
    if committed_p is not None:
        a.scatter([0], [committed_p], marker="*", s=120, color="tab:red", zorder=5,
                  label=f"committed study p = {committed_p:.3f}")
    a.set(yscale="log", xlabel="insensitive_share (A4's precision sensitivity kept; 0 = default)",
          ylabel="p, precision ANOVA across bins")
    a.legend(fontsize=7)
    b.plot(summary["insensitive_share"], summary["significant_share"], marker="o")
    b.set(xlabel="insensitive_share", ylabel="share of studies with p < 0.05", ylim=(-0.02, 1.02))
    fig.suptitle("Simulated user studies (the paper's design): only the insensitive assessor's "
                 "precision sensitivity varies", fontsize=9)
    fig.tight_layout()
    return fig
