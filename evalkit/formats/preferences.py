"""User preference judgment logs (Wang et al. §5): one CSV row per judgment."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..errors import InputError
from ._text import _lines, _topic

__all__ = ["PREFERENCE_COLUMNS", "read_preferences"]


PREFERENCE_COLUMNS = ["assessor", "batch", "pair_id", "type", "topic", "left_run", "right_run",
                      "choice", "seconds"]


def read_preferences(path, runs=None, topics=None) -> pd.DataFrame:
    """Read a preference judgment log (CSV with header :data:`PREFERENCE_COLUMNS`).

    ``type`` is the sampling type (precision, recall or f1), ``choice`` one of
    left, right, neither, ``seconds`` the time spent (>= 0).  With ``runs`` or
    ``topics`` (sets of known ids) unknown ones are refused.  A pair judged
    twice by one assessor is an error.
    """
    import math

    path = Path(path)
    lines = _lines(path, ",")
    header = next(lines, None)
    if header is None or [h.strip() for h in header[1]] != PREFERENCE_COLUMNS:
        raise InputError("expected the header " + ",".join(PREFERENCE_COLUMNS), path=path, line=1)
    rows, seen = [], {}
    for number, fields in lines:
        fields = [f.strip() for f in fields]
        if len(fields) != len(PREFERENCE_COLUMNS):
            raise InputError(f"expected {len(PREFERENCE_COLUMNS)} fields, got {len(fields)}",
                             path=path, line=number)
        assessor, batch, pair_id, kind, topic, left, right, choice, seconds = fields
        if choice not in ("left", "right", "neither"):
            raise InputError(f"choice {choice!r} is not left, right or neither", path=path, line=number)
        if kind not in ("precision", "recall", "f1"):
            raise InputError(f"type {kind!r} is not precision, recall or f1", path=path, line=number)
        try:
            secs = float(seconds)
        except ValueError:
            raise InputError(f"seconds {seconds!r} is missing or not a number", path=path, line=number) from None
        if not math.isfinite(secs) or secs < 0:
            raise InputError(f"seconds {seconds} must be a finite number >= 0", path=path, line=number)
        try:
            batch_i, pair_i = int(batch), int(pair_id)
        except ValueError:
            raise InputError("batch and pair_id must be whole numbers", path=path, line=number) from None
        topic = _topic(topic)
        if topics is not None and topic not in topics:
            raise InputError(f"unknown topic {topic!r}", path=path, line=number)
        for run in (left, right):
            if runs is not None and run not in runs:
                raise InputError(f"unknown run {run!r}", path=path, line=number)
        key = (assessor, pair_i)
        if key in seen:
            raise InputError(f"assessor {assessor} judged pair {pair_i} twice (first on line {seen[key]})",
                             path=path, line=number)
        seen[key] = number
        rows.append((assessor, batch_i, pair_i, kind, topic, left, right, choice, secs))
    if not rows:
        raise InputError("no judgments in file", path=path)
    return pd.DataFrame(rows, columns=PREFERENCE_COLUMNS)
