"""Judges' labels as one items x judges grid, and which items each judge shares with its reference.

Every table of ``evalkit agreement`` (``docs/agreement.md``) reads the labels
through :class:`LabelGrid`: the ``(topic, doc)`` items sorted by topic then
document, the judges in the order given, each cell the grade's code on the
scale (-1: not graded).  :func:`overlap_table` says how many of a judge's
items its reference graded too (``--min-overlap``), and :func:`refuse_vanished`
stops, in one line, on a judge that shares none: a judge whose topics are
``49`` against the reference's ``q49`` would otherwise get an empty row and
drop out of the summary.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...errors import InputError, ParameterError
from ..judges.labels import LABEL_COLUMNS, grade_scale

__all__ = ["LabelGrid", "as_grid", "POOLED_REFERENCE", "overlap_table", "refuse_vanished",
           "parse_share"]

#: The ``reference`` of a judge measured against the others pooled.
POOLED_REFERENCE = "others"


class LabelGrid:
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

    def grade_counts(self, judges=None) -> np.ndarray:
        """``(items, K)``: how many of ``judges`` (indices; default all) gave each grade."""
        cols = range(len(self.judges)) if judges is None else judges
        counts = np.zeros((len(self.items), len(self.values)))
        for j in cols:
            rated = np.flatnonzero(self.grid[:, j] >= 0)
            np.add.at(counts, (rated, self.grid[rated, j]), 1.0)
        return counts

    def compared(self, reference: str | None) -> np.ndarray:
        """``(items, judges)`` booleans: the judge graded the item and so did ``reference``
        (or, pooled, at least one other judge)."""
        rated = self.grid >= 0
        if reference is not None:
            return rated & rated[:, [self.index(reference)]]
        return rated & (rated.sum(axis=1, keepdims=True) >= 2)

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


def as_grid(labels) -> LabelGrid:
    """``labels`` as a :class:`LabelGrid` (built once when several tables are made of one frame)."""
    return labels if isinstance(labels, LabelGrid) else LabelGrid(labels)


def parse_share(text) -> float:
    """``--min-overlap``: ``"50%"``, ``"0.5"`` or ``0.5`` -> 0.5 (a share in [0, 1])."""
    raw = str(text).strip()
    try:
        share = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        share = float("nan")
    if not 0.0 <= share <= 1.0:
        raise ParameterError("min-overlap", text, "a share in 0..1 or a percentage, e.g. 0.5 or 50%")
    return share


def overlap_table(labels, reference: str | None, min_overlap: float = 0.5) -> pd.DataFrame:
    """``judge, items, judge_items, overlap, low_overlap``: of the ``judge_items`` a judge
    graded, ``items`` were graded by ``reference`` too (pooled: by another judge);
    ``overlap = items / judge_items``, and ``low_overlap`` when it is below ``min_overlap``."""
    grid = as_grid(labels)
    shared = grid.compared(reference).sum(axis=0)
    own = (grid.grid >= 0).sum(axis=0)
    rows = [(judge, int(shared[j]), int(own[j]), shared[j] / own[j], bool(shared[j] < min_overlap * own[j]))
            for j, judge in enumerate(grid.judges) if judge != reference]
    return pd.DataFrame(rows, columns=["judge", "items", "judge_items", "overlap", "low_overlap"])


def _item(frame: pd.DataFrame, k: int) -> str:
    return f"topic {frame['topic'].iloc[k]}, document {frame['doc'].iloc[k]}"


def _example(grid: LabelGrid, j: int, others: np.ndarray, theirs: str) -> str:
    """One of judge ``j``'s items beside one of ``others``' (items mask): the same document
    under another topic id if there is one, else the same topic, else the first of each."""
    mine, their, whose = grid.items[grid.grid[:, j] >= 0], grid.items[others], theirs
    for key in ("doc", "topic"):
        hit = mine[key].isin(set(their[key]))
        if hit.any():
            k = int(np.flatnonzero(hit.to_numpy())[0])
            match = int(np.flatnonzero((their[key] == mine[key].iloc[k]).to_numpy())[0])
            return f"{_item(mine, k)} against {whose} {_item(their, match)}"
    return f"{_item(mine, 0)} against {whose} {_item(their, 0)}"


def refuse_vanished(labels, reference: str | None) -> None:
    """:class:`~evalkit.errors.InputError` in one line when a judge shares no ``(topic, doc)``
    item with ``reference`` (pooled: with any other judge), naming the judge and one of its
    items beside one of the reference's (e.g. topic ``49`` against ``q49``)."""
    grid = as_grid(labels)
    shared = grid.compared(reference).sum(axis=0)
    rated = grid.grid >= 0
    for j, judge in enumerate(grid.judges):
        if judge == reference or shared[j] > 0:
            continue
        if reference is not None:
            others, whom, theirs = rated[:, grid.index(reference)], reference, f"{reference}'s"
            spelled = f"as {reference} does"
        else:
            others, whom, theirs = rated.sum(axis=1) > rated[:, j], "any other judge", "the others'"
            spelled = "as the other judges do"
        if not others.any():
            raise InputError(f"judge {judge} has no other judge to be compared with")
        raise InputError(f"judge {judge} shares no (topic, doc) item with {whom}: its "
                         f"{_example(grid, j, others, theirs)}",
                         hint=f"spell topics and documents {spelled}, or leave {judge} out")
