"""``evalkit compare --scores`` on the files other tools write, run as a user runs it (a process)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

from evalkit.paths import EXAMPLES

sys.path.insert(0, str(Path(__file__).parents[1] / "formats"))
import score_shapes as shapes  # noqa: E402

pytestmark = pytest.mark.integration      # every test here starts the command

RUNS = sorted(str(p) for p in (EXAMPLES / "runs").glob("*.txt"))
RATINGS = str(EXAMPLES / "ratings.txt")


def evalkit(*argv, cwd=None):
    code = "import sys; from evalkit.workspace.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *map(str, argv)], capture_output=True,
                          text=True, cwd=cwd)


@pytest.mark.parametrize("shape, measure", [("ir_measures", "nDCG@10"), ("pyterrier", "nDCG@10"),
                                            ("pytrec_eval", "ndcg_cut_10"), ("wide", "nDCG@10"),
                                            ("trec_eval", "ndcg_cut_10")])
def test_p_values_equal_scipy_ttest_rel_on_the_same_numbers(tmp_path, shape, measure):
    scores = shapes.table()
    paths = getattr(shapes, shape)(tmp_path, scores)
    paths = paths if isinstance(paths, list) else [paths]
    extra = ["--measure", measure] if shape == "wide" else []
    run = evalkit("compare", "--scores", *paths, *extra, "--test", "t", "--correction", "none",
                  "--format", "json")
    assert run.returncode == 0, run.stderr
    pairs = json.loads(run.stdout)
    assert [(p["system_a"], p["system_b"]) for p in pairs] == [
        ("bm25", "rm3"), ("bm25", "splade"), ("rm3", "splade")]
    for pair in pairs:
        a = [scores[pair["system_a"]][t] for t in shapes.TOPICS]
        b = [scores[pair["system_b"]][t] for t in shapes.TOPICS]
        expected = scipy.stats.ttest_rel(a, b)
        assert pair["measure"] == measure
        assert pair["p_value"] == pytest.approx(expected.pvalue, rel=1e-12, abs=1e-15)
        assert pair["p_adjusted"] == pair["p_value"]
        assert pair["diff"] == pytest.approx(np.mean(a) - np.mean(b), abs=1e-12)
    assert f"{measure}: 3 runs x 12 topics" in run.stderr
    if shape == "trec_eval":
        assert "counts not compared: num_ret, num_rel, num_rel_ret" in run.stderr


def test_counts_are_compared_only_when_named(tmp_path):
    paths = shapes.trec_eval(tmp_path, shapes.table())
    run = evalkit("compare", "--scores", *paths, "--measure", "num_rel", "--test", "t")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[1].startswith("num_rel,bm25,rm3,0.0,")
    assert "counts not compared" not in run.stderr


@pytest.mark.parametrize("write, fmt, expected", [
    (lambda d: shapes.ir_measures(d, shapes.table()), "trec_eval",
     "bm25.txt, line 1: topic 'nDCG@10' is spelled like a measure and measure '301' like a "
     "topic: this looks like ir_measures -q output ('qid measure value') "
     "(give --scores-format ir_measures, or leave it auto)"),
    (lambda d: shapes.trec_eval(d, shapes.table()), "ir_measures",
     "bm25.trec_eval, line 1: topic 'num_ret' is spelled like a measure and measure '301' like a "
     "topic: this looks like trec_eval -q output ('measure topic value') "
     "(give --scores-format trec_eval, or leave it auto)"),
    (lambda d: [shapes.pyterrier(d, shapes.table())], "csv",
     "perquery.csv, line 1: header 'name,qid,measure,value' is not 'run,measure,topic,value': "
     "this looks like PyTerrier's per-query frame ('name,qid,measure,value') "
     "(give --scores-format pyterrier, or leave it auto)"),
    (lambda d: shapes.pytrec_eval(d, shapes.table()), "json",
     "bm25.json: a JSON object, not a list of records {run, measure, topic, value}: this looks "
     "like pytrec_eval's output ({topic: {measure: value}}) (give --scores-format pytrec_eval, "
     "or leave it auto)"),
])
def test_a_misread_shape_is_one_line_exit_2_nothing_on_stdout(tmp_path, write, fmt, expected):
    run = evalkit("compare", "--scores", *write(tmp_path), "--scores-format", fmt, "--test", "t")
    assert run.returncode == 2
    assert run.stderr.strip().endswith(expected), run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and run.stdout == ""


def test_rename_on_the_command_line(tmp_path):
    scores = shapes.table()
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    a = shapes.ir_measures(tmp_path / "a", {"bm25": scores["bm25"]})[0]
    b = shapes.ir_measures(tmp_path / "b", {"bm25": scores["splade"]})[0]
    run = evalkit("compare", "--scores", a, b, "--test", "t")
    assert run.returncode == 2 and f"--rename {b}=bm25-2" in run.stderr
    run = evalkit("compare", "--scores", a, b, "--rename", f"{b}=splade", "--test", "t",
                  "--format", "json")
    assert run.returncode == 0, run.stderr
    (pair,) = json.loads(run.stdout)
    assert (pair["system_a"], pair["system_b"]) == ("bm25", "splade")
    expected = scipy.stats.ttest_rel(list(scores["bm25"].values()), list(scores["splade"].values()))
    assert pair["p_value"] == pytest.approx(expected.pvalue, rel=1e-12)


def test_defaults_given_explicitly_do_not_change_the_output(tmp_path):
    base = ["compare", "--ratings", RATINGS, "--measure", "nERR@10", "--trials", "300", *RUNS]
    plain = evalkit(*base)
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.startswith("measure,gain,system_a,system_b,diff,p_value,effect_size,"
                                   "significant\n")
    for extra in (["--format", "csv"], ["--test", "hsd"], ["--correction", "none"],
                  ["--test", "hsd", "--format", "csv", "--correction", "none"],
                  ["--alpha", "0.05", "--seed", "0", "--gain", "raw", "--scores-format", "auto"]):
        assert evalkit(*base, *extra).stdout == plain.stdout, extra
    scores = shapes.trec_eval(tmp_path, shapes.table())
    report = evalkit("compare", "--scores", *scores, "--trials", "300")
    assert report.returncode == 0, report.stderr
    explicit = evalkit("compare", "--scores", *scores, "--trials", "300", "--test", "hsd",
                       "--format", "csv", "--correction", "none", "--scores-format", "auto")
    assert explicit.stdout == report.stdout
    assert report.stdout.startswith("measure,system_a,system_b,diff,ci_low,ci_high,p_value,")
