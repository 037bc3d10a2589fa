"""How far two leaderboards agree, for many pairs of leaderboards at once.

``evalkit assessors --reference NAME`` compares every judge's leaderboard
with the reference judge's on each of ``B`` topic-bootstrap resamples
(``docs/assessors.md``); these functions take ``(B, R)`` arrays of run
means, one row per resample, and return one value per row:

* :func:`kendall_tau_b_many`: Kendall's tau-b, the value of
  :func:`evalkit.stats.rank_correlation.kendall_tau` (and of
  ``scipy.stats.kendalltau``) for every row;
* :func:`tau_ap_many`: Yilmaz, Aslam & Robertson's AP correlation, the value
  of :func:`evalkit.stats.rank_correlation.tau_ap` for every row;
* :func:`top_k_overlap_many`: the share of the reference's top ``k`` runs
  that are also in the other leaderboard's top ``k``.

Ties.  Two means that differ by at most ``tol * max(1, max |x|)`` are tied
(the default ``tol = 1e-10`` only merges values that are equal but for the
order in which floating point summed them: the mean of (0.1, 0.2, 0.3)
and of (0.3, 0.2, 0.1) differ in the last bit).  The resampled means
themselves come from :func:`evalkit.stats.confusion_agreement.topic_bootstrap`'s
weights (:func:`bootstrap_means`).  Work is split into blocks of rows so
that memory stays near ``block_elements`` numbers whatever ``B`` and ``R``.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError, ParameterError

__all__ = ["kendall_tau_b_many", "tau_ap_many", "top_k_overlap_many", "bootstrap_means", "TOL"]

#: Relative tolerance under which two leaderboard means are tied.
TOL = 1e-10
_BLOCK = 2_000_000


def _rows(x, y, what: str) -> tuple[np.ndarray, np.ndarray]:
    x = np.atleast_2d(np.asarray(x, dtype=float))
    y = np.atleast_2d(np.asarray(y, dtype=float))
    if x.shape != y.shape or x.ndim != 2:
        raise InputError(f"{what} must be two (B, R) arrays of one shape, got {x.shape} and {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise InputError(f"{what} must be finite (found NaN or infinity)")
    return x, y


def _scale(x: np.ndarray, tol: float) -> float:
    return tol * max(1.0, float(np.abs(x).max(initial=0.0)))


def _signs(x: np.ndarray, a: np.ndarray, b: np.ndarray, scale: float) -> np.ndarray:
    """``sign(x[:, a] - x[:, b])`` as int8, differences within ``scale`` counted 0 (tied)."""
    d = x[:, a] - x[:, b]
    return (d > scale).view(np.int8) - (d < -scale).view(np.int8)


def _blocks(n_rows: int, per_row: int, block_elements: int):
    step = max(1, block_elements // max(per_row, 1))
    for start in range(0, n_rows, step):
        yield slice(start, min(n_rows, start + step))


def _ahead_tied(x: np.ndarray, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Per run: how many runs are clearly above it, and how many are tied with it (itself
    included)."""
    d = x[:, None, :] - x[:, :, None]                              # [b, r, j] = x_j - x_r
    return (d > scale).sum(axis=2), (np.abs(d) <= scale).sum(axis=2)


