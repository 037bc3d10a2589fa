"""Every common shape of per-topic scores reads into the same matrix; misread shapes are named."""

import json
import sys
from pathlib import Path

import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.formats.scores import (SCORE_FORMATS, parse_renames, read_scores, score_matrix,
                                    measures_to_compare)
from evalkit.formats.scores.detect import detect
from evalkit.formats.scores.names import looks_like_measure

sys.path.insert(0, str(Path(__file__).parent))
import score_shapes as shapes  # noqa: E402


def _expected(scores):
    return pd.DataFrame(scores).rename_axis("topic")


@pytest.mark.parametrize("shape, fmt, measure", [
    ("trec_eval", "trec_eval", "ndcg_cut_10"), ("ir_measures", "ir_measures", "nDCG@10"),
    ("pyterrier", "pyterrier", "nDCG@10"), ("wide", "wide", "nDCG@10"),
    ("pytrec_eval", "pytrec_eval", "ndcg_cut_10")])
@pytest.mark.parametrize("named", [True, False])
def test_every_shape_gives_the_table_it_was_written_from(tmp_path, shape, fmt, measure, named):
    scores = shapes.table()
    paths = getattr(shapes, shape)(tmp_path, scores)
    frame = read_scores(paths, fmt if named else "auto", measure=measure)
    matrix = score_matrix(frame, measure)
    pd.testing.assert_frame_equal(matrix, _expected(scores), check_names=False)
    assert measures_to_compare(frame)[0] == [measure]


def test_auto_detects_each_shape_and_the_counts_are_not_compared(tmp_path):
    scores = shapes.table()
    assert {detect(p) for p in shapes.trec_eval(tmp_path, scores)} == {"trec_eval"}
    assert {detect(p) for p in shapes.ir_measures(tmp_path, scores)} == {"ir_measures"}
    assert {detect(p) for p in shapes.ir_measures(tmp_path, scores, summary=False)} == {"ir_measures"}
    assert detect(shapes.pyterrier(tmp_path, scores)) == "pyterrier"
    assert detect(shapes.pyterrier(tmp_path, scores, index=True)) == "pyterrier"
    assert detect(shapes.wide(tmp_path, scores)) == "wide"
    assert {detect(p) for p in shapes.pytrec_eval(tmp_path, scores)} == {"pytrec_eval"}
    frame = read_scores(shapes.trec_eval(tmp_path, scores))
    assert list(pd.unique(frame["measure"])) == ["num_ret", "num_rel", "num_rel_ret", "ndcg_cut_10"]
    assert measures_to_compare(frame) == (["ndcg_cut_10"], ["num_ret", "num_rel", "num_rel_ret"])
    assert measures_to_compare(frame, ["num_rel", "ndcg_cut_10"]) == (["num_rel", "ndcg_cut_10"], [])
    with pytest.raises(InputError, match=r"no scores for measure 'map'.*measures in the scores: "
                                         r"num_ret, num_rel, num_rel_ret, ndcg_cut_10"):
        measures_to_compare(frame, ["map"])


def test_ir_measures_jsonl_records(tmp_path):
    path = tmp_path / "bm25.jsonl"
    path.write_text('{"query_id": "1", "measure": "AP", "value": 0.25}\n'
                    '{"query_id": "2", "measure": "AP", "value": 0.5}\n'
                    '{"query_id": "all", "measure": "AP", "value": 0.375}\n')
    frame = read_scores(path)
    assert frame[["run", "measure", "topic", "value"]].values.tolist() == [
        ["bm25", "AP", "1", 0.25], ["bm25", "AP", "2", 0.5]]


def _error(paths, fmt="auto", **kw):
    with pytest.raises(InputError) as err:
        read_scores(paths, fmt, **kw)
    return str(err.value)


def test_ir_measures_read_as_trec_eval_is_never_transposed(tmp_path):
    paths = shapes.ir_measures(tmp_path, shapes.table())
    message = _error(paths, "trec_eval")
    assert "bm25.txt, line 1: topic 'nDCG@10' is spelled like a measure and measure '301' " \
           "like a topic: this looks like ir_measures -q output ('qid measure value') " \
           "(give --scores-format ir_measures, or leave it auto)" in message
    # a measure unknown to the name list: the means' 'all' row still gives it away
    path = tmp_path / "mine.txt"
    path.write_text("1\tmyscore\t0.5\n2\tmyscore\t0.25\nall\tmyscore\t0.375\n")
    assert "mine.txt, line 3: a measure called 'all'" in _error(path, "trec_eval")
    assert "this looks like ir_measures -q output" in _error(path, "trec_eval")
    assert read_scores(path)["measure"].tolist() == ["myscore", "myscore"]   # auto reads it right


def test_trec_eval_read_as_ir_measures_is_refused(tmp_path):
    paths = shapes.trec_eval(tmp_path, shapes.table())
    message = _error(paths, "ir_measures")
    assert "bm25.trec_eval, line 1: topic 'num_ret' is spelled like a measure" in message
    assert "this looks like trec_eval -q output ('measure topic value')" in message
    path = tmp_path / "r.txt"
    path.write_text("runid\tall\tr\nmine\t1\t0.5\n")
    assert "r.txt, line 1: a line runid" in _error(path, "ir_measures")


