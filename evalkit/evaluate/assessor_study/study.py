"""Who judged? How much a leaderboard and its significance verdicts depend on the assessors.

The engine of ``evalkit assessors`` (``docs/assessors.md``).  All three
papers this workspace reproduces ask whether conclusions would change with
other assessors (Sakai 2017 §5; Wang et al. 2015 §4; Kim et al. 2010 §5);
:func:`assessors` answers it for any runs and per-assessor ratings:

* leaderboards under every judge of :mod:`evalkit.evaluate.judges.gains` and under
  ``assessor-mean``, the measure averaged over assessors per topic with
  uniform weights (formerly ``aware``: Ferrante, Ferro & Maistro 2017,
  *AWARE*, ACM TOIS 36(2), doi:10.1145/3110217, weigh assessors by their
  estimated accuracy, which this does not), each with the number of topics
  it scores; assessors scored on fewer than ``min_topics`` of the topics are
  flagged;
* each leaderboard against ``all:raw``, and each assessor's against the
  others without them (``without:<id>``): Kendall's tau-b, tau_ap (Yilmaz,
  Aslam & Robertson 2008) and whether the top run is the same
  (:mod:`evalkit.evaluate.assessor_study.reliability`);
* agreement: Krippendorff's alpha (ordinal, interval), Fleiss' kappa when
  every item has the same number of ratings, alpha without each assessor;
  each assessor's Dawid-Skene confusion matrix (``reliability``);
* verdict stability: the randomised Tukey HSD verdict of every run pair
  under ``all:raw`` and under each ``without:<id>`` judge, all on the same
  permutations (one pass of :func:`evalkit.stats.hsd.randomised_tukey_hsd_many`);
* with a ``reference`` judge: every judge's leaderboard against the
  reference's, with topic-bootstrap intervals, and how often the two reach
  the same significance verdict on a run pair
  (:mod:`evalkit.evaluate.assessor_study.reference`).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...errors import InputError, ParameterError
from ...stats.hsd import randomised_tukey_hsd_many
from ...measures.registry import expand_all
from .reference import (check_reference, check_reference_options, compare_with_reference,
                        judge_correlation, reference_judges)
from .reliability import (MEAN_JUDGE, REFERENCE, agreement_frame, rank_correlation,
                          reliability_frame, summary_lines)
from ..judges.gains import POOLED, JudgeGains, check_options, judge_gains, natural_key
from ...measures.ranked import JUDGED
from ..judges.labels import labels_to_ratings
from ..notes import show_notes
from ..scoring.engine import judge_labels, judges_and_runs, measure_names, scored_runs
from ..scoring.judgments import judgments
from ..scoring.lists import Scored
from ..sources import ratings_and_judges, runs_source

__all__ = ["AssessorReport", "assessors", "REFERENCE", "MEAN_JUDGE", "ratings_from_matrix",
           "runs_from_lists"]

_agreement = agreement_frame     # the name the tests and the real-data checks import


@dataclass
class AssessorReport:
    """The frames :func:`assessors` returns (the CSV files of ``evalkit assessors``)."""

    leaderboards: pd.DataFrame        # judge, run, measure, value, rank, topics
    rank_correlation: pd.DataFrame    # judge, measure, reference, kendall_tau, tau_ap, top1_same, loo_*
    agreement: pd.DataFrame           # statistic, value, note
    verdict_stability: pd.DataFrame   # measure, system_a, system_b, significant, share_flipped, flipped_by
    judges: list[str]
    assessors: list[str]
    notes: list[str] = field(default_factory=list)
    settings: dict = field(default_factory=dict)
    reliability: pd.DataFrame | None = None   # judge, grade, estimated_grade, probability
    flagged: list[str] = field(default_factory=list)   # assessors scored on too few topics
    reference: str | None = None                       # the reference judge's name, if any
    # reference, judge, measure, statistic, value, ci_low, ci_high, topics, includes_reference
    reference_agreement: pd.DataFrame | None = None
    # reference, judge, measure, both_same_direction ... neither, pairs, topics, includes_reference
    significance_agreement: pd.DataFrame | None = None
    judge_correlation: pd.DataFrame | None = None      # measure, judge_a, judge_b, kendall_tau, topics

    def summary(self) -> list[str]:
        """Three lines a person reads: verdicts hinging on one assessor, the assessor whose
        leaderboard departs most from the others' (leave-one-out), and alpha with the assessor
        whose removal raises it most and the one Dawid-Skene finds least reliable; with a
        reference, one line per measure on the judges closest to and farthest from it."""
        from .reference_summary import reference_lines

        return summary_lines(self) + (reference_lines(self) if self.reference else [])


def _ranks(values: np.ndarray) -> np.ndarray:
    """Rank 1 = highest value; ties share the best rank; NaN stays NaN."""
    s = pd.Series(values)
    return s.rank(ascending=False, method="min").astype("Int64").array


def _columns(jg: JudgeGains) -> dict[str, pd.DataFrame]:
    """Every judge's gains as a judgment column: ``assessor:<id>`` holds the items that
    assessor rated, ``without:<id>`` those another rated, the pooled judges every item."""
    rated = ~np.isnan(jg.ratings)                                          # (items, A)
    held = {f"assessor:{a}": rated[:, j] for j, a in enumerate(jg.assessors)}
    held.update({f"without:{a}": np.delete(rated, j, axis=1).any(axis=1)
                 for j, a in enumerate(jg.assessors)})
    out = {}
    for name, gains in zip(jg.names, jg.gains):
        keep = held.get(name, np.ones(len(gains), bool))
        out[name] = pd.DataFrame({"topic": jg.items["topic"].to_numpy(object)[keep],
                                  "doc": jg.items["doc"].to_numpy(object)[keep],
                                  "gain": gains[keep], "status": np.int8(JUDGED)})
    return out


def _leaderboards(scored: Scored, jg: JudgeGains, specs):
    """Per-topic scores ``(J + 1, R, T)`` per measure (``assessor-mean`` last, NaN where a judge
    cannot score a topic) and the leaderboard rows in report order."""
    own = [jg.names.index(f"assessor:{a}") for a in jg.assessors]
    labels = jg.names + [MEAN_JUDGE]
    order = list(POOLED) + [MEAN_JUDGE] + jg.names[len(POOLED):]
    runs = list(scored.runs)
    per_topic, rows = {}, []
    for m, spec in enumerate(specs):
        values = scored.values[:, m]                                       # (J, R, T)
        valid = np.isfinite(values).any(axis=1)                            # (J, T)
        topics = np.append(valid.sum(axis=1), valid[own].any(axis=0).sum())   # (J + 1,)
        with warnings.catch_warnings():   # an all-NaN slice (nothing to average) stays NaN
            warnings.simplefilter("ignore", RuntimeWarning)
            # per topic, the mean over the assessors who can score it (uniform weights)
            mean = np.nanmean(values[own], axis=0)
            values = np.concatenate([values, mean[None]], axis=0)
            means = np.nanmean(values, axis=-1)                                # (J + 1, R)
        per_topic[spec.name] = values
        for judge in order:
            k = labels.index(judge)
            rows.append(pd.DataFrame({"judge": judge, "run": runs, "measure": spec.name,
                                      "value": means[k], "rank": _ranks(means[k]),
                                      "topics": int(topics[k])}))
    return per_topic, pd.concat(rows, ignore_index=True), order, labels


def _verdicts(per_topic: dict, labels: list[str], jg: JudgeGains, runs: list[str], trials: int,
              seed: int, alpha: float) -> tuple[pd.DataFrame, int]:
    """HSD verdicts under ``all:raw`` and each ``without:<id>``: one pass, same permutations.

    Topics: those every one of these judges can score (the matrices must share
    a shape for common random numbers); usually all of ``all:raw``'s.
    """
    chosen = [labels.index(REFERENCE)] + [labels.index(f"without:{a}") for a in jg.assessors]
    stacks = [values[chosen] for values in per_topic.values()]             # (1 + A, R, T) each
    keep = np.all([np.isfinite(v).all(axis=(0, 1)) for v in stacks], axis=0)
    if keep.sum() < 2:
        raise InputError(f"only {int(keep.sum())} topic(s) can be scored under all:raw and every "
                         "leave-one-out judge; the HSD test needs two or more")
    matrices = [pd.DataFrame(v[:, keep].T, columns=runs) for values in stacks for v in values]
    results = randomised_tukey_hsd_many(matrices, n_trials=trials, seed=seed)
    rows, width = [], len(chosen)
    for m, measure in enumerate(per_topic):
        block = results[m * width:(m + 1) * width]
        significant = np.stack([r["p_value"].to_numpy() < alpha for r in block])   # (1 + A, pairs)
        flipped = significant[1:] != significant[0]
        rows.append(pd.DataFrame({
            "measure": measure, "system_a": block[0]["system_a"], "system_b": block[0]["system_b"],
            "significant": significant[0], "share_flipped": flipped.mean(axis=0),
            "flipped_by": [";".join(a for a, f in zip(jg.assessors, col) if f) for col in flipped.T],
        }))
    return pd.concat(rows, ignore_index=True), int(keep.sum())


def assessors(runs: pd.DataFrame, ratings: pd.DataFrame | dict | None = None, *,
              measures=("nG@1", "P+", "nERR@10"),
              p: float = 0.2, dmax: int | None = None, trials: int = 2000, seed: int = 0,
              alpha: float = 0.05, beta: float = 1.0, min_topics: float = 0.5,
              reference: str | None = None, top: int = 5, bootstrap: int = 1000,
              test: str = "t", judges=None, common_topics: bool = False,
              grades: tuple[int, int] | None = None, clip: bool = False) -> AssessorReport:
    """Leaderboards, rank correlations, agreement and verdict stability across judges.

    ``runs``: ``run, topic, doc, rank`` (or ``score``), as for
    :func:`evalkit.evaluate.score`; ``ratings``: ``topic, assessor, doc,
    rating`` from two or more assessors, or (here or as ``judges``) ``{name: qrels path
    or frame}``; a judge sharing no topic with the others or the runs is refused, and
    ``common_topics`` keeps the topics every judge judged.  Every judge is scored with the same
    measures and topics rule as ``evalkit score``: a judge's value for a run
    is its mean over the topics where that judge's ideal gain is positive
    (``assessor:<id>`` thus drops the topics that assessor rated nothing in,
    or rated all 0); an assessor who can score fewer than ``min_topics``
    (a share) of ``all:raw``'s topics is flagged in ``report.flagged`` and a
    note, and left out of the summary's verdict on who departs most.
    ``assessor-mean`` averages the ``assessor:<id>`` scores per
    topic with uniform weights over the assessors who can score the topic (an
    assessor who rated nothing there, or nothing above 0, has no value and is
    left out of that topic's average, not counted as 0); its topics are
    ``all:raw``'s.  The HSD uses ``trials`` permutations from ``seed`` for
    every judge and measure (common random numbers) and ``alpha``.

    ``reference`` (an assessor's name): every judge's leaderboard is also
    compared with that assessor's (:func:`compare_with_reference`: tau-b,
    tau_ap, the overlap of the ``top`` runs, each with a ``1 - alpha``
    interval over ``bootstrap`` topic resamples from ``seed``; the verdicts
    of ``test``, ``t`` or ``hsd``, counted run pair by run pair).
    """
    check_options(trials, alpha)
    if isinstance(min_topics, bool) or not 0 <= min_topics <= 1:
        raise ParameterError("min_topics", min_topics, "a share in [0, 1]")
    specs = expand_all(measure_names(measures))
    if not specs:
        raise InputError("give at least one measure")
    if beta != 1.0:
        raise InputError("beta other than 1 is not available in this version")
    ratings, judges, read = ratings_and_judges(ratings, judges, grades, clip)
    labels, topics = judge_labels(ratings, judges, common_topics)
    if labels is None:
        raise InputError("give the judges: a ratings frame or file, or {name: qrels file}")
    frame = labels_to_ratings(labels)
    if reference is not None:
        check_reference_options(top, bootstrap, test)
        check_reference(str(reference), sorted(pd.unique(frame["assessor"].astype(str)),
                                               key=natural_key))
    jg = judge_gains(frame, p, dmax)
    runs = runs_source(runs)
    judged = judgments(_columns(jg))
    result = scored_runs(runs, judged, specs)
    names = list(result.runs)
    if len(names) < 2:
        raise InputError("comparing assessors' leaderboards needs at least two runs")
    per_topic, board, order, labels = _leaderboards(result, jg, specs)
    verdicts, hsd_topics = _verdicts(per_topic, labels, jg, names, trials, seed, alpha)
    notes = read + list(result.notes) + judges_and_runs(result, topics)
    empty = [name for name, g in zip(jg.names, judged.ideal) if not (g[..., 0] > 0).any()]
    if empty:
        notes.append(f"no topic has an item rated above 0 under {', '.join(empty)}: "
                     "their leaderboards are empty (NaN)")
    scored = int(np.isfinite(per_topic[specs[0].name][labels.index(REFERENCE)]).any(axis=0).sum())
    if hsd_topics < scored:
        notes.append(f"the HSD used the {hsd_topics} topics every leave-one-out judge can score "
                     f"(all:raw scores {scored})")
    counts = board.drop_duplicates("judge").set_index("judge")["topics"]
    flagged = [a for a in jg.assessors if counts[f"assessor:{a}"] < min_topics * scored]
    if flagged:
        notes.append(f"scored on fewer than {min_topics:.0%} of the {scored} topics (flagged, left "
                     "out of the summary's verdict on who departs most): " + ", ".join(
                         f"{a} ({counts[f'assessor:{a}']} topics)" for a in flagged))
    settings = {"trials": int(trials), "seed": seed, "alpha": alpha, "p": p, "dmax": jg.dmax,
                "measures": [s.name for s in specs], "topics": scored, "hsd_topics": hsd_topics,
                "min_topics": min_topics, "prior": jg.prior}
    report = AssessorReport(board, rank_correlation(board, order), agreement_frame(jg), verdicts,
                            order, jg.assessors, notes, settings, reliability_frame(jg), flagged)
    if reference is not None:
        column = check_reference(str(reference), jg.assessors)
        judges = reference_judges(order, jg.assessors, str(reference))
        report.reference = str(reference)
        report.reference_agreement, report.significance_agreement, more = compare_with_reference(
            per_topic, labels, judges, column, top=top, bootstrap=bootstrap, seed=seed,
            alpha=alpha, test=test, trials=trials)
        notes.extend(more)
        report.judge_correlation = judge_correlation(per_topic, labels, [column, *judges])
        settings.update(top=int(top), bootstrap=int(bootstrap), test=test)
    show_notes(report.notes, "assessors")
    return report


def ratings_from_matrix(topics, docs, matrix, names=None) -> pd.DataFrame:
    """The long ``topic, assessor, doc, rating`` frame of an ``items x assessors`` matrix.

    ``topics`` and ``docs`` name each row's item; NaN (not rated) is left
    out; assessors are ``names`` or ``a1 .. aN`` (the STC-ja reader's names).
    """
    x = np.asarray(matrix, dtype=float)
    names = [f"a{j + 1}" for j in range(x.shape[1])] if names is None else list(names)
    if x.ndim != 2 or len(names) != x.shape[1] or not len(topics) == len(docs) == x.shape[0]:
        raise InputError(f"a {x.shape} ratings matrix needs one topic and doc per row and one "
                         "name per column")
    row, col = np.nonzero(~np.isnan(x))
    return pd.DataFrame({"topic": np.asarray(topics, dtype=object)[row].astype(str),
                         "assessor": np.asarray(names, dtype=object)[col],
                         "doc": np.asarray(docs, dtype=object)[row].astype(str),
                         "rating": x[row, col].astype(np.int64)})


def runs_from_lists(lists) -> pd.DataFrame:
    """``run, topic, doc, rank`` from :class:`evalkit.measures.graded.RankedLists`.

    An unjudged entry (index -1) keeps its rank as a document id that no
    judge rates (``unjudged:<run>:<topic>:<rank>``, gain 0); empty ranks
    after a run's last document are dropped.
    """
    index = np.asarray(lists.index)
    rows = []
    for r, run in enumerate(lists.runs):
        for t, topic in enumerate(lists.topics):
            found = np.flatnonzero(index[r, t] >= 0)
            last = found.max() + 1 if found.size else 0
            for k in range(last):
                i = index[r, t, k]
                doc = lists.items[t][i] if i >= 0 else f"unjudged:{run}:{topic}:{k + 1}"
                rows.append((run, topic, str(doc), k + 1))
    return pd.DataFrame(rows, columns=["run", "topic", "doc", "rank"])
