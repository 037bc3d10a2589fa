"""Agreement of two raters from their confusion matrix, vectorised over stacks of matrices.

The engine of ``evalkit agreement`` (``docs/agreement.md``).  Every statistic
of a pair of raters who both rated the same items is a function of the
``K x K`` confusion matrix ``C[r, j]`` (items the first rater put in grade
``values[r]`` and the second in ``values[j]``), so a topic bootstrap only
has to add up per-topic matrices with resampling weights
(:func:`topic_bootstrap`) and evaluate these functions once on a
``(B, ..., K, K)`` stack, with no re-fit per replicate.

* :func:`alpha_from_confusion`: Krippendorff's alpha (nominal, ordinal,
  interval) of two raters, equal to :func:`evalkit.stats.krippendorff.alpha_from_counts`
  on the same ratings and to the ``krippendorff`` package (tested).
* :func:`kappa_from_confusion`: Cohen's kappa, unweighted or with linear or
  quadratic weights (Cohen 1960; 1968), equal to scikit-learn's
  ``cohen_kappa_score`` given the whole scale as ``labels`` (tested).
* :func:`binary_confusion`: the ``2 x 2`` matrix of "grade >= cut".
* :func:`topic_bootstrap` and :func:`percentile_interval`: resampling weights
  over topics and the percentile interval.
"""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError

__all__ = ["alpha_from_confusion", "kappa_from_confusion", "binary_confusion", "KAPPA_WEIGHTS",
           "topic_bootstrap", "percentile_interval"]

#: Weights of Cohen's kappa: ``None`` (unweighted), linear, quadratic.
KAPPA_WEIGHTS = (None, "linear", "quadratic")


def _delta_squared(values: np.ndarray, marginals: np.ndarray, level: str) -> np.ndarray:
    """Krippendorff's squared differences ``(..., K, K)`` for marginals ``(..., K)``."""
    v = np.asarray(values, dtype=float)
    k = len(v)
    if level == "nominal":
        return np.broadcast_to(1.0 - np.eye(k), marginals.shape + (k,))
    if level == "interval":
        return np.broadcast_to((v[:, None] - v[None, :]) ** 2, marginals.shape + (k,))
    # ordinal: (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2, grades in rank order
    cum = np.concatenate([np.zeros(marginals.shape[:-1] + (1,)), np.cumsum(marginals, -1)], -1)
    i = np.arange(k)
    lo, hi = np.minimum.outer(i, i), np.maximum.outer(i, i)
    between = cum[..., hi + 1] - cum[..., lo]
    return (between - (marginals[..., lo] + marginals[..., hi]) / 2.0) ** 2


def alpha_from_confusion(confusion, values, level: str = "ordinal") -> np.ndarray:
    """Krippendorff's alpha of two raters from confusion matrices ``(..., K, K)``.

    Each item rated by both is a unit with two values, so the coincidence
    matrix is ``o = C + C^T`` (Krippendorff 2011, section B: a unit of
    ``m_u = 2`` values adds ``1 / (m_u - 1) = 1`` per ordered pair), with
    marginals ``n_c = sum_k o_ck`` and ``n = sum_c n_c`` (twice the items);
    ``alpha = 1 - (n - 1) sum o_ck delta2_ck / sum n_c n_k delta2_ck`` with
    delta2 nominal, ordinal or interval on the grades ``values``.  NaN where
    the expected disagreement is 0 (one grade only) or there is no item.
    """
    if level not in ("nominal", "ordinal", "interval"):
        raise ParameterError("level", level, "nominal, ordinal or interval")
    c = np.asarray(confusion, dtype=float)
    o = c + np.swapaxes(c, -1, -2)
    marginals = o.sum(axis=-1)
    n = marginals.sum(axis=-1)
    d2 = _delta_squared(values, marginals, level)
    observed = (o * d2).sum(axis=(-2, -1))
    expected = np.einsum("...c,...ck,...k->...", marginals, d2, marginals)
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = 1.0 - (n - 1.0) * observed / expected
    return np.where(expected > 0, alpha, np.nan)


