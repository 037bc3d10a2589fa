"""Every measure of trec_eval's ``all_trec`` against pytrec_eval, topic by topic, and the rest against loops.

The generated worlds of ``test_trec_measures.py`` (tied scores, rank columns
contradicting them, unjudged documents, grades below 0, a topic without a
relevant document and one with only negative grades, topics missing from the
run or the qrels, empty and one-document lists), scored with ``--measure
all_trec``: each measure pytrec_eval computes (trec_eval 9's C code) must
agree on every topic to 1e-12, and the summary (``all``) must be trec_eval's
(the mean; the sum for the counts; the geometric mean over
``max(v, 0.00001)`` for ``gm_map`` and ``gm_bpref``).  A second judge with no
relevant document at all is scored beside the first.

trec_eval 10 changed ``iprec_at_recall`` and ``11pt_avg`` (``lround`` cutoffs
where 9 and pytrec_eval take ``(long)(x R + 0.9)``): they are checked against
a loop written from 10's definition, and against pytrec_eval with 9's
cutoffs, to show that the cutoffs are the only difference.  ``relstring`` is
compared as strings; ``rbp``, ``rbp_resid``, ``unj`` (trec_eval 10 only) and
ir_measures' ``RBP`` against loops written from their definitions.
"""

import math

import numpy as np
import pandas as pd
import pytest

from dataclasses import replace

from evalkit.evaluate import score
from evalkit.measures.trec_names import canonical_name
from evalkit.measures.registry import MEASURES, expand_measures, trec_name

from .test_trec_measures import _trec_order, _world  # the same generated worlds

pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec_eval is the oracle: "
                                  "pip install pytrec-eval-terrier (the workspace extra has it)")

#: Measures trec_eval 10 defines differently from pytrec_eval's trec_eval 9, or lacks in 9.
NOT_IN_9 = ("iprec_at_recall", "11pt_avg", "rbp", "rbp_resid", "unj", "relstring")
EMPTY = "none"                  # the judge without a relevant document


def _qrels_dict(q):
    out = {}
    for t, d, g in q.itertuples(index=False):
        out.setdefault(t, {})[d] = int(g)
    return out


def _run_dict(r):
    out = {}
    for t, d, s in r[["topic", "doc", "score"]].itertuples(index=False):
        out.setdefault(t, {})[d] = float(s)
    return out


def _pytrec(q, r, level=1, judged_only=False):
    return pytrec_eval.RelevanceEvaluator(_qrels_dict(q), {"all_trec"}, relevance_level=level,
                                          judged_docs_only_flag=judged_only).evaluate(_run_dict(r))


def _judges(q):
    return {"j": q, EMPTY: q.assign(grade=np.minimum(q["grade"], 0))}


def _ours(q, r, measures, **kw):
    got = score(r, judges=_judges(q), measures=measures, per_topic=True, per_judge=True,
                missing="skip", **kw)
    return got.set_index(["judge", "measure", "topic"])["value"]


def _compared():
    return [s for s in expand_measures("all_trec") if not trec_name(s).startswith(NOT_IN_9)
            and not s.strings]


def worst_differences(seeds=range(4), level=1, judged_only=False):
    """{trec_eval name: worst |evalkit - pytrec_eval|} over every topic, both judges and
    ``seeds``, at relevance level ``level`` (``AP(rel=2)``... against trec_eval's ``-l2``)."""
    specs = _compared()
    names = [_at_level(s, level) for s in specs]
    worst = {trec_name(s): 0.0 for s in specs}
    for seed in seeds:
        q, r = _world(seed)
        ours = _ours(q, r, names, judged_only=judged_only)
        for judge, qrels in _judges(q).items():
            for topic, values in _pytrec(qrels, r, level, judged_only).items():
                for s, name in zip(specs, names):
                    mine = ours[judge, name, topic]
                    if s.base in ("gm_map", "gm_bpref"):      # trec_eval's per-topic value: the log
                        mine = math.log(max(mine, 0.00001))
                    worst[trec_name(s)] = max(worst[trec_name(s)], abs(mine - values[trec_name(s)]))
    return worst


def _at_level(spec, level):
    """``spec``'s name with ``rel=level`` where the measure takes a relevance level."""
    if level == 1 or "rel" not in MEASURES[spec.base].params:
        return spec.name
    return canonical_name(replace(spec, rel=float(level), rel_given=True))


