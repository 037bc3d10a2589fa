"""The studentized bootstrap (bootstrap-t) interval for the prediction-powered mean.

With few reference topics the normal and t intervals of
:mod:`evalkit.stats.prediction_powered` undercover when the per-topic scores
are skewed and discrete (nERR@10 on top-10 lists): a t quantile corrects the
variance's estimation, not the skewness.  The bootstrap-t (Efron & Tibshirani,
*An Introduction to the Bootstrap*, 1993, ch. 12; Hall, *Theoretical
comparison of bootstrap confidence intervals*, Ann. Statist. 16, 1988) takes
the quantiles of the studentized statistic from the data instead::

    t*_b = (theta*_b - theta) / se*_b                       b = 1..B
    interval = [theta - t*_(B+1-k) se,  theta - t*_(k) se]  k = floor((B + 1) alpha / 2)

with ``t*_(j)`` the ``j``-th smallest (order statistics, no interpolation:
the 25th and 975th of 999 at alpha = 0.05), ``theta`` and ``se`` those of
the ``t`` interval (``ddof = 1``) and ``theta*``, ``se*`` the same formulas
on a resample.  PPI has two samples, so the ``n`` reference topics (their
``Y`` and ``Yh`` together) and the ``N`` others (``Yu``) are resampled
apart, with replacement; ``classical`` uses the first resample alone,
``ppi`` keeps ``lam = 1``, ``ppi++`` re-estimates ``lam`` in every resample
(:func:`~evalkit.stats.prediction_powered.power_tuned_lambda`'s formula:
tuning on the same few topics is part of the estimator), and ``proxy`` pools
the two (a bootstrap of all ``T`` topics stratified by the split).  The
two-sided p-value against 0 is ``(#{b : |t*_b| >= |t|} + 1) / (B + 1)`` with
``t = theta / se``.

A resample whose ``se*^2`` is at most ``1e-13 * s^2`` (``s``: the largest
absolute score of that run, so rounding, not data) has ``se* = 0`` and
``t* = +-inf`` (0 when ``theta* = theta``): an interval end may be infinite,
where the data cannot bound it.  Where ``se = 0`` the interval is
``[theta, theta]``, as the closed-form ones are.

Resampling is by counts: a resample is a vector of multiplicities, and every
mean and variance comes from weighted sums (one matrix product per block of
resamples), so every run and every draw of a coverage study is done at once.
Resample set ``d`` (one per index of the first ``own_axes`` leading axes;
one in all when ``own_axes = 0``: every run and measure shares its topics'
resamples) draws from ``numpy.random.default_rng(SeedSequence(seed).spawn(D)[d])``
the reference topics' indices ``(B, n)``, then the others' ``(B, N)``.
"""

from __future__ import annotations

import math

import numpy as np

from .prediction_powered import MeanEstimate, classical_mean, prediction_powered_mean

__all__ = ["MIN_RESAMPLES", "ZERO_VARIANCE", "bootstrap_t_means", "min_resamples", "order_k",
           "resample_indices"]

#: The fewest resamples accepted.
MIN_RESAMPLES = 99

#: ``se*^2`` at most this times the squared largest absolute score counts as 0 (rounding).
ZERO_VARIANCE = 1e-13

#: Counts per block of resample sets (draws x resamples x topics), to bound the memory.
_BLOCK = 8_000_000


def min_resamples(alpha: float) -> int:
    """The fewest resamples at ``alpha``: :data:`MIN_RESAMPLES`, and ``k >= 1`` in
    :func:`order_k` (``B >= 2 / alpha - 1``)."""
    return max(MIN_RESAMPLES, math.ceil(2 / alpha - 1 - 1e-9))


def order_k(resamples: int, alpha: float) -> int:
    """``k = floor((B + 1) alpha / 2)``: the interval uses the ``k``-th smallest and largest
    ``t*``; a ``ValueError`` when ``B`` is below :func:`min_resamples`."""
    if resamples < min_resamples(alpha):
        raise ValueError(f"bootstrap-t needs at least {min_resamples(alpha)} resamples at "
                         f"alpha = {alpha:g}, not {resamples}")
    return max(1, math.floor((resamples + 1) * alpha / 2 + 1e-9))


def resample_indices(seed, sets: int, resamples: int, n: int, big_n: int):
    """Yield ``(labelled (B, n), unlabelled (B, N))`` index arrays for each resample set."""
    for child in np.random.SeedSequence(seed).spawn(sets):
        rng = np.random.default_rng(child)
        yield rng.integers(0, n, size=(resamples, n)), rng.integers(0, big_n, size=(resamples, big_n))


def _counts(index: np.ndarray, size: int, out: np.ndarray) -> None:
    """Write the multiplicities of the ``(B, size)`` resampled indices into ``out``."""
    rows = index.shape[0]
    flat = (index + size * np.arange(rows)[:, None]).ravel()
    out[...] = np.bincount(flat, minlength=rows * size).reshape(rows, size)


def _stack(a: np.ndarray, sets: int) -> np.ndarray:
    """``(..., k)`` -> ``(sets, k, rest)``: topics on the middle axis, runs last."""
    return np.moveaxis(a.reshape(sets, -1, a.shape[-1]), 2, 1)


