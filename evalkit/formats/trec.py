"""TREC formats: qrels, runs and TREC Microblog topics.

qrels
    ``topic iteration doc grade``: whitespace separated; ``grade`` an integer
    (negative ones too: TREC Web's -2 for spam, kept as written; trec_eval
    counts a grade below 0 as in the pool but not judged), ``L0``/``L1``/``L2``...
    (NTCIREVAL style) or an integral decimal (``1.0`` is 1; ``1.5`` is refused).
    The iteration field is ignored.  In qrels and runs alike, a line whose
    first non-blank character is ``#`` is a comment (trec_eval 10).  A line that repeats an earlier line's
    topic, document and grade is read once (``frame.attrs["read_notes"]`` says
    so); the same document with another grade is an error naming both lines
    (trec_eval refuses both: "duplicate docs").
run
    ``topic Q0 doc rank score tag``: one file per run (the tag names it).
    Fields after the sixth are ignored, as trec_eval ignores them (its own
    test run has "more junk at end of lines"); ``rank`` must be an integer, ``score`` a finite number; a document listed
    twice in one topic is an error, as in trec_eval.
topics
    The TREC Microblog topic file (``<top>`` blocks).

Every file may be gzip, bz2 or xz (:mod:`evalkit.formats._compressed`); a
first line that names the columns is refused as a header line, or skipped
with ``skip_header`` (:mod:`evalkit.formats._header`).

At TREC scale (millions of lines) the checks, and the first error, are those
of a line-by-line reading.  Runs are read by a compiled one-pass scanner
(:mod:`evalkit.formats._scan`), qrels column-wise
(:mod:`evalkit.formats._columns`); a run file that fails a check is read again
column-wise to name the line and the problem.  :func:`run_table` is the
scoring path's view of a run (integer codes for topics and documents).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from ..outputs import write_text
from ._columns import (column_values, first_row, raise_first, read_columns, repeated_lines_note,
                       repeats, whole_numbers)
from ._header import LineFormat
from ._text import _lines, _topic, grade_problem, grade_value
from .run_table import RUN_LINE, RunTable, run_table, topic_codes

__all__ = ["read_qrels", "graded_lines", "write_qrels", "read_run", "read_runs", "write_run", "read_topics",
           "RunTable", "run_table", "QRELS_LINE", "RUN_LINE"]

#: A qrels line, for the header check (:mod:`evalkit.formats._header`).
QRELS_LINE = LineFormat("topic iteration doc grade", 4, ((3, grade_value),))


def _iteration_number(text) -> bool:
    """An iteration field as TREC writes them (``0``, ``1``, ``0.5``), not an assessor's name."""
    try:
        float(str(text))
    except ValueError:
        return False
    return True


def graded_lines(path: Path, fmt: LineFormat, skip_header: bool | None, fields: str,
                 group: bool = False):
    """``(columns, topics, grades, repeated rows, their first rows)`` of a file of
    ``topic X doc grade`` lines, checked column-wise with a line-by-line reading's first error:
    four fields (``fields`` says which), a grade :func:`grade_value` reads, and one grade per
    topic and document (per group too with ``group``: trec_eval's ``qrels_jg``, whose second
    field names who judged)."""
    cols = read_columns(path, 4, text=(0, 1, 2), fmt=fmt, skip_header=skip_header)
    f = cols.frame
    topic, topic_code = topic_codes(f[0])
    grades, ok = column_values(cols, 3, grade_value, "iu")
    keys = ([pd.factorize(f[1])[0]] if group else []) + [pd.factorize(f[2])[0]]
    rows, firsts = repeats(topic_code, *keys)
    values = np.where(ok, grades, 0)
    differ = ok[rows] & ok[firsts] & (values[rows] != values[firsts]).astype(bool)

    def at(row):
        return dict(path=path, line=cols.line(row))

    def conflict(r):
        first = int(firsts[np.searchsorted(rows, r)])
        by = f" by group {f[1].iloc[r]}" if group else ""
        return InputError(f"document {f[2].iloc[r]} is judged twice{by} for topic "
                          f"{topic.iloc[r]}, grade {values[r]} here and {values[first]} on "
                          f"line {cols.line(first)}", **at(r),
                          hint="keep one grade per topic, group and document" if group else
                          "keep one grade per topic and document")

    raise_first([
        (first_row(cols.count != 4), lambda r: InputError(f"{fields}, got {cols.count[r]}",
                                                          **at(r))),
        (first_row(~ok), lambda r: InputError(grade_problem(cols.token(r, 3)), **at(r))),
        (int(rows[differ][0]) if differ.any() else None, conflict),
    ])
    grades = grades if grades.dtype.kind in "iu" else whole_numbers(grades)
    return cols, topic, grades, rows, firsts


