"""One judge's labels in one TREC qrels file (``topic iteration doc grade``), as judges come.

``--judge NAME=FILE`` of ``evalkit score``, ``compare``, ``assessors`` and
``agreement`` reads each judge's qrels with :func:`read_judge_qrels`: the
checks of :func:`evalkit.formats.trec.read_qrels`, and two mistakes named
with their fix:

* a per-assessor ratings file (``topic assessor doc rating``, several
  names in the second column; numbers there, as in TREC-COVID's qrels, are
  iterations) given as one judge: give it with ``--ratings``;
* several judges' qrels written one after another into one file (a document
  given two grades for a topic): one file per judge, each with ``--judge``.

Lines repeated exactly are read once, with a note (``frame.attrs["read_notes"]``).
:func:`data_lines` maps a reader's rows to the file's line numbers, so that a
grade found outside the declared scale after reading is named by file and line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from ._columns import checked_bytes, read_columns
from ._header import LineFormat
from .trec import QRELS_LINE, read_qrels

__all__ = ["read_judge_qrels", "data_lines", "second_column"]


def data_lines(path, fmt: LineFormat | None = None, skip_header: bool | None = None) -> np.ndarray:
    """The 1-based line numbers of a file's non-blank lines (the rows of a reader of the
    format ``fmt``, in order; a header line it skipped is not one of them)."""
    raw, simple = checked_bytes(Path(path), fmt, skip_header)
    if simple and raw.isascii():       # lines end at LF only, blanks are space, tab and CR
        buf = np.frombuffer(raw, dtype=np.uint8)
        ends = np.flatnonzero(buf == 10)
        if not raw.endswith(b"\n"):
            ends = np.append(ends, len(buf))
        if not len(buf):
            return np.zeros(0, dtype=np.int64)
        starts = np.r_[0, ends[:-1] + 1]      # each line's bytes run up to the next start
        return np.flatnonzero(np.maximum.reduceat(_FILLED[buf], starts)) + 1
    text = raw.decode("utf-8")
    return np.asarray([i + 1 for i, line in enumerate(text.splitlines()) if line.strip()],
                      dtype=np.int64)


#: Bytes that fill a line of a simple ASCII file (not space, tab, CR or LF).
_FILLED = np.ones(256, dtype=np.uint8)
_FILLED[[32, 9, 13, 10]] = 0


def second_column(path, skip_header: bool | None = None) -> pd.Series:
    """The second field of every line of a four-field file, as text."""
    return read_columns(Path(path), 4, text=(0, 1, 2), fmt=QRELS_LINE,
                        skip_header=skip_header).frame[1].astype(str)


def read_judge_qrels(path, name: str | None = None, skip_header: bool | None = None
                     ) -> pd.DataFrame:
    """One judge's TREC qrels as ``topic, doc, grade`` (:func:`~evalkit.formats.trec.read_qrels`).

    A document given two grades for a topic is refused with the fix: when the
    second column holds several names the file is taken for a per-assessor
    ratings file (give it with ``--ratings``), otherwise for several judges'
    qrels one after another (one file per judge, each with ``--judge``).
    Several values in the second column, one of them not a number, are
    refused as a ratings file even without a document graded twice.
    ``frame.attrs["second_column"]`` holds the distinct values of the
    iteration field (up to 5) and ``frame.attrs["second_column_count"]`` how many there are.
    ``skip_header``: as :func:`~evalkit.formats.trec.read_qrels`.
    """
    path = Path(path)
    who = f"judge {name}" if name else "this judge"
    try:
        frame = read_qrels(path, skip_header)
    except InputError as exc:
        if "judged twice" not in exc.problem:
            raise
        values = pd.unique(second_column(path, skip_header))
        if len(values) > 1:
            shown = ", ".join(map(str, values[:5])) + (" ..." if len(values) > 5 else "")
            raise InputError(
                f"{exc.problem}: the second column holds {len(values)} names ({shown}), so this "
                f"looks like several assessors' ratings 'topic assessor doc rating', not the qrels "
                f"of {who}", path=exc.path, line=exc.line,
                hint="give it with --ratings FILE, or one qrels file per judge with "
                     "--judge NAME=FILE") from None
        raise InputError(
            f"{exc.problem}: one judge grades a document once, so this looks like several "
            f"judges' qrels one after another", path=exc.path, line=exc.line,
            hint="split it into one file per judge and give each with --judge NAME=FILE, or "
                 "write the judge's name in the second column and give it with --ratings FILE"
        ) from None
    count, shown = frame.attrs["second_column_count"], frame.attrs["second_column"]
    if count > 1 and frame.attrs["second_column_names"]:
        shown = ", ".join(shown) + (" ..." if count > 5 else "")
        raise InputError(
            f"the second column holds {count} different values ({shown}), so this looks like "
            f"several assessors' ratings 'topic assessor doc rating', not the qrels of {who}",
            path=path, hint="give it with --ratings FILE, or one qrels file per judge with "
                            "--judge NAME=FILE")
    return frame