@pytest.mark.parametrize("name, text, fmt, expected", [
    ("h.txt", "qid\tmeasure\tvalue\n1\tAP\t0.5\n", "trec_eval",
     "h.txt, line 1: a header line 'qid measure value' where a number belongs: this looks "
     "like ir_measures -q output"),
    ("h.tsv", "name\tqid\tmeasure\tvalue\nbm25\t1\tAP\t0.5\n", "tsv",
     "h.tsv, line 1: a header line 'name qid measure value' where a number belongs: this "
     "looks like PyTerrier's per-query frame ('name,qid,measure,value') "
     "(give --scores-format pyterrier, or leave it auto)"),
    ("h.csv", "name,qid,measure,value\nbm25,1,AP,0.5\n", "csv",
     "this looks like PyTerrier's per-query frame"),
    ("h.json", '{"1": {"map": 0.5}}', "json", "this looks like pytrec_eval's output"),
    ("h.tsv", "run\tmeasure\ttopic\tvalue\nbm25\tAP\t1\t0.5\n", "tsv",
     "h.tsv, line 1: a header line 'run measure topic value' where evalkit score "
     "--per-topic output ('run measure topic value') has a number"),
    ("h.txt", "1\tmy\t0.5\n2\tmy\t0.25\n", "auto",
     "does not tell which (give --scores-format trec_eval or --scores-format ir_measures)"),
    ("h.csv", "query,system,score\n1,a,0.5\n", "auto", "h.csv, line 1: header 'query,system,"
     "score' is none of the CSV shapes"),
    ("h.tsv", "system\tmetric\tquery\tndcg\nbm25\tAP\t1\t0.5\n", "auto",
     "h.tsv, line 1: value 'ndcg' on the first line is not a number: a header line? "
     "(evalkit's TSV, trec_eval and ir_measures have no header: drop it;"),
    ("wide.csv", "topic,a,b\n1,0.5,0.25\n", "wide", "a wide table holds one measure and does "
     "not name it (give its name with exactly one --measure"),
])
def test_each_misread_shape_gets_one_line_naming_the_likely_one(tmp_path, name, text, fmt,
                                                                 expected):
    path = tmp_path / name
    path.write_text(text)
    message = _error(path, fmt)
    assert expected in message and "\n" not in message


def test_rename_tells_two_files_with_one_run_name_apart(tmp_path):
    scores = shapes.table()
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    a = shapes.ir_measures(tmp_path / "a", {"bm25": scores["bm25"]})[0]
    b = shapes.ir_measures(tmp_path / "b", {"bm25": scores["rm3"]})[0]
    message = _error([a, b])
    assert f"run bm25 has a second nDCG@10 score for topic 301 (first in {a}, line 1)" in message
    assert f"tell them apart with --rename {b}=bm25-2" in message
    frame = read_scores([a, b], rename=parse_renames([f"{b}=bm25+rm3"]))
    matrix = score_matrix(frame, "nDCG@10")
    assert list(matrix.columns) == ["bm25", "bm25+rm3"]
    assert matrix["bm25+rm3"].tolist() == list(scores["rm3"].values())
    frame = read_scores([a, b], rename=parse_renames([f"{a}=x", f"{b}=y"]))
    assert list(pd.unique(frame["run"])) == ["x", "y"]
    wide = shapes.wide(tmp_path, scores)
    frame = read_scores(wide, measure="P@10", rename=parse_renames(["rm3=RM3"]))
    assert list(pd.unique(frame["run"])) == ["bm25", "RM3", "splade"]
    assert "the file holds 3 runs (bm25, rm3, splade)" in _error(
        wide, measure="P@10", rename=parse_renames([f"{wide}=x"]))
    assert "no scores file or run is called 'nope'" in _error(
        wide, measure="P@10", rename=parse_renames(["nope=x"]))
    with pytest.raises(InputError, match="is not OLD=NEW"):
        parse_renames(["x"])


def test_pytrec_eval_and_json_values_are_checked(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"1": {"map": 0.5}, "2": {"map": None}}))
    assert "r.json: topic 2: value None is not a finite number" in _error(path)
    path.write_text(json.dumps({"map": {"1": 0.5, "2": 0.25}}))
    assert "topic 'map' is spelled like a measure and its keys are not" in _error(path)


@pytest.mark.parametrize("name", ["map", "P_10", "ndcg_cut_10", "iprec_at_recall_0.10", "nDCG@10",
                                  "P(rel=2)@5", "AP", "RR", "R@1000", "nERR@10", "P+", "Q",
                                  "num_ret", "NumRel(rel=1)"])
def test_measure_names_look_like_measures(name):
    assert looks_like_measure(name)


@pytest.mark.parametrize("name", ["301", "q1", "MB171", "T08", "all", "1a", "bm25", "topic_7"])
def test_topic_ids_do_not(name):
    assert not looks_like_measure(name)


def test_formats_are_listed_once():
    assert len(set(SCORE_FORMATS)) == len(SCORE_FORMATS) and SCORE_FORMATS[0] == "auto"
