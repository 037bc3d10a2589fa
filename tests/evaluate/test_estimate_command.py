"""evalkit estimate as a user types it: the tables' rows and columns, the formats, --out equal
to the Python API's frames, the t interval, and bad input refused in one line (exit 2, nothing
written)."""

import io
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from evalkit.evaluate import estimate
from evalkit.workspace.cli import main

sys.path.insert(0, str(Path(__file__).parent))
from estimate_world import write_world  # noqa: E402

ESTIMATE_COLUMNS = ["run", "measure", "method", "estimate", "ci_low", "ci_high",
                    "reference_topics", "topics"]
PAIR_COLUMNS = ["run_a", "run_b", "measure", "method", "difference", "ci_low", "ci_high",
                "p_value", "p_holm"]
BIAS_COLUMNS = ["run", "measure", "shift", "ci_low", "ci_high", "p_value", "p_holm"]
QUICK = ["--bootstrap", "200", "--trials", "500", "--seed", "7"]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return write_world(tmp_path_factory.mktemp("world"))


def _args(world, *extra, human=None, llm=None, runs=None):
    return ["estimate", "--judge", f"human={human or world['human']}",
            "--judge", f"llm={llm or world['llm']}", "--reference", "human", "--proxy", "llm",
            "--measure", "nDCG@10", *map(str, extra), *map(str, runs or world["runs"])]


def _run(capsys, argv):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_rows_and_columns_as_the_issue_names_them(world, capsys):
    status, out, err = _run(capsys, _args(world, "--pairs"))
    assert status == 0
    tables = out.split("# ")[1:]
    est = pd.read_csv(io.StringIO(tables[0].split("\n", 1)[1]))
    assert list(est.columns[:8]) == ESTIMATE_COLUMNS
    assert len(est) == 5 * 4                                 # runs x methods
    assert est["method"].tolist()[:4] == ["classical", "proxy", "ppi", "ppi++"]
    first = est.iloc[:4]
    assert first["reference_topics"].tolist() == [10, 0, 10, 10]
    assert first["topics"].tolist() == [10, 30, 30, 30]
    assert first["note"].fillna("").str.startswith("biased").tolist() == [False, True, False, False]
    assert (est.loc[est["method"] == "ppi", "lambda"] == 1).all()
    pairs = pd.read_csv(io.StringIO(tables[1].split("\n", 1)[1]))
    assert list(pairs.columns[:9]) == PAIR_COLUMNS
    assert len(pairs) == 10 * 4                              # pairs x methods
    assert (pairs["p_holm"] >= pairs["p_value"]).all()
    assert "random sample" in err                            # the assumption, said
    assert "verdicts" in tables[2]


def test_out_equals_the_python_api(world, tmp_path, capsys):
    status, out, err = _run(capsys, _args(world, "--pairs", "--plan", "0.1", "--bias", *QUICK,
                                          "--out", tmp_path / "o"))
    assert status == 0 and "wrote" in err
    report = estimate(world["runs"], {"human": world["human"], "llm": world["llm"]},
                      reference="human", proxy="llm", measures=["nDCG@10"], pairs=True, plan=0.1,
                      bias=True, bootstrap=200, trials=500, seed=7)
    for name, frame in report.tables().items():
        written = pd.read_csv(tmp_path / "o" / f"{name}.csv", keep_default_na=False,
                              na_values=["nan"])
        expected = frame.reset_index(drop=True)
        written = written.astype({c: expected[c].dtype for c in expected.columns
                                  if expected[c].dtype != object})
        pd.testing.assert_frame_equal(written, expected, check_dtype=False,
                                      rtol=0, atol=0)
    assert (tmp_path / "o" / "bland_altman.png").stat().st_size > 10000
    assert list(report.bias.columns[:7]) == BIAS_COLUMNS


def test_json_and_markdown(world, capsys):
    status, out, _ = _run(capsys, _args(world, "--format", "json", "--alpha", "0.1"))
    rows = json.loads(out)["estimates"]
    assert status == 0 and len(rows) == 20 and rows[1]["effective_reference_topics"] is None
    status, out, _ = _run(capsys, _args(world, "--format", "markdown"))
    assert out.startswith("| run | measure | method |") and out.count("\n") == 22


