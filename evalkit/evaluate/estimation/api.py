"""``evalkit estimate`` from Python: judges and runs in, the command's tables out.

:func:`estimate` returns an :class:`EstimateReport` whose frames are the
files ``evalkit estimate --out DIR`` writes (tested equal): ``estimates``
always, ``pairs`` and ``verdicts`` with ``pairs=True``, ``plan`` with
``plan=WIDTH``, ``bias`` with ``bias=True``; ``per_topic`` holds the scores
they were computed from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ...errors import InputError, ParameterError
from ...stats.prediction_powered import INTERVALS

__all__ = ["EstimateReport", "estimate", "estimate_report", "read_two_judges"]


@dataclass
class EstimateReport:
    """The tables of ``evalkit estimate``; a table not asked for is None."""

    estimates: pd.DataFrame
    per_topic: pd.DataFrame
    pairs: pd.DataFrame | None = None
    verdicts: pd.DataFrame | None = None
    plan: pd.DataFrame | None = None
    bias: pd.DataFrame | None = None
    notes: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    alpha: float = 0.05

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables there are, by file stem, in the order the command writes them."""
        names = ("estimates", "pairs", "verdicts", "plan", "bias", "per_topic")
        return {n: getattr(self, n) for n in names if getattr(self, n) is not None}


def check_options(alpha: float, interval: str, plan, bootstrap: int, trials: int) -> None:
    """The options' ranges, before any work."""
    if not 0 < alpha < 1:
        raise ParameterError("alpha", alpha, "a level between 0 and 1, e.g. 0.05")
    if interval not in INTERVALS:
        raise ParameterError("interval", interval, " or ".join(INTERVALS))
    if interval == "bootstrap-t":
        from ...stats.bootstrap_t import min_resamples

        if bootstrap < min_resamples(alpha):
            raise ParameterError("bootstrap", bootstrap, f"at least {min_resamples(alpha)} "
                                 f"resamples for --interval bootstrap-t at alpha {alpha:g}")
    if plan is not None and not plan > 0:
        raise ParameterError("plan", plan, "a positive interval width, e.g. 0.05")
    if bootstrap < 1:
        raise ParameterError("bootstrap", bootstrap, "a positive number of resamples")
    if trials < 1:
        raise ParameterError("trials", trials, "a positive number of randomisation trials")


def read_two_judges(judges, grades=None, clip: bool = False):
    """``(labels, notes, sources)`` of ``judges``: ``{name: qrels path or frame}`` or a labels
    frame (``topic, judge, doc, grade``), read as :func:`evalkit.evaluate.sources.labels_from`
    reads them; ``sources`` names each judge's file."""
    from ..sources import labels_from

    if not isinstance(judges, pd.DataFrame) and not judges:
        raise InputError("give the judges: {name: qrels path or frame}, the reference and "
                         "the proxy")
    labels, notes = labels_from(judges, None, grades, clip)
    paths = ({} if isinstance(judges, pd.DataFrame) else
             {str(n): str(p) for n, p in judges.items() if isinstance(p, (str, Path))})
    return labels, notes, paths


def estimate_report(runs, labels: pd.DataFrame, reference: str, proxy: str, measures,
                    alpha: float = 0.05, interval: str = "normal", pairs: bool = False,
                    plan: float | None = None, bias: bool = False, bootstrap: int = 1000,
                    trials: int = 5000, seed: int = 0, order: str = "score",
                    sources: dict | None = None) -> EstimateReport:
    """The report from judges' ``labels`` (see :func:`estimate` for the options)."""
    from .estimators import estimates_table, sampling_note
    from .topic_scores import topic_scores

    check_options(alpha, interval, plan, bootstrap, trials)
    if not measures:
        raise InputError("give at least one measure, e.g. nDCG@10")
    scores = topic_scores(runs, labels, reference, proxy, measures, order, sources)
    report = EstimateReport(estimates_table(scores, alpha, interval, bootstrap, seed),
                            scores.frame(), alpha=alpha)
    report.notes = sampling_note(scores, alpha)
    report.summary = [f"{len(scores.runs)} runs; {scores.n} of {scores.topics} topics judged by "
                      f"the reference {reference}, all by the proxy {proxy}; {interval} intervals "
                      f"at {1 - alpha:.0%}"]
    if pairs:
        from .pairs import pairs_table, verdict_summary, verdicts_table

        report.pairs = pairs_table(scores, alpha, interval, bootstrap, seed)
        report.verdicts = verdicts_table(report.pairs)
        report.summary += verdict_summary(report.verdicts)
    if plan is not None:
        from .plan import plan_summary, plan_table

        report.plan = plan_table(scores, plan, alpha, interval)
        report.summary += plan_summary(report.plan, scores)
    if bias:
        from .bias import bias_summary, bias_table

        report.bias = bias_table(scores, alpha, bootstrap, trials, seed)
        report.summary += bias_summary(report.bias, alpha)
    return report


def estimate(runs, judges, *, reference: str, proxy: str, measures=("nDCG@10",),
             alpha: float = 0.05, interval: str = "normal", pairs: bool = False,
             plan: float | None = None, bias: bool = False, bootstrap: int = 1000,
             trials: int = 5000, seed: int = 0, grades: tuple[int, int] | None = None,
             clip: bool = False, order: str = "score", fill=None) -> EstimateReport:
    """Every run's score under the ``reference`` judge estimated with the ``proxy`` judge.

    ``runs``: run files, a folder of them or a runs frame (as
    :func:`~evalkit.evaluate.scoring.engine.score` takes them); ``judges``:
    ``{name: qrels path or frame}`` or a labels frame, among them ``reference``
    (the humans, some topics) and ``proxy`` (e.g. an LLM, every topic).
    ``alpha``: 1 - the intervals' level; ``interval``: ``"normal"``
    (ppi-python's), ``"t"`` (``ddof = 1``, ``t_{n-1}``) or ``"bootstrap-t"``
    (:mod:`evalkit.stats.bootstrap_t`: ``bootstrap`` resamples, at least 99,
    ``seed``); ``pairs``: every
    pair of runs (``pairs``, ``verdicts``); ``plan``: an interval width, the
    reference topics needed for it (``plan``); ``bias``: does the proxy
    favour a run (``bias``; ``bootstrap`` resamples, ``trials``
    randomisation trials, ``seed``); ``fill``: a qrels path or frame whose labels fill each
    judge's holes on the topics it labelled (:mod:`~evalkit.evaluate.judges.holes`).
    The notes are in ``report.notes``.
    """
    from ..judges.holes import FILL, fill_holes, fill_name, with_fill

    check_options(alpha, interval, plan, bootstrap, trials)
    labels, notes, sources = read_two_judges(with_fill(judges, fill), grades, clip)
    if fill is not None:
        labels, filled = fill_holes(labels, [reference, proxy], fill_name(fill))
        notes = list(notes) + filled
        sources.pop(FILL, None)
    report = estimate_report(runs, labels, reference, proxy, measures, alpha, interval, pairs,
                             plan, bias, bootstrap, trials, seed, order, sources)
    report.notes = list(notes) + report.notes
    return report
