"""``evalkit agreement`` on the LLMJudge 2024 labels (34 judges x 4,423 items): the lines
docs/agreement.md quotes.  Needs the data mirror ($EVALKIT_DATA_MIRROR with llmjudge-2024/)."""

import subprocess
import sys

import pytest

from evalkit.paths import ROOT


@pytest.fixture(scope="module")
def judges(mirror):
    folder = mirror / "llmjudge-2024"
    if not (folder / "llmjudge_test_qrel_idx.txt").is_file():
        pytest.skip("the LLMJudge 2024 files are not in the data mirror")
    args = ["--judge", f"human={folder / 'llmjudge_test_qrel_idx.txt'}"]
    for path in sorted((folder / "submissions").glob("*.txt")):
        args += ["--judge", f"{path.stem}={path}"]
    assert len(args) == 2 * 34
    return args


def _agreement(*args):
    return subprocess.run([sys.executable, "-m", "evalkit.workspace.cli", "agreement", *map(str, args)],
                          capture_output=True, text=True, timeout=600)


def test_the_quoted_lines_are_what_the_command_prints(judges, tmp_path):
    doc = (ROOT / "docs" / "agreement.md").read_text()
    done = _agreement(*judges, "--reference", "human", "--grades", "0:3", "--clip", "--out",
                      tmp_path / "out")
    assert done.returncode == 0, done.stderr
    clipped = [line for line in done.stderr.splitlines() if "--clip" in line]
    assert len(clipped) == 2
    for line in done.stdout.splitlines() + clipped:
        assert line in doc, line
    refused = _agreement(*judges, "--reference", "human", "--grades", "0:3", "--out", tmp_path / "no")
    assert refused.returncode == 2 and not (tmp_path / "no").exists()
    assert ("RMITIR-llama70B.txt, line 2449: grade 5 of judge RMITIR-llama70B is outside "
            "--grades 0:3") in refused.stderr
    inferred = _agreement(*judges, "--reference", "human", "--bootstrap", "0", "--out", tmp_path / "i")
    assert "grades 0..10 inferred" in inferred.stderr
    assert "h2oloo-zeroshot2.txt line 3187" in inferred.stderr
