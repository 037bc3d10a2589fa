"""Running sums over the last axis: ``np.cumsum(a, axis=-1, dtype=...)``, value for value.

The measures read ranked lists ``(G, T, depth)`` through running sums (documents
found in the top k, DCG at every k, AP's sum of precisions, trec_eval's
one-after-another totals).  numpy's ``cumsum`` adds left to right and holds the
GIL while it does, so two threads scoring two run files at once
(:func:`evalkit.evaluate.scoring.engine.scored_runs`) wait for each other.
:func:`running_sum` gives the same values — the same additions in the same
order, so the same bits — from a compiled loop that releases the GIL, when the
array is large (:data:`COMPILED_MIN_CELLS`) and numba is already loaded (the
large-input readers load it); otherwise it is ``np.cumsum`` itself.  Importing
numba here for a few arrays would cost more than it saves.
"""

from __future__ import annotations

import sys

import numpy as np

__all__ = ["running_sum", "sequential_total", "COMPILED_MIN_CELLS"]

#: Cells from which the compiled loop is used (when numba is loaded): one topic set of a
#: TREC track, 50 topics x 1,000 documents, and up.
COMPILED_MIN_CELLS = 1 << 15

#: Input and result types the compiled loop takes (anything else: ``np.cumsum``).
_KINDS = {np.dtype(np.bool_), np.dtype(np.int8), np.dtype(np.int32), np.dtype(np.int64),
          np.dtype(np.float64)}
_RESULTS = {np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float64)}


def running_sum(a, dtype=None, compiled: bool | None = None) -> np.ndarray:
    """``np.cumsum(a, axis=-1, dtype=dtype)``, the same values.

    ``compiled``: None (default) uses the compiled loop for an array of at least
    :data:`COMPILED_MIN_CELLS` cells when numba is already imported; True or
    False forces the choice (True still needs numba; the tests compare both).
    """
    a = np.asarray(a)
    if compiled is None:
        compiled = a.size >= COMPILED_MIN_CELLS and _numba_loaded()
    if not compiled or a.ndim == 0 or a.shape[-1] == 0 or a.dtype not in _KINDS:
        return np.cumsum(a, axis=-1, dtype=dtype)
    out_type = np.dtype(dtype) if dtype is not None else np.cumsum(a[..., :0], axis=-1).dtype
    if out_type not in _RESULTS or (a.dtype.kind == "f" and out_type.kind != "f"):
        return np.cumsum(a, axis=-1, dtype=dtype)     # numpy casts each float first: its way
    from ._running_kernel import running_rows

    rows = np.ascontiguousarray(a).reshape(-1, a.shape[-1])
    out = np.empty(rows.shape, dtype=out_type)
    running_rows(rows, out)
    return out.reshape(a.shape)


def _numba_loaded() -> bool:
    return "numba" in sys.modules


def sequential_total(values: np.ndarray) -> np.ndarray:
    """The sum over the last axis, adding one value after another (trec_eval's order;
    numpy's ``sum`` adds pairwise and can differ in the last bit)."""
    if values.shape[-1] == 0:
        return np.zeros(values.shape[:-1])
    return running_sum(values)[..., -1]
