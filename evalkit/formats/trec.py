"""TREC formats: qrels, runs and TREC Microblog topics.

qrels
    ``topic iteration doc grade``: whitespace separated; ``grade`` an integer
    >= 0 or ``L0``/``L1``/``L2``... (NTCIREVAL style).  The iteration field is
    ignored.  A document judged twice for one topic is an error.
run
    ``topic Q0 doc rank score tag``: one file per run (the tag names it).
    ``rank`` must be an integer, ``score`` a finite number; a document listed
    twice in one topic is an error.  Items are ordered by rank.
topics
    The TREC Microblog topic file (``<top>`` blocks).

At TREC scale (millions of lines) the checks, and the first error, are those
of a line-by-line reading.  Runs are read by a compiled one-pass scanner
(:mod:`evalkit.formats._scan`), qrels column-wise
(:mod:`evalkit.formats._columns`); a run file that fails a check is read again
column-wise to name the line and the problem.  :func:`run_table` is the
scoring path's view of a run (integer codes for topics and documents).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from ..errors import InputError
from ..outputs import write_text
from ._columns import (checked_bytes, column_values, distinct_ids, first_duplicate, first_row,
                       raise_first, read_columns, use_compiled, whole_numbers)
from ._text import _lines, _topic, run_fields_message

__all__ = ["read_qrels", "write_qrels", "read_run", "read_runs", "write_run", "read_topics",
           "RunTable", "run_table"]


def read_qrels(path) -> pd.DataFrame:
    """Read TREC qrels into a frame with columns ``topic, doc, grade``.

    Read column-wise (:mod:`evalkit.formats._columns`); the checks and the
    first error reported are those of a line-by-line reading.
    """
    path = Path(path)
    cols = read_columns(path, 4, text=(0, 1, 2))
    f = cols.frame
    topic, topic_code = _topics(f[0])
    dup, first = first_duplicate(topic_code, pd.factorize(f[2])[0])
    grades, ok = column_values(cols, 3, _grade_token, "iu")
    negative = ok & (np.where(ok, grades, 0) < 0).astype(bool)

    def at(row):
        return dict(path=path, line=cols.line(row))

    raise_first([
        (first_row(cols.count != 4), lambda r: InputError(
            f"expected 4 fields 'topic iteration doc grade', got {cols.count[r]}", **at(r))),
        (dup, lambda r: InputError(
            f"document {f[2].iloc[r]} is judged twice for topic {topic.iloc[r]} "
            f"(first on line {cols.line(first)})", **at(r))),
        (first_row(~ok), lambda r: InputError(
            f"grade {cols.token(r, 3)!r} is not an integer or L0/L1/L2...", **at(r))),
        (first_row(negative), lambda r: InputError(
            f"grade {cols.token(r, 3)!r} is negative", **at(r))),
    ])
    grades = grades if grades.dtype.kind in "iu" else whole_numbers(grades)
    return pd.DataFrame({"topic": topic, "doc": f[2], "grade": grades})


def _grade_token(token: str) -> int:
    """A qrels grade: an integer, or L0/L1/L2... (NTCIREVAL)."""
    return int(token[1:] if token[:1] in ("L", "l") else token)


def _topics(column: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """Normalised topic ids (:func:`_topic`, once per distinct id) and their integer codes."""
    values = column.to_numpy(dtype=object)
    heads = (np.flatnonzero(np.r_[True, values[1:] != values[:-1]]) if len(values)
             else np.zeros(0, dtype=np.int64))
    codes, uniques = pd.factorize(values[heads], sort=False)   # one lookup per block of a topic
    codes = np.repeat(codes, np.diff(np.r_[heads, len(values)]))
    normal = [_topic(t) for t in uniques.tolist()]
    if normal == uniques.tolist():
        return column, codes
    merged, names = pd.factorize(pd.Index(normal, dtype=object), sort=False)
    topic = pd.Series(np.asarray(names, dtype=object)[merged[codes]], dtype=column.dtype)
    return topic, merged[codes]


def write_qrels(qrels: pd.DataFrame, path) -> Path:
    """Write ``topic, doc, grade`` as TREC qrels (iteration field 0)."""
    lines = (f"{t} 0 {d} {g}\n" for t, d, g in qrels[["topic", "doc", "grade"]].itertuples(index=False))
    return write_text(path, "".join(lines))


def read_run(path, qrels: pd.DataFrame | None = None, report: list | None = None,
             compiled: bool | None = None) -> pd.DataFrame:
    """Read one TREC run into ``run, topic, doc, rank, score``.

    If ``qrels`` is given, rows for topics the qrels do not judge are dropped
    (they cannot be scored) and one message per such topic is appended to
    ``report`` (or raised as an error when ``report`` is None, so nothing is
    dropped silently).  ``compiled``: see :func:`run_table`.
    """
    path = Path(path)
    table = run_table(path, compiled=compiled)
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


@dataclass
class RunTable:
    """One run file, checked, as columns: the scoring path's view of :func:`read_run`.

    ``topic_code`` indexes ``topics`` (each distinct normalised topic id once)
    and ``doc_code`` indexes :attr:`docs` (each distinct document id once,
    those of the vocabulary first); :attr:`topic`, :attr:`doc` and
    :attr:`tag_column` are the ids per row as text, built when asked for.
    """

    path: Path
    tag: str
    topic_code: np.ndarray
    topics: list[str]
    doc_code: np.ndarray
    rank: np.ndarray
    score: np.ndarray
    _docs: Callable[[], np.ndarray] = field(repr=False)
    _ids: Callable[[np.ndarray], list] | None = field(default=None, repr=False)

    @cached_property
    def docs(self) -> np.ndarray:
        """The distinct document ids (object array): ``docs[doc_code]`` is each row's."""
        return self._docs()

    def doc_ids(self, codes: np.ndarray) -> list[str]:
        """The ids of some document codes, without building :attr:`docs` for a few."""
        if self._ids is None or "docs" in self.__dict__:
            return self.docs[np.asarray(codes, dtype=np.int64)].tolist()
        return self._ids(np.asarray(codes, dtype=np.int64))

    @property
    def topic(self) -> pd.Series:
        return pd.Series(np.asarray(self.topics, dtype=object)[self.topic_code])

    @property
    def doc(self) -> pd.Series:
        return pd.Series(self.docs[self.doc_code])

    @property
    def tag_column(self) -> pd.Series:
        return pd.Series(np.full(len(self.rank), self.tag, dtype=object))


