"""Fields after a line's n-th turned into spaces: run lines with text after the sixth field.

trec_eval ignores a run line's fields after the sixth (its own test run has
"more junk at end of lines"); :func:`evalkit.formats._columns.read_columns`
reads such files as the same file without them, with the same line numbers.
"""

from __future__ import annotations

import numpy as np

__all__ = ["first_fields"]


def first_fields(raw: bytes, n: int, counts: np.ndarray) -> bytes:
    """``raw`` (a simple file) with every field after a line's ``n``-th turned into spaces
    (so byte offsets and line numbers stay); ``counts``: :func:`_field_counts` of ``raw``."""
    a = np.frombuffer(raw, dtype=np.uint8)
    space = (a == 32) | (a == 9) | (a == 10) | (a == 13)
    begins = np.flatnonzero(~space & np.concatenate(([True], space[:-1])))
    del space
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))    # each line's first field's index
    long = np.flatnonzero(counts > n)
    cut = begins[first[long] + n]                              # where field n + 1 starts
    end = np.append(np.flatnonzero(a == 10), len(a))[long]     # each long line's end
    end = end - ((end > 0) & (a[np.maximum(end - 1, 0)] == 13))      # keep a CRLF's CR
    marks = np.zeros(len(a) + 1, dtype=np.int64)
    np.add.at(marks, cut, 1)
    np.add.at(marks, end, -1)
    out = a.copy()
    out[np.cumsum(marks[:-1]) > 0] = 32
    return out.tobytes()
