"""``agreement.png``: every judge's agreement with the reference, and which judges the best one
cannot be told apart from (``docs/agreement.md``, "Outputs in DIR").

One row per judge, most agreeing on top: the ordering statistic's value with
its topic-bootstrap interval.  With the tests between judges, the judges
whose difference from the best is not significant (``p_holm >= alpha``) are
drawn in one colour, the best among them, and the judges significantly
below the best in another.  Checked by :func:`evalkit.figure_check.check`
like every figure; needs matplotlib (the ``workspace`` extra).
"""

from __future__ import annotations

import numpy as np

from .grid import POOLED_REFERENCE
from .pairs import indistinguishable_from

__all__ = ["agreement_figure", "can_draw"]


def can_draw() -> bool:
    """Whether matplotlib (the ``workspace`` extra) is installed, so the figure can be drawn."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


def _judges(n: int) -> str:
    return f"{n} judge" + ("" if n == 1 else "s")


def _against(board) -> str:
    ref = board["reference"].iloc[0] if len(board) else POOLED_REFERENCE
    return "the others pooled" if ref == POOLED_REFERENCE else ref


def agreement_figure(report):
    """The figure of an :class:`~evalkit.evaluate.judge_agreement.report.AgreementReport`."""
    from matplotlib.figure import Figure

    board = report.headline()
    n = len(board)
    fig = Figure(figsize=(7.5, 1.9 + 0.24 * max(n, 4)))
    ax = fig.subplots()
    y = np.arange(n)
    value = board["value"].to_numpy(float)
    low, high = board["ci_low"].to_numpy(float), board["ci_high"].to_numpy(float)
    has_ci = np.isfinite(low)
    err = np.vstack([value - low, high - value])
    groups = [(np.ones(n, bool), "C0", None)]
    pairs, alpha = report.pairs, report.settings.get("alpha", 0.05)
    if pairs is not None and n and np.isfinite(value[0]):
        same = set(indistinguishable_from(pairs, board["judge"].iloc[0], alpha)) | {board["judge"].iloc[0]}
        level = np.isin(board["judge"], list(same))
        test = "randomised Tukey HSD" if report.settings.get("test") == "hsd" else \
            "paired randomisation test, Holm"
        same, below = int(level.sum()) - 1, int((~level).sum())
        groups = [(level, "C0", f"the best and the {_judges(same)} not significantly below it "
                                f"({test}, alpha = {alpha:g})"),
                  (~level, "0.55", f"the {_judges(below)} significantly below the best")]
    for keep, colour, label in groups:
        with_ci, without = keep & has_ci, keep & ~has_ci
        ax.errorbar(value[with_ci], y[with_ci], xerr=err[:, with_ci], fmt="o", color=colour,
                    ecolor=colour, capsize=2, ms=4, label=label if with_ci.any() else None)
        ax.plot(value[without], y[without], "o", color=colour, ms=4,
                label=label if without.any() and not with_ci.any() else None)
    ax.set_yticks(y, board["judge"], fontsize=max(5.0, min(9.0, 300 / max(n, 1))))
    ax.set_ylim(n - 0.5, -0.5)
    finite = np.concatenate([value[np.isfinite(value)], low[has_ci], high[has_ci]])
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    pad = 0.05 * max(hi - lo, 0.1)
    ax.set_xlim(min(lo, 0.0) - pad, max(hi, 0.0) + pad)
    ax.axvline(0.0, color="0.7", lw=0.8, ls=":")
    against = _against(board)
    ax.set_xlabel(f"{report.statistic} against {against} (1 = perfect, 0 = chance)")
    ax.set_ylabel("judge")
    interval = "; 95% topic-bootstrap intervals" if has_ci.any() else ""
    ax.set_title(f"Agreement of {n} judges with {against}\n(most agreeing on top{interval})",
                 fontsize=9)
    if len(groups) > 1:                     # under the axes, off the data: one line a group
        height = fig.get_figheight()
        fig.legend(loc="lower center", ncol=1, fontsize=7, frameon=False)
        fig.tight_layout(rect=(0, (0.1 + 0.16 * len(ax.get_legend_handles_labels()[1])) / height,
                               1, 1))
    else:
        fig.tight_layout()
    return fig
