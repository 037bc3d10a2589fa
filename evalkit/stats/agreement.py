"""Agreement between assessors: Cohen's and Fleiss' kappa, the Landis-Koch
labels (Wang et al. §5) and the adjusted Rand index between two clusterings
(Wang et al. §4).  See ``docs/statistics.md``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import ndtri  # the normal quantile; scipy.stats.norm.ppf calls it

from ..errors import InputError
from .rank_correlation import _check_alpha

__all__ = ["adjusted_rand_index", "CohensKappa", "cohens_kappa", "fleiss_kappa", "landis_koch"]


def adjusted_rand_index(a, b) -> float:
    """Adjusted Rand index of two clusterings given as label sequences (Hubert & Arabie 1985).

    Symmetric, 1 for identical partitions, about 0 for independent ones, and
    invariant to renaming labels.  Computed exactly as scikit-learn's
    :func:`~sklearn.metrics.adjusted_rand_score` does -- the same integer pair
    counts (its ``pair_confusion_matrix``: from the contingency table ``n_ij``
    with row sums ``a_i`` and column sums ``b_j``, ``tp = sum n_ij^2 - n``,
    ``fp = sum b_j^2 - sum n_ij^2``, ``fn = sum a_i^2 - sum n_ij^2``) and the
    same final expression, so the two agree to the last bit (tested) -- but
    without scikit-learn's per-call input validation, which took 4 ms of every
    call (the Wang et al. worlds compute about 1,500 of them).
    """
    a, b = np.asarray(list(a)), np.asarray(list(b))
    if len(a) != len(b):
        raise InputError(f"the two clusterings label {len(a)} and {len(b)} items")
    if not len(a):
        raise InputError("the clusterings are empty")
    for labels in (a, b):   # scikit-learn's own checks: one label per item, no missing label
        if labels.ndim != 1:
            raise InputError(f"cluster labels must be one value per item, got shape {labels.shape}")
        missing = (np.isnan(labels).any() if labels.dtype.kind in "fc" else
                   labels.dtype == object and any(x is None or x != x for x in labels))
        if missing:
            raise InputError("a cluster label is missing (NaN or None)")
    ca = np.unique(a, return_inverse=True)[1].ravel()
    cb = np.unique(b, return_inverse=True)[1].ravel()
    n_b = int(cb.max()) + 1
    table = np.bincount(ca.astype(np.int64) * n_b + cb)
    n = len(a)
    squares = int((table.astype(np.int64) ** 2).sum())
    rows = int((np.bincount(ca).astype(np.int64) ** 2).sum())
    cols = int((np.bincount(cb).astype(np.int64) ** 2).sum())
    tp, fp, fn = squares - n, cols - squares, rows - squares
    tn = n * n - fp - fn - squares
    if fn == 0 and fp == 0:
        return 1.0
    return 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))


class CohensKappa(NamedTuple):
    """Cohen's kappa with its large-sample confidence interval."""

    kappa: float
    low: float
    high: float
    se: float
    n: int


def cohens_kappa(a, b, alpha: float = 0.05) -> CohensKappa:
    """Cohen's kappa of two raters' labels with a ``1 - alpha`` interval.

    The standard error is the large-sample one of Fleiss, Cohen & Everitt
    (1969), from :func:`statsmodels.stats.inter_rater.cohens_kappa`
    (``std_kappa``); the interval is ``kappa -/+ z_{1-alpha/2} se``.  Kappa
    is undefined (NaN) when chance agreement is 1 (one category only).
    """
    from statsmodels.stats.inter_rater import cohens_kappa as _sm_kappa

    _check_alpha(alpha)
    a, b = list(a), list(b)
    if len(a) != len(b):
        raise InputError(f"the two raters label {len(a)} and {len(b)} items")
    if not a:
        raise InputError("no items to compare")
    cats = sorted(set(a) | set(b), key=str)
    index = {c: i for i, c in enumerate(cats)}
    table = np.zeros((len(cats), len(cats)))
    for x, y in zip(a, b):
        table[index[x], index[y]] += 1
    margin_a, margin_b = table.sum(1) / len(a), table.sum(0) / len(a)
    if np.isclose((margin_a * margin_b).sum(), 1.0):
        nan = float("nan")
        return CohensKappa(nan, nan, nan, nan, len(a))
    import warnings

    with warnings.catch_warnings():  # statsmodels warns on its own z statistic; unused here
        warnings.simplefilter("ignore", RuntimeWarning)
        res = _sm_kappa(table)
    half = ndtri(1 - alpha / 2) * res.std_kappa
    return CohensKappa(float(res.kappa), float(res.kappa - half), float(res.kappa + half),
                       float(res.std_kappa), len(a))


def fleiss_kappa(counts) -> float:
    """Fleiss' kappa of an ``items x categories`` count matrix (each row sums to the raters).

    Fleiss (1971), *Measuring nominal scale agreement among many raters*,
    Psychological Bulletin 76(5), doi:10.1037/h0031619: with ``N`` items,
    ``n`` ratings each and ``n_ij`` ratings of item ``i`` in category ``j``,
    ``P_i = (sum_j n_ij^2 - n) / (n (n - 1))``, ``p_j = sum_i n_ij / (N n)``,
    ``kappa = (mean_i P_i - sum_j p_j^2) / (1 - sum_j p_j^2)``.  Computed
    here in numpy (statsmodels' import alone took a second of
    ``evalkit assessors``); equal to
    :func:`statsmodels.stats.inter_rater.fleiss_kappa` (tested).
    """
    counts = np.asarray(counts, dtype=float)
    if counts.ndim != 2 or counts.shape[0] < 1 or counts.shape[1] < 2:
        raise InputError(f"counts must be items x categories (>= 2), got shape {counts.shape}")
    if np.any(counts < 0) or not np.all(np.isfinite(counts)):
        raise InputError("counts must be finite and >= 0")
    totals = counts.sum(1)
    if not np.all(totals == totals[0]) or totals[0] < 2:
        raise InputError("every item needs the same number (>= 2) of ratings")
    n_items, n = counts.shape[0], totals[0]
    p_j = counts.sum(axis=0) / (n_items * n)
    agreement = ((counts * counts).sum(axis=1) - n) / (n * (n - 1))
    chance = float((p_j * p_j).sum())
    if chance >= 1.0:      # one category only: kappa undefined
        return float("nan")
    return float((agreement.mean() - chance) / (1.0 - chance))


def landis_koch(kappa: float) -> str:
    """Landis & Koch (1977) label: poor (< 0), slight, fair, moderate, substantial, almost perfect."""
    if not np.isfinite(kappa):
        return "undefined"
    if kappa < 0:
        return "poor"
    for bound, label in ((0.20, "slight"), (0.40, "fair"), (0.60, "moderate"),
                         (0.80, "substantial")):
        if kappa <= bound:
            return label
    return "almost perfect"
