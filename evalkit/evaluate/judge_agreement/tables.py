"""How far judges agree: ``evalkit agreement``, for label sets without runs (``docs/agreement.md``).

Teams comparing LLM judges with human labels (the LLMJudge challenge at
SIGIR 2024, TREC's automatic-judging tracks) have one qrels file per judge
and no runs.  This module reads them (:func:`read_judges`) and measures each
judge against a reference:

* ``reference=NAME``: that judge, on the items both graded;
* ``reference=None``: **the others pooled**.  Every pair (this judge's grade
  of an item, another judge's grade of the same item) is one unit; the
  statistics are those of two raters over these pairs.  Equivalently, the
  judge's confusion matrix against the others is the sum of its confusion
  matrices against each other judge, so an item graded by ``m`` other judges
  counts ``m`` times, and ``items`` counts the items the judge graded that at
  least one other judge graded too.

:func:`agreement_table` gives, per judge, Krippendorff's alpha (ordinal,
interval, nominal) and Cohen's kappa (unweighted, linear, quadratic) on the
scale's grades, and for each cut ``c`` the alpha and kappa of "grade >= c",
each with a 95% percentile bootstrap interval over topics.  Every statistic
is a function of a confusion matrix (:mod:`evalkit.stats.confusion_agreement`),
so the bootstrap adds up per-topic matrices with resampling weights: no
re-fit per replicate.  :func:`reliability_table` and :func:`consensus` come
from a Dawid-Skene model fitted to every judge
(:func:`evalkit.stats.dawid_skene.dawid_skene`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ...errors import InputError, ParameterError
from ...stats.confusion_agreement import (alpha_from_confusion, binary_confusion,
                                          kappa_from_confusion, percentile_interval,
                                          topic_bootstrap)
from ..judges.labels import LABEL_COLUMNS, _declared, _Source, parse_grades, read_labels
from .consensus import consensus, dawid_skene_tables, reliability_table
from .grid import POOLED_REFERENCE, as_grid

__all__ = ["read_judges", "read_judges_clipped_and_raw", "agreement_table", "confusion_table",
           "per_topic_table", "reliability_table", "consensus", "statistic_names",
           "statistic_parts", "statistic_value", "dawid_skene_tables", "AGREEMENT_COLUMNS",
           "POOLED_REFERENCE"]

#: The columns of ``agreement.csv``.
AGREEMENT_COLUMNS = ["judge", "reference", "items", "statistic", "value", "ci_low", "ci_high"]


def read_judges(judges: dict, grades: tuple[int, int] | None = None,
                clip: bool = False) -> tuple[pd.DataFrame, list[str]]:
    """``{name: qrels path}`` -> ``(labels, notes)``: ``labels`` is ``topic, judge, doc, grade``.

    Each file is one judge's TREC qrels.  ``grades=(LO, HI)`` declares the
    scale: a label outside it raises :class:`~evalkit.errors.InputError`
    naming file and line, or is clamped with ``clip=True`` (a note per judge
    says how many).  Without ``grades`` the scale is inferred and a note names
    the judges and lines that set its maximum.  ``labels.attrs["grades"]``
    holds the scale (:func:`evalkit.evaluate.judges.labels.read_labels`).
    """
    return read_labels(judges, None, grades=grades, clip=clip)


def read_judges_clipped_and_raw(judges: dict, grades: tuple[int, int]
                                ) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """``(labels, raw, notes)``: ``read_judges(judges, grades, clip=True)`` and
    ``read_judges(judges)[0]`` from one reading of the files (the same frames and notes).

    ``raw`` keeps the labels as submitted (its scale inferred); ``labels`` are
    them clamped into ``grades`` with the notes :func:`read_judges` gives.
    """
    raw, _ = read_labels(judges, None, grades=None)
    lo, hi = parse_grades(f"{grades[0]}:{grades[1]}")
    names = [str(n) for n in judges]
    code = pd.Index(names).get_indexer(raw["judge"])            # raw is judge after judge, in order
    bounds = np.searchsorted(code, np.arange(len(names) + 1))
    sources = [_Source(name, Path(path), raw.iloc[a:b][["topic", "doc", "grade"]].reset_index(drop=True),
                       np.arange(b - a), "--judge")
               for name, path, a, b in zip(names, judges.values(), bounds[:-1], bounds[1:])]
    notes = _declared(sources, lo, hi, True, f"--grades {lo}:{hi}")
    labels = pd.concat([s.frame.assign(judge=s.judge) for s in sources],
                       ignore_index=True)[LABEL_COLUMNS]
    labels["grade"] = labels["grade"].astype(np.int64)
    labels.attrs["grades"] = (int(lo), int(hi))
    return labels, raw, notes


def statistic_names(cuts) -> list[str]:
    """The statistics of ``agreement.csv`` in order, for these cuts."""
    return (["alpha_ordinal", "alpha_interval", "alpha_nominal", "cohen_kappa", "kappa_linear",
             "kappa_quadratic"] + [f"{kind}_binary>={c}" for c in cuts for kind in ("alpha", "kappa")])


def _statistics(c: np.ndarray, values: np.ndarray, cuts) -> np.ndarray:
    """Every statistic of confusion stacks ``(..., K, K)``: ``(S, ...)`` in :func:`statistic_names` order."""
    out = [alpha_from_confusion(c, values, level) for level in ("ordinal", "interval", "nominal")]
    out += [kappa_from_confusion(c, values, w) for w in (None, "linear", "quadratic")]
    two = np.array([0, 1])
    for cut in cuts:
        b = binary_confusion(c, values, cut)
        out += [alpha_from_confusion(b, two, "nominal"), kappa_from_confusion(b, two, None)]
    return np.stack(out)


#: The statistics of :func:`statistic_names` on the whole scale: ``(family, kind)``.
_WHOLE_SCALE = {"alpha_ordinal": ("alpha", "ordinal"), "alpha_interval": ("alpha", "interval"),
                "alpha_nominal": ("alpha", "nominal"), "cohen_kappa": ("kappa", None),
                "kappa_linear": ("kappa", "linear"), "kappa_quadratic": ("kappa", "quadratic")}


def statistic_parts(name: str, confusion, values) -> tuple[str, object, np.ndarray, np.ndarray]:
    """``(family, kind, confusion, values)`` of the statistic ``name`` of :func:`statistic_names`:
    ``alpha`` with a level or ``kappa`` with weights (``None``: unweighted), on ``confusion``
    ``(..., K, K)`` as given or, for ``*_binary>=c``, reduced to "grade >= c"
    (:func:`evalkit.stats.confusion_agreement.binary_confusion`, grades 0 and 1)."""
    if name in _WHOLE_SCALE:
        return (*_WHOLE_SCALE[name], np.asarray(confusion, dtype=float), np.asarray(values))
    family, sep, cut = name.partition("_binary>=")
    if sep and family in ("alpha", "kappa"):
        binary = binary_confusion(confusion, values, float(cut))
        return family, ("nominal" if family == "alpha" else None), binary, np.array([0, 1])
    raise ParameterError("statistic", name, "a statistic of agreement.csv, e.g. alpha_ordinal")


def statistic_value(name: str, confusion, values) -> np.ndarray:
    """The statistic ``name`` of confusion stacks ``(..., K, K)`` (as in ``agreement.csv``)."""
    family, kind, c, v = statistic_parts(name, confusion, values)
    return alpha_from_confusion(c, v, kind) if family == "alpha" else kappa_from_confusion(c, v, kind)


def _check_cuts(cuts, lo: int, hi: int) -> list[int]:
    if cuts is None:
        return list(range(lo + 1, hi + 1))
    cuts = [cuts] if np.isscalar(cuts) else list(cuts)
    bad = [c for c in cuts if isinstance(c, bool) or int(c) != c or not lo < c <= hi]
    if bad or len(set(cuts)) != len(cuts):
        raise ParameterError("cuts", cuts, f"distinct whole numbers in {lo + 1}..{hi} (the scale is "
                             f"{lo}..{hi}; a cut c makes grades >= c relevant)")
    return [int(c) for c in cuts]


def agreement_table(labels: pd.DataFrame, reference: str | None = None, cuts=None,
                    bootstrap: int = 1000, seed=0) -> pd.DataFrame:
    """``agreement.csv``: ``judge, reference, items, statistic, value, ci_low, ci_high``.

    One row per judge (the reference itself left out) and statistic
    (:func:`statistic_names`): against ``reference``, or against the others
    pooled (module docstring).  ``items``: the items the judge and its
    reference both graded.  Grades are the scale's (``labels.attrs["grades"]``,
    else the lowest to the highest grade): interval alpha and weighted kappa
    use grade differences, ordinal alpha the grades' order.  ``cuts``: each
    ``c`` adds alpha and kappa of "grade >= c" (``lo < c <= hi``); ``None``,
    every grade above the lowest (1, 2, 3 on a 0..3 scale).  The
    interval: the 2.5% and 97.5% percentiles of the statistic over
    ``bootstrap`` replicates, each drawing the topics with replacement
    (:func:`evalkit.stats.confusion_agreement.topic_bootstrap` from ``seed``);
    NaN (empty in the CSV) with ``bootstrap=0``.
    """
    grid = as_grid(labels)
    cuts = _check_cuts(cuts, grid.lo, grid.hi)
    if isinstance(bootstrap, bool) or int(bootstrap) != bootstrap or bootstrap < 0:
        raise ParameterError("bootstrap", bootstrap, "a whole number >= 0")
    if reference is None and len(grid.judges) < 2:
        raise InputError("agreement needs two judges or more")
    per_topic, items = grid.confusions(reference)
    value = _statistics(per_topic.sum(axis=0), grid.values, cuts)                 # (S, J)
    low = high = np.full_like(value, np.nan)
    if bootstrap:
        weights = topic_bootstrap(len(grid.topics), int(bootstrap), seed)         # (B, T)
        stacks = np.tensordot(weights.astype(float), per_topic, axes=(1, 0))     # (B, J, K, K)
        low, high = percentile_interval(np.moveaxis(_statistics(stacks, grid.values, cuts), 1, 0))
    names = statistic_names(cuts)
    ref_name = POOLED_REFERENCE if reference is None else reference
    rows = [(judge, ref_name, int(items[j]), s, value[k, j], low[k, j], high[k, j])
            for j, judge in enumerate(grid.judges) if judge != reference
            for k, s in enumerate(names)]
    return pd.DataFrame(rows, columns=AGREEMENT_COLUMNS)


def confusion_table(labels: pd.DataFrame, reference: str | None = None) -> pd.DataFrame:
    """``confusion.csv``: ``judge, reference, reference_grade, judge_grade, count`` for every
    judge and pair of grades (zeros included); ``reference=None``: the others pooled, where a
    count is of (judge, other judge) pairs of grades of one item."""
    grid = as_grid(labels)
    per_topic, _ = grid.confusions(reference)
    total = per_topic.sum(axis=0)
    k = len(grid.values)
    rows = [(judge, POOLED_REFERENCE if reference is None else reference, int(grid.values[a]),
             int(grid.values[b]), int(round(total[j, a, b])))
            for j, judge in enumerate(grid.judges) if judge != reference
            for a in range(k) for b in range(k)]
    return pd.DataFrame(rows, columns=["judge", "reference", "reference_grade", "judge_grade",
                                       "count"])


def per_topic_table(labels: pd.DataFrame, reference: str | None = None, cuts=None
                    ) -> tuple[pd.DataFrame, list[str]]:
    """``(scores, notes)``: ``per_topic.csv`` in evalkit's scores format, ``run, measure,
    topic, value`` with run = judge and measure = statistic: each statistic of
    :func:`agreement_table` on each topic's items alone, for ``evalkit compare --scores``.

    ``compare`` needs every run scored on the same topics, so a topic where a statistic is
    undefined for some judge (one grade only, or no item shared with the reference) is left
    out of that statistic for every judge; ``notes`` say which.
    """
    grid = as_grid(labels)
    cuts = _check_cuts(cuts, grid.lo, grid.hi)
    per_topic, _ = grid.confusions(reference)
    judges = [j for j, name in enumerate(grid.judges) if name != reference]
    values = _statistics(per_topic[:, judges], grid.values, cuts)                # (S, T, J')
    topics = np.asarray(grid.topics, dtype=object)
    names = np.asarray([grid.judges[j] for j in judges], dtype=object)
    parts, notes = [], []
    for name, v in zip(statistic_names(cuts), values):
        ok = np.isfinite(v).all(axis=1)
        if not ok.all():
            gone = topics[~ok]
            notes.append(f"per_topic.csv: {name} leaves out {len(gone)} of {len(topics)} topics, "
                         f"undefined for some judge there (one grade only, or no item shared): "
                         + ", ".join(map(str, gone[:10])) + (" ..." if len(gone) > 10 else ""))
        parts.append((name, ok, v[ok]))                                          # (T', J')
    run = np.concatenate([np.repeat(names, ok.sum()) for _, ok, _ in parts])
    measure = np.concatenate([np.full(len(names) * ok.sum(), name, dtype=object)
                              for name, ok, _ in parts])
    topic = np.concatenate([np.tile(topics[ok], len(names)) for _, ok, _ in parts])
    value = np.concatenate([v.T.ravel() for _, _, v in parts])
    scores = pd.DataFrame({"run": run, "measure": measure, "topic": topic, "value": value})
    order = {name: k for k, name in enumerate(names)}
    scores = scores.sort_values("run", key=lambda r: r.map(order), kind="stable")
    return scores.reset_index(drop=True), notes
