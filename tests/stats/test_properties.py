"""Property-based invariants (hypothesis) of the statistics: tau, ARI, the HSD, kappa."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from evalkit.stats import agreement, hsd, rank_correlation

SETTINGS = settings(max_examples=150, deadline=None)
scores = arrays(np.float64, st.integers(3, 25), elements=st.floats(-5, 5, allow_nan=False))


@SETTINGS
@given(st.data())
def test_kendall_tau_bounded_and_symmetric(data):
    x = data.draw(scores)
    y = data.draw(arrays(np.float64, x.size, elements=st.floats(-5, 5, allow_nan=False)))
    a, b = rank_correlation.kendall_tau(x, y), rank_correlation.kendall_tau(y, x)
    if np.isfinite(a.tau):
        assert -1 - 1e-12 <= a.tau <= 1 + 1e-12
        assert a.tau == b.tau and a.low <= a.tau <= a.high


@SETTINGS
@given(st.lists(st.integers(0, 5), min_size=2, max_size=40), st.data())
def test_ari_invariant_to_renaming(labels, data):
    other = data.draw(st.lists(st.integers(0, 5), min_size=len(labels), max_size=len(labels)))
    perm = data.draw(st.permutations(range(6)))
    renamed = [f"c{perm[x]}" for x in labels]
    assert agreement.adjusted_rand_index(renamed, other) == agreement.adjusted_rand_index(labels, other)
    assert abs(agreement.adjusted_rand_index(labels, other) - agreement.adjusted_rand_index(other, labels)) < 1e-12


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(2, 12), st.integers(2, 6)),
              elements=st.floats(0, 1, allow_nan=False)), st.integers(0, 2**32))
def test_hsd_pvalues_bounded_and_monotone_in_difference(x, seed):
    out = hsd.randomised_tukey_hsd(x, n_trials=200, seed=seed)
    assert out.p_value.between(0, 1).all()
    ordered = out.assign(ad=out["diff"].abs()).sort_values("ad")
    assert np.all(np.diff(ordered.p_value.to_numpy()) <= 1e-12)


@SETTINGS
@given(st.lists(st.sampled_from("abc"), min_size=2, max_size=40), st.data())
def test_cohens_kappa_symmetric(a, data):
    b = data.draw(st.lists(st.sampled_from("abc"), min_size=len(a), max_size=len(a)))
    k1, k2 = agreement.cohens_kappa(a, b), agreement.cohens_kappa(b, a)
    assert (np.isnan(k1.kappa) and np.isnan(k2.kappa)) or abs(k1.kappa - k2.kappa) < 1e-12
