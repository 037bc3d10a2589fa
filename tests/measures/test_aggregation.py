"""AC, WCA, RBA and FreSPA by hand; the PrefixSpan miner against brute force."""

import itertools
import math

import numpy as np
import pytest

from evalkit.errors import ParameterError
from evalkit.measures import aggregation


def test_correlations_by_hand():
    # ABCD vs ACDB: BC and BD discordant -> tau = 1 - 2*2/6; d = (0, 2, 1, 1) -> rho = 1 - 36/60
    assert aggregation.kendall("ABCD", "ACDB") == pytest.approx(1 / 3)
    assert aggregation.spearman("ABCD", "ACDB") == pytest.approx(0.4)
    assert aggregation.kendall("ABC", "CBA") == -1.0


def test_ac_and_wca_by_hand():
    golds = ["ABCD", "ABDC", "BACD"]
    # taus: (1,2) = 2/3, (1,3) = 2/3, (2,3) = 1/3; weights 2/3, 1/2, 1/2
    assert aggregation.average_correlation("ABCD", golds) == pytest.approx(7 / 9)
    # weight_offset 0 (the formula read literally): weights 2/3, 1/2, 1/2 -> 0.8
    assert aggregation.weighted_correlation("ABCD", golds, weight_offset=0) == pytest.approx(0.8)
    assert aggregation.weighted_correlation("ABCD", ["ABDC"]) == pytest.approx(2 / 3)
    # weight_offset 1: weights (w + 1)/2 = 5/6, 3/4, 3/4 -> (5/6 + 2 * 3/4 * 2/3) / (7/3) = 11/14
    assert aggregation.weighted_correlation("ABCD", golds, weight_offset=1) == pytest.approx(11 / 14)
    # the default is the paper's normalised correlations (§5.2: (x + 1)/2), offset 1
    assert aggregation.weighted_correlation("ABCD", golds, weight_offset=1) == \
        aggregation.weighted_correlation("ABCD", golds)


def test_wca_weight_offset_by_hand():
    # taus: ABC-ABC 1, ABC-CBA -1; mean correlation with the others: 0, 0, -1
    golds = ["ABC", "ABC", "CBA"]
    assert list(aggregation.wca_weights(np.array([0.0, 0.0, -1.0]), 0)) == [0.0, 0.0, -1.0]
    assert list(aggregation.wca_weights(np.array([0.0, 0.0, -1.0]))) == [0.5, 0.5, 0.0]   # default 1
    assert list(aggregation.wca_weights(np.array([0.0, 0.0, -1.0]), 1)) == [0.5, 0.5, 0.0]
    assert list(aggregation.wca_weights(np.array([0.0, -1.0]), 0.25)) == [0.2, -0.6]
    # a = 0 (the formula as printed): correlations 1, 1, -1 with weights 0, 0, -1 -> 1 / -1:
    # the ordering two of three golds give exactly scores -1
    assert aggregation.weighted_correlation("ABC", golds, weight_offset=0) == pytest.approx(-1.0)
    assert aggregation.weighted_correlation("ABC", golds, "spearman", weight_offset=0) == pytest.approx(-1.0)
    # a = 1 (weights rescaled to [0, 1]): 0.5 * 1 + 0.5 * 1 + 0 * -1 over 1 -> 1
    assert aggregation.weighted_correlation("ABC", golds, weight_offset=1) == pytest.approx(1.0)
    # a = 0.5: weights 1/3, 1/3, -1/3 -> (1/3 + 1/3 + 1/3) / (1/3) = 3 (a < 1 keeps negative
    # weights, so the score can leave [-1, 1])
    assert aggregation.weighted_correlation("ABC", golds, weight_offset=0.5) == pytest.approx(3.0)
    for bad in (-0.1, float("nan"), True):
        with pytest.raises(ParameterError, match="weight_offset"):
            aggregation.weighted_correlation("ABC", golds, weight_offset=bad)


def test_rba_consensus_and_tie_rule():
    assert aggregation.rank_aggregation("ABC", ["ABC", "ABC", "CBA"]) == 1.0
    # rank sums A = B = 3, C = 6: A and B share rank 1.5
    assert aggregation.consensus_ranks(["ABC", "BAC"]) == {"A": 1.5, "B": 1.5, "C": 3.0}
    assert aggregation.rank_aggregation("ABC", ["ABC", "BAC"]) == pytest.approx(2 / math.sqrt(6))
    assert aggregation.rank_aggregation("ABC", ["ABC", "BAC"], "spearman") == pytest.approx(
        1.5 / math.sqrt(3))
    assert aggregation.rank_aggregation("CBA", ["ABC", "BAC"]) == pytest.approx(-2 / math.sqrt(6))


def test_average_ranks_equal_scipy():
    from scipy.stats import rankdata

    rng = np.random.default_rng(3)
    for _ in range(50):
        v = rng.integers(0, 6, int(rng.integers(1, 15))).astype(float)
        np.testing.assert_array_equal(aggregation._average_ranks(v), rankdata(v, method="average"))


def test_frespa_by_hand():
    golds = ["ABC", "ABC", "ACB"]
    # min_sup .75 of 3 -> support 3: AB and AC, weight (1+1)(1+2) = 6 each
    assert aggregation.frespa("ACB", golds) == 1.0
    assert aggregation.frespa("BAC", golds) == 0.5
    # min_sup 0: AB 6, AC 6, BC 4, CB 2, ABC 6, ACB 3 -> total 27; ABC holds AB, AC, BC, ABC
    assert aggregation.frespa("ABC", golds, min_sup=0) == pytest.approx(22 / 27)
    # w_len = w_sup = 0: every pattern weighs 1 -> ABC holds 4 of 6
    assert aggregation.frespa("ABC", golds, min_sup=0, w_len=0, w_sup=0) == pytest.approx(4 / 6)
    # no pattern reaches full support -> 0 by definition
    assert aggregation.frespa("ABC", ["ABC", "CBA"], min_sup=1, min_len=3) == 0.0


def test_frespa_identical_is_one_and_reverse_is_zero():
    rng = np.random.default_rng(4)
    for _ in range(10):
        o = tuple(rng.permutation(7))
        golds = [o] * int(rng.integers(2, 6))
        assert aggregation.frespa(o, golds, min_sup=rng.random()) == 1.0
        assert aggregation.frespa(o[::-1], golds, min_sup=rng.random()) == 0.0


def _brute_force_patterns(golds, min_sup, min_len, max_len):
    counts = {}
    for g in golds:
        for length in range(min_len, min(max_len, len(g)) + 1):
            for sub in set(itertools.combinations(g, length)):
                counts[sub] = counts.get(sub, 0) + 1
    need = max(1, math.ceil(min_sup * len(golds) - 1e-9))
    return {p: c for p, c in counts.items() if c >= need}


def test_miner_equals_brute_force_on_random_inputs():
    rng = np.random.default_rng(0)
    for _ in range(60):
        k, n = int(rng.integers(2, 8)), int(rng.integers(1, 7))
        golds = [tuple(rng.permutation(k)) for _ in range(n)]
        min_sup = float(rng.choice([0, 0.25, 0.5, 0.75, 1, rng.random()]))
        min_len = int(rng.integers(2, k + 1))
        max_len = int(rng.integers(min_len, k + 1))
        assert aggregation.mine_patterns(golds, min_sup, min_len, max_len) == \
            _brute_force_patterns(golds, min_sup, min_len, max_len)