def run_table(path, vocabulary=None, compiled: bool | None = None) -> RunTable:
    """Read and check one TREC run file (see :func:`read_run` for the format).

    The checks, and the first error reported (file, line, problem), are those
    of a line-by-line reading: 6 fields, an integer rank, a finite score, each
    document once per topic, one tag per file.  ``vocabulary``: distinct
    document ids (any sequence, or :class:`evalkit.formats._intern.Interned`
    to reuse across files); a ``doc_code`` below its length is that document
    of the vocabulary.

    With ``compiled`` (default: a file of at least
    :data:`~evalkit.formats._columns.COMPILED_MIN_BYTES`) a file of plain white
    space is read by the compiled scanner (:mod:`evalkit.formats._scan`); any
    other file, and any file that fails a check, by the column-wise reader,
    which names the line and the problem.  The answers are the same.
    """
    path = Path(path)
    if compiled is None:
        compiled = use_compiled(path)
    interned = vocabulary if hasattr(vocabulary, "codes") else None
    names = interned.names if interned is not None else distinct_ids(() if vocabulary is None
                                                                      else vocabulary)
    if compiled:
        from ._intern import Interned

        raw, simple = checked_bytes(path)
        if interned is None:
            interned = Interned(names)
        table = _scanned_run(path, raw, interned) if simple else None
        if table is not None:
            return table
    return _column_run(path, names)


