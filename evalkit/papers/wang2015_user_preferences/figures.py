"""Wang et al. (SIGIR 2015) §5: the figures of ``wang2015_user_preferences.ipynb``.

Figures 7–9 (kappa bars per metric, per assessor, by time spent) and the
precision ANOVA over simulated studies (matplotlib; no I/O here).  Show and
save them with :func:`evalkit.outputs.show_figure`, which strips dates so the
same data gives the same bytes.

Conventions of every kappa panel: each bin has a fixed position (a bin
without a defined kappa leaves its place empty); the error bar is the 95%
large-sample interval of Fleiss, Cohen & Everitt (1969), clipped to kappa's
range [-1, 1], with a triangle marking a clipped end; a kappa of exactly 0 is
a dash (the paper's convention in Figure 9); "neither|preferences" counts sit
above the bars.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg", force=False)  # figures go to files
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ...declare.claims import share_interval  # noqa: E402
from .study import paper_anova_p  # noqa: E402
from .worlds import summarise_anova_worlds  # noqa: E402

__all__ = ["kappa_bars", "kappa_by_metric", "kappa_by_time", "kappa_small_multiples",
           "anova_worlds_figure", "BAR", "KAPPA_LABEL", "COUNT_FONT"]

#: Okabe–Ito colours (colour-blind safe): bars, committed study, paper.
BAR, ACCENT, PAPER = "#0072B2", "#D55E00", "#009E73"
#: The y label of every kappa panel.
KAPPA_LABEL = "Cohen's kappa (95% CI)"
#: Font size (points) of the "neither|preferences" counts: 8 pt is about 13 px at 120 dpi.
COUNT_FONT = 8
_LIMITS = (-1.08, 1.32)


def kappa_bars(agg: pd.DataFrame, x, width: float = 0.8, ax=None, counts: bool = True,
               fontsize: float = COUNT_FONT, few: int = 0):
    """Bars of kappa at positions ``x`` (one per row of ``agg``), 95% CI clipped to [-1, 1].

    Rows with an undefined kappa (NaN) draw no bar (their counts still show);
    a kappa of exactly 0 is drawn as a dash; a clipped interval end carries a
    triangle.  ``counts`` writes "neither|preferences" above each position.
    Bars resting on fewer than ``few`` preferences are pale and hatched, so a
    bin of 2 judgments does not look like a bin of 277.
    """
    ax = ax or plt.gca()
    x = np.asarray(x, float)
    k = agg["kappa"].to_numpy(float)
    lo, hi = agg["low"].to_numpy(float), agg["high"].to_numpy(float)
    ok = np.isfinite(k)
    thin = ok & (agg["preferences"].to_numpy() < few) if few else np.zeros(len(k), bool)
    ax.bar(x[ok & ~thin], k[ok & ~thin], width=width, color=BAR)
    if thin.any():
        ax.bar(x[thin], k[thin], width=width, color="white", edgecolor=BAR, hatch="///", lw=0.8)
    clo, chi = np.clip(lo, -1, 1), np.clip(hi, -1, 1)
    ax.errorbar(x[ok], k[ok], yerr=[(k - clo)[ok], (chi - k)[ok]], fmt="none", ecolor="black",
                capsize=2, lw=0.8)
    for end, cut, marker in ((hi, 1, "^"), (lo, -1, "v")):
        mark = ok & (np.abs(end) > 1) & (np.sign(end) == cut)
        ax.plot(x[mark], np.full(mark.sum(), cut), marker, color="black", ms=4, ls="none")
    zero = ok & (k == 0)
    ax.plot(x[zero], k[zero], "_", color="black", ms=10, mew=2, ls="none")
    ax.axhline(0, color="grey", lw=0.6)
    ax.set_ylim(*_LIMITS)
    ax.set_yticks([-1, -0.5, 0, 0.5, 1])
    if counts:
        for xi, n, p in zip(x, agg["neither"], agg["preferences"]):
            ax.text(xi, 1.04, f"{n}|{p}", ha="center", va="bottom", fontsize=fontsize)
    return ax


def _at_bins(agg: pd.DataFrame, bins) -> tuple[pd.DataFrame, np.ndarray]:
    """``agg``'s rows and their fixed positions among ``bins``."""
    pos = {str(b): i for i, b in enumerate(bins)}
    rows = agg[agg["bin"].astype(str).isin(pos)]
    return rows, rows["bin"].astype(str).map(pos).to_numpy()


