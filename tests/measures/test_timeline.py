"""TTG cluster metrics (TREC 2014): hand-worked topics and the batch scorer."""

import numpy as np
import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.measures import timeline

CLUSTERS = [["a", "b"], ["c"], ["d"]]


GRADES = {"a": 1, "b": 2, "c": 2, "d": 1}   # weights 3, 2, 1 (total 6)


def test_redundant_nonrelevant_and_unjudged_tweets_cost_precision():
    # a and b share a cluster (b is redundant); x non-relevant; u unjudged
    s = timeline.cluster_scores(["a", "b", "x", "u"], CLUSTERS, GRADES)
    assert s["precision"] == pytest.approx(1 / 4)
    assert s["recall"] == pytest.approx(1 / 3)
    assert s["weighted_recall"] == pytest.approx(3 / 6)
    assert s["f1"] == pytest.approx(2 / 7)
    assert s["weighted_f1"] == pytest.approx(1 / 3)


def test_weights_favour_highly_relevant_clusters():
    # c (weight 2) vs d (weight 1): same unweighted scores, different weighted recall
    c = timeline.cluster_scores(["c"], CLUSTERS, GRADES)
    d = timeline.cluster_scores(["d"], CLUSTERS, GRADES)
    assert c["recall"] == d["recall"] == pytest.approx(1 / 3)
    assert (c["weighted_recall"], d["weighted_recall"]) == (pytest.approx(2 / 6), pytest.approx(1 / 6))


def test_perfect_and_empty_runs():
    best = timeline.cluster_scores(["a", "c", "d"], CLUSTERS, GRADES)
    assert all(v == pytest.approx(1.0) for v in best.values())
    empty = timeline.cluster_scores([], CLUSTERS, GRADES)
    assert all(v == 0.0 for v in empty.values())
    with pytest.raises(InputError, match="twice"):
        timeline.cluster_scores(["a", "a"], CLUSTERS, GRADES)


def test_batch_scores_equal_single_topic_scores():
    rng = np.random.default_rng(0)
    clusters, rows, qrels = {}, [], []
    for t in ("1", "2", "3"):
        docs = [f"{t}-{i}" for i in range(30)]
        labels = rng.integers(0, 8, 30)
        clusters[t] = [[d for d, l in zip(docs, labels) if l == c] for c in range(8) if (labels == c).any()]
        qrels += [(t, d, int(rng.integers(1, 3))) for d in docs] + [(t, f"{t}-n{i}", 0) for i in range(5)]
    q = pd.DataFrame(qrels, columns=["topic", "doc", "grade"])
    grades = dict(zip(q.doc, q.grade))
    for r in range(4):
        for t in ("1", "2"):  # topic 3 missing from every run -> empty
            pool = list(q[q.topic == t].doc) + [f"unjudged-{t}-{r}"]
            picks = rng.choice(pool, size=int(rng.integers(1, 15)), replace=False)
            rows += [(f"r{r}", t, d) for d in picks]
    runs = pd.DataFrame(rows, columns=["run", "topic", "doc"])
    scorer = timeline.RunScorer(runs)   # one scorer, two cluster files (as the worlds use it)
    regrouped = {t: [sum(cl, [])[::-1]] for t, cl in clusters.items()}
    for cl in (clusters, regrouped):
        tidy = scorer(timeline.cluster_table(cl, q))
        got = tidy.set_index(["run", "topic", "metric"])["value"]
        for (run, topic), g in runs.groupby(["run", "topic"]):
            want = timeline.cluster_scores(g.doc, cl[topic], grades)
            for m, v in want.items():
                assert got[(run, topic, m)] == pytest.approx(v)
        assert (got.xs("3", level="topic") == 0).all()
        assert tidy.equals(timeline.score_runs(runs, timeline.cluster_table(cl, q)))