def _scanned_run(path: Path, raw: bytes, vocabulary) -> RunTable | None:
    """The compiled path of :func:`run_table`; None when a check fails (the column-wise
    reader then names the problem), or a token is one only it can judge.

    A line without six fields after rows that pass every check is reported
    here: at the end of a large file that saves reading it again.
    """
    from ._intern import token_ids
    from ._scan import first_other, numbers, split_fields, stopped_at

    buf = np.frombuffer(raw, dtype=np.uint8)
    starts, ends, ok = split_fields(buf, 6)
    if ok and first_other(buf, starts[5], ends[5]) >= 0:
        return None                               # two tags: the column-wise reader says which
    topic_raw, written = token_ids(raw, buf, starts[0], ends[0], expected=64)
    names = [_topic(t) for t in written.tolist()]
    merged, topics = pd.factorize(pd.Index(names, dtype=object), sort=False)
    topic_code = merged[topic_raw]
    doc_code, doc_first = vocabulary.codes(buf, starts[2], ends[2])
    if first_duplicate(topic_code, doc_code)[0] is not None:
        return None
    rank = numbers(raw, buf, starts[3], ends[3], int)
    score = numbers(raw, buf, starts[4], ends[4], float)
    if rank is None or score is None:
        return None                               # a bad token, or a rank beyond int64
    if not np.isfinite(score).all():
        return None
    if not ok:
        line, fields = stopped_at(raw, ends)
        raise InputError(run_fields_message(fields), path=path, line=line)
    tag = raw[starts[5, 0]:ends[5, 0]].decode("utf-8")
    new_starts, new_ends = starts[2, doc_first], ends[2, doc_first]

    def docs() -> np.ndarray:
        new = [raw[a:b].decode("utf-8") for a, b in zip(new_starts.tolist(), new_ends.tolist())]
        return np.concatenate([vocabulary.names, np.asarray(new, dtype=object)])

    known = len(vocabulary.names)

    def ids(codes: np.ndarray) -> list[str]:
        return [vocabulary.names[c] if c < known else
                raw[new_starts[c - known]:new_ends[c - known]].decode("utf-8")
                for c in codes.tolist()]

    return RunTable(path, tag, topic_code, list(topics), doc_code, rank, score, docs, ids)


def _column_run(path: Path, vocabulary: np.ndarray) -> RunTable:
    """The column-wise path of :func:`run_table` (any file; every check, with its line)."""
    cols = read_columns(path, 6, text=(0, 1, 2, 5))
    f = cols.frame
    topic, topic_code = _topics(f[0])
    doc_code, docs = pd.factorize(np.concatenate([vocabulary, f[2].to_numpy(dtype=object)]),
                                  sort=False)
    doc_code = doc_code[len(vocabulary):]
    dup, first = first_duplicate(topic_code, doc_code)
    rank, rank_ok = column_values(cols, 3, int, "iu")
    score, score_ok = column_values(cols, 4, float, "iuf")
    finite = score_ok & np.isfinite(np.where(score_ok, score, 0).astype(float))

    def at(row):
        return dict(path=path, line=cols.line(row))

    raise_first([
        (first_row(cols.count != 6), lambda r: InputError(
            run_fields_message(cols.count[r]), **at(r))),
        (first_row(~rank_ok), lambda r: InputError(
            f"rank {cols.token(r, 3)!r} is not an integer", **at(r))),
        (first_row(~score_ok), lambda r: InputError(
            f"score {cols.token(r, 4)!r} is not a number", **at(r))),
        (first_row(~finite), lambda r: InputError(
            f"score {cols.token(r, 4)!r} is not finite", **at(r))),
        (dup, lambda r: InputError(
            f"document {f[2].iloc[r]} is listed twice for topic {topic.iloc[r]} "
            f"(first on line {cols.line(first)})", **at(r),
            hint="a run lists each document at most once per topic")),
    ])
    rank = rank if rank.dtype.kind in "iu" else whole_numbers(rank)
    score = score.astype(np.float64)
    tags = f[5]
    tag = tags.iloc[0] if len(tags) else ""
    if not (tags.to_numpy(dtype=object) == tag).all():
        found = sorted(set(tags.tolist()))
        raise InputError(f"one run file must have one tag, found {len(found)}: {found[:5]}",
                         path=path)
    docs = np.asarray(docs, dtype=object)
    return RunTable(path, str(tag), topic_code, _code_names(topic, topic_code), doc_code,
                    rank, score, lambda: docs)


def _code_names(topic: pd.Series, codes: np.ndarray) -> list[str]:
    """The id of each code: ``names[codes[i]] == topic[i]``."""
    names = [""] * (int(codes.max()) + 1 if len(codes) else 0)
    _, where = np.unique(codes, return_index=True)
    for row in where.tolist():
        names[codes[row]] = topic.iloc[row]
    return names


def read_runs(folder, qrels: pd.DataFrame | None = None, report: list | None = None) -> pd.DataFrame:
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
    runs = [read_run(p, qrels, report) for p in files]
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
