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
from ..judges.labels import LABEL_COLUMNS, _declared, _Source, grade_scale, parse_grades, read_labels

__all__ = ["read_judges", "read_judges_clipped_and_raw", "agreement_table", "confusion_table",
           "reliability_table", "consensus", "statistic_names", "dawid_skene_tables",
           "AGREEMENT_COLUMNS", "POOLED_REFERENCE"]

#: The columns of ``agreement.csv``.
AGREEMENT_COLUMNS = ["judge", "reference", "items", "statistic", "value", "ci_low", "ci_high"]
#: The ``reference`` of a judge measured against the others pooled.
POOLED_REFERENCE = "others"


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


class _Grid:
    """Labels as an ``items x judges`` matrix of grade codes (-1: not graded)."""

    def __init__(self, labels: pd.DataFrame):
        missing = [c for c in LABEL_COLUMNS if c not in labels.columns]
        if missing:
            raise InputError(f"labels have no {', '.join(missing)} column(s)",
                             hint="columns topic, judge, doc, grade (read_judges gives them)")
        if labels.empty:
            raise InputError("no labels")
        self.lo, self.hi = grade_scale(labels)
        g = labels["grade"].to_numpy()
        if (g < self.lo).any() or (g > self.hi).any():
            raise InputError(f"a grade outside the scale {self.lo}..{self.hi}",
                             hint="read the labels with read_judges(..., grades=..., clip=True)")
        self.values = np.arange(self.lo, self.hi + 1)
        self.judges = [str(j) for j in pd.unique(labels["judge"])]
        # items (topic, doc) sorted by topic then document, from two factorisations (a
        # MultiIndex factorisation took half a second on 150,000 labels)
        t_code, topics = pd.factorize(labels["topic"].astype(str), sort=True)
        d_code, docs = pd.factorize(labels["doc"].astype(str), sort=True)
        keys, codes = np.unique(t_code.astype(np.int64) * len(docs) + d_code, return_inverse=True)
        self.items = pd.DataFrame({"topic": np.asarray(topics, dtype=object)[keys // len(docs)],
                                   "doc": np.asarray(docs, dtype=object)[keys % len(docs)]})
        self.topic_code, self.topics = pd.factorize(self.items["topic"], sort=True)
        codes = codes.ravel()
        col = pd.Index(self.judges).get_indexer(labels["judge"].astype(str))
        cell = codes.astype(np.int64) * len(self.judges) + col
        if len(np.unique(cell)) < len(cell):
            first = int(np.flatnonzero(pd.Series(cell).duplicated().to_numpy())[0])
            t, j, d = labels.iloc[first][["topic", "judge", "doc"]]
            raise InputError(f"judge {j} grades document {d} of topic {t} twice")
        self.codes, self.col = codes, col
        self.grid = np.full((len(self.items), len(self.judges)), -1, dtype=np.int64)
        self.grid[codes, col] = g - self.lo

    def index(self, judge: str) -> int:
        if judge not in self.judges:
            raise InputError(f"reference {judge} is not one of the judges",
                             hint="judges: " + ", ".join(self.judges[:20]))
        return self.judges.index(judge)

    def confusions(self, reference: str | None) -> tuple[np.ndarray, np.ndarray]:
        """Per-topic confusion matrices ``(T, J, K, K)`` (rows: reference grade, columns:
        the judge's) and each judge's item count, against ``reference`` or the others pooled."""
        n_t, n_j, k = len(self.topics), len(self.judges), len(self.values)
        size = n_t * n_j * k * k
        ii, jj = np.nonzero(self.grid >= 0)
        t, own = self.topic_code[ii], self.grid[ii, jj]
        base = (t * n_j + jj) * k
        if reference is not None:
            r = self.index(reference)
            ref = self.grid[ii, r]
            keep = ref >= 0
            flat = (base[keep] + ref[keep]) * k + own[keep]
            counts = np.bincount(flat, minlength=size).astype(float)
            items = np.bincount(jj[keep], minlength=n_j)
        else:
            per_item = np.zeros((len(self.items), k))
            np.add.at(per_item, (ii, own), 1.0)
            others = per_item[ii]                                   # (P, K), the judge included
            flat = (base[:, None] + np.arange(k)[None, :]) * k + own[:, None]
            counts = np.bincount(flat.ravel(), weights=others.ravel(), minlength=size)
            counts -= np.bincount((base + own) * k + own, minlength=size)   # not against itself
            items = np.bincount(jj[per_item[ii].sum(axis=1) >= 2], minlength=n_j)
        return counts.reshape(n_t, n_j, k, k), items


def _as_grid(labels) -> _Grid:
    """``labels`` as a :class:`_Grid` (built once when several tables are made of one frame)."""
    return labels if isinstance(labels, _Grid) else _Grid(labels)


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
    grid = _as_grid(labels)
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
    grid = _as_grid(labels)
    per_topic, _ = grid.confusions(reference)
    total = per_topic.sum(axis=0)
    k = len(grid.values)
    rows = [(judge, POOLED_REFERENCE if reference is None else reference, int(grid.values[a]),
             int(grid.values[b]), int(round(total[j, a, b])))
            for j, judge in enumerate(grid.judges) if judge != reference
            for a in range(k) for b in range(k)]
    return pd.DataFrame(rows, columns=["judge", "reference", "reference_grade", "judge_grade",
                                       "count"])


def _dawid_skene(labels: pd.DataFrame):
    from ...stats.dawid_skene import dawid_skene

    grid = _as_grid(labels)
    fit = dawid_skene(grid.codes, grid.col, grid.grid[grid.codes, grid.col], len(grid.values))
    return grid, fit


def _reliability(grid: _Grid, fit) -> pd.DataFrame:
    k = len(grid.values)
    rows = [(judge, int(grid.values[b]), int(grid.values[a]), float(fit.confusion[j, a, b]))
            for j, judge in enumerate(grid.judges) for a in range(k) for b in range(k)]
    frame = pd.DataFrame(rows, columns=["judge", "grade", "estimated_grade", "probability"])
    frame.attrs.update(converged=bool(fit.converged), iterations=int(fit.iterations))
    return frame


def _consensus(grid: _Grid, fit) -> pd.DataFrame:
    best = fit.posterior.argmax(axis=1)
    return pd.DataFrame({"topic": grid.items["topic"], "doc": grid.items["doc"],
                         "grade": grid.values[best].astype(np.int64),
                         "probability": fit.posterior[np.arange(len(best)), best]})


def dawid_skene_tables(labels: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`reliability_table` and :func:`consensus` from one Dawid-Skene fit."""
    grid, fit = _dawid_skene(labels)
    return _reliability(grid, fit), _consensus(grid, fit)


def reliability_table(labels: pd.DataFrame) -> pd.DataFrame:
    """``reliability.csv``: ``judge, grade, estimated_grade, probability`` from Dawid-Skene.

    ``probability`` is the fitted chance that the judge gives ``grade`` to
    an item whose grade (the latent class, estimated from every judge) is
    ``estimated_grade``; each judge's rows for one ``estimated_grade`` sum to
    1.  A reliable judge has most of its mass where ``grade ==
    estimated_grade``; one who labels at random spreads it evenly.
    """
    return _reliability(*_dawid_skene(labels))


def consensus(labels: pd.DataFrame) -> pd.DataFrame:
    """``topic, doc, grade, probability``: each item's most likely grade under Dawid-Skene
    (ties to the lower grade) and its posterior probability; ``consensus.txt`` as qrels."""
    return _consensus(*_dawid_skene(labels))
