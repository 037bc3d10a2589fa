"""Cohen's and Fleiss' kappa against statsmodels and hand values; Landis-Koch labels."""

import numpy as np
import pytest
from scipy import stats as sps
from statsmodels.stats import inter_rater

from evalkit.errors import InputError
from evalkit.stats import agreement


def test_cohens_kappa_by_hand():
    # table [[20, 5], [10, 15]]: po = .7, pe = .5*.6 + .5*.4 = .5 -> kappa = .4
    a = ["y"] * 25 + ["n"] * 25
    b = ["y"] * 20 + ["n"] * 5 + ["y"] * 10 + ["n"] * 15
    k = agreement.cohens_kappa(a, b)
    assert k.kappa == pytest.approx(0.4)
    assert (k.low, k.high) == (pytest.approx(0.4 - 1.959964 * k.se), pytest.approx(0.4 + 1.959964 * k.se))


def test_cohens_kappa_equals_statsmodels_on_random_data():
    rng = np.random.default_rng(0)
    for _ in range(25):
        a = rng.integers(0, 3, 60)
        b = np.where(rng.random(60) < 0.5, a, rng.integers(0, 3, 60))
        table = np.zeros((3, 3))
        np.add.at(table, (a, b), 1)
        ref = inter_rater.cohens_kappa(table)
        k = agreement.cohens_kappa(a, b, alpha=0.05)
        assert k.kappa == pytest.approx(ref.kappa)
        assert k.low == pytest.approx(ref.kappa_low) and k.high == pytest.approx(ref.kappa_upp)
        k90 = agreement.cohens_kappa(a, b, alpha=0.1)
        assert k90.high - k90.kappa == pytest.approx(sps.norm.ppf(0.95) * ref.std_kappa)


def test_cohens_kappa_undefined_with_one_category():
    k = agreement.cohens_kappa(["x"] * 5, ["x"] * 5)
    assert np.isnan(k.kappa)
    with pytest.raises(InputError, match="label 2 and 1"):
        agreement.cohens_kappa([1, 2], [1])


def test_fleiss_kappa_equals_statsmodels():
    rng = np.random.default_rng(1)
    for _ in range(20):
        ratings = rng.integers(0, 3, size=(30, 5))
        counts = np.stack([(ratings == c).sum(1) for c in range(3)], axis=1)
        assert agreement.fleiss_kappa(counts) == pytest.approx(inter_rater.fleiss_kappa(counts))
    # perfect agreement
    assert agreement.fleiss_kappa([[5, 0], [0, 5], [5, 0]]) == pytest.approx(1.0)
    with pytest.raises(InputError, match="same number"):
        agreement.fleiss_kappa([[5, 0], [0, 4]])


@pytest.mark.parametrize("kappa, label", [(-0.1, "poor"), (0.0, "slight"), (0.2, "slight"),
                                          (0.294, "fair"), (0.5, "moderate"), (0.7, "substantial"),
                                          (0.95, "almost perfect"), (float("nan"), "undefined")])
def test_landis_koch(kappa, label):
    assert agreement.landis_koch(kappa) == label
