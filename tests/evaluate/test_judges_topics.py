"""Several judges never give a silently wrong number (issue 43, item 1).

A judge whose topics are spelled differently from the other judges' or the
runs' is refused in one line naming it and a topic of each side (exit 2,
nothing on stdout); ``--gain-map`` maps every judge's grades before pooling
(the values checked against pytrec_eval on the mapped grades) or is refused
where it cannot apply; judges with different topic sets are named with the
number of topics their means cover, and ``--common-topics`` scores each on
the topics all of them judged.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from evalkit.evaluate import assessors, compare, score
from evalkit.errors import InputError
from evalkit.paths import EXAMPLES
from evalkit.workspace import cli

pytrec_eval = pytest.importorskip("pytrec_eval")

FOLDER = EXAMPLES / "judges"
RUNS = sorted(str(p) for p in (FOLDER / "runs").glob("*.txt"))
ALICE, BOB, CAROL = (str(FOLDER / f"{j}.qrels") for j in ("alice", "bob", "carol"))


def run(capsys, *args):
    code = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err.strip().splitlines()


def refused(capsys, *args):
    """Exit 2, nothing on stdout, one line on stderr: that line."""
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and len(err) == 1, (code, out, err)
    return err[0]


def rewrite(tmp_path, source, name, topic=lambda t: t, keep=lambda t: True, grade=lambda g: g):
    """A judge's qrels with its topics renamed or some left out, or its grades changed."""
    q = pd.read_csv(source, sep=" ", header=None, names=["topic", "it", "doc", "grade"],
                    dtype={"topic": str})
    q = q[q["topic"].map(keep)].assign(topic=lambda f: f["topic"].map(topic),
                                       grade=lambda f: f["grade"].map(grade))
    path = tmp_path / name
    q.to_csv(path, sep=" ", header=False, index=False)
    return str(path)


def trec_mean(qrels_path: str, run_path: str, measure: str = "ndcg_cut_10") -> float:
    """pytrec_eval's mean over the qrels topics (a topic the run lacks counts 0, as -c)."""
    q = pd.read_csv(qrels_path, sep=" ", header=None, names=["t", "i", "d", "g"], dtype={"t": str})
    r = pd.read_csv(run_path, sep=" ", header=None, names=["t", "q", "d", "r", "s", "tag"],
                    dtype={"t": str})
    qrels = {t: dict(zip(f["d"], f["g"].astype(int))) for t, f in q.groupby("t")}
    runs = {t: dict(zip(f["d"], f["s"].astype(float))) for t, f in r.groupby("t")}
    values = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(runs)
    return sum(values.get(t, {}).get(measure, 0.0) for t in qrels) / len(qrels)


def test_two_judges_spelling_topics_differently_are_refused_naming_both(tmp_path, capsys):
    bob = rewrite(tmp_path, BOB, "bob.qrels", topic=lambda t: f"2024-{t}")
    for command in (["score", "--per-judge"], ["compare"]):
        line = refused(capsys, *command, "--judge", f"alice={ALICE}", "--judge", f"bob={bob}",
                       "--measure", "nDCG@10", *RUNS)
        assert "judges alice and bob share no topic" in line
        assert "alice's topic 401 against bob's topic 2024-401" in line, line


def test_the_odd_judge_out_is_named_among_three(tmp_path, capsys):
    carol = rewrite(tmp_path, CAROL, "carol.qrels", topic=lambda t: f"q{t}")
    line = refused(capsys, "score", "--judge", f"alice={ALICE}", "--judge", f"bob={BOB}",
                   "--judge", f"carol={carol}", "--measure", "nDCG@10", *RUNS)
    assert "judge carol shares no topic with the other judges" in line
    assert "its topic q401 against the others' topic 401" in line
    with pytest.raises(InputError, match="judge carol shares no topic"):
        assessors(RUNS, {"alice": ALICE, "bob": BOB, "carol": carol}, measures=["nDCG@10"])


def test_a_judge_sharing_topics_with_judges_but_none_with_the_runs_is_refused(tmp_path, capsys):
    # bob: topics 401-415 renamed q401-q415, 416-430 kept, judged only on the renamed ones...
    bob = rewrite(tmp_path, BOB, "bob.qrels", topic=lambda t: f"q{t}", keep=lambda t: int(t) < 416)
    alice = rewrite(tmp_path, ALICE, "alice.qrels", topic=lambda t: f"q{t}" if int(t) < 405 else t)
    # ... alice shares q401-q404 with bob and 405-430 with the runs; bob shares nothing with them
    code, out, err = run(capsys, "score", "--judge", f"alice={alice}", "--judge", f"bob={bob}",
                         "--grades", "0:2", "--measure", "nDCG@10", *RUNS)
    assert code == 2 and out == "", err
    assert "judge bob shares no topic with the runs: its topic q401 against the runs' topic 401" \
        in err[-1]


