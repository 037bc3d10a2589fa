"""The column-wise readers against the line-by-line readers they replaced.

``OLD`` below is the line-by-line readers as they were before the column-wise
ones (qrels, runs, per-assessor and STC-ja ratings), with the reading rules
of issues 36 and 43 written into them line by line (issue 43: a run line's
fields after the sixth are ignored, as trec_eval ignores them): a first line that looks like a
header is refused (or skipped with ``skip``), grades and ratings are whole
numbers written as integers or integral decimals (``2.0``), negative ones
read (ratings: unless ``dmax`` makes the scale 0..dmax), and a line
repeating an earlier one exactly is read once (another grade for the same
item is refused, naming both lines).  They are the reference.  On shipped
and generated files both must give the same frame (exactly, values and
dtypes, and the same note about repeated lines); on every malformed input
both must raise the same message for the same line.  One deliberate
difference: where the old ratings reader crashed (OverflowError) on a
rating beyond int64, the new one names the rating and its line.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.formats import ratings as stc_files
from evalkit.formats import trec
from evalkit.formats._text import _lines, _topic, run_fields_message
from evalkit.formats.assessor_ratings import COLUMNS, read_assessor_ratings
from evalkit.paths import EXAMPLES

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from trec_data import write_collection  # noqa: E402


# ---------------------------------------------------------------- the reference
def whole(token: str) -> int:
    """int(token), else float(token) when finite and whole; ValueError otherwise."""
    try:
        return int(token)
    except ValueError:
        value = float(token)
        if not (math.isfinite(value) and value.is_integer()):
            raise ValueError(token) from None
        return int(value)


def grade(token: str) -> int:
    return whole(token[1:] if token[:1] in ("L", "l") else token)


def finite_number(token: str) -> bool:
    try:
        return math.isfinite(float(token))
    except ValueError:
        return False


def parses(token, parse) -> bool:
    try:
        parse(token)
    except ValueError:
        return False
    return True


def header_like(fields, n, numbers, more=False) -> bool:
    """A first line that is not data and names where the format has numbers."""
    count_ok = len(fields) >= n if more else len(fields) == n
    spots = [(fields[k], p) for k, p in numbers if k < len(fields)]
    if more:
        spots += [(t, numbers[-1][1]) for t in fields[numbers[-1][0] + 1:]]
    if count_ok and all(parses(t, p) for t, p in spots):
        return False
    if not count_ok:
        return not any(c.isdigit() for f in fields for c in f)
    return bool(spots) and all(any(c.isalpha() for c in t) and not parses(t, p) for t, p in spots)


def data_lines(path, skip, layout, n, numbers, more=False):
    """``(number, fields)`` of the data lines: the first non-blank line refused or skipped
    when it looks like a header; a file holding nothing else is refused."""
    lines = list(_lines(path))
    if lines and header_like(lines[0][1], n, numbers, more):
        number, fields = lines[0]
        if not skip:
            shown = " ".join(fields)
            shown = shown if len(shown) <= 80 else shown[:77] + "..."
            raise InputError(f"{shown!r} looks like a header line: remove it", path=path,
                             line=number, hint=f"or give --skip-header to skip it; a line of "
                                               f"this file is '{layout}'")
        if len(lines) == 1:
            raise InputError("the file holds a header line and nothing else", path=path,
                             line=number)
        lines = lines[1:]
    return lines


def repeat_note(path, repeated, same):
    """The note of lines read once: ``repeated`` holds (line, first line) pairs."""
    k = len(repeated)
    lines = ", ".join(str(a) for a, _ in repeated[:5]) + (" ..." if k > 5 else "")
    firsts = ", ".join(str(b) for _, b in repeated[:5]) + (" ..." if k > 5 else "")
    s = "s" if k > 1 else ""
    return (f"{path}: {k} line{s} repeat{'' if k > 1 else 's'} an earlier line exactly (same "
            f"{same}) and {'were' if k > 1 else 'was'} read once: line{s} {lines} (first on "
            f"line{s} {firsts})")


def old_read_qrels(path, skip=False) -> pd.DataFrame:
    path = Path(path)
    rows, repeated = [], []
    seen: dict[tuple[str, str], tuple[int, int]] = {}
    for number, fields in data_lines(path, skip, "topic iteration doc grade", 4, [(3, grade)]):
        if len(fields) != 4:
            raise InputError(
                f"expected 4 fields 'topic iteration doc grade', got {len(fields)}",
                path=path, line=number,
            )
        topic, _, doc, token = fields
        topic = _topic(topic)
        try:
            value = grade(token)
        except ValueError:
            fraction = finite_number(token[1:] if token[:1] in "Ll" else token)
            raise InputError(f"grade {token!r} is not a whole number" if fraction else
                             f"grade {token!r} is not an integer or L0/L1/L2...",
                             path=path, line=number) from None
        key = (topic, doc)
        if key in seen:
            first, before = seen[key]
            if value == before:
                repeated.append((number, first))
                continue
            raise InputError(f"document {doc} is judged twice for topic {topic}, grade {value} "
                             f"here and {before} on line {first}", path=path, line=number,
                             hint="keep one grade per topic and document")
        seen[key] = (number, value)
        rows.append((topic, doc, value))
    frame = pd.DataFrame(rows, columns=["topic", "doc", "grade"])
    frame.attrs["read_notes"] = ([repeat_note(path, repeated, "topic, document and grade")]
                            if repeated else [])
    return frame


def old_read_run(path, skip=False) -> pd.DataFrame:
    path = Path(path)
    rows = []
    seen: dict[tuple[str, str], int] = {}
    tags: set[str] = set()
    for number, fields in data_lines(path, skip, "topic Q0 doc rank score tag", 6,
                                     [(3, int), (4, float)]):
        if len(fields) < 6:
            raise InputError(
                run_fields_message(len(fields)),
                path=path, line=number,
            )
        topic, _, doc, rank, score, tag = fields[:6]      # the rest ignored (issue 43)
        topic = _topic(topic)
        try:
            rank_i = int(rank)
        except ValueError:
            raise InputError(f"rank {rank!r} is not an integer", path=path, line=number) from None
        try:
            score_f = float(score)
        except ValueError:
            raise InputError(f"score {score!r} is not a number", path=path, line=number) from None
        if not math.isfinite(score_f):
            raise InputError(f"score {score!r} is not finite", path=path, line=number)
        key = (topic, doc)
        if key in seen:
            raise InputError(
                f"document {doc} is listed twice for topic {topic} "
                f"(first on line {seen[key]})", path=path, line=number,
                hint="a run lists each document at most once per topic",
            )
        seen[key] = number
        tags.add(tag)
        rows.append((tag, topic, doc, rank_i, score_f))
    if len(tags) > 1:
        raise InputError(
            f"one run file must have one tag, found {len(tags)}: {sorted(tags)[:5]}",
            path=path,
        )
    return pd.DataFrame(rows, columns=["run", "topic", "doc", "rank", "score"])


def old_read_assessor_ratings(path, dmax=None, skip=False) -> pd.DataFrame:
    path = Path(path)
    rows, seen, repeated = [], {}, []
    for number, fields in data_lines(path, skip, "topic assessor doc rating", 4, [(3, whole)]):
        if len(fields) != 4:
            raise InputError(f"expected 4 fields 'topic assessor doc rating', got {len(fields)}",
                             path=path, line=number)
        topic, assessor, doc, token = fields
        try:
            rating = whole(token)
        except ValueError:
            raise InputError(f"rating {token!r} is not a whole number", path=path, line=number,
                             hint="ratings are integers") from None
        if dmax is not None and rating < 0:
            raise InputError(f"rating {rating} is negative", path=path, line=number,
                             hint=f"ratings are 0..{dmax} here (--dmax {dmax})")
        if dmax is not None and rating > dmax:
            raise InputError(f"rating {rating} is above --dmax {dmax}", path=path, line=number,
                             hint="raise --dmax or fix the rating")
        key = (topic, assessor, doc)
        if key in seen:
            first, before = seen[key]
            if rating == before:
                repeated.append((number, first))
                continue
            raise InputError(f"assessor {assessor} rates document {doc} of topic {topic} twice, "
                             f"{rating} here and {before} on line {first}", path=path,
                             line=number, hint="keep one rating per assessor and item")
        seen[key] = (number, rating)
        rows.append((topic, assessor, doc, rating))
    frame = pd.DataFrame(rows, columns=COLUMNS).astype({"rating": np.int64})
    frame.attrs["read_notes"] = ([repeat_note(path, repeated, "topic, assessor, document and rating")]
                            if repeated else [])
    return frame


def na_or_whole(token):
    return np.nan if token.upper() == "NA" else whole(token)


def old_read_ratings(path, dmax=None, skip=False):
    path = Path(path)
    items, rows, repeated = [], [], []
    seen: dict[tuple[str, str], tuple[int, list]] = {}
    width = None
    for number, fields in data_lines(path, skip, "post reply r1 ... rN", 3, [(2, na_or_whole)],
                                     more=True):
        if len(fields) < 3:
            raise InputError("expected 'post reply r1 ... rN'", path=path, line=number)
        if width is None:
            width = len(fields)
        elif len(fields) != width:
            raise InputError(f"expected {width - 2} ratings like the first line, got {len(fields) - 2}",
                             path=path, line=number)
        row = []
        for token in fields[2:]:
            if token.upper() == "NA":
                row.append(np.nan)
                continue
            try:
                value = whole(token)
            except ValueError:
                raise InputError(f"rating {token!r} is not a whole number or NA",
                                 path=path, line=number) from None
            if dmax is not None and (value < 0 or value > dmax):
                raise InputError(f"rating {value} is outside 0..{dmax}", path=path, line=number)
            row.append(float(value))
        key = (fields[0], fields[1])
        if key in seen:
            first, before = seen[key]
            if np.array_equal(row, before, equal_nan=True):
                repeated.append((number, first))
                continue
            raise InputError(f"item {key[0]} {key[1]} listed twice with other ratings "
                             f"(first on line {first})", path=path, line=number)
        seen[key] = (number, row)
        items.append(key)
        rows.append(row)
    frame = pd.DataFrame(items, columns=["post", "reply"])
    frame.attrs["read_notes"] = [repeat_note(path, repeated, "item and ratings")] if repeated else []
    return frame, np.array(rows, dtype=float)


PAIRS = {
    "qrels": (old_read_qrels, trec.read_qrels),
    "qrels-skip": (lambda p: old_read_qrels(p, skip=True),
                   lambda p: trec.read_qrels(p, skip_header=True)),
    "run": (old_read_run, trec.read_run),
    "run-skip": (lambda p: old_read_run(p, skip=True), lambda p: trec.read_run(p, skip_header=True)),
    "assessor": (old_read_assessor_ratings, read_assessor_ratings),
    "assessor-dmax2": (lambda p: old_read_assessor_ratings(p, 2),
                       lambda p: read_assessor_ratings(p, 2)),
    "assessor-skip": (lambda p: old_read_assessor_ratings(p, skip=True),
                      lambda p: read_assessor_ratings(p, skip_header=True)),
    "stc": (old_read_ratings, stc_files.read_ratings),
    "stc-dmax2": (lambda p: old_read_ratings(p, 2), lambda p: stc_files.read_ratings(p, 2)),
    "stc-skip": (lambda p: old_read_ratings(p, skip=True),
                 lambda p: stc_files.read_ratings(p, skip_header=True)),
}


def outcome(read, path):
    """What a reader does with a file: its frame(s), or its error's message and line."""
    try:
        return "ok", read(path)
    except InputError as err:
        return "error", (str(err), err.path, err.line)
    except (OverflowError, ValueError) as err:   # the old reader's own crash on a 30-digit rating
        return "error", type(err).__name__


