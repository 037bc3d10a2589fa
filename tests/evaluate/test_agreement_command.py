"""evalkit agreement as a user types it (subprocesses): consensus files given back as judges,
per_topic.csv into evalkit compare, vanished judges refused, low overlap flagged, paper tables."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evalkit.evaluate.judges.example import JUDGES
from evalkit.paths import EXAMPLES

sys.path.insert(0, str(Path(__file__).parent))
from numba_blocker import BLOCK  # noqa: E402

FOLDER = EXAMPLES / "judges"
QUICK = ["--bootstrap", "50", "--trials", "200", "--seed", "1"]


def evalkit(*args):
    return subprocess.run([sys.executable, "-m", "evalkit.workspace.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


def _judges(**files):
    files = {j: FOLDER / f"{j}.qrels" for j in JUDGES} | files
    return [a for j, path in files.items() for a in ("--judge", f"{j}={path}")]


def _renamed(tmp_path, name, topics):
    """bob's labels with the topics in ``topics`` spelled ``q<topic>``, as judge ``name``."""
    qrels = pd.read_csv(FOLDER / "bob.qrels", sep=" ", header=None, dtype=str)
    qrels[0] = [f"q{t}" if t in topics else t for t in qrels[0]]
    path = tmp_path / f"{name}.qrels"
    qrels.to_csv(path, sep=" ", header=False, index=False)
    return path


@pytest.mark.parametrize("reference", ["alice", None])
def test_a_judge_sharing_no_item_is_refused_in_one_line(tmp_path, reference):
    all_topics = {f"{t:03d}" for t in range(401, 431)}
    zoe = _renamed(tmp_path, "zoe", all_topics)
    args = ["--reference", reference] if reference else []
    done = evalkit("agreement", *_judges(zoe=zoe), *args, *QUICK, "--out", tmp_path / "out")
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    whom = reference or "any other judge"
    theirs = f"{reference}'s" if reference else "the others'"
    assert lines[0] == (f"evalkit: judge zoe shares no (topic, doc) item with {whom}: its topic "
                        f"q401, document d401-01 against {theirs} topic 401, document d401-01 "
                        f"(spell topics and documents {'as alice does' if reference else 'as the other judges do'}, "
                        "or leave zoe out)")
    assert not (tmp_path / "out").exists()


