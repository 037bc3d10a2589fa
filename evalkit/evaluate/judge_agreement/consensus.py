"""One grade per item from many judges: the consensus qrels of ``evalkit agreement --consensus``.

``docs/agreement.md``, "Consensus".  Four rules, each over the judges that
enter (by default every judge but ``--reference``: a consensus of the LLM
judges measured against the humans must not contain the humans), on the
items at least one of them graded:

* ``majority``: the most frequent grade; a tie goes to the lower grade;
* ``median``: the lower median (of an even count, the lower of the two
  middle grades);
* ``mean``: the mean grade rounded to the nearest grade, halves down
  (``ceil(mean - 1/2)``, in whole numbers: no rounding error);
* ``dawid-skene``: the most likely grade under a Dawid-Skene model fitted to
  the entering judges (:func:`evalkit.stats.dawid_skene.dawid_skene`; Dawid &
  Skene 1979), ties to the lower grade.

:func:`reliability_table` and :func:`consensus` fit Dawid-Skene to every
judge given (``reliability.csv``: each judge's chance of each grade given
the estimated grade).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...errors import ParameterError
from .grid import LabelGrid, as_grid

__all__ = ["CONSENSUS_METHODS", "consensus_table", "entering_judges", "reliability_table",
           "consensus", "dawid_skene_tables"]

#: The rules of ``--consensus``, in the order they are written.
CONSENSUS_METHODS = ("majority", "median", "mean", "dawid-skene")


def entering_judges(labels, reference: str | None, with_reference: bool = False) -> list[str]:
    """The judges a consensus is made of: every judge, ``reference`` left out unless
    ``with_reference``."""
    grid = as_grid(labels)
    if reference is not None:
        grid.index(reference)
    return [j for j in grid.judges if with_reference or j != reference]


def _fit(grid: LabelGrid, cols: list[int], items: np.ndarray | None = None):
    """Dawid-Skene over the judges ``cols`` on ``items`` (indices; default every item one of
    them graded), items coded 0.. in grid order."""
    from ...stats.dawid_skene import dawid_skene

    sub = grid.grid[:, cols]
    if items is None:
        items = np.flatnonzero((sub >= 0).any(axis=1))
    ii, jj = np.nonzero(sub[items] >= 0)
    fit = dawid_skene(ii, jj, sub[items][ii, jj], len(grid.values))
    return items, fit


def consensus_table(labels, method: str, judges=None) -> pd.DataFrame:
    """``topic, doc, grade``: one grade per item by ``method`` (module docstring) over
    ``judges`` (names; default all), for the items at least one of them graded, sorted by
    topic then document (as text).  Grades are the scale's (``labels.attrs["grades"]``)."""
    if method not in CONSENSUS_METHODS:
        raise ParameterError("consensus", method, "one of " + ", ".join(CONSENSUS_METHODS))
    grid = as_grid(labels)
    names = grid.judges if judges is None else list(judges)
    cols = [grid.judges.index(j) for j in names]
    converged = True
    if method == "dawid-skene":
        items, fit = _fit(grid, cols)
        code = fit.posterior.argmax(axis=1)                    # first of equals: the lower grade
        converged = bool(fit.converged)
    else:
        counts = grid.grade_counts(cols)                       # (items, K)
        n = counts.sum(axis=1)
        items = np.flatnonzero(n > 0)
        counts, n = counts[items], n[items].astype(np.int64)
        if method == "majority":
            code = counts.argmax(axis=1)                       # first of equals: the lower grade
        elif method == "median":
            # the ceil(n/2)-th smallest grade: the median, or the lower middle one of an even n
            code = (counts.cumsum(axis=1) < ((n + 1) // 2)[:, None]).sum(axis=1)
        else:
            total = (counts * np.arange(counts.shape[1])).sum(axis=1).astype(np.int64)
            code = -((n - 2 * total) // (2 * n))               # ceil((2 total - n) / 2n)
    frame = pd.DataFrame({"topic": grid.items["topic"].to_numpy()[items],
                          "doc": grid.items["doc"].to_numpy()[items],
                          "grade": grid.values[code].astype(np.int64)})
    frame.attrs.update(method=method, judges=list(names), converged=converged)
    return frame


def _reliability(grid: LabelGrid, fit) -> pd.DataFrame:
    k = len(grid.values)
    rows = [(judge, int(grid.values[b]), int(grid.values[a]), float(fit.confusion[j, a, b]))
            for j, judge in enumerate(grid.judges) for a in range(k) for b in range(k)]
    frame = pd.DataFrame(rows, columns=["judge", "grade", "estimated_grade", "probability"])
    frame.attrs.update(converged=bool(fit.converged), iterations=int(fit.iterations))
    return frame


def _most_likely(grid: LabelGrid, fit) -> pd.DataFrame:
    best = fit.posterior.argmax(axis=1)
    return pd.DataFrame({"topic": grid.items["topic"], "doc": grid.items["doc"],
                         "grade": grid.values[best].astype(np.int64),
                         "probability": fit.posterior[np.arange(len(best)), best]})


def _fit_all(labels):
    grid = as_grid(labels)
    return grid, _fit(grid, list(range(len(grid.judges))), np.arange(len(grid.items)))[1]


def dawid_skene_tables(labels) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`reliability_table` and :func:`consensus` from one Dawid-Skene fit."""
    grid, fit = _fit_all(labels)
    return _reliability(grid, fit), _most_likely(grid, fit)


def reliability_table(labels) -> pd.DataFrame:
    """``reliability.csv``: ``judge, grade, estimated_grade, probability`` from Dawid-Skene.

    ``probability`` is the fitted chance that the judge gives ``grade`` to
    an item whose grade (the latent class, estimated from every judge) is
    ``estimated_grade``; each judge's rows for one ``estimated_grade`` sum to
    1.  A reliable judge has most of its mass where ``grade ==
    estimated_grade``; one who labels at random spreads it evenly.
    """
    return _reliability(*_fit_all(labels))


def consensus(labels) -> pd.DataFrame:
    """``topic, doc, grade, probability``: each item's most likely grade under Dawid-Skene
    fitted to every judge in ``labels`` (ties to the lower grade) and its posterior."""
    return _most_likely(*_fit_all(labels))
