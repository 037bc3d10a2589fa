"""The Dawid-Skene model: each assessor's confusion matrix and each item's true grade, by EM.

Used by ``evalkit assessors`` as the ``dawid-skene`` judge (``docs/assessors.md``):
instead of summing ratings (RawG) it weighs each assessor by how reliably
their ratings reveal an item's grade.  Dawid & Skene (1979), *Maximum
likelihood estimation of observer error-rates using the EM algorithm*,
Applied Statistics 28(1), 20-28, doi:10.2307/2346806.  Written here rather
than taken from crowd-kit, whose install brings transformers and
huggingface-hub into a library that scores runs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..errors import InputError, ParameterError

__all__ = ["DawidSkene", "dawid_skene"]


class DawidSkene(NamedTuple):
    """A fitted model: ``posterior[i, k]`` = P(item i has class k | ratings)."""

    posterior: np.ndarray       # (items, K)
    confusion: np.ndarray       # (assessors, K, K): [j, k, l] = P(assessor j says l | class k)
    prior: np.ndarray           # (K,)
    log_likelihood: float
    iterations: int
    converged: bool


def dawid_skene(items, assessors, labels, n_classes: int | None = None, max_iter: int = 100,
                tol: float = 1e-6) -> DawidSkene:
    """Fit Dawid & Skene's model by EM to ratings given as three paired integer arrays.

    ``items``, ``assessors`` and ``labels`` are codes ``0..I-1``, ``0..J-1``
    and ``0..K-1`` (``K = n_classes``, default the largest label + 1).  With
    ``T_ik`` the posterior of class ``k`` for item ``i``, ``pi_k`` the prior
    and ``theta_jkl`` the chance that assessor ``j`` says ``l`` for an item of
    class ``k`` (Dawid & Skene 1979, section 2):

    * start: ``T_ik`` = share of item i's ratings equal to k (a soft majority vote);
    * M step: ``pi_k = mean_i T_ik``; ``theta_jkl = sum_{i: j said l} T_ik /
      sum_{i rated by j} T_ik`` (a class an assessor never met keeps a uniform row);
    * E step: ``T_ik`` proportional to ``pi_k prod_{j rated i} theta_{j k r_ij}``;

    until the log-likelihood ``sum_i log sum_k pi_k prod_j theta_{j k r_ij}``
    rises by less than ``tol`` (relative) or ``max_iter`` iterations (100,
    as crowd-kit's ``DawidSkene`` defaults to; check ``converged``).
    Deterministic: no random start.
    """
    items = np.asarray(items, dtype=np.int64)
    assessors = np.asarray(assessors, dtype=np.int64)
    labels = np.asarray(labels, dtype=np.int64)
    if not (items.shape == assessors.shape == labels.shape) or items.ndim != 1 or not items.size:
        raise InputError("dawid_skene needs three paired, non-empty arrays of codes")
    if min(items.min(), assessors.min(), labels.min()) < 0:
        raise InputError("item, assessor and label codes must be >= 0")
    k = int(labels.max()) + 1 if n_classes is None else int(n_classes)
    if k < 2 or labels.max() >= k:
        raise ParameterError("n_classes", n_classes, f"at least 2 and above every label ({labels.max()})")
    if isinstance(max_iter, bool) or int(max_iter) < 1:
        raise ParameterError("max_iter", max_iter, "a whole number >= 1")
    from scipy.sparse import csr_matrix

    n_items, n_assessors = int(items.max()) + 1, int(assessors.max()) + 1
    # one-hot ratings: said[i, j * K + l] = 1 when assessor j rated item i as l
    said = csr_matrix((np.ones(items.size), (items, assessors * k + labels)),
                      shape=(n_items, n_assessors * k))
    posterior = np.zeros((n_items, k))
    np.add.at(posterior, (items, labels), 1.0)
    if (posterior.sum(axis=1) == 0).any():
        raise InputError("every item code 0..max must have at least one rating")
    posterior /= posterior.sum(axis=1, keepdims=True)
    previous, converged, it = -np.inf, False, 0
    tiny = np.finfo(float).tiny
    for it in range(1, int(max_iter) + 1):
        prior = posterior.mean(axis=0)
        counts = np.asarray(said.T @ posterior).reshape(n_assessors, k, k)   # [j, l, c]
        confusion = counts.transpose(0, 2, 1)                                 # [j, c, l]
        totals = confusion.sum(axis=2, keepdims=True)
        confusion = np.where(totals > 0, confusion / np.where(totals > 0, totals, 1.0), 1.0 / k)
        log_theta = np.log(np.maximum(confusion, tiny))                       # [j, c, l]
        joint = np.log(np.maximum(prior, tiny)) + np.asarray(
            said @ log_theta.transpose(0, 2, 1).reshape(n_assessors * k, k))  # (I, K)
        top = joint.max(axis=1, keepdims=True)
        weight = np.exp(joint - top)
        norm = weight.sum(axis=1, keepdims=True)
        posterior = weight / norm
        ll = float((top[:, 0] + np.log(norm[:, 0])).sum())
        if np.isfinite(previous) and ll - previous <= tol * abs(ll):
            converged = True
            break
        previous = ll
    return DawidSkene(posterior, confusion, prior, ll, it, converged)
