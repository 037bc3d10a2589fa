"""Krippendorff's alpha: agreement among any number of assessors, items rated unequally often.

Used by ``evalkit assessors`` (``docs/assessors.md``) to say how far the
assessors behind a leaderboard agree.  Unlike Fleiss' kappa
(:func:`evalkit.stats.agreement.fleiss_kappa`), alpha needs no fixed number
of ratings per item, and its ordinal and interval metrics respect that a 2
is nearer a 1 than a 0 (Krippendorff 2011, *Computing Krippendorff's
Alpha-Reliability*, Annenberg School for Communication, University of
Pennsylvania; Krippendorff 2004, *Content Analysis*, 2nd ed., ch. 11).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import InputError, ParameterError

__all__ = ["LEVELS", "krippendorff_alpha", "alpha_from_counts", "value_counts"]

#: Metrics of difference offered (Krippendorff 2011, section C).
LEVELS = ("nominal", "ordinal", "interval")


def value_counts(units, values) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, categories)``: ``counts[u, c]`` is how many ratings of unit ``u`` have value ``c``.

    ``units`` and ``values`` are paired sequences, one entry per rating;
    ``categories`` are the distinct values, sorted.
    """
    units, values = np.asarray(units), np.asarray(values, dtype=float)
    if units.shape != values.shape or units.ndim != 1:
        raise InputError(f"units and values must be paired, got {units.shape} and {values.shape}")
    if not units.size:
        return np.zeros((0, 0)), np.unique(values)
    unit_code, n_units = _codes(units)
    if np.isfinite(values).all():     # the codes np.unique's inverse gives, without its argsort
        categories = np.unique(values)
        value_code = np.searchsorted(categories, values)
    else:
        categories, value_code = np.unique(values, return_inverse=True)
    flat = unit_code * len(categories) + value_code.ravel()
    return (np.bincount(flat, minlength=n_units * len(categories))
            .reshape(n_units, len(categories)).astype(float)), categories


def _codes(units: np.ndarray) -> tuple[np.ndarray, int]:
    """Each unit's rank among the distinct units (``np.unique``'s inverse) and how many there are.

    Whole-number units (item indices) are ranked by a table of which occur, in
    linear time; others by ``np.unique``.
    """
    if units.dtype.kind in "iu" and units.min() >= 0 and units.max() <= 4 * units.size:
        seen = np.zeros(int(units.max()) + 1, dtype=np.int64)
        seen[units] = 1
        rank = np.cumsum(seen) - 1
        return rank[units], int(rank[-1]) + 1
    distinct, code = np.unique(units, return_inverse=True)
    return code.ravel(), len(distinct)


def _coincidences(counts: np.ndarray, m: np.ndarray) -> np.ndarray:
    """``o_ck`` summed exactly: within each group of units with the same ``m_u`` the sums
    ``sum_u n_uc n_uk`` are whole numbers (exact in any order), divided by ``m - 1`` and
    added in the order of ``m``. The value then does not depend on the order of the units,
    so the same units in any order give the same bits (a sum of fractions in unit order
    did not: a fresh clone's reproduction rewrote last digits)."""
    sizes, group = np.unique(m, return_inverse=True)
    o = np.zeros((counts.shape[1], counts.shape[1]))
    order = np.argsort(group, kind="stable")
    bounds = np.r_[0, np.cumsum(np.bincount(group, minlength=len(sizes)))]
    for g, size in enumerate(sizes):
        c = counts[order[bounds[g]:bounds[g + 1]]]
        o += (c.T @ c - np.diag(c.sum(axis=0))) / (size - 1.0)
    return o


def _delta_squared(categories: np.ndarray, marginals: np.ndarray, level: str) -> np.ndarray:
    c = categories[:, None]
    k = categories[None, :]
    if level == "nominal":
        return (c != k).astype(float)
    if level == "interval":
        return (c - k) ** 2
    # ordinal: (sum_{g=c}^{k} n_g - (n_c + n_k) / 2)^2, categories in rank order
    cum = np.concatenate([[0.0], np.cumsum(marginals)])
    i = np.arange(len(categories))
    lo, hi = np.minimum.outer(i, i), np.maximum.outer(i, i)
    between = cum[hi + 1] - cum[lo]
    return (between - (marginals[lo] + marginals[hi]) / 2.0) ** 2


def alpha_from_counts(counts, categories, level: str = "ordinal") -> float:
    """Krippendorff's alpha from a ``units x categories`` count matrix.

    With ``m_u`` the ratings of unit ``u`` (units with ``m_u < 2`` are not
    pairable and are left out), the coincidences are
    ``o_ck = sum_u n_uc (n_uk - [c = k]) / (m_u - 1)``, the marginals
    ``n_c = sum_k o_ck`` and ``n = sum_c n_c``; then::

        alpha = 1 - (n - 1) sum_{c,k} o_ck delta2_ck / sum_{c,k} n_c n_k delta2_ck

    with ``delta2`` nominal (``[c != k]``), interval (``(c - k)^2``) or ordinal
    (``(sum_{g=c..k} n_g - (n_c + n_k)/2)^2``) (Krippendorff 2011, sections
    B-C).  NaN when the expected disagreement is 0 (every pairable value the
    same) or no unit is pairable.
    """
    if level not in LEVELS:
        raise ParameterError("level", level, f"one of {', '.join(LEVELS)}")
    counts = np.asarray(counts, dtype=float)
    categories = np.asarray(categories, dtype=float)
    if counts.ndim != 2 or counts.shape[1] != categories.size:
        raise InputError(f"counts must be units x {categories.size} categories, got {counts.shape}")
    m = counts.sum(axis=1)
    counts = counts[m >= 2]
    m = m[m >= 2]
    if not len(m):
        return float("nan")
    o = _coincidences(counts, m)
    marginals = o.sum(axis=1)
    n = marginals.sum()
    d2 = _delta_squared(categories, marginals, level)
    # the two small sums correctly rounded (math.fsum): a BLAS product's order of addition
    # may differ from run to run, and so did the last digit of a reproduction's alpha
    expected = math.fsum((np.outer(marginals, marginals) * d2).ravel().tolist())
    if expected <= 0:
        return float("nan")
    return float(1.0 - (n - 1.0) * math.fsum((o * d2).ravel().tolist()) / expected)


def krippendorff_alpha(data, level: str = "ordinal") -> float:
    """Krippendorff's alpha of an ``items x assessors`` matrix (NaN = not rated).

    Items may have any number of ratings; see :func:`alpha_from_counts` for
    the formula.  Equal to the ``krippendorff`` package's
    ``alpha(reliability_data=data.T, level_of_measurement=level)`` (tested)
    and to Krippendorff's (2011) worked example.
    """
    x = np.asarray(data, dtype=float)
    if x.ndim != 2:
        raise InputError(f"ratings must be an items x assessors matrix, got shape {x.shape}")
    item, _ = np.nonzero(~np.isnan(x))
    counts, categories = value_counts(item, x[~np.isnan(x)])
    return alpha_from_counts(counts, categories, level)
