"""Per-assessor ratings: one line ``topic assessor doc rating`` per judgment.

The TREC qrels shape with the assessor in the second column, as crowdsourced
relevance labels are commonly distributed.  An item (topic, doc) may have any
number of ratings N_i; a missing rating is simply an absent line.
:func:`read_any_ratings` also accepts the NTCIR-12 STC Japanese file
(``post reply r1 ... rN``, read by :func:`evalkit.formats.ratings.read_ratings`),
turned into the same long frame.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError, ParameterError
from ..measures.gains import check_dmax
from ._text import _lines, _read_text

__all__ = ["read_assessor_ratings", "write_assessor_ratings", "read_any_ratings", "COLUMNS"]

#: The long frame every ratings reader returns.
COLUMNS = ["topic", "assessor", "doc", "rating"]


def read_assessor_ratings(path, dmax: int | None = None) -> pd.DataFrame:
    """Read ``topic assessor doc rating`` lines into a frame with :data:`COLUMNS`.

    Errors name the file and line: a line without four fields, a rating that
    is not a whole number, a negative rating or one above ``dmax``, and the
    same (topic, assessor, doc) twice.  An empty file is an error too.
    """
    if dmax is not None:
        check_dmax(dmax)
    path = Path(path)
    rows, seen = [], {}
    for number, fields in _lines(path):
        if len(fields) != 4:
            raise InputError(f"expected 4 fields 'topic assessor doc rating', got {len(fields)}",
                             path=path, line=number)
        topic, assessor, doc, token = fields
        try:
            rating = int(token)
        except ValueError:
            raise InputError(f"rating {token!r} is not a whole number", path=path, line=number,
                             hint="ratings are integers 0..Dmax") from None
        if rating < 0:
            raise InputError(f"rating {rating} is negative", path=path, line=number)
        if dmax is not None and rating > dmax:
            raise InputError(f"rating {rating} is above --dmax {dmax}", path=path, line=number,
                             hint="raise --dmax or fix the rating")
        key = (topic, assessor, doc)
        if key in seen:
            raise InputError(f"assessor {assessor} rates document {doc} of topic {topic} twice "
                             f"(first on line {seen[key]})", path=path, line=number,
                             hint="keep one rating per assessor and item")
        seen[key] = number
        rows.append((topic, assessor, doc, rating))
    return pd.DataFrame(rows, columns=COLUMNS).astype({"rating": np.int64})


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


def read_any_ratings(path, dmax: int | None = None, fmt: str = "auto") -> pd.DataFrame:
    """Ratings in either format as a long frame with :data:`COLUMNS`.

    ``fmt`` is ``"assessor"`` (``topic assessor doc rating``), ``"stc"``
    (``post reply r1 ... rN``, assessors named a1..aN, ``NA`` dropped) or
    ``"auto"``: the per-assessor format when the first line has four
    fields, otherwise STC-ja (the real file has ten ratings per line; an
    STC-ja file with exactly two ratings per line needs ``fmt="stc"``).
    """
    if dmax is not None:
        check_dmax(dmax)
    path = Path(path)
    if fmt not in ("auto", "assessor", "stc"):
        raise ParameterError("format", fmt, "one of auto, assessor, stc")
    if fmt == "auto":
        first = next(line.split() for line in _read_text(path).splitlines() if line.strip())
        fmt = "assessor" if len(first) == 4 else "stc"
    if fmt == "assessor":
        return read_assessor_ratings(path, dmax)
    return _stc_long(path, dmax)
