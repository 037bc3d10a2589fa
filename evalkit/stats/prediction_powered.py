"""Prediction-powered inference for a mean: few reference labels, many proxy labels.

A reference judge (the humans) scored ``n`` topics, ``Y``; a proxy judge (an
LLM) scored the same topics, ``Yh``, and ``N`` other topics, ``Yu``.  For
``lam`` in [0, 1] the prediction-powered estimate of the reference mean is

    theta(lam) = lam * mean(Yu) + mean(Y - lam * Yh)

with variance ``lam^2 var(Yu) / N + var(Y - lam * Yh) / n``: unbiased
whatever the proxy's errors when the ``n`` topics are a random sample of
the ``n + N``.  ``lam = 1`` is PPI (Angelopoulos, Bates, Fannjiang, Jordan &
Zrnic, *Prediction-powered inference*, Science 382, 2023,
doi:10.1126/science.adi6000); PPI++ (Angelopoulos, Duchi & Zrnic, *PPI++:
Efficient prediction-powered inference*, arXiv:2311.01453, 2023) takes the
``lam`` that minimises the variance, estimated as ``ppi-python``'s
``ppi_mean_ci`` estimates it::

    lam = cov(Y, Yh) / ((1 + n / N) * var(Yh ++ Yu))     clipped to [0, 1]

(``cov`` with ``ddof = 0`` on the labelled topics, ``var`` with ``ddof = 1``
over all proxy scores).  ``lam = 0`` is the classical mean of ``Y``.

Intervals (``interval``):

* ``"normal"``: ``theta +- z_{1-alpha/2} * se`` with ``ddof = 0`` variances,
  two-sided p-values ``2 * (1 - Phi(|theta| / se))``: equal to ppi-python's
  ``classical_mean_ci``, ``ppi_mean_ci`` and ``ppi_mean_pval`` (0.2.3; tested
  to 1e-12 in ``tests/evaluate/test_estimate_reference.py``);
* ``"t"``: ``ddof = 1`` variances and Student's t quantile with ``n - 1``
  degrees of freedom (``T - 1`` for a mean over all ``T`` topics): the usual
  mend of the normal interval's undercoverage at small ``n``, whose coverage
  the study of :mod:`evalkit.evaluate.estimation.coverage` measures;
* ``"bootstrap-t"``: the studentized bootstrap of :mod:`evalkit.stats.bootstrap_t`
  (its quantiles come from resamples, so :func:`quantile` has none).

The quantiles and tails come from ``scipy.special`` (the kernels of
``scipy.stats.norm`` and ``scipy.stats.t``, the same bits, without the 1-2 s
import of ``scipy.stats``).  Every function works along the last axis and
broadcasts over the others, so one call estimates every run (and, in the
coverage study, every draw).
The effective number of reference topics, ``var(Y) / se^2``, is how many
reference topics alone would give the same standard error.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

__all__ = ["CLOSED_FORM", "INTERVALS", "MeanEstimate", "classical_mean", "power_tuned_lambda",
           "prediction_powered_mean", "quantile"]

#: The interval variants: normal quantiles with ddof 0 (ppi-python's), t quantiles with ddof 1,
#: and the studentized bootstrap (:mod:`evalkit.stats.bootstrap_t`).
INTERVALS = ("normal", "t", "bootstrap-t")

#: The variants with a closed-form quantile (:func:`quantile`).
CLOSED_FORM = ("normal", "t")

#: The smallest standard error a p-value divides by (ppi-python's floor, 1e-16).
_SE_FLOOR = 1e-16


@dataclass(frozen=True)
class MeanEstimate:
    """Estimates along the leading axes: the estimate, its standard error, the interval,
    the two-sided p-value against 0, ``lam`` and the effective number of reference topics."""

    estimate: np.ndarray
    se: np.ndarray
    low: np.ndarray
    high: np.ndarray
    p_value: np.ndarray
    lam: np.ndarray
    effective_n: np.ndarray


def quantile(alpha: float, interval: str, df) -> np.ndarray:
    """The two-sided ``1 - alpha`` quantile: ``z_{1-alpha/2}`` or ``t_{1-alpha/2, df}``."""
    if interval == "normal":
        return special.ndtri(1 - alpha / 2.0)                  # scipy.stats.norm.ppf's kernel
    if interval == "t":
        return special.stdtrit(df, 1 - alpha / 2.0)            # scipy.stats.t.ppf's kernel
    raise ValueError(f"interval must be one of {CLOSED_FORM} (bootstrap-t: "
                     f"evalkit.stats.bootstrap_t), not {interval!r}")


def _p_value(estimate, se, interval: str, df) -> np.ndarray:
    z = np.abs(estimate) / np.maximum(se, _SE_FLOOR)
    return 2 * (special.ndtr(-z) if interval == "normal" else special.stdtr(df, -z))


def _ddof(interval: str) -> int:
    if interval not in CLOSED_FORM:
        raise ValueError(f"interval must be one of {CLOSED_FORM} (bootstrap-t: "
                         f"evalkit.stats.bootstrap_t), not {interval!r}")
    return 0 if interval == "normal" else 1


def classical_mean(y, alpha: float = 0.05, interval: str = "normal") -> MeanEstimate:
    """The mean of ``y`` with its CLT interval: ``mean +- q * sd / sqrt(n)``.

    ``interval="normal"``: ``sd`` with ``ddof = 0`` and the normal quantile
    (ppi-python's ``classical_mean_ci``); ``"t"``: ``ddof = 1`` and ``t_{n-1}``.
    """
    y = np.asarray(y, dtype=float)
    n = y.shape[-1]
    est = y.mean(-1)
    se = y.std(-1, ddof=_ddof(interval)) / np.sqrt(n)
    q = quantile(alpha, interval, n - 1)
    return MeanEstimate(est, se, est - q * se, est + q * se,
                        _p_value(est, se, interval, n - 1),
                        np.zeros_like(est), np.full_like(est, float(n)))


def power_tuned_lambda(y, yhat, yhat_unlabelled) -> np.ndarray:
    """PPI++'s ``lam`` for a mean, as ppi-python's ``ppi_mean_ci`` computes it (clipped to
    [0, 1]): ``cov(Y, Yh) / ((1 + n/N) var(Yh ++ Yu))``; 0 where every proxy score is equal."""
    y, yhat, yu = (np.asarray(a, dtype=float) for a in (y, yhat, yhat_unlabelled))
    n, big_n = y.shape[-1], yu.shape[-1]
    cov = 2 * ((y - y.mean(-1, keepdims=True)) * (yhat - yhat.mean(-1, keepdims=True))).sum(-1) / n
    every = np.concatenate([yhat, yu], axis=-1)
    var = every.var(-1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = cov / (2 * (1 + n / big_n) * var)
    return np.clip(np.where(var > 0, lam, 0.0), 0, 1)


def prediction_powered_mean(y, yhat, yhat_unlabelled, lam=1.0, alpha: float = 0.05,
                            interval: str = "normal") -> MeanEstimate:
    """``theta(lam) = lam * mean(Yu) + mean(Y - lam * Yh)`` with its interval (module docstring).

    ``lam``: a number or an array over the leading axes (1: PPI; ``None``:
    PPI++'s :func:`power_tuned_lambda`).  With ``interval="normal"`` equal to
    ppi-python's ``ppi_mean_ci(Y, Yh, Yu, alpha=alpha, lam=lam)`` and
    ``ppi_mean_pval(..., lam=lam)``; ``"t"``: ``ddof = 1`` and ``t_{n-1}``.
    """
    y, yhat, yu = (np.asarray(a, dtype=float) for a in (y, yhat, yhat_unlabelled))
    n, big_n = y.shape[-1], yu.shape[-1]
    ddof = _ddof(interval)
    lam = power_tuned_lambda(y, yhat, yu) if lam is None else np.asarray(lam, dtype=float)
    lam_ = np.broadcast_to(lam, y.shape[:-1])[..., None]
    rectifier = y - lam_ * yhat
    imputed = lam_ * yu
    est = imputed.mean(-1) + rectifier.mean(-1)
    se = np.sqrt((imputed.std(-1, ddof=ddof) / np.sqrt(big_n)) ** 2
                 + (rectifier.std(-1, ddof=ddof) / np.sqrt(n)) ** 2)
    q = quantile(alpha, interval, n - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        effective = y.var(-1, ddof=ddof) / se ** 2
    return MeanEstimate(est, se, est - q * se, est + q * se, _p_value(est, se, interval, n - 1),
                        np.broadcast_to(lam, est.shape).astype(float), effective)
