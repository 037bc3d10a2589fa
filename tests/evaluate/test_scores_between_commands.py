"""Between commands (issue 43, item 6): ``compare --scores`` reads ``score --per-judge`` output
(a report per judge, or ``--only-judge NAME``) and trec_eval ``-q -m all_trec`` output (its
``relstring`` lines left out and said once)."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from evalkit.paths import EXAMPLES
from evalkit.workspace import cli

FOLDER = EXAMPLES / "judges"
RUNS = sorted(str(p) for p in (FOLDER / "runs").glob("*.txt"))[:4]
JUDGES = ["--judge", f"alice={FOLDER / 'alice.qrels'}", "--judge", f"bob={FOLDER / 'bob.qrels'}",
          "--grades", "0:2"]
TEST = ["--test", "t", "--correction", "holm"]


def run(capsys, *args):
    code = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, err.strip().splitlines()


@pytest.mark.parametrize("fmt", ["tsv", "csv", "json"])
def test_compare_reads_per_judge_scores_judge_by_judge(tmp_path, capsys, fmt):
    out, _ = run(capsys, "score", *JUDGES, "--per-judge", "--per-topic", "--measure", "nDCG@10",
                 "--format", fmt, *RUNS)
    scores = tmp_path / f"per_judge.{fmt if fmt != 'tsv' else 'txt'}"
    scores.write_text(out)
    alone, _ = run(capsys, "score", "--qrels", FOLDER / "alice.qrels", "--per-topic",
                   "--measure", "nDCG@10", "--format", fmt, *RUNS)
    (tmp_path / f"alice{scores.suffix}").write_text(alone)         # the same precision
    expect, _ = run(capsys, "compare", "--scores", tmp_path / f"alice{scores.suffix}", *TEST)
    only, _ = run(capsys, "compare", "--scores", scores, "--only-judge", "alice", *TEST)
    assert only == expect                                   # alice's rows: alice's qrels alone
    both, err = run(capsys, "compare", "--scores", scores, *TEST, "--out", tmp_path / "rep")
    table = pd.read_csv(io.StringIO(both))
    assert list(table.columns[:1]) == ["judge"] and set(table["judge"]) == {"alice", "bob", "all:raw"}
    alice = table[table["judge"] == "alice"].drop(columns="judge").reset_index(drop=True)
    pd.testing.assert_frame_equal(alice, pd.read_csv(io.StringIO(expect)))
    assert (tmp_path / "rep" / "bob" / "pairs.csv").exists()
    assert any(line.startswith("evalkit compare: bob: nDCG@10: 4 runs x 30 topics") for line in err)


def test_only_judge_names_the_judges_when_it_is_not_one_of_them(tmp_path, capsys):
    out, _ = run(capsys, "score", *JUDGES, "--per-judge", "--per-topic", "--measure", "AP",
                 "--format", "csv", *RUNS)
    (tmp_path / "s.csv").write_text(out)
    code = cli.main(["compare", "--scores", str(tmp_path / "s.csv"), "--only-judge", "carol"])
    _, err = capsys.readouterr()
    assert code == 2 and "no such judge in the scores; they are alice, bob, all:raw" in err


def test_trec_eval_all_trec_output_is_read_leaving_out_its_string_lines(tmp_path, capsys):
    """trec_eval -q -m all_trec writes counts, relstring (a string) and the measures per topic."""
    out, _ = run(capsys, "score", "--qrels", FOLDER / "alice.qrels", "--per-topic", "--measure",
                 "AP", "--format", "json", *RUNS[:2])
    records = json.loads(out)
    files = []
    for run_name in ("run1", "run2"):
        lines = [f"runid\tall\t{run_name}"]
        for r in records:
            if r["run"] == run_name and r["topic"] != "all":
                lines += [f"num_ret\t{r['topic']}\t100", f"map\t{r['topic']}\t{r['value']:.4f}",
                          f"relstring\t{r['topic']}\t10-1100001"]
        lines.append("map\tall\t0.5")
        path = tmp_path / f"{run_name}.trec_eval"
        path.write_text("\n".join(lines) + "\n")
        files.append(path)
    table, err = run(capsys, "compare", "--scores", *files, *TEST)
    assert any("60 relstring line(s) left out: strings, not scores" in line for line in err), err
    assert any("counts not compared: num_ret" in line for line in err)
    pairs = pd.read_csv(io.StringIO(table))
    assert list(pairs["measure"]) == ["map"] and len(pairs) == 1
