"""Per-assessor ratings: one line ``topic assessor doc rating`` per judgment.

The TREC qrels shape with the assessor in the second column, as crowdsourced
relevance labels are commonly distributed.  An item (topic, doc) may have any
number of ratings N_i; a missing rating is simply an absent line.  Ratings
are whole numbers (``2``, ``2.0``; negative ones too, unless ``dmax`` makes
the scale 0..dmax); a line repeating an earlier one exactly is read once
(``frame.attrs["read_notes"]``).  Files may be compressed and may start with a
header line to skip (``skip_header``), as :mod:`evalkit.formats.trec` says.
:func:`read_any_ratings` also accepts the NTCIR-12 STC Japanese file
(``post reply r1 ... rN``, read by :func:`evalkit.formats.ratings.read_ratings`),
turned into the same long frame.

A large file of plain white space is read by the compiled scanner of
:mod:`evalkit.formats._scan` (500,000 lines in about a tenth of a second);
any other file, and any file that fails a check, column-wise
(:mod:`evalkit.formats._columns`), which names the line and the problem.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError, ParameterError
from ..measures.gains import check_dmax
from ._columns import (checked_bytes, column_values, first_duplicate, first_row, raise_first,
                       read_columns, repeated_lines_note, repeats, use_compiled)
from ._header import LineFormat, first_line, skip_headers
from ._text import grade_problem, grade_value

__all__ = ["read_assessor_ratings", "write_assessor_ratings", "read_any_ratings", "COLUMNS",
           "RATINGS_LINE"]

#: The long frame every ratings reader returns.
COLUMNS = ["topic", "assessor", "doc", "rating"]


def rating_value(token: str) -> int:
    """A rating: a whole number (``2``, ``-1``, ``2.0``), as
    :func:`~evalkit.formats._text.grade_value` reads grades, without NTCIREVAL's ``L``."""
    return grade_value(token, levels=False)


#: A ratings line, for the header check (:mod:`evalkit.formats._header`).
RATINGS_LINE = LineFormat("topic assessor doc rating", 4, ((3, rating_value),))


def read_assessor_ratings(path, dmax: int | None = None, compiled: bool | None = None,
                          skip_header: bool | None = None) -> pd.DataFrame:
    """Read ``topic assessor doc rating`` lines into a frame with :data:`COLUMNS`.

    Errors name the file and line: a line without four fields, a rating that
    is not a whole number, with ``dmax`` one outside 0..dmax, and the same
    (topic, assessor, doc) with two ratings.  An empty file is an error too.
    ``compiled``: read by the compiled scanner (default: a file of at least
    :data:`~evalkit.formats._columns.COMPILED_MIN_BYTES`); the same answers.
    ``skip_header``: skip a first line that looks like a header (None: as
    :func:`~evalkit.formats._header.skipping_headers` says).
    """
    if dmax is not None:
        check_dmax(dmax)
    path = Path(path)
    if use_compiled(path) if compiled is None else compiled:
        raw, simple = checked_bytes(path, RATINGS_LINE, skip_header)
        frame = _scanned(raw, dmax) if simple else None
        if frame is not None:
            frame.attrs["read_notes"] = []
            return frame
    return _column_ratings(path, dmax, skip_header)


def _scanned(raw: bytes, dmax: int | None) -> pd.DataFrame | None:
    """The compiled path (:mod:`evalkit.formats._scan`); None when a check fails, for
    the column-wise reader to name the line and the problem."""
    from ._intern import token_ids
    from ._scan import numbers, split_fields

    buf = np.frombuffer(raw, dtype=np.uint8)
    starts, ends, ok = split_fields(buf, 4)
    if not ok:
        return None
    codes, names = [], []
    for k, expected in ((0, 64), (1, 64), (2, None)):
        code, written = token_ids(raw, buf, starts[k], ends[k], expected)
        codes.append(code)
        names.append(written)
    if first_duplicate(*codes)[0] is not None:
        return None
    rating = numbers(raw, buf, starts[3], ends[3], int)
    if rating is None or (dmax is not None and ((rating < 0).any() or (rating > dmax).any())):
        return None
    return pd.DataFrame({"topic": names[0][codes[0]], "assessor": names[1][codes[1]],
                         "doc": names[2][codes[2]], "rating": rating}, columns=COLUMNS)