def _studentized(sums_l, sums_u, n, big_n, theta, scale):
    """``{method: t*}`` ``(sets, B, K)`` from the weighted sums of one block."""
    s_y, s_h, s_yy, s_hh, s_yh = np.split(sums_l, 5, axis=-1)
    s_u, s_uu = np.split(sums_u, 2, axis=-1)
    m_y, m_h, m_u = s_y / n, s_h / n, s_u / big_n
    var_y = (s_yy - n * m_y ** 2) / (n - 1)
    var_h = (s_hh - n * m_h ** 2) / (n - 1)
    cov = (s_yh - n * m_y * m_h) / (n - 1)
    var_u = (s_uu - big_n * m_u ** 2) / (big_n - 1)
    total = n + big_n
    m_all = (s_h + s_u) / total
    var_all = (s_hh + s_uu - total * m_all ** 2) / (total - 1)
    tiny = ZERO_VARIANCE * scale[:, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = (cov * (n - 1) / n) / ((1 + n / big_n) * var_all)           # cov with ddof 0
    lam = np.clip(np.where(var_all > tiny, lam, 0.0), 0, 1)
    found = {
        "classical": (m_y, var_y / n),
        "proxy": (m_all, var_all / total),
        "ppi": (m_u + m_y - m_h, (var_y - 2 * cov + var_h) / n + var_u / big_n),
        "ppi++": (lam * m_u + m_y - lam * m_h,
                  (var_y - 2 * lam * cov + lam ** 2 * var_h) / n + lam ** 2 * var_u / big_n),
    }
    out = {}
    for method, (est, var) in found.items():
        se = np.sqrt(np.where(var > tiny, var, 0.0))
        diff = est - theta[method][:, None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(se > 0, diff / se, np.sign(diff) * np.inf)
        t[(se == 0) & (diff == 0)] = 0.0
        out[method] = t
    return out


def bootstrap_t_means(y, yhat, yhat_unlabelled, alpha: float = 0.05, resamples: int = 1000,
                      seed=0, own_axes: int = 0) -> dict[str, MeanEstimate]:
    """``{"classical", "proxy", "ppi", "ppi++": MeanEstimate}`` with bootstrap-t intervals
    and p-values (module docstring) over the leading axes of the ``(..., n)``, ``(..., n)``
    and ``(..., N)`` arrays.

    ``own_axes``: how many leading axes get resample sets of their own (1 in a coverage
    study whose first axis is the draws); the others share them.  ``seed``: an int or a
    sequence of ints.  The estimates, ``lam`` and the effective numbers of reference topics
    are the ``t`` interval's.
    """
    y, yhat, yu = (np.asarray(a, dtype=float) for a in (y, yhat, yhat_unlabelled))
    n, big_n = y.shape[-1], yu.shape[-1]
    k = order_k(resamples, alpha)
    lead = y.shape[:-1]
    sets = int(np.prod(lead[:own_axes], dtype=int))
    every = np.concatenate([yhat, yu], axis=-1)
    base = {"classical": classical_mean(y, alpha, "t"), "proxy": classical_mean(every, alpha, "t"),
            "ppi": prediction_powered_mean(y, yhat, yu, 1.0, alpha, "t"),
            "ppi++": prediction_powered_mean(y, yhat, yu, None, alpha, "t")}
    theta = {m: e.estimate.reshape(sets, -1) for m, e in base.items()}
    se = {m: e.se.reshape(sets, -1) for m, e in base.items()}
    t_obs = {m: np.abs(theta[m]) / np.maximum(se[m], 1e-16) for m in base}
    yl, hl, ul = _stack(y, sets), _stack(yhat, sets), _stack(yu, sets)
    labelled = np.concatenate([yl, hl, yl * yl, hl * hl, yl * hl], axis=-1)
    unlabelled = np.concatenate([ul, ul * ul], axis=-1)
    scale = np.maximum(np.abs(np.concatenate([yl, hl, ul], axis=1)).max(1), 1e-300) ** 2
    width = yl.shape[-1]
    q_low = {m: np.empty((sets, width)) for m in base}
    q_high = {m: np.empty((sets, width)) for m in base}
    beyond = {m: np.empty((sets, width)) for m in base}
    block = max(1, _BLOCK // (resamples * (n + big_n)))
    indices = resample_indices(seed, sets, resamples, n, big_n)
    for start in range(0, sets, block):
        part = slice(start, min(start + block, sets))
        c_l = np.empty((part.stop - part.start, resamples, n))
        c_u = np.empty((part.stop - part.start, resamples, big_n))
        for j in range(part.stop - part.start):
            li, ui = next(indices)
            _counts(li, n, c_l[j])
            _counts(ui, big_n, c_u[j])
        t_star = _studentized(c_l @ labelled[part], c_u @ unlabelled[part], n, big_n,
                              {m: theta[m][part] for m in base}, scale[part])
        for m, t in t_star.items():
            ordered = np.partition(t, [k - 1, resamples - k], axis=1)
            q_low[m][part], q_high[m][part] = ordered[:, k - 1], ordered[:, resamples - k]
            beyond[m][part] = (np.abs(t) >= t_obs[m][part][:, None, :]).sum(1)
    out = {}
    for m, e in base.items():
        with np.errstate(invalid="ignore"):
            low = np.where(se[m] > 0, theta[m] - q_high[m] * se[m], theta[m]).reshape(lead)
            high = np.where(se[m] > 0, theta[m] - q_low[m] * se[m], theta[m]).reshape(lead)
        p = ((beyond[m] + 1) / (resamples + 1)).reshape(lead)
        out[m] = MeanEstimate(e.estimate, e.se, low, high, p, e.lam, e.effective_n)
    return out