def kappa_from_confusion(confusion, values, weights: str | None = None) -> np.ndarray:
    """Cohen's kappa of two raters from confusion matrices ``(..., K, K)``.

    With proportions ``p_rj = C_rj / n``, chance ``e_rj = p_r. p_.j`` and
    disagreement weights ``w_rj`` = ``[r != j]`` (``None``), ``|v_r - v_j|``
    (``linear``) or ``(v_r - v_j)^2`` (``quadratic``) on the grades
    ``values``: ``kappa = 1 - sum w p / sum w e`` (Cohen 1968; scikit-learn's
    ``cohen_kappa_score`` with ``labels`` the whole scale).  NaN where chance
    disagreement is 0 or there is no item.
    """
    if weights not in KAPPA_WEIGHTS:
        raise ParameterError("weights", weights, "None, 'linear' or 'quadratic'")
    c = np.asarray(confusion, dtype=float)
    v = np.asarray(values, dtype=float)
    diff = v[:, None] - v[None, :]
    w = (diff != 0).astype(float) if weights is None else (
        np.abs(diff) if weights == "linear" else diff ** 2)
    n = c.sum(axis=(-2, -1))
    expected_counts = c.sum(axis=-1)[..., :, None] * c.sum(axis=-2)[..., None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        chance = (w * expected_counts).sum(axis=(-2, -1)) / n
        kappa = 1.0 - (w * c).sum(axis=(-2, -1)) / chance
    return np.where((n > 0) & (chance > 0), kappa, np.nan)


def binary_confusion(confusion, values, cut: float) -> np.ndarray:
    """The ``(..., 2, 2)`` confusion matrix of "grade >= ``cut``" (index 1 = relevant)."""
    c = np.asarray(confusion, dtype=float)
    k = int(np.searchsorted(np.asarray(values, dtype=float), cut, side="left"))
    low, high = slice(0, k), slice(k, None)
    blocks = [[c[..., a, :][..., b].sum(axis=(-2, -1)) for b in (low, high)] for a in (low, high)]
    return np.stack([np.stack(row, axis=-1) for row in blocks], axis=-2)


def topic_bootstrap(n_topics: int, replicates: int, seed) -> np.ndarray:
    """Resampling weights ``(B, T)``: how often each topic is drawn in each replicate.

    Replicate ``b`` draws ``T`` topics uniformly with replacement
    (``numpy.random.default_rng(seed).integers(0, T, (B, T))``); the weight is
    the number of draws of each topic, so a statistic of the resample is the
    statistic of the per-topic sufficient statistics summed with these weights.
    """
    if isinstance(replicates, bool) or int(replicates) != replicates or replicates < 1:
        raise ParameterError("bootstrap", replicates, "a whole number >= 1 (or 0 for no interval)")
    if n_topics < 1:
        raise ParameterError("topics", n_topics, "at least one topic to resample")
    draws = np.random.default_rng(seed).integers(0, n_topics, size=(int(replicates), n_topics))
    offset = np.arange(int(replicates))[:, None] * n_topics
    return np.bincount((draws + offset).ravel(), minlength=int(replicates) * n_topics).reshape(
        int(replicates), n_topics)


def percentile_interval(replicates, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """The percentile bootstrap interval over axis 0: the ``(1 - level) / 2`` and
    ``(1 + level) / 2`` quantiles (numpy's default linear interpolation) of the
    replicates that are defined (NaN replicates, e.g. one grade only, are left out;
    NaN when none is defined)."""
    x = np.asarray(replicates, dtype=float)
    q = [(1.0 - level) / 2.0, (1.0 + level) / 2.0]
    if np.isfinite(x).all():                  # the same numbers as nanquantile, many times faster
        low, high = np.quantile(x, q, axis=0)
        return low, high
    ok = np.isfinite(x).any(axis=0)
    safe = np.where(ok[None], x, 0.0)
    with np.errstate(invalid="ignore"):
        low, high = np.nanquantile(safe, q, axis=0)
    return np.where(ok, low, np.nan), np.where(ok, high, np.nan)
