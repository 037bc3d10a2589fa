"""Per-assessor ratings in the NTCIR-12 STC Japanese format."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from ._text import _lines

__all__ = ["read_ratings"]


def read_ratings(path, dmax: int | None = None) -> tuple[pd.DataFrame, np.ndarray]:
    """Read ``post reply r1 ... rN`` (whitespace separated) ratings.

    Returns ``(items, ratings)``: a frame with ``post, reply`` and an
    ``items x N`` float array, ``NaN`` where a rating is ``NA`` (missing).
    Every line must have the same N; ratings are whole numbers >= 0 (and
    <= ``dmax`` when given); an item listed twice is an error.
    """
    path = Path(path)
    items, rows = [], []
    seen: dict[tuple[str, str], int] = {}
    width = None
    for number, fields in _lines(path):
        if len(fields) < 3:
            raise InputError("expected 'post reply r1 ... rN'", path=path, line=number)
        if width is None:
            width = len(fields)
        elif len(fields) != width:
            raise InputError(f"expected {width - 2} ratings like the first line, got {len(fields) - 2}",
                             path=path, line=number)
        key = (fields[0], fields[1])
        if key in seen:
            raise InputError(f"item {key[0]} {key[1]} listed twice (first on line {seen[key]})",
                             path=path, line=number)
        seen[key] = number
        row = []
        for token in fields[2:]:
            if token.upper() == "NA":
                row.append(np.nan)
                continue
            try:
                value = int(token)
            except ValueError:
                raise InputError(f"rating {token!r} is not a whole number or NA",
                                 path=path, line=number) from None
            if value < 0 or (dmax is not None and value > dmax):
                raise InputError(f"rating {value} is outside 0..{dmax if dmax is not None else 'inf'}",
                                 path=path, line=number)
            row.append(float(value))
        items.append(key)
        rows.append(row)
    return pd.DataFrame(items, columns=["post", "reply"]), np.array(rows, dtype=float)