def test_t_interval_uses_t_quantiles_and_ddof_1(world, capsys):
    _, out, _ = _run(capsys, _args(world, "--interval", "t"))
    est = pd.read_csv(io.StringIO(out))
    report = estimate(world["runs"], {"human": world["human"], "llm": world["llm"]},
                      reference="human", proxy="llm")
    y = report.per_topic.query("run == 'r2' and reference == reference")["reference"].to_numpy()
    half = stats.t.ppf(0.975, len(y) - 1) * y.std(ddof=1) / np.sqrt(len(y))
    row = est[(est["run"] == "r2") & (est["method"] == "classical")].iloc[0]
    assert row["ci_high"] - row["estimate"] == pytest.approx(half, rel=1e-12)
    normal = report.estimates.set_index(["run", "method"])
    normal = normal["ci_high"] - normal["ci_low"]
    wider = est.set_index(["run", "method"])
    wider = wider["ci_high"] - wider["ci_low"]
    assert (wider[normal > 0] > normal[normal > 0]).all() and (normal > 0).sum() >= 16


def _lines(path, keep):
    text = Path(path).read_text().splitlines()
    return "".join(line + "\n" for line in text if keep(line.split()))


@pytest.mark.parametrize("case", ["no-common-topic", "one-reference-topic", "proxy-lacks-topics",
                                  "run-lacks-topics", "unknown-reference", "bad-alpha"])
def test_bad_input_is_one_line_exit_2_nothing_written(world, tmp_path, capsys, case):
    human, llm, runs, extra = world["human"], world["llm"], list(world["runs"]), []
    if case == "no-common-topic":
        (tmp_path / "h.qrels").write_text(Path(human).read_text().replace("q0", "x0"))
        human = tmp_path / "h.qrels"
    elif case == "one-reference-topic":
        (tmp_path / "h.qrels").write_text(_lines(human, lambda f: f[0] == "q00"))
        human = tmp_path / "h.qrels"
    elif case == "proxy-lacks-topics":
        (tmp_path / "l.qrels").write_text(_lines(llm, lambda f: f[0] not in ("q03", "q04")))
        llm = tmp_path / "l.qrels"
    elif case == "run-lacks-topics":
        lacking = _lines(runs[0], lambda f: f[0] != "q17").replace("r0", "r9")
        (tmp_path / "r9.txt").write_text(lacking)
        runs.append(tmp_path / "r9.txt")
    elif case == "bad-alpha":
        extra = ["--alpha", "1.5"]
    argv = _args(world, *extra, "--out", tmp_path / "out", human=human, llm=llm, runs=runs)
    if case == "unknown-reference":
        argv[argv.index("--reference") + 1] = "humans"
    status, out, err = _run(capsys, argv)
    expected = {"no-common-topic": "no topic in common", "one-reference-topic": "judged 1 topic",
                "proxy-lacks-topics": "lacks 2 of the reference",
                "run-lacks-topics": "run r9 lacks 1",
                "unknown-reference": "--reference humans is not among",
                "bad-alpha": "--alpha 1.5"}[case]
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and expected in err, err
    assert not (tmp_path / "out").exists()


def test_fill_equals_scoring_the_merged_qrels(world, tmp_path, capsys):
    # the human judge lost a third of its labels; --fill llm.qrels gives them the LLM's grades
    human = [line.split() for line in Path(world["human"]).read_text().splitlines()]
    kept = [f for k, f in enumerate(human) if k % 3]
    holes = tmp_path / "holes.qrels"
    holes.write_text("".join(" ".join(f) + "\n" for f in kept))
    have = {(f[0], f[2]) for f in kept}
    llm = [line.split() for line in Path(world["llm"]).read_text().splitlines()]
    topics = {f[0] for f in kept}
    merged = tmp_path / "merged.qrels"
    merged.write_text("".join(" ".join(f) + "\n" for f in kept + [
        f for f in llm if f[0] in topics and (f[0], f[2]) not in have]))
    status, filled, err = _run(capsys, _args(world, "--fill", world["llm"], human=holes))
    assert status == 0
    assert f"{len(human) - len(kept)} unlabelled documents of judge human on its 10 topics" in err
    assert "0 unlabelled documents of judge llm" in err
    _, by_hand, _ = _run(capsys, _args(world, human=merged))
    _, unfilled, _ = _run(capsys, _args(world, human=holes))
    assert filled == by_hand and filled != unfilled
    report = estimate(world["runs"], {"human": holes, "llm": world["llm"]}, reference="human",
                      proxy="llm", fill=world["llm"])
    assert report.estimates.to_csv(index=False, na_rep="nan", lineterminator="\n") == filled
