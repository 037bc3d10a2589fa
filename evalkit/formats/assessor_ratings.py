"""Per-assessor ratings: one line ``topic assessor doc rating`` per judgment.

The TREC qrels shape with the assessor in the second column, as crowdsourced
relevance labels are commonly distributed.  An item (topic, doc) may have any
number of ratings N_i; a missing rating is simply an absent line.
:func:`read_any_ratings` also accepts the NTCIR-12 STC Japanese file
(``post reply r1 ... rN``, read by :func:`evalkit.formats.ratings.read_ratings`),
turned into the same long frame.

A large file of plain white space is read by the compiled scanner of
:mod:`evalkit.formats._scan` (500,000 lines in about a tenth of a second);
any other file, and any file that fails a check, column-wise
(:mod:`evalkit.formats._columns`), which names the line and the problem.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError, ParameterError
from ..measures.gains import check_dmax
from ._columns import (checked_bytes, column_values, first_duplicate, first_row, raise_first,
                       read_columns, use_compiled)

__all__ = ["read_assessor_ratings", "write_assessor_ratings", "read_any_ratings", "COLUMNS"]

#: The long frame every ratings reader returns.
COLUMNS = ["topic", "assessor", "doc", "rating"]


def read_assessor_ratings(path, dmax: int | None = None, compiled: bool | None = None) -> pd.DataFrame:
    """Read ``topic assessor doc rating`` lines into a frame with :data:`COLUMNS`.

    Errors name the file and line: a line without four fields, a rating that
    is not a whole number, a negative rating or one above ``dmax``, and the
    same (topic, assessor, doc) twice.  An empty file is an error too.
    ``compiled``: read by the compiled scanner (default: a file of at least
    :data:`~evalkit.formats._columns.COMPILED_MIN_BYTES`); the same answers.
    """
    if dmax is not None:
        check_dmax(dmax)
    path = Path(path)
    if use_compiled(path) if compiled is None else compiled:
        raw, simple = checked_bytes(path)
        frame = _scanned(raw, dmax) if simple else None
        if frame is not None:
            return frame
    return _column_ratings(path, dmax)


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
    if rating is None or (rating < 0).any() or (dmax is not None and (rating > dmax).any()):
        return None
    return pd.DataFrame({"topic": names[0][codes[0]], "assessor": names[1][codes[1]],
                         "doc": names[2][codes[2]], "rating": rating}, columns=COLUMNS)


def _column_ratings(path: Path, dmax: int | None) -> pd.DataFrame:
    """The column-wise path of :func:`read_assessor_ratings` (any file; every check)."""
    cols = read_columns(path, 4, text=(0, 1, 2))
    f = cols.frame
    codes = [pd.factorize(f[k], sort=False)[0] for k in (0, 1, 2)]
    dup, first = first_duplicate(*codes)
    values, ok = column_values(cols, 3, int, "iu")
    number = np.where(ok, values, 0)                      # Python ints (any size) or int64

    def at(row, **extra):
        return dict(path=path, line=cols.line(row), **extra)

    raise_first([
        (first_row(cols.count != 4), lambda r: InputError(
            f"expected 4 fields 'topic assessor doc rating', got {cols.count[r]}", **at(r))),
        (first_row(~ok), lambda r: InputError(
            f"rating {cols.token(r, 3)!r} is not a whole number",
            **at(r, hint="ratings are integers 0..Dmax"))),
        (first_row(ok & (number < 0).astype(bool)), lambda r: InputError(
            f"rating {number[r]} is negative", **at(r))),
        (None if dmax is None else first_row(ok & (number > dmax).astype(bool)),
         lambda r: InputError(f"rating {number[r]} is above --dmax {dmax}",
                              **at(r, hint="raise --dmax or fix the rating"))),
        (dup, lambda r: InputError(
            f"assessor {f[1].iloc[r]} rates document {f[2].iloc[r]} of topic {f[0].iloc[r]} "
            f"twice (first on line {cols.line(first)})",
            **at(r, hint="keep one rating per assessor and item"))),
    ])
    huge = first_row(np.asarray(number > 2 ** 63 - 1, dtype=bool))
    if huge is not None:                # checked last: a line-by-line reader meets it at the end
        raise InputError(f"rating {number[huge]} is too large", **at(huge, hint="ratings are "
                         "integers 0..Dmax; give --dmax to name the largest"))
    return pd.DataFrame({"topic": f[0], "assessor": f[1], "doc": f[2],
                         "rating": np.asarray(values).astype(np.int64)}, columns=COLUMNS)


def write_assessor_ratings(ratings: pd.DataFrame, path) -> Path:
    """Write a frame with :data:`COLUMNS` as ``topic assessor doc rating`` lines."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{t} {a} {d} {int(r)}\n" for t, a, d, r in ratings[COLUMNS].itertuples(index=False)]
    path.write_text("".join(lines))
    return path


def _stc_long(path: Path, dmax: int | None) -> pd.DataFrame:
    from .ratings import read_ratings

    items, matrix = read_ratings(path, dmax)
    item_idx, assessor_idx = np.nonzero(~np.isnan(matrix))
    return pd.DataFrame({
        "topic": items["post"].to_numpy()[item_idx],
        "assessor": [f"a{j + 1}" for j in assessor_idx],
        "doc": items["reply"].to_numpy()[item_idx],
        "rating": matrix[item_idx, assessor_idx].astype(np.int64),
    }, columns=COLUMNS)


def _first_fields(path: Path) -> list[str]:
    """The fields of the first non-blank line (the file checked whole, read no further)."""
    raw, _ = checked_bytes(path)
    for chunk in io.BytesIO(raw):
        for line in chunk.decode("utf-8").splitlines():
            if line.strip():
                return line.split()
    raise InputError("file is empty", path=path)  # not reached: checked_bytes refuses it


def read_any_ratings(path, dmax: int | None = None, fmt: str = "auto",
                     compiled: bool | None = None) -> pd.DataFrame:
    """Ratings in either format as a long frame with :data:`COLUMNS`.

    ``fmt`` is ``"assessor"`` (``topic assessor doc rating``), ``"stc"``
    (``post reply r1 ... rN``, assessors named a1..aN, ``NA`` dropped) or
    ``"auto"``: the per-assessor format when the first line has four
    fields, otherwise STC-ja (the real file has ten ratings per line; an
    STC-ja file with exactly two ratings per line needs ``fmt="stc"``).
    ``compiled``: see :func:`read_assessor_ratings`.
    """
    if dmax is not None:
        check_dmax(dmax)
    path = Path(path)
    if fmt not in ("auto", "assessor", "stc"):
        raise ParameterError("format", fmt, "one of auto, assessor, stc")
    if fmt == "auto":
        first = _first_fields(path)
        fmt = "assessor" if len(first) == 4 else "stc"
    if fmt == "assessor":
        return read_assessor_ratings(path, dmax, compiled)
    return _stc_long(path, dmax)
