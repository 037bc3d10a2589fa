"""One TREC run file as columns: the scoring path's view of a run (:func:`run_table`).

``topic Q0 doc rank score tag`` lines (:mod:`evalkit.formats.trec` describes
the format) read into integer codes for topics and documents, ranks and
scores.  At TREC scale (millions of lines) the checks, and the first error,
are those of a line-by-line reading: a large file of plain white space is
read by the compiled one-pass scanner (:mod:`evalkit.formats._scan`), any
other column-wise (:mod:`evalkit.formats._columns`), and a file that fails a
check on the compiled path is read again column-wise to name the line and
the problem.  :func:`evalkit.formats.trec.read_run` is the same file as a frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from ..errors import InputError
from ._columns import (checked_bytes, column_values, distinct_ids, first_duplicate, first_row,
                       raise_first, read_columns, use_compiled, whole_numbers)
from ._header import LineFormat
from ._text import _topic, run_fields_message

__all__ = ["RunTable", "run_table", "RUN_LINE", "topic_codes"]

#: A run line, for the header check.
RUN_LINE = LineFormat("topic Q0 doc rank score tag", 6, ((3, int), (4, float)))


def topic_codes(column: pd.Series) -> tuple[pd.Series, np.ndarray]:
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


@dataclass
class RunTable:
    """One run file, checked, as columns: the scoring path's view of
    :func:`~evalkit.formats.trec.read_run`.

    ``topic_code`` indexes ``topics`` (each distinct normalised topic id once)
    and ``doc_code`` indexes :attr:`docs` (each distinct document id once,
    those of the vocabulary first; read with ``groups`` by the compiled scanner
    from a file whose topics are each one block of lines, as the scoring engine
    reads, an id has its vocabulary code only for a topic whose group holds it
    and may otherwise appear once per topic, so that equal codes are equal ids
    but not always the reverse; read otherwise, a vocabulary id has its code in
    every topic);
    :attr:`topic`, :attr:`doc` and
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
    extra_lines: int = 0           # lines with fields after the sixth, ignored as trec_eval does

    @cached_property
    def docs(self) -> np.ndarray:
        """The document ids (object array; distinct unless read with ``groups``):
        ``docs[doc_code]`` is each row's."""
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


def run_table(path, vocabulary=None, compiled: bool | None = None,
              skip_header: bool | None = None, groups=None) -> RunTable:
    """Read and check one TREC run file (see :mod:`evalkit.formats.trec` for the format).

    The checks, and the first error reported (file, line, problem), are those
    of a line-by-line reading: at least 6 fields (those after the sixth are
    ignored, as trec_eval ignores them: ``extra_lines`` counts such lines), an integer rank, a finite score, each
    document once per topic, one tag per file.  ``vocabulary``: distinct
    document ids (any sequence, or :class:`evalkit.formats._intern.Interned`
    to reuse across files); a ``doc_code`` below its length is that document
    of the vocabulary.

    With ``compiled`` (default: a file of at least
    :data:`~evalkit.formats._columns.COMPILED_MIN_BYTES`) a file of plain white
    space is read by the compiled scanner (:mod:`evalkit.formats._scan`); any
    other file, and any file that fails a check, by the column-wise reader,
    which names the line and the problem.  The answers are the same.
    ``skip_header``: skip a first line that looks like a header
    (:mod:`evalkit.formats._header`; None: as ``skipping_headers`` says).
    ``groups``: each topic's documents in ``vocabulary`` (an
    :class:`~evalkit.formats._intern.Interned`'s :meth:`~evalkit.formats._intern.Interned.groups`,
    by topic id); the compiled path, on a file whose topics are each one block of lines,
    then gives a document its vocabulary code only for those topics, and any other a code
    per topic (the :class:`RunTable` docstring), as the scoring engine reads; any other
    file is read as without ``groups``.
    """
    path = Path(path)
    if compiled is None:
        compiled = use_compiled(path)
    interned = vocabulary if hasattr(vocabulary, "codes") else None
    names = interned.names if interned is not None else distinct_ids(() if vocabulary is None
                                                                      else vocabulary)
    if compiled:
        from ._intern import Interned

        raw, simple = checked_bytes(path, RUN_LINE, skip_header)
        if interned is None:
            interned = Interned(names)
        table = _scanned_run(path, raw, interned, groups) if simple else None
        if table is not None:
            return table
    return _column_run(path, names, skip_header)


def _scanned_run(path: Path, raw: bytes, vocabulary, groups=None) -> RunTable | None:
    """The compiled path of :func:`run_table`; None when a check fails (the column-wise
    reader then names the problem), or a token is one only it can judge.

    With ``groups``, in a file whose topics are each one block of lines (as run files are
    written), each topic's documents are coded against its own group of the vocabulary
    only (:meth:`~evalkit.formats._intern.Interned.block_codes`): the same checks, the
    document ids coded in about half the time.

    A line without six fields after rows that pass every check is reported
    here: at the end of a large file that saves reading it again.
    """
    from ._intern import token_ids
    from ._scan import first_other, numbers, repeated_in_block, split_fields, stopped_at

    buf = np.frombuffer(raw, dtype=np.uint8)
    starts, ends, ok = split_fields(buf, 6)
    if not ok and stopped_at(raw, ends)[1] > 6:
        return None                               # fields after the sixth: read column-wise
    if ok and first_other(buf, starts[5], ends[5]) >= 0:
        return None                               # two tags: the column-wise reader says which
    topic_raw, written = token_ids(raw, buf, starts[0], ends[0], expected=64)
    names = [_topic(t) for t in written.tolist()]
    merged, topics = pd.factorize(pd.Index(names, dtype=object), sort=False)
    topic_code = merged[topic_raw]
    heads = np.flatnonzero(np.r_[True, topic_code[1:] != topic_code[:-1]]) if len(
        topic_code) else np.zeros(0, dtype=np.int64)
    if groups is not None and len(heads) == len(topics):          # each topic one block
        doc_code, doc_first = vocabulary.block_codes(buf, starts[2], ends[2], heads, groups,
                                                     topics)
    else:
        doc_code, doc_first = vocabulary.codes(buf, starts[2], ends[2])
    unique = repeated_in_block(topic_code, doc_code, len(vocabulary) + len(doc_first))
    if unique == 0 or (unique < 0 and first_duplicate(topic_code, doc_code)[0] is not None):
        return None                               # a repeat: the column-wise reader names it
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


def _column_run(path: Path, vocabulary: np.ndarray, skip_header: bool | None = None) -> RunTable:
    """The column-wise path of :func:`run_table` (any file; every check, with its line)."""
    cols = read_columns(path, 6, text=(0, 1, 2, 5), fmt=RUN_LINE, skip_header=skip_header,
                        extra=True)
    f = cols.frame
    topic, topic_code = topic_codes(f[0])
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
                    rank, score, lambda: docs, extra_lines=cols.extra_lines)


def _code_names(topic: pd.Series, codes: np.ndarray) -> list[str]:
    """The id of each code: ``names[codes[i]] == topic[i]``."""
    names = [""] * (int(codes.max()) + 1 if len(codes) else 0)
    _, where = np.unique(codes, return_index=True)
    for row in where.tolist():
        names[codes[row]] = topic.iloc[row]
    return names
