"""Gains from judges' labels: one gain per item for ``evalkit score``, every judge's for ``assessors``.

:func:`item_gains` gives each rated item (topic, doc) one gain from
per-assessor ratings (RawG, WG or Sakai's UG), :func:`gains_from_qrels` one
from graded qrels through a gain map (NTCIREVAL's gain values).

For ``evalkit assessors``, each judge gives every rated item (topic, doc) one gain; ``evalkit
assessors`` scores the runs under every judge with the same measures and the
same topics rule as ``evalkit score`` (``docs/assessors.md``):

* ``all:raw``, ``all:wg``, ``all:ug``: RawG, WG and Sakai's UG over every
  rating (Sakai 2017, Eqs. 1-2; :mod:`evalkit.measures.gains`, the values
  :func:`evalkit.evaluate.judges.gains.item_gains` gives ``evalkit score``);
* ``median``: the item's median rating, rounded down;
* ``dawid-skene``: the item's expected grade under a Dawid-Skene model fitted
  to all ratings (:func:`evalkit.stats.dawid_skene.dawid_skene`);
* ``assessor:<id>``: that assessor's rating as the gain (0 where they did not rate);
* ``without:<id>``: RawG over every assessor but that one (leave one out).

``assessor-mean`` is not a gain but the per-topic mean of the
``assessor:<id>`` scores, uniform weights; :mod:`evalkit.evaluate.assessor_study.study`
computes it.  (It was called ``aware``, after Ferrante, Ferro & Maistro 2017,
whose AWARE weighs assessors by their estimated accuracy; with uniform weights
it is just the mean, and is named so.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import InputError, ParameterError
from ...stats.dawid_skene import dawid_skene
from ...measures import gains
from ...measures.gains import check_dmax, check_p, gain_values
from ..columns import rename

__all__ = ["normalise_ratings", "item_gains", "parse_gain_map", "gains_from_qrels", "JudgeGains",
           "judge_gains", "natural_key", "check_options", "POOLED"]

#: Judges that pool every assessor's ratings into one gain, in report order.
POOLED = ("all:raw", "all:wg", "all:ug", "median", "dawid-skene")


def normalise_ratings(ratings: pd.DataFrame, check_repeats: bool = True) -> pd.DataFrame:
    """``topic, assessor, doc, rating`` with whole, non-negative ratings, each judgment once
    (``check_repeats`` False: the caller checks that, as :func:`item_gains` does when two
    ratings share an item)."""
    r = rename(ratings, ("topic", "assessor", "doc", "rating"), what="ratings")
    values = pd.to_numeric(r["rating"], errors="coerce")
    bad = values.isna() | (values != values.round()) | (values < 0)
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        t, a, d, v = r.iloc[i][["topic", "assessor", "doc", "rating"]]
        below = not pd.isna(values.iloc[i]) and values.iloc[i] < 0
        raise InputError(f"{a}'s rating {v!r} of document {d} (topic {t}) is "
                         + ("below 0: gains from several assessors need ratings >= 0"
                            if below else "not a whole number"),
                         hint="give --grades 0:HI --clip to clamp grades below 0 to 0; evalkit "
                              "score reads them as trec_eval does" if below else None)
    r["rating"] = values.astype(np.int64)
    if check_repeats:
        _refuse_repeats(r)
    return r


def _refuse_repeats(r: pd.DataFrame) -> None:
    """An InputError naming the first row that repeats an assessor's rating of an item."""
    dup = r.duplicated(["topic", "assessor", "doc"]).to_numpy()
    if dup.any():
        t, a, d = r.iloc[int(np.flatnonzero(dup)[0])][["topic", "assessor", "doc"]]
        raise InputError(f"assessor {a} rates document {d} of topic {t} twice")


