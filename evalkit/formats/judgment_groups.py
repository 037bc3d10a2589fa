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

import pandas as pd

from ._columns import repeated_lines_note
from ._header import LineFormat
from ._text import grade_value
from .trec import graded_lines

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
    cols, topic, grades, rows, firsts = graded_lines(
        path, GROUPS_LINE, skip_header, "expected 4 fields 'topic group doc grade' (trec_eval's "
        "qrels_jg)", group=True)
    f = cols.frame
    frame = pd.DataFrame({"topic": topic, "group": f[1].astype(str), "doc": f[2],
                          "grade": grades})
    frame.attrs["read_notes"] = []
    if len(rows):
        frame.attrs["read_notes"].append(repeated_lines_note(cols, rows, firsts,
                                                             "topic, group, document and grade"))
        frame = frame.drop(index=rows).reset_index(drop=True)
    return frame
