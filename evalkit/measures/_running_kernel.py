"""The compiled loop of :func:`evalkit.measures.running.running_sum` (numba imported here)."""

from __future__ import annotations

import numba


@numba.njit(cache=True, nogil=True)
def running_rows(rows, out):  # pragma: no cover - compiled
    """``out[i, j] = out[i, j - 1] + rows[i, j]``, left to right, as numpy's ``add.accumulate``
    adds (no reassociation: numba compiles without fast-math)."""
    for i in range(rows.shape[0]):
        out[i, 0] = rows[i, 0]
        for j in range(1, rows.shape[1]):
            out[i, j] = out[i, j - 1] + rows[i, j]