def test_a_judge_sharing_too_few_items_is_flagged(tmp_path):
    part = _renamed(tmp_path, "part", {f"{t:03d}" for t in range(401, 421)})   # 10 of 30 shared
    done = evalkit("agreement", *_judges(part=part), "--reference", "alice", *QUICK,
                   "--out", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert ("evalkit agreement: judge part shares 120 of its 360 items (33%) with alice, below "
            "--min-overlap 50%") in done.stderr
    table = pd.read_csv(tmp_path / "out" / "agreement.csv")
    flags = table.drop_duplicates("judge").set_index("judge")
    assert flags.loc["part", "low_overlap"] and not flags.drop("part")["low_overlap"].any()
    assert flags.loc["part", "overlap"] == pytest.approx(1 / 3) and flags.loc["part", "items"] == 120
    quiet = evalkit("agreement", *_judges(part=part), "--reference", "alice", *QUICK,
                    "--min-overlap", "30%", "--out", tmp_path / "quiet")
    assert "below --min-overlap" not in quiet.stderr


def test_per_topic_scores_go_into_compare(tmp_path):
    done = evalkit("agreement", *_judges(), "--reference", "alice", *QUICK, "--out", tmp_path / "a")
    assert done.returncode == 0, done.stderr
    scores = pd.read_csv(tmp_path / "a" / "per_topic.csv", dtype={"topic": str})
    assert set(scores["run"]) == {"bob", "carol", "mallory"}
    compared = evalkit("compare", "--scores", tmp_path / "a" / "per_topic.csv", "--measure",
                       "alpha_ordinal", "--test", "t", "--format", "csv")
    assert compared.returncode == 0, compared.stderr
    pairs = pd.read_csv(__import__("io").StringIO(compared.stdout))
    assert len(pairs) == 3 and set(pairs["system_a"]) | set(pairs["system_b"]) == {"bob", "carol",
                                                                                    "mallory"}
    ordinal = scores[scores["measure"] == "alpha_ordinal"].pivot(index="topic", columns="run",
                                                                 values="value")
    row = pairs.set_index(["system_a", "system_b"]).loc[("bob", "carol")]
    assert row["diff"] == pytest.approx((ordinal["bob"] - ordinal["carol"]).mean(), abs=1e-12)


def test_consensus_leaves_the_reference_out_and_can_be_given_back_as_a_judge(tmp_path):
    krippendorff = pytest.importorskip("krippendorff")
    args = [*_judges(), "--reference", "alice", *QUICK, "--consensus", "majority", "--consensus",
            "median"]
    done = evalkit("agreement", *args, "--out", tmp_path / "a")
    assert done.returncode == 0, done.stderr
    assert ("consensus (majority, median) of 3 judges; alice, the reference, left out "
            "(--consensus-with-reference to include it): bob, carol, mallory") in done.stderr
    names = sorted(p.name for p in (tmp_path / "a").glob("consensus_*"))
    assert names == ["consensus_majority.txt", "consensus_median.txt"]
    # the reference's labels changed: the same bytes
    alice = pd.read_csv(FOLDER / "alice.qrels", sep=" ", header=None, dtype=str)
    alice[3] = (2 - alice[3].astype(int)).astype(str)
    changed = tmp_path / "alice.qrels"
    alice.to_csv(changed, sep=" ", header=False, index=False)
    again = evalkit("agreement", *_judges(alice=changed), "--reference", "alice", *QUICK,
                    "--consensus", "majority", "--consensus", "median", "--out", tmp_path / "b")
    assert again.returncode == 0, again.stderr
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    with_ref = evalkit("agreement", *args, "--consensus-with-reference", "--out", tmp_path / "c")
    assert (tmp_path / "c" / names[0]).read_bytes() != (tmp_path / "a" / names[0]).read_bytes()
    # given back as a judge, measured against alice like any other
    back = evalkit("agreement", "--judge", f"alice={FOLDER / 'alice.qrels'}", "--judge",
                   f"majority={tmp_path / 'a' / names[0]}", "--reference", "alice", "--grades",
                   "0:2", "--bootstrap", "0", "--out", tmp_path / "back")
    assert back.returncode == 0, back.stderr
    table = pd.read_csv(tmp_path / "back" / "agreement.csv").set_index("statistic")
    majority = pd.read_csv(tmp_path / "a" / names[0], sep=" ", header=None, dtype=str)
    both = majority.merge(pd.read_csv(FOLDER / "alice.qrels", sep=" ", header=None, dtype=str),
                          on=[0, 2])
    want = krippendorff.alpha(reliability_data=np.vstack([both["3_y"], both["3_x"]]).astype(float),
                              level_of_measurement="ordinal", value_domain=[0, 1, 2])
    assert table.loc["alpha_ordinal", "value"] == pytest.approx(want, abs=1e-12)
    assert with_ref.returncode == 0


def test_paper_tables_and_the_statistic_alias(tmp_path):
    base = [*_judges(), "--reference", "alice", *QUICK]
    md = evalkit("agreement", *base, "--order-by", "kappa_linear", "--format", "markdown",
                 "--out", tmp_path / "md")
    alias = evalkit("agreement", *base, "--statistic", "kappa_linear", "--out", tmp_path / "alias")
    assert md.returncode == 0 and alias.returncode == 0, md.stderr + alias.stderr
    assert md.stdout == alias.stdout and "kappa_linear" in md.stdout
    assert (tmp_path / "md" / "pairs.csv").read_bytes() == (tmp_path / "alias" / "pairs.csv").read_bytes()
    table = (tmp_path / "md" / "agreement.md").read_text().splitlines()
    assert table[0] == ("| Judge | Items | kappa_linear | 95% CI | alpha_ordinal | alpha_interval | "
                        "alpha_nominal | cohen_kappa | kappa_quadratic |")
    assert table[2].startswith("| carol | 360 | ") or table[2].startswith("| bob | 360 | ")
    assert table[-1].startswith("Against alice; 95% percentile intervals over B = 50")
    pairs = (tmp_path / "md" / "pairs.md").read_text()
    assert "| A | B | Diff | CI | p | p (Holm) |" in pairs
    marked = [line for line in pairs.splitlines() if line.endswith(" † |")]
    assert len(marked) == 2 and all("mallory" in line for line in marked)   # the random judge
    assert "† significant at alpha = 0.05 (paired randomisation test over topics, B = 200" in pairs
    tex = evalkit("agreement", *base, "--format", "latex", "--out", tmp_path / "tex")
    assert tex.returncode == 0, tex.stderr
    latex = (tmp_path / "tex" / "pairs.tex").read_text()
    assert latex.startswith("\\begin{tabular}{llrcrr}") and "mallory" in latex
    assert "alpha\\_ordinal" in (tmp_path / "tex" / "agreement.tex").read_text()


_NO_NUMBA = BLOCK + '''
from evalkit.workspace.cli import main
status = main(sys.argv[1:])
print("numba loaded:", "numba" in sys.modules, file=sys.stderr)
sys.exit(status)
'''


def test_without_numba_the_same_bytes(tmp_path):
    args = ["agreement", *_judges(), "--reference", "alice", *QUICK, "--consensus", "mean"]
    fast = evalkit(*args, "--out", tmp_path / "fast")
    slow = subprocess.run([sys.executable, "-c", _NO_NUMBA, *map(str, args), "--out",
                           tmp_path / "slow"], capture_output=True, text=True, timeout=300)
    assert fast.returncode == 0 and slow.returncode == 0, slow.stderr
    assert "numba loaded: False" in slow.stderr and slow.stdout == fast.stdout
    names = sorted(p.name for p in (tmp_path / "fast").iterdir())
    assert "pairs.csv" in names and names == sorted(p.name for p in (tmp_path / "slow").iterdir())
    for name in names:
        assert (tmp_path / "fast" / name).read_bytes() == (tmp_path / "slow" / name).read_bytes(), name
