"""Judges for ``evalkit assessors``: the ways of turning several assessors' ratings into gains.

Each judge gives every rated item (topic, doc) one gain; ``evalkit
assessors`` scores the runs under every judge with the same measures and the
same topics rule as ``evalkit score`` (``docs/assessors.md``):

* ``all:raw``, ``all:wg``, ``all:ug``: RawG, WG and Sakai's UG over every
  rating (Sakai 2017, Eqs. 1-2; :mod:`evalkit.measures.gains`, the values
  :func:`evalkit.evaluate.inputs.item_gains` gives ``evalkit score``);
* ``median``: the item's median rating, rounded down;
* ``dawid-skene``: the item's expected grade under a Dawid-Skene model fitted
  to all ratings (:func:`evalkit.stats.dawid_skene.dawid_skene`);
* ``assessor:<id>``: that assessor's rating as the gain (0 where they did not rate);
* ``without:<id>``: RawG over every assessor but that one (leave one out).

``assessor-mean`` is not a gain but the per-topic mean of the
``assessor:<id>`` scores, uniform weights; :mod:`evalkit.evaluate.assessor_study`
computes it.  (It was called ``aware``, after Ferrante, Ferro & Maistro 2017,
whose AWARE weighs assessors by their estimated accuracy; with uniform weights
it is just the mean, and is named so.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import InputError, ParameterError
from ..stats.dawid_skene import dawid_skene
from ..measures import gains
from ..measures.gains import check_dmax, check_p
from .inputs import normalise_ratings

__all__ = ["JudgeGains", "judge_gains", "natural_key", "check_options", "POOLED"]

#: Judges that pool every assessor's ratings into one gain, in report order.
POOLED = ("all:raw", "all:wg", "all:ug", "median", "dawid-skene")


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
    (:func:`evalkit.evaluate.inputs.normalise_ratings`: whole numbers >= 0,
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
