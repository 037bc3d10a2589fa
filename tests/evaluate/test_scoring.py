"""evalkit score: hand-worked values, equality with the per-topic functions, input mapping."""

import numpy as np
import pandas as pd
import pytest

from evalkit.errors import InputError, ParameterError
from evalkit.evaluate import item_gains, score
from evalkit.measures.registry import parse_measure
from evalkit.measures import gains as gain_functions
from evalkit.measures import graded

# Topic A (Dmax = 3): a1 unanimous (N = 3), a2 rated by only two assessors,
# a3 all zeros, a4 maximal spread.  Topic B: nobody found anything relevant.
RATINGS = pd.DataFrame(
    [("A", "x", "a1", 3), ("A", "y", "a1", 3), ("A", "z", "a1", 3),
     ("A", "x", "a2", 1), ("A", "y", "a2", 2),
     ("A", "x", "a3", 0), ("A", "y", "a3", 0), ("A", "z", "a3", 0),
     ("A", "x", "a4", 0), ("A", "y", "a4", 3), ("A", "z", "a4", 1),
     ("B", "x", "b1", 0), ("B", "y", "b1", 0)],
    columns=["topic", "assessor", "doc", "rating"])

# r1 ranks a4, a1, an unjudged document, a2; r2 comes from ir_measures-style
# scores with a tie (a1 and a2 both 5.0), broken by document id descending.
RUNS = pd.DataFrame(
    [("r1", "A", "a4", 1), ("r1", "A", "a1", 2), ("r1", "A", "unjudged", 3), ("r1", "A", "a2", 4),
     ("r1", "B", "b1", 1), ("r1", "C", "c1", 1)],
    columns=["run", "topic", "doc", "rank"])
R2 = pd.DataFrame({"run": "r2", "query_id": ["A", "A", "A"], "doc_id": ["a1", "a2", "a4"],
                   "score": [5.0, 5.0, 1.0]})


def test_an_assessor_rating_an_item_twice_is_named_at_its_first_repeat():
    # item a2 rated by x and y (fine); then y rates a1 again, then x rates a3 again: the
    # first repeat in row order is named, whatever the frame's index
    repeats = pd.concat([RATINGS, pd.DataFrame([("A", "y", "a1", 1), ("A", "x", "a3", 2)],
                                               columns=RATINGS.columns)], ignore_index=True)
    for frame in (repeats, repeats.iloc[1:].set_axis(range(100, 100 + len(repeats) - 1))):
        with pytest.raises(InputError, match="^assessor y rates document a1 of topic A twice$"):
            item_gains(frame, "raw")
    assert len(item_gains(RATINGS, "raw")) == 5        # several assessors per item: no repeat


def test_item_gains_follow_sakai_eq_1_and_2_by_hand():
    ug = item_gains(RATINGS, "ug", p=0.2, dmax=3).set_index("doc")["gain"]
    # UG = RawG + p N_i (Dmax - D_i): a1 9 + 0.2*3*3, a2 3 + 0.2*2*2, a4 4 + 0.2*3*0
    assert ug["a1"] == pytest.approx(10.8) and ug["a2"] == pytest.approx(3.8)
    assert ug["a3"] == 0 and ug["a4"] == pytest.approx(4.0) and ug["b1"] == 0
    wg = item_gains(RATINGS, "wg", dmax=3).set_index("doc")["gain"]
    assert wg["a1"] == 9 and wg["a2"] == pytest.approx(2.0) and wg["a4"] == 0   # (1 - D/3) RawG
    # the same values as evalkit.measures.gains on the padded items x assessors matrix
    wide = RATINGS.pivot(index=["topic", "doc"], columns="assessor", values="rating")
    m = wide.to_numpy(float)
    np.testing.assert_allclose(item_gains(RATINGS, "ug", 0.2, 3)["gain"],
                               gain_functions.unanimity_gain(m, 3, 0.2))
    np.testing.assert_allclose(item_gains(RATINGS, "wg", 0.2, 3)["gain"],
                               gain_functions.weighted_gain(m, 3))
    np.testing.assert_allclose(item_gains(RATINGS, "raw")["gain"], gain_functions.raw_gain(m))