#: Readers with a compiled scanner for large files (evalkit.formats._scan): both of their
#: paths are checked against the reference, the column-wise one and the compiled one.
COMPILED = {"run": lambda p: trec.read_run(p, compiled=True),
            "run-skip": lambda p: trec.read_run(p, compiled=True, skip_header=True),
            "assessor": lambda p: read_assessor_ratings(p, compiled=True),
            "assessor-dmax2": lambda p: read_assessor_ratings(p, 2, compiled=True),
            "assessor-skip": lambda p: read_assessor_ratings(p, compiled=True, skip_header=True)}


def assert_same(kind, path):
    _assert_same(kind, path, PAIRS[kind])
    if kind in COMPILED:
        _assert_same(kind, path, (PAIRS[kind][0], COMPILED[kind]))


def _assert_same(kind, path, pair):
    old, new = (outcome(read, path) for read in pair)
    assert old[0] == new[0], (kind, path.read_bytes()[:200], old, new)
    if old[0] == "error":
        if old[1] == "OverflowError" and kind.startswith("assessor"):
            # the one deliberate difference: the old reader crashed on a rating beyond int64
            # after reading every line; the new one names that rating's line
            assert "is too large" in new[1][0] and new[1][2] is not None, new
            return
        assert new[1] == old[1]
        return
    if kind.startswith("stc"):
        pd.testing.assert_frame_equal(new[1][0], old[1][0], check_exact=True)
        np.testing.assert_array_equal(new[1][1], old[1][1])
        assert new[1][0].attrs["read_notes"] == old[1][0].attrs["read_notes"]
    else:
        pd.testing.assert_frame_equal(new[1], old[1], check_exact=True)
        if "notes" in old[1].attrs:                      # the run reader has none
            assert new[1].attrs["read_notes"] == old[1].attrs["read_notes"]


