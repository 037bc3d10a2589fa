"""Gain values from the ratings of several assessors (Sakai, EVIA 2017, §2–3).

Each function takes ``ratings``, an ``items x assessors`` integer array whose
entries lie in ``0..dmax``, and returns one gain per item (a float array).

* :func:`raw_gain` — the sum of the ratings (``RawG_i``), as used by the
  NTCIR-12 STC Japanese subtask.
* :func:`weighted_gain` — Li & Yoshikawa's confusability weighting
  (Sakai's Eq. 1): ``WG_i = (1 - D_i / dmax) RawG_i``.
* :func:`unanimity_gain` — Sakai's unanimity-aware gain (Eq. 2):
  ``UG_i = RawG_i + p N (dmax - D_i)`` if ``RawG_i > 0``, else 0.

Here ``D_i = max - min`` of item ``i``'s ratings and ``N`` the number of
assessors.  Table 1 of the paper is reproduced by ``tests/test_gains.py``.
"""

from __future__ import annotations

import numpy as np

from .errors import InputError, ParameterError

__all__ = ["raw_gain", "weighted_gain", "unanimity_gain", "rating_spread"]


def _check_ratings(ratings, dmax: int | None = None) -> np.ndarray:
    r = np.asarray(ratings)
    if r.ndim != 2:
        raise InputError(
            f"ratings must be a 2-D items x assessors array, got shape {r.shape}"
        )
    if r.shape[1] == 0:
        raise InputError("ratings has no assessor column (N = 0)")
    if not np.issubdtype(r.dtype, np.integer):
        if not np.issubdtype(r.dtype, np.floating) or not np.all(
            np.isfinite(r) & (r == np.round(r))
        ):
            raise InputError("ratings must be whole numbers (no NaN, no fractions)")
        r = r.astype(np.int64)
    if dmax is not None:
        if isinstance(dmax, bool) or not float(dmax).is_integer() or dmax < 1:
            raise ParameterError("dmax", dmax, "a whole number >= 1")
        bad = (r < 0) | (r > dmax)
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise InputError(
                f"rating {r[i, j]} of item {i}, assessor {j} is outside 0..{dmax}",
                hint="check dmax or the ratings",
            )
    elif r.size and r.min() < 0:
        raise InputError("ratings must be >= 0")
    return r


def rating_spread(ratings) -> np.ndarray:
    """``D_i = max_j r_ij - min_j r_ij``, the disagreement of item ``i``."""
    r = _check_ratings(ratings)
    return (r.max(axis=1) - r.min(axis=1)).astype(np.int64)


def raw_gain(ratings) -> np.ndarray:
    """``RawG_i = sum_j r_ij`` (Sakai 2017, §2.3)."""
    r = _check_ratings(ratings)
    return r.sum(axis=1).astype(float)


def weighted_gain(ratings, dmax: int) -> np.ndarray:
    """Li & Yoshikawa's weighting, Sakai's Eq. 1: ``(1 - D_i/dmax) RawG_i``."""
    r = _check_ratings(ratings, dmax)
    d = r.max(axis=1) - r.min(axis=1)
    return (1.0 - d / dmax) * r.sum(axis=1)


def unanimity_gain(ratings, dmax: int, p: float = 0.2) -> np.ndarray:
    """Unanimity-aware gain, Sakai's Eq. 2.

    ``UG_i = RawG_i + p N (dmax - D_i)`` if ``RawG_i > 0``, otherwise 0, with
    ``N`` the number of assessors and ``0 <= p <= 1``.  An item every assessor
    rated 0 stays at 0; a perfectly unanimous item gets ``p N dmax`` extra, as
    if ``pN`` more assessors had given it the top rating.
    """
    if isinstance(p, bool) or not np.isfinite(p) or not 0.0 <= p <= 1.0:
        raise ParameterError("p", p, "a number in [0, 1]")
    r = _check_ratings(ratings, dmax)
    n = r.shape[1]
    raw = r.sum(axis=1).astype(float)
    d = r.max(axis=1) - r.min(axis=1)
    return np.where(raw > 0, raw + p * n * (dmax - d), 0.0)
