"""The commands as a user types them, on the shipped sample in data/examples/."""

import filecmp
import io
import json
import subprocess
import sys

import pandas as pd
import pytest

from evalkit.evaluate.examples import write_example
from evalkit.workspace import cli
from evalkit.paths import EXAMPLES

RUNS = sorted(str(p) for p in (EXAMPLES / "runs").glob("*.txt"))
RATINGS = str(EXAMPLES / "ratings.txt")


def test_the_shipped_sample_is_what_the_generator_writes(tmp_path):
    written = write_example(tmp_path)
    for path in written.values():
        assert filecmp.cmp(path, EXAMPLES / path.relative_to(tmp_path), shallow=False), path
    assert len(RUNS) == 6


def test_score_prints_trec_eval_lines_and_reports_on_stderr(capsys):
    assert cli.main(["score", "--ratings", RATINGS, "--gain", "ug", "--measure", "nERR@10",
                     "--measure", "Q", "--per-topic", *RUNS]) == 0
    out, err = capsys.readouterr()
    lines = [line.split("\t") for line in out.splitlines()]
    assert all(len(f) == 4 for f in lines)
    assert {f[1] for f in lines} == {"nERR@10", "Q"}                 # names echoed as given
    alls = [f for f in lines if f[2] == "all"]
    assert len(alls) == 6 * 2 and len(lines) == 6 * 2 * (7 + 1)      # T08 has no positive gain
    assert "1 topic(s) without a positive gain excluded from the mean: T08" in err
    assert "unjudged (gain 0)" in err
    # the 'all' value is the mean of the per-topic lines
    frame = pd.DataFrame(lines, columns=["run", "measure", "topic", "value"]).astype({"value": float})
    per = frame[(frame["topic"] != "all") & (frame["run"] == "alpha-1") & (frame["measure"] == "Q")]
    mean = frame[(frame["topic"] == "all") & (frame["run"] == "alpha-1") & (frame["measure"] == "Q")]
    assert mean["value"].iloc[0] == pytest.approx(per["value"].mean(), abs=1e-4)


def test_score_csv_and_json_agree(capsys):
    cli.main(["score", "--ratings", RATINGS, "--measure", "P+", "--format", "csv", *RUNS])
    csv = pd.read_csv(io.StringIO(capsys.readouterr().out))
    cli.main(["score", "--ratings", RATINGS, "--measure", "P+", "--format", "json", *RUNS])
    records = pd.DataFrame(json.loads(capsys.readouterr().out))
    assert list(csv.columns) == ["run", "measure", "topic", "value"]
    assert csv["value"].round(4).tolist() == records["value"].round(4).tolist()


def test_compare_prints_one_csv_table_with_discrepancies(capsys):
    assert cli.main(["compare", "--ratings", RATINGS, "--gain", "raw", "--gain", "ug",
                     "--measure", "nERR@10", "--trials", "500", "--seed", "2", *RUNS]) == 0
    out, err = capsys.readouterr()
    table = pd.read_csv(io.StringIO(out))
    assert list(table.columns) == ["measure", "gain", "system_a", "system_b", "diff", "p_value",
                                   "effect_size", "significant", "discrepant"]
    assert len(table) == 2 * 15 and set(table["gain"]) == {"raw", "ug"}
    assert "Monte Carlo standard error of the p-values at most" in err


@pytest.mark.parametrize("text, extra, message", [
    ("T1 A1 d1 2\nT1 A2 d1 x\n", [], "bad.txt, line 2: rating 'x' is not a whole number"),
    ("T1 A1 d1 2\nT1 A2 d1 3\n", ["--dmax", "2"], "bad.txt, line 2: rating 3 is above --dmax 2"),
    ("T1 A1 d1 2\nT1 A1 d1 1\n", [], "bad.txt, line 2: assessor A1 rates document d1 of topic T1 twice"),
    ("", [], "bad.txt: file is empty"),
])
def test_bad_ratings_name_file_and_line_and_exit_2(tmp_path, text, extra, message):
    bad = tmp_path / "bad.txt"
    bad.write_text(text)
    run = subprocess.run([sys.executable, "-m", "evalkit.workspace.cli", "score", "--ratings", str(bad),
                          "--measure", "Q", *extra, RUNS[0]], capture_output=True, text=True)
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr


def _cli(*argv):
    return subprocess.run([sys.executable, "-m", "evalkit.workspace.cli", *argv],
                          capture_output=True, text=True)


def test_stc_ja_ratings_above_dmax_and_bad_run_files_name_file_and_line(tmp_path):
    stc = tmp_path / "stc.txt"
    stc.write_text("T01 T01-D01 0 1 2\nT01 T01-D02 1 NA 2\nT01 T01-D03 2 3 1\n")
    run = _cli("score", "--ratings", str(stc), "--dmax", "2", "--measure", "Q", RUNS[0])
    assert run.returncode == 2 and "stc.txt, line 3: rating 3 is outside 0..2" in run.stderr
    bad_run = tmp_path / "run.txt"
    bad_run.write_text("T01 Q0 T01-D01 1 2.0 x\nT01 Q0 T01-D02 two 1.0 x\n")
    run = _cli("score", "--ratings", RATINGS, "--measure", "Q", str(bad_run))
    assert run.returncode == 2 and "run.txt, line 2: rank 'two' is not an integer" in run.stderr


def test_qrels_with_a_gain_map_on_the_command_line(tmp_path, capsys):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("T01 0 T01-D01 2\nT01 0 T01-D02 1\nT01 0 T01-D03 0\n")
    runfile = tmp_path / "r.txt"
    runfile.write_text("T01 Q0 T01-D02 1 3.0 r\nT01 Q0 T01-X 2 2.0 r\nT01 Q0 T01-D01 3 1.0 r\n")
    assert cli.main(["score", "--qrels", str(qrels), "--gain-map", "1:1,2:3",
                     "--measure", "nG@1", "--measure", "Q", str(runfile)]) == 0
    out = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    # gains 1, 0 (unjudged), 3; ideal 3, 1: nG@1 = 1/3; Q = (BR(1) + BR(3)) / 2 with
    # BR(1) = (1 + 1) / (3 + 1), BR(3) = (4 + 2) / (4 + 3)
    assert out == [["r", "nG@1", "all", "0.3333"],
                   ["r", "Q", "all", f"{((1 + 1) / (3 + 1) + (4 + 2) / (4 + 3)) / 2:.4f}"]]
