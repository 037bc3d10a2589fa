"""``evalkit agreement`` on the LLMJudge 2024 labels (34 judges x 4,423 items): the lines
docs/agreement.md quotes.  Needs the data mirror ($EVALKIT_DATA_MIRROR with llmjudge-2024/)."""

import subprocess
import sys
from pathlib import Path

import numpy as np

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


def mirror_root(judges) -> Path:
    """The folder holding ``llmjudge-2024/`` (what ``load_labels`` takes), from the judge options."""
    return Path(judges[1].split("=", 1)[1]).parents[1]


def _agreement(*args):
    return subprocess.run([sys.executable, "-m", "evalkit.workspace.cli", "agreement", *map(str, args)],
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def clipped(judges, tmp_path_factory):
    """The docs' command, run once for the module's tests: ``(process, out folder)``."""
    out = tmp_path_factory.mktemp("llmjudge") / "out"
    done = _agreement(*judges, "--reference", "human", "--grades", "0:3", "--clip", "--out", out)
    assert done.returncode == 0, done.stderr
    return done, out


def test_the_quoted_lines_are_what_the_command_prints(judges, clipped, tmp_path):
    doc = (ROOT / "docs" / "agreement.md").read_text()
    done, _ = clipped
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


def test_the_pairs_and_the_consensus_docs_quote(judges, clipped, tmp_path):
    """The pairs, consensus alphas and grade counts docs/agreement.md states; the consensus of
    the LLM judges is the same bytes when every human label changes (the reference is out)."""
    import pandas as pd

    doc = " ".join((ROOT / "docs" / "agreement.md").read_text().split())
    _, out = clipped
    # per_topic.csv is the chapter's per-topic alpha (evalkit.papers.llmjudge2024.systems)
    from evalkit.papers import llmjudge2024 as paper

    labels, _, _ = paper.load_labels(mirror_root(judges))
    chapter = paper.per_topic_agreement(paper.label_matrix(labels)).set_index(["run", "topic"])
    mine = pd.read_csv(out / "per_topic.csv", dtype={"topic": str})
    mine = mine[mine["measure"] == "alpha_ordinal"].set_index(["run", "topic"])["value"]
    assert len(mine) == len(chapter) == 33 * 25
    assert np.allclose(mine.reindex(chapter.index), chapter["value"], rtol=0, atol=1e-12)
    pairs = pd.read_csv(out / "pairs.csv").set_index(["judge_a", "judge_b"])
    for b in ("h2oloo-fewself", "willia-umbrela1"):
        r = pairs.loc[("Olz-gpt4o", b)]
        text = f"Olz-gpt4o − {b} = +{r.difference:.3f}"
        assert text in doc, text
        assert (f"[{r.ci_low:.3f}, {r.ci_high:.3f}], p = {r.p_value:.3f}".replace("-", "−") in doc)
    methods = ["majority", "median", "mean", "dawid-skene"]
    chosen = [a for m in methods for a in ("--consensus", m)]
    base = ["--reference", "human", "--grades", "0:3", "--clip", "--no-pairs", "--bootstrap", "0",
            *chosen]
    made = _agreement(*judges, *base, "--out", tmp_path / "c")
    assert made.returncode == 0, made.stderr
    human = judges[1].split("=", 1)[1]
    flipped = tmp_path / "flipped.txt"
    lines = [f.split() for f in open(human)]
    flipped.write_text("".join(f"{t} {i} {d} {3 - int(g)}\n" for t, i, d, g in lines))
    other = ["--judge", f"human={flipped}", *judges[2:]]
    again = _agreement(*other, *base, "--out", tmp_path / "c2")
    assert again.returncode == 0, again.stderr
    for m in methods:
        assert (tmp_path / "c" / f"consensus_{m}.txt").read_bytes() == \
            (tmp_path / "c2" / f"consensus_{m}.txt").read_bytes(), m
    back = [a for m in methods for a in ("--judge", f"{m}={tmp_path / 'c' / f'consensus_{m}.txt'}")]
    vs = _agreement("--judge", f"human={human}", *back, "--reference", "human", "--grades", "0:3",
                    "--out", tmp_path / "vs")
    assert vs.returncode == 0, vs.stderr
    for line in vs.stdout.splitlines():
        assert line in (ROOT / "docs" / "agreement.md").read_text(), line
    table = pd.read_csv(tmp_path / "vs" / "agreement.csv")
    alpha = table[table["statistic"] == "alpha_ordinal"].set_index("judge")["value"]
    assert (f"majority {alpha['majority']:.3f}, median {alpha['median']:.3f}, mean "
            f"{alpha['mean']:.3f}, Dawid–Skene {alpha['dawid-skene']:.3f}") in doc
    threes = {m: int((pd.read_csv(tmp_path / "c" / f"consensus_{m}.txt", sep=" ", header=None)[3]
                      == 3).sum()) for m in methods}
    humans = sum(1 for f in lines if f[3] == "3")
    assert (f"puts {threes['dawid-skene']} items at grade 3 where the humans put {humans} "
            f"(median {threes['median']}, majority {threes['majority']})") in doc