def read_qrels(path, skip_header: bool | None = None) -> pd.DataFrame:
    """Read TREC qrels into a frame with columns ``topic, doc, grade`` (see the module
    docstring for what a line may hold).

    Read column-wise (:mod:`evalkit.formats._columns`); the checks and the
    first error reported are those of a line-by-line reading.  Exactly
    repeated lines are read once: ``frame.attrs["read_notes"]`` holds what stderr
    should say of them, ``frame.attrs["repeated_rows"]`` which of the file's
    non-blank lines (0-based) were not kept.  ``skip_header``: skip a first line that looks
    like a header (None: as :func:`~evalkit.formats._header.skipping_headers` says).
    ``attrs["second_column"]`` holds the iteration field's first 5 distinct values,
    ``["second_column_count"]`` how many there are and ``["second_column_names"]`` how many of
    them are not numbers (assessors' names: a ratings file, not qrels).
    """
    path = Path(path)
    cols, topic, grades, rows, firsts = graded_lines(
        path, QRELS_LINE, skip_header, "expected 4 fields 'topic iteration doc grade'")
    f = cols.frame
    frame = pd.DataFrame({"topic": topic, "doc": f[2], "grade": grades})
    second = pd.unique(f[1].to_numpy(dtype=object))        # the iteration field's values
    frame.attrs["second_column"] = [str(v) for v in second[:5]]
    frame.attrs["second_column_count"] = int(len(second))
    frame.attrs["second_column_names"] = int(sum(not _iteration_number(v) for v in second))
    frame.attrs["read_notes"] = []
    if len(rows):
        frame.attrs["read_notes"].append(repeated_lines_note(cols, rows, firsts,
                                                        "topic, document and grade"))
        frame.attrs["repeated_rows"] = rows          # rows read, not kept (for line numbers)
        frame = frame.drop(index=rows).reset_index(drop=True)
    return frame


def write_qrels(qrels: pd.DataFrame, path) -> Path:
    """Write ``topic, doc, grade`` as TREC qrels (iteration field 0)."""
    lines = (f"{t} 0 {d} {g}\n" for t, d, g in qrels[["topic", "doc", "grade"]].itertuples(index=False))
    return write_text(path, "".join(lines))


def read_run(path, qrels: pd.DataFrame | None = None, report: list | None = None,
             compiled: bool | None = None, skip_header: bool | None = None) -> pd.DataFrame:
    """Read one TREC run into ``run, topic, doc, rank, score``.

    If ``qrels`` is given, rows for topics the qrels do not judge are dropped
    (they cannot be scored) and one message per such topic is appended to
    ``report`` (or raised as an error when ``report`` is None, so nothing is
    dropped silently).  ``compiled``, ``skip_header``: see :func:`run_table`.
    """
    path = Path(path)
    table = run_table(path, compiled=compiled, skip_header=skip_header)
    run = pd.DataFrame({"run": table.tag_column, "topic": table.topic, "doc": table.doc,
                        "rank": table.rank, "score": table.score})
    if qrels is not None:
        judged = set(qrels["topic"].unique())
        extra = sorted(set(run["topic"]) - judged)
        if extra:
            message = (
                f"{path}: topics {extra} are not in the qrels; "
                f"{int(run['topic'].isin(extra).sum())} rows dropped"
            )
            if report is None:
                raise InputError(
                    f"topics {extra} are not in the qrels",
                    path=path, hint="pass report=[] to drop them and collect a message",
                )
            report.append(message)
            run = run[~run["topic"].isin(extra)].reset_index(drop=True)
    return run


def read_runs(folder, qrels: pd.DataFrame | None = None, report: list | None = None,
              skip_header: bool | None = None) -> pd.DataFrame:
    """Read every run file in ``folder`` (sorted by name) into one frame."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("run folder not found", path=folder)
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    if not files:
        raise InputError("no run files found", path=folder)
    root = folder.resolve()
    for p in files:
        if root not in p.resolve().parents:
            raise InputError(f"links outside the run folder (to {p.resolve()})", path=p,
                             hint="copy the file into the folder instead of linking it")
    runs = [read_run(p, qrels, report, skip_header=skip_header) for p in files]
    frame = pd.concat(runs, ignore_index=True)
    names = [r["run"].iloc[0] for r in runs if len(r)]
    if len(set(names)) != len(names):
        raise InputError("two run files share a run tag", path=folder)
    return frame


def write_run(run: pd.DataFrame, path) -> Path:
    """Write one run (``run, topic, doc, rank, score``) in TREC format."""
    lines = (
        f"{t} Q0 {d} {r} {s:.6f} {tag}\n"
        for tag, t, d, r, s in run[["run", "topic", "doc", "rank", "score"]].itertuples(index=False)
    )
    return write_text(path, "".join(lines))


def read_topics(path) -> pd.DataFrame:
    """Read TREC Microblog topics (``<top> <num> Number: MB171 </num> <query> ...``).

    Returns ``topic`` (e.g. "171"), ``query``, ``querytime`` (text) and
    ``querytweettime`` (tweet id as text).
    """
    import re

    path = Path(path)
    text = "\n".join(" ".join(f) for _, f in _lines(path))
    blocks = re.findall(r"<top>(.*?)</top>", text, flags=re.S)
    if not blocks:
        raise InputError("no <top> ... </top> topic blocks", path=path)
    rows = []
    for k, block in enumerate(blocks, start=1):
        fields = {}
        for tag in ("num", "query", "querytime", "querytweettime"):
            m = re.search(rf"<{tag}>(.*?)</{tag}>", block, flags=re.S)
            if m is None:
                raise InputError(f"topic block {k} has no <{tag}>", path=path)
            fields[tag] = " ".join(m.group(1).split())
        num = fields["num"].replace("Number:", "").strip()
        rows.append((_topic(num), fields["query"], fields["querytime"], fields["querytweettime"]))
    return pd.DataFrame(rows, columns=["topic", "query", "querytime", "querytweettime"])
