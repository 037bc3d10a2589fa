"""``evalkit score`` and ``compare`` as processes: exit status 2 with the file and line of bad
input and no traceback, and only the library imported (no notebook machinery)."""

import json
import subprocess
import sys

import pytest

from evalkit.paths import EXAMPLES

RUNS = sorted(str(p) for p in (EXAMPLES / "runs").glob("*.txt"))
RATINGS = str(EXAMPLES / "ratings.txt")


@pytest.mark.parametrize("text, extra, message", [
    ("T1 A1 d1 2\nT1 A2 d1 x\n", [], "bad.txt, line 2: rating 'x' is not a whole number"),
    ("T1 A1 d1 2\nT1 A2 d1 3\n", ["--dmax", "2"],
     "bad.txt, line 2: grade 3 of judge A2 is outside --dmax 2"),
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
    assert run.returncode == 2 and "stc.txt, line 3: grade 3 of judge a2 is outside --dmax 2" in run.stderr
    bad_run = tmp_path / "run.txt"
    bad_run.write_text("T01 Q0 T01-D01 1 2.0 x\nT01 Q0 T01-D02 two 1.0 x\n")
    run = _cli("score", "--ratings", RATINGS, "--measure", "Q", str(bad_run))
    assert run.returncode == 2 and "run.txt, line 2: rank 'two' is not an integer" in run.stderr


#: What ``pip install '.[workspace]'`` adds; none of it may load for ``score`` or ``compare``.
WORKSPACE_ONLY = ("papermill", "ipykernel", "jupyter_client", "nbformat", "jupyterlab", "voila",
                  "jupyter_book", "selenium", "dask", "distributed", "seaborn", "sklearn", "tqdm", "tabulate", "jinja2", "psutil", "ipywidgets")


@pytest.mark.parametrize("argv", [
    ["score", "--ratings", RATINGS, "--gain", "ug", "--measure", "nG@1", "--measure", "nERR@10", *RUNS],
    ["compare", "--ratings", RATINGS, "--gain", "raw", "--gain", "ug", "--measure", "nERR@10",
     "--trials", "200", "--seed", "1", *RUNS],
])
def test_score_and_compare_load_only_the_library(argv):
    code = ("import contextlib, io, json, sys; from evalkit.workspace.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    status = main(sys.argv[1:])\n"
            "print(json.dumps([status, sorted({m.split('.')[0] for m in sys.modules})]))")
    run = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True)
    status, loaded = json.loads(run.stdout)
    assert status == 0
    assert not set(WORKSPACE_ONLY) & set(loaded), sorted(set(WORKSPACE_ONLY) & set(loaded))
    assert {"numpy", "pandas", "evalkit"} <= set(loaded)
    if argv[0] == "score":            # small inputs: the column-wise readers, no numba to load
        assert "numba" not in loaded
