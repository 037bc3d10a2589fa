"""The files ``evalkit agreement`` writes, all or nothing, and the lines it prints.

:func:`agreement_report` computes every table of :mod:`evalkit.evaluate.judge_agreement.tables`;
:func:`write_agreement_report` writes them into a temporary folder beside
``DIR`` and moves them in only when all are written (a failure leaves ``DIR``
as it was): ``agreement.csv``, ``confusion.csv``, ``reliability.csv``,
``consensus.txt`` (Dawid-Skene's most likely grade per item, as qrels) and
``agreement.png`` (judges ordered by their agreement, with intervals; checked
by :func:`evalkit.figure_check.check` like every figure; needs matplotlib).
:func:`summary` gives the judge that agrees most and least and whether their
intervals overlap.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .tables import (POOLED_REFERENCE, _as_grid, _check_cuts, agreement_table, confusion_table,
                     dawid_skene_tables, statistic_names)

__all__ = ["AgreementReport", "agreement_report", "write_agreement_report", "agreement_figure",
           "summary", "can_draw", "FILES"]

#: The files written, in order.
FILES = ("agreement.csv", "confusion.csv", "reliability.csv", "consensus.txt", "agreement.png")


@dataclass
class AgreementReport:
    """The tables of ``evalkit agreement`` and the statistic that orders the judges."""

    agreement: pd.DataFrame
    confusion: pd.DataFrame
    reliability: pd.DataFrame
    consensus: pd.DataFrame
    statistic: str = "alpha_ordinal"
    settings: dict = field(default_factory=dict)

    def headline(self) -> pd.DataFrame:
        """``judge, value, ci_low, ci_high, items`` of :attr:`statistic`, most agreeing first
        (judges whose value is undefined last)."""
        rows = self.agreement[self.agreement["statistic"] == self.statistic]
        return (rows.sort_values("value", ascending=False, kind="stable", na_position="last")
                [["judge", "reference", "value", "ci_low", "ci_high", "items"]]
                .reset_index(drop=True))


def agreement_report(labels: pd.DataFrame, reference: str | None = None, cuts=None,
                     bootstrap: int = 1000, seed=0, statistic: str = "alpha_ordinal") -> AgreementReport:
    """Every table of ``evalkit agreement`` for ``labels`` (see :func:`agreement_table`)."""
    from ...errors import ParameterError

    grid = _as_grid(labels)                      # items and judges indexed once for every table
    names = statistic_names(_check_cuts(cuts, grid.lo, grid.hi))
    if statistic not in names:                   # checked before the bootstrap
        raise ParameterError("statistic", statistic, "one of " + ", ".join(names))
    if reference is not None:
        grid.index(reference)
    table = agreement_table(grid, reference, cuts, bootstrap, seed)
    reliability, best = dawid_skene_tables(grid)
    return AgreementReport(table, confusion_table(grid, reference), reliability, best, statistic,
                           {"reference": reference, "bootstrap": int(bootstrap), "seed": seed,
                            "grades": labels.attrs.get("grades"),
                            "ds_converged": reliability.attrs.get("converged")})


def can_draw() -> bool:
    """Whether matplotlib (the ``workspace`` extra) is installed, so the figure can be drawn."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


def _interval(row) -> str:
    if not np.isfinite(row.ci_low):
        return "no interval"
    return f"95% interval {row.ci_low:.3f} to {row.ci_high:.3f}"


def summary(report: AgreementReport) -> list[str]:
    """Lines a person reads: who agrees most and least with the reference, and whether the two
    intervals overlap."""
    board = report.headline()
    defined = board[np.isfinite(board["value"])]
    ref = board["reference"].iloc[0] if len(board) else POOLED_REFERENCE
    against = "the others pooled" if ref == POOLED_REFERENCE else ref
    if defined.empty:
        return [f"No judge's {report.statistic} against {against} is defined (one grade only?)."]
    top, low = defined.iloc[0], defined.iloc[-1]
    lines = [f"Agrees most with {against}: {top.judge} ({report.statistic} {top.value:.3f}, "
             f"{_interval(top)}; {top['items']} items).",
             f"Agrees least with {against}: {low.judge} ({report.statistic} {low.value:.3f}, "
             f"{_interval(low)}; {low['items']} items)."]
    if np.isfinite(top.ci_low) and np.isfinite(low.ci_high):
        overlap = low.ci_high >= top.ci_low
        lines.append(f"Their intervals {'overlap' if overlap else 'do not overlap'} "
                     f"(B = {report.settings.get('bootstrap')} topic resamples).")
    else:
        lines.append("No intervals (--bootstrap 0): whether they overlap is not known.")
    return lines


def agreement_figure(report: AgreementReport):
    """One row per judge, most agreeing on top: the statistic's value and its interval."""
    from matplotlib.figure import Figure

    board = report.headline()
    n = len(board)
    fig = Figure(figsize=(7.5, 1.5 + 0.24 * max(n, 4)))
    ax = fig.subplots()
    y = np.arange(n)
    has_ci = np.isfinite(board["ci_low"].to_numpy(float))
    value = board["value"].to_numpy(float)
    err = np.vstack([value - board["ci_low"].to_numpy(float), board["ci_high"].to_numpy(float) - value])
    ax.errorbar(value[has_ci], y[has_ci], xerr=err[:, has_ci], fmt="o", color="C0", ecolor="0.45",
                capsize=2, ms=4)
    ax.plot(value[~has_ci], y[~has_ci], "o", color="C0", ms=4)
    ax.set_yticks(y, board["judge"], fontsize=max(5.0, min(9.0, 300 / max(n, 1))))
    ax.set_ylim(n - 0.5, -0.5)
    finite = np.concatenate([value[np.isfinite(value)], board["ci_low"].dropna(), board["ci_high"].dropna()])
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    pad = 0.05 * max(hi - lo, 0.1)
    ax.set_xlim(min(lo, 0.0) - pad, max(hi, 0.0) + pad)
    ax.axvline(0.0, color="0.7", lw=0.8, ls=":")
    ref = board["reference"].iloc[0] if n else POOLED_REFERENCE
    against = "the others pooled" if ref == POOLED_REFERENCE else ref
    ax.set_xlabel(f"{report.statistic} against {against} (1 = perfect, 0 = chance)")
    ax.set_ylabel("judge")
    interval = "; 95% topic-bootstrap intervals" if has_ci.any() else ""
    ax.set_title(f"Agreement of {n} judges with {against}\n(most agreeing on top{interval})",
                 fontsize=9)
    fig.tight_layout()
    return fig


def write_agreement_report(report: AgreementReport, out_dir, figure: bool | None = None) -> list[Path]:
    """Write :data:`FILES` into ``out_dir`` (the figure only when matplotlib is installed
    or ``figure=True``); all files appear together or none.  Returns the paths written."""
    from ...formats.trec import write_qrels

    figure = can_draw() if figure is None else figure
    out = Path(out_dir)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    names = list(FILES if figure else FILES[:-1])
    try:
        for name, frame in (("agreement.csv", report.agreement), ("confusion.csv", report.confusion),
                            ("reliability.csv", report.reliability)):
            frame.to_csv(tmp / name, index=False, lineterminator="\n", na_rep="")
        write_qrels(report.consensus, tmp / "consensus.txt")
        if figure:
            from ...figure_check import check

            fig = agreement_figure(report)
            check(fig, "agreement.png")
            fig.savefig(tmp / "agreement.png", dpi=110, metadata={"Software": None})
        out.mkdir(exist_ok=True)
        for name in names:
            os.replace(tmp / name, out / name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [out / name for name in names]