def _column_ratings(path: Path, dmax: int | None, skip_header: bool | None = None) -> pd.DataFrame:
    """The column-wise path of :func:`read_assessor_ratings` (any file; every check)."""
    cols = read_columns(path, 4, text=(0, 1, 2), fmt=RATINGS_LINE, skip_header=skip_header)
    f = cols.frame
    codes = [pd.factorize(f[k], sort=False)[0] for k in (0, 1, 2)]
    rows, firsts = repeats(*codes)
    values, ok = column_values(cols, 3, rating_value, "iu")
    number = np.where(ok, values, 0)                      # Python ints (any size) or int64
    differ = ok[rows] & ok[firsts] & (number[rows] != number[firsts]).astype(bool)

    def at(row, **extra):
        return dict(path=path, line=cols.line(row), **extra)

    def conflict(r):
        first = int(firsts[np.searchsorted(rows, r)])
        return InputError(
            f"assessor {f[1].iloc[r]} rates document {f[2].iloc[r]} of topic {f[0].iloc[r]} "
            f"twice, {number[r]} here and {number[first]} on line {cols.line(first)}",
            **at(r, hint="keep one rating per assessor and item"))

    raise_first([
        (first_row(cols.count != 4), lambda r: InputError(
            f"expected 4 fields 'topic assessor doc rating', got {cols.count[r]}", **at(r))),
        (first_row(~ok), lambda r: InputError(
            grade_problem(cols.token(r, 3), "rating"), **at(r, hint="ratings are integers"))),
        (None if dmax is None else first_row(ok & (number < 0).astype(bool)),
         lambda r: InputError(f"rating {number[r]} is negative", **at(
             r, hint=f"ratings are 0..{dmax} here (--dmax {dmax})"))),
        (None if dmax is None else first_row(ok & (number > dmax).astype(bool)),
         lambda r: InputError(f"rating {number[r]} is above --dmax {dmax}",
                              **at(r, hint="raise --dmax or fix the rating"))),
        (int(rows[differ][0]) if differ.any() else None, conflict),
    ])
    huge = first_row(np.asarray((number > 2 ** 63 - 1) | (number < -2 ** 63), dtype=bool))
    if huge is not None:                # checked last: a line-by-line reader meets it at the end
        raise InputError(f"rating {number[huge]} is too large", **at(huge, hint="ratings are "
                         "integers 0..Dmax; give --dmax to name the largest"))
    frame = pd.DataFrame({"topic": f[0], "assessor": f[1], "doc": f[2],
                          "rating": np.asarray(values).astype(np.int64)}, columns=COLUMNS)
    frame.attrs["read_notes"] = []
    if len(rows):
        frame.attrs["read_notes"].append(repeated_lines_note(
            cols, rows, firsts, "topic, assessor, document and rating"))
        frame.attrs["repeated_rows"] = rows          # rows read, not kept (for line numbers)
        frame = frame.drop(index=rows).reset_index(drop=True)
    return frame


def write_assessor_ratings(ratings: pd.DataFrame, path) -> Path:
    """Write a frame with :data:`COLUMNS` as ``topic assessor doc rating`` lines."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{t} {a} {d} {int(r)}\n" for t, a, d, r in ratings[COLUMNS].itertuples(index=False)]
    path.write_text("".join(lines))
    return path


def _stc_long(path: Path, dmax: int | None, skip_header: bool | None = None) -> pd.DataFrame:
    from .ratings import read_ratings

    items, matrix = read_ratings(path, dmax, skip_header)
    item_idx, assessor_idx = np.nonzero(~np.isnan(matrix))
    return pd.DataFrame({
        "topic": items["post"].to_numpy()[item_idx],
        "assessor": [f"a{j + 1}" for j in assessor_idx],
        "doc": items["reply"].to_numpy()[item_idx],
        "rating": matrix[item_idx, assessor_idx].astype(np.int64),
    }, columns=COLUMNS).__finalize__(items)


def _first_fields(path: Path, skip_header: bool | None = None) -> list[str]:
    """The fields of the first non-blank line (the file checked whole, read no further);
    with ``skip_header``, of the next one when that line looks like a header of either format."""
    from .ratings import STC_LINE

    raw, _ = checked_bytes(path)
    found = first_line(raw)
    if found is None:
        raise InputError("file is empty", path=path)  # not reached: checked_bytes refuses it
    fields = found[3].split()
    if skip_headers(skip_header) and any(f.looks_like_header(fields)
                                         for f in (RATINGS_LINE, STC_LINE)):
        after = first_line(raw[found[2]:])
        fields = after[3].split() if after is not None else fields
    return fields


def read_any_ratings(path, dmax: int | None = None, fmt: str = "auto",
                     compiled: bool | None = None, skip_header: bool | None = None) -> pd.DataFrame:
    """Ratings in either format as a long frame with :data:`COLUMNS`.

    ``fmt`` is ``"assessor"`` (``topic assessor doc rating``), ``"stc"``
    (``post reply r1 ... rN``, assessors named a1..aN, ``NA`` dropped) or
    ``"auto"``: the per-assessor format when the first line has four
    fields, otherwise STC-ja (the real file has ten ratings per line; an
    STC-ja file with exactly two ratings per line needs ``fmt="stc"``).
    ``compiled``, ``skip_header``: see :func:`read_assessor_ratings`.
    """
    if dmax is not None:
        check_dmax(dmax)
    path = Path(path)
    if fmt not in ("auto", "assessor", "stc"):
        raise ParameterError("format", fmt, "one of auto, assessor, stc")
    if fmt == "auto":
        first = _first_fields(path, skip_header)
        fmt = "assessor" if len(first) == 4 else "stc"
    if fmt == "assessor":
        return read_assessor_ratings(path, dmax, compiled, skip_header)
    return _stc_long(path, dmax, skip_header)
