"""The randomised Tukey HSD's permutation kernel in numpy, for installs without numba.

:func:`null_range_sums` returns what ``evalkit.stats.hsd._null_range_sums``
(compiled by numba) returns, bit for bit: trial ``b`` starts its splitmix64
stream at ``seed + b * T(S-1) * gamma``, shuffles each topic row by
Fisher-Yates with the same 32-bit multiply-shift draws, and adds the
permuted rows in topic order, so every sum is formed in the same order.
Here the trials are the vectorised axis (blocks of :data:`BLOCK`), and the
loops run over topics and positions instead.
"""

from __future__ import annotations

import numpy as np

__all__ = ["null_range_sums", "BLOCK"]

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_30, _27, _31, _32 = (np.uint64(k) for k in (30, 27, 31, 32))

#: Trials permuted at once (memory: BLOCK x systems x matrices floats).
BLOCK = 4096


def _splitmix64(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> _30)) * _M1
    z = (z ^ (z >> _27)) * _M2
    return z ^ (z >> _31)


def null_range_sums(x: np.ndarray, n_trials: int, seed) -> np.ndarray:
    """max - min of the column sums after shuffling every topic row, per trial.

    ``x``: ``(T, S, M)``, M topics-by-systems matrices sharing the permutations;
    returns ``(M, n_trials)``.
    """
    t_count, s_count, m_count = x.shape
    draws = np.uint64(t_count * (s_count - 1))
    out = np.empty((m_count, n_trials))
    with np.errstate(over="ignore"):
        for start in range(0, n_trials, BLOCK):
            b = np.arange(start, min(start + BLOCK, n_trials), dtype=np.uint64)
            n = b.size
            rows = np.arange(n)
            state = np.uint64(seed) + b * draws * _GAMMA
            sums = np.zeros((n, s_count, m_count))
            for t in range(t_count):
                perm = np.tile(np.arange(s_count), (n, 1))
                for j in range(s_count - 1, 0, -1):
                    state += _GAMMA
                    r = _splitmix64(state)
                    k = (((r >> _32) * np.uint64(j + 1)) >> _32).astype(np.int64)
                    picked = perm[rows, k]
                    perm[rows, k] = perm[:, j]
                    perm[:, j] = picked
                sums += x[t][perm]                       # (n, S, M), added in topic order
            out[:, start:start + n] = (sums.max(axis=1) - sums.min(axis=1)).T
    return out
