"""trec_eval 10's files: ``#`` comment lines in qrels and runs, and run fields after the sixth.

A line whose first non-blank character is ``#`` is a comment (trec_eval 10;
evalkit also takes two in a row, where trec_eval 10 stops); a ``#`` inside an
id, as in MS MARCO v2.1's passage ids, is part of the id.  Run fields after
the sixth are ignored, as trec_eval ignores them ("more junk at end of lines"
in its own test run), and ``evalkit score`` says so once on stderr.  Every
file must read as the same file without the comments or the extra fields, on
both the column-wise and the compiled run readers, with line numbers counted
in the file as written.
"""

from __future__ import annotations

import gzip
import io
import math

import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.formats import trec
from evalkit.workspace import cli

MARCO = "msmarco_v2.1_doc_00_880019750#4_1633802806"
QRELS = f"1 0 d1 2\n1 0 {MARCO} 1\n2 0 d3 1\n2 0 d4 0\n"
RUN = f"1 Q0 {MARCO} 1 2.5 r\n1 Q0 d1 2 1.5 r\n2 Q0 d4 1 3.0 r\n2 Q0 d3 2 1.0 r\n"


def commented(text: str) -> str:
    """``text`` with comment lines before, between (two in a row, one indented, one CRLF) and
    after its lines."""
    lines = text.splitlines(keepends=True)
    return ("# trec_eval 10 test file\n# second comment in a row\n" + lines[0]
            + "   # indented comment, 'topic iteration doc grade'\r\n" + "".join(lines[1:3])
            + "#\n" + "".join(lines[3:]) + "# the end, without a line feed")


def write(tmp_path, name, text, pack=False):
    path = tmp_path / name
    path.write_bytes(gzip.compress(text.encode(), mtime=0) if pack else text.encode())
    return path


@pytest.mark.parametrize("pack", [False, True], ids=["plain", "gzip"])
def test_comment_lines_are_skipped_in_qrels_and_runs_and_a_hash_inside_an_id_is_kept(tmp_path,
                                                                                     pack):
    plain_q = trec.read_qrels(write(tmp_path, "q", QRELS))
    plain_r = trec.read_run(write(tmp_path, "r", RUN))
    assert MARCO in set(plain_q["doc"]) and MARCO in set(plain_r["doc"])
    q = trec.read_qrels(write(tmp_path, "qc", commented(QRELS), pack))
    pd.testing.assert_frame_equal(q, plain_q, check_like=False)
    for compiled in (False, True):
        r = trec.read_run(write(tmp_path, "rc", commented(RUN), pack), compiled=compiled)
        pd.testing.assert_frame_equal(r, plain_r)


def test_line_numbers_count_comment_lines(tmp_path):
    text = commented(QRELS).replace("2 0 d3 1", "2 0 d3 high")
    with pytest.raises(InputError, match="grade 'high'") as info:
        trec.read_qrels(write(tmp_path, "q", text))
    assert info.value.line == text.splitlines().index("2 0 d3 high") + 1 == 6


def test_a_file_of_comments_only_is_refused_naming_it(tmp_path):
    path = write(tmp_path, "q", "# nothing here\n  # nor here\n")
    with pytest.raises(InputError, match="only comment lines") as info:
        trec.read_qrels(path)
    assert info.value.path == str(path)


def junk(text: str) -> str:
    """Every other line of a run with text after its sixth field."""
    lines = text.splitlines()
    return "\n".join(line + (" more junk at end of lines" if i % 2 else "")
                     for i, line in enumerate(lines)) + "\n"


@pytest.mark.parametrize("compiled", [False, True], ids=["columns", "compiled"])
def test_run_fields_after_the_sixth_are_ignored_on_both_readers(tmp_path, compiled):
    plain = trec.read_run(write(tmp_path, "r", RUN), compiled=compiled)
    table = trec.run_table(write(tmp_path, "rj", junk(RUN)), compiled=compiled)
    assert table.extra_lines == 2
    got = trec.read_run(write(tmp_path, "rj", junk(RUN)), compiled=compiled)
    pd.testing.assert_frame_equal(got, plain)


def test_a_short_line_after_junk_is_still_refused_with_its_line(tmp_path):
    text = junk(RUN) + "3 Q0 d9 1 1.0\n"                     # five fields: no tag
    for compiled in (False, True):
        with pytest.raises(InputError, match="expected 6 fields .*got 5") as info:
            trec.read_run(write(tmp_path, "r", text), compiled=compiled)
        assert info.value.line == 5


def test_score_reads_such_files_and_says_once_that_extra_fields_were_ignored(tmp_path, capsys):
    qrels = write(tmp_path, "qrels", commented(QRELS))
    runs = [write(tmp_path, "a.run", commented(junk(RUN))),
            write(tmp_path, "b.run", junk(RUN.replace(" r\n", " s\n")))]
    code = cli.main(["score", "--qrels", str(qrels), "--measure", "nDCG@2", "--measure", "P@1",
                     "--format", "csv", *map(str, runs)])
    out, err = capsys.readouterr()
    assert code == 0, err
    means = pd.read_csv(io.StringIO(out)).set_index(["run", "measure"])["value"]
    # by hand: topic 1 ranks MARCO (grade 1) then d1 (2), ideal 2, 1; topic 2 ranks d4 (0)
    # then d3 (1), ideal 1, 0.  nDCG@2 = (1 + 2/log2 3) / (2 + 1/log2 3) and (1/log2 3) / 1
    idcg = 2 + 1 / math.log2(3)
    expect = ((1 + 2 / math.log2(3)) / idcg + 1 / math.log2(3)) / 2
    assert means[("r", "nDCG@2")] == pytest.approx(expect, abs=1e-12)
    assert means[("s", "P@1")] == pytest.approx(0.5, abs=1e-12)
    said = [line for line in err.splitlines() if "after the sixth" in line]
    assert len(said) == 1 and "r 2" in said[0] and "s 2" in said[0], err
