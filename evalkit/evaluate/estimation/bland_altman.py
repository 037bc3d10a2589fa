"""``bland_altman.png`` (``evalkit estimate --bias --out DIR``): each run's Bland-Altman plot.

One panel per run (and the first measure): every topic both judges judged
as a point at (mean of the two judges' scores, proxy minus reference), the
run's mean shift as a solid line and its limits of agreement
(``shift +- 1.96 sd``, Bland & Altman 1986) as dashed lines; the median
shift over the runs as a dotted line, so a run the proxy favours beyond the
others stands out.  Needs matplotlib (the ``workspace`` extra).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["bland_altman_figure"]


def bland_altman_figure(per_topic, bias, alpha: float = 0.05):
    """The figure from ``per_topic`` (``run, measure, topic, reference, proxy``) and the bias
    table of :func:`~evalkit.evaluate.estimation.bias.bias_table`."""
    from matplotlib.figure import Figure

    measure = bias["measure"].iloc[0]
    part = per_topic[(per_topic["measure"] == measure) & per_topic["reference"].notna()]
    rows = bias[bias["measure"] == measure].set_index("run")
    runs = list(rows.index)
    cols = min(4, len(runs))
    lines = math.ceil(len(runs) / cols)
    fig = Figure(figsize=(2.6 * cols + 0.6, 2.2 * lines + 0.9))
    axes = np.atleast_1d(fig.subplots(lines, cols, sharex=True, sharey=True, squeeze=False)).ravel()
    median = float(rows["shift"].median())
    d = part["proxy"] - part["reference"]
    lo = min(float(d.min()), float(rows["loa_low"].min()))
    hi = max(float(d.max()), float(rows["loa_high"].max()))
    pad = 0.08 * max(hi - lo, 0.05)
    for ax, run in zip(axes, runs):
        mine = part[part["run"] == run]
        ax.plot((mine["proxy"] + mine["reference"]) / 2, mine["proxy"] - mine["reference"], "o",
                ms=2.5, color="C0", alpha=0.7)
        row = rows.loc[run]
        flagged = row["p_holm"] < alpha
        ax.axhline(row["shift"], color="C3" if flagged else "C1", lw=1.2)
        for limit in (row["loa_low"], row["loa_high"]):
            ax.axhline(limit, color="0.45", lw=0.8, ls="--")
        ax.axhline(median, color="0.2", lw=0.8, ls=":")
        ax.set_ylim(lo - pad, hi + pad)
        ax.set_title(f"{run}" + (" (favoured)" if flagged and row["relative_shift"] > 0 else
                                 " (disfavoured)" if flagged else ""), fontsize=8)
        ax.tick_params(labelsize=7)
        ax.set_xlabel("mean of the two judges", fontsize=7)
        ax.set_ylabel("proxy - reference", fontsize=7)
    for ax in axes[len(runs):]:
        ax.set_axis_off()
    fig.suptitle(f"{measure}: proxy minus reference per topic; solid: the run's shift (red where "
                 f"Holm's p < {alpha:g} against the others), dashed: limits of agreement, dotted: "
                 "the median shift", fontsize=8, wrap=True)
    fig.tight_layout()
    return fig