def test_every_all_trec_measure_equals_pytrec_eval_on_every_topic():
    worst = worst_differences()
    assert len(worst) >= 80                          # P, recall, ... at every default cutoff
    bad = {k: v for k, v in worst.items() if not v <= 1e-12}
    assert not bad


def test_relevance_level_two_equals_trec_eval_l2():
    worst = worst_differences(seeds=(1,), level=2)
    assert not {k: v for k, v in worst.items() if not v <= 1e-12}


def test_judged_only_lists_equal_trec_eval_j():
    """--judged-only (trec_eval's -J: each column's lists condensed to its judged documents)."""
    worst = worst_differences(seeds=(2,), judged_only=True)
    assert not {k: v for k, v in worst.items() if not v <= 1e-12}


@pytest.mark.parametrize("seed", [0, 5])
def test_summaries_are_trec_evals(seed):
    """The all row: sums for the counts, geometric means for gm_*, means otherwise."""
    q, r = _world(seed)
    theirs = _pytrec(q, r)
    got = score(r, judges={"j": q}, measures=["all_trec"], missing="skip").set_index(
        "measure")["value"]
    topics = list(theirs.values())
    for s in _compared():
        values = [v[trec_name(s)] for v in topics]
        if trec_name(s).startswith("num_"):
            want = sum(values)
        elif trec_name(s).startswith("gm_"):
            want = math.exp(sum(values) / len(values))
        else:
            want = sum(values) / len(values)
        assert got[s.name] == pytest.approx(want, rel=1e-12, abs=1e-12), s.name
    assert got["NumQ"] == len(topics)


def test_counts_with_missing_topics_counted_as_trec_eval_10_c():
    """With --missing zero (trec_eval -c) a qrels topic the run lacks adds its num_rel and
    num_q, nothing retrieved, and log(0.00001) to gm_map's mean."""
    q, r = _world(2)
    got = score(r, judges={"j": q}, measures=["official", "utility.2,-1,3,0", "rbp_resid"],
                per_topic=True).set_index(["measure", "topic"])["value"]
    lacking = sorted(set(q["topic"]) - set(r["topic"]))
    assert lacking == ["q13", "q5"]                   # q5: an empty list
    for topic in lacking:
        rel = q[(q["topic"] == topic) & (q["grade"] >= 1)]
        assert got["NumRel", topic] == len(rel) > 0 and got["NumRet", topic] == 0
        assert got["NumQ", topic] == 1 and got["AP", topic] == 0 == got["IPrec@0", topic]
        assert got["utility.2,-1,3,0", topic] == 3 * len(rel)       # c R: missed relevant
        assert got["rbp_resid", topic] == 0                          # trec_eval -c clears it
    assert got["NumQ", "all"] == q["topic"].nunique()
    aps = got.xs("gm_map", level="measure").drop("all")
    assert got["gm_map", "all"] == pytest.approx(
        math.exp(np.mean(np.log(np.maximum(aps.to_numpy(), 0.00001)))), rel=1e-12)


def _loop_iprec(rels, big_r, levels, rounding):
    """trec_eval 10's m_iprec_at_recall.c, as a plain loop over the ranks, bottom up."""
    n = len(rels)
    rel_ret = sum(rels)
    cut = [(math.floor(x * big_r + 0.5) if rounding == "v10" else int(x * big_r + 0.9))
           for x in levels]
    out = [0.0] * len(levels)
    if n == 0:
        return out
    current = len(levels) - 1
    while current >= 0 and cut[current] > rel_ret:
        current -= 1
    best = rel_ret / n
    so_far = rel_ret
    i = n
    while i > 0 and so_far > 0:
        best = max(best, so_far / i)
        if rels[i - 1]:
            while current >= 0 and so_far == cut[current]:
                out[current] = best
                current -= 1
            so_far -= 1
        i -= 1
    while current >= 0:
        out[current] = best
        current -= 1
    return out


