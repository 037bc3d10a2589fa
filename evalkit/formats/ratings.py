"""Per-assessor ratings in the NTCIR-12 STC Japanese format (read column-wise)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from ._columns import (checked_bytes, first_duplicate, first_row, parse_tokens, raise_first,
                       read_columns)

__all__ = ["read_ratings"]


def read_ratings(path, dmax: int | None = None) -> tuple[pd.DataFrame, np.ndarray]:
    """Read ``post reply r1 ... rN`` (whitespace separated) ratings.

    Returns ``(items, ratings)``: a frame with ``post, reply`` and an
    ``items x N`` float array, ``NaN`` where a rating is ``NA`` (missing).
    Every line must have the same N; ratings are whole numbers >= 0 (and
    <= ``dmax`` when given); an item listed twice is an error.
    """
    path = Path(path)
    raw, _ = checked_bytes(path)
    width = None
    for chunk in io.BytesIO(raw):                 # the first non-blank line sets N
        line = next((x for x in chunk.decode("utf-8").splitlines() if x.strip()), None)
        if line is not None:
            width = max(len(line.split()), 3)
            break
    del raw
    cols = read_columns(path, width)
    f = cols.frame
    count = cols.count
    post, reply = pd.factorize(f[0], sort=False)[0], pd.factorize(f[1], sort=False)[0]
    dup, first = first_duplicate(post, reply)
    matrix, parsed = np.empty((len(f), width - 2)), []
    checks = [
        (first_row(count < 3), lambda r: InputError("expected 'post reply r1 ... rN'",
                                                    path=path, line=cols.line(r))),
        (first_row((count >= 3) & (count != count[0])), lambda r: InputError(
            f"expected {count[0] - 2} ratings like the first line, got {count[r] - 2}",
            path=path, line=cols.line(r))),
        (dup, lambda r: InputError(f"item {f[0].iloc[r]} {f[1].iloc[r]} listed twice "
                                   f"(first on line {cols.line(first)})",
                                   path=path, line=cols.line(r))),
    ]
    for j in range(2, width):
        values, ok = parse_tokens(f[j], _rating_token)
        whole = ok & np.array([isinstance(v, int) for v in values], dtype=bool)   # not NA
        number = np.where(whole, values, 0)                  # Python ints (any size)
        outside = whole & (number < 0).astype(bool)
        if dmax is not None:
            outside |= whole & (number > dmax).astype(bool)
        checks.append((first_row(~ok), lambda r, j=j: InputError(
            f"rating {f[j].iloc[r]!r} is not a whole number or NA", path=path, line=cols.line(r))))
        checks.append((first_row(outside), lambda r, j=j, v=values: InputError(
            f"rating {v[r]} is outside 0..{dmax if dmax is not None else 'inf'}",
            path=path, line=cols.line(r))))
        parsed.append((whole, number))
    raise_first(checks)
    for j, (whole, number) in enumerate(parsed):
        matrix[:, j] = np.where(whole, number, np.nan)
    return pd.DataFrame({"post": f[0], "reply": f[1]}), matrix


def _rating_token(token: str) -> float | int:
    """A rating: a whole number, or NA (any case) for a missing one (NaN)."""
    return np.nan if token.upper() == "NA" else int(token)
