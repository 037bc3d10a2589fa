"""Per-topic scores from evalkit score --per-topic and trec_eval -q."""

import json

import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.formats.scores import read_scores, score_matrix

ROWS = [("a", "Q", "t1", 0.5), ("a", "Q", "t2", 0.25), ("b", "Q", "t1", 0.125),
        ("b", "Q", "t2", 1.0), ("a", "nERR@10", "t1", 0.75), ("b", "nERR@10", "t1", 0.0),
        ("a", "nERR@10", "t2", 0.5), ("b", "nERR@10", "t2", 0.375)]


def _write_all(folder):
    tsv = folder / "s.tsv"
    tsv.write_text("".join(f"{r}\t{m}\t{t}\t{v}\n" for r, m, t, v in ROWS)
                   + "a\tQ\tall\t0.375\nb\tQ\tall\t0.5625\n")
    csv = folder / "s.csv"
    csv.write_text("run,measure,topic,value\n" + "".join(f"{r},{m},{t},{v}\n" for r, m, t, v in ROWS))
    js = folder / "s.json"
    js.write_text(json.dumps([dict(zip(["run", "measure", "topic", "value"], r)) for r in ROWS]))
    trec = []
    for run in ("a", "b"):
        path = folder / f"{run}.trec_eval"
        lines = [f"{m:<22}\t{t}\t{v:.4f}" for r, m, t, v in ROWS if r == run]
        path.write_text("\n".join(["runid                 \tall\t" + run] + lines
                                  + ["num_q                 \tall\t2", ""]))
        trec.append(path)
    return tsv, csv, js, trec


def test_every_format_gives_the_same_scores(tmp_path):
    tsv, csv, js, trec = _write_all(tmp_path)
    expected = pd.DataFrame(ROWS, columns=["run", "measure", "topic", "value"])
    key = ["run", "measure", "topic"]
    for frame in (read_scores(tsv), read_scores(csv), read_scores(js),
                  read_scores(trec, "trec_eval")):
        got = frame[["run", "measure", "topic", "value"]].sort_values(key).reset_index(drop=True)
        pd.testing.assert_frame_equal(got, expected.sort_values(key).reset_index(drop=True))
    frame = read_scores(tsv)
    assert frame["line"].tolist() == list(range(1, 9))        # 'all' lines 9 and 10 skipped
    m = score_matrix(frame, "Q")
    assert list(m.columns) == ["a", "b"] and list(m.index) == ["t1", "t2"]
    assert m.to_numpy().tolist() == [[0.5, 0.125], [0.25, 1.0]]


def test_trec_eval_without_runid_is_named_by_the_file(tmp_path):
    path = tmp_path / "bm25.txt"
    path.write_text("map\t1\t0.5\nmap\t2\t0.25\nmap\tall\t0.375\n")
    frame = read_scores([path], "trec_eval")
    assert set(frame["run"]) == {"bm25"} and frame["value"].tolist() == [0.5, 0.25]


@pytest.mark.parametrize("text, message", [
    ("a\tQ\tt1\t0.5\na\tQ\tt1\t0.25\n",
     "s.tsv, line 2: run a has a second Q score for topic t1 (first in"),
    ("a\tQ\tt1\t0.5\na\tQ\tt2\tn/a\n", "s.tsv, line 2: value 'n/a' is not a finite number"),
    ("a\tQ\tt1\t0.5\na\tQ\tt2\tnan\n", "s.tsv, line 2: value 'nan' is not a finite number"),
    ("a\tQ\tt1\n", "s.tsv, line 1: expected 4 fields 'run measure topic value', got 3"),
    ("a\tQ\tall\t0.5\n", "s.tsv: no per-topic scores"),
])
def test_bad_score_files_name_file_and_line(tmp_path, text, message):
    path = tmp_path / "s.tsv"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        read_scores(path)
    assert message in str(err.value)


def test_bad_csv_json_and_trec_eval(tmp_path):
    csv = tmp_path / "s.csv"
    csv.write_text("run,measure,topic,value\na,Q,t1,0.5\na,Q,t2,x\n")
    with pytest.raises(InputError, match=r"s\.csv, line 3: value 'x' is not a finite number"):
        read_scores(csv)
    csv.write_text("run,topic,value\n")
    with pytest.raises(InputError, match=r"s\.csv, line 1: header 'run,topic,value'"):
        read_scores(csv)
    js = tmp_path / "s.json"
    js.write_text('[{"run": "a", "measure": "Q", "topic": "t1", "value": "high"}]')
    with pytest.raises(InputError, match=r"s\.json: record 1: value 'high' is not a finite"):
        read_scores(js)
    trec = tmp_path / "r.txt"
    trec.write_text("map\t1\t0.5\nmap\t1\t0.5\n")
    with pytest.raises(InputError, match=r"r\.txt, line 2: run r has a second map score for topic 1"):
        read_scores(trec, "trec_eval")


def test_matrix_refuses_one_run_one_topic_and_a_missing_topic(tmp_path):
    path = tmp_path / "s.tsv"
    path.write_text("a\tQ\tt1\t0.5\na\tQ\tt2\t0.5\n")
    with pytest.raises(InputError, match=r"at least two runs; Q has one \(a\) in .*s\.tsv"):
        score_matrix(read_scores(path), "Q")
    path.write_text("a\tQ\tt1\t0.5\nb\tQ\tt1\t0.5\n")
    with pytest.raises(InputError, match=r"at least two topics; Q has one \(t1\)"):
        score_matrix(read_scores(path), "Q")
    path.write_text("a\tQ\tt1\t0.5\na\tQ\tt2\t0.5\nb\tQ\tt1\t0.5\n")
    with pytest.raises(InputError, match=r"s\.tsv: run b has no Q score for topic t2"):
        score_matrix(read_scores(path), "Q")
    with pytest.raises(InputError, match=r"no scores for measure 'P\+'.*measures in the scores: Q"):
        score_matrix(read_scores(path), "P+")
