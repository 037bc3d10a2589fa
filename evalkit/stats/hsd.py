"""The randomised Tukey HSD test (Carterette 2012; Sakai's Discpower) and
the two-way ANOVA residual variance behind Sakai's effect size ES_HSD.
See ``docs/statistics.md``.

The permutation kernel is compiled by numba (the ``fast`` extra); without
numba the same permutations run in numpy (:mod:`evalkit.stats._hsd_numpy`),
with the same answers to the last bit, more slowly.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import InputError, ParameterError

try:
    import numba
except ImportError:             # pip install evalkit-assessors without [fast]
    numba = None


def _njit(**options):
    return numba.njit(**options) if numba is not None else (lambda function: function)

__all__ = ["residual_variance", "seed_to_int", "tukey_null_ranges", "randomised_tukey_hsd",
           "randomised_tukey_hsd_many"]


def _score_matrix(scores) -> tuple[np.ndarray, list]:
    if isinstance(scores, pd.DataFrame):
        labels = list(scores.columns)
        x = scores.to_numpy(dtype=float)
    else:
        x = np.asarray(scores, dtype=float)
        labels = list(range(x.shape[1])) if x.ndim == 2 else []
    if x.ndim != 2:
        raise InputError(f"scores must be a topics x systems matrix, got shape {x.shape}")
    if x.shape[0] < 2 or x.shape[1] < 2:
        raise InputError(
            f"scores must have at least 2 topics and 2 systems, got shape {x.shape}"
        )
    if not np.all(np.isfinite(x)):
        t, s = np.argwhere(~np.isfinite(x))[0]
        raise InputError(
            f"scores has a non-finite value at topic row {t}, system {labels[s]!r}",
            hint="drop topics that cannot be scored before testing",
        )
    return x, labels


def residual_variance(scores) -> float:
    """``V_E = S_E / ((S-1)(T-1))``, two-way ANOVA without replication.

    ``S_E = sum_{t,j} (x_tj - xbar_.j - xbar_t. + xbar)^2`` for a ``T x S``
    topics-by-systems matrix (Sakai 2014, *Statistical reform in IR?*).
    """
    x, _ = _score_matrix(scores)
    resid = x - x.mean(axis=0) - x.mean(axis=1, keepdims=True) + x.mean()
    t, s = x.shape
    return float((resid**2).sum() / ((s - 1) * (t - 1)))


def seed_to_int(seed) -> int:
    """A 64-bit integer seed from ``None``, an int, or a ``numpy.random.Generator``.

    A Generator is advanced by one draw; ``None`` takes fresh OS entropy (not
    reproducible: pass a seed for reproducible results).
    """
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2**63))
    if seed is None:
        return int(np.random.default_rng().integers(0, 2**63))
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ParameterError("seed", seed, "None, an int or a numpy.random.Generator")
    # Mix the user's int so that nearby seeds give unrelated streams.
    return int(np.random.SeedSequence(int(seed)).generate_state(1, np.uint64)[0])


_GAMMA = np.uint64(0x9E3779B97F4A7C15)


_M1 = np.uint64(0xBF58476D1CE4E5B9)


_M2 = np.uint64(0x94D049BB133111EB)


@_njit(cache=True, inline="always")
def _splitmix64(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@_njit(cache=True, parallel=True)
def _null_range_sums(x, n_trials, seed):  # pragma: no cover - compiled
    """max - min of column sums after shuffling every topic row, per trial.

    ``x`` is a stack of ``M`` topics-by-systems matrices laid out ``(T, S, M)``;
    trial ``b`` applies the same row permutations to all ``M`` (common random
    numbers) and returns an ``(M, n_trials)`` array.  Trial ``b`` draws the ``b``-th contiguous block
    of one splitmix64 stream (the state advances by a Weyl constant per
    draw), so the result does not depend on how trials are split over
    threads.  Rows are shuffled by Fisher-Yates with a 32-bit multiply-shift
    bounded draw (bias below ``S / 2**32``, far under the Monte Carlo error).
    """
    t_count, s_count, m_count = x.shape  # (topics, systems, matrices): matrices innermost
    draws = np.uint64(t_count * (s_count - 1))
    out = np.empty((m_count, n_trials))
    for b in numba.prange(n_trials):
        state = np.uint64(seed) + np.uint64(b) * draws * _GAMMA
        sums = np.zeros((s_count, m_count))
        perm = np.empty((4, s_count), dtype=np.int64)
        t = 0
        while t < t_count:  # four topics at a time: their permutations, then their rows
            width = min(4, t_count - t)
            for u in range(width):
                for j in range(s_count):
                    perm[u, j] = j
                for j in range(s_count - 1, 0, -1):
                    state += _GAMMA
                    r = _splitmix64(state)
                    k = np.int64(((r >> np.uint64(32)) * np.uint64(j + 1)) >> np.uint64(32))
                    tmp = perm[u, j]
                    perm[u, j] = perm[u, k]
                    perm[u, k] = tmp
            if width == 4:
                # the same additions in the same (topic) order as one topic at a time,
                # with one load and store of the running sum per four rows
                for j in range(s_count):
                    p0, p1, p2, p3 = perm[0, j], perm[1, j], perm[2, j], perm[3, j]
                    for m in range(m_count):  # contiguous: vectorised by the compiler
                        sums[j, m] = (((sums[j, m] + x[t, p0, m]) + x[t + 1, p1, m])
                                      + x[t + 2, p2, m]) + x[t + 3, p3, m]
            else:
                for u in range(width):
                    for j in range(s_count):
                        pj = perm[u, j]
                        for m in range(m_count):
                            sums[j, m] += x[t + u, pj, m]
            t += width
        for m in range(m_count):
            hi = sums[0, m]
            lo = sums[0, m]
            for j in range(1, s_count):
                v = sums[j, m]
                if v > hi:
                    hi = v
                if v < lo:
                    lo = v
            out[m, b] = hi - lo
    return out


@_njit(cache=True, parallel=True)
def _null_range_sums_one(x, n_trials, seed):  # pragma: no cover - compiled
    """:func:`_null_range_sums` of a single matrix (``M = 1``), the same draws and sums,
    with the one-matrix loop the compiler makes faster."""
    t_count, s_count, _ = x.shape
    draws = np.uint64(t_count * (s_count - 1))
    out = np.empty((1, n_trials))
    for b in numba.prange(n_trials):
        state = np.uint64(seed) + np.uint64(b) * draws * _GAMMA
        sums = np.zeros(s_count)
        perm = np.empty(s_count, dtype=np.int64)
        for t in range(t_count):
            for j in range(s_count):
                perm[j] = j
            for j in range(s_count - 1, 0, -1):
                state += _GAMMA
                r = _splitmix64(state)
                k = np.int64(((r >> np.uint64(32)) * np.uint64(j + 1)) >> np.uint64(32))
                tmp = perm[j]
                perm[j] = perm[k]
                perm[k] = tmp
            for j in range(s_count):
                sums[j] += x[t, perm[j], 0]
        out[0, b] = sums.max() - sums.min()
    return out


def _check_trials(n_trials) -> int:
    if isinstance(n_trials, bool) or int(n_trials) != n_trials or n_trials < 1:
        raise ParameterError("n_trials", n_trials, "a whole number >= 1")
    return int(n_trials)


def tukey_null_ranges(scores, n_trials: int = 5000, seed=None) -> np.ndarray:
    """The randomisation distribution of ``max_j mean_j - min_j mean_j``.

    For each of ``n_trials`` trials every topic row of ``scores`` (a
    ``topics x systems`` matrix) is permuted independently and the range of
    the system means recorded.  The permutations depend only on ``seed`` and
    the matrix shape, so one seed gives the same permutations for any two
    matrices of one shape (common random numbers).
    """
    x, _ = _score_matrix(scores)
    return _null_ranges([x], _check_trials(n_trials), seed)[0]


def _null_ranges(matrices: list[np.ndarray], n_trials: int, seed) -> np.ndarray:
    stack = np.ascontiguousarray(np.stack(matrices, axis=-1))  # (T, S, M)
    if numba is None:
        from ._hsd_numpy import null_range_sums as kernel
    else:
        kernel = _null_range_sums_one if stack.shape[2] == 1 else _null_range_sums
    sums = kernel(stack, n_trials, np.uint64(seed_to_int(seed)))
    return sums / stack.shape[0]


def randomised_tukey_hsd(scores, n_trials: int = 5000, seed=None) -> pd.DataFrame:
    """Randomised Tukey HSD test of every system pair (Carterette 2012; Discpower).

    For each of ``B = n_trials`` trials the scores are permuted within every
    topic row and the range ``max - min`` of the system means is recorded; the
    p-value of a pair is the fraction of trials whose range is at least the
    pair's observed ``|mean difference|``.  This controls the familywise error
    rate over all pairs.

    Parameters
    ----------
    scores:
        ``topics x systems`` matrix (a DataFrame's columns label the systems,
        otherwise systems are integer indices).
    n_trials:
        Number of randomisation trials ``B``.
    seed:
        int or ``numpy.random.Generator``.  The same seed gives the same row
        permutations for every matrix of the same shape, so comparing two gain
        definitions with one seed uses common random numbers: discrepancies
        then come from the gains, not from sampling noise.

    Returns
    -------
    DataFrame
        One row per pair ``a < b`` (in column order): ``system_a``,
        ``system_b``, ``diff`` (mean of a minus mean of b), ``p_value``,
        ``p_value_se`` (Monte Carlo standard error ``sqrt(p(1-p)/B)``; for p = 0,
        ``p = 1/(B+1)`` in it: :func:`mc_error`) and
        ``effect_size`` (``ES_HSD = |diff| / sqrt(V_E)``, Sakai 2014, with
        ``V_E`` from :func:`residual_variance`).
    """
    return randomised_tukey_hsd_many([scores], n_trials, seed)[0]


def randomised_tukey_hsd_many(matrices, n_trials: int = 5000, seed=None) -> list[pd.DataFrame]:
    """:func:`randomised_tukey_hsd` of several same-shape matrices in one pass.

    Every matrix sees the same row permutations (the ones
    ``randomised_tukey_hsd(m, n_trials, seed)`` would use for each alone), and
    the random draws are made once, not once per matrix.
    """
    parsed = [_score_matrix(m) for m in matrices]
    if not parsed:
        return []
    shapes = {x.shape for x, _ in parsed}
    if len(shapes) > 1:
        raise InputError(f"matrices must share one shape, got {sorted(shapes)}")
    n_trials = _check_trials(n_trials)
    nulls = np.sort(_null_ranges([x for x, _ in parsed], n_trials, seed), axis=1)
    return [_hsd_table(x, labels, null) for (x, labels), null in zip(parsed, nulls)]


def _hsd_arrays(x: np.ndarray, null_sorted: np.ndarray) -> dict:
    """The columns of :func:`_hsd_table` as arrays (``a``, ``b``: the pairs' column indices)."""
    n_trials = null_sorted.size
    means = x.mean(axis=0)
    a, b = np.triu_indices(x.shape[1], k=1)
    diff = means[a] - means[b]
    # Trial sums are accumulated in another order than the observed means:
    # allow a few ulps so that an exact tie counts as ">=".
    tol = 1e-12 * max(1.0, float(np.abs(x).max()))
    count = n_trials - np.searchsorted(null_sorted, np.abs(diff) - tol, side="left")
    p = count / n_trials
    ve = residual_variance(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        es = np.abs(diff) / np.sqrt(ve)
    return {"a": a, "b": b, "diff": diff, "p_value": p,
            "p_value_se": mc_error(p, n_trials), "effect_size": es}


def mc_error(p, n_trials: int):
    """The Monte Carlo standard error ``sqrt(q (1 - q) / B)`` of randomised p-values ``p =
    count / B``, with ``q = max(p, 1 / (B + 1))``: a p of 0 (no trial as extreme) is below
    ``1 / B``, not exact, so its error is bounded with ``(count + 1) / (B + 1)``, never 0."""
    q = np.maximum(np.asarray(p, dtype=float), 1.0 / (n_trials + 1))
    return np.sqrt(q * (1 - q) / n_trials)


def _hsd_many_arrays(matrices: list[np.ndarray], n_trials: int, seed) -> list[dict]:
    """:func:`randomised_tukey_hsd_many` of same-shape ``topics x systems`` arrays, as
    :func:`_hsd_arrays` dicts (no frames: for experiments testing thousands of matrices)."""
    parsed = [_score_matrix(m)[0] for m in matrices]
    if not parsed:
        return []
    shapes = {x.shape for x in parsed}
    if len(shapes) > 1:
        raise InputError(f"matrices must share one shape, got {sorted(shapes)}")
    nulls = np.sort(_null_ranges(parsed, _check_trials(n_trials), seed), axis=1)
    return [_hsd_arrays(x, null) for x, null in zip(parsed, nulls)]


def _hsd_table(x: np.ndarray, labels: list, null_sorted: np.ndarray) -> pd.DataFrame:
    cols = _hsd_arrays(x, null_sorted)
    return pd.DataFrame(
        {
            "system_a": [labels[i] for i in cols["a"]],
            "system_b": [labels[i] for i in cols["b"]],
            **{k: cols[k] for k in ("diff", "p_value", "p_value_se", "effect_size")},
        }
    )
