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
assessors.  Table 1 of the paper is reproduced by ``tests/measures/test_gains.py``.

**Missing ratings.** A rating may be ``NaN`` (an ``NA`` in the STC-ja dev
set): it is left out of the item's sum, spread and count, so Eq. 2 becomes
``UG_i = RawG_i + p N_i (dmax - D_i)`` with ``N_i`` the item's number of
ratings.  Both terms then shrink with ``N_i``: an item rated by fewer
assessors gets a smaller raw gain *and* a smaller unanimity bonus, and its
spread is measured over fewer ratings (so it looks more unanimous).  An item
with no rating at all is an error.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError, ParameterError

__all__ = ["GAINS", "raw_gain", "weighted_gain", "unanimity_gain", "raw_and_unanimity_gain",
           "rating_spread", "gain_values", "check_dmax", "check_p"]

#: The gains by short name (``evalkit score --gain``): RawG, WG (Eq. 1), UG (Eq. 2).
GAINS = ("raw", "wg", "ug")


def check_dmax(dmax) -> int:
    """``dmax``, the highest rating an assessor can give, as an int; a whole number >= 1."""
    if isinstance(dmax, (bool, np.bool_)) or not float(dmax).is_integer() or dmax < 1:
        raise ParameterError("dmax", dmax, "a whole number >= 1")
    return int(dmax)


def check_p(p) -> float:
    """UG's weight ``p`` of unanimity (Sakai's Eq. 2), a number in [0, 1]."""
    if isinstance(p, (bool, np.bool_)) or not np.isfinite(p) or not 0.0 <= p <= 1.0:
        raise ParameterError("p", p, "a number in [0, 1]")
    return p


def gain_values(gain: str, raw, spread, n, dmax: int | None = None, p: float = 0.2) -> np.ndarray:
    """Each item's gain from its sum ``RawG_i``, spread ``D_i`` and number of ratings ``N_i``.

    ``raw``: ``RawG_i``; ``wg``: ``(1 - D_i/dmax) RawG_i`` (Li & Yoshikawa, Sakai's
    Eq. 1); ``ug``: ``RawG_i + p N_i (dmax - D_i)`` if ``RawG_i > 0``, else 0
    (Sakai's Eq. 2).  The one implementation of the three formulas:
    :func:`raw_gain`, :func:`weighted_gain`, :func:`unanimity_gain` and
    ``evalkit score`` (:func:`evalkit.evaluate.judges.gains.item_gains`) call it.
    """
    if gain not in GAINS:
        raise ParameterError("gain", gain, f"one of {', '.join(GAINS)}")
    raw = np.asarray(raw, dtype=float)
    if gain == "raw":
        return raw
    dmax = check_dmax(dmax)
    if gain == "wg":
        return (1.0 - spread / dmax) * raw
    return np.where(raw > 0, raw + check_p(p) * n * (dmax - spread), 0.0)


def _check_ratings(ratings, dmax: int | None = None) -> np.ndarray:
    """Validate ratings.

    Returns an integer array when no rating is missing (the fast, common path)
    and a float array with NaN for missing ratings otherwise.
    """
    r = np.asarray(ratings)
    if r.ndim != 2:
        raise InputError(
            f"ratings must be a 2-D items x assessors array, got shape {r.shape}"
        )
    if r.shape[1] == 0:
        raise InputError("ratings has no assessor column (N = 0)")
    if np.issubdtype(r.dtype, np.floating):
        present = ~np.isnan(r)
        values = r[present]
        if not np.all(np.isfinite(values) & (values == np.round(values))):
            raise InputError("ratings must be whole numbers or NaN (missing); "
                             "found a fraction or infinity")
        empty = ~present.any(axis=1)
        if empty.any():
            raise InputError(f"item {int(np.flatnonzero(empty)[0])} has no rating at all")
        if present.all():
            r = r.astype(np.int64)
    elif not np.issubdtype(r.dtype, np.integer):
        raise InputError(f"ratings must be numbers, got dtype {r.dtype}")
    if dmax is not None:
        check_dmax(dmax)
    low, high = (np.nanmin(r), np.nanmax(r)) if r.size else (0, 0)
    if low < 0 or (dmax is not None and high > dmax):
        bad = (np.nan_to_num(r, nan=0) < 0) | (np.nan_to_num(r, nan=0) > (dmax if dmax is not None else np.inf))
        i, j = np.argwhere(bad)[0]
        raise InputError(
            f"rating {int(r[i, j])} of item {i}, assessor {j} is outside 0..{dmax if dmax is not None else 'inf'}",
            hint="check dmax or the ratings",
        )
    return r


def _sum_spread_count(r: np.ndarray):
    """Per item: sum, spread D = max - min and number of ratings (NaN = missing)."""
    if np.issubdtype(r.dtype, np.integer):
        if r.shape[1] <= 16:   # few ratings per item: reduce over the rows of the transpose (faster)
            r = np.ascontiguousarray(r.T)
            return r.sum(axis=0).astype(float), r.max(axis=0) - r.min(axis=0), np.full(r.shape[1], r.shape[0])
        return r.sum(axis=1).astype(float), r.max(axis=1) - r.min(axis=1), np.full(r.shape[0], r.shape[1])
    return (np.nansum(r, axis=1), np.nanmax(r, axis=1) - np.nanmin(r, axis=1),
            np.count_nonzero(~np.isnan(r), axis=1))


def rating_spread(ratings) -> np.ndarray:
    """``D_i = max_j r_ij - min_j r_ij``, the disagreement of item ``i``."""
    return _sum_spread_count(_check_ratings(ratings))[1].astype(np.int64)


def raw_gain(ratings) -> np.ndarray:
    """``RawG_i = sum_j r_ij`` (Sakai 2017, §2.3)."""
    return _sum_spread_count(_check_ratings(ratings))[0]


def weighted_gain(ratings, dmax: int) -> np.ndarray:
    """Li & Yoshikawa's weighting, Sakai's Eq. 1: ``(1 - D_i/dmax) RawG_i``."""
    raw, d, n = _sum_spread_count(_check_ratings(ratings, dmax))
    return gain_values("wg", raw, d, n, dmax)


def unanimity_gain(ratings, dmax: int, p: float = 0.2) -> np.ndarray:
    """Unanimity-aware gain, Sakai's Eq. 2.

    ``UG_i = RawG_i + p N (dmax - D_i)`` if ``RawG_i > 0``, otherwise 0, with
    ``N`` the number of assessors and ``0 <= p <= 1``.  An item every assessor
    rated 0 stays at 0; a perfectly unanimous item gets ``p N dmax`` extra, as
    if ``pN`` more assessors had given it the top rating.
    """
    check_p(p)
    raw, d, n = _sum_spread_count(_check_ratings(ratings, dmax))  # n: N_i, ratings given
    return gain_values("ug", raw, d, n, dmax, p)


def raw_and_unanimity_gain(ratings, dmax: int, p: float = 0.2) -> tuple[np.ndarray, np.ndarray]:
    """``(raw_gain(ratings), unanimity_gain(ratings, dmax, p))`` from one pass over the ratings."""
    check_p(p)
    raw, d, n = _sum_spread_count(_check_ratings(ratings, dmax))
    return raw, gain_values("ug", raw, d, n, dmax, p)
