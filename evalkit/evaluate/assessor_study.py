"""Who judged? How much a leaderboard and its significance verdicts depend on the assessors.

The engine of ``evalkit assessors`` (``docs/assessors.md``).  All three
papers this workspace reproduces ask whether conclusions would change with
other assessors (Sakai 2017 §5; Wang et al. 2015 §4; Kim et al. 2010 §5);
:func:`assessors` answers it for any runs and per-assessor ratings:

* leaderboards under every judge of :mod:`evalkit.evaluate.judges` and under
  ``aware``, the measure averaged over assessors (Ferrante, Ferro & Maistro
  2017, *AWARE: Exploiting Evaluation Measures to Combine Multiple
  Assessors*, ACM TOIS 36(2), doi:10.1145/3110217), uniform weights;
* each leaderboard against ``all:raw``: Kendall's tau-b, tau_ap (Yilmaz,
  Aslam & Robertson 2008) and whether the top run is the same;
* agreement: Krippendorff's alpha (ordinal, interval), Fleiss' kappa when
  every item has the same number of ratings, alpha without each assessor;
* verdict stability: the randomised Tukey HSD verdict of every run pair
  under ``all:raw`` and under each ``without:<id>`` judge, all on the same
  permutations (one pass of :func:`evalkit.stats.hsd.randomised_tukey_hsd_many`).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import InputError
from ..stats.agreement import fleiss_kappa
from ..stats.hsd import randomised_tukey_hsd_many
from ..stats.krippendorff import alpha_from_counts, value_counts
from ..stats.rank_correlation import kendall_tau, tau_ap
from ..measures.registry import parse_measure
from .judges import POOLED, JudgeGains, check_options, judge_gains
from .scoring import Judged, _depth, judged_gains, score_arrays

__all__ = ["AssessorReport", "assessors", "REFERENCE", "ratings_from_matrix", "runs_from_lists"]

#: The judge every other is compared with.
REFERENCE = "all:raw"


@dataclass
class AssessorReport:
    """The frames :func:`assessors` returns (the CSV files of ``evalkit assessors``)."""

    leaderboards: pd.DataFrame        # judge, run, measure, value, rank
    rank_correlation: pd.DataFrame    # judge, measure, reference, kendall_tau, tau_ap, top1_same
    agreement: pd.DataFrame           # statistic, value, note
    verdict_stability: pd.DataFrame   # measure, system_a, system_b, significant, share_flipped, flipped_by
    judges: list[str]
    assessors: list[str]
    notes: list[str] = field(default_factory=list)
    settings: dict = field(default_factory=dict)

    def summary(self) -> list[str]:
        """Three lines a person reads: verdicts hinging on one assessor, the judge departing
        most from ``all:raw``, and alpha."""
        v = self.verdict_stability
        hinge = int((v["share_flipped"] > 0).sum())
        per = ", ".join(f"{m}: {int((g['share_flipped'] > 0).sum())}/{len(g)}"
                        for m, g in v.groupby("measure", sort=False))
        rc = self.rank_correlation
        mean_tau = rc.groupby("judge", sort=False)["kendall_tau"].mean()
        if mean_tau.notna().any():
            worst = mean_tau.idxmin()
            detail = ", ".join(f"{m} tau {t:.3f}" for m, t in
                               rc[rc["judge"] == worst][["measure", "kendall_tau"]].itertuples(index=False))
            departs = (f"The leaderboard departing most from {REFERENCE} is {worst}'s "
                       f"(mean Kendall tau {mean_tau[worst]:.3f}; {detail}).")
        else:
            departs = "No leaderboard could be compared with all:raw (fewer than 3 runs)."
        a = self.agreement.set_index("statistic")["value"]
        return [f"{hinge} of {len(v)} HSD verdicts (run pair x measure) under {REFERENCE} flip "
                f"when one assessor is left out ({per}; B = {self.settings.get('trials')}, "
                f"alpha = {self.settings.get('alpha')}).",
                departs,
                f"Krippendorff's alpha over {len(self.assessors)} assessors: ordinal "
                f"{a['alpha_ordinal']:.3f}, interval {a['alpha_interval']:.3f}."]


def _ranks(values: np.ndarray) -> np.ndarray:
    """Rank 1 = highest value; ties share the best rank; NaN stays NaN."""
    s = pd.Series(values)
    return s.rank(ascending=False, method="min").astype("Int64").array


def _stack(judged: Judged, jg: JudgeGains) -> Judged:
    """``judged`` (indexed against ``all:raw``'s items) with every judge's gains padded."""
    lists = judged.lists
    topic_code = pd.Categorical(jg.items["topic"], categories=lists.topics).codes
    starts = np.searchsorted(topic_code, np.arange(len(lists.topics)))
    position = np.arange(len(topic_code)) - starts[topic_code]
    padded = np.zeros((len(jg.names),) + judged.padded.shape[1:])
    padded[:, topic_code, position] = jg.gains
    return Judged(lists, padded, judged.notes)


def _leaderboards(judged: Judged, jg: JudgeGains, specs, beta: float):
    """Per-topic scores ``(J + 1, R, T)`` per measure (``aware`` last, NaN where a judge
    cannot score a topic) and the leaderboard rows in report order."""
    valid = judged.padded.max(axis=-1) > 0                                 # (J, T)
    own = [jg.names.index(f"assessor:{a}") for a in jg.assessors]
    labels = jg.names + ["aware"]
    order = list(POOLED) + ["aware"] + jg.names[len(POOLED):]
    runs = list(judged.lists.runs)
    per_topic, rows = {}, []
    for spec in specs:
        values = np.where(valid[:, None, :], score_arrays(judged, spec, beta), np.nan)  # (J, R, T)
        with warnings.catch_warnings():   # an all-NaN slice (nothing to average) stays NaN
            warnings.simplefilter("ignore", RuntimeWarning)
            # AWARE, uniform weights: per topic, the mean over the assessors who can score it
            aware = np.nanmean(values[own], axis=0)
            values = np.concatenate([values, aware[None]], axis=0)
            means = np.nanmean(values, axis=-1)                                # (J + 1, R)
        per_topic[spec.name] = values
        for judge in order:
            m = means[labels.index(judge)]
            rows.append(pd.DataFrame({"judge": judge, "run": runs, "measure": spec.name,
                                      "value": m, "rank": _ranks(m)}))
    return per_topic, pd.concat(rows, ignore_index=True), order, labels


def _rank_correlation(board: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    rows = []
    for measure, frame in board.groupby("measure", sort=False):
        by = {j: g["value"].to_numpy() for j, g in frame.groupby("judge", sort=False)}
        ref = by[REFERENCE]
        for judge in order:
            if judge == REFERENCE:
                continue
            x = by[judge]
            ok = np.isfinite(x).all() and np.isfinite(ref).all()
            tau = kendall_tau(ref, x).tau if ok and len(x) >= 3 else np.nan
            ap = tau_ap(ref, x) if ok else np.nan
            top = bool(ok and set(np.flatnonzero(x == x.max())) == set(np.flatnonzero(ref == ref.max())))
            rows.append((judge, measure, REFERENCE, tau, ap, top))
    return pd.DataFrame(rows, columns=["judge", "measure", "reference", "kendall_tau", "tau_ap",
                                       "top1_same"])


def _agreement(jg: JudgeGains) -> pd.DataFrame:
    x = jg.ratings
    item, who = np.nonzero(~np.isnan(x))
    values = x[item, who]
    counts, cats = value_counts(item, values)
    rows = [("alpha_ordinal", alpha_from_counts(counts, cats, "ordinal"),
             f"Krippendorff's alpha, ordinal metric, {len(values)} ratings of {len(x)} items"),
            ("alpha_interval", alpha_from_counts(counts, cats, "interval"),
             "Krippendorff's alpha, interval metric")]
    per_item = (~np.isnan(x)).sum(axis=1)
    if per_item.min() == per_item.max() and per_item.min() >= 2:
        table = np.stack([(x == g).sum(axis=1) for g in range(jg.dmax + 1)], axis=1)
        rows.append(("fleiss_kappa", fleiss_kappa(table),
                     f"every item has {per_item.min()} ratings; categories 0..{jg.dmax}"))
    else:
        rows.append(("fleiss_kappa", np.nan,
                     f"not computed: items have {per_item.min()} to {per_item.max()} ratings "
                     "(Fleiss' kappa needs the same number for every item)"))
    for j, a in enumerate(jg.assessors):
        keep = who != j
        c, k = value_counts(item[keep], values[keep])
        rows.append((f"alpha_without:{a}", alpha_from_counts(c, k, "ordinal"),
                     f"ordinal alpha of the other {len(jg.assessors) - 1} assessors"))
    return pd.DataFrame(rows, columns=["statistic", "value", "note"])


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


def assessors(runs: pd.DataFrame, ratings: pd.DataFrame, *, measures=("nG@1", "P+", "nERR@10"),
              p: float = 0.2, dmax: int | None = None, trials: int = 2000, seed: int = 0,
              alpha: float = 0.05, beta: float = 1.0) -> AssessorReport:
    """Leaderboards, rank correlations, agreement and verdict stability across judges.

    ``runs``: ``run, topic, doc, rank`` (or ``score``), as for
    :func:`evalkit.evaluate.score`; ``ratings``: ``topic, assessor, doc,
    rating`` from two or more assessors.  Every judge is scored with the same
    measures and topics rule as ``evalkit score``: a judge's value for a run
    is its mean over the topics where that judge's ideal gain is positive
    (``assessor:<id>`` thus drops the topics that assessor rated nothing in,
    or rated all 0).  ``aware`` averages the ``assessor:<id>`` scores per
    topic with uniform weights over the assessors who can score the topic (an
    assessor who rated nothing there, or nothing above 0, has no value and is
    left out of that topic's average, not counted as 0); its topics are
    ``all:raw``'s.  The HSD uses ``trials`` permutations from ``seed`` for
    every judge and measure (common random numbers) and ``alpha``.
    """
    check_options(trials, alpha)
    specs = [parse_measure(m) for m in measures]
    if not specs:
        raise InputError("give at least one measure")
    jg = judge_gains(ratings, p, dmax)
    base = judged_gains(runs, [jg.gain_frame(REFERENCE)], _depth(specs, runs))
    names = list(base.lists.runs)
    if len(names) < 2:
        raise InputError("comparing assessors' leaderboards needs at least two runs")
    judged = _stack(base, jg)
    per_topic, board, order, labels = _leaderboards(judged, jg, specs, beta)
    verdicts, hsd_topics = _verdicts(per_topic, labels, jg, names, trials, seed, alpha)
    notes = list(judged.notes)
    empty = [name for name, g in zip(jg.names, judged.padded) if not (g.max(axis=-1) > 0).any()]
    if empty:
        notes.append(f"no topic has an item rated above 0 under {', '.join(empty)}: "
                     "their leaderboards are empty (NaN)")
    scored = int((judged.padded[labels.index(REFERENCE)].max(axis=-1) > 0).sum())
    if hsd_topics < scored:
        notes.append(f"the HSD used the {hsd_topics} topics every leave-one-out judge can score "
                     f"(all:raw scores {scored})")
    return AssessorReport(board, _rank_correlation(board, order), _agreement(jg), verdicts, order,
                          jg.assessors, notes,
                          {"trials": int(trials), "seed": seed, "alpha": alpha, "p": p,
                           "dmax": jg.dmax, "measures": [s.name for s in specs],
                           "topics": scored, "hsd_topics": hsd_topics})


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
