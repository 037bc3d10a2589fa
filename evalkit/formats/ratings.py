"""Per-assessor ratings in the NTCIR-12 STC Japanese format (read column-wise).

One line per item, ``post reply r1 ... rN``; compressed files and header
lines as :mod:`evalkit.formats.trec` says.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from ._columns import (checked_bytes, first_row, parse_tokens, raise_first, read_columns,
                       repeated_lines_note, repeats)
from ._header import LineFormat, first_line
from ._text import grade_problem, grade_value

__all__ = ["read_ratings", "STC_LINE"]


def _rating_token(token: str) -> float | int:
    """A rating: a whole number (``2``, ``2.0``), or NA (any case) for a missing one (NaN)."""
    return np.nan if token.upper() == "NA" else grade_value(token, levels=False)


#: An STC-ja line, for the header check (:mod:`evalkit.formats._header`).
STC_LINE = LineFormat("post reply r1 ... rN", 3, ((2, _rating_token),), more=True)


def read_ratings(path, dmax: int | None = None,
                 skip_header: bool | None = None) -> tuple[pd.DataFrame, np.ndarray]:
    """Read ``post reply r1 ... rN`` (whitespace separated) ratings.

    Returns ``(items, ratings)``: a frame with ``post, reply`` and an
    ``items x N`` float array, ``NaN`` where a rating is ``NA`` (missing).
    Every line must have the same N; ratings are whole numbers (``2.0`` is
    2; with ``dmax``, in 0..dmax); an item listed twice with other ratings is
    an error, a line repeating an earlier one exactly is read once
    (``items.attrs["read_notes"]`` says so).  ``skip_header``: skip a first line
    that looks like a header (:mod:`evalkit.formats._header`).
    """
    path = Path(path)
    raw, _ = checked_bytes(path, STC_LINE, skip_header)
    found = first_line(raw)                       # the first non-blank line sets N
    width = max(len(found[3].split()), 3) if found is not None else 3
    del raw
    cols = read_columns(path, width, fmt=STC_LINE, skip_header=skip_header)
    f = cols.frame
    count = cols.count
    post, reply = pd.factorize(f[0], sort=False)[0], pd.factorize(f[1], sort=False)[0]
    rows, firsts = repeats(post, reply)
    same = np.ones(len(rows), dtype=bool)
    matrix, parsed = np.empty((len(f), width - 2)), []
    checks = [
        (first_row(count < 3), lambda r: InputError("expected 'post reply r1 ... rN'",
                                                    path=path, line=cols.line(r))),
        (first_row((count >= 3) & (count != count[0])), lambda r: InputError(
            f"expected {count[0] - 2} ratings like the first line, got {count[r] - 2}",
            path=path, line=cols.line(r))),
    ]
    for j in range(2, width):
        values, ok = parse_tokens(f[j], _rating_token)
        whole = ok & np.array([isinstance(v, int) for v in values], dtype=bool)   # not NA
        number = np.where(whole, values, 0)                  # Python ints (any size)
        outside = np.zeros(len(f), dtype=bool)
        if dmax is not None:
            outside = whole & ((number < 0) | (number > dmax)).astype(bool)
        same &= ok[rows] & ok[firsts] & (whole[rows] == whole[firsts]) \
            & (number[rows] == number[firsts]).astype(bool)
        checks.append((first_row(~ok), lambda r, j=j: InputError(
            grade_problem(f[j].iloc[r], "rating") + " or NA", path=path, line=cols.line(r))))
        checks.append((first_row(outside), lambda r, j=j, v=values: InputError(
            f"rating {v[r]} is outside 0..{dmax}", path=path, line=cols.line(r))))
        parsed.append((whole, number))

    def conflict(r):
        first = int(firsts[np.searchsorted(rows, r)])
        return InputError(f"item {f[0].iloc[r]} {f[1].iloc[r]} listed twice with other ratings "
                          f"(first on line {cols.line(first)})", path=path, line=cols.line(r))

    checks.append((int(rows[~same][0]) if (~same).any() else None, conflict))
    raise_first(checks)
    for j, (whole, number) in enumerate(parsed):
        matrix[:, j] = np.where(whole, number, np.nan)
    items = pd.DataFrame({"post": f[0], "reply": f[1]})
    items.attrs["read_notes"] = []
    if len(rows):
        items.attrs["read_notes"].append(repeated_lines_note(cols, rows, firsts, "item and ratings"))
        keep = np.setdiff1d(np.arange(len(f)), rows)
        items, matrix = items.iloc[keep].reset_index(drop=True), matrix[keep]
    return items, matrix
