"""The ``evalkit`` console script ends the process itself once numba is loaded
(:func:`evalkit.workspace.cli.entry`): every byte printed and written, every exit code kept.

The fast end skips the interpreter's teardown, so what must not be lost is what a normal
end would flush: stdout through a pipe larger than the pipe's buffer, stderr's notes, an
``--out`` file, and the exit codes 0 and 2.  Each case runs in a process that has imported
numba (the condition of the fast end) and is compared with ``main()`` run in this process.
"""

import subprocess
import sys

from evalkit.paths import EXAMPLES
from evalkit.workspace import cli

JUDGES = EXAMPLES / "judges"
RUNS = sorted(str(p) for p in (JUDGES / "runs").glob("*.txt"))

ENTRY = ("import sys, numba\n"
         "from evalkit.workspace.cli import entry\n"
         "sys.argv = ['evalkit', *sys.argv[1:]]\n"
         "entry()\n")


def _entry(args):
    return subprocess.run([sys.executable, "-c", ENTRY, *args], capture_output=True, text=True,
                          timeout=300)


def test_every_line_reaches_a_pipe_and_the_exit_code_is_kept(capsys):
    args = ["score", "--judge", f"alice={JUDGES / 'alice.qrels'}", "--judge",
            f"bob={JUDGES / 'bob.qrels'}", "--per-judge", "--measure", "all_trec",
            "--per-topic", "--format", "trec_eval", *RUNS]
    assert cli.main(args) == 0
    out, err = capsys.readouterr()
    assert len(out) > 1 << 17                      # more than a pipe holds at once
    done = _entry(args)
    assert done.returncode == 0, done.stderr
    assert done.stdout == out
    assert done.stderr == err


def test_a_refusal_keeps_exit_2_and_its_line():
    done = _entry(["score", "--judge", f"alice={JUDGES / 'alice.qrels'}", "--measure", "nDCG@1O",
                   *RUNS])
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "evalkit: --measure nDCG@1O is invalid: expected a cutoff @k with k >= 1\n"


def test_a_file_written_with_out_is_whole(tmp_path):
    args = ["compare", "--judge", f"alice={JUDGES / 'alice.qrels'}", "--measure", "AP",
            "--trials", "200", "--seed", "3", *RUNS]
    here, there = tmp_path / "here", tmp_path / "there"
    assert cli.main([*args, "--out", str(here)]) == 0
    done = _entry([*args, "--out", str(there)])
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in here.iterdir())
    assert written and sorted(p.name for p in there.iterdir()) == written
    for name in written:
        assert (there / name).read_bytes() == (here / name).read_bytes(), name
