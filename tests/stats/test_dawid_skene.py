"""Dawid-Skene EM recovers planted assessor confusion matrices and class priors."""

import numpy as np
import pytest

from evalkit.errors import InputError
from evalkit.stats.dawid_skene import dawid_skene

# five assessors over grades 0..2: a careful one, a noisy one, a lenient one (rates one
# grade up), a harsh one (one grade down) and a near-perfect one; rows: true grade
PLANTED = np.array([
    [[.90, .08, .02], [.10, .80, .10], [.05, .15, .80]],
    [[.60, .30, .10], [.30, .50, .20], [.10, .30, .60]],
    [[.30, .60, .10], [.00, .30, .70], [.00, .05, .95]],
    [[.95, .05, .00], [.70, .30, .00], [.10, .60, .30]],
    [[.95, .05, .00], [.05, .90, .05], [.00, .05, .95]],
])
PRIOR = np.array([0.5, 0.3, 0.2])


def _ratings(seed, n_items=6000):
    rng = np.random.default_rng(seed)
    truth = rng.choice(3, size=n_items, p=PRIOR)
    items, who, said = [], [], []
    for i in range(n_items):
        for j in rng.choice(5, size=rng.integers(2, 6), replace=False):   # 2..5 ratings each
            items.append(i)
            who.append(j)
            said.append(rng.choice(3, p=PLANTED[j, truth[i]]))
    return np.array(items), np.array(who), np.array(said), truth


@pytest.mark.parametrize("seed", [1, 2])
def test_planted_confusion_matrices_and_prior_are_recovered(seed):
    items, who, said, truth = _ratings(seed)
    fit = dawid_skene(items, who, said, 3)
    assert fit.converged
    # each assessor rates about 3.5/5 * 6000 = 4200 items: binomial SE of a cell <= 0.02
    assert np.abs(fit.confusion - PLANTED).max() < 0.07
    assert np.abs(fit.prior - PRIOR).max() < 0.02
    # the posterior's grade beats the majority vote (which the lenient/harsh assessors bias)
    votes = np.zeros((len(truth), 3))
    np.add.at(votes, (items, said), 1)
    majority = votes.argmax(axis=1)
    assert (fit.posterior.argmax(axis=1) == truth).mean() > (majority == truth).mean() + 0.05
    np.testing.assert_allclose(fit.posterior.sum(axis=1), 1.0)


def test_deterministic_and_codes_checked():
    items, who, said, _ = _ratings(3, 300)
    a, b = dawid_skene(items, who, said, 3), dawid_skene(items, who, said, 3)
    assert a.log_likelihood == b.log_likelihood and np.array_equal(a.posterior, b.posterior)
    with pytest.raises(InputError, match="at least one rating"):
        dawid_skene([0, 2], [0, 1], [1, 0])
    with pytest.raises(InputError, match="paired"):
        dawid_skene([0, 1], [0], [1, 0])