def test_gain_map_maps_every_judges_grades_before_pooling(tmp_path, capsys):
    gains = {0: 0, 1: 1, 2: 3}
    code, out, err = run(capsys, "score", "--judge", f"alice={ALICE}", "--judge", f"bob={BOB}",
                         "--per-judge", "--gain-map", "1:1,2:3", "--measure", "nDCG@10",
                         "--format", "csv", RUNS[0])
    assert code == 0, err
    got = pd.read_csv(io.StringIO(out)).set_index("judge")["value"]
    alice = rewrite(tmp_path, ALICE, "a.qrels", grade=gains.get)
    bob = rewrite(tmp_path, BOB, "b.qrels", grade=gains.get)
    assert got["alice"] == pytest.approx(trec_mean(alice, RUNS[0]), abs=1e-12)
    assert got["bob"] == pytest.approx(trec_mean(bob, RUNS[0]), abs=1e-12)
    # all:raw: the sum of the mapped gains per item
    both = pd.concat([pd.read_csv(p, sep=" ", header=None, names=["t", "i", "d", "g"],
                                  dtype={"t": str}) for p in (alice, bob)])
    pooled = both.groupby(["t", "d"], as_index=False)["g"].sum().assign(i=0)[["t", "i", "d", "g"]]
    pooled_path = tmp_path / "pooled.qrels"
    pooled.to_csv(pooled_path, sep=" ", header=False, index=False)
    assert got["all:raw"] == pytest.approx(trec_mean(str(pooled_path), RUNS[0]), abs=1e-12)
    assert any("through the --gain-map 1:1,2:3" in line for line in err)
    # without the map the values differ: the map is not ignored
    code, plain, _ = run(capsys, "score", "--judge", f"alice={ALICE}", "--judge", f"bob={BOB}",
                         "--per-judge", "--measure", "nDCG@10", "--format", "csv", RUNS[0])
    assert not np.allclose(pd.read_csv(io.StringIO(plain))["value"], got.to_numpy())


def test_gain_map_with_ug_is_refused_and_a_grade_the_map_lacks_is_named(capsys):
    line = refused(capsys, "score", "--judge", f"alice={ALICE}", "--judge", f"bob={BOB}",
                   "--grades", "0:2", "--gain", "ug", "--gain-map", "1:1,2:3", "--measure",
                   "nDCG@10", *RUNS)
    assert "--gain ug is defined on the grades themselves" in line
    line = refused(capsys, "score", "--judge", f"alice={ALICE}", "--judge", f"bob={BOB}",
                   "--grades", "0:2", "--gain-map", "1:1", "--measure", "nDCG@10", *RUNS)
    assert "grade(s) [2] have no gain in the gain map" in line


def test_judges_with_different_topics_are_named_and_common_topics_scores_the_shared_ones(
        tmp_path, capsys):
    bob = rewrite(tmp_path, BOB, "bob.qrels", keep=lambda t: int(t) <= 410)
    judges = ["--judge", f"alice={ALICE}", "--judge", f"bob={bob}", "--grades", "0:2"]
    code, out, err = run(capsys, "score", *judges, "--per-judge", "--measure", "nDCG@10",
                         "--format", "csv", RUNS[0])
    assert code == 0
    said = [line for line in err if "judged different topics" in line]
    assert len(said) == 1 and "alice 30, bob 10 topics" in said[0] and "the 10 topics" in said[0]
    code, out, err = run(capsys, "score", *judges, "--per-judge", "--common-topics",
                         "--measure", "nDCG@10", "--format", "csv", RUNS[0])
    assert code == 0 and not any("judged different topics" in line for line in err)
    got = pd.read_csv(io.StringIO(out)).set_index("judge")["value"]
    alice10 = rewrite(tmp_path, ALICE, "alice10.qrels", keep=lambda t: int(t) <= 410)
    assert got["alice"] == pytest.approx(trec_mean(alice10, RUNS[0]), abs=1e-12)
    assert got["bob"] == pytest.approx(trec_mean(bob, RUNS[0]), abs=1e-12)
    frame = score(RUNS[0], judges={"alice": ALICE, "bob": bob}, measures=["nDCG@10"],
                  per_judge=True, common_topics=True)
    assert frame.set_index("judge")["value"].to_dict() == pytest.approx(got.to_dict(), abs=0)


def test_compare_takes_judges_in_python(tmp_path):
    out = compare(RUNS[:3], judges={"alice": ALICE, "bob": BOB}, measures=["nDCG@10"],
                  trials=200, seed=1)
    assert len(out) == 3 and set(out["gain"]) == {"raw"}
    bob = rewrite(tmp_path, BOB, "bob.qrels", topic=lambda t: f"2024-{t}")
    with pytest.raises(InputError, match="share no topic"):
        compare(RUNS[:3], judges={"alice": ALICE, "bob": bob}, measures=["nDCG@10"], trials=10)


def test_python_takes_grades_clip_and_one_measure_name_and_shows_the_notes(tmp_path):
    from evalkit.errors import EvalkitNote

    loud = rewrite(tmp_path, BOB, "bob.qrels", grade=lambda g: 3 if g == 2 else g)  # 0..3
    with pytest.warns(EvalkitNote) as caught:
        frame = score(RUNS[:2], judges={"alice": ALICE, "bob": loud}, grades=(0, 2), clip=True,
                      measures="nDCG@10", per_judge=True)
    said = [str(w.message) for w in caught]
    assert any("clamped" in s or "--clip" in s for s in said), said
    assert all(s.startswith("score: ") for s in said)
    assert all(w.filename == __file__ for w in caught)         # pointing at this line
    # clamped 3 -> 2 is bob's own file: the same values
    plain = score(RUNS[:2], judges={"alice": ALICE, "bob": BOB}, measures=["nDCG@10"],
                  per_judge=True)
    pd.testing.assert_frame_equal(frame.reset_index(drop=True), plain.reset_index(drop=True))
    with pytest.raises(InputError, match="grade 3 of judge bob is outside --grades 0:2"):
        score(RUNS[:2], judges={"alice": ALICE, "bob": loud}, grades=(0, 2), measures="AP")
    with pytest.raises(InputError, match="measures must be names"):
        score(RUNS[:2], judges={"alice": ALICE}, measures=10)


@pytest.mark.parametrize("option, said", [
    ("-q", "unknown option -q (trec_eval's -q is --per-topic here)"),
    ("--cutoff", "unknown option --cutoff"),
    ("-M", "unknown option -M (trec_eval's -M is --depth here)"),
])
def test_an_unknown_option_is_named_and_nothing_else(capsys, option, said):
    line = refused(capsys, "score", "--qrels", ALICE, option, "10", "--measure", "AP", RUNS[0])
    assert line == f"evalkit score: {said}"


def test_assessors_of_one_ratings_file_may_each_judge_other_topics():
    """TREC's one assessor per topic: the assessors of one ratings file share no topic, and the
    pooled gain is still right (each topic's one assessor); only judges given one by one must
    share topics with each other."""
    q = {j: pd.read_csv(p, sep=" ", header=None, names=["topic", "it", "doc", "rating"],
                        dtype={"topic": str}) for j, p in (("alice", ALICE), ("bob", BOB))}
    ratings = pd.concat([q["alice"][q["alice"]["topic"] <= "415"].assign(assessor="alice"),
                         q["bob"][q["bob"]["topic"] > "415"].assign(assessor="bob")])
    frame = score(RUNS[0], ratings[["topic", "assessor", "doc", "rating"]],
                  measures=["nDCG@10"], per_judge=True)
    one_each = ratings.rename(columns={"rating": "grade"})
    merged = one_each.assign(it=0)[["topic", "it", "doc", "grade"]]
    expect = score(RUNS[0], qrels=merged, measures=["nDCG@10"])["value"].item()
    assert frame.set_index("judge").loc["all:raw", "value"] == pytest.approx(expect, abs=1e-12)
    assert any("alice 15, bob 15 topics" in n for n in frame.attrs["notes"])
    with pytest.raises(InputError, match="judges alice and bob share no topic"):
        score(RUNS[0], judges={"alice": q["alice"][q["alice"]["topic"] <= "415"]
                               .rename(columns={"rating": "grade"}),
                               "bob": q["bob"][q["bob"]["topic"] > "415"]
                               .rename(columns={"rating": "grade"})}, measures=["nDCG@10"])