def item_gains(ratings: pd.DataFrame, gain: str = "raw", p: float = 0.2,
               dmax: int | None = None) -> pd.DataFrame:
    """One gain per item (topic, doc) from per-assessor ratings: ``topic, doc, gain, n``.

    ``raw``: RawG_i, the sum of the item's ratings; ``wg``: (1 - D_i/Dmax) RawG_i;
    ``ug``: RawG_i + p N_i (Dmax - D_i) when RawG_i > 0, else 0, with D_i the
    spread (max - min) and N_i the number of ratings the item has (Sakai 2017,
    Eqs. 1-2, computed by :func:`evalkit.measures.gains.gain_values`).
    ``dmax`` defaults to the largest rating seen.
    """
    check_p(p)
    r = normalise_ratings(ratings, check_repeats=False)     # checked in _per_item
    if r.empty:
        raise InputError("no ratings")
    topic, doc, raw, high, low, n = _per_item(r)
    top = int(r["rating"].max())
    dmax = check_dmax(top if dmax is None else dmax)
    if top > dmax:
        raise InputError(f"a rating of {top} is above dmax = {dmax}", hint="raise dmax")
    values = gain_values(gain, raw.astype(float), (high - low).astype(float), n.astype(float),
                         dmax, p)
    return pd.DataFrame({"topic": topic, "doc": doc, "gain": values, "n": n})


