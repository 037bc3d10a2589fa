"""Judges as they come, through the commands as a user types them (subprocesses: exit codes,
one-line messages on stderr, nothing written on failure)."""

import filecmp
import subprocess
import sys

import pandas as pd
import pytest

from evalkit.evaluate.judges.example import JUDGES, RANDOM_JUDGE, write_judges_example
from evalkit.paths import EXAMPLES

FOLDER = EXAMPLES / "judges"
JUDGE_ARGS = [a for j in JUDGES for a in ("--judge", f"{j}={FOLDER / f'{j}.qrels'}")]
RUNS = sorted(str(p) for p in (FOLDER / "runs").glob("*.txt"))


def evalkit(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "evalkit.workspace.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=300)


def _refused(done, *expected):
    """Exit 2 and exactly one line on stderr that contains every ``expected`` text."""
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for text in expected:
        assert text in lines[0], lines[0]
    assert done.stdout == ""
    return lines[0]


def test_the_shipped_judges_are_what_the_generator_writes(tmp_path):
    for path in write_judges_example(tmp_path).values():
        assert filecmp.cmp(path, FOLDER / path.relative_to(tmp_path), shallow=False), path
    assert len(RUNS) == 8


def test_the_new_users_session_score_and_compare(tmp_path):
    done = evalkit("score", *JUDGE_ARGS, "--measure", "nERR@10", *RUNS)
    assert done.returncode == 0, done.stderr
    lines = [line.split("\t") for line in done.stdout.splitlines()]
    assert len(lines) == 8 and all(f[2] == "all" for f in lines)
    assert "grades 0..2 inferred from the labels" in done.stderr
    done = evalkit("compare", *JUDGE_ARGS, "--measure", "nERR@10", "--test", "t",
                   "--out", tmp_path / "cmp", *RUNS)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "cmp" / "pairs.csv").exists()


def test_the_new_users_session_agreement_names_the_random_judge(tmp_path):
    done = evalkit("agreement", *JUDGE_ARGS, "--bootstrap", "300", "--out", tmp_path / "ag")
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[1].startswith(f"Agrees least with the others pooled: {RANDOM_JUDGE} (alpha_ordinal ")
    assert out[2] == "Their intervals do not overlap (B = 300 topic resamples)."
    assert out[3].startswith("Statistically indistinguishable from ")
    names = sorted(p.name for p in (tmp_path / "ag").iterdir())
    assert names == ["agreement.csv", "agreement.png", "confusion.csv",
                     "consensus_dawid-skene.txt", "pairs.csv", "per_topic.csv", "reliability.csv"]
    table = pd.read_csv(tmp_path / "ag" / "agreement.csv")
    alpha = table[table["statistic"] == "alpha_ordinal"].set_index("judge")["value"]
    assert alpha.idxmin() == RANDOM_JUDGE and out[1].split("alpha_ordinal ")[1].startswith(
        f"{alpha[RANDOM_JUDGE]:.3f}")
    assert len(pd.read_csv(tmp_path / "ag" / "consensus_dawid-skene.txt", sep=" ", header=None)) == 30 * 12
    # against a reference: no row for the reference itself; --bootstrap 0 leaves the interval empty
    done = evalkit("agreement", *JUDGE_ARGS, "--reference", "alice", "--bootstrap", "0",
                   "--cuts", "1", "--out", tmp_path / "ref")
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(tmp_path / "ref" / "agreement.csv")
    assert set(table["judge"]) == {"bob", "carol", "mallory"} and table["ci_low"].isna().all()
    assert set(table["statistic"]) >= {"alpha_binary>=1", "kappa_binary>=1"}


@pytest.fixture
def files(tmp_path):
    (tmp_path / "afile").write_text("x\n")
    return tmp_path


OUT_CASES = {
    "a file": (lambda t: t / "afile", "is a file, not a folder"),
    "under a file": (lambda t: t / "afile" / "sub", "which is a file"),
    "not writable": (lambda t: "/proc/evalkit-out", "cannot create a folder in /proc"),
}
COMMANDS = {
    "agreement": ["agreement", *JUDGE_ARGS],
    "assessors": ["assessors", *JUDGE_ARGS, "--measure", "nERR@10", *RUNS],
    "compare": ["compare", *JUDGE_ARGS, "--measure", "nERR@10", "--test", "t", *RUNS],
}


@pytest.mark.parametrize("case", OUT_CASES)
@pytest.mark.parametrize("command", COMMANDS)
def test_an_unusable_out_is_refused_in_one_line_before_any_work(files, command, case):
    target, expected = OUT_CASES[case]
    before = sorted(p.name for p in files.rglob("*"))
    done = evalkit(*COMMANDS[command], "--out", target(files))
    line = _refused(done, "--out", expected)
    assert line.startswith("evalkit: --out ")            # nothing read first: no grade note
    assert sorted(p.name for p in files.rglob("*")) == before
    assert (files / "afile").read_text() == "x\n"


@pytest.mark.parametrize("command", ["agreement", "assessors"])
def test_a_grade_outside_the_declared_scale_is_refused_and_nothing_is_written(tmp_path, command):
    done = evalkit(*COMMANDS[command], "--grades", "0:1", "--out", tmp_path / "out")
    _refused(done, str(FOLDER / "alice.qrels"), ", line 6: grade 2 of judge alice is outside "
             "--grades 0:1", "--clip")
    assert not (tmp_path / "out").exists() and list(tmp_path.iterdir()) == []


