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
        pd.testing.assert_frame_equal(tidy, _score_runs_one_table(runs, timeline.cluster_table(cl, q)))


def _score_runs_one_table(runs, table):
    """The one-table scorer RunScorer replaced (commit 3f2999a), kept as the reference."""
    topics = np.array(sorted(table["topic"].unique()), dtype=object)
    run_names = np.array(sorted(runs["run"].unique()), dtype=object)
    n_t, n_r = topics.size, run_names.size
    r = runs[runs["topic"].isin(set(topics))]
    t_code = pd.Index(topics).get_indexer(r["topic"])
    r_code = pd.Index(run_names).get_indexer(r["run"])
    cell = r_code * n_t + t_code
    returned = np.bincount(cell, minlength=n_r * n_t)
    # global cluster ids, their topic and weight
    gid = np.unique(table["topic"].astype(str) + "\x1f" + table["cluster"].astype(str),
                    return_inverse=True)[1]
    n_g = int(gid.max()) + 1 if gid.size else 0
    g_weight = np.zeros(n_g)
    g_weight[gid] = table["weight"].to_numpy()
    g_topic = np.zeros(n_g, dtype=np.int64)
    g_topic[gid] = pd.Index(topics).get_indexer(table["topic"])
    pos = _lookup_one_table(table.topic, table.doc, r["topic"], r["doc"])
    found = pos >= 0
    combos = np.unique(cell[found].astype(np.int64) * n_g + gid[pos[found]])
    hit_cell, hit_g = combos // max(n_g, 1), combos % max(n_g, 1)
    hits = np.bincount(hit_cell, minlength=n_r * n_t).reshape(n_r, n_t)
    hit_w = np.bincount(hit_cell, weights=g_weight[hit_g], minlength=n_r * n_t).reshape(n_r, n_t)
    clusters = np.bincount(g_topic, minlength=n_t)
    total_w = np.bincount(g_topic, weights=g_weight, minlength=n_t)
    returned = returned.reshape(n_r, n_t)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(returned > 0, hits / np.maximum(returned, 1), 0.0)
    recall = hits / clusters
    weighted = hit_w / total_w
    values = {"precision": precision, "recall": recall, "weighted_recall": weighted,
              "f1": timeline.f1_score(precision, recall), "weighted_f1": timeline.f1_score(precision, weighted)}
    frames = [pd.DataFrame({"run": np.repeat(run_names, n_t), "topic": np.tile(topics, n_r),
                            "metric": m, "value": v.ravel()}) for m, v in values.items()]
    return pd.concat(frames, ignore_index=True)


def _lookup_one_table(topic_a, doc_a, topic_b, doc_b):
    na = len(topic_a)
    t_codes, _ = pd.factorize(np.concatenate([np.asarray(topic_a, dtype=object),
                                              np.asarray(topic_b, dtype=object)]))
    d_codes, uniq = pd.factorize(np.concatenate([np.asarray(doc_a, dtype=object),
                                                 np.asarray(doc_b, dtype=object)]))
    key = t_codes.astype(np.int64) * (len(uniq) + 1) + d_codes
    return pd.Index(key[:na]).get_indexer(key[na:])


def test_run_scorer_equals_the_one_table_scorer_it_replaced_missing_ids_included():
    rng = np.random.default_rng(3)
    q = pd.DataFrame([(t, f"{t}-{i}", int(rng.integers(0, 3))) for t in ("1", "2", "3") for i in range(25)]
                     + [("1", "1-never-returned", 2)], columns=["topic", "doc", "grade"])
    # topic "9" is in no cluster file; "2" is the runs' last topic, "1" their first
    rows = [(f"r{r}", t, d) for r in range(5) for t in ("1", "9", "2")
            for d in rng.choice([f"{t}-{i}" for i in range(25)] + ["junk"], size=8, replace=False)]
    # a row without a topic is ignored; rows without a tweet id count as returned, match nothing
    rows += [("r0", float("nan"), "2-3"), ("r1", "1", float("nan")), ("r2", "2", None)]
    runs = pd.DataFrame(rows, columns=["run", "topic", "doc"])
    scorer = timeline.RunScorer(runs)
    for seed in range(4):
        labels = np.random.default_rng(seed).integers(0, 6, len(q))
        clusters = {t: [list(q.doc[(q.topic == t).to_numpy() & (labels == c)]) for c in range(6)
                        if ((q.topic == t).to_numpy() & (labels == c)).any()] for t in ("1", "2", "3")}
        clusters["1"].insert(0, clusters["1"].pop(next(i for i, c in enumerate(clusters["1"])
                                                        if "1-never-returned" in c)))
        clusters["1"][0].sort(key=lambda d: d != "1-never-returned")   # the table's first row
        table = timeline.cluster_table(clusters, q)
        assert table.doc.iloc[0] == "1-never-returned"
        got, want = scorer(table), _score_runs_one_table(runs, table)
        pd.testing.assert_frame_equal(got, want)