def test_score_by_hand_on_topic_a_with_ug():
    out = score(pd.concat([RUNS, R2.rename(columns={"query_id": "topic", "doc_id": "doc"})
                           .assign(rank=[2, 1, 3]).drop(columns="score")]),
                RATINGS, gain="ug", p=0.2, dmax=3, measures=["nG@1", "P+", "nERR@10", "Q"],
                per_topic=True)
    got = out.set_index(["run", "measure", "topic"])["value"]
    # r1's gains 4, 10.8, 0, 3.8; the ideal list 10.8, 4, 3.8 (R = 3, gmax = 10.8)
    br1, br2, br4 = (4 + 1) / (10.8 + 1), (14.8 + 2) / (14.8 + 2), (18.6 + 3) / (18.6 + 4)
    assert got["r1", "nG@1", "A"] == pytest.approx(4 / 10.8)
    assert got["r1", "Q", "A"] == pytest.approx((br1 + br2 + br4) / 3)
    assert got["r1", "P+", "A"] == pytest.approx((br1 + br2) / 2)       # rp = 2, C(rp) = 2
    P = np.array([4, 10.8, 0, 3.8]) / 11.8                               # g / (gmax + 1)
    err = P[0] + P[1] * (1 - P[0]) / 2 + P[3] * (1 - P[0]) * (1 - P[1]) / 4
    Pi = np.array([10.8, 4, 3.8]) / 11.8
    ideal = Pi[0] + Pi[1] * (1 - Pi[0]) / 2 + Pi[2] * (1 - Pi[0]) * (1 - Pi[1]) / 3
    assert got["r1", "nERR@10", "A"] == pytest.approx(err / ideal)
    # topic B has no positive gain: no per-topic line, not in the mean, reported
    assert ("r1", "Q", "B") not in got.index and out.attrs["excluded_topics"] == ["B"]
    assert got["r1", "Q", "all"] == got["r1", "Q", "A"]
    # topic C has no judgments: dropped and reported; r2 misses topic B: 0 there is fine
    assert any("dropped" in n and "C" in n for n in out.attrs["notes"])
    assert any("1 retrieved documents are unjudged" in n for n in out.attrs["notes"])


def test_ties_in_scores_are_broken_by_document_id_descending():
    out = score(R2, RATINGS, gain="raw", measures=["nG@1"], per_topic=True)
    # a2 (RawG 3) before a1 (RawG 9): nG@1 = 3 / 9
    assert out.set_index(["run", "topic"])["value"]["r2", "A"] == pytest.approx(3 / 9)


@pytest.mark.parametrize("gain", ["raw", "wg", "ug"])
def test_score_equals_the_per_topic_functions(gain, small_collection):
    from evalkit.formats.trec import read_qrels, read_runs
    from evalkit.simulate.stc import simulate_ratings

    qrels = read_qrels(small_collection / "qrels.txt")
    runs = read_runs(small_collection / "runs")
    matrix = simulate_ratings(qrels["grade"].to_numpy(), 4, 3, seed=5).astype(float)
    matrix[::7, 0] = np.nan                                   # some items have N_i = 3
    long = pd.DataFrame(matrix, index=pd.MultiIndex.from_frame(qrels[["topic", "doc"]]))
    long = long.stack().dropna().rename("rating").reset_index().rename(columns={"level_2": "assessor"})
    long["rating"] = long["rating"].astype(int)
    out = score(runs, long, gain=gain, p=0.3, dmax=3, measures=["nG@1", "P+@5", "nERR@5", "Q"],
                per_topic=True).set_index(["run", "measure", "topic"])["value"]
    g = item_gains(long, gain, 0.3, 3)
    functions = {"nG@1": lambda r, i: graded.ng_at_k(r, i, 1),
                 "P+@5": lambda r, i: graded.p_plus(r, i, k=5),
                 "nERR@5": lambda r, i: graded.nerr_at_k(r, i, 5),
                 "Q": lambda r, i: graded.q_measure(r, i, k=None)}
    checked = 0
    for (run, topic), lst in runs.sort_values("rank").groupby(["run", "topic"]):
        gt = g[g["topic"] == topic].set_index("doc")["gain"]
        if gt.max() <= 0:
            continue
        run_gains = [gt.get(d, 0.0) for d in lst["doc"]]
        for m, f in functions.items():
            expected = f(run_gains, gt.to_numpy())
            if np.isnan(expected):
                assert (run, m, topic) not in out.index or np.isnan(out[run, m, topic])
            else:
                assert out[run, m, topic] == pytest.approx(expected, abs=1e-12), (run, m, topic)
                checked += 1
    assert checked > 100


def test_qrels_with_a_gain_map_score_like_ntcireval_gain_values():
    qrels = pd.DataFrame({"query_id": ["A", "A", "A"], "doc_id": ["a1", "a2", "a3"],
                          "relevance": [2, 1, 0]})
    out = score(RUNS[RUNS["topic"] == "A"], qrels=qrels, gain_map="1:1,2:3", measures=["nG@1", "Q"])
    got = out.set_index(["run", "measure"])["value"]
    # r1: a4 (unjudged, 0), a1 (3), unjudged, a2 (1); ideal 3, 1
    assert got["r1", "nG@1"] == 0
    assert got["r1", "Q"] == pytest.approx(((3 + 1) / (4 + 2) + (4 + 2) / (4 + 4)) / 2)
    with pytest.raises(InputError, match=r"grade\(s\) \[2\]"):
        score(RUNS, qrels=qrels, gain_map="1:1", measures=["Q"])


