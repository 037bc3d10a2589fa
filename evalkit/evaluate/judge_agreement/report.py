"""The files ``evalkit agreement`` writes, all or nothing, and the lines it prints.

:func:`agreement_report` computes every table (``docs/agreement.md``, "Outputs
in DIR"): ``agreement.csv`` (:mod:`.tables`, with each judge's share of items
its reference graded too, :func:`.grid.overlap_table`), ``confusion.csv``,
``reliability.csv`` (Dawid-Skene over every judge), ``per_topic.csv`` (the
statistics topic by topic, in evalkit's scores format), ``pairs.csv`` (tests
between judges, :mod:`.pairs`) and ``consensus_<method>.txt`` (:mod:`.consensus`).
:func:`write_agreement_report` writes them into a temporary folder beside
``DIR`` and moves them in only when all are written (a failure leaves ``DIR``
as it was), with ``agreement.png`` (:mod:`.figure`) and, with ``--format
markdown|latex``, the tables for a paper (:mod:`.text_tables`).
:func:`summary` gives the judges that agree most and least, whether their
intervals overlap, and how many judges the best cannot be told apart from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ...outputs import write_together

from .consensus import CONSENSUS_METHODS, consensus_table, entering_judges, reliability_table
from .figure import agreement_figure, can_draw
from .grid import POOLED_REFERENCE, as_grid, overlap_table, refuse_vanished
from .pairs import (MAX_JUDGES_FOR_PAIRS, holm_floor, indistinguishable_from, pairs_table,
                    trials_needed)
from .tables import _check_cuts, agreement_table, confusion_table, per_topic_table, statistic_names

__all__ = ["AgreementReport", "agreement_report", "write_agreement_report", "agreement_figure",
           "summary", "can_draw"]


@dataclass
class AgreementReport:
    """The tables of ``evalkit agreement`` and the statistic that orders the judges."""

    agreement: pd.DataFrame
    confusion: pd.DataFrame
    reliability: pd.DataFrame
    consensus: dict                       # {method: topic, doc, grade}
    per_topic: pd.DataFrame
    pairs: pd.DataFrame | None = None
    statistic: str = "alpha_ordinal"
    settings: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)

    def headline(self) -> pd.DataFrame:
        """``judge, reference, value, ci_low, ci_high, items`` of :attr:`statistic`, most
        agreeing first (judges whose value is undefined last)."""
        rows = self.agreement[self.agreement["statistic"] == self.statistic]
        return (rows.sort_values("value", ascending=False, kind="stable", na_position="last")
                [["judge", "reference", "value", "ci_low", "ci_high", "items"]]
                .reset_index(drop=True))


def agreement_report(labels: pd.DataFrame, reference: str | None = None, cuts=None,
                     bootstrap: int = 1000, seed=0, statistic: str = "alpha_ordinal",
                     pairs: bool | None = None, trials: int = 5000, test: str = "permutation",
                     alpha: float = 0.05, consensus=("dawid-skene",),
                     consensus_with_reference: bool = False,
                     min_overlap: float = 0.5) -> AgreementReport:
    """Every table of ``evalkit agreement`` for ``labels`` (see :func:`agreement_table`,
    :func:`~.pairs.pairs_table`, :func:`~.consensus.consensus_table`).

    ``pairs=None``: the tests between judges when there are at most
    :data:`~.pairs.MAX_JUDGES_FOR_PAIRS` judges besides the reference.  A judge that shares
    no item with its reference is refused (:func:`~.grid.refuse_vanished`) before any work.
    """
    from ...errors import ParameterError

    grid = as_grid(labels)                       # items and judges indexed once for every table
    names = statistic_names(_check_cuts(cuts, grid.lo, grid.hi))
    if statistic not in names:                   # checked before the bootstrap
        raise ParameterError("statistic", statistic, "one of " + ", ".join(names))
    bad = [m for m in consensus if m not in CONSENSUS_METHODS]
    if bad:
        raise ParameterError("consensus", bad[0], "one of " + ", ".join(CONSENSUS_METHODS))
    if reference is not None:
        grid.index(reference)
    refuse_vanished(grid, reference)
    table = agreement_table(grid, reference, cuts, bootstrap, seed)
    overlap = overlap_table(grid, reference, min_overlap).set_index("judge")
    table.insert(3, "overlap", table["judge"].map(overlap["overlap"]))
    table.insert(4, "low_overlap", table["judge"].map(overlap["low_overlap"]).astype(bool))
    against = reference or "the others"
    notes = [f"judge {j} shares {r['items']} of its {r['judge_items']} items ({r['overlap']:.0%}) "
             f"with {against}, below --min-overlap {min_overlap:.0%}: its statistics rest on "
             "those items alone" for j, r in overlap[overlap["low_overlap"]].iterrows()]
    entering = entering_judges(grid, reference, consensus_with_reference)
    agreed = {m: consensus_table(grid, m, entering) for m in dict.fromkeys(consensus)}
    if agreed:
        left = (f"; {reference}, the reference, left out (--consensus-with-reference to include "
                "it)" if reference is not None and reference not in entering else "")
        notes.append(f"consensus ({', '.join(agreed)}) of {len(entering)} judges{left}: "
                     + ", ".join(entering))
    per_topic, topic_notes = per_topic_table(grid, reference, cuts)
    notes += topic_notes
    report = AgreementReport(table, confusion_table(grid, reference), reliability_table(grid),
                             agreed, per_topic, None, statistic,
                             {"reference": reference, "bootstrap": int(bootstrap), "seed": seed,
                              "grades": labels.attrs.get("grades") if hasattr(labels, "attrs") else None,
                              "alpha": float(alpha), "test": test, "trials": int(trials),
                              "min_overlap": float(min_overlap), "level": 0.95}, notes)
    compared = [j for j in grid.judges if j != reference]
    if pairs is None:
        pairs = 2 <= len(compared) <= MAX_JUDGES_FOR_PAIRS
    if pairs:
        order = list(report.headline()["judge"])
        report.pairs, pair_notes = pairs_table(grid, reference, statistic, order, bootstrap,
                                               trials, seed, test, alpha)
        notes += pair_notes
    return report


def _interval(row) -> str:
    if not np.isfinite(row.ci_low):
        return "no interval"
    return f"95% interval {row.ci_low:.3f} to {row.ci_high:.3f}"


def _pairs_line(report: AgreementReport, best: str) -> str:
    s, pairs = report.settings, report.pairs
    same = indistinguishable_from(pairs, best, s["alpha"])
    others = len({*pairs["judge_a"], *pairs["judge_b"]}) - 1
    how = (f"randomised Tukey HSD over per-topic {report.statistic}, B = {s['trials']} trials"
           if s["test"] == "hsd" else
           f"paired randomisation test over topics, B = {s['trials']} trials, Holm over "
           f"{len(pairs)} pairs")
    line = (f"Statistically indistinguishable from {best} at alpha = {s['alpha']:g}: "
            f"{len(same)} of the {others} other judges ({how}; pairs.csv).")
    floor = holm_floor(len(pairs), s["trials"])
    if s["test"] != "hsd" and floor >= s["alpha"]:
        line += (f" No pair can be significant with these trials: the smallest Holm-adjusted p "
                 f"is {len(pairs)} / (B + 1) = {floor:.3f}; use --trials "
                 f"{trials_needed(len(pairs), s['alpha'])} or more.")
    return line


def summary(report: AgreementReport) -> list[str]:
    """Lines a person reads: who agrees most and least with the reference, whether the two
    intervals overlap, and (with the tests between judges) how many judges are statistically
    indistinguishable from the best."""
    board = report.headline()
    defined = board[np.isfinite(board["value"])]
    ref = board["reference"].iloc[0] if len(board) else POOLED_REFERENCE
    against = "the others pooled" if ref == POOLED_REFERENCE else ref
    if defined.empty:
        return [f"No judge's {report.statistic} against {against} is defined (one grade only?)."]
    top, low = defined.iloc[0], defined.iloc[-1]
    if len(defined) == 1:                   # one judge: nothing to rank it against
        return [f"One judge against {against}: {top.judge} ({report.statistic} "
                f"{top.value:.3f}, {_interval(top)}; {top['items']} items); with one judge "
                "there is no most or least agreeing."]
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
    if report.pairs is not None:
        lines.append(_pairs_line(report, top.judge))
    return lines


def _tables(report: AgreementReport, fmt: str) -> dict[str, str]:
    from .text_tables import SUFFIX, agreement_text, pairs_text

    def csv(frame):
        return frame.to_csv(index=False, lineterminator="\n", na_rep="")

    out = {"agreement.csv": csv(report.agreement), "confusion.csv": csv(report.confusion),
           "reliability.csv": csv(report.reliability), "per_topic.csv": csv(report.per_topic)}
    if report.pairs is not None:
        out["pairs.csv"] = csv(report.pairs)
    if fmt in SUFFIX:
        out["agreement" + SUFFIX[fmt]] = agreement_text(report, fmt)
        if report.pairs is not None:
            out["pairs" + SUFFIX[fmt]] = pairs_text(report, fmt)
    return out


def write_agreement_report(report: AgreementReport, out_dir, figure: bool | None = None,
                           fmt: str = "csv") -> list[Path]:
    """Write the report's files into ``out_dir`` (the figure only when matplotlib is installed
    or ``figure=True``; ``fmt`` ``markdown`` or ``latex`` adds the paper tables); all files
    appear together or none.  Returns the paths written."""
    from ...formats.trec import write_qrels

    figure = can_draw() if figure is None else figure
    texts = _tables(report, fmt)
    qrels = {f"consensus_{method}.txt": frame for method, frame in report.consensus.items()}
    def write(tmp: Path) -> list[str]:
        for name, text in texts.items():
            (tmp / name).write_text(text, encoding="utf-8", newline="")
        for name, frame in qrels.items():
            write_qrels(frame, tmp / name)
        if not figure:
            return [*texts, *qrels]
        from ...outputs import save_figure     # checked by evalkit.figure_check

        save_figure(agreement_figure(report), tmp / "agreement", formats=("png",), dpi=110)
        return [*texts, *qrels, "agreement.png"]

    return write_together(out_dir, write)
