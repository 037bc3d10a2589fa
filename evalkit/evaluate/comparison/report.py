"""The statistics report of ``evalkit compare``: ANOVA, intervals, tests, wins and losses.

From per-topic scores (read by :mod:`evalkit.formats.scores`, or computed by
:func:`evalkit.evaluate.scoring.engine.score`), per measure: the two-way ANOVA
without replication, each system's mean with its interval, and every pair's
difference, interval, p-value (corrected when the test needs it), effect
size and win/tie/loss counts, as Sakai recommends reporting them (Sakai
2018, *Laboratory Experiments in Information Retrieval*, ch. 5; effect
sizes and intervals beside every test).  The statistics live in
:mod:`evalkit.stats.anova` and :mod:`evalkit.stats.pairwise`; this module
assembles and writes them (tables for a paper: :mod:`evalkit.evaluate.comparison.output`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ...errors import ParameterError
from ...formats.scores import score_matrix, measures_to_compare
from ...stats.anova import system_intervals, two_way_anova
from ...stats.pairwise import CORRECTIONS, TESTS, hsd_pairs, paired_pairs, wins_ties_losses

__all__ = ["ComparisonReport", "compare_scores", "write_report", "ANOVA_COLUMNS",
           "SYSTEM_COLUMNS", "PAIR_COLUMNS"]

ANOVA_COLUMNS = ["measure", "source", "df", "ss", "ms", "F", "p"]
SYSTEM_COLUMNS = ["measure", "system", "mean", "ci_low", "ci_high"]
PAIR_COLUMNS = ["measure", "system_a", "system_b", "diff", "ci_low", "ci_high", "p_value",
                "p_adjusted", "effect_size", "significant", "wins", "ties", "losses"]


@dataclass
class ComparisonReport:
    """The three tables of one comparison and how they were computed.

    ``settings``: test, correction, alpha, trials, seed, topics per measure,
    and for ``hsd`` the largest Monte Carlo standard error of a p-value.
    """

    anova: pd.DataFrame
    systems: pd.DataFrame
    pairs: pd.DataFrame
    settings: dict = field(default_factory=dict)


def compare_scores(scores: pd.DataFrame, measures=None, *, test: str = "hsd",
                   correction: str | None = None, alpha: float = 0.05, trials: int = 5000,
                   seed: int = 0) -> ComparisonReport:
    """Compare every run in ``scores`` (``run, measure, topic, value``[, file, line]).

    ``measures``: the measures to report (default: all in order of
    appearance but the count fields ``num_ret``, ``num_rel``, ... of trec_eval
    and ir_measures, listed in ``settings["counts_left_out"]``).
    ``test``: ``hsd`` (randomised Tukey HSD, the familywise
    error held by the test; ``correction`` must be ``none`` or omitted),
    ``t``, ``wilcoxon`` or ``permutation`` (``correction`` defaults to
    ``holm``).  ``trials`` and ``seed`` drive the two randomised tests; every
    measure uses the same seed.  Raises :class:`~evalkit.errors.InputError`
    for fewer than two runs or topics, or a run missing a topic.
    """
    if test not in TESTS:
        raise ParameterError("test", test, f"one of {', '.join(TESTS)}")
    if correction is None:
        correction = "none" if test == "hsd" else "holm"
    if correction not in CORRECTIONS:
        raise ParameterError("correction", correction, f"one of {', '.join(CORRECTIONS)}")
    if test == "hsd" and correction != "none":
        raise ParameterError("correction", correction,
                             "none with --test hsd (the HSD already holds the familywise error)")
    if "file" not in scores:
        scores = scores.assign(file="<scores>")
    measures, counts = measures_to_compare(scores, measures)
    matrices = {m: score_matrix(scores, m) for m in measures}   # every input error before any work
    anova, systems, pairs = [], [], []
    settings = {"test": test, "correction": correction, "alpha": alpha, "trials": trials,
                "seed": seed, "topics": {}, "systems": {}, "counts_left_out": counts}
    for measure, matrix in matrices.items():
        settings["topics"][measure], settings["systems"][measure] = matrix.shape
        anova.append(two_way_anova(matrix).assign(measure=measure))
        systems.append(system_intervals(matrix, alpha).assign(measure=measure))
        if test == "hsd":
            table = hsd_pairs(matrix, trials, seed, alpha)
            settings["mc_se"] = max(settings.get("mc_se", 0.0), table.attrs["p_value_se"])
        else:
            table = paired_pairs(matrix, test, correction, alpha, trials, seed)
            if test == "permutation":
                from ...stats.hsd import mc_error

                settings["mc_se"] = max(settings.get("mc_se", 0.0),
                                        float(mc_error(table["p_value"], trials).max()))
        table = pd.concat([table, wins_ties_losses(matrix)], axis=1)
        pairs.append(table.assign(measure=measure))
    return ComparisonReport(
        anova=pd.concat(anova, ignore_index=True)[ANOVA_COLUMNS],
        systems=pd.concat(systems, ignore_index=True)[SYSTEM_COLUMNS],
        pairs=pd.concat(pairs, ignore_index=True)[PAIR_COLUMNS],
        settings=settings)


def write_report(report: ComparisonReport, out_dir) -> list[Path]:
    """Write ``anova.csv``, ``systems.csv``, ``pairs.csv`` (full precision) and
    ``systems.png`` (means with intervals, significant pairs marked) into
    ``out_dir``; return their paths."""
    from ...outputs import write_text
    from .output import plot_report

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, frame in (("anova", report.anova), ("systems", report.systems),
                        ("pairs", report.pairs)):
        paths.append(write_text(out / f"{name}.csv", frame.to_csv(index=False, lineterminator="\n")))
    paths.append(plot_report(report, out / "systems.png"))
    return paths