def _few_legend(fig, few: int, bottom: float) -> None:
    """The legend of :func:`kappa_bars`' two kinds of bar (solid on >= ``few`` preferences, pale and
    hatched on fewer), below the panels; the figure keeps ``bottom`` of its height for it."""
    from matplotlib.patches import Patch

    fig.legend([Patch(color=BAR), Patch(facecolor="white", edgecolor=BAR, hatch="///")],
               [f"kappa on >= {few} preferences", f"kappa on fewer than {few} preferences (below the "
                "claims' threshold; wide interval)"], loc="lower center", ncol=2, fontsize=8, frameon=False,
               bbox_to_anchor=(0.5, 0.0))


def kappa_by_metric(agg: pd.DataFrame, metrics, bins, few: int = 0):
    """Figure 7: one panel per metric, the bins of metric difference at fixed positions; bars on
    fewer than ``few`` preferences pale and hatched (:func:`kappa_bars`), with a legend."""
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.4 * len(metrics), 3.6), sharey=True)
    for ax, m in zip(np.atleast_1d(axes), metrics):
        rows, x = _at_bins(agg[agg.metric == m], bins)
        kappa_bars(rows, x, ax=ax, few=few)
        ax.set_xticks(range(len(bins)), [str(b) for b in bins], rotation=45, fontsize=7)
        ax.set_xlim(-0.6, len(bins) - 0.4)
        ax.set_title(m.replace("_", " "), fontsize=9)
        ax.set_xlabel(f"|{m.replace('_', ' ')} difference|", fontsize=8)
    np.atleast_1d(axes)[0].set_ylabel(KAPPA_LABEL)
    if few:
        _few_legend(fig, few, 0.08)
        fig.tight_layout(rect=(0, 0.08, 1, 1))
    else:
        fig.tight_layout()
    return fig


def kappa_by_time(by_time: pd.DataFrame, panels, bin_seconds: int, few: int = 0):
    """Figure 9: one row per panel ``(title, metric)``, kappa per time bin on a time axis (s).

    Each bin prints "neither|preferences" above it; bars on fewer than ``few`` preferences are
    pale and hatched (:func:`kappa_bars`, as in Figure 7), with a legend.

    Bars sit at the centres of their ``bin_seconds`` bins; a last bin labelled
    ``[cap,longest]`` (:func:`.study.time_bins`) pools the slow judgments and is drawn one
    bin wide after ``cap``, its tick labelled ">= cap"; time bins without judgments are
    blank space; every row shares the time axis, which ends with the last bin.
    """
    bounds = by_time["time_bin"].astype(str).str.extract(r"\[(\d+),(\d+)")
    starts, ends = bounds[0].astype(float), bounds[1].astype(float)
    pooled = (ends - starts) > bin_seconds
    top = float(starts.max()) + bin_seconds
    fig, axes = plt.subplots(len(panels), 1, figsize=(9.5, 1.9 * len(panels) + 0.6), sharex=True)
    for ax, (title, m) in zip(np.atleast_1d(axes), panels):
        sel = (by_time.metric == m).to_numpy()
        kappa_bars(by_time[sel], starts[sel].to_numpy() + bin_seconds / 2, width=0.8 * bin_seconds,
                   ax=ax, few=few)
        ax.set_ylabel("kappa", fontsize=8)
        ax.set_title(title, fontsize=8, loc="left")
    last = np.atleast_1d(axes)[-1]
    last.set_xlim(0, top)
    ticks = np.arange(0, top + 1, 2 * bin_seconds)
    labels = [f"{t:g}" for t in ticks]
    if pooled.any():
        cap = float(starts[pooled].max())
        ticks, labels = list(ticks[ticks < cap]) + [cap], labels[:int((ticks < cap).sum())] + [f">= {cap:g}"]
    last.set_xticks(ticks, labels)
    last.set_xlabel(f"time spent on the comparison (s), {bin_seconds} s bins"
                    + (f"; the last bin pools every judgment from {cap:g} s on" if pooled.any() else ""))
    if few:
        bottom = 0.45 / fig.get_size_inches()[1]
        _few_legend(fig, few, bottom)
        fig.tight_layout(rect=(0, bottom, 1, 1))
    else:
        fig.tight_layout()
    return fig