def _lists(q, r, level=1):
    """Per (topic in both): the run's documents in trec_eval's order and the topic's grades."""
    grade = {(t, d): g for t, d, g in q.itertuples(index=False)}
    for topic in sorted(set(r["topic"]) & set(q["topic"])):
        docs = _trec_order(r, topic)
        grades = [grade.get((topic, d)) for d in docs]
        big_r = sum(1 for (t, _), g in grade.items() if t == topic and g >= level)
        top = max([g for (t, _), g in grade.items() if t == topic] + [0])
        yield topic, grades, big_r, top


LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@pytest.mark.parametrize("seed", range(4))
def test_iprec_and_11pt_avg_follow_trec_eval_10(seed):
    q, r = _world(seed)
    names = [s.name for s in expand_measures("iprec_at_recall")] + ["11pt_avg",
                                                                     "11pt_avg..25,.5,.75"]
    got = score(r, judges={"j": q}, measures=names, per_topic=True, missing="skip").set_index(
        ["measure", "topic"])["value"]
    theirs = _pytrec(q, r)
    differ = 0
    for topic, grades, big_r, _ in _lists(q, r):
        rels = [g is not None and g >= 1 for g in grades]
        want = _loop_iprec(rels, big_r, LEVELS, "v10")
        for name, value in zip(names, want):
            assert got[name, topic] == pytest.approx(value, abs=1e-12)
        assert got["11pt_avg", topic] == pytest.approx(np.mean(want), abs=1e-12)
        three = _loop_iprec(rels, big_r, (0.25, 0.5, 0.75), "v10")
        assert got["11pt_avg..25,.5,.75", topic] == pytest.approx(np.mean(three), abs=1e-12)
        # trec_eval 9's cutoffs (pytrec_eval's): the loop with them gives pytrec_eval's values
        nine = _loop_iprec(rels, big_r, LEVELS, "v9")
        for x, value in zip(LEVELS, nine):
            assert theirs[topic][f"iprec_at_recall_{x:.2f}"] == pytest.approx(value, abs=1e-12)
        differ += sum(a != b for a, b in zip(want, nine))
    assert differ > 0 if seed == 0 else True           # the two versions do differ here


def test_iprec_rounding_by_hand():
    """R = 12 relevant: recall 0.1 means 1 (lround 1.2) in trec_eval 10, 2 in 9."""
    from evalkit.measures.interpolated import recall_cutoff

    assert recall_cutoff(0.1, np.array([12])).tolist() == [1]
    assert recall_cutoff(0.1, np.array([12]), "v9").tolist() == [2]
    assert recall_cutoff(0.5, np.array([5])).tolist() == [3]      # 2.5: away from 0
    assert recall_cutoff(0.3, np.array([5])).tolist() == [2]      # 1.5 (0.3 * 5 = 1.5)


def _char(g):
    if g is None:
        return "-"
    if g < 0:
        return "."
    return ">" if g > 9 else str(g)


@pytest.mark.parametrize("seed", range(3))
def test_relstring_as_strings(seed):
    from evalkit.measures.relstring import relstring

    q, r = _world(seed)
    lists, topics = _ranked(q, r, "relstring.20")
    for k in (10, 20, 3):
        strings = relstring(lists, k)[0]
        for topic, grades, _, _ in _lists(q, r):
            assert strings[topics.index(topic)] == "".join(_char(g) for g in grades[:k])


def _ranked(q, r, *names):
    """The engine's RankedLists of run ``r`` under qrels ``q`` (one column)."""
    from evalkit.evaluate.runs.frames import normalise_runs
    from evalkit.evaluate.runs.files import run_tables
    from evalkit.evaluate.scoring.engine import gain_columns
    from evalkit.evaluate.scoring.judgments import judgments
    from evalkit.evaluate.scoring.lists import _lists as lists_of, _place

    specs = [s for n in names for s in expand_measures(n)]
    columns, gmax = gain_columns(judges={"j": q})
    j = judgments({"j": columns["all:raw"]}, {"j": gmax.get("all:raw", 1.0)})
    table = next(iter(run_tables(normalise_runs(r), j.docs.to_numpy(dtype=object))))
    placed, _ = _place(table, j, specs, "score")
    return lists_of(placed, j, slice(0, 1)), list(j.topics)


def _loop_rbp(gains, p):
    return (1 - p) * sum(g * p ** i for i, g in enumerate(gains))


