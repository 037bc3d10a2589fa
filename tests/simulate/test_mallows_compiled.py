"""The compiled Mallows sampler against the item-by-item reference (``rng.choice`` per item)."""

import numpy as np
import pytest

from evalkit.simulate import orderings as sim


def _same_draw(k: int, phi: float, seed: int) -> bool:
    fast, slow = np.random.default_rng(seed), np.random.default_rng(seed)
    a = sim.mallows(range(k), phi, fast)
    b = sim.mallows_reference(range(k), phi, slow)
    # the same ordering and the generators left in the same state (the same numbers consumed)
    return a == b and fast.bit_generator.state == slow.bit_generator.state


@pytest.mark.sweep(300, 20000)
def test_compiled_mallows_draws_the_references_orderings_bit_for_bit(sweep_size):
    rng = np.random.default_rng(2010)
    cases = [(int(rng.integers(1, 41)), float(rng.choice([0.0, 1.0, rng.random(), rng.random() ** 8])),
              int(rng.integers(2**31))) for _ in range(sweep_size)]
    bad = [c for c in cases if not _same_draw(*c)]
    assert not bad, f"{len(bad)} of {len(cases)} draws differ, e.g. (k, phi, seed) = {bad[0]}"


@pytest.mark.parametrize("k", [1, 2, 7, 8, 9, 15, 16, 17, 24, 128])
def test_compiled_mallows_at_every_summation_boundary(k):
    """numpy sums 8 terms or more in 8 partial sums: both sides of each boundary."""
    assert all(_same_draw(k, phi, seed) for phi in (0.0, 0.3, 0.44, 0.999, 1.0) for seed in range(5))


def test_longer_orderings_use_the_reference_and_phi_is_checked():
    k = sim.MALLOWS_COMPILED_MAX + 3
    assert _same_draw(k, 0.5, 1)
    with pytest.raises(Exception, match="phi"):
        sim.mallows(range(3), 1.5, np.random.default_rng(0))


def test_mallows_concentrates_on_the_centre_as_the_model_says():
    """P(s) ~ phi^d(s, centre): for k = 3 the six orderings' frequencies follow phi^d / Z."""
    phi, n = 0.5, 20000
    rng = np.random.default_rng(3)
    counts = {}
    for _ in range(n):
        s = sim.mallows("abc", phi, rng)
        counts[s] = counts.get(s, 0) + 1
    inversions = {"abc": 0, "bac": 1, "acb": 1, "bca": 2, "cab": 2, "cba": 3}
    z = sum(phi**d for d in inversions.values())
    for s, d in inversions.items():
        expected = phi**d / z
        assert abs(counts.get(tuple(s), 0) / n - expected) < 4 * np.sqrt(expected * (1 - expected) / n)