def kappa_small_multiples(agg: pd.DataFrame, metrics, assessors, bins, few: int = 0):
    """Figure 8: rows = metrics, columns = assessors, the bins at Figure 7's fixed positions.

    Each bin prints its number of preferences above it (small); bars on fewer than ``few``
    preferences are pale and hatched (:func:`kappa_bars`, as in Figure 7), with a legend."""
    fig, axes = plt.subplots(len(metrics), len(assessors), figsize=(2.0 * len(assessors),
                             1.7 * len(metrics) + 0.4), sharey=True, sharex=True, squeeze=False)
    for i, m in enumerate(metrics):
        for j, a in enumerate(assessors):
            ax = axes[i][j]
            rows, x = _at_bins(agg[(agg.metric == m) & (agg.assessor == a)], bins)
            kappa_bars(rows, x, ax=ax, counts=False, few=few)
            for xi, n in zip(x, rows["preferences"]):
                ax.text(xi, 1.04, f"{n}", ha="center", va="bottom", fontsize=4.5)
            ax.set_xlim(-0.6, len(bins) - 0.4)
            ax.tick_params(labelsize=6)
            if i == 0:
                ax.set_title(a, fontsize=8)
            if j == 0:
                ax.set_ylabel(f"{m.replace('_', ' ')}\nkappa", fontsize=7)
            if i == len(metrics) - 1:
                ax.set_xticks(range(len(bins)), [str(b) for b in bins], rotation=90, fontsize=6)
                ax.set_xlabel("|difference|", fontsize=7)
    # a fixed grid (margins in inches): tight_layout's search over 25 panels is the slow part
    w, h = fig.get_size_inches()
    legend = 0.35 if few else 0.0
    if few:
        fig.set_size_inches(w, h + legend)
        w, h = fig.get_size_inches()
        _few_legend(fig, few, legend / h)
    fig.subplots_adjust(left=0.75 / w, right=1 - 0.1 / w, bottom=(0.75 + legend) / h, top=1 - 0.35 / h,
                        wspace=0.12, hspace=0.3)
    return fig


def anova_worlds_figure(studies: pd.DataFrame, committed_p: float | None = None):
    """p of the precision ANOVA per simulated study against ``insensitive_share``."""
    if "metric" in studies:
        studies = studies[studies.metric == "precision"]
    summary = summarise_anova_worlds(studies)
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.8))
    rng = np.random.default_rng(0)
    x = studies["insensitive_share"] + rng.uniform(-0.02, 0.02, len(studies))
    a.scatter(x, studies["p"], s=12, color="0.4", label="one simulated study")
    a.axhline(0.05, ls="--", color="k", lw=0.8,
              label=f"p = 0.05 (the paper's p = {paper_anova_p():.4f} lies just below)")
    if committed_p is not None:
        a.scatter([0], [committed_p], marker="*", s=120, color=ACCENT, zorder=5,
                  label=f"committed study p = {committed_p:.3f}")
    share_label = "share of its precision sensitivity A4 keeps (0 = the default user model)"
    a.set(yscale="log", xlabel=share_label, ylabel="p, precision ANOVA across bins")
    a.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    k = (summary["significant_share"] * summary["studies"]).round().astype(int)
    wilson = np.array([share_interval(int(h), int(r)) for h, r in zip(k, summary["studies"])])
    share = summary["significant_share"].to_numpy()
    yerr = np.maximum([share - wilson[:, 0], wilson[:, 1] - share], 0)   # Wilson ends: rounding
    b.errorbar(summary["insensitive_share"], share, yerr=yerr,
               marker="o", color=BAR, capsize=3)
    b.set(xlabel=share_label, ylabel="share of studies with p < 0.05 (95% CI)",
          ylim=(-0.02, 1.02))
    for ax in (a, b):   # shares lie in [0, 1]: the same ticks however many were run
        ax.set_xlim(-0.08, 1.08)
        ax.set_xticks(np.linspace(0, 1, 5))
    fig.suptitle(f"Simulated user studies ({int(summary.studies.min())} per share; the paper's sampling "
                 "procedure on the simulated runs, its batches short of recall pairs): only the insensitive "
                 "assessor's precision sensitivity varies", fontsize=9)
    fig.tight_layout()
    return fig
