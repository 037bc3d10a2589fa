"""Header lines: refused naming file and line, or skipped with ``skip_header``; data never skipped.

The rule (:mod:`evalkit.formats._header`) is checked on the headers real
files carry (ir_datasets' and pandas' column names, trec_eval's run fields)
and on lines that are data or data with a mistake; ``first_line`` against
``str.splitlines()``; the readers keep every other line's number.
"""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit.errors import InputError
from evalkit.formats import ratings as stc_files
from evalkit.formats import trec
from evalkit.formats._header import first_line, skip_headers, skipping_headers
from evalkit.formats.assessor_ratings import RATINGS_LINE, read_any_ratings, read_assessor_ratings
from evalkit.formats.ratings import STC_LINE


@pytest.mark.parametrize("fmt, line, header", [
    (trec.QRELS_LINE, "query_id iteration doc_id relevance", True),     # ir_datasets' names
    (trec.QRELS_LINE, "qid 0 docno rel", True),
    (trec.QRELS_LINE, "topic doc grade", True),                          # three names
    (trec.QRELS_LINE, "query_id,iteration,doc_id,relevance", True),     # a CSV header: one field
    (trec.QRELS_LINE, "1,0,d1,2", False),                                # a CSV line of data
    (trec.QRELS_LINE, "1 0 d1 2", False),
    (trec.QRELS_LINE, "1 0 d1 L2", False),                               # NTCIREVAL's levels
    (trec.QRELS_LINE, "q 0 d 1.5", False),                               # a data line's mistake
    (trec.QRELS_LINE, "1 0 d1 -", False),
    (trec.QRELS_LINE, "1 0 d1", False),
    (trec.RUN_LINE, "qid Q0 docno rank score tag", True),
    (trec.RUN_LINE, "query_id q0 doc_id rank score run_id", True),
    (trec.RUN_LINE, "qid Q0 docno 1 score tag", False),                 # the rank is a number
    (trec.RUN_LINE, "1 Q0 d1 1 0.5 tag", False),
    (trec.RUN_LINE, "1 Q0 d1 one two tag", True),
    (RATINGS_LINE, "topic assessor doc rating", True),
    (RATINGS_LINE, "T1 alice d1 NA", True),
    (RATINGS_LINE, "T1 alice d1 2.0", False),
    (STC_LINE, "post reply r1 r2 r3", True),
    (STC_LINE, "post reply NA NA", False),                               # data: two missing ratings
    (STC_LINE, "p r 1 NA 2", False),
    (STC_LINE, "post reply", True),
])
def test_what_looks_like_a_header_line(fmt, line, header):
    assert fmt.looks_like_header(line.split()) is header


def test_a_header_line_is_refused_naming_file_and_line_or_skipped(tmp_path):
    cases = [(trec.read_qrels, "\n  \nquery_id iteration doc_id relevance\n1 0 d1 2\n\n1 0 d2 1.0\n",
              3, "topic iteration doc grade"),
             (trec.read_run, "qid Q0 docno rank score tag\n1 Q0 d1 1 0.5 r\n", 1,
              "topic Q0 doc rank score tag"),
             (lambda p, **k: trec.read_run(p, compiled=True, **k),
              "qid Q0 docno rank score tag\r\n1 Q0 d1 1 0.5 r\r\n", 1, "topic Q0 doc rank score tag"),
             (read_assessor_ratings, "topic assessor doc rating\nT1 a d1 2\n", 1,
              "topic assessor doc rating"),
             (lambda p, **k: read_assessor_ratings(p, compiled=True, **k),
              "topic assessor doc rating\nT1 a d1 2\n", 1, "topic assessor doc rating"),
             (stc_files.read_ratings, "post reply r1 r2\np r 1 2\n", 1, "post reply r1 ... rN"),
             (read_any_ratings, "topic assessor doc rating\nT1 a d1 2\n", 1,
              "topic assessor doc rating")]
    for read, text, line, layout in cases:
        path = tmp_path / "with-header.txt"
        path.write_text(text)
        with pytest.raises(InputError) as info:
            read(path)
        header = " ".join(text.split("\n")[line - 1].split())
        assert str(info.value) == (f"{path}, line {line}: {header!r} looks like a header line: "
                                   f"remove it (or give --skip-header to skip it; a line of this "
                                   f"file is '{layout}')")
        body = tmp_path / "without.txt"
        body.write_text("".join(text.splitlines(keepends=True)[line:]))
        skipped, plain = read(path, skip_header=True), read(body)
        pairs = zip(skipped, plain) if isinstance(plain, tuple) else [(skipped, plain)]
        for a, b in pairs:
            if isinstance(a, pd.DataFrame):
                pd.testing.assert_frame_equal(a, b)
            else:
                assert (a == b).all()


