"""Wang §3–4: whole simulated worlds for the claims' draws.

Draw 0 is the committed world scored without files (the same numbers as the
file path); draws 1..R-1 come from a lighter generator, checked here against
the original generator's distributions (two-sample Kolmogorov-Smirnov tests
on many draws, and exact equality where the two share their random numbers).
"""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import ks_2samp

from evalkit.measures import timeline
from evalkit.papers.wang2015_assessor_differences import draws as wd, fastworld, light
from evalkit.paths import PUBLISHED
from evalkit.simulate import ttg as sim
from evalkit.stats.agreement import adjusted_rand_index

TARGETS = pd.read_csv(PUBLISHED / "wang2015_ttg_official_scores.csv")


def _small_world(seed, n_topics=4):
    rng = np.random.default_rng(seed)
    qrels, latent = sim.ttg_pool(rng, n_topics=n_topics)
    return qrels, latent, rng


def test_run_hits_makes_ttg_runs_random_calls_and_scores_as_the_files_do():
    qrels, latent, _ = _small_world(3)
    targets = TARGETS.head(12)
    r1, r2 = np.random.default_rng(4), np.random.default_rng(4)
    runs = sim.ttg_runs(qrels, latent, targets, r1)
    names, returned, cell, tweet = fastworld.run_hits(qrels, latent, targets, r2)
    assert r1.random() == r2.random()                     # the stream is left where ttg_runs leaves it
    assert returned.sum() == len(runs)
    labels = sim.ttg_labels(latent, 0.24, np.random.default_rng(5))
    clusters = sim.ttg_clusters(latent, 0.24, np.random.default_rng(5))
    by_file = timeline.run_means(timeline.score_runs(runs, timeline.cluster_table(clusters, qrels)))
    topics = sorted(latent)
    docs = np.concatenate([latent[t]["docs"] for t in topics])
    topic = np.repeat(np.array(topics, dtype=object), [latent[t]["docs"].size for t in topics])
    grade = qrels["grade"].to_numpy()[timeline.pair_positions(qrels.topic, qrels.doc, topic, docs)]
    order = np.argsort(names, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    n_t = len(topics)
    world = fastworld.World(latent, labels, labels, grade.astype(float), names[order], returned[order],
                            rank[cell // n_t] * n_t + cell % n_t, tweet, {})
    pd.testing.assert_frame_equal(world.score(labels), by_file, check_names=False, atol=1e-12, rtol=0)


def test_draw_0_is_the_committed_world():
    table = wd.whole_worlds(1, 2015).table.set_index("world").loc["default"]
    # figures/wang2015/table1.csv: weighted F1 113 swaps, tau 0.8155; ari_vs_published.csv: mean 0.469
    assert table.swaps_weighted_f1 == 113 and table.tau_weighted_f1 == pytest.approx(0.8155, abs=1e-4)
    assert table.ari_mean == pytest.approx(0.4694, abs=1e-4)
    assert table.relevant_per_topic == pytest.approx(190.7, abs=0.05)


def test_the_compiled_crp_is_the_original_given_the_same_uniforms():
    _, latent, _ = _small_world(8, n_topics=3)
    for seed, t in enumerate(sorted(latent)):
        times = np.sort(sim.tweet_time_ms(latent[t]["docs"].astype(np.int64))).astype(float)
        tau = sim.TTG_DEFAULTS["burst_days"] * 86400000.0
        original = sim._crp(times, 19.0, tau, np.random.default_rng(seed))
        compiled = light.crp(times, 19.0, tau, np.random.default_rng(seed).random(times.size))
        np.testing.assert_array_equal(original, compiled)


def test_topic_aris_equal_the_per_topic_ari():
    _, latent, rng = _small_world(11, n_topics=5)
    a, b = sim.ttg_labels(latent, 0.03, rng), sim.ttg_labels(latent, 0.24, rng)
    expected = [adjusted_rand_index(a[t], b[t]) for t in sorted(a)]
    np.testing.assert_allclose(wd.topic_aris(a, b), expected, rtol=0, atol=1e-12)
    assert (wd.topic_aris(a, a) == 1.0).all()


def _clusters_stats(fn, units, n, seed, **kw):
    rng = np.random.default_rng(seed)
    out = [fn(units, 0.24, 0.3, rng, **kw) for _ in range(n)]
    return np.array([x.max() + 1 for x in out]), np.array([np.bincount(x).max() for x in out])


@pytest.mark.parametrize("bias", [1.0, -1.0])
def test_the_light_assessor_has_the_original_distribution(bias):
    units = np.repeat(np.arange(40), np.r_[np.full(5, 30), np.ones(35, int)])   # 5 big units, 35 singletons
    n_a, big_a = _clusters_stats(sim.assessor_clusters, units, 400, 1, merge_size_bias=bias)
    n_b, big_b = _clusters_stats(light.assessor, units, 400, 2, merge_size_bias=bias)
    assert ks_2samp(n_a, n_b).pvalue > 1e-3 and ks_2samp(big_a, big_b).pvalue > 1e-3
    assert abs(n_a.mean() - n_b.mean()) < 4 * np.hypot(n_a.std(), n_b.std()) / np.sqrt(400)


def test_the_light_assessor_pairs_its_variants():
    units = np.repeat(np.arange(40), np.r_[np.full(5, 30), np.ones(35, int)])
    r1, r2 = np.random.default_rng(3), np.random.default_rng(3)
    low = light.assessor(units, 0.24, 0.1, r1)
    high = light.assessor(units, 0.24, 0.3, r2, merge_size_bias=0.0)
    assert r1.random() == r2.random()                     # the same draws whatever the knobs
    assert light.assessor(units, 0.24, 0.0, np.random.default_rng(3)).max() + 1 <= 40
    assert low.size == high.size == units.size


def test_the_light_pool_has_the_original_distribution():
    exact = [sim.ttg_pool(np.random.default_rng(s), n_topics=8) for s in range(40)]
    lite = [light.pool(np.random.default_rng(100 + s), {"n_topics": 8}) for s in range(40)]
    rel_a = np.concatenate([[lt["docs"].size for lt in x[1].values()] for x in exact])
    rel_b = np.concatenate([[lt["docs"].size for lt in x[0].values()] for x in lite])
    units_a = np.concatenate([[lt["units"].max() + 1 for lt in x[1].values()] for x in exact])
    units_b = np.concatenate([[lt["units"].max() + 1 for lt in x[0].values()] for x in lite])
    grade_a = np.concatenate([x[0][x[0].grade > 0].grade.to_numpy() for x in exact])
    for a, b in ((rel_a, rel_b), (units_a, units_b)):
        assert ks_2samp(a, b).pvalue > 1e-3
    assert abs((grade_a == 2).mean() - (np.concatenate([x[1] for x in lite]) == 2).mean()) < 0.02


def test_the_light_runs_have_the_original_distribution():
    qrels, latent, _ = _small_world(21, n_topics=4)
    targets = TARGETS.head(12)
    nonrel = qrels[qrels.grade == 0].groupby("topic").size().to_dict()
    stats = {"exact": [], "light": []}
    for s in range(120):
        a = fastworld.run_hits(qrels, latent, targets, np.random.default_rng(s))
        b = light.runs(latent, nonrel, targets, np.random.default_rng(1000 + s))
        for name, (_, returned, cell, _) in (("exact", a), ("light", b)):
            stats[name].append((returned.mean(), cell.size / returned.size))
    ea, la = np.array(stats["exact"]), np.array(stats["light"])
    for j in range(2):                                  # tweets returned per cell, relevant ones per cell
        assert ks_2samp(ea[:, j], la[:, j]).pvalue > 1e-3


def test_light_worlds_score_like_the_committed_generators_worlds():
    """Whole worlds: the two generators' mean scores and weighted-F1 tau agree within their spread."""
    rows = []
    for s in range(4):
        for name, make in (("exact", fastworld.draw_world), ("light", light.light_world)):
            w = make(np.random.default_rng(50 + s), TARGETS)
            o = w.score(w.official)
            rows.append({"gen": name, "precision": o.precision.mean(), "recall": o.recall.mean()})
    t = pd.DataFrame(rows).groupby("gen").mean()
    assert abs(t.loc["exact", "precision"] - t.loc["light", "precision"]) < 0.02
    assert abs(t.loc["exact", "recall"] - t.loc["light", "recall"]) < 0.02


def test_the_light_labels_treat_every_topic_apart():
    _, latent, _ = _small_world(13, n_topics=6)
    # no lumping, no re-judging: each topic's labels are its latent units (numbered by first tweet)
    same = light.labels(latent, 0.0, np.random.default_rng(1), level=0.0)
    for t in latent:
        np.testing.assert_array_equal(same[t], latent[t]["units"])
    # lumping and re-judging: per topic the original's distribution of clusters and largest cluster
    exact = [sim.ttg_labels(latent, 0.24, np.random.default_rng(s)) for s in range(150)]
    lite = [light.labels(latent, 0.24, np.random.default_rng(500 + s)) for s in range(150)]
    for t in sorted(latent)[:3]:
        for stat in (lambda x: x.max() + 1, lambda x: np.bincount(x).max()):
            a, b = [stat(x[t]) for x in exact], [stat(x[t]) for x in lite]
            assert ks_2samp(a, b).pvalue > 1e-3, t
        labs = lite[0][t]
        first = np.unique(labs, return_index=True)[1]
        assert list(np.argsort(first)) == list(range(labs.max() + 1))      # numbered by first appearance
