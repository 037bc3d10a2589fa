"""NTCIREVAL measures checked against values worked out by hand from the formulas."""

import math

import numpy as np
import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.measures import graded, registry
from evalkit.measures.graded import nerr_at_k, ng_at_k, p_plus, q_measure


def test_worked_example():
    ideal = [3, 2, 0, 1]          # sorted: 3 2 1 0, gmax 3, R 3
    run = [0, 2, 3]
    assert ng_at_k(run, ideal) == 0.0
    # P(r) = g/(gmax+1) = g/4. ERR = .5/2 + .75 * .5 / 3 = .375
    # ERR* = .75 + .5 * .25 / 2 + .25 * .25 * .5 / 3
    err_star = 0.75 + 0.5 * 0.25 / 2 + 0.25 * 0.25 * 0.5 / 3
    assert nerr_at_k(run, ideal) == pytest.approx(0.375 / err_star)
    # rp = 3 (largest gain 3 at rank 3); BR(2) = (2+1)/(5+2), BR(3) = (5+2)/(6+3)
    assert p_plus(run, ideal) == pytest.approx((3 / 7 + 7 / 9) / 2)
    assert q_measure(run, ideal) == pytest.approx((3 / 7 + 7 / 9) / 3)
    assert q_measure(run, ideal, k=10) == pytest.approx((3 / 7 + 7 / 9) / 3)


def test_p_plus_stops_at_the_preferred_rank():
    # rp = 2: the first rank holding the run's largest gain (3); ranks 3, 4 ignored
    run, ideal = [1, 3, 3, 2], [3, 3, 2, 1]
    assert p_plus(run, ideal) == pytest.approx((2 / 4 + 6 / 8) / 2)
    # Q counts every relevant rank: BR(3) = (7+3)/(8+3), BR(4) = (9+4)/(9+4)
    assert q_measure(run, ideal) == pytest.approx((2 / 4 + 6 / 8 + 10 / 11 + 1) / 4)


def test_nerr_uses_gmax_plus_one():
    # P = g/5: run (.2, .8) -> .2 + .8*.8/2 = .52; ideal (.8, .2) -> .8 + .2*.2/2 = .82
    assert nerr_at_k([1, 4], [4, 1]) == pytest.approx(0.52 / 0.82)


def test_ties_in_gains_give_one():
    ideal = [2, 2, 2, 1]
    for run in ([2, 2, 2, 1], [2, 2, 2, 1, 0, 0]):
        for f in (ng_at_k, nerr_at_k, p_plus, q_measure):
            assert f(run, ideal) == pytest.approx(1.0), f.__name__


def test_run_with_nothing_relevant_scores_zero():
    for f in (ng_at_k, nerr_at_k, p_plus, q_measure):
        assert f([0, 0, 0], [1, 2]) == 0.0
        assert f([], [1, 2]) == 0.0


def test_topic_without_positive_gain_is_nan():
    for f in (ng_at_k, nerr_at_k, p_plus, q_measure):
        assert math.isnan(f([0, 0], [0, 0, 0]))


def test_cutoff_is_applied():
    # the only relevant item is at rank 11: invisible at k = 10
    run = [0] * 10 + [5]
    assert nerr_at_k(run, [5]) == 0.0 and p_plus(run, [5]) == 0.0
    assert q_measure(run, [5], k=None) == pytest.approx((5 + 1) / (5 + 11))


def test_bad_gains():
    with pytest.raises(InputError, match="finite"):
        p_plus([np.nan], [1])
    with pytest.raises(InputError, match=">= 0"):
        p_plus([-1], [1])
    with pytest.raises(InputError, match="parameter k"):
        nerr_at_k([1], [1], k=0)


def test_batch_equals_per_run_functions():
    rng = np.random.default_rng(3)
    runs = rng.integers(0, 4, size=(6, 5, 10)).astype(float)
    runs[rng.random(runs.shape) < 0.5] = 0
    ideal = rng.integers(0, 4, size=(5, 14)).astype(float)
    ideal[0] = 0  # a topic with no positive gain
    got = graded.batch_measures(runs, ideal[None])
    for r in range(6):
        for t in range(5):
            for name, f in (("nG@1", ng_at_k), ("nERR", nerr_at_k), ("P+", p_plus),
                            ("Q", lambda a, b: q_measure(a, b, k=10))):
                want = f(runs[r, t], ideal[t])
                if t == 0:
                    assert math.isnan(got[name][r, t])
                else:
                    assert got[name][r, t] == pytest.approx(want), (name, r, t)


def test_ranked_lists_gather_gains_and_count_unjudged():
    qrels = pd.DataFrame({"topic": ["1", "1", "2"], "doc": ["a", "b", "c"], "grade": [2, 0, 1]})
    runs = pd.DataFrame({
        "run": ["r"] * 4, "topic": ["1", "1", "1", "2"], "doc": ["x", "b", "a", "c"],
        "rank": [1, 2, 3, 1], "score": [3.0, 2.0, 1.0, 1.0],
    })
    lists = graded.ranked_lists(runs, qrels, k=2)
    assert lists.unjudged == 1  # "x"
    padded = lists.pad([np.array([5.0, 0.0]), np.array([1.0])])
    np.testing.assert_array_equal(lists.run_gains(padded)[0], [[0, 0], [1, 0]])
    scores, valid = graded.score_runs(lists, padded)
    assert valid.all()
    assert scores["nG@1"][0].tolist() == [0.0, 1.0]


def test_registry_documents_every_measure():
    table = registry.measures_table()
    assert set(table["measure"]) == {
        "nG@1", "nERR, nERR@k", "P+, P+@k", "Q, Q@k", "nDCG, nDCG@k", "AP, AP@k", "P@k",
        "R, R@k", "RR, RR@k", "Rprec", "Bpref", "Success@k", "Judged@k", "ERR@k",
        # trec_eval 10's other measures, ir_measures' RBP and ranx's DCG (issue 43)
        "DCG, DCG@k", "gm_map", "gm_bpref", "infAP", "IPrec@r", "11pt_avg", "Rprec_mult@x",
        "relative_P@k", "NumQ", "NumRet", "NumRel", "NumRelRet", "num_nonrel_judged_ret",
        "SetP", "SetR", "SetAP", "SetF", "SetRelP", "utility", "binG", "G", "ndcg_rel", "Rndcg",
        "rbp", "rbp_resid", "RBP, RBP@k", "unj@k", "relstring, relstring@k"}
    assert table["source"].str.len().min() > 5
    # every measure of trec_eval's family names its trec_eval or ir_measures equivalent
    trec = table[table["family"] == "trec_eval"]
    assert ((trec["trec_eval"] != "—") | (trec["ir_measures"] != "—")).all()


NTCIR = sorted(n for n, m in registry.MEASURES.items() if m.family == registry.NTCIREVAL)


@pytest.mark.parametrize("name", NTCIR)
def test_every_ntcireval_measure_is_one_for_the_ideal_run(name):
    m = registry.MEASURES[name]
    rng = np.random.default_rng(11)
    for _ in range(20):
        ideal = rng.integers(0, 5, size=15).astype(float)
        ideal[0] = max(ideal[0], 1.0)
        assert m.function(np.sort(ideal)[::-1], ideal, **m.defaults) == pytest.approx(1.0)
