"""Figures shared by the notebooks (seaborn/matplotlib; no I/O here).

Save them with :func:`evalkit.workspace.outputs.save_figure`, which strips dates so the same
data gives the same bytes.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg", force=False)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

__all__ = ["tau_grid", "replication_distributions"]


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