@pytest.mark.parametrize("seed", range(4))
def test_rbp_rbp_resid_unj_and_ir_measures_rbp_equal_their_definitions(seed):
    q, r = _world(seed)
    names = ["rbp", "rbp.p=0.5", "rbp_resid", "rbp_resid.p=0.95", "unj", "unj.1,3,100",
             "RBP", "RBP(p=0.9)@5", "RBP(rel=2)", "RBP(rel=1,p=0.5)@20"]
    got = score(r, judges={"j": q}, measures=names, per_topic=True, missing="skip").set_index(
        ["measure", "topic"])["value"]
    for topic, grades, _, top in _lists(q, r):
        gain = [g if g is not None and g > 0 else 0 for g in grades]
        scaled = [g / max(1, top) for g in gain]                   # into [0, 1]
        unjudged = [g is None or g < 0 for g in grades]
        assert got["rbp", topic] == pytest.approx(_loop_rbp(scaled, 0.9), abs=1e-12)
        assert got["rbp.p=0.5", topic] == pytest.approx(_loop_rbp(scaled, 0.5), abs=1e-12)
        for name, p in (("rbp_resid", 0.9), ("rbp_resid.p=0.95", 0.95)):
            n = len(grades)                                # an empty list: 0 (-c)
            want = _loop_rbp(unjudged, p) + p ** n if n else 0.0
            assert got[name, topic] == pytest.approx(want, abs=1e-12)
        for k in (5, 10, 20, 1, 3, 100):
            name = f"unj@{k}"
            if (name, topic) in got.index:
                assert got[name, topic] == pytest.approx(sum(unjudged[:k]) / k, abs=1e-12)
        assert got["RBP", topic] == pytest.approx(_loop_rbp(gain, 0.8), abs=1e-12)
        assert got["RBP(p=0.9)@5", topic] == pytest.approx(_loop_rbp(gain[:5], 0.9), abs=1e-12)
        assert got["RBP(rel=2)", topic] == pytest.approx(
            _loop_rbp([g >= 2 for g in gain], 0.8), abs=1e-12)
        assert got["RBP(rel=1,p=0.5)@20", topic] == pytest.approx(
            _loop_rbp([g >= 1 for g in gain[:20]], 0.5), abs=1e-12)


def test_rbp_by_hand():
    """Grades 2, 0, unjudged, 1 (largest grade 2), p = 0.5: rbp = 0.5 (1 + 0.125 * 0.5);
    residual: the unjudged rank 3 and the ranks past 4."""
    q = pd.DataFrame({"topic": "1", "doc": ["a", "b", "d"], "grade": [2, 0, 1]})
    r = pd.DataFrame({"run": "r", "topic": "1", "doc": ["a", "b", "c", "d"],
                      "score": [4.0, 3.0, 2.0, 1.0]})
    got = score(r, judges={"j": q}, measures=["rbp.p=0.5", "rbp_resid.p=0.5", "RBP(p=0.5)"]
                ).set_index("measure")["value"]
    assert got["rbp.p=0.5"] == pytest.approx(0.5 * (1 + 0.125 * 0.5))
    assert got["rbp_resid.p=0.5"] == pytest.approx(0.5 * 0.25 + 0.5 ** 4)
    assert got["RBP(p=0.5)"] == pytest.approx(0.5 * (2 + 0.125))


