"""Simulators: determinism, shape of the STC-like collection, Sakai's rating model."""

import hashlib

import numpy as np
import pytest

from evalkit.errors import ParameterError
from evalkit.formats import trec
from evalkit.simulate import stc as sim_stc


def _digest(folder):
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(path.relative_to(folder).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def test_same_seed_same_bytes(tmp_path):
    kw = dict(n_topics=5, n_teams=3, n_runs=5, candidates=30)
    sim_stc.simulate_stc_collection(tmp_path / "a", seed=1, **kw)
    sim_stc.simulate_stc_collection(tmp_path / "b", seed=1, **kw)
    sim_stc.simulate_stc_collection(tmp_path / "c", seed=2, **kw)
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b")
    assert _digest(tmp_path / "a") != _digest(tmp_path / "c")


def test_default_collection_shape(tmp_path):
    sim_stc.simulate_stc_collection(tmp_path, seed=2017)
    qrels = trec.read_qrels(tmp_path / "qrels.txt")
    runs = trec.read_runs(tmp_path / "runs", qrels)
    assert qrels["topic"].nunique() == 100
    assert set(qrels["grade"]) == {0, 1, 2}
    assert runs["run"].nunique() == 44
    assert runs["run"].str.split("-").str[0].nunique() == 16
    assert runs.groupby(["run", "topic"]).size().eq(10).all()
    # depth-10 pooling of top-10 runs: every retrieved post is judged
    judged = set(zip(qrels.topic, qrels.doc))
    assert all(key in judged for key in zip(runs.topic, runs.doc))


def test_team_runs_are_more_alike_than_other_runs(tmp_path):
    sim_stc.simulate_stc_collection(tmp_path, seed=3, n_topics=30)
    runs = trec.read_runs(tmp_path / "runs")
    sets = {r: set(zip(g.topic, g.doc)) for r, g in runs.groupby("run")}
    same, other = [], []
    names = sorted(sets)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            overlap = len(sets[a] & sets[b]) / len(sets[a])
            (same if a.split("-")[0] == b.split("-")[0] else other).append(overlap)
    assert np.mean(same) > np.mean(other) + 0.1


def test_simulated_ratings_follow_sakai():
    grades = np.array([0, 1, 2] * 2000)
    r = sim_stc.simulate_ratings(grades, 5, 2, seed=0)
    assert r.shape == (6000, 5)
    assert (r[grades == 0] == 0).all()
    rel = r[grades > 0]
    # uniform on {0, 1, 2}: each value about one third
    np.testing.assert_allclose(np.bincount(rel.ravel()) / rel.size, [1 / 3] * 3, atol=0.01)
    np.testing.assert_array_equal(r, sim_stc.simulate_ratings(grades, 5, 2, seed=0))


def test_bad_simulator_parameters(tmp_path):
    with pytest.raises(ParameterError, match="n_assessors"):
        sim_stc.simulate_ratings([1], 0, 2, seed=0)
    with pytest.raises(ParameterError, match="seed"):
        sim_stc.simulate_ratings([1], 3, 2, seed=1.5)
    with pytest.raises(ParameterError, match="overrides"):
        sim_stc.simulate_stc_collection(tmp_path, seed=0, n_topic=3)
    with pytest.raises(ParameterError, match="n_runs"):
        sim_stc.simulate_stc_collection(tmp_path, seed=0, n_runs=3)


def test_subsample_keeps_n_of_each_items_own_ratings_and_skips_missing():
    nan = np.nan
    ratings = np.array([[0, 1, 2, 3, 4], [10, 11, 12, nan, nan], [5, 5, 5, 5, 5]], float)
    a = sim_stc.subsample_assessors(ratings, 4, seed=7)
    assert a.shape == (3, 4)
    # row 0: four distinct columns of 0..4; row 1: its three ratings and one NaN; row 2: fives
    assert len(set(a[0])) == 4 and set(a[0]) <= {0, 1, 2, 3, 4}
    assert sorted(a[1][~np.isnan(a[1])]) == [10, 11, 12] and np.isnan(a[1]).sum() == 1
    assert (a[2] == 5).all()
    np.testing.assert_array_equal(a, sim_stc.subsample_assessors(ratings, 4, seed=7))
    with pytest.raises(ParameterError, match="at most the 5"):
        sim_stc.subsample_assessors(ratings, 6, seed=7)


def test_fixed_sum_ratings_by_hand():
    raw = np.array([13, 13, 1, 20, 10, 19, 0, 2])
    agree = sim_stc.fixed_sum_ratings(raw, 10, 2, False)
    split = sim_stc.fixed_sum_ratings(raw, 10, 2, True)
    np.testing.assert_array_equal(agree.sum(axis=1), raw)
    np.testing.assert_array_equal(split.sum(axis=1), raw)          # RawG is never changed
    assert sorted(agree[0]) == [1] * 7 + [2] * 3                    # 13 = 7 x 1 + 3 x 2, D = 1
    assert sorted(split[1]) == [0] + [1] * 5 + [2] * 4              # one 0, one 2, then 11 over 8
    spread = lambda m: m.max(axis=1) - m.min(axis=1)
    # D with unanimous ratings: 13 -> 1, 1 -> 1, 20 -> 0, 10 -> 0 (all ones), 19 -> 1, 0 -> 0, 2 -> 1
    assert spread(agree).tolist() == [1, 1, 1, 0, 0, 1, 0, 1]
    # D = 2 wherever 2 <= RawG <= 18; 1, 20, 19 and 0 cannot reach it
    assert spread(split).tolist() == [2, 2, 1, 0, 2, 1, 0, 2]


def test_shuffle_moves_relevant_rating_vectors_only():
    ratings = np.array([[0, 0, 0], [2, 2, 1], [0, 1, 2], [0, 0, 0], [1, 1, 1]])
    out = sim_stc.shuffle_relevant(ratings, seed=3)
    assert (out[[0, 3]] == 0).all()                                  # irrelevant rows stay put
    assert sorted(map(tuple, out[[1, 2, 4]])) == sorted(map(tuple, ratings[[1, 2, 4]]))
    outs = {tuple(map(tuple, sim_stc.shuffle_relevant(ratings, seed=s))) for s in range(20)}
    assert len(outs) > 1                                             # the seed changes the permutation
