"""The column-wise readers against the line-by-line readers they replaced.

``OLD`` below is a verbatim copy of the line-by-line readers as they were
before the column-wise ones (qrels, runs, per-assessor and STC-ja ratings):
the reference.  On shipped and generated files both must give the same frame
(exactly, values and dtypes); on every malformed input both must raise the
same message for the same line.  One deliberate difference: where the old
ratings reader crashed (OverflowError) on a rating beyond int64, the new one
names the rating and its line.
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
from evalkit.formats._text import _grade, _lines, _topic, run_fields_message
from evalkit.formats.assessor_ratings import COLUMNS, read_assessor_ratings
from evalkit.paths import EXAMPLES

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from trec_data import write_collection  # noqa: E402


# ---------------------------------------------------------------- the reference
def old_read_qrels(path) -> pd.DataFrame:
    path = Path(path)
    rows = []
    seen: dict[tuple[str, str], int] = {}
    for number, fields in _lines(path):
        if len(fields) != 4:
            raise InputError(
                f"expected 4 fields 'topic iteration doc grade', got {len(fields)}",
                path=path, line=number,
            )
        topic, _, doc, grade = fields
        topic = _topic(topic)
        key = (topic, doc)
        if key in seen:
            raise InputError(
                f"document {doc} is judged twice for topic {topic} "
                f"(first on line {seen[key]})", path=path, line=number,
            )
        seen[key] = number
        rows.append((topic, doc, _grade(grade, path, number)))
    return pd.DataFrame(rows, columns=["topic", "doc", "grade"])


def old_read_run(path) -> pd.DataFrame:
    path = Path(path)
    rows = []
    seen: dict[tuple[str, str], int] = {}
    tags: set[str] = set()
    for number, fields in _lines(path):
        if len(fields) != 6:
            raise InputError(
                run_fields_message(len(fields)),
                path=path, line=number,
            )
        topic, _, doc, rank, score, tag = fields
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


def old_read_assessor_ratings(path, dmax=None) -> pd.DataFrame:
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


def old_read_ratings(path, dmax=None):
    path = Path(path)
    items, rows = [], []
    seen: dict[tuple[str, str], int] = {}
    width = None
    for number, fields in _lines(path):
        if len(fields) < 3:
            raise InputError("expected 'post reply r1 ... rN'", path=path, line=number)
        if width is None:
            width = len(fields)
        elif len(fields) != width:
            raise InputError(f"expected {width - 2} ratings like the first line, got {len(fields) - 2}",
                             path=path, line=number)
        key = (fields[0], fields[1])
        if key in seen:
            raise InputError(f"item {key[0]} {key[1]} listed twice (first on line {seen[key]})",
                             path=path, line=number)
        seen[key] = number
        row = []
        for token in fields[2:]:
            if token.upper() == "NA":
                row.append(np.nan)
                continue
            try:
                value = int(token)
            except ValueError:
                raise InputError(f"rating {token!r} is not a whole number or NA",
                                 path=path, line=number) from None
            if value < 0 or (dmax is not None and value > dmax):
                raise InputError(f"rating {value} is outside 0..{dmax if dmax is not None else 'inf'}",
                                 path=path, line=number)
            row.append(float(value))
        items.append(key)
        rows.append(row)
    return pd.DataFrame(items, columns=["post", "reply"]), np.array(rows, dtype=float)


PAIRS = {
    "qrels": (old_read_qrels, trec.read_qrels),
    "run": (old_read_run, trec.read_run),
    "assessor": (old_read_assessor_ratings, read_assessor_ratings),
    "assessor-dmax2": (lambda p: old_read_assessor_ratings(p, 2),
                       lambda p: read_assessor_ratings(p, 2)),
    "stc": (old_read_ratings, stc_files.read_ratings),
    "stc-dmax2": (lambda p: old_read_ratings(p, 2), lambda p: stc_files.read_ratings(p, 2)),
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
            "assessor": lambda p: read_assessor_ratings(p, compiled=True),
            "assessor-dmax2": lambda p: read_assessor_ratings(p, 2, compiled=True)}


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
    else:
        pd.testing.assert_frame_equal(new[1], old[1], check_exact=True)


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
]
QRELS_CASES = [
    "1 0 a\n", "1 0 a 1\n1 0 b x\n", "1 0 a -1\n", "1 0 a 1\n1 0 a 2\n", "1 0 a 1\n1 0 b\x00 1\n",
    "1 0 a 2\n1 0 b 0\n2 0 c L1\n", "1 0 a l2\n1 0 b L-1\n", "1 0 a 1 x\n", "1 0 a 1 x y z\n",
    "MB1 0 a 1\n1 0 a 1\n", "1 0 a 1\n\n1 0 a x\n", "1 0 a high\n1 0 a 1\n", b"1 0 \xe9 1\n",
    b"\xef\xbb\xbf1 0 a 1\r\n", "", " \n\t\n", "1 0 a +3\n1 0 b 1_0\n", "1 0 a L\n",
]
ASSESSOR_CASES = [
    "T1 A1 d1 2\nT1 A2 d1 " + "9" * 30 + "\n", "T1 A1 d1 " + "9" * 30 + "\nT1 A1 d1 1\n",
    "T1 A1 d1 2\nT1 A2 d1 two\n", "T1 A1 d1 2\nT1 A2 d1 1.5\n", "T1 A1 d1 2\nT1 A2 d1 4\n",
    "T1 A1 d1 2\nT1 A2 d1 1\n\nT1 A1 d1 0\n", "T1 A1 d1\n", "T1 A1 d1 -1\n", "T1 A1 d1 2 x\n",
    "T1 A1 d1 3\nT1 A1 d1 3\n", "T1 A1 d1 -1\nT1 A1 d1 x\n", "T1 A1 d1 1\nT1 A1 d2 +2\n",
]
STC_CASES = [
    "p r 1 2\np s 1\n", "p r 1 2.5\n", "p r 1 3\n", "p r 1 2\np r 0 0\n", "p r\n", "p r 1 NA\np s na 2\n",
    "p r 1 2\np s 1 2 3\n", "p r x 9\n", "p r 9 x\n", "p r -1 0\n", "p r 0 1 2\np s 1 2 3 4 5\n",
    "T01 T01-D01 0 1 2\nT01 T01-D02 1 NA 2\nT01 T01-D03 2 3 1\n",
]
CASES = ([("run", c) for c in RUN_CASES] + [("qrels", c) for c in QRELS_CASES]
         + [(k, c) for c in ASSESSOR_CASES for k in ("assessor", "assessor-dmax2")]
         + [(k, c) for c in STC_CASES for k in ("stc", "stc-dmax2")])


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
    lines[29_998] = lines[29_998].replace(" big\n", " big extra\n")
    path = tmp_path / "big.txt"
    path.write_text("".join(lines))
    with pytest.raises(InputError, match="got 7") as info:
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
