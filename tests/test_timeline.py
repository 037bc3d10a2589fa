"""TTG cluster metrics, cluster files, ARI and the TTG simulator."""

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import adjusted_rand_score

from evalkit import io, simulate, stats, timeline, ttg
from evalkit.errors import InputError

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
    tidy = timeline.score_runs(runs, timeline.cluster_table(clusters, q))
    got = tidy.set_index(["run", "topic", "metric"])["value"]
    for (run, topic), g in runs.groupby(["run", "topic"]):
        want = timeline.cluster_scores(g.doc, clusters[topic], grades)
        for m, v in want.items():
            assert got[(run, topic, m)] == pytest.approx(v)
    assert (got.xs("3", level="topic") == 0).all()


def test_ari_equals_sklearn_and_ignores_label_names():
    rng = np.random.default_rng(1)
    for _ in range(20):
        a, b = rng.integers(0, 5, 40), rng.integers(0, 7, 40)
        assert stats.adjusted_rand_index(a, b) == pytest.approx(adjusted_rand_score(a, b))
        renamed = np.array([f"L{x * 7 % 5}" for x in a])
        assert stats.adjusted_rand_index(renamed, b) == pytest.approx(stats.adjusted_rand_index(a, b))
    with pytest.raises(InputError, match="label 2 and 3"):
        stats.adjusted_rand_index([1, 2], [1, 2, 3])


def _write(tmp_path, body, name="c.json"):
    path = tmp_path / name
    path.write_text(body if isinstance(body, str) else json.dumps(body))
    return path


def test_cluster_file_round_trip_and_topic_names(tmp_path):
    q = pd.DataFrame({"topic": ["171"] * 3, "doc": ["11", "12", "13"], "grade": [1, 2, 1]})
    path = _write(tmp_path, {"topics": {"MB171": {"clusters": [[11, 12], [13]]}}})
    clusters = io.read_clusters(path, q)
    assert clusters == {"171": [["11", "12"], ["13"]]}
    io.write_clusters(clusters, tmp_path / "again.json")
    assert io.read_clusters(tmp_path / "again.json", q) == clusters


@pytest.mark.parametrize(
    "body, message",
    [
        ({"topics": {"MB171": {"clusters": [[11, 12], [12]]}}}, "tweet 12 is in clusters 0 and 1"),
        ({"topics": {"MB171": {"clusters": [[11, 99]]}}}, "99 is not judged relevant"),
        ({"topics": {"MB171": {"clusters": [11]}}}, "list of lists"),
        ({"topics": []}, '"topics" object'),
        ({"topics": {"MB171": {"clusters": [[None]]}}}, "bad tweet id"),
        ('{"topics": {"MB171": {"clusters": [[11,]]}}}', "malformed JSON"),
        ("[" * 100000 + "]" * 100000, "nested too deeply"),
    ],
)
def test_bad_cluster_files(tmp_path, body, message):
    q = pd.DataFrame({"topic": ["171"] * 3, "doc": ["11", "12", "13"], "grade": [1, 2, 0]})
    with pytest.raises(InputError, match=message) as info:
        io.read_clusters(_write(tmp_path, body), q)
    assert str(tmp_path) in str(info.value)


def test_malformed_json_names_line_and_column(tmp_path):
    path = _write(tmp_path, '{"topics":\n {"MB171": {"clusters": [[1,]]}}}')
    with pytest.raises(InputError) as info:
        io.read_clusters(path)
    assert info.value.line == 2 and "column" in str(info.value)


def test_snowflake_ids_round_trip():
    rng = np.random.default_rng(0)
    ms = rng.integers(1359676800000, 1364774399000, 100)
    assert (simulate.tweet_time_ms(simulate.snowflake_id(ms, rng)) == ms).all()


def test_ttg_simulator_calibration():
    qrels, latent = simulate.ttg_pool(2015)
    rng = np.random.default_rng(1)
    merge_o, merge_a = simulate.TTG_DEFAULTS["merge"]
    off = simulate.ttg_clusters(latent, merge_o, rng)
    alt = simulate.ttg_clusters(latent, merge_a, rng)
    ari = ttg.topic_ari(off, alt)
    assert len(ari) == 55
    assert abs(ari.mean() - 0.445) <= 0.05 and abs(ari.median() - 0.492) <= 0.05
    assert 0.15 <= ari.std(ddof=1) <= 0.30
    n_off = np.mean([len(v) for v in off.values()])
    n_alt = np.mean([len(v) for v in alt.values()])
    assert 80 <= n_off <= 98 and 65 <= n_alt <= 81 and n_off > n_alt
    assert 170 <= (qrels.grade > 0).sum() / 55 <= 215
    sizes = np.array([len(c) for v in off.values() for c in v])
    assert (sizes == 1).mean() > 0.5  # most clusters are singletons


def test_ttg_simulator_is_deterministic(tmp_path):
    targets = pd.read_csv(simulate.__file__.replace("evalkit/simulate.py", "")
                          + "data/published/wang2015_ttg_official_scores.csv").head(4)
    for name in ("a", "b"):
        simulate.simulate_ttg(tmp_path / name, seed=3, targets=targets, n_topics=3)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert len(files) == 3 + 4
    for f in files:
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()
    world = ttg.load_world(tmp_path / "a")
    assert world.runs.run.nunique() == 4
