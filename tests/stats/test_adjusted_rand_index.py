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