def test_skipping_keeps_every_other_lines_number(tmp_path):
    path = tmp_path / "q.txt"
    path.write_text("query_id iteration doc_id relevance\n1 0 d1 2\n\n1 0 d2 1\n1 0 d1 0\n")
    with pytest.raises(InputError, match="grade 0 here and 2 on line 2") as info:
        trec.read_qrels(path, skip_header=True)
    assert info.value.line == 5
    run = tmp_path / "r.txt"
    run.write_text("qid Q0 docno rank score tag\n1 Q0 d1 1 0.5 r\n1 Q0 d2 x 0.4 r\n")
    for compiled in (True, False):
        with pytest.raises(InputError, match="rank 'x'") as info:
            trec.read_run(run, compiled=compiled, skip_header=True)
        assert info.value.line == 3


def test_data_is_never_skipped_and_a_mistake_is_named_as_before(tmp_path):
    path = tmp_path / "q.txt"
    path.write_text("1 0 d1 2\n1 0 d2 0\n")
    pd.testing.assert_frame_equal(trec.read_qrels(path, skip_header=True), trec.read_qrels(path))
    assert len(trec.read_qrels(path, skip_header=True)) == 2
    path.write_text("1 0 d1 1.5\n1 0 d2 0\n")                   # a mistake, not a header
    with pytest.raises(InputError, match="grade '1.5' is not a whole number") as info:
        trec.read_qrels(path, skip_header=True)
    assert info.value.line == 1
    path.write_text("query_id iteration doc_id relevance\n")
    with pytest.raises(InputError, match="holds a header line and nothing else"):
        trec.read_qrels(path, skip_header=True)


def test_the_commands_setting_applies_where_a_reader_is_not_told(tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("qid Q0 docno rank score tag\n1 Q0 d1 1 0.5 r\n")
    assert skip_headers() is False
    with skipping_headers():
        assert skip_headers() and len(trec.read_run(path)) == 1
        with pytest.raises(InputError, match="looks like a header line"):
            trec.read_run(path, skip_header=False)                 # told: as told
    assert skip_headers() is False
    with pytest.raises(InputError, match="looks like a header line"):
        trec.read_run(path)


LINE_PIECES = st.sampled_from(["", " ", "\t", "a b", "x", "\u00a0", "\u2028", "\x0c", "\r",
                               "\r\n", "\n", "\u00e9 1", "\x1c", "\x85"])


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(LINE_PIECES, max_size=12))
def test_first_line_is_the_first_non_blank_line_str_splitlines_gives(pieces):
    text = "".join(pieces)
    raw = text.encode("utf-8")
    expected = next(((n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()), None)
    found = first_line(raw)
    if expected is None:
        assert found is None
        return
    number, start, end, line = found
    assert (number, line) == expected
    assert raw[start:end].decode("utf-8") == line
    emptied = (raw[:start] + raw[end:]).decode("utf-8").splitlines()
    kept = text.splitlines()
    kept[number - 1] = ""                               # emptied: every line keeps its number
    while kept and kept[-1] == "" and len(kept) > len(emptied):
        kept.pop()                                      # (an emptied last line is no line at all)
    assert emptied == kept