# ---------------------------------------------------------------- good files
def test_shipped_example_files_give_the_same_frames():
    for path in sorted((EXAMPLES / "runs").glob("*.txt")):
        assert_same("run", path)
    assert_same("assessor", EXAMPLES / "ratings.txt")


def test_generated_collections_give_the_same_frames(small_collection, tmp_path):
    assert_same("qrels", small_collection / "qrels.txt")
    for path in sorted((small_collection / "runs").iterdir()):
        assert_same("run", path)
    paths = write_collection(tmp_path / "trec", runs=2, seed=3, topics=4, depth=60)
    assert_same("qrels", paths["qrels"])
    assert_same("assessor", paths["ratings"])
    for path in paths["runs"]:
        assert_same("run", path)
        assert len(trec.read_run(path)) == 4 * 60


# ---------------------------------------------------------------- every malformed input
RUN_CASES = [
    "1 Q0 a 1 1.0\n", "1 Q0 a 1 1.0 t x\n", "1 Q0 a 1 1.0 t x y z\n", "1 Q0 a 1.5 1.0 t\n",
    "1 Q0 a one 1.0 t\n", "1 Q0 a 1 x t\n", "1 Q0 a 1 NaN t\n", "1 Q0 a 1 -inf t\n",
    "1 Q0 a 1 1e400 t\n", "1 Q0 a 1 1 t\n1 Q0 a 2 0 t\n", "1 Q0 a 1 1 t\n1 Q0 b 2 0 u\n",
    "1 Q0 a 1 1.0 t\n\n1 Q0 b 2 1.0 u\n", "MB171 Q0 d 1 1 t\n171 Q0 d 2 1 t\n",
    "1 Q0 a 1_000 1.0 t\n1 Q0 b +2 1_0.5 t\n1 Q0 c -3 .5 t\n1 Q0 d 4 5. t\n",
    "1 Q0 a 1 1.0 t\n1 Q0 b 2 1.0 t\n1 Q0 c x nan t\n",           # two errors on one line
    "1 Q0 a 1 1.0 t\n1 Q0 b x 1.0 t\n1 Q0 a 3 nan t\n",            # rank error before the rest
    "1 Q0 a 1 1.0 t\n1 Q0 b 2 1.0 t\n1 Q0 a 3 1.0 t 8\n",          # field count before duplicate
    "\n\n  \n1 Q0 a 1 1.0 t\n\t\n1 Q0 a 2 1.0 t\n",                # blank lines: the line number
    "1\tQ0\ta\t1\t1.0\tt\r\n1  Q0  b  2  0.5  t  \r\n",             # tabs, CRLF, runs of spaces
    "1 Q0 a 1 1.0 t\x0c1 Q0 b 2 1.0 t\n", "1 Q0 a 1 1.0 t\r1 Q0 b 2 1.0 t\r",   # form feed, CR
    "1 Q0 a\u00a01 1.0 t\n", "1 Q0 a 1 1.0 t\u20281 Q0 a 2 1.0 t\n",  # no-break space, U+2028
    "1 Q0 caf\u00e9 1 1.0 t\n1 Q0 caf\u00e9 2 1.0 t\n", "1 Q0 \"a 1 1.0 t\n1 Q0 #b 2 1.0 'c\n",
    "1 Q0 a 1 True t\n", "1 Q0 a 01 1 t\n1 Q0 b 1 1 t\n", "001 Q0 a 1 1 t\n1 Q0 a 1 1 t\n",
    "1 Q0 a 1 1.0 t\n1 Q0 b 99999999999999999999 1.0 t\n",
    # a line without six fields after good rows (reported by the compiled scanner itself)
    "1 Q0 a 1 1.0 t\r\n \t\r\n\r\n1 Q0 b 2 1.0 t 9\r\n", "1 Q0 a 1 1.0 t\n1 Q0 b",
    "\n \n1 Q0 b\n1 Q0 a 1 1.0 t\n", "1 Q0 a 1 1.0 t\n1 Q0 a 2 1.0 t\n1 Q0 b\n",
    "1 Q0 a 1 1.0 t\n1 Q0 b 2 1.0 u\n1 Q0 c 3\n",
    # header lines (refused, or skipped by the -skip readers); a first line of data is kept
    "qid Q0 docno rank score tag\n1 Q0 a 1 1.0 t\n", "\n  \nqid Q0 docno rank score tag\r\n1 Q0 a 1 1.0 t\r\n",
    "topic q0 docno rank score run_id\n1 Q0 a 1 1.0 t\n1 Q0 a 2 1.0 t\n",
    "query_id doc_id rank score\n1 Q0 a 1 1.0 t\n", "qid Q0 docno 1 score tag\n1 Q0 a 1 1.0 t\n",
    "qid Q0 docno rank score tag\n", "1,Q0,a,1,1.0,t\n", "# qid Q0 docno rank\n1 Q0 a 1 1.0 t\n",
    "qid\x0cQ0 docno rank score tag\n1 Q0 a 1 1.0 t\n", "\u00a0\nqid Q0 docno rank score t\u00e9\n1 Q0 a 1 1 t\n",
    "qid Q0 docno rank score tag\n1 Q0 a 1 1.0 t\n1 Q0 b 2 1.0 t 9\n",
    "qid Q0 docno rank score tag\nqid Q0 docno rank score tag\n1 Q0 a 1 1.0 t\n",
]
QRELS_CASES = [
    "1 0 a\n", "1 0 a 1\n1 0 b x\n", "1 0 a -1\n", "1 0 a 1\n1 0 a 2\n", "1 0 a 1\n1 0 b\x00 1\n",
    "1 0 a 2\n1 0 b 0\n2 0 c L1\n", "1 0 a l2\n1 0 b L-1\n", "1 0 a 1 x\n", "1 0 a 1 x y z\n",
    "MB1 0 a 1\n1 0 a 1\n", "1 0 a 1\n\n1 0 a x\n", "1 0 a high\n1 0 a 1\n", b"1 0 \xe9 1\n",
    b"\xef\xbb\xbf1 0 a 1\r\n", "", " \n\t\n", "1 0 a +3\n1 0 b 1_0\n", "1 0 a L\n",
    # integral decimals read as integers, fractions refused; negative grades read
    "1 0 a 1.0\n1 0 b 2.00\n1 0 c 0.0\n", "1 0 a 1.0\n1 0 b 1.5\n", "1 0 a -2\n1 0 b -1.0\n1 0 c 3\n",
    "1 0 a 1e0\n1 0 b nan\n", "1 0 a inf\n", "1 0 a L1.0\n1 0 b -0.0\n", "1 0 a 1\n1 0 b 1.5e0\n",
    # exact repeats read once, other grades refused naming both lines
    "1 0 a 1\n1 0 b 0\n1 0 a 1\n1 x a 1.0\nMB1 0 a 1\n", "1 0 a 1\n1 0 b 0\n\n1 0 b 2\n",
    "1 0 a 1\n1 0 a 1\n1 0 a 2\n", "1 0 a 1\n1 0 a x\n", "1 0 a 1\n1 0 a 1 2\n",
    "".join(f"1 0 d{i % 7} {i % 7 - 2}\n" for i in range(30)),
    # header lines
    "query_id iteration doc_id relevance\n1 0 a 1\n", "qid 0 docno rel\n1 0 a 1\n1 0 a 1\n",
    "topic doc grade\n1 0 a 1\n", "1 0 a x\n1 0 b 1\n", "q 0 d 1\n1 0 a rel\n",
    "query_id iteration doc_id relevance\n", "query_id iteration doc_id relevance\n\n 1 0 a 2.5\n",
    "1,0,a,1\n", "query_id,iteration,doc_id,relevance\n1 0 a 1\n", "topic 0 doc L\n1 0 a 1\n",
    "\ufeffquery_id iteration doc_id relevance\n1 0 a 1\n",
]
ASSESSOR_CASES = [
    "T1 A1 d1 2\nT1 A2 d1 " + "9" * 30 + "\n", "T1 A1 d1 " + "9" * 30 + "\nT1 A1 d1 1\n",
    "T1 A1 d1 2\nT1 A2 d1 two\n", "T1 A1 d1 2\nT1 A2 d1 1.5\n", "T1 A1 d1 2\nT1 A2 d1 4\n",
    "T1 A1 d1 2\nT1 A2 d1 1\n\nT1 A1 d1 0\n", "T1 A1 d1\n", "T1 A1 d1 -1\n", "T1 A1 d1 2 x\n",
    "T1 A1 d1 3\nT1 A1 d1 3\n", "T1 A1 d1 -1\nT1 A1 d1 x\n", "T1 A1 d1 1\nT1 A1 d2 +2\n",
    "T1 A1 d1 2.0\nT1 A2 d1 -1\nT1 A1 d1 2\nT1 A3 d1 0\n", "T1 A1 d1 2\nT1 A1 d1 2\nT1 A1 d1 1\n",
    "topic assessor doc rating\nT1 A1 d1 2\n", "topic assessor doc\nT1 A1 d1 2\n",
    "T1 A1 d1 -3\nT1 A2 d1 9\n", "T1 A1 d1 1e1\n",
    # a header after a lone carriage return: skipped, the next line keeps its number (found by
    # the fuzzer: emptying the header joined "\r" and "\n" into one line break)
    "\r nan nan\n1 1 1", "\rtopic assessor doc rating\nT1 A1 d1 2\nT1 A1 d1\n",
]
STC_CASES = [
    "p r 1 2\np s 1\n", "p r 1 2.5\n", "p r 1 3\n", "p r 1 2\np r 0 0\n", "p r\n", "p r 1 NA\np s na 2\n",
    "p r 1 2\np s 1 2 3\n", "p r x 9\n", "p r 9 x\n", "p r -1 0\n", "p r 0 1 2\np s 1 2 3 4 5\n",
    "T01 T01-D01 0 1 2\nT01 T01-D02 1 NA 2\nT01 T01-D03 2 3 1\n",
    "p r 1 2.0\np s -1 NA\np r 1 2\np s -1.0 na\n", "p r 1 2\np r 1 NA\n", "p r 1 1.5\n",
    "post reply r1 r2\np r 1 2\n", "post reply r1 NA\np r 1 2\n", "post reply\np r 1 2\n",
]
CASES = ([(k, c) for c in RUN_CASES for k in ("run", "run-skip")]
         + [(k, c) for c in QRELS_CASES for k in ("qrels", "qrels-skip")]
         + [(k, c) for c in ASSESSOR_CASES for k in ("assessor", "assessor-dmax2", "assessor-skip")]
         + [(k, c) for c in STC_CASES for k in ("stc", "stc-dmax2", "stc-skip")])


