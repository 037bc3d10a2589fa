"""Two raters' alpha and kappa from their confusion matrix, against krippendorff and scikit-learn."""

import numpy as np
import pytest

from evalkit.errors import ParameterError
from evalkit.stats.confusion_agreement import (alpha_from_confusion, binary_confusion,
                                               kappa_from_confusion, percentile_interval,
                                               topic_bootstrap)


def _pair(seed, n=200, k=4, noise=0.4):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < noise, rng.integers(0, k, n), a)
    return a, b


def _confusion(a, b, k):
    c = np.zeros((k, k))
    np.add.at(c, (a, b), 1)
    return c


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_alpha_equals_the_krippendorff_package(seed, level):
    krippendorff = pytest.importorskip("krippendorff")
    a, b = _pair(seed)
    values = np.arange(1, 5)          # grades 1..4: interval differences are the grades'
    expected = krippendorff.alpha(reliability_data=np.vstack([a + 1, b + 1]).astype(float),
                                  level_of_measurement=level)
    assert alpha_from_confusion(_confusion(a, b, 4), values, level) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_kappa_equals_scikit_learn(seed, weights):
    metrics = pytest.importorskip("sklearn.metrics")
    a, b = _pair(seed, k=5)
    a = np.where(a == 3, 4, a)        # grade 3 never used: weights are on the whole scale 0..4
    b = np.where(b == 3, 4, b)
    expected = metrics.cohen_kappa_score(a, b, labels=list(range(5)), weights=weights)
    got = kappa_from_confusion(_confusion(a, b, 5), np.arange(5), weights)
    assert got == pytest.approx(expected, abs=1e-12)


def test_a_stack_gives_each_matrix_its_own_value():
    pairs = [_pair(s) for s in range(3)]
    stack = np.stack([_confusion(a, b, 4) for a, b in pairs])
    for level in ("ordinal", "interval"):
        alone = [alpha_from_confusion(c, np.arange(4), level) for c in stack]
        assert np.allclose(alpha_from_confusion(stack, np.arange(4), level), alone)
    assert np.allclose(kappa_from_confusion(stack, np.arange(4), "linear"),
                       [kappa_from_confusion(c, np.arange(4), "linear") for c in stack])


def test_binary_confusion_counts_grades_at_or_above_the_cut():
    a, b = _pair(7)
    got = binary_confusion(_confusion(a, b, 4), np.arange(4), 2)
    assert np.array_equal(got, _confusion((a >= 2).astype(int), (b >= 2).astype(int), 2))


def test_one_grade_only_is_undefined():
    c = np.array([[5.0, 0], [0, 0]])
    assert np.isnan(alpha_from_confusion(c, [0, 1], "nominal"))
    assert np.isnan(kappa_from_confusion(c, [0, 1]))
    assert np.isnan(kappa_from_confusion(np.zeros((2, 2)), [0, 1]))


def test_topic_bootstrap_weights_are_counts_of_draws_from_the_seed():
    w = topic_bootstrap(5, 40, seed=3)
    draws = np.random.default_rng(3).integers(0, 5, size=(40, 5))
    assert w.shape == (40, 5) and (w.sum(axis=1) == 5).all()
    assert np.array_equal(w[7], np.bincount(draws[7], minlength=5))
    assert np.array_equal(w, topic_bootstrap(5, 40, seed=3))
    with pytest.raises(ParameterError):
        topic_bootstrap(5, 0, seed=3)


def test_percentile_interval_is_numpy_quantile_of_the_defined_replicates():
    x = np.array([[1.0, np.nan], [2.0, np.nan], [np.nan, np.nan], [4.0, np.nan], [3.0, np.nan]])
    low, high = percentile_interval(x)
    assert low[0] == pytest.approx(np.quantile([1, 2, 3, 4], 0.025))
    assert high[0] == pytest.approx(np.quantile([1, 2, 3, 4], 0.975))
    assert np.isnan(low[1]) and np.isnan(high[1])
