"""Paired differences of agreement (evalkit.stats.paired_agreement) against the krippendorff
package, scikit-learn, and loops written from the definitions."""

import numpy as np
import pytest

from evalkit.stats import paired_agreement as pa
from evalkit.stats.confusion_agreement import alpha_from_confusion, kappa_from_confusion

krippendorff = pytest.importorskip("krippendorff")
metrics = pytest.importorskip("sklearn.metrics")

STATISTICS = [("alpha", "ordinal"), ("alpha", "interval"), ("alpha", "nominal"), ("kappa", None),
              ("kappa", "linear"), ("kappa", "quadratic")]


def _world(seed, topics=6, docs=15, k=4, judges=3):
    """Labels on ``topics x docs`` items: a reference and ``judges`` noisy copies of it."""
    rng = np.random.default_rng(seed)
    ref = rng.integers(0, k, (topics, docs))
    noise = [0.2, 0.5, 0.8][:judges]
    out = [np.where(rng.random(ref.shape) < q, rng.integers(0, k, ref.shape), ref) for q in noise]
    return ref, out


def _stack(ref, judged, k):
    """``(J, T, K, K)`` per-topic confusion matrices (reference grade x judge grade)."""
    stack = np.zeros((len(judged), ref.shape[0], k, k))
    for j, g in enumerate(judged):
        for t in range(ref.shape[0]):
            np.add.at(stack[j, t], (ref[t], g[t]), 1.0)
    return stack


def _independent(family, kind, ref, grades, k):
    """The statistic of two raters' labels from the krippendorff package or scikit-learn."""
    if family == "alpha":
        return krippendorff.alpha(reliability_data=np.vstack([ref, grades]).astype(float),
                                  level_of_measurement=kind, value_domain=list(range(k)))
    return metrics.cohen_kappa_score(ref, grades, labels=list(range(k)), weights=kind)


@pytest.mark.parametrize("family, kind", STATISTICS)
def test_the_observed_difference_is_the_packages_difference(family, kind):
    ref, judged = _world(1)
    k = 4
    code, w = pa.statistic_code(family, kind, np.arange(k))
    a, b = np.triu_indices(3, 1)
    ones = np.ones((1, ref.shape[0]))
    got = pa.paired_differences(_stack(ref, judged, k), a, b, ones, 0 * ones, code, w)[0]
    value = [_independent(family, kind, ref.ravel(), g.ravel(), k) for g in judged]
    assert got == pytest.approx([value[i] - value[j] for i, j in zip(a, b)], abs=1e-12)


@pytest.mark.parametrize("family, kind", STATISTICS)
def test_compiled_and_numpy_give_the_same_bits(family, kind):
    pytest.importorskip("numba")
    rng = np.random.default_rng(7)
    stack = rng.integers(0, 9, (5, 11, 4, 4)).astype(float)
    stack[2, :, 0, :] = 0.0                          # a grade the reference never gave
    a, b = np.triu_indices(5, 1)
    code, w = pa.statistic_code(family, kind, np.array([0, 1, 3, 7]))
    for u, v in [(rng.integers(0, 3, (300, 11)).astype(float), np.zeros((300, 11))),
                 (lambda s: (1.0 - s, s))(pa.topic_swaps(11, 300, 4).astype(float))]:
        fast = pa.paired_differences(stack, a, b, u, v, code, w, compiled=True)
        slow = pa.paired_differences(stack, a, b, u, v, code, w, compiled=False)
        assert fast.tobytes() == slow.tobytes()


@pytest.mark.parametrize("family, kind", [("alpha", "ordinal"), ("kappa", "quadratic")])
def test_resampled_differences_are_the_statistics_of_the_weighted_sums(family, kind):
    # A_r = sum_t u M_a + v M_b, B_r = sum_t v M_a + u M_b, by the confusion functions
    rng = np.random.default_rng(3)
    stack = rng.integers(0, 6, (3, 7, 3, 3)).astype(float)
    u, v = rng.random((20, 7)), rng.random((20, 7))
    code, w = pa.statistic_code(family, kind, np.arange(3))
    got = pa.paired_differences(stack, [0, 1], [2, 0], u, v, code, w)
    f = alpha_from_confusion if family == "alpha" else kappa_from_confusion
    for r in range(20):
        for p, (i, j) in enumerate([(0, 2), (1, 0)]):
            a = np.tensordot(u[r], stack[i], 1) + np.tensordot(v[r], stack[j], 1)
            b = np.tensordot(v[r], stack[i], 1) + np.tensordot(u[r], stack[j], 1)
            assert got[r, p] == pytest.approx(f(a, np.arange(3), kind) - f(b, np.arange(3), kind),
                                              abs=1e-12)


def _slow_p(ref, ga, gb, trials, seed, k, family="alpha", kind="ordinal"):
    """The paired randomisation test from its definition, on the labels themselves.

    Trial r swaps the labels of a and b on topic t when s[r, t] = 1, the swaps drawn as
    evalkit's docstring says (numpy's default_rng on SeedSequence(seed, spawn_key=(1,)),
    integers 0..1 of shape (trials, topics)); the statistic is the package's on all items.
    """
    def diff(x, y):
        return (_independent(family, kind, ref.ravel(), x.ravel(), k)
                - _independent(family, kind, ref.ravel(), y.ravel(), k))

    observed = diff(ga, gb)
    swaps = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,))).integers(
        0, 2, (trials, ref.shape[0]))
    hits = 0
    for s in swaps:
        flip = s[:, None].astype(bool)
        hits += abs(diff(np.where(flip, gb, ga), np.where(flip, ga, gb))) >= abs(observed) - 1e-12
    return observed, (hits + 1) / (trials + 1)


@pytest.mark.parametrize("family, kind", [("alpha", "ordinal"), ("kappa", None)])
def test_the_randomisation_test_is_the_slow_loop_with_the_same_swaps(family, kind):
    ref, judged = _world(4, topics=8, docs=12)
    code, w = pa.statistic_code(family, kind, np.arange(4))
    stack = _stack(ref, judged, 4)
    a, b = np.array([0, 0, 1]), np.array([1, 2, 2])
    observed, p = pa.randomisation_p_values(stack, a, b, code, w, 150, seed=9)
    for q, (i, j) in enumerate(zip(a, b)):
        want_d, want_p = _slow_p(ref, judged[i], judged[j], 150, 9, 4, family, kind)
        assert observed[q] == pytest.approx(want_d, abs=1e-12)
        assert p[q] == want_p


def test_exchangeable_judges_give_p_one_and_a_clear_difference_the_smallest_p():
    ref, (good, _, bad) = _world(2, topics=10, docs=20)
    code, w = pa.statistic_code("alpha", "ordinal", np.arange(4))
    stack = _stack(ref, [good, good.copy(), bad], 4)
    observed, p = pa.randomisation_p_values(stack, [0, 0], [1, 2], code, w, 999, seed=1)
    assert observed[0] == 0.0 and p[0] == 1.0                 # every trial reaches |0|
    assert observed[1] > 0.3 and p[1] == pytest.approx(1 / 1000)


def test_swaps_are_seeded_fair_coins():
    s = pa.topic_swaps(25, 4000, seed=3)
    assert s.shape == (4000, 25) and set(np.unique(s)) == {0, 1}
    assert abs(s.mean() - 0.5) < 4 * np.sqrt(0.25 / s.size)
    assert (pa.topic_swaps(25, 4000, seed=3) == s).all() and (pa.topic_swaps(25, 4000, 4) != s).any()
    with pytest.raises(Exception, match="trials"):
        pa.topic_swaps(5, 0, 1)