def sorted_codes(values) -> tuple[np.ndarray, np.ndarray]:
    """``pd.factorize(values, sort=True)``, faster on text: factorized unsorted, then only the
    distinct values sorted (an object sort; pandas' sorted factorize of strings is ~5x slower)."""
    codes, uniques = pd.factorize(values, sort=False)
    uniques = np.asarray(uniques, dtype=object)
    order = np.argsort(uniques, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[codes], uniques[order]


def _per_item(r: pd.DataFrame):
    """Items (topic, doc) in sorted order with their ratings' sum, max, min and count: the
    aggregation of ``groupby(["topic", "doc"], sort=True)``, by integer codes."""
    t_code, topics = sorted_codes(r["topic"])
    d_code, docs = sorted_codes(r["doc"])
    key = t_code.astype(np.int64) * max(len(docs), 1) + d_code
    items, of = np.unique(key, return_inverse=True)
    order = np.argsort(of, kind="stable")
    n = np.bincount(of, minlength=len(items))
    if len(items) < len(key):                # an item rated twice: by one assessor twice?
        _refuse_repeats(r)
    starts = np.r_[0, np.cumsum(n)[:-1]]
    values = r["rating"].to_numpy(np.int64)[order]
    width = max(len(docs), 1)
    return (np.asarray(topics, dtype=object)[items // width],
            np.asarray(docs, dtype=object)[items % width],
            np.add.reduceat(values, starts), np.maximum.reduceat(values, starts),
            np.minimum.reduceat(values, starts), n.astype(np.int64))


def parse_gain_map(text: str) -> dict[int, float]:
    """``"1:1,2:3"`` -> ``{1: 1.0, 2: 3.0}`` (grade -> gain; grade 0 is always gain 0)."""
    out = {}
    for part in text.split(","):
        grade, sep, value = part.partition(":")
        try:
            out[int(grade)] = float(value)
        except ValueError:
            raise ParameterError("gain-map", text, "GRADE:GAIN pairs such as 1:1,2:3") from None
        if not sep:
            raise ParameterError("gain-map", text, "GRADE:GAIN pairs such as 1:1,2:3")
    return out


def gains_from_qrels(qrels: pd.DataFrame, gain_map: dict[int, float]) -> pd.DataFrame:
    """Item gains from graded qrels through ``gain_map`` (NTCIREVAL's gain values).

    Grade 0 (and below) has gain 0; a positive grade missing from the map is an error.
    """
    q = rename(qrels, ("topic", "doc", "grade"), what="qrels")
    grades = q["grade"].astype(int)
    missing = sorted(set(grades[grades > 0]) - set(gain_map))
    if missing:
        raise InputError(f"grade(s) {missing} have no gain in the gain map",
                         hint="give every positive grade, e.g. --gain-map 1:1,2:3")
    gain = grades.map(lambda g: gain_map.get(g, 0.0) if g > 0 else 0.0).astype(float)
    return pd.DataFrame({"topic": q["topic"], "doc": q["doc"], "gain": gain, "n": 1})


def natural_key(text: str) -> list:
    """Sort key that puts ``a2`` before ``a10``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", str(text))]


@dataclass
class JudgeGains:
    """Every judge's gain for every rated item.

    ``items``: ``topic, doc`` sorted (the order of :func:`item_gains`);
    ``gains``: ``(judges, items)``; ``ratings``: ``(items, assessors)`` with NaN
    where an assessor did not rate; ``assessors``: ids in natural order.
    """

    names: list[str]
    items: pd.DataFrame
    gains: np.ndarray
    ratings: np.ndarray
    assessors: list[str]
    dmax: int
    confusion: np.ndarray | None = None   # Dawid-Skene: [assessor, estimated grade, grade said]
    prior: np.ndarray | None = None       # Dawid-Skene: the grades' prior

    def gain_frame(self, judge: str) -> pd.DataFrame:
        """``topic, doc, gain`` of one judge (the frame ``evalkit score`` would build)."""
        return self.items.assign(gain=self.gains[self.names.index(judge)])


def judge_gains(ratings: pd.DataFrame, p: float = 0.2, dmax: int | None = None) -> JudgeGains:
    """Gains of every judge in :data:`POOLED`, then ``assessor:<id>``, then ``without:<id>``.

    Ratings are checked as ``evalkit score`` checks them
    (:func:`evalkit.evaluate.judges.gains.normalise_ratings`: whole numbers >= 0,
    one rating per assessor and item), and there must be two assessors or more.
    """
    r = normalise_ratings(ratings)
    if r.empty:
        raise InputError("no ratings")
    assessors = sorted(pd.unique(r["assessor"]), key=natural_key)
    if len(assessors) < 2:
        raise InputError(f"only one assessor ({assessors[0]}) in the ratings",
                         hint="comparing assessors needs ratings from two or more")
    codes, keys = pd.factorize(pd.MultiIndex.from_frame(r[["topic", "doc"]]), sort=True)
    items = keys.to_frame(index=False, name=["topic", "doc"])      # sorted as item_gains sorts
    col = pd.Index(assessors).get_indexer(r["assessor"])
    matrix = np.full((len(items), len(assessors)), np.nan)
    matrix[codes, col] = r["rating"].to_numpy(float)
    check_p(p)
    top = int(r["rating"].max())
    dmax = check_dmax(top if dmax is None else dmax)     # as item_gains checks them
    if top > dmax:
        raise InputError(f"a rating of {top} is above dmax = {dmax}", hint="raise dmax")
    # RawG, WG, UG as item_gains computes them (the same values, tested there and here)
    pooled = [gains.raw_gain(matrix), gains.weighted_gain(matrix, dmax),
              gains.unanimity_gain(matrix, dmax, p)]
    filled = np.nan_to_num(matrix, nan=0.0)
    raw = pooled[0]
    median = np.floor(np.nanmedian(matrix, axis=1))
    fit = dawid_skene(codes, col, r["rating"].to_numpy(np.int64), dmax + 1)
    expected = fit.posterior @ np.arange(dmax + 1, dtype=float)
    columns = pooled + [median, expected]
    columns += [filled[:, j] for j in range(len(assessors))]
    columns += [raw - filled[:, j] for j in range(len(assessors))]
    names = (list(POOLED) + [f"assessor:{a}" for a in assessors]
             + [f"without:{a}" for a in assessors])
    return JudgeGains(names, items, np.vstack(columns), matrix, assessors, dmax, fit.confusion,
                      fit.prior)


def check_options(trials: int, alpha: float) -> None:
    """The HSD options of ``evalkit assessors``: ``trials`` >= 1, ``alpha`` in (0, 1)."""
    if isinstance(trials, bool) or int(trials) != trials or trials < 1:
        raise ParameterError("trials", trials, "a whole number >= 1")
    if isinstance(alpha, bool) or not 0 < alpha < 1:
        raise ParameterError("alpha", alpha, "a number in (0, 1)")