def kendall_tau_b_many(x, y, tol: float = TOL, block_elements: int = _BLOCK) -> np.ndarray:
    """Kendall's tau-b of ``x[i]`` and ``y[i]`` for every row ``i`` of two ``(B, R)`` arrays.

    Over the ``R(R-1)/2`` pairs of runs, with ``S`` the concordant minus the
    discordant pairs and ``n_x``, ``n_y`` the pairs not tied under ``x``,
    ``y``: ``tau_b = S / sqrt(n_x n_y)`` (Kendall 1945; the tau of
    :func:`evalkit.stats.rank_correlation.kendall_tau` and
    ``scipy.stats.kendalltau``).  NaN where either row is constant.
    """
    x, y = _rows(x, y, "kendall_tau_b_many's x and y")
    if x.shape[1] < 2:
        raise InputError(f"Kendall's tau needs at least 2 runs, got {x.shape[1]}")
    a, b = np.triu_indices(x.shape[1], k=1)
    scale_x, scale_y = _scale(x, tol), _scale(y, tol)
    out = np.empty(x.shape[0])
    for rows in _blocks(x.shape[0], len(a), block_elements):
        sx, sy = _signs(x[rows], a, b, scale_x), _signs(y[rows], a, b, scale_y)
        product = sx * sy                                          # -1, 0, 1: fits int8
        s = np.count_nonzero(product > 0, axis=1) - np.count_nonzero(product < 0, axis=1)
        nx, ny = np.count_nonzero(sx, axis=1), np.count_nonzero(sy, axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[rows] = np.where((nx > 0) & (ny > 0), s / np.sqrt(nx.astype(float) * ny), np.nan)
    return out


def tau_ap_many(reference, estimate, tol: float = TOL, block_elements: int = _BLOCK) -> np.ndarray:
    """AP correlation of the ranking by ``estimate[i]`` against the one by ``reference[i]``.

    Yilmaz, Aslam & Robertson (2008), SIGIR, doi:10.1145/1390334.1390435, Eq. 2:
    ``tau_ap = 2 / (N - 1) * sum_{i=2..N} C(i) / (i - 1) - 1``, the runs
    ordered by ``estimate`` (higher first) and ``C(i)`` the runs above rank
    ``i`` that ``reference`` also ranks above the run at rank ``i``.  Ties as
    in :func:`evalkit.stats.rank_correlation.tau_ap` (whose value this is for
    every row): runs tied under ``estimate`` keep their column order, a pair
    tied under ``reference`` counts half; NaN where ``estimate`` ties every
    run (it has no order of its own).  Summed pair by pair: a pair at ranks
    ``j < i`` adds its credit (1, 1/2 or 0) divided by ``i - 1``.
    """
    ref, est = _rows(reference, estimate, "tau_ap_many's reference and estimate")
    n = ref.shape[1]
    if n < 2:
        raise InputError(f"tau_ap needs at least 2 runs, got {n}")
    a, b = np.triu_indices(n, k=1)
    scale_e, scale_r = _scale(est, tol), _scale(ref, tol)
    weight = 1.0 / b                                               # 1 / (i - 1), i = b + 1
    out = np.empty(ref.shape[0])
    for rows in _blocks(ref.shape[0], n * n, block_elements):
        ahead, _ = _ahead_tied(est[rows], scale_e)                 # runs clearly above
        order = np.argsort(ahead, axis=1, kind="stable")           # ties: column order
        s = _signs(np.take_along_axis(ref[rows], order, axis=1), a, b, scale_r)
        credit = (s > 0) + 0.5 * (s == 0)                          # the run above is above
        value = 2.0 / (n - 1) * (credit @ weight) - 1.0
        out[rows] = np.where(ahead.max(axis=1) > 0, value, np.nan)      # all tied: undefined
    return out


def top_k_overlap_many(reference, estimate, k: int, tol: float = TOL,
                       block_elements: int = _BLOCK) -> np.ndarray:
    """The share of the reference's top ``k`` runs that are also in the estimate's top ``k``.

    ``|top_k(reference) ∩ top_k(estimate)| / k``.  With ties at the ``k``-th
    place the top ``k`` is drawn at random among the tied runs, and this is
    the expected share: a run with ``a`` runs strictly ahead and ``g`` runs
    (itself included) tied with it is in the top ``k`` with probability
    ``p = clip((k - a) / g, 0, 1)``, and the overlap is
    ``sum_r p_ref(r) p_est(r) / k`` (tie-breaks of the two rankings
    independent).  Without ties it is the plain share; a leaderboard
    tying every run scores ``k / R``, chance.  Needs ``1 <= k < R``.
    """
    ref, est = _rows(reference, estimate, "top_k_overlap_many's reference and estimate")
    n = ref.shape[1]
    if isinstance(k, bool) or int(k) != k or not 1 <= k < n:
        raise ParameterError("top", k, f"a whole number from 1 to {n - 1} (below the {n} runs)")
    scales = _scale(ref, tol), _scale(est, tol)
    out = np.empty(ref.shape[0])
    for rows in _blocks(ref.shape[0], n * n, block_elements):
        p = []
        for x, scale in zip((ref[rows], est[rows]), scales):
            ahead, tied = _ahead_tied(x, scale)
            p.append(np.clip((k - ahead) / tied, 0.0, 1.0))
        out[rows] = (p[0] * p[1]).sum(axis=1) / k
    return out


def bootstrap_means(values, weights) -> np.ndarray:
    """Run means ``(B, R)`` of per-topic ``values`` ``(T, R)`` under topic ``weights`` ``(B, T)``.

    ``mean_b(r) = sum_t w_bt x_tr / sum_t w_bt``: with the counts of
    :func:`evalkit.stats.confusion_agreement.topic_bootstrap` this is the
    mean over the resampled topics.  The sum runs topic by topic, the same
    additions for every run, so two runs with the same per-topic values get
    the same mean to the last bit.
    """
    x = np.asarray(values, dtype=float)
    w = np.asarray(weights, dtype=float)
    if x.ndim != 2 or w.ndim != 2 or w.shape[1] != x.shape[0]:
        raise InputError(f"values (T, R) and weights (B, T) must share T, got {x.shape} and {w.shape}")
    total = np.zeros((w.shape[0], x.shape[1]))
    for t in range(x.shape[0]):
        total += w[:, t, None] * x[None, t, :]
    return total / w.sum(axis=1, keepdims=True)
