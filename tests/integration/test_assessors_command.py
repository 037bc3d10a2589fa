"""``evalkit assessors`` as a process: three lines on stdout, every file written, the same
bytes for one seed; bad input refused with the file and line, exit status 2 and nothing
written; without matplotlib the tables alone."""

import subprocess
import sys

import pandas as pd
import pytest

from evalkit.evaluate.assessor_study.report import FIGURES, RELIABILITY, TABLES
from evalkit.paths import EXAMPLES

RUN_FILES = sorted(str(p) for p in (EXAMPLES / "runs").glob("*.txt"))
RATINGS_FILE = str(EXAMPLES / "ratings.txt")


def _cli(*argv):
    return subprocess.run([sys.executable, "-m", "evalkit.workspace.cli", *argv],
                          capture_output=True, text=True)


def test_command_writes_tables_and_figure_and_three_lines(tmp_path):
    out = tmp_path / "who"
    run = _cli("assessors", "--ratings", RATINGS_FILE, "--measure", "nG@1", "--measure", "Q",
               "--trials", "300", "--seed", "1", "--out", str(out), *RUN_FILES)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 3
    assert "flip when one assessor is left out" in lines[0] and "departing most" in lines[1]
    assert lines[2].startswith("Krippendorff's alpha over 5 assessors: ordinal 0.488")
    assert sorted(p.name for p in out.iterdir()) == sorted([*TABLES, *RELIABILITY, *FIGURES])
    board = pd.read_csv(out / "leaderboards.csv")
    assert list(board.columns) == ["judge", "run", "measure", "value", "rank", "topics"]
    assert len(board) == (6 + 2 * 5) * 6 * 2 and board["rank"].dtype.kind == "i"
    again = tmp_path / "again"
    _cli("assessors", "--ratings", RATINGS_FILE, "--measure", "nG@1", "--measure", "Q",
         "--trials", "300", "--seed", "1", "--out", str(again), *RUN_FILES)
    for name in [*TABLES, *RELIABILITY, *FIGURES]:          # same seed, same bytes
        assert (out / name).read_bytes() == (again / name).read_bytes(), name


@pytest.mark.parametrize("text, message", [
    ("T01 A1 T01-D01 2\nT01 A1 T01-D02 1\n", "only one assessor (A1)"),
    ("T01 A1 T01-D01 2\nT01 A2 T01-D01 1\nT01 A2 T01-D01 0\n",
     "bad.txt, line 3: assessor A2 rates document T01-D01 of topic T01 twice"),
    ("T01 A1 T01-D01 2\nT01 A2 T01-D01 x\n", "bad.txt, line 2: rating 'x' is not a whole number"),
    ("", "bad.txt: file is empty"),
])
def test_bad_input_is_refused_and_nothing_is_written(tmp_path, text, message):
    bad = tmp_path / "bad.txt"
    bad.write_text(text)
    out = tmp_path / "out"
    run = _cli("assessors", "--ratings", str(bad), "--measure", "Q", "--out", str(out), *RUN_FILES)
    assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt"]    # no temporary left


def test_without_matplotlib_the_tables_are_written_and_the_command_says_why(tmp_path):
    code = ("import importlib.util, sys\n"
            "real = importlib.util.find_spec\n"
            "importlib.util.find_spec = lambda name, *a: None if name == 'matplotlib' else real(name, *a)\n"
            "from evalkit.workspace.cli import main\n"
            "status = main(sys.argv[1:])\n"
            "assert 'matplotlib' not in sys.modules, 'matplotlib was imported'\n"
            "sys.exit(status)")
    out = tmp_path / "who"
    run = subprocess.run([sys.executable, "-c", code, "assessors", "--ratings", RATINGS_FILE,
                          "--measure", "Q", "--trials", "100", "--out", str(out), *RUN_FILES],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted([*TABLES, *RELIABILITY])
    assert "the figure needs matplotlib (not installed)" in run.stderr
    assert len(run.stdout.splitlines()) == 3


JUDGES_FOLDER = EXAMPLES / "judges"
JUDGE_ARGS = [a for j in ("alice", "bob", "carol", "mallory")
              for a in ("--judge", f"{j}={JUDGES_FOLDER / f'{j}.qrels'}")]
JUDGE_RUNS = sorted(str(p) for p in (JUDGES_FOLDER / "runs").glob("*.txt"))


def test_reference_writes_its_tables_and_figures_with_the_same_bytes_for_one_seed(tmp_path):
    from evalkit.evaluate.assessor_study.report import REFERENCE_FIGURES, REFERENCE_TABLES

    names = sorted([*TABLES, *RELIABILITY, *FIGURES, *REFERENCE_TABLES, *REFERENCE_FIGURES])
    outs = []
    for name in ("a", "b"):
        run = _cli("assessors", *JUDGE_ARGS, "--grades", "0:2", "--reference", "bob",
                   "--measure", "nDCG@10", "--measure", "AP", "--trials", "200", "--bootstrap",
                   "200", "--seed", "4", "--out", str(tmp_path / name), *JUDGE_RUNS)
        assert run.returncode == 0, run.stderr
        lines = run.stdout.splitlines()
        assert len(lines) == 3 + 2
        assert lines[3].startswith("Against bob on nDCG@10 (4 judges without bob's labels")
        assert lines[4].startswith("Against bob on AP (")
        assert sorted(p.name for p in (tmp_path / name).iterdir()) == names
        outs.append(tmp_path / name)
    for name in names:                                        # same seed, same bytes
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name
    ref = pd.read_csv(outs[0] / "reference.csv")
    assert list(ref.columns) == ["reference", "judge", "measure", "statistic", "value", "ci_low",
                                 "ci_high", "topics", "includes_reference"]
    assert set(ref["judge"]) == {"all:raw", "all:wg", "all:ug", "median", "dawid-skene",
                                 "assessor-mean", "assessor:alice", "assessor:carol",
                                 "assessor:mallory", "without:bob"}
    sig = pd.read_csv(outs[0] / "significance_agreement.csv")
    five = ["both_same_direction", "reference_only", "judge_only", "opposite", "neither"]
    assert (sig[five].sum(axis=1) == sig["pairs"]).all() and (sig["pairs"] == 28).all()


@pytest.mark.parametrize("options, message", [
    (["--reference", "zed"],
     "evalkit: --reference zed: no judge of that name; the judges are alice, bob, carol, mallory"),
    (["--reference", "alice", "--top", "8"],
     "evalkit: --top 8 is invalid: expected a whole number from 1 to 7 (below the 8 runs)"),
    (["--reference", "alice", "--bootstrap", "-2"],
     "evalkit: --bootstrap -2 is invalid: expected a whole number >= 0 (0: no interval)"),
])
def test_a_bad_reference_is_refused_in_one_line_and_nothing_is_written(tmp_path, options, message):
    out = tmp_path / "out"
    run = _cli("assessors", *JUDGE_ARGS, "--grades", "0:2", *options, "--measure", "nDCG@10",
               "--trials", "100", "--out", str(out), *JUDGE_RUNS)
    assert run.returncode == 2 and run.stderr.strip().splitlines() == [message], run.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []
