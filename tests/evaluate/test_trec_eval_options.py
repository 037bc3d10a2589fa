"""trec_eval's options in ``evalkit score``: -J, -M, -l, -R qrels_jg, a run on stdin, its layout.

Oracles: pytrec_eval (trec_eval's own C code) with ``judged_docs_only_flag``
(-J), fed runs cut at N documents in trec_eval's order (-M) and with
``relevance_level`` (-l); judgment groups and the printed layout by hand
(trec_eval 10's ``form_res_rels_jg.c``, ``m_*_avgjg.c`` and ``printf("%-22s\\t%s\\t%6.4f\\n")``).
"""

import io
import sys

import numpy as np
import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.evaluate import score
from evalkit.evaluate.scoring.trec_eval_format import trec_eval_text
from evalkit.workspace import cli

pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec_eval is the oracle: "
                                  "pip install pytrec-eval-terrier (the workspace extra has it)")

#: evalkit's name -> trec_eval's (pytrec_eval's key).
NAMES = {"nDCG": "ndcg", "nDCG@10": "ndcg_cut_10", "AP": "map", "AP@5": "map_cut_5",
         "P@5": "P_5", "P@10": "P_10", "R@10": "recall_10", "RR": "recip_rank",
         "Rprec": "Rprec", "Bpref": "bpref", "Success@1": "success_1"}
PYTREC = {"ndcg", "ndcg_cut.10", "map", "map_cut.5", "P.5,10", "recall.10", "recip_rank",
          "Rprec", "bpref", "success.1"}


