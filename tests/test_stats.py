"""Kendall tau with CI, rank swaps, residual variance and randomised Tukey HSD."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from evalkit import stats
from evalkit.errors import InputError, ParameterError


def _swapped(n, swaps):
    x = np.arange(1, n + 1, dtype=float)
    y = x.copy()
    for i in range(0, 2 * swaps, 2):
        y[i], y[i + 1] = y[i + 1], y[i]
    return x, y


def test_kendall_reference_values_from_design():
    x, y = _swapped(44, 6)
    kt = stats.kendall_tau(x, y)
    assert kt.tau == pytest.approx(0.98732, abs=5e-6)
    assert (round(kt.low, 4), round(kt.high, 4)) == (0.9715, 1.0031)
    for n, (lo, hi) in ((44, (0.9972, 1.0028)), (25, (0.9913, 1.0087))):
        x = np.arange(n, dtype=float)
        x[1] = x[0]  # one tied pair, identical rankings
        kt = stats.kendall_tau(x, x.copy())
        assert kt.tau == 1.0
        assert (round(kt.low, 4), round(kt.high, 4)) == (lo, hi)


def test_kendall_interval_by_hand_formula():
    rng = np.random.default_rng(5)
    x, y = rng.normal(size=30), rng.normal(size=30)
    n = 30
    c = [sum(np.sign(x[t] - x[i]) * np.sign(y[t] - y[i]) for t in range(n) if t != i)
         for i in range(n)]
    tau = sps.kendalltau(x, y).statistic
    var = 2 / (n * (n - 1)) * (2 * (n - 2) * np.var(c, ddof=1) / (n * (n - 1)) + 1 - tau**2)
    kt = stats.kendall_tau(x, y, alpha=0.1)
    assert kt.tau == pytest.approx(tau)
    assert kt.high - kt.tau == pytest.approx(sps.norm.ppf(0.95) * np.sqrt(var))


def test_kendall_tau_b_equals_scipy_with_ties():
    rng = np.random.default_rng(9)
    for _ in range(30):
        x, y = rng.integers(0, 6, 20), rng.integers(0, 6, 20)
        assert stats.kendall_tau(x, y).tau == pytest.approx(sps.kendalltau(x, y).statistic,
                                                            abs=1e-12)
    assert math.isnan(stats.kendall_tau([1, 1, 1], [1, 2, 3]).tau)  # constant x


def test_kendall_bad_input():
    with pytest.raises(InputError, match="same length"):
        stats.kendall_tau([1, 2, 3], [1, 2])
    with pytest.raises(InputError, match="at least 3"):
        stats.kendall_tau([1, 2], [1, 2])
    with pytest.raises(ParameterError, match="alpha"):
        stats.kendall_tau([1, 2, 3], [1, 2, 3], alpha=1.5)
    with pytest.raises(InputError, match="finite"):
        stats.kendall_tau([1, np.nan, 3], [1, 2, 3])


def test_rank_swaps_counts_discordant_pairs():
    x, y = _swapped(10, 3)
    assert stats.rank_swaps(x, y) == 3
    assert stats.rank_swaps(x, -x) == 45
    assert stats.rank_swaps([1, 1, 2], [2, 1, 3]) == 0  # a tie is not a swap


def test_residual_variance_by_hand_and_statsmodels():
    x = np.array([[1.0, 2, 3], [2, 2, 5], [0, 1, 2], [4, 3, 3]])
    t, s = x.shape
    se = sum((x[i, j] - x[:, j].mean() - x[i].mean() + x.mean()) ** 2
             for i in range(t) for j in range(s))
    assert stats.residual_variance(x) == pytest.approx(se / ((s - 1) * (t - 1)))
    import statsmodels.formula.api as smf

    frame = pd.DataFrame([(i, j, x[i, j]) for i in range(t) for j in range(s)],
                         columns=["topic", "system", "score"])
    fit = smf.ols("score ~ C(topic) + C(system)", frame).fit()
    assert stats.residual_variance(x) == pytest.approx(fit.mse_resid)


def _slow_hsd_pvalues(x, n_trials, seed):
    """Per-trial reference: permute each row with numpy, take the range of means."""
    rng = np.random.default_rng(seed)
    means = x.mean(axis=0)
    ranges = np.empty(n_trials)
    for b in range(n_trials):
        perm = np.array([rng.permutation(row) for row in x])
        m = perm.mean(axis=0)
        ranges[b] = m.max() - m.min()
    return {(i, j): np.mean(ranges >= abs(means[i] - means[j]) - 1e-12)
            for i, j in itertools.combinations(range(x.shape[1]), 2)}


def test_hsd_agrees_with_slow_reference_within_monte_carlo_error():
    rng = np.random.default_rng(8)
    x = rng.normal(size=(30, 6)) + np.array([0, 0.1, 0.25, 0.4, 0.5, 0.8])
    b = 3000
    ours = stats.randomised_tukey_hsd(x, n_trials=b, seed=1)
    ref = _slow_hsd_pvalues(x, b, seed=2)
    assert len(ours) == 15
    for row in ours.itertuples():
        p_ref = ref[(row.system_a, row.system_b)]
        se = np.sqrt(max(p_ref * (1 - p_ref), 0.01 * 0.99) * 2 / b)
        assert abs(row.p_value - p_ref) < 4 * se, (row, p_ref)
    # the test must see both significant and non-significant pairs
    assert (ours.p_value < 0.05).any() and (ours.p_value > 0.2).any()


def test_hsd_table_columns_labels_and_effect_size():
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.normal(size=(20, 3)), columns=["A", "B", "C"])
    out = stats.randomised_tukey_hsd(frame, n_trials=500, seed=3)
    assert list(out.columns) == ["system_a", "system_b", "diff", "p_value", "p_value_se",
                                 "effect_size"]
    assert list(zip(out.system_a, out.system_b)) == [("A", "B"), ("A", "C"), ("B", "C")]
    means = frame.mean()
    assert out["diff"][0] == pytest.approx(means["A"] - means["B"])
    ve = stats.residual_variance(frame)
    np.testing.assert_allclose(out.effect_size, out["diff"].abs() / np.sqrt(ve))
    np.testing.assert_allclose(out.p_value_se, np.sqrt(out.p_value * (1 - out.p_value) / 500))


def test_hsd_same_seed_same_permutations_for_any_matrix_of_that_shape():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(25, 5))
    one = stats.randomised_tukey_hsd(x, 800, seed=9)
    # Scaling by 2 is exact in floating point: with common random numbers every
    # trial's range doubles too, so the p-values are identical.
    two = stats.randomised_tukey_hsd(2 * x, 800, seed=9)
    np.testing.assert_array_equal(one.p_value, two.p_value)
    np.testing.assert_array_equal(stats.tukey_null_ranges(x, 100, seed=4),
                                  stats.tukey_null_ranges(x, 100, seed=4))
    assert not np.array_equal(stats.tukey_null_ranges(x, 100, seed=4),
                              stats.tukey_null_ranges(x, 100, seed=5))
    many = stats.randomised_tukey_hsd_many([x, 2 * x, x[:, ::-1]], 800, seed=9)
    pd.testing.assert_frame_equal(many[0], one)
    pd.testing.assert_frame_equal(many[2], stats.randomised_tukey_hsd(x[:, ::-1], 800, seed=9))


def test_hsd_generator_seed_is_reproducible():
    x = np.random.default_rng(0).normal(size=(10, 4))
    a = stats.randomised_tukey_hsd(x, 200, seed=np.random.default_rng(1))
    b = stats.randomised_tukey_hsd(x, 200, seed=np.random.default_rng(1))
    pd.testing.assert_frame_equal(a, b)


def test_hsd_null_is_a_valid_permutation_distribution():
    # Four rows (0, 1): system A gets the 1 in k ~ Binomial(4, 1/2) rows, so the
    # range of means is |2k - 4| / 4, i.e. 0, 0.5 or 1.
    x = np.tile([0.0, 1.0], (4, 1))
    ranges = stats.tukey_null_ranges(x, 4000, seed=0)
    values, counts = np.unique(np.round(ranges, 12), return_counts=True)
    assert set(values) == {0.0, 0.5, 1.0}
    # binomial(4, 1/2): P(0) = 6/16, P(0.5) = 8/16, P(1) = 2/16
    np.testing.assert_allclose(counts / 4000, [6 / 16, 8 / 16, 2 / 16], atol=0.03)


@pytest.mark.parametrize("bad", [np.ones((1, 3)), np.ones(5), [[1, np.inf], [1, 2]]])
def test_hsd_bad_matrices(bad):
    with pytest.raises(InputError):
        stats.randomised_tukey_hsd(bad, 10, seed=0)


def test_hsd_bad_trials_and_seed():
    with pytest.raises(ParameterError, match="n_trials"):
        stats.randomised_tukey_hsd(np.ones((3, 3)), 0, seed=0)
    with pytest.raises(ParameterError, match="seed"):
        stats.randomised_tukey_hsd(np.ones((3, 3)), 10, seed="x")
