"""Batched tau-b, tau_ap and top-k overlap (``evalkit assessors --reference``): hand-worked
cases, scipy's kendalltau, the scalar functions of ``rank_correlation``, and a brute force
over tie-breaks for the top-k overlap."""

import itertools

import numpy as np
import pytest
from scipy import stats as sps

from evalkit.errors import InputError, ParameterError
from evalkit.stats.confusion_agreement import topic_bootstrap
from evalkit.stats.leaderboard_agreement import (bootstrap_means, kendall_tau_b_many, tau_ap_many,
                                                 top_k_overlap_many)
from evalkit.stats.rank_correlation import kendall_tau, tau_ap


def test_tau_b_hand_worked():
    # one discordant pair of six: (5 - 1) / 6
    assert kendall_tau_b_many([1, 2, 3, 4], [1, 3, 2, 4])[0] == pytest.approx(4 / 6, abs=1e-15)
    # x ties runs 2 and 3, y ties runs 3 and 4: S = 4 concordant, 5 pairs untied in each -> 4/5
    assert kendall_tau_b_many([1, 2, 2, 3], [1, 2, 3, 3])[0] == pytest.approx(0.8, abs=1e-15)
    assert sps.kendalltau([1, 2, 2, 3], [1, 2, 3, 3]).statistic == pytest.approx(0.8, abs=1e-15)
    assert kendall_tau_b_many([4, 3, 2, 1], [1, 2, 3, 4])[0] == -1.0
    assert np.isnan(kendall_tau_b_many([1, 1, 1], [1, 2, 3])[0])      # a constant leaderboard


def test_tau_b_equals_scipy_and_the_scalar_row_by_row():
    rng = np.random.default_rng(4)
    x = rng.random((300, 9))
    y = x + rng.normal(0, 0.3, x.shape)
    x[:60], y[40:120] = np.round(x[:60], 1), np.round(y[40:120], 1)      # ties in either
    got = kendall_tau_b_many(x, y, block_elements=500)                  # several blocks
    want = [sps.kendalltau(a, b).statistic for a, b in zip(x, y)]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-14)
    np.testing.assert_array_equal(got, [kendall_tau(a, b).tau for a, b in zip(x, y)])


def test_float_sums_of_the_same_values_tie():
    # 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit; their runs tie
    a, b = (0.1 + 0.2) + 0.3, (0.3 + 0.2) + 0.1
    assert a != b
    x = np.array([[a, b, 0.9, 0.1]])
    assert kendall_tau_b_many(x, [[1.0, 1.0, 3.0, 0.0]])[0] == 1.0
    assert tau_ap_many(x, [[1.0, 1.0, 3.0, 0.0]])[0] == tau_ap([1, 1, 3, 0], [1, 1, 3, 0])


def test_tau_ap_hand_worked_swap_at_top_costs_more():
    # reference a > b > c > d.  Estimate b, a, c, d: C = 0, 2, 3 -> 2/3 (0/1 + 2/2 + 3/3) - 1 = 1/3
    ref = [4, 3, 2, 1]
    assert tau_ap_many(ref, [3, 4, 2, 1])[0] == pytest.approx(1 / 3, abs=1e-15)
    # estimate a, b, d, c: C = 1, 2, 2 -> 2/3 (1 + 1 + 2/3) - 1 = 7/9; Kendall's tau is 2/3 both times
    assert tau_ap_many(ref, [4, 3, 1, 2])[0] == pytest.approx(7 / 9, abs=1e-15)
    assert kendall_tau_b_many([ref, ref], [[3, 4, 2, 1], [4, 3, 1, 2]]) == pytest.approx([2 / 3] * 2)
    assert tau_ap_many(ref, ref)[0] == 1.0 and tau_ap_many(ref, ref[::-1])[0] == -1.0
    # an estimate tying every run has no order of its own: undefined, as Kendall's tau is
    assert np.isnan(tau_ap_many(ref, [2, 2, 2, 2])[0]) and np.isnan(kendall_tau_b_many(ref, [2] * 4)[0])


def test_tau_ap_equals_the_scalar_with_ties_row_by_row():
    rng = np.random.default_rng(8)
    x = np.round(rng.random((400, 7)), 1)                              # ties on both sides
    y = np.round(x + rng.normal(0, 0.2, x.shape), 1)
    y[0] = 0.5                                                          # one constant row: NaN
    got = tau_ap_many(x, y, block_elements=300)
    assert np.isnan(got[0])
    np.testing.assert_allclose(got[1:], [tau_ap(a, b) for a, b in zip(x[1:], y[1:])], rtol=0,
                               atol=1e-14)


def test_top_k_overlap_hand_worked():
    ref = [5, 4, 3, 2, 1]                                              # r1 > r2 > r3 > r4 > r5
    # estimate r2 > r5 > r1 > r3 > r4: top 2 {r2, r5} against {r1, r2} -> 1/2
    assert top_k_overlap_many(ref, [3, 5, 2, 1, 4], 2)[0] == 0.5
    # estimate r2 > r1 = r5 > ...: r1 is in its top 2 half the time -> (1 + 1/2) / 2
    assert top_k_overlap_many(ref, [4, 5, 2, 1, 4], 2)[0] == 0.75
    # a leaderboard tying every run is at chance, k / R
    assert top_k_overlap_many(ref, [1, 1, 1, 1, 1], 2)[0] == pytest.approx(2 / 5, abs=1e-15)
    with pytest.raises(ParameterError, match="top"):
        top_k_overlap_many(ref, ref, 5)


def _brute_top_k(x, y, k):
    """Average of |top_k(x) ∩ top_k(y)| / k over every pair of tie-breaking orders."""
    def top(values, priority):
        order = sorted(range(len(values)), key=lambda r: (-values[r], priority.index(r)))
        return set(order[:k])

    perms = list(itertools.permutations(range(len(x))))
    tops_x = [top(x, p) for p in perms]
    tops_y = [top(y, p) for p in perms]
    return np.mean([len(a & b) / k for a in tops_x for b in tops_y])


@pytest.mark.parametrize("seed", range(6))
def test_top_k_overlap_is_the_mean_over_random_tie_breaks(seed):
    rng = np.random.default_rng(seed)
    x, y = rng.integers(0, 3, size=5).astype(float), rng.integers(0, 3, size=5).astype(float)
    for k in (1, 2, 3):
        assert top_k_overlap_many(x, y, k)[0] == pytest.approx(_brute_top_k(x, y, k), abs=1e-12)


def test_bootstrap_means_are_the_means_of_the_resampled_topics():
    rng = np.random.default_rng(2)
    values = rng.random((11, 4))
    weights = topic_bootstrap(11, 50, seed=9)
    draws = np.random.default_rng(9).integers(0, 11, size=(50, 11))    # topic_bootstrap's draws
    want = np.stack([values[d].mean(axis=0) for d in draws])
    np.testing.assert_allclose(bootstrap_means(values, weights), want, rtol=1e-14)
    same = np.repeat(values[:, :1], 2, axis=1)                          # two identical runs
    m = bootstrap_means(same, weights)
    assert (m[:, 0] == m[:, 1]).all()                                   # equal to the last bit


def test_bad_shapes_are_refused():
    with pytest.raises(InputError, match="one shape"):
        kendall_tau_b_many(np.ones((2, 3)), np.ones((2, 4)))
    with pytest.raises(InputError, match="finite"):
        tau_ap_many([1, np.nan, 2], [1, 2, 3])