def _world(seed: int):
    """Qrels with grades -2..3 and a run with tied scores and many unjudged documents."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for t in range(8):
        pool = [f"d{t}-{j:02d}" for j in range(40)]
        judged = rng.choice(40, size=int(rng.integers(3, 25)), replace=False)
        grades = rng.choice([-2, -1, 0, 0, 1, 1, 2, 3], size=len(judged))
        qrels += [(f"q{t}", pool[j], int(g)) for j, g in zip(judged, grades)]
        n = 1 if t == 2 else int(rng.integers(5, 40))
        docs = rng.choice(40, size=n, replace=False)
        scores = np.round(rng.normal(size=n), 1)                 # one decimal: ties
        run += [(f"q{t}", pool[d], k + 1, float(s)) for k, (d, s) in enumerate(zip(docs, scores))]
    q = pd.DataFrame(qrels, columns=["topic", "doc", "grade"])
    r = pd.DataFrame(run, columns=["topic", "doc", "rank", "score"]).assign(run="r")
    return q, r


def _pytrec(q, r, **options) -> dict:
    qrels = {}
    for t, d, g in q.itertuples(index=False):
        qrels.setdefault(t, {})[d] = int(g)
    run = {}
    for t, d, s in r[["topic", "doc", "score"]].itertuples(index=False):
        run.setdefault(t, {})[d] = float(s)
    return pytrec_eval.RelevanceEvaluator(qrels, PYTREC, **options).evaluate(run)


def _trec_order_cut(r: pd.DataFrame, n: int) -> pd.DataFrame:
    """Each topic's first ``n`` documents as trec_eval orders them: score descending, ties by
    document id descending (byte order)."""
    ordered = r.assign(key=r["doc"].map(lambda d: d.encode())).sort_values(
        ["topic", "score", "key"], ascending=[True, False, False])
    return ordered.groupby("topic").head(n).drop(columns="key")


def _worst(ours: pd.DataFrame, theirs: dict, names=NAMES) -> float:
    got = ours.set_index(["measure", "topic"])["value"]
    return max(abs(got[name, topic] - values[key])
               for topic, values in theirs.items() for name, key in names.items())


@pytest.mark.parametrize("seed", range(3))
def test_judged_only_equals_pytrec_eval_judged_docs_only(seed):
    q, r = _world(seed)
    ours = score(r, qrels=q, measures=list(NAMES), per_topic=True, judged_only=True)
    assert _worst(ours, _pytrec(q, r, judged_docs_only_flag=True)) <= 1e-12
    # and it is not the full lists' value (the option does something on this data)
    full = score(r, qrels=q, measures=["P@5"], per_topic=True)
    assert not np.allclose(full["value"], ours[ours["measure"] == "P@5"]["value"])


@pytest.mark.parametrize("depth", [1, 3, 7])
def test_depth_equals_pytrec_eval_on_the_cut_run(depth):
    q, r = _world(depth)
    ours = score(r, qrels=q, measures=list(NAMES), per_topic=True, depth=depth)
    assert _worst(ours, _pytrec(q, _trec_order_cut(r, depth))) <= 1e-12


def test_depth_is_cut_before_judged_only():
    """trec_eval keeps the first N documents, then drops the unjudged ones (-M 6 -J)."""
    q, r = _world(4)
    ours = score(r, qrels=q, measures=list(NAMES), per_topic=True, depth=6, judged_only=True)
    theirs = _pytrec(q, _trec_order_cut(r, 6), judged_docs_only_flag=True)
    assert _worst(ours, theirs) <= 1e-12


def test_rel_level_equals_pytrec_eval_relevance_level_and_an_explicit_rel_wins():
    q, r = _world(5)
    ours = score(r, qrels=q, measures=[*NAMES, "AP(rel=3)"], per_topic=True, rel_level=2)
    assert _worst(ours, _pytrec(q, r, relevance_level=2)) <= 1e-12
    assert _worst(ours, _pytrec(q, r, relevance_level=3), {"AP(rel=3)": "map"}) <= 1e-12
    names = ours.attrs["trec_eval_names"]
    assert names["AP"] == "map" and names["AP(rel=3)"] is None     # trec_eval -l 2 has no rel=3


def test_the_trec_eval_layout_byte_for_byte():
    """By hand.  Topic 9: grades a 3, b 0, c 2, d 1; the run returns a, b, c (scores 3, 2, 1).
    R = 3: AP = (1/1 + 2/3) / 3 = 0.5556, P@2 = 1/2, nDCG@3 = (3 + 2/log2 4) /
    (3 + 2/log2 3 + 1/log2 4) = 4 / 4.7619 = 0.8400.  Topic 10: x 1, the run returns y, x:
    AP = (1/2) / 1 = 0.5, P@2 = 0.5, nDCG@3 = (1/log2 3) / 1 = 0.6309.  trec_eval prints topic
    10 before 9 (byte order), measures in its own order (map, P, ndcg_cut), then runid, num_q
    and the means: AP 0.52778, P@2 0.5, nDCG@3 (0.84001 + 0.63093) / 2 = 0.73547."""
    q = pd.DataFrame({"topic": ["9"] * 4 + ["10"], "doc": ["a", "b", "c", "d", "x"],
                      "grade": [3, 0, 2, 1, 1]})
    r = pd.DataFrame({"run": "sys1", "topic": ["9"] * 3 + ["10"] * 2,
                      "doc": ["a", "b", "c", "y", "x"], "rank": [1, 2, 3, 1, 2],
                      "score": [3.0, 2.0, 1.0, 2.0, 1.0]})
    out = score(r, qrels=q, measures=["nDCG@3", "P@2", "AP"], per_topic=True)
    assert trec_eval_text(out) == (
        "map                   \t10\t0.5000\n"
        "P_2                   \t10\t0.5000\n"
        "ndcg_cut_3            \t10\t0.6309\n"
        "map                   \t9\t0.5556\n"
        "P_2                   \t9\t0.5000\n"
        "ndcg_cut_3            \t9\t0.8400\n"
        "runid                 \tall\tsys1\n"
        "num_q                 \tall\t2\n"
        "map                   \tall\t0.5278\n"
        "P_2                   \tall\t0.5000\n"
        "ndcg_cut_3            \tall\t0.7355\n")
    theirs = _pytrec(q, r)
    assert theirs["9"]["map"] == pytest.approx(5 / 9, abs=1e-15)
    assert theirs["10"]["map"] == 0.5 and theirs["10"]["ndcg"] == pytest.approx(1 / np.log2(3))


def _groups() -> pd.DataFrame:
    """Topic t: alice judges a relevant, b not; bob judges c and d relevant; carol judges a
    non-relevant (a group without a relevant document).  Topic u: alice, x relevant."""
    rows = [("t", "alice", "a", 1), ("t", "alice", "b", 0), ("t", "bob", "c", 2),
            ("t", "bob", "d", 1), ("t", "carol", "a", 0), ("u", "alice", "x", 1)]
    return pd.DataFrame(rows, columns=["topic", "group", "doc", "grade"])


@pytest.mark.parametrize("missing", ["zero", "skip"])
def test_judgment_groups_average_over_each_topics_groups_by_hand(missing):
    """The run returns a, b, c for t and nothing for u.  AP: alice 1, bob (1/3)/2 = 1/6,
    carol 0 -> map_avgjg(t) = 7/18.  P@2: alice 1/2, bob 0, carol 0 -> 1/6.  Rprec_mult at
    1.0: c = floor(R + 0.9): alice P@1 = 1, bob P@2 = 0, carol c = 0 -> 0; mean 1/3.  At 0.2:
    alice P@1 = 1, bob c = floor(0.4 + 0.9) = 1, P@1 = 0; mean 1/3.  Topic u: 0 (trec_eval -c)
    or left out."""
    r = pd.DataFrame({"run": "s", "topic": "t", "doc": ["a", "b", "c"], "rank": [1, 2, 3],
                      "score": [3.0, 2.0, 1.0]})
    out = score(r, judgment_groups=_groups(), missing=missing, per_topic=True,
                measures=["map_avgjg", "P_avgjg.2", "Rprec_mult_avgjg.0.2,1.0"])
    got = out.set_index(["measure", "topic"])["value"]
    assert got["map_avgjg", "t"] == pytest.approx(7 / 18, abs=1e-15)
    assert got["P_avgjg_2", "t"] == pytest.approx(1 / 6, abs=1e-15)
    assert got["Rprec_mult_avgjg_1.00", "t"] == pytest.approx(1 / 3, abs=1e-15)
    assert got["Rprec_mult_avgjg_0.20", "t"] == pytest.approx(1 / 3, abs=1e-15)
    if missing == "zero":
        assert got["map_avgjg", "u"] == 0 and got["map_avgjg", "all"] == pytest.approx(7 / 36)
        assert out.attrs["num_q"] == {"qrels_jg": {"s": 2}}
    else:
        assert ("map_avgjg", "u") not in got and got["map_avgjg", "all"] == pytest.approx(7 / 18)


def test_judgment_groups_file_and_the_qrels_jg_set(tmp_path, capsys):
    path = tmp_path / "qrels_jg"
    path.write_text("".join(f"{t} {g} {d} {s}\n" for t, g, d, s in _groups().itertuples(
        index=False)))
    run = tmp_path / "run"
    run.write_text("t Q0 a 1 3 s\nt Q0 b 2 2 s\nt Q0 c 3 1 s\nu Q0 y 1 1 s\n")
    assert cli.main(["score", "--judgment-groups", str(path), "--measure", "qrels_jg",
                     "--format", "trec_eval", str(run)]) == 0
    out = capsys.readouterr().out.splitlines()
    names = [line.split("\t")[0].rstrip() for line in out]
    assert names == ["runid", "num_q", "map_avgjg", *[f"P_avgjg_{k}" for k in
                     (5, 10, 15, 20, 30, 100, 200, 500, 1000)],
                     *[f"Rprec_mult_avgjg_{x:3.2f}" for x in np.arange(1, 11) * 0.2]]
    assert out[2] == f"{'map_avgjg':<22}\tall\t{7 / 36:6.4f}"
    with pytest.raises(InputError, match="qrels_jg ones, not AP"):
        score(str(run), judgment_groups=str(path), measures=["AP"])


def test_a_run_on_stdin_scores_as_the_file(tmp_path, monkeypatch, capsys):
    q, r = _world(6)
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{t} 0 {d} {g}\n" for t, d, g in q.itertuples(index=False)))
    text = "".join(f"{t} Q0 {d} {k} {s} r\n" for t, d, k, s in
                   r[["topic", "doc", "rank", "score"]].itertuples(index=False))
    (tmp_path / "run").write_text(text)
    args = ["score", "--qrels", str(qrels), "--measure", "AP", "--measure", "P@5", "--per-topic",
            "--format", "trec_eval"]
    assert cli.main([*args, str(tmp_path / "run")]) == 0
    from_file = capsys.readouterr().out
    monkeypatch.setattr("evalkit.formats._text._stdin", [])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert cli.main([*args, "-"]) == 0
    assert capsys.readouterr().out == from_file and from_file.count("\n") == 2 * 8 + 4


def test_the_mean_adds_the_topics_in_order_as_trec_eval_does():
    """trec_eval adds each topic's value to a double in topic order and divides by the count;
    numpy's pairwise sum differs in the last bit on these 300 values (checked below), which
    is enough to move a mean on a rounding boundary by 0.0001."""
    from functools import reduce
    from operator import add

    from evalkit.evaluate.scoring.engine import tidy
    from evalkit.evaluate.scoring.lists import Scored
    from evalkit.measures.registry import parse_measure

    values = np.random.default_rng(0).random(300)
    scored = Scored(("r",), tuple(f"t{i:03d}" for i in range(300)), ("qrels",),
                    values[None, None, None, :], np.ones((1, 300), bool), np.ones((1, 300), bool))
    mean = tidy(scored, [parse_measure("AP")], False, False)["value"].iloc[-1]
    assert mean == reduce(add, values.tolist()) / 300
    assert np.sum(values) / 300 != mean                 # the test can tell the two sums apart


def test_per_judge_blocks_are_each_judges_own_trec_eval_output(tmp_path, capsys):
    """With --per-judge, one block per judge and run, each what the judge's qrels alone give
    (trec_eval on that judge's file); the pooled all:raw blocks come last."""
    q, r = _world(7)
    other = q.assign(grade=np.where(q["grade"] > 0, 4 - q["grade"], q["grade"]))
    other = other[other["topic"] != "q3"]                          # a judge without q3
    paths = {}
    for name, frame in (("ann", q), ("bo", other)):
        paths[name] = tmp_path / name
        paths[name].write_text("".join(f"{t} 0 {d} {g}\n" for t, d, g in frame.itertuples(
            index=False)))
    runs = []
    for tag in ("r1", "r2"):
        runs.append(tmp_path / tag)
        runs[-1].write_text("".join(f"{t} Q0 {d} {k} {s + (tag == 'r2')} {tag}\n" for t, d, k, s in
                                    r[["topic", "doc", "rank", "score"]].itertuples(index=False)))
    measures = ["--measure", "AP", "--measure", "nDCG@10", "--measure", "P@5"]
    assert cli.main(["score", "--judge", f"ann={paths['ann']}", "--judge", f"bo={paths['bo']}",
                     "--per-judge", *measures, "--per-topic", "--format", "trec_eval",
                     *map(str, runs)]) == 0
    out, err = capsys.readouterr()
    assert "ann r1, ann r2, bo r1, bo r2, all:raw r1, all:raw r2" in err
    expected = ""
    for name in ("ann", "bo"):
        for run in runs:
            assert cli.main(["score", "--qrels", str(paths[name]), *measures, "--per-topic",
                             "--format", "trec_eval", str(run)]) == 0
            expected += capsys.readouterr().out
    assert out.startswith(expected) and out.count("runid") == 6
    assert "num_q                 \tall\t7\n" in expected                  # bo lacks q3


def test_judgment_groups_stand_alone(tmp_path, capsys):
    """--judgment-groups are the judgments of their own: one line, exit 2, nothing on stdout."""
    path = tmp_path / "qrels_jg"
    path.write_text("t alice a 1\n")
    run = tmp_path / "run"
    run.write_text("t Q0 a 1 3 s\n")
    for extra, says in ((["--qrels", str(path)], "without --judge, --ratings or --qrels"),
                        (["--per-judge"], "averaged over each topic's groups"),
                        (["--gain", "ug"], "do not apply to --judgment-groups")):
        assert cli.main(["score", "--judgment-groups", str(path), "--measure", "qrels_jg", *extra,
                         str(run)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and says in err and len(err.strip().splitlines()) == 1
