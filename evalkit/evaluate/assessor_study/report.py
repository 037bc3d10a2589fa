"""The files ``evalkit assessors`` writes: CSV tables and a bump chart, all or nothing.

:func:`write_assessor_report` writes every file into a temporary folder beside
``DIR`` and moves them in only when all are written, so a failure leaves
``DIR`` untouched.  :func:`bump_chart` draws each run's rank under every
judge (``docs/assessors.md``); it needs matplotlib, part of the ``workspace``
extra: without it the tables are written alone and the command says so.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

from .study import MEAN_JUDGE, REFERENCE, AssessorReport

__all__ = ["TABLES", "RELIABILITY", "FIGURES", "REFERENCE_TABLES", "REFERENCE_FIGURES",
           "bump_chart", "can_draw", "write_assessor_report"]

#: CSV files and the report attribute each holds.
TABLES = {"leaderboards.csv": "leaderboards", "rank_correlation.csv": "rank_correlation",
          "agreement.csv": "agreement", "verdict_stability.csv": "verdict_stability"}
#: Each assessor's Dawid-Skene confusion matrix (``evalkit assessors`` writes it too).
RELIABILITY = {"reliability.csv": "reliability"}
#: The figure, in both formats.
FIGURES = ("assessors.png", "assessors.svg")
#: With a reference judge (``--reference``): the comparisons with it and between all judges.
REFERENCE_TABLES = {"reference.csv": "reference_agreement",
                    "significance_agreement.csv": "significance_agreement",
                    "judge_correlation.csv": "judge_correlation"}
#: With a reference judge: the heat map of rank correlations between all judges.
REFERENCE_FIGURES = ("judge_correlation.png", "judge_correlation.svg")


def _side_by_side(ranks: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x positions ``(runs, judges)`` with runs tied at one rank under a judge spread side by
    side around the judge's column, and whether each point is tied."""
    pos = np.broadcast_to(x, ranks.shape).copy()
    tied = np.zeros(ranks.shape, dtype=bool)
    for j in range(ranks.shape[1]):
        col = ranks[:, j]
        for value in np.unique(col[np.isfinite(col)]):
            who = np.flatnonzero(col == value)
            if len(who) > 1:
                width = min(0.5 / len(who), 0.14)
                pos[who, j] += (np.arange(len(who)) - (len(who) - 1) / 2) * width
                tied[who, j] = True
    return pos, tied