def test_measure_names_and_bad_parameters():
    assert parse_measure("nERR@10").k == 10 and parse_measure("nERR").k == 10
    assert parse_measure("Q").k is None and parse_measure("nG").k == 1 and parse_measure("Q@5").k == 5
    for bad in ("ndcg@10", "Q@0", "P+@x", "nG@3", "P", "Success", "ERR", "Rprec@5",
                "Bpref@10", "AP(rel=0)", "AP(rel=x)", "AP(foo=1)", "nDCG(rel=2)@10", "RR@"):
        with pytest.raises(ParameterError, match="measure"):
            parse_measure(bad)
    # ir_measures' names: the base, its parameters in parentheses, then the cutoff
    spec = parse_measure("P(rel=2)@10")
    assert (spec.base, spec.k, spec.rel, spec.name) == ("P", 10, 2.0, "P(rel=2)@10")
    assert parse_measure("AP").k is None and parse_measure("AP@100").k == 100
    assert parse_measure("nDCG").k is None and parse_measure("nDCG@10").k == 10
    assert parse_measure("ERR(gmax=4)@20").gmax == 4.0 and parse_measure("ERR@20").gmax is None
    assert parse_measure("Rprec").family == "trec_eval" and parse_measure("Q").family == "NTCIREVAL"
    with pytest.raises(ParameterError, match="gain"):
        item_gains(RATINGS, "dcg")
    with pytest.raises(InputError, match="above dmax = 2"):
        item_gains(RATINGS, "ug", dmax=2)
    with pytest.raises(InputError, match="twice"):
        item_gains(pd.concat([RATINGS, RATINGS.head(1)]), "raw")


def test_the_engine_equals_the_per_topic_reference_path(small_collection):
    """Every run scored by the engine (trec_eval's order, one run at a time) equals the
    reference path of evalkit.measures.graded (ranked_lists + score_runs, rank order) on
    runs whose ranks follow their scores, for every NTCIREVAL measure and cutoff."""
    from evalkit.formats.trec import read_qrels, read_runs

    qrels = read_qrels(small_collection / "qrels.txt")
    runs = read_runs(small_collection / "runs")
    runs = runs[~((runs["topic"] == runs["topic"].iloc[0]) & (runs["run"] == runs["run"].iloc[0]))]
    gain_map = {1: 1.0, 2: 3.0}
    for depth in (1, 3, 10):
        lists = graded.ranked_lists(runs, qrels, depth)
        gains = lists.pad([qrels[qrels["topic"] == t].sort_values("doc")["grade"].map(
            lambda g: gain_map.get(g, 0.0)).to_numpy() for t in lists.topics])
        slow, valid = graded.score_runs(lists, gains, ["nERR", "P+", "Q"])
        fast = score(runs, qrels=qrels, gain_map=gain_map, per_topic=True,
                     measures=[f"nERR@{depth}", f"P+@{depth}", f"Q@{depth}"])
        got = fast.set_index(["run", "measure", "topic"])["value"]
        for name, base in ((f"nERR@{depth}", "nERR"), (f"P+@{depth}", "P+"), (f"Q@{depth}", "Q")):
            for r, run in enumerate(lists.runs):
                for t, topic in enumerate(lists.topics):
                    if valid[t]:
                        assert got[run, name, topic] == pytest.approx(slow[base][r, t], abs=1e-12)


def test_ranx_column_names_give_the_same_scores():
    # ranx frames: runs and qrels both as q_id, doc_id, score (the qrels' score is the grade)
    qrels = pd.DataFrame({"topic": ["A", "A", "A"], "doc": ["a1", "a2", "a3"], "grade": [2, 1, 0]})
    runs = pd.DataFrame({"run": "r", "topic": "A", "doc": ["a3", "a1", "a2"], "rank": [1, 2, 3]})
    ours = score(runs, qrels=qrels, gain_map="1:1,2:3", measures=["nG@1", "Q"])
    ranx_qrels = qrels.rename(columns={"topic": "q_id", "doc": "doc_id", "grade": "score"})
    ranx_run = pd.DataFrame({"q_id": "A", "doc_id": ["a3", "a1", "a2"], "score": [3.0, 2.0, 1.0]})
    theirs = score(ranx_run, qrels=ranx_qrels, gain_map="1:1,2:3", measures=["nG@1", "Q"])
    np.testing.assert_allclose(theirs["value"], ours["value"])
    # a3 (0), a1 (3), a2 (1); ideal 3, 1: Q = (BR(2) + BR(3)) / 2, BR(r) = (cg + C) / (cg* + r)
    assert ours["value"].tolist() == pytest.approx([0.0, ((3 + 1) / (4 + 2) + (4 + 2) / (4 + 3)) / 2])


def test_a_run_missing_a_rated_topic_scores_zero_there():
    ratings = pd.DataFrame([("A", "x", "a1", 2), ("B", "x", "b1", 1)],
                           columns=["topic", "assessor", "doc", "rating"])
    runs = pd.DataFrame([("r1", "A", "a1", 1), ("r1", "B", "b1", 1), ("r2", "A", "a1", 1)],
                        columns=["run", "topic", "doc", "rank"])
    got = score(runs, ratings, measures=["Q"], per_topic=True).set_index(["run", "topic"])["value"]
    # r2 has no list for B: Q = 0 there, and its mean is over both topics (trec_eval -c)
    assert got["r2", "B"] == 0 and got["r2", "all"] == pytest.approx((1 + 0) / 2)
