"""The randomised Tukey HSD and the residual variance behind ES_HSD."""

import itertools

import numpy as np
import pandas as pd
import pytest

from evalkit.errors import InputError, ParameterError
from evalkit.stats import hsd


def test_residual_variance_by_hand_and_statsmodels():
    x = np.array([[1.0, 2, 3], [2, 2, 5], [0, 1, 2], [4, 3, 3]])
    t, s = x.shape
    se = sum((x[i, j] - x[:, j].mean() - x[i].mean() + x.mean()) ** 2
             for i in range(t) for j in range(s))
    assert hsd.residual_variance(x) == pytest.approx(se / ((s - 1) * (t - 1)))
    import statsmodels.formula.api as smf

    frame = pd.DataFrame([(i, j, x[i, j]) for i in range(t) for j in range(s)],
                         columns=["topic", "system", "score"])
    fit = smf.ols("score ~ C(topic) + C(system)", frame).fit()
    assert hsd.residual_variance(x) == pytest.approx(fit.mse_resid)


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
    ours = hsd.randomised_tukey_hsd(x, n_trials=b, seed=1)
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
    out = hsd.randomised_tukey_hsd(frame, n_trials=500, seed=3)
    assert list(out.columns) == ["system_a", "system_b", "diff", "p_value", "p_value_se",
                                 "effect_size"]
    assert list(zip(out.system_a, out.system_b)) == [("A", "B"), ("A", "C"), ("B", "C")]
    means = frame.mean()
    assert out["diff"][0] == pytest.approx(means["A"] - means["B"])
    ve = hsd.residual_variance(frame)
    np.testing.assert_allclose(out.effect_size, out["diff"].abs() / np.sqrt(ve))
    np.testing.assert_allclose(out.p_value_se, np.sqrt(out.p_value * (1 - out.p_value) / 500))


def test_hsd_same_seed_same_permutations_for_any_matrix_of_that_shape():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(25, 5))
    one = hsd.randomised_tukey_hsd(x, 800, seed=9)
    # Scaling by 2 is exact in floating point: with common random numbers every
    # trial's range doubles too, so the p-values are identical.
    two = hsd.randomised_tukey_hsd(2 * x, 800, seed=9)
    np.testing.assert_array_equal(one.p_value, two.p_value)
    np.testing.assert_array_equal(hsd.tukey_null_ranges(x, 100, seed=4),
                                  hsd.tukey_null_ranges(x, 100, seed=4))
    assert not np.array_equal(hsd.tukey_null_ranges(x, 100, seed=4),
                              hsd.tukey_null_ranges(x, 100, seed=5))
    many = hsd.randomised_tukey_hsd_many([x, 2 * x, x[:, ::-1]], 800, seed=9)
    pd.testing.assert_frame_equal(many[0], one)
    pd.testing.assert_frame_equal(many[2], hsd.randomised_tukey_hsd(x[:, ::-1], 800, seed=9))



def test_hsd_arrays_are_the_tables_columns_bit_for_bit():
    rng = np.random.default_rng(3)
    mats = [rng.normal(size=(30, 6)) for _ in range(4)]
    arrays = hsd._hsd_many_arrays(mats, 700, seed=11)
    for x, got in zip(mats, arrays):
        table = hsd.randomised_tukey_hsd(x, 700, seed=11)
        np.testing.assert_array_equal(got["a"], table["system_a"])
        np.testing.assert_array_equal(got["b"], table["system_b"])
        for col in ("diff", "p_value", "p_value_se", "effect_size"):
            np.testing.assert_array_equal(got[col], table[col].to_numpy())
    with pytest.raises(InputError):
        hsd._hsd_many_arrays([mats[0], mats[0][:5]], 10, seed=1)

def test_hsd_generator_seed_is_reproducible():
    x = np.random.default_rng(0).normal(size=(10, 4))
    a = hsd.randomised_tukey_hsd(x, 200, seed=np.random.default_rng(1))
    b = hsd.randomised_tukey_hsd(x, 200, seed=np.random.default_rng(1))
    pd.testing.assert_frame_equal(a, b)


def test_hsd_null_is_a_valid_permutation_distribution():
    # Four rows (0, 1): system A gets the 1 in k ~ Binomial(4, 1/2) rows, so the
    # range of means is |2k - 4| / 4, i.e. 0, 0.5 or 1.
    x = np.tile([0.0, 1.0], (4, 1))
    ranges = hsd.tukey_null_ranges(x, 4000, seed=0)
    values, counts = np.unique(np.round(ranges, 12), return_counts=True)
    assert set(values) == {0.0, 0.5, 1.0}
    # binomial(4, 1/2): P(0) = 6/16, P(0.5) = 8/16, P(1) = 2/16
    np.testing.assert_allclose(counts / 4000, [6 / 16, 8 / 16, 2 / 16], atol=0.03)


@pytest.mark.parametrize("bad", [np.ones((1, 3)), np.ones(5), [[1, np.inf], [1, 2]]])
def test_hsd_bad_matrices(bad):
    with pytest.raises(InputError):
        hsd.randomised_tukey_hsd(bad, 10, seed=0)


def test_hsd_bad_trials_and_seed():
    with pytest.raises(ParameterError, match="n_trials"):
        hsd.randomised_tukey_hsd(np.ones((3, 3)), 0, seed=0)
    with pytest.raises(ParameterError, match="seed"):
        hsd.randomised_tukey_hsd(np.ones((3, 3)), 10, seed="x")


def test_single_matrix_kernel_equals_the_stacked_kernel_and_numpy():
    from evalkit.stats import _hsd_numpy

    seed = np.uint64(hsd.seed_to_int(5))
    for topics in (40, 41, 42, 43, 3):   # the compiled kernel adds four topics at a time
        x = np.random.default_rng(topics).normal(size=(topics, 7))
        stack = np.ascontiguousarray(x[:, :, None])
        ref = _hsd_numpy.null_range_sums(stack, 300, seed)
        two = np.ascontiguousarray(np.stack([x, 3 * x[:, ::-1]], axis=-1))
        ref_two = _hsd_numpy.null_range_sums(two, 300, seed)
        np.testing.assert_array_equal(ref_two[0], ref[0])
        if hsd.numba is not None:
            np.testing.assert_array_equal(hsd._null_range_sums_one(stack, 300, seed), ref)
            np.testing.assert_array_equal(hsd._null_range_sums(stack, 300, seed), ref)
            np.testing.assert_array_equal(hsd._null_range_sums(two, 300, seed), ref_two)
        np.testing.assert_array_equal(hsd._null_ranges([x, 3 * x[:, ::-1]], 300, 5)[0],
                                      hsd._null_ranges([x], 300, 5)[0])
