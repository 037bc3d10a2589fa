"""trec_eval's judgment groups (``-R qrels_jg``): qrels whose second column names who judged.

``topic group doc grade`` lines, whitespace separated, as trec_eval 10's
``get_qrels_jg.c`` reads them: the second column is the judgment group
(a user; trec_eval's qrels put an unused iteration there), the grade an
integer as in qrels (:func:`evalkit.formats.trec.read_qrels`: grades below 0
are in the pool but unjudged).  Each group of a topic is one set of
judgments; :mod:`evalkit.evaluate.scoring.judgment_groups` scores a run under
each and averages over the topic's groups.  A line that repeats an earlier
one exactly is read once (stderr says so); the same topic, group and
document with another grade is an error naming both lines (trec_eval:
"duplicate docs").
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from ._columns import (column_values, first_row, raise_first, read_columns, repeated_lines_note,
                       repeats, whole_numbers)
from ._header import LineFormat
from ._text import grade_problem, grade_value
from .run_table import topic_codes

__all__ = ["read_judgment_groups", "GROUP_COLUMNS", "GROUPS_LINE"]

#: The frame's columns.
GROUP_COLUMNS = ("topic", "group", "doc", "grade")

#: A judgment-groups line, for the header check (:mod:`evalkit.formats._header`).
GROUPS_LINE = LineFormat("topic group doc grade", 4, ((3, grade_value),))


def read_judgment_groups(path, skip_header: bool | None = None) -> pd.DataFrame:
    """Read a judgment-groups file into ``topic, group, doc, grade`` (see the module
    docstring); ``frame.attrs["read_notes"]`` holds what stderr should say of repeated
    lines."""
    path = Path(path)
    cols = read_columns(path, 4, text=(0, 1, 2), fmt=GROUPS_LINE, skip_header=skip_header)
    f = cols.frame
    topic, topic_code = topic_codes(f[0])
    grades, ok = column_values(cols, 3, grade_value, "iu")
    rows, firsts = repeats(topic_code, pd.factorize(f[1])[0], pd.factorize(f[2])[0])
    values = np.where(ok, grades, 0)
    differ = ok[rows] & ok[firsts] & (values[rows] != values[firsts]).astype(bool)

    def at(row):
        return dict(path=path, line=cols.line(row))

    def conflict(r):
        first = int(firsts[np.searchsorted(rows, r)])
        return InputError(f"document {f[2].iloc[r]} is judged twice by group {f[1].iloc[r]} for "
                          f"topic {topic.iloc[r]}, grade {values[r]} here and {values[first]} on "
                          f"line {cols.line(first)}", **at(r),
                          hint="keep one grade per topic, group and document")

    raise_first([
        (first_row(cols.count != 4), lambda r: InputError(
            f"expected 4 fields 'topic group doc grade' (trec_eval's qrels_jg), got "
            f"{cols.count[r]}", **at(r))),
        (first_row(~ok), lambda r: InputError(grade_problem(cols.token(r, 3)), **at(r))),
        (int(rows[differ][0]) if differ.any() else None, conflict),
    ])
    grades = grades if grades.dtype.kind in "iu" else whole_numbers(grades)
    frame = pd.DataFrame({"topic": topic, "group": f[1].astype(str), "doc": f[2],
                          "grade": grades})
    frame.attrs["read_notes"] = []
    if len(rows):
        frame.attrs["read_notes"].append(repeated_lines_note(cols, rows, firsts,
                                                             "topic, group, document and grade"))
        frame = frame.drop(index=rows).reset_index(drop=True)
    return frame