def test_clip_says_how_many_per_judge(tmp_path):
    done = evalkit("agreement", *JUDGE_ARGS, "--grades", "0:1", "--clip", "--bootstrap", "0",
                   "--out", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if "--clip:" in line]
    assert len(notes) == 4 and all("clamped:" in n and "to 1" in n for n in notes)


REFUSALS = {
    "ratings twice": (["--ratings", "a.qrels", "--ratings", "b.qrels"],
                      ["--ratings is given 2 times", "--judge NAME=FILE"]),
    "one judge's qrels as ratings": (["--ratings", "a.qrels"],
                                     ["a.qrels: only one assessor (0)", "--judge NAME=FILE",
                                      "--qrels FILE"]),
    "ratings as a judge": (["--judge", "r=r.txt"], ["r.txt, line 2", "give it with --ratings FILE"]),
    "concatenated qrels": (["--judge", "ab=ab.qrels"],
                           ["ab.qrels, line 3", "split it into one file per judge"]),
    "a name twice": (["--judge", "a=a.qrels", "--judge", "a=b.qrels"], ["judge a is given twice"]),
    "a name in the ratings too": (["--judge", "x=a.qrels", "--ratings", "r.txt"],
                                  ["judge x is given twice"]),
    "clip without grades": (["--judge", "a=a.qrels", "--judge", "b=b.qrels", "--clip"],
                            ["--clip needs --grades"]),
    "an unknown reference": (["--judge", "a=a.qrels", "--judge", "b=b.qrels", "--reference", "zoe"],
                             ["reference zoe is not one of the judges"]),
    "an unknown statistic": (["--judge", "a=a.qrels", "--judge", "b=b.qrels", "--statistic", "kappa"],
                             ["evalkit: --statistic kappa is invalid: expected one of",
                              "cohen_kappa"]),
    "a cut off the scale": (["--judge", "a=a.qrels", "--judge", "b=b.qrels", "--cuts", "1,3"],
                            ["evalkit: --cuts 1,3 is invalid: expected", "1..2"]),
    "a scale upside down": (["--judge", "a=a.qrels", "--grades", "3:1"],
                            ["evalkit: --grades 3:1 is invalid: expected LO:HI with LO < HI"]),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_judges_given_wrongly_are_refused_with_the_fix(tmp_path, case):
    (tmp_path / "a.qrels").write_text("1 0 d1 1\n1 0 d2 0\n")
    (tmp_path / "b.qrels").write_text("1 0 d1 2\n1 0 d2 0\n")
    (tmp_path / "ab.qrels").write_text("1 0 d1 1\n1 0 d2 0\n1 0 d1 2\n")
    (tmp_path / "r.txt").write_text("1 x d1 1\n1 y d1 2\n")
    args, expected = REFUSALS[case]
    done = evalkit("agreement", *args, "--out", "out", cwd=tmp_path)
    _refused(done, *expected)
    assert not (tmp_path / "out").exists()


def test_the_session_in_docs_agreement_md_is_what_the_commands_print(tmp_path):
    from evalkit.paths import ROOT

    doc = (ROOT / "docs" / "agreement.md").read_text()
    judges = [a for j in JUDGE_ARGS for a in [j.replace(f"{FOLDER}/", "")]]
    runs = [f"runs/{p.split('/')[-1]}" for p in RUNS]
    score = evalkit("score", *judges, "--measure", "nERR@10", *runs, cwd=FOLDER)
    shown = score.stderr.splitlines() + score.stdout.splitlines()[:1]
    who = evalkit("assessors", *judges, "--measure", "nERR@10", "--trials", "2000", "--seed", "1",
                  "--out", tmp_path / "who", *runs, cwd=FOLDER)
    agree = evalkit("agreement", *judges, "--seed", "1", "--out", tmp_path / "agreement", cwd=FOLDER)
    lines = shown + who.stdout.splitlines() + agree.stdout.splitlines()
    assert len(lines) == 5 + 3 + 4
    for line in lines:
        assert line in doc, line
    pairs = pd.read_csv(tmp_path / "agreement" / "pairs.csv")
    random = pairs[(pairs["judge_a"] == RANDOM_JUDGE) | (pairs["judge_b"] == RANDOM_JUDGE)]
    assert random["p_holm"].tolist() == pytest.approx([6 / 5001] * 3, rel=1e-12)
    assert "p_holm = 6/5001 = 0.0012" in doc
    assert (pairs.drop(random.index)["p_holm"] > 0.05).all()


@pytest.mark.parametrize("command", ["score", "compare"])
def test_several_qrels_after_one_ratings_option_are_explained_in_one_line(command):
    # argparse takes bob.qrels as the first run and the real runs as unrecognized: the line
    # says so and names --judge, instead of argparse's usage or a complaint about a run file
    done = evalkit(command, "--ratings", FOLDER / "alice.qrels", FOLDER / "bob.qrels",
                   "--measure", "nG@1", *RUNS[:2])
    _refused(done, f"evalkit {command}: {RUNS[0]} {RUNS[1]} not understood",
             "bob.qrels was taken as the first run file", "--judge NAME=FILE")


def test_a_judges_qrels_read_as_a_run_names_judge():
    done = evalkit("score", "--measure", "nG@1", "--grades", "0:2",
                   "--judge", f"alice={FOLDER / 'alice.qrels'}", FOLDER / "bob.qrels", *RUNS[:1])
    _refused(done, "bob.qrels, line 1", "got 4: this looks like a qrels line", "--judge NAME=FILE")
