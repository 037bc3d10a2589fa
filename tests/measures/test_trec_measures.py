"""trec_eval's measures against pytrec_eval (trec_eval's own C code), topic by topic, and by hand.

Generated runs and qrels have everything that trips an implementation up:
tied scores (broken by document id, descending), rank columns that disagree
with the scores, unjudged documents, negative grades (trec_eval: in the pool,
unjudged), topics with no relevant document or only negative grades, topics
missing from the run and from the qrels, empty and 1-document lists.  Every
value must equal pytrec_eval's to 1e-12.  ERR@k (gdeval's, which pytrec_eval
lacks) and Judged@k (ir_measures' own) are checked against loops written
from their definitions.
"""

import math

import numpy as np
import pandas as pd
import pytest

from evalkit.evaluate import score

pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec_eval is the oracle: "
                                  "pip install pytrec-eval-terrier (the workspace extra has it)")

#: evalkit's name -> pytrec_eval's key (trec_eval's measure with its cutoff).
NAMES = {"nDCG": "ndcg", "nDCG@5": "ndcg_cut_5", "nDCG@10": "ndcg_cut_10", "AP": "map",
         "AP@10": "map_cut_10", "P@5": "P_5", "P@10": "P_10", "R@5": "recall_5",
         "R@100": "recall_100", "RR": "recip_rank", "Rprec": "Rprec", "Bpref": "bpref",
         "Success@1": "success_1", "Success@5": "success_5"}
PYTREC = {"ndcg", "ndcg_cut.5,10", "map", "map_cut.10", "P.5,10", "recall.5,100", "recip_rank",
          "Rprec", "bpref", "success.1,5"}


def _world(seed: int):
    """Qrels (topic, doc, grade) and a run (topic, doc, rank, score) built to be awkward."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for t in range(14):
        topic = f"q{t}"
        pool = [f"d{t}-{j:03d}" for j in range(80)]
        judged = rng.choice(80, size=int(rng.integers(1, 50)), replace=False)
        grades = rng.choice([-2, -1, 0, 0, 1, 1, 2, 3], size=len(judged))
        if t == 3:
            grades[:] = 0                                  # no relevant document
        if t == 4:
            grades[:] = rng.choice([-2, -1], size=len(judged))   # only negative grades
        if t != 12:                                        # q12: in the run only
            qrels += [(topic, pool[j], int(g)) for j, g in zip(judged, grades)]
        if t == 13:
            continue                                       # q13: in the qrels only
        n = {5: 0, 6: 1}.get(t, int(rng.integers(2, 70)))  # q5 empty, q6 one document
        docs = rng.choice(80, size=n, replace=False)
        scores = np.round(rng.normal(size=n), 1)           # one decimal: many ties
        if t == 7:
            scores[:] = 1.5                                # every score tied
        ranks = rng.permutation(n) + 1 if t % 2 else np.argsort(np.argsort(-scores)) + 1
        if t == 8:
            ranks[:] = 0                                   # all ranks 0
        run += [(topic, pool[d], int(r), float(s)) for d, r, s in zip(docs, ranks, scores)]
    q = pd.DataFrame(qrels, columns=["topic", "doc", "grade"])
    r = pd.DataFrame(run, columns=["topic", "doc", "rank", "score"]).assign(run="r")
    return q, r


def _pytrec(q: pd.DataFrame, r: pd.DataFrame, level: int = 1) -> dict:
    qrels = {}
    for t, d, g in q.itertuples(index=False):
        qrels.setdefault(t, {})[d] = int(g)
    run = {}
    for t, d, s in r[["topic", "doc", "score"]].itertuples(index=False):
        run.setdefault(t, {})[d] = float(s)
    return pytrec_eval.RelevanceEvaluator(qrels, PYTREC, relevance_level=level).evaluate(run)


@pytest.mark.parametrize("seed", range(6))
def test_every_measure_equals_pytrec_eval_on_every_topic(seed):
    q, r = _world(seed)
    theirs = _pytrec(q, r)
    ours = score(r, judges={"j": q}, measures=list(NAMES), per_topic=True, missing="skip")
    got = ours.set_index(["measure", "topic"])["value"]
    worst = 0.0
    for topic, values in theirs.items():
        for name, key in NAMES.items():
            worst = max(worst, abs(got[name, topic] - values[key]))
    assert worst <= 1e-12
    # the topics: pytrec_eval's (the run's, within the qrels), and the mean over them
    assert set(got.xs("nDCG").index) - {"all"} == set(theirs)
    for name, key in NAMES.items():
        assert got[name, "all"] == pytest.approx(np.mean([v[key] for v in theirs.values()]),
                                                 abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_relevance_levels_equal_trec_eval_l(seed):
    q, r = _world(seed)
    theirs = _pytrec(q, r, level=2)
    names = {"AP(rel=2)": "map", "P(rel=2)@10": "P_10", "R(rel=2)@5": "recall_5",
             "RR(rel=2)": "recip_rank", "Rprec(rel=2)": "Rprec", "Bpref(rel=2)": "bpref",
             "Success(rel=2)@5": "success_5"}
    got = score(r, judges={"j": q}, measures=list(names), per_topic=True).set_index(
        ["measure", "topic"])["value"]
    for topic, values in theirs.items():
        for name, key in names.items():
            assert abs(got[name, topic] - values[key]) <= 1e-12, (name, topic)


def test_the_qrels_path_and_a_missing_topic_counted_zero():
    """--qrels with an identity gain map gives the judge's values; with missing="zero"
    (trec_eval -c) the qrels topics the run lacks (q5, q13) score 0 and count in the mean."""
    q, r = _world(1)
    via_judge = score(r, judges={"j": q}, measures=list(NAMES), per_topic=True)
    via_qrels = score(r, qrels=q, gain_map="1:1,2:2,3:3", measures=list(NAMES), per_topic=True)
    pd.testing.assert_frame_equal(via_judge, via_qrels)
    # without a gain map the grade is the gain, as trec_eval reads qrels
    pd.testing.assert_frame_equal(via_judge, score(r, qrels=q, measures=list(NAMES), per_topic=True))
    got = via_judge.set_index(["measure", "topic"])["value"]
    assert (got.xs("q13", level="topic") == 0).all() and (got.xs("q5", level="topic") == 0).all()
    theirs = _pytrec(q, r)
    n = q["topic"].nunique()
    assert n == len(theirs) + 2
    for name, key in NAMES.items():
        assert got[name, "all"] == pytest.approx(sum(v[key] for v in theirs.values()) / n)
    assert any("lack qrels topics" in note and "trec_eval -c" in note
               for note in via_judge.attrs["notes"])


def test_the_rank_column_is_ignored_as_trec_eval_ignores_it_and_named():
    """The issue's case: d1 rank 1 score 0.1 (grade 2), d2 rank 2 score 0.9 (grade 0)."""
    q = pd.DataFrame({"topic": ["1", "1"], "doc": ["d1", "d2"], "grade": [2, 0]})
    r = pd.DataFrame({"run": "r", "topic": "1", "doc": ["d1", "d2"], "rank": [1, 2],
                      "score": [0.1, 0.9]})
    by_score = score(r, judges={"j": q}, measures=["nDCG@1", "nG@1", "nDCG@5"])
    assert by_score["value"].tolist() == [0.0, 0.0, pytest.approx(1 / math.log2(3))]
    assert _pytrec(q, r)["1"]["ndcg_cut_5"] == pytest.approx(1 / math.log2(3))
    assert any("its rank column orders 1 of its 1 topics differently" in n and "--order rank" in n
               for n in by_score.attrs["notes"])
    by_rank = score(r, judges={"j": q}, measures=["nDCG@1", "nG@1", "nDCG@5"], order="rank")
    assert by_rank["value"].tolist() == [1.0, 1.0, 1.0]


