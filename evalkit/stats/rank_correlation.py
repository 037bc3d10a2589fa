"""Kendall's tau between two system rankings with the Hollander-Wolfe-Chicken
interval (not clipped to [-1, 1]), rank swaps, and Yilmaz, Aslam &
Robertson's top-weighted AP correlation tau_ap.  Used by Sakai's Table 2,
Wang et al.'s Table 1 and ``evalkit assessors``; see ``docs/statistics.md``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import ndtri  # the normal quantile; scipy.stats.norm.ppf calls it

from ..errors import InputError, ParameterError

__all__ = ["KendallTau", "kendall_tau", "rank_swaps", "tau_ap"]


class KendallTau(NamedTuple):
    """Kendall's tau-b with its (unclipped) confidence interval."""

    tau: float
    low: float
    high: float
    n: int
    alpha: float


def _paired_vectors(x, y, what: str = "x and y") -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    if x.shape != y.shape:
        raise InputError(f"{what} must have the same length, got {x.size} and {y.size}")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise InputError(f"{what} must be finite (found NaN or infinity)")
    return x, y


def _check_alpha(alpha: float) -> None:
    if isinstance(alpha, bool) or not np.isfinite(alpha) or not 0.0 < alpha < 1.0:
        raise ParameterError("alpha", alpha, "a number in (0, 1)")


def kendall_tau(x, y, alpha: float = 0.05) -> KendallTau:
    """Kendall's tau-b of ``x`` and ``y`` with a ``1 - alpha`` confidence interval.

    ``tau`` is tau-b (ties allowed), computed from integer pair counts so that
    identical rankings give exactly 1; it equals :func:`scipy.stats.kendalltau`
    to rounding (tested).
    The interval is Hollander, Wolfe & Chicken's (2014, eqs. 8.37–8.39)::

        C_i   = sum_{t != i} sign(x_t - x_i) sign(y_t - y_i)
        s^2   = sample variance of the C_i (divisor n - 1)
        var   = 2 / (n (n-1)) * [ 2 (n-2) s^2 / (n (n-1)) + 1 - tau^2 ]
        CI    = tau -/+ z_{1-alpha/2} sqrt(var)        (not clipped)

    Requires ``n >= 3``.  If either vector is constant tau is undefined (NaN).
    """
    _check_alpha(alpha)
    x, y = _paired_vectors(x, y)
    n = x.size
    if n < 3:
        raise InputError(f"kendall_tau needs at least 3 paired values, got {n}")
    sx = np.sign(x[None, :] - x[:, None]).astype(np.int64)
    sy = np.sign(y[None, :] - y[:, None]).astype(np.int64)
    prod = sx * sy
    pairs = n * (n - 1) // 2
    untied_x = pairs - (int(np.count_nonzero(sx == 0)) - n) // 2
    untied_y = pairs - (int(np.count_nonzero(sy == 0)) - n) // 2
    if untied_x == 0 or untied_y == 0:
        return KendallTau(float("nan"), float("nan"), float("nan"), n, alpha)
    tau = float(int(prod.sum()) // 2 / np.sqrt(untied_x * untied_y))
    c = prod.sum(axis=1)
    s2 = c.var(ddof=1)
    var = 2.0 / (n * (n - 1)) * (2.0 * (n - 2) * s2 / (n * (n - 1)) + 1.0 - tau**2)
    half = ndtri(1.0 - alpha / 2.0) * np.sqrt(max(var, 0.0))
    return KendallTau(tau, float(tau - half), float(tau + half), n, alpha)


def rank_swaps(x, y) -> int:
    """Number of pairs ``(i, j)`` ranked in opposite orders by ``x`` and ``y``.

    A pair counts when ``(x_i - x_j)(y_i - y_j) < 0``; a pair tied under either
    score is not a swap.  Wang et al. (2015, Table 1) report this out of
    ``n(n-1)/2`` pairs.
    """
    x, y = _paired_vectors(x, y)
    dx = x[None, :] - x[:, None]
    dy = y[None, :] - y[:, None]
    return int(np.count_nonzero(np.triu(dx * dy < 0, k=1)))


def tau_ap(reference, estimate) -> float:
    """AP correlation of the ranking by ``estimate`` against the one by ``reference``.

    Yilmaz, Aslam & Robertson (2008), *A new rank correlation coefficient for
    information retrieval*, SIGIR, doi:10.1145/1390334.1390435, Eq. 2::

        tau_ap = 2 / (N - 1) * sum_{i=2..N} C(i) / (i - 1) - 1

    where the items are ordered by ``estimate`` (higher first) and ``C(i)``
    counts the items above rank ``i`` that ``reference`` also ranks above the
    item at rank ``i``.  A swap near the top costs more than one near the
    bottom; unlike Kendall's tau it is not symmetric.  Ties (the paper assumes
    none): items tied under ``estimate`` keep their input order, and a pair
    tied under ``reference`` counts as half correct.  Requires ``N >= 2``.
    """
    x, y = _paired_vectors(reference, estimate, "reference and estimate")
    n = x.size
    if n < 2:
        raise InputError(f"tau_ap needs at least 2 items, got {n}")
    order = np.argsort(-y, kind="stable")
    ref = x[order]
    above = ref[None, :] > ref[:, None]                 # [i, j]: j above i in the reference
    tied = ref[None, :] == ref[:, None]
    credit = np.tril(above + 0.5 * tied, k=-1).sum(axis=1)[1:]   # C(i) for ranks 2..N
    return float(2.0 / (n - 1) * (credit / np.arange(1, n)).sum() - 1.0)
