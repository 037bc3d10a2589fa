"""TREC qrels, runs and topics: round trips and located errors."""

import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.formats import trec

QRELS = "1 0 a 2\n1 0 b 0\n2 0 c L1\n"


RUN = "1 Q0 a 1 3.0 tag\n1 Q0 b 2 2.5 tag\n2 Q0 c 1 1.0 tag\n"



def write(tmp_path, name, content, mode="w"):
    path = tmp_path / name
    if mode == "wb":
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path

def test_qrels_and_run_round_trip(tmp_path):
    q = trec.read_qrels(write(tmp_path, "q", QRELS))
    assert q.to_dict("list") == {"topic": ["1", "1", "2"], "doc": ["a", "b", "c"],
                                 "grade": [2, 0, 1]}
    trec.write_qrels(q, tmp_path / "q2")
    pd.testing.assert_frame_equal(trec.read_qrels(tmp_path / "q2"), q)
    r = trec.read_run(write(tmp_path, "r", RUN))
    assert list(r.columns) == ["run", "topic", "doc", "rank", "score"]
    trec.write_run(r, tmp_path / "r2")
    pd.testing.assert_frame_equal(trec.read_run(tmp_path / "r2"), r)


def test_bom_and_crlf_are_accepted(tmp_path):
    path = write(tmp_path, "q", b"\xef\xbb\xbf" + QRELS.replace("\n", "\r\n").encode(), "wb")
    assert trec.read_qrels(path)["doc"].tolist() == ["a", "b", "c"]


def test_microblog_topic_ids_are_normalised(tmp_path):
    q = trec.read_qrels(write(tmp_path, "q", "171 0 1 1\n"))
    r = trec.read_run(write(tmp_path, "r", "MB171 Q0 1 1 1.0 x\n"), qrels=q)
    assert r["topic"].tolist() == q["topic"].tolist() == ["171"]


@pytest.mark.parametrize(
    "reader, content, line, message",
    [
        ("qrels", "1 0 a\n", 1, "expected 4 fields"),
        ("qrels", "1 0 a 1\n1 0 b x\n", 2, "grade 'x' is not an integer"),
        ("qrels", "1 0 a 1\n1 0 a 1.5\n", 2, "grade '1.5' is not a whole number"),
        ("qrels", "1 0 a 1\n1 0 a 2\n", 2, "judged twice for topic 1, grade 2 here and 1 on line 1"),
        ("run", "1 Q0 a 1 1.0\n", 1, "expected 6 fields"),
        # a judge's qrels given where a run belongs: the line says how to give it
        ("run", "1 0 a 2\n", 1, "got 4: this looks like a qrels line .* --judge NAME=FILE"),
        ("run", "1 Q0 a one 1.0 t\n", 1, "rank 'one' is not an integer"),
        ("run", "1 Q0 a 1 high t\n", 1, "score 'high' is not a number"),
        ("run", "1 Q0 a 1 nan t\n", 1, "not finite"),
        ("run", "1 Q0 a 1 inf t\n", 1, "not finite"),
        ("run", "1 Q0 a 1 1.0 t\n1 Q0 a 2 0.5 t\n", 2, "listed twice"),
        ("run", "1 Q0 a 1 1.0 t\n\n1 Q0 b 2 1.0 u\n", None, "one tag"),
        ("qrels", "1 0 a 1\n1 0 b\x00 1\n", 2, "NUL"),
    ],
)
def test_bad_lines_are_located(tmp_path, reader, content, line, message):
    path = write(tmp_path, "bad.txt", content)
    read = trec.read_qrels if reader == "qrels" else trec.read_run
    with pytest.raises(InputError, match=message) as info:
        read(path)
    assert info.value.path == str(path)
    assert info.value.line == line
    assert str(path) in str(info.value)


def test_empty_missing_and_non_utf8_files(tmp_path):
    with pytest.raises(InputError, match="empty"):
        trec.read_qrels(write(tmp_path, "e", " \n\n"))
    with pytest.raises(InputError, match="not found"):
        trec.read_qrels(tmp_path / "missing")
    with pytest.raises(InputError, match="not valid UTF-8") as info:
        trec.read_qrels(write(tmp_path, "b", b"1 0 a 1\n1 0 \xff 1\n", "wb"))
    assert info.value.line == 2
    with pytest.raises(InputError, match="not a regular file"):
        trec.read_qrels(tmp_path)


def test_run_topic_absent_from_qrels_is_reported_or_refused(tmp_path):
    q = trec.read_qrels(write(tmp_path, "q", QRELS))
    run = write(tmp_path, "r", RUN + "9 Q0 z 1 1.0 tag\n")
    with pytest.raises(InputError, match=r"topics \['9'\] are not in the qrels"):
        trec.read_run(run, qrels=q)
    report = []
    r = trec.read_run(run, qrels=q, report=report)
    assert "9" not in set(r["topic"]) and len(r) == 3
    assert report == [f"{run}: topics ['9'] are not in the qrels; 1 rows dropped"]


def test_read_runs_folder(tmp_path):
    folder = tmp_path / "runs"
    folder.mkdir()
    with pytest.raises(InputError, match="no run files"):
        trec.read_runs(folder)
    write(folder, "a.txt", RUN)
    write(folder, "b.txt", RUN)
    with pytest.raises(InputError, match="share a run tag"):
        trec.read_runs(folder)