def _end_labels(runs, ranks: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """One tick per rank held, naming every run there (ties joined by ' = ')."""
    known = np.isfinite(ranks)
    values = np.unique(ranks[known])
    names = [" = ".join(r for r, k in zip(runs, ranks) if k == v) + f"  {int(v)}" for v in values]
    return values, names


def bump_chart(report: AssessorReport):
    """Runs' ranks (1 = best) under every judge, one panel per measure, alpha in the title.

    Each line is a run, named on the left at its ``all:raw`` rank and on the
    right at its rank under the last judge (tied runs joined by ``=``);
    runs tied at one rank under a judge are drawn side by side around the
    judge's column, with open circles.  Up to 20 runs get qualitative
    colours (tab10 / tab20), more are coloured by their ``all:raw`` rank.
    Judges run left to right in report order (pooled judges and
    ``assessor-mean``, then each assessor alone, then leave-one-out), the
    groups separated by dotted lines.  With a reference judge
    (``report.reference``) its column is shaded and its name in bold.
    """
    from matplotlib import colormaps
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure

    board = report.leaderboards
    measures = list(dict.fromkeys(board["measure"]))
    judges = report.judges
    runs = list(dict.fromkeys(board["run"]))
    n_runs = len(runs)
    # fixed margins in inches (constrained layout took seconds on 44 runs x 26 judges)
    longest = max(len(name) for name in runs)
    side = min(4.5, 1.0 + 0.07 * longest * (2 if n_runs > 4 else 1))
    panel, left, right, top, bottom, gap = 1.6 + 0.12 * n_runs, side + 0.6, side + 0.4, 0.9, 1.3, 0.35
    width = max(8.0, 0.38 * len(judges) + left + right)
    height = panel * len(measures) + gap * (len(measures) - 1) + top + bottom
    fig = Figure(figsize=(width, height))
    fig.subplots_adjust(left=left / width, right=1 - right / width, top=1 - top / height,
                        bottom=bottom / height, hspace=gap / panel)
    axes = fig.subplots(len(measures), 1, squeeze=False, sharex=True)[:, 0]
    pooled = judges.index(MEAN_JUDGE) + 1
    per_assessor = pooled + len(report.assessors)
    x = np.arange(len(judges), dtype=float)
    size = max(4.5, min(8.0, 260 / max(n_runs, 1)))
    for ax, measure in zip(axes, measures):
        frame = board[board["measure"] == measure]
        ranks = (frame.pivot(index="run", columns="judge", values="rank").loc[runs, judges]
                 .astype("float64").to_numpy())                        # (runs, judges), NaN: none
        reference = ranks[:, judges.index(REFERENCE)]
        if n_runs <= 20:
            colours = colormaps["tab10" if n_runs <= 10 else "tab20"](np.arange(n_runs))
        else:
            shade = np.where(np.isnan(reference), 0.0, (reference - 1) / max(n_runs - 1, 1))
            colours = colormaps["viridis"](shade)
        pos, tied = _side_by_side(ranks, x)
        ax.add_collection(LineCollection([np.column_stack([p, r]) for p, r in zip(pos, ranks)],
                                         colors=colours, linewidths=1.1, alpha=0.85))
        if tied.any():
            ax.scatter(pos[tied], ranks[tied], s=14, facecolors="white",
                       edgecolors=np.repeat(colours[:, None, :], len(judges), axis=1)[tied],
                       linewidths=0.9, zorder=3)
        for edge in (pooled - 0.5, per_assessor - 0.5):
            ax.axvline(edge, color="0.6", lw=0.8, ls=":")
        ax.set_yticks(*_end_labels(runs, reference), fontsize=size)
        ax.set_ylim(n_runs + 0.5, 0.5)
        ax.set_ylabel(f"{measure}: rank (1 = best);\nruns named at their {REFERENCE} rank")
        ax.set_xlim(-0.5, len(judges) - 0.5)
        right_axis = ax.twinx()
        right_axis.tick_params(axis="x", which="both", bottom=False, labelbottom=False,
                               top=False, labeltop=False)
        right_axis.set_ylim(n_runs + 0.5, 0.5)
        right_axis.set_yticks(*_end_labels(runs, ranks[:, -1]), fontsize=size)
        right_axis.set_ylabel(f"rank under {judges[-1]}", fontsize=8)
    for x, label in ((pooled - 1) / 2, "pooled"), ((pooled + per_assessor - 1) / 2, "one assessor"), \
            ((per_assessor + len(judges) - 1) / 2, "one left out"):
        axes[0].annotate(label, (x, 1.0), xycoords=("data", "axes fraction"), xytext=(0, 3),
                         textcoords="offset points", ha="center", va="bottom", fontsize=8)
    if report.reference is not None:
        at = judges.index(f"assessor:{report.reference}")
        for ax in axes:
            ax.axvspan(at - 0.45, at + 0.45, color="gold", alpha=0.3, lw=0, zorder=0)
    axes[-1].set_xticks(np.arange(len(judges)), judges, rotation=90, fontsize=7)
    if report.reference is not None:
        axes[-1].get_xticklabels()[at].set_fontweight("bold")
    axes[-1].set_xlabel("judge (open circles: runs tied at one rank, drawn side by side)"
                        + ("" if report.reference is None else
                           f"; shaded, in bold: assessor:{report.reference}, the reference"))
    a = report.agreement.set_index("statistic")["value"]
    n = len(report.assessors)                 # the title counts the columns drawn (issue 43)
    fig.suptitle(f"Run ranks under {len(judges)} judges made from {n} assessors; "
                 f"Krippendorff's alpha over the {n}: {a['alpha_ordinal']:.3f} (ordinal), "
                 f"{a['alpha_interval']:.3f} (interval)", fontsize=10)
    return fig


def can_draw() -> bool:
    """Whether matplotlib (the ``workspace`` extra) is installed, so the figure can be drawn."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


def write_assessor_report(report: AssessorReport, out_dir, figure: bool | None = None,
                 stem: str | None = None, reliability: bool = False) -> list[Path]:
    """Write :data:`TABLES` (full float precision) and :data:`FIGURES` into ``out_dir``.

    ``reliability``: :data:`RELIABILITY` too (``evalkit assessors`` writes it).
    With a reference judge (``report.reference``): :data:`REFERENCE_TABLES` and
    :data:`REFERENCE_FIGURES` too, and with more than
    :data:`~evalkit.evaluate.assessor_study.reference_figure.MANY_JUDGES` assessors
    the main figure is :func:`~evalkit.evaluate.assessor_study.reference_figure.reference_chart`.
    ``figure=None`` draws the figure when matplotlib is installed
    (:func:`can_draw`; a library-only install writes the tables alone).
    With ``stem`` (a notebook writing into a shared folder) the files are
    ``<stem>_leaderboards.csv`` ... and ``<stem>.png`` / ``.svg``.
    Everything is written to a temporary folder next to ``out_dir`` first and
    moved in at the end; on any error ``out_dir`` is left as it was.
    Returns the paths written.
    """
    figure = can_draw() if figure is None else figure

    def final(name: str) -> str:
        if stem is None:
            return name
        return f"{stem}{Path(name).suffix}" if name in FIGURES else f"{stem}_{name}"

    out = Path(out_dir)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        referenced = report.reference is not None
        tables = {**TABLES, **(RELIABILITY if reliability else {}),
                  **(REFERENCE_TABLES if referenced else {})}
        for name, attr in tables.items():
            getattr(report, attr).to_csv(tmp / name, index=False, lineterminator="\n")
        figures = list(FIGURES) + (list(REFERENCE_FIGURES) if referenced else [])
        if figure:
            import matplotlib

            from .reference_figure import MANY_JUDGES, judge_correlation_chart, reference_chart

            matplotlib.rcParams["svg.hashsalt"] = "evalkit"
            many = referenced and len(report.assessors) > MANY_JUDGES
            drawn = [(reference_chart if many else bump_chart)(report)]
            if referenced:
                drawn.append(judge_correlation_chart(report))
            for fig, (png, svg) in zip(drawn, zip(figures[::2], figures[1::2])):
                fig.savefig(tmp / png, dpi=100, metadata={"Software": None})
                fig.savefig(tmp / svg, metadata={"Date": None, "Creator": None})
        names = list(tables) + (figures if figure else [])
        out.mkdir(exist_ok=True)
        for name in names:
            os.replace(tmp / name, out / final(name))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [out / final(name) for name in names]
