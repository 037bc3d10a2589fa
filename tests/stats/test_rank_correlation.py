"""Kendall's tau-b with the unclipped HWC interval; rank swaps."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from evalkit.errors import InputError, ParameterError
from evalkit.stats import rank_correlation


def _swapped(n, swaps):
    x = np.arange(1, n + 1, dtype=float)
    y = x.copy()
    for i in range(0, 2 * swaps, 2):
        y[i], y[i + 1] = y[i + 1], y[i]
    return x, y


def test_kendall_reference_values_from_design():
    x, y = _swapped(44, 6)
    kt = rank_correlation.kendall_tau(x, y)
    assert kt.tau == pytest.approx(0.98732, abs=5e-6)
    assert (round(kt.low, 4), round(kt.high, 4)) == (0.9715, 1.0031)
    for n, (lo, hi) in ((44, (0.9972, 1.0028)), (25, (0.9913, 1.0087))):
        x = np.arange(n, dtype=float)
        x[1] = x[0]  # one tied pair, identical rankings
        kt = rank_correlation.kendall_tau(x, x.copy())
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
    kt = rank_correlation.kendall_tau(x, y, alpha=0.1)
    assert kt.tau == pytest.approx(tau)
    assert kt.high - kt.tau == pytest.approx(sps.norm.ppf(0.95) * np.sqrt(var))


def test_kendall_tau_b_equals_scipy_with_ties():
    rng = np.random.default_rng(9)
    for _ in range(30):
        x, y = rng.integers(0, 6, 20), rng.integers(0, 6, 20)
        assert rank_correlation.kendall_tau(x, y).tau == pytest.approx(sps.kendalltau(x, y).statistic,
                                                            abs=1e-12)
    assert math.isnan(rank_correlation.kendall_tau([1, 1, 1], [1, 2, 3]).tau)  # constant x


def test_kendall_bad_input():
    with pytest.raises(InputError, match="same length"):
        rank_correlation.kendall_tau([1, 2, 3], [1, 2])
    with pytest.raises(InputError, match="at least 3"):
        rank_correlation.kendall_tau([1, 2], [1, 2])
    with pytest.raises(ParameterError, match="alpha"):
        rank_correlation.kendall_tau([1, 2, 3], [1, 2, 3], alpha=1.5)
    with pytest.raises(InputError, match="finite"):
        rank_correlation.kendall_tau([1, np.nan, 3], [1, 2, 3])


def test_rank_swaps_counts_discordant_pairs():
    x, y = _swapped(10, 3)
    assert rank_correlation.rank_swaps(x, y) == 3
    assert rank_correlation.rank_swaps(x, -x) == 45
    assert rank_correlation.rank_swaps([1, 1, 2], [2, 1, 3]) == 0  # a tie is not a swap


def test_tau_ap_hand_worked_swaps_at_the_top_cost_more():
    from evalkit.stats.rank_correlation import tau_ap

    reference = [4, 3, 2, 1]                     # A > B > C > D
    # estimate B > A > C > D: C(2) = 0/1, C(3) = 2/2, C(4) = 3/3 -> 2/3 * 2 - 1 = 1/3
    assert tau_ap(reference, [3, 4, 2, 1]) == pytest.approx(1 / 3, abs=1e-15)
    # estimate A > B > D > C: C(2) = 1, C(3) = 2/2, C(4) = 2/3 -> 2/3 * 8/3 - 1 = 7/9
    assert tau_ap(reference, [4, 3, 1, 2]) == pytest.approx(7 / 9, abs=1e-15)
    # Kendall's tau is 2/3 for both single adjacent swaps
    assert rank_correlation.kendall_tau(reference, [3, 4, 2, 1]).tau == pytest.approx(2 / 3)
    assert rank_correlation.kendall_tau(reference, [4, 3, 1, 2]).tau == pytest.approx(2 / 3)
    assert tau_ap(reference, reference) == 1.0 and tau_ap(reference, [1, 2, 3, 4]) == -1.0


def test_tau_ap_is_not_symmetric_and_counts_reference_ties_as_half():
    from evalkit.stats.rank_correlation import tau_ap

    # estimate order A, B, C; reference C > A > B:
    # C(2) (B): A above B in the reference -> 1/1; C(3) (C): neither -> 0/2 -> 2/2 * 1 - 1 = 0
    assert tau_ap([2, 1, 3], [3, 2, 1]) == pytest.approx(0.0, abs=1e-15)
    # swapped roles: estimate order C, A, B; reference A > B > C:
    # C(2) (A): 0/1; C(3) (B): A above B -> 1/2 -> 2/2 * 1/2 - 1 = -1/2
    assert tau_ap([3, 2, 1], [2, 1, 3]) == pytest.approx(-0.5, abs=1e-15)
    # reference ties A = B > C, estimate B, A, C: C(2) = 1/2, C(3) = 2/2 -> (1/2 + 1) - 1 = 1/2
    assert tau_ap([2, 2, 1], [2, 3, 1]) == pytest.approx(0.5, abs=1e-15)