@pytest.mark.parametrize("seed", range(2))
def test_gains_and_exponential_ndcg_equal_pytrec_eval_with_those_gains(seed):
    """trec_eval's ``ndcg.1=3,2=9``, G, ndcg_rel and Rndcg with gains, ir_measures'
    ``nDCG(gains={...})`` and ``nDCG(dcg='exp-log2')``: pytrec_eval on qrels whose grades
    were mapped to those gains (pytrec_eval's own ``ndcg.1=3`` parameters stop it on an
    assertion); DCG@10 against a loop."""
    q, r = _world(seed)
    names = ["ndcg.1=3,2=9,3=4", "nDCG(gains={0:1,2:5})@10", "nDCG(dcg='exp-log2')@10",
             "DCG@10", "G.2=5", "ndcg_rel.1=2", "Rndcg.3=1"]
    got = score(r, judges={"j": q}, measures=names, per_topic=True, missing="skip").set_index(
        ["measure", "topic"])["value"]
    run = _run_dict(r)
    checks = []
    for name, key, mapping in (("ndcg.1=3,2=9,3=4", "ndcg", {1: 3, 2: 9, 3: 4}),
                               ("nDCG(gains={0:1,2:5})@10", "ndcg_cut_10", {0: 1, 2: 5}),
                               ("nDCG(dcg='exp-log2')@10", "ndcg_cut_10", {1: 1, 2: 3, 3: 7}),
                               ("G.2=5", "G", {2: 5}), ("ndcg_rel.1=2", "ndcg_rel", {1: 2}),
                               ("Rndcg.3=1", "Rndcg", {3: 1})):
        mapped = q.assign(grade=q["grade"].map(lambda g, m=mapping: m.get(g, g)))
        measure = "ndcg_cut.10" if key == "ndcg_cut_10" else key
        checks.append((name, key, pytrec_eval.RelevanceEvaluator(
            _qrels_dict(mapped), {measure}).evaluate(run)))
    for name, key, theirs in checks:
        for topic, values in theirs.items():
            assert got[name, topic] == pytest.approx(values[key], abs=1e-12), (name, topic)
    for topic, grades, _, _ in _lists(q, r):
        gain = [g if g is not None and g > 0 else 0 for g in grades]
        assert got["DCG@10", topic] == pytest.approx(
            sum(g / math.log2(i + 2) for i, g in enumerate(gain[:10])), abs=1e-12)


def test_summarise_by_hand():
    """NaN (a topic not scored) is left out; a 0 counts as 0.00001 in a geometric mean."""
    from evalkit.measures.summaries import summarise

    values = np.array([[0.0, 0.25, np.nan, 1.0], [np.nan] * 4])
    assert summarise(values, "mean")[0] == pytest.approx(1.25 / 3)
    assert summarise(values, "sum")[0] == 1.25
    assert summarise(values, "gmean")[0] == pytest.approx((0.00001 * 0.25) ** (1 / 3), rel=1e-12)
    assert np.isnan(summarise(values, "mean")[1]) and np.isnan(summarise(values, "sum")[1])
    with pytest.raises(ValueError, match="median"):
        summarise(values, "median")


def test_rndcg_counts_relevant_documents_by_grade_not_by_given_gain():
    """trec_eval's Rndcg is 0 only when no document has a relevant grade; a gain below the
    relevance level (Rndcg.1=0.5) does not make the topic's R 0.  One document, retrieved
    first: the ideal gain changes after rank 1, nDCG@1 = 0.5 / 0.5."""
    q = pd.DataFrame({"topic": "1", "doc": ["a", "b"], "grade": [1, 0]})
    r = pd.DataFrame({"run": "r", "topic": "1", "doc": ["a"], "score": [1.0]})
    got = score(r, judges={"j": q}, measures=["Rndcg.1=0.5", "Rndcg"]).set_index("measure")
    assert got["value"].tolist() == [1.0, 1.0]


def test_relstring_and_summary_only_measures_in_trec_evals_layout():
    """--format trec_eval prints relstring per topic, quoted, in its place among the
    measures, and gm_map, gm_bpref and num_q only in the summary, as trec_eval 10 does."""
    from evalkit.evaluate.scoring.trec_eval_format import trec_eval_text

    q = pd.DataFrame({"topic": ["1", "1", "1", "2"], "doc": ["a", "b", "d", "x"],
                      "grade": [2, -1, 1, 1]})
    r = pd.DataFrame({"run": "r", "topic": "1", "doc": ["a", "b", "c", "d"],
                      "score": [4.0, 3.0, 2.0, 1.0]})
    frame = score(r, qrels=q, measures=["gm_map", "relstring", "num_q", "P.5"], per_topic=True)
    lines = trec_eval_text(frame).splitlines()
    assert lines == [
        "P_5                   \t1\t0.4000",
        "relstring             \t1\t'2.-1'",
        "P_5                   \t2\t0.0000",
        "relstring             \t2\t''",
        "runid                 \tall\tr",
        "num_q                 \tall\t2",
        "gm_map                \tall\t0.0027",        # AP 0.75 and 0 (as 0.00001)
        "P_5                   \tall\t0.2000"]
    assert math.sqrt((1 / 1 + 2 / 4) / 2 * 0.00001) == pytest.approx(0.0027, abs=5e-5)
