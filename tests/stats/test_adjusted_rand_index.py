"""The adjusted Rand index against scikit-learn."""

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from evalkit.errors import InputError
from evalkit.stats import agreement


def test_ari_equals_sklearn_and_ignores_label_names():
    rng = np.random.default_rng(1)
    for _ in range(20):
        a, b = rng.integers(0, 5, 40), rng.integers(0, 7, 40)
        assert agreement.adjusted_rand_index(a, b) == pytest.approx(adjusted_rand_score(a, b))
        renamed = np.array([f"L{x * 7 % 5}" for x in a])
        assert agreement.adjusted_rand_index(renamed, b) == pytest.approx(agreement.adjusted_rand_index(a, b))
    with pytest.raises(InputError, match="label 2 and 3"):
        agreement.adjusted_rand_index([1, 2], [1, 2, 3])


def test_ari_equals_sklearn_to_the_last_bit():
    rng = np.random.default_rng(7)
    for i in range(300):
        n = int(rng.integers(1, 120))
        a = rng.integers(0, int(rng.integers(1, 25)), n)
        b = a.copy() if i % 4 == 0 else rng.integers(0, int(rng.integers(1, 25)), n)
        if i % 3 == 0:
            a = np.array([f"c{x}" for x in a], dtype=object)
        assert agreement.adjusted_rand_index(a, b) == float(adjusted_rand_score(a, b))
    assert agreement.adjusted_rand_index([0, 0, 1, 1], [0, 1, 0, 1]) == -0.5  # sklearn's doc example
    assert agreement.adjusted_rand_index(["x"], ["y"]) == 1.0
    with pytest.raises(InputError, match="empty"):
        agreement.adjusted_rand_index([], [])
    with pytest.raises(InputError, match="one value per item"):   # scikit-learn: must be 1D
        agreement.adjusted_rand_index([(1, 2), (1, 2), (3, 4)], [0, 0, 1])
    for missing in ([0.0, float("nan"), 1.0], ["a", None, "b"]):  # scikit-learn: contains NaN
        with pytest.raises(InputError, match="missing"):
            agreement.adjusted_rand_index(missing, [0, 1, 1])
