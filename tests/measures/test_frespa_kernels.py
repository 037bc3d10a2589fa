"""FreSPA's compiled ED loops against the numpy originals, bit for bit, and against the definition."""

import numpy as np
import pytest

from evalkit.measures import aggregation, discriminativeness as edm, ed_reference
from evalkit.simulate import orderings as sim


def _random_set(rng, k: int, n: int, phi: float) -> list[tuple]:
    centre = [f"s{i}" for i in range(k)]
    return aggregation.check_judgments([sim.mallows_reference(centre, phi, rng) for _ in range(n)])


GRIDS = [
    [{}],                                                            # the default, one setting
    [{"min_sup": s} for s in (0.0, 0.5, 1.0)],                       # looked up (<= 4 settings)
    [{"min_sup": s, "w_len": w} for s in (0.0, 0.25, 0.75) for w in (0.0, 2.5)],  # counted (> 4)
    [{"min_len": 3, "max_len": 4, "w_sup": 0.0}, {"min_sup": 0.6, "w_sup": 3.0}],
    [{}, {"w_len": 1.0}, {"w_sup": 2.5}, {"min_sup": 0.75}, {"min_len": 2}, {"w_sup": 2.5, "min_sup": 0.0}],
]                                                                    # ^ counted, settings repeated


def _check(judgments) -> None:
    eng = edm.SetEngine(judgments)
    tables, ref = eng._subset_tables(), ed_reference.subset_tables_reference(eng)
    for key in ("length", "equal", "reverse"):
        assert np.array_equal(tables[key], ref[key]), key
    assert np.array_equal(tables["total"], ref["equal"].sum(1))
    numpy_engine = edm.SetEngine(judgments, compiled=False)
    for key, value in numpy_engine._subset_tables().items():
        assert np.array_equal(value, tables[key]) and value.dtype == tables[key].dtype, key
    for grid in GRIDS:
        params = [edm.frespa_params(**p) for p in grid]
        fast, slow = eng.frespa_ed(params), ed_reference.frespa_ed_reference(eng, params)
        assert fast.tobytes() == slow.tobytes(), (grid, fast - slow)
        plain = numpy_engine.frespa_ed(params)                          # the numpy path
        assert plain.tobytes() == fast.tobytes(), (grid, plain - fast)


@pytest.mark.sweep(12, 150)
def test_compiled_frespa_ed_equals_the_numpy_original_bit_for_bit(sweep_size):
    rng = np.random.default_rng(2010)
    for _ in range(sweep_size):
        k, n = int(rng.integers(2, 12)), int(rng.integers(2, 24))
        judgments = _random_set(rng, k, n, float(rng.choice([0.0, 0.3, 0.7, 1.0])))
        _check(edm.add_noise(judgments, float(rng.choice([0.0, 0.5, 1.0])), rng))


@pytest.mark.parametrize("k", [2, 8, 9, 12, 14])   # 1, 28, 36, 66 and 91 pairs: one and two words
def test_compiled_tables_across_the_word_boundary(k):
    _check(_random_set(np.random.default_rng(k), k, 5, 0.6))


def test_compiled_frespa_ed_equals_the_definition_on_a_small_set():
    """The FreSPA score of each held-out judgment and its reverse, from the mined patterns."""
    rng = np.random.default_rng(4)
    judgments = _random_set(rng, 6, 7, 0.5)
    for grid in GRIDS:
        for p in grid:
            params = edm.frespa_params(**p)
            ed = edm.SetEngine(judgments).frespa_ed([params])[0]
            assert ed == pytest.approx(edm._frespa_ed_slow(judgments, params), abs=1e-12)


def test_compiled_sum_is_numpys_pairwise_sum_bit_for_bit():
    """Every length numpy sums plainly (< 8), in 8 partial sums (<= 128) or by halves (above),
    on values of mixed sign and scale and on signed zeros."""
    from evalkit.measures import _frespa_kernels as kernels

    rng = np.random.default_rng(32)
    lengths = list(range(0, 300)) + [1000, 1024, 1031, 4083, 8178, 16369]
    for n in lengths:
        for a in (rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, n), rng.random(n),
                  np.where(rng.random(n) < 0.5, -0.0, 0.0)):
            assert np.array([kernels._sum(a)]).tobytes() == np.array([a.sum()]).tobytes(), n


@pytest.mark.parametrize("k, n", [(13, 20), (10, 31)])   # the notebook's largest sets, noise added
def test_compiled_frespa_ed_on_large_noisy_sets(k, n):
    _check(_random_set(np.random.default_rng(k + n), k, n, 0.5))