@pytest.mark.parametrize("kind, content", CASES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES)])
def test_same_answer_or_same_error_line_and_message(tmp_path, kind, content):
    path = tmp_path / "file.txt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_bytes(content.encode("utf-8"))
    assert_same(kind, path)


def test_every_hostile_catalogue_case_of_these_readers(tmp_path):
    """The rows of tests/formats/test_hostile_inputs.py that call these readers, through both."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "hostile_catalogue", Path(__file__).resolve().parent / "test_hostile_inputs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    checked = 0
    for number, (name, build, _) in enumerate(module.CASES):
        folder = tmp_path / f"case{number}"
        folder.mkdir()
        with pytest.raises(InputError):
            build(folder)()                                # writes its file(s), then reads
        files = [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]
        for p in files:
            for kind in ("qrels", "run", "stc", "assessor"):
                assert_same(kind, p)
        checked += bool(files)
    assert checked >= 15


def test_an_error_deep_in_a_large_file_names_its_line(tmp_path):
    lines = [f"{t} Q0 d{t}-{i} {i + 1} {1.0 / (i + 1):.6f} big\n" for t in range(30) for i in range(1000)]
    lines[100] = lines[100].replace(" big\n", " big more junk at end\n")   # ignored (trec_eval)
    lines[29_998] = lines[29_998].replace(" big\n", "\n")                  # no tag: 5 fields
    path = tmp_path / "big.txt"
    path.write_text("".join(lines))
    with pytest.raises(InputError, match="got 5") as info:
        trec.read_run(path)
    assert info.value.line == 29_999
    lines[29_998] = "7 Q0 dup 1 1.0 big\n"
    lines[9] = "7 Q0 dup 2 1.0 big\n"
    path.write_text("\n".join(lines))                       # blank lines in between: still exact
    assert_same("run", path)
    with pytest.raises(InputError) as info:
        trec.read_run(path)
    assert info.value.line == 2 * 29_999 - 1 and "first on line 19" in str(info.value)


# ---------------------------------------------------------------- differential fuzzing
try:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - hypothesis is a workspace dependency
    given = None

if given is not None:
    TOKENS = st.sampled_from(["1", "171", "MB171", "0", "Q0", "L2", "-1", "2.5", "nan", "inf", "d",
                              "x", "9" * 30, "\t", " ", "\r", "\ufeff", "\x0c", "\u00a0", "é",
                              "A1", "NA", "+3", "1_0", "", "t", "u"])
    LINES = st.lists(st.lists(TOKENS, min_size=3, max_size=7).map(" ".join), max_size=10)
    CONTENT = LINES.map(lambda lines: "\n".join(lines).encode("utf-8"))

    @settings(max_examples=150, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(CONTENT, st.sampled_from(sorted(PAIRS)))
    def test_fuzzed_files_get_the_same_answer(tmp_path, content, kind):
        path = tmp_path / "fuzz.txt"
        path.write_bytes(content)
        assert_same(kind, path)


def test_field_counts_match_python_split_across_piece_boundaries():
    from evalkit.formats._columns import _field_counts

    for text in (b"a b c\n\n  d e\t\r\nf\n g h i j \n last line", b"x\n", b"\n\n", b"one"):
        expected = [len(line.split()) for line in text.decode().splitlines()]
        for chunk in (1, 2, 3, 5, 8, 1 << 24):
            assert _field_counts(text, chunk).tolist() == expected, (text, chunk)
