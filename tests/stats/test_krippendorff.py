"""Krippendorff's alpha against his own worked example and the krippendorff package."""

import numpy as np
import pytest

from evalkit.errors import ParameterError
from evalkit.stats.krippendorff import alpha_from_counts, krippendorff_alpha, value_counts

N = np.nan
# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: four
# observers, twelve units, values 1..5, missing values; alpha printed there to 3 decimals.
OBSERVERS = np.array([[1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
                      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
                      [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
                      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N]])


@pytest.mark.parametrize("level, published", [("nominal", 0.743), ("ordinal", 0.815),
                                              ("interval", 0.849)])
def test_krippendorffs_worked_example(level, published):
    assert krippendorff_alpha(OBSERVERS.T, level) == pytest.approx(published, abs=5e-4)


def test_nominal_worked_example_exactly():
    # by hand: unit 12 has one value (not pairable), so n = 40 pairable values with
    # n_c = 9, 13, 10, 5, 3 for values 1..5.  Disagreeing ordered pairs / (m_u - 1):
    # unit 2 (2,2,3,2): 6/3; unit 6 (1,2,3,4): 12/3; unit 8 (1,1,2,1): 6/3; sum 8.
    # alpha_nominal = 1 - (n - 1) * 8 / (n^2 - sum n_c^2) = 1 - 312/1216
    n, off = 40, 8.0
    marginals = np.array([9, 13, 10, 5, 3])
    assert krippendorff_alpha(OBSERVERS.T, "nominal") == pytest.approx(
        1 - (n - 1) * off / (n ** 2 - (marginals ** 2).sum()), abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_equals_the_krippendorff_package_with_unequal_ratings_per_item(seed, level):
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, 60)
    data = np.clip(truth[:, None] + rng.integers(-1, 2, (60, 7)), 0, 3).astype(float)
    data[rng.random(data.shape) < 0.35] = np.nan        # items rated 0..7 times
    ours = krippendorff_alpha(data, level)
    theirs = krippendorff.alpha(reliability_data=data.T, level_of_measurement=level)
    assert ours == pytest.approx(theirs, abs=1e-12)


def test_perfect_agreement_is_one_and_a_single_value_is_undefined():
    agree = np.array([[0, 0, N], [2, 2, 2], [1, N, 1]], dtype=float)
    assert krippendorff_alpha(agree, "interval") == 1.0
    assert np.isnan(krippendorff_alpha(np.ones((4, 3)), "ordinal"))


def test_units_rated_once_are_not_pairable():
    counts, cats = value_counts(["a", "a", "b", "c", "c"], [0, 1, 2, 1, 1])
    assert counts.tolist() == [[1, 1, 0], [0, 0, 1], [0, 2, 0]] and cats.tolist() == [0, 1, 2]
    # unit b alone does not change alpha
    assert alpha_from_counts(counts, cats, "nominal") == alpha_from_counts(counts[[0, 2]], cats,
                                                                           "nominal")
    with pytest.raises(ParameterError, match="level"):
        alpha_from_counts(counts, cats, "ratio")


def _value_counts_by_unique(units, values):
    """The former value_counts (np.unique twice, np.add.at): the differential oracle."""
    units, values = np.asarray(units), np.asarray(values, dtype=float)
    _, unit_code = np.unique(units, return_inverse=True)
    categories, value_code = np.unique(values, return_inverse=True)
    counts = np.zeros((int(unit_code.max()) + 1 if units.size else 0, len(categories)))
    np.add.at(counts, (unit_code.ravel(), value_code.ravel()), 1.0)
    return counts, categories


@pytest.mark.parametrize("kind", ["items", "gappy", "negative", "huge", "strings", "nan values", "empty"])
def test_value_counts_equal_the_unique_and_add_at_oracle_bit_for_bit(kind):
    rng = np.random.default_rng(11)
    units = np.repeat(np.arange(300), rng.integers(1, 6, 300))        # sorted item indices
    values = rng.integers(0, 4, units.size).astype(float)
    if kind == "gappy":
        units = rng.permutation(units * 3 + 1)
    elif kind == "negative":
        units = units - 150
    elif kind == "huge":
        units = units * 10**6
    elif kind == "strings":
        units = np.array([f"t{u % 7}|d{u}" for u in units])
    elif kind == "nan values":
        values[::5] = np.nan
    elif kind == "empty":
        units, values = units[:0], values[:0]
    got, got_cats = value_counts(units, values)
    want, want_cats = _value_counts_by_unique(units, values)
    assert got.shape == want.shape and got.dtype == want.dtype and got.tobytes() == want.tobytes()
    assert got_cats.tobytes() == want_cats.tobytes()


def test_alpha_does_not_depend_on_the_order_of_the_units():
    """The same units in another order give the same bits (a sum of fractions in unit order
    differed in the last digits for every one of 20 such draws)."""
    rng = np.random.default_rng(5)
    cats = np.arange(3.0)
    for _ in range(5):
        sizes = rng.integers(1, 11, 3000)                   # 1 rating: not pairable, left out
        counts = np.stack([rng.multinomial(n, [0.5, 0.3, 0.2]) for n in sizes]).astype(float)
        perm = rng.permutation(len(counts))
        for level in ("ordinal", "interval", "nominal"):
            assert alpha_from_counts(counts, cats, level) == alpha_from_counts(counts[perm], cats,
                                                                               level)