def _loop_err(grades, k, gmax):
    """ERR@k written from Chapelle et al. (2009), Algorithm 2."""
    p, err = 1.0, 0.0
    for r, g in enumerate(grades[:k], start=1):
        stop = (2 ** g - 1) / 2 ** gmax
        err += p * stop / r
        p *= 1 - stop
    return err


def _trec_order(r: pd.DataFrame, topic: str) -> list[str]:
    rows = r[r["topic"] == topic]
    return [d for _, d in sorted(zip(-rows["score"], rows["doc"]), key=lambda x: (x[0], [-ord(c) for c in x[1]]))]


@pytest.mark.parametrize("seed", range(3))
def test_err_and_judged_equal_loops_from_their_definitions(seed):
    q, r = _world(seed)
    got = score(r, judges={"j": q}, measures=["ERR@10", "ERR(gmax=4)@20", "Judged@10"],
                per_topic=True, missing="skip").set_index(["measure", "topic"])["value"]
    grade = {(t, d): g for t, d, g in q.itertuples(index=False)}
    for topic in sorted(set(r["topic"]) & set(q["topic"])):
        docs = _trec_order(r, topic)
        gains = [max(grade.get((topic, d), 0), 0) for d in docs]
        assert got["ERR@10", topic] == pytest.approx(_loop_err(gains, 10, 3), abs=1e-12)
        assert got["ERR(gmax=4)@20", topic] == pytest.approx(_loop_err(gains, 20, 4), abs=1e-12)
        top = docs[:10]
        held = sum((topic, d) in grade for d in top)
        assert got["Judged@10", topic] == pytest.approx(held / len(top) if top else 0.0)


def test_ndcg_by_hand():
    """Gains 3, 0, 2 retrieved; the ideal 3, 2, 1 (a grade-1 document not retrieved)."""
    q = pd.DataFrame({"topic": "1", "doc": ["a", "b", "c", "d"], "grade": [3, 0, 2, 1]})
    r = pd.DataFrame({"run": "r", "topic": "1", "doc": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    got = score(r, judges={"j": q}, measures=["nDCG@3", "AP", "RR", "P@2", "R@3"]).set_index(
        "measure")["value"]
    dcg = 3 + 0 / math.log2(3) + 2 / math.log2(4)
    idcg = 3 + 2 / math.log2(3) + 1 / math.log2(4)
    assert got["nDCG@3"] == pytest.approx(dcg / idcg)
    assert got["AP"] == pytest.approx((1 / 1 + 2 / 3) / 3)     # R = 3 (grades 3, 2, 1)
    assert got["RR"] == 1.0 and got["P@2"] == 0.5 and got["R@3"] == pytest.approx(2 / 3)
