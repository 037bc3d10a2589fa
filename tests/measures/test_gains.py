"""Gains: Sakai's Table 1 exactly, Eq. 1 and Eq. 2 by hand, and bad input."""

import numpy as np
import pytest

from evalkit.errors import InputError, ParameterError
from evalkit.measures import gains
from evalkit.papers import sakai2017_unanimity_gain as sakai
from evalkit.workspace import published


def test_table1_equals_the_paper():
    ours = sakai.table1()
    paper = published.load("sakai2017_table1")
    assert list(ours["ratings"]) == list(paper["ratings"])
    for col in ["RawG", "D", "UG (p=0.2)", "UG (p=0.1)"]:
        np.testing.assert_allclose(ours[col], paper[col], atol=1e-12, err_msg=col)
    # The paper prints WG to one decimal.
    np.testing.assert_allclose(ours["WG"].round(1), paper["WG"], atol=1e-12)


def test_gains_by_hand():
    r = np.array([[1, 1, 2, 3, 3], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2]])
    np.testing.assert_array_equal(gains.raw_gain(r), [10, 0, 10])
    np.testing.assert_array_equal(gains.rating_spread(r), [2, 0, 0])
    # WG = (1 - D/dmax) RawG with dmax = 3
    np.testing.assert_allclose(gains.weighted_gain(r, 3), [10 / 3, 0, 10])
    # UG = RawG + p N (dmax - D) if RawG > 0: 10 + .2*5*1, 0 (all zero), 10 + .2*5*3
    np.testing.assert_allclose(gains.unanimity_gain(r, 3, 0.2), [11, 0, 13])


def test_ug_equals_raw_when_spread_is_dmax_or_p_zero():
    rng = np.random.default_rng(0)
    r = rng.integers(0, 5, size=(50, 7))
    r[:, 0], r[:, 1] = 0, 4  # D = dmax everywhere
    np.testing.assert_array_equal(gains.unanimity_gain(r, 4, 0.7), gains.raw_gain(r))
    r2 = rng.integers(0, 5, size=(50, 7))
    np.testing.assert_array_equal(gains.unanimity_gain(r2, 4, 0.0), gains.raw_gain(r2))


@pytest.mark.parametrize("p", [-0.1, 1.5, float("nan"), True])
def test_bad_p_names_the_parameter(p):
    with pytest.raises(ParameterError, match="parameter p = "):
        gains.unanimity_gain([[1, 2]], 3, p)


def test_rating_outside_scale_is_located():
    with pytest.raises(InputError, match=r"rating 4 of item 1, assessor 0 is outside 0\.\.3"):
        gains.unanimity_gain([[1, 2], [4, 0]], 3, 0.2)
    with pytest.raises(InputError, match="outside"):
        gains.weighted_gain([[-1, 2]], 3)


def test_missing_ratings_use_the_items_own_count():
    nan = np.nan
    r = np.array([[2, 2, nan, 2], [0, 1, 2, 1], [nan, nan, nan, 1]])
    np.testing.assert_array_equal(gains.raw_gain(r), [6, 4, 1])
    np.testing.assert_array_equal(gains.rating_spread(r), [0, 2, 0])
    # UG = RawG + p N_i (dmax - D_i): N_i = 3, 4, 1
    np.testing.assert_allclose(gains.unanimity_gain(r, 2, 0.5), [6 + 0.5 * 3 * 2, 4, 1 + 0.5 * 1 * 2])
    np.testing.assert_allclose(gains.weighted_gain(r, 2), [6, 0, 1])
    with pytest.raises(InputError, match="item 0 has no rating"):
        gains.raw_gain([[nan, nan], [1, 1]])


@pytest.mark.parametrize("bad", [[1, 2, 3], [[1.5, 2]], [[np.inf, 1]], np.zeros((3, 0)), [["a"]]])
def test_malformed_ratings(bad):
    with pytest.raises(InputError):
        gains.raw_gain(bad)


def test_bad_dmax():
    with pytest.raises(ParameterError, match="dmax"):
        gains.weighted_gain([[1]], 0)


def test_gain_values_from_item_statistics_by_hand():
    # items: RawG 4, 0, 6; spread D 2, 0, 0; N_i 3, 2, 2; dmax 3, p 0.2
    raw, spread, n = [4, 0, 6], np.array([2, 0, 0]), np.array([3, 2, 2])
    assert gains.gain_values("raw", raw, spread, n).tolist() == [4, 0, 6]
    assert gains.gain_values("wg", raw, spread, n, 3) == pytest.approx([(1 - 2 / 3) * 4, 0, 6])
    assert gains.gain_values("ug", raw, spread, n, 3, 0.2) == pytest.approx([4 + 0.2 * 3 * 1, 0, 6 + 0.2 * 2 * 3])
    with pytest.raises(ParameterError, match="gain"):
        gains.gain_values("dcg", raw, spread, n, 3)


@pytest.mark.parametrize("dmax", [0, -1, 2.5, True, float("nan")])
def test_dmax_must_be_a_whole_number_of_at_least_one(dmax):
    with pytest.raises(ParameterError, match="dmax"):
        gains.check_dmax(dmax)
    assert gains.check_dmax(3.0) == 3 and isinstance(gains.check_dmax(3.0), int)


@pytest.mark.parametrize("n", [1, 2, 5, 16, 17, 80])
def test_raw_and_unanimity_gain_in_one_pass_equal_the_per_item_formulas(n):
    rng = np.random.default_rng(n)
    r = rng.integers(0, 4, (300, n))
    r[:7] = 0                                              # items all assessors rated 0
    raw, ug = gains.raw_and_unanimity_gain(r, 3, 0.2)
    by_hand_raw = np.array([float(sum(int(v) for v in row)) for row in r])
    by_hand_ug = np.array([s + 0.2 * n * (3 - (max(row) - min(row))) if s > 0 else 0.0
                           for s, row in zip(by_hand_raw, r.tolist())])
    np.testing.assert_array_equal(raw, by_hand_raw)
    np.testing.assert_allclose(ug, by_hand_ug, rtol=1e-15)
    np.testing.assert_array_equal(raw, gains.raw_gain(r))
    np.testing.assert_array_equal(ug, gains.unanimity_gain(r, 3, 0.2))
    np.testing.assert_array_equal(gains.rating_spread(r), r.max(axis=1) - r.min(axis=1))
    f = r.astype(float)
    f[10, 0] = np.nan if n > 1 else f[10, 0]                # a missing rating: the NaN path
    np.testing.assert_array_equal(gains.raw_and_unanimity_gain(f, 3, 0.2)[1],
                                  gains.unanimity_gain(f, 3, 0.2))
    with pytest.raises(InputError):
        gains.raw_and_unanimity_gain(r + 1, 3, 0.2)
