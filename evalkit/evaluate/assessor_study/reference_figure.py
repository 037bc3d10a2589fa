"""The figures of ``evalkit assessors --reference NAME``: many judges against one, and all pairs.

:func:`reference_chart` replaces the bump chart when there are more than
:data:`MANY_JUDGES` assessors (with 34 judges the bump chart has 75 columns
and cannot be read): one line per judge, the rank it gives each run
against the run's rank under the reference, the reference itself the
diagonal; the ``k`` judges closest to the reference and the ``k`` farthest
(by Kendall's tau in ``reference.csv``, among the judges without the
reference's labels) in colour, every other judge grey.
:func:`judge_correlation_chart` is the heat map of Kendall's tau between
every two judges' leaderboards (``judge_correlation.csv``), the reference
first.  Both need matplotlib (``docs/assessors.md``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["MANY_JUDGES", "HIGHLIGHT", "highlighted", "reference_chart", "judge_correlation_chart"]

#: Above this many assessors, ``assessors.png`` is :func:`reference_chart`, not the bump chart.
MANY_JUDGES = 8
#: How many of the closest and of the farthest judges :func:`reference_chart` colours.
HIGHLIGHT = 3


def highlighted(report, measure: str, k: int = HIGHLIGHT) -> tuple[list[str], list[str]]:
    """The ``k`` judges closest to the reference and the ``k`` farthest on ``measure`` (by
    Kendall's tau, among the judges without the reference's labels), closest first; fewer than
    ``2 k`` such judges are split between the two."""
    rc = report.reference_agreement
    tau = rc[(rc["measure"] == measure) & (rc["statistic"] == "kendall_tau")
             & ~rc["includes_reference"]].dropna(subset=["value"])
    ranked = list(tau.sort_values("value", ascending=False, kind="stable")["judge"])
    best = ranked[:min(k, (len(ranked) + 1) // 2)]
    worst = [j for j in ranked[::-1][:k] if j not in best][::-1]
    return best, worst


def _legend_label(report, judge: str, measure: str) -> str:
    rc = report.reference_agreement
    row = rc[(rc["judge"] == judge) & (rc["measure"] == measure)
             & (rc["statistic"] == "kendall_tau")].iloc[0]
    interval = ("" if np.isnan(row["ci_low"])
                else f" [{row['ci_low']:.2f}, {row['ci_high']:.2f}]")
    return f"{judge}: tau {row['value']:.2f}{interval}"


def reference_chart(report, k: int = HIGHLIGHT):
    """Each judge's rank of every run (y) against the run's rank under the reference (x).

    One panel per measure; ranks from ``leaderboards.csv`` (1 = best, ties
    share the best rank).  Black: the reference (the diagonal); blues: the
    ``k`` judges closest to it; reds: the ``k`` farthest; grey: the rest.
    The legend gives each coloured judge's Kendall tau and its interval.
    """
    from matplotlib import colormaps
    from matplotlib.figure import Figure

    board = report.leaderboards
    ref = f"assessor:{report.reference}"
    measures = list(dict.fromkeys(board["measure"]))
    runs = list(dict.fromkeys(board["run"]))
    judges = list(dict.fromkeys(report.reference_agreement["judge"]))
    n = len(runs)
    panel = max(3.5, min(8.0, 0.12 * n + 2.5))
    fig = Figure(figsize=(13.0, panel * len(measures) + 1.2))
    fig.subplots_adjust(left=0.07, right=0.66, top=1 - 0.8 / fig.get_figheight(),
                        bottom=1.0 / fig.get_figheight(), hspace=0.45)
    axes = fig.subplots(len(measures), 1, squeeze=False)[:, 0]
    for ax, measure in zip(axes, measures):
        ranks = (board[board["measure"] == measure]
                 .pivot(index="run", columns="judge", values="rank").loc[runs]
                 .astype("float64"))
        x_of = ranks[ref].to_numpy()
        order = np.argsort(x_of, kind="stable")
        x = np.arange(1, n + 1)
        best, worst = highlighted(report, measure, k)
        grey = [j for j in judges if j not in best + worst]
        for judge in grey:
            ax.plot(x, ranks[judge].to_numpy()[order], color="0.75", lw=0.8, alpha=0.6, zorder=1)
        if grey:
            ax.plot([], [], color="0.75", lw=0.8, label=f"the other {len(grey)} judges")
        for group, cmap in ((best, "Blues"), (worst, "Reds")):
            shades = colormaps[cmap](np.linspace(0.9, 0.5, max(len(group), 1)))
            for judge, colour in zip(group, shades if cmap == "Blues" else shades[::-1]):
                ax.plot(x, ranks[judge].to_numpy()[order], color=colour, lw=1.8, marker="o",
                        ms=3, zorder=3, label=_legend_label(report, judge, measure))
        ax.plot(x, x_of[order], color="black", lw=2.2, ls="--", zorder=4,
                label=f"{ref} (reference)")
        ax.set_xlim(0.5, n + 0.5)
        ax.set_ylim(n + 0.5, 0.5)
        if n <= 40:
            ax.set_xticks(x, [runs[i] for i in order], rotation=90, fontsize=7)
        ax.set_xlabel(f"run, in {ref}'s order (its rank 1 = best, left)")
        ax.set_ylabel(f"{measure}: rank under the judge\n(1 = best)")
        ax.yaxis.get_major_locator().set_params(integer=True)
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, frameon=False,
                  title=f"closest (blue) and farthest (red) by Kendall tau, {measure}",
                  title_fontsize=8)
    fig.suptitle(f"Run ranks under {len(judges)} judges against {report.reference}'s: the "
                 f"{k} closest and {k} farthest in colour", fontsize=10)
    return fig


def _order(report) -> list[str]:
    """The reference, then the judges by their mean Kendall tau to it over the measures."""
    rc = report.reference_agreement
    tau = (rc[rc["statistic"] == "kendall_tau"].groupby("judge", sort=False)["value"].mean()
           .sort_values(ascending=False, kind="stable", na_position="last"))
    return [f"assessor:{report.reference}", *tau.index]


def judge_correlation_chart(report):
    """Heat map of Kendall's tau-b between every two judges' leaderboards, one panel per measure.

    Rows and columns: the reference first (outlined), then the judges by
    their mean tau to it; a diverging scale from -1 (reversed) to 1 (the
    same order); cells are annotated when there are at most 15 judges.
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    corr = report.judge_correlation
    judges = _order(report)
    measures = list(dict.fromkeys(corr["measure"]))
    n = len(judges)
    # fixed margins in inches: the judges' names below and left of every panel, titles above
    side = max(3.5, 0.2 * n)
    names = 0.065 * max(len(j) for j in judges) + 0.2
    top, gap, bar = 1.0, 0.45 + names + 0.35, 1.4
    width = max(7.0, names + 0.4 + side + bar)
    height = top + len(measures) * (side + gap)
    fig = Figure(figsize=(width, height))
    axes = fig.subplots(len(measures), 1, squeeze=False)[:, 0]
    fig.subplots_adjust(left=(names + 0.4) / width, right=1 - bar / width, hspace=gap / side,
                        top=1 - top / height, bottom=(gap - 0.45) / height)
    for ax, measure in zip(axes, measures):
        m = (corr[corr["measure"] == measure].pivot(index="judge_a", columns="judge_b",
                                                    values="kendall_tau")
             .reindex(index=judges, columns=judges).to_numpy(dtype=float))
        image = ax.imshow(np.ma.masked_invalid(m), cmap="RdBu", vmin=-1, vmax=1)
        ax.set_xticks(np.arange(n), judges, rotation=90, fontsize=7)
        ax.set_yticks(np.arange(n), judges, fontsize=7)
        ax.set_xlabel("judge")
        ax.set_ylabel("judge")
        ax.set_title(f"{measure}: Kendall's tau-b between the judges' leaderboards", fontsize=9)
        ax.add_patch(Rectangle((-0.5, -0.5), n, 1, fill=False, lw=1.5, ec="black"))
        if n <= 15:
            for i in range(n):
                for j in range(n):
                    if np.isfinite(m[i, j]):
                        ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize=6,
                                color="white" if abs(m[i, j]) > 0.6 else "black")
        bar = fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02)
        bar.set_label("Kendall's tau-b (1: same order, -1: reversed)")
    fig.suptitle(f"Rank correlation of every two judges' leaderboards\nfirst row (outlined) and "
                 f"column: {report.reference}, the reference", fontsize=10)
    return fig

