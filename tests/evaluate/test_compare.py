"""evalkit compare's statistics report, as a user runs it: files in, tables and figure out."""

import contextlib
import io
import json
import types

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from evalkit.evaluate.comparison import cli as comparison_cli, output as comparison_output
from evalkit.evaluate.comparison.report import compare_scores
from evalkit.formats import scores as score_files
from evalkit.stats import pairwise
from evalkit.stats.pairwise import hsd_pairs
from evalkit.workspace import cli
from evalkit.paths import EXAMPLES

RUNS = sorted(str(p) for p in (EXAMPLES / "runs").glob("*.txt"))
RATINGS = str(EXAMPLES / "ratings.txt")


def _book_tsv(table, path, measure="nDCG@5"):
    lines = [f"{run}\t{measure}\t{topic}\t{value:.2f}\n"
             for run in table.columns for topic, value in table[run].items()]
    path.write_text("".join(lines) + f"X\t{measure}\tall\t0.3450\n")
    return path


def _cli(*argv):
    """The command in this process (tests that start processes live in tests/integration)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(argv))
        except SystemExit as stop:           # argparse's own usage errors
            code = stop.code
    return types.SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def test_book_example_writes_the_three_tables_and_the_figure(sakai_table_5_1, tmp_path, capsys):
    scores = _book_tsv(sakai_table_5_1, tmp_path / "book.tsv")
    out = tmp_path / "report"
    assert cli.main(["compare", "--scores", str(scores), "--trials", "2000", "--seed", "7",
                     "--out", str(out)]) == 0
    printed, err = capsys.readouterr()
    anova = pd.read_csv(out / "anova.csv")
    systems = pd.read_csv(out / "systems.csv")
    pairs = pd.read_csv(out / "pairs.csv")
    assert list(anova.columns) == ["measure", "source", "df", "ss", "ms", "F", "p"]
    assert list(systems.columns) == ["measure", "system", "mean", "ci_low", "ci_high"]
    assert list(pairs.columns) == ["measure", "system_a", "system_b", "diff", "ci_low", "ci_high",
                                   "p_value", "p_adjusted", "effect_size", "significant", "wins",
                                   "ties", "losses"]
    # Sakai's Table 5.1 as published by elinor (see tests/stats/test_anova_pairwise.py)
    assert anova["ss"].round(4).tolist() == [0.1083, 1.0293, 0.8317]
    assert round(anova["p"].iloc[0], 4) == 0.0976
    assert ((systems["ci_high"] - systems["mean"]).round(4) == 0.0670).all()
    # the CSVs keep full precision: the same numbers as the library's
    ref = hsd_pairs(sakai_table_5_1, 2000, seed=7)
    np.testing.assert_array_equal(pairs["p_value"], ref["p_value"])
    np.testing.assert_allclose(pairs["ci_low"], ref["ci_low"], rtol=0, atol=1e-15)
    assert pairs[["wins", "ties", "losses"]].to_numpy().tolist() == [[10, 5, 5], [11, 3, 6],
                                                                     [8, 4, 8]]
    pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(printed)), pairs)
    assert (out / "systems.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "3 runs x 20 topics" in err and "Monte Carlo standard error" in err


@pytest.mark.parametrize("test", ["t", "wilcoxon", "permutation"])
def test_paired_tests_on_the_command_line_equal_the_library(sakai_table_5_1, tmp_path, capsys,
                                                            test):
    scores = _book_tsv(sakai_table_5_1, tmp_path / "book.tsv")
    assert cli.main(["compare", "--scores", str(scores), "--test", test, "--correction", "bh",
                     "--format", "json", "--trials", "3000"]) == 0
    records = pd.DataFrame(json.loads(capsys.readouterr().out))
    ref = pairwise.paired_pairs(sakai_table_5_1, test, "bh", n_trials=3000, seed=0)
    np.testing.assert_array_equal(records["p_adjusted"], ref["p_adjusted"])   # full precision
    if test == "t":
        p = scipy.stats.ttest_rel(sakai_table_5_1["X"], sakai_table_5_1["Y"]).pvalue
        assert records["p_value"].iloc[0] == pytest.approx(p, rel=1e-12)


def test_markdown_and_latex_mark_the_significant_pairs(tmp_path, capsys):
    rng = np.random.default_rng(3)
    x = rng.normal(0.4, 0.1, size=(30, 1)) + rng.normal(0, 0.05, size=(30, 3)) + [0, 0.01, 0.2]
    frame = pd.DataFrame(x, columns=["bm25", "dense_a", "splade"])
    scores = tmp_path / "s.csv"
    frame.rename_axis("topic").reset_index().melt("topic", var_name="run").assign(
        measure="ndcg_cut_10")[["run", "measure", "topic", "value"]].to_csv(scores, index=False)
    assert cli.main(["compare", "--scores", str(scores), "--format", "markdown",
                     "--trials", "2000"]) == 0
    md = capsys.readouterr().out.splitlines()
    assert md[0] == "| Measure | A | B | Diff | CI | p | ES | W/T/L |"
    rows = {tuple(c.strip() for c in line.split("|")[2:4]): line for line in md[2:5]}
    assert "†" not in rows["bm25", "dense_a"] and "†" in rows["bm25", "splade"]
    assert "randomised Tukey HSD" in md[-1]
    assert cli.main(["compare", "--scores", str(scores), "--format", "latex", "--test", "t"]) == 0
    tex = capsys.readouterr().out
    assert r"\begin{tabular}" in tex and r"dense\_a" in tex and r"$^\dagger$" in tex
    assert "Holm correction" in tex


def test_trec_eval_files_and_evalkit_scores_give_the_same_report(sakai_table_5_1, tmp_path):
    files = []
    for run in sakai_table_5_1.columns:
        path = tmp_path / f"{run}.txt"
        path.write_text(f"runid\tall\t{run}\n" + "".join(
            f"ndcg_cut_5\t{t}\t{v:.4f}\n" for t, v in sakai_table_5_1[run].items())
            + "ndcg_cut_5\tall\t0.3\n")
        files.append(path)
    trec = compare_scores(score_files.read_scores(files, "trec_eval"), test="t")
    tsv = compare_scores(score_files.read_scores(_book_tsv(sakai_table_5_1, tmp_path / "b.tsv",
                                                           "ndcg_cut_5")), test="t")
    pd.testing.assert_frame_equal(trec.pairs, tsv.pairs)
    pd.testing.assert_frame_equal(trec.anova, tsv.anova)


def test_ratings_and_runs_go_through_the_same_report(capsys):
    assert cli.main(["compare", "--ratings", RATINGS, "--gain", "ug", "--measure", "Q",
                     "--test", "t", "--correction", "holm", *RUNS]) == 0
    printed, err = capsys.readouterr()
    out = pd.read_csv(io.StringIO(printed))
    assert len(out) == 15 and set(out["measure"]) == {"Q"}
    assert "1 topic(s) without a positive gain left out of the comparison: T08" in err
    assert "Q: 6 runs x 7 topics" in err
    cli.main(["score", "--ratings", RATINGS, "--gain", "ug", "--measure", "Q", "--per-topic",
              "--format", "json", *RUNS])
    scores = pd.DataFrame(json.loads(capsys.readouterr().out))
    matrix = scores[scores["topic"] != "all"].pivot(index="topic", columns="run", values="value")
    a, b = out["system_a"].iloc[0], out["system_b"].iloc[0]
    p = scipy.stats.ttest_rel(matrix[a], matrix[b]).pvalue
    assert out["p_value"].iloc[0] == pytest.approx(p, abs=1e-5)     # JSON keeps 6 decimals


@pytest.mark.parametrize("text, extra, message", [
    ("X\tQ\tt1\t0.5\nX\tQ\tt2\t0.5\n", [], "comparing needs at least two runs; Q has one (X)"),
    ("X\tQ\tt1\t0.5\nY\tQ\tt1\t0.5\n", [], "comparing needs at least two topics"),
    ("X\tQ\tt1\t0.5\nX\tQ\tt1\t0.4\n", [], "bad.tsv, line 2: run X has a second Q score"),
    ("X\tQ\tt1\t0.5\nY\tQ\tt1\tabc\n", [], "bad.tsv, line 2: value 'abc' is not a finite number"),
    ("X\tQ\tt1\t0.5\nX\tQ\tt2\t0.5\nY\tQ\tt1\t0.5\n", [], "run Y has no Q score for topic t2"),
    ("X\tQ\tt1\t0.5\nX\tQ\tt2\t0.5\nY\tQ\tt1\t0.5\nY\tQ\tt2\t0.5\n", ["--correction", "holm"],
     "expected none with --test hsd"),
])
def test_bad_scores_exit_2_with_file_and_line(tmp_path, text, extra, message):
    bad = tmp_path / "bad.tsv"
    bad.write_text(text)
    run = _cli("compare", "--scores", str(bad), *extra)
    assert run.returncode == 2, run.stderr
    assert message in run.stderr and "Traceback" not in run.stderr


def test_constant_differences_print_null_in_json_and_the_classic_compare_needs_runs(tmp_path):
    scores = tmp_path / "s.tsv"
    scores.write_text("A\tQ\t1\t0.5\nA\tQ\t2\t0.25\nB\tQ\t1\t0.5\nB\tQ\t2\t0.25\n")
    run = _cli("compare", "--scores", str(scores), "--test", "t", "--format", "json")
    assert run.returncode == 0, run.stderr
    (record,) = json.loads(run.stdout)
    assert record["effect_size"] is None and record["p_value"] == 1.0 and record["ties"] == 2
    run = _cli("compare", "--ratings", RATINGS, "--measure", "Q")
    assert run.returncode == 2 and "give --measure M and run files (or --scores FILE)" in run.stderr


def test_parser_choices_are_the_modules_choices():
    assert comparison_cli.TESTS == pairwise.TESTS
    assert comparison_cli.CORRECTIONS == tuple(pairwise.CORRECTIONS)
    assert comparison_cli.SCORE_FORMATS == score_files.SCORE_FORMATS
    assert comparison_cli.PAIRS_FORMATS == comparison_output.PAIRS_FORMATS
