"""The studentised range by Gauss-Legendre rules against scipy and against the t distribution."""

import numpy as np
import pytest
from scipy import stats

from evalkit.errors import ParameterError
from evalkit.stats.studentized_range import (FAST_DF, FAST_K, studentized_range_cdf,
                                             studentized_range_ppf)


@pytest.mark.parametrize("k", [2, 3, 5, 10, 16, 20])
@pytest.mark.parametrize("df", [10, 15, 60, 135, 1485, 20000, 99999])
def test_quantiles_agree_with_scipy_within_the_fast_range(k, df):
    ours, theirs = studentized_range_ppf(0.95, k, df), stats.studentized_range.ppf(0.95, k, df)
    assert ours == pytest.approx(theirs, rel=1e-9)


@pytest.mark.parametrize("topics", [5, 7, 10, 25, 50, 100])
def test_sakais_critical_values_agree_with_scipy_to_1e_12(topics):
    """16 runs (one per team) over n topics: (S - 1)(n - 1) residual degrees of freedom."""
    df = 15 * (topics - 1)
    for p in (0.9, 0.95, 0.99):
        assert studentized_range_ppf(p, 16, df) == pytest.approx(
            stats.studentized_range.ppf(p, 16, df), rel=1e-11)


@pytest.mark.parametrize("df", [10, 37, 500])
def test_two_means_are_root_two_times_a_t_variable(df):
    """With k = 2, Q = sqrt(2) |T_df|: P(Q <= q) = 2 F_t(q / sqrt 2) - 1, by hand from the definition."""
    for q in (0.5, 1.7, 2.8, 4.0):
        assert studentized_range_cdf(q, 2, df) == pytest.approx(
            2 * stats.t.cdf(q / np.sqrt(2), df) - 1, abs=1e-12)


def test_outside_the_fast_range_scipy_answers():
    for k, df in ((16, 2), (30, 40), (4, 200_000)):
        assert not (FAST_K[0] <= k <= FAST_K[1] and FAST_DF[0] <= df < FAST_DF[1])
        assert studentized_range_ppf(0.95, k, df) == stats.studentized_range.ppf(0.95, k, df)
    assert studentized_range_cdf(0.0, 16, 60) == 0.0


@pytest.mark.parametrize("args", [(0.95, 1, 60), (0.95, 2.5, 60), (0.95, 16, 0), (1.2, 16, 60)])
def test_bad_arguments_are_refused(args):
    with pytest.raises(ParameterError):
        studentized_range_ppf(*args)
