"""The graded measures' compiled batch path against the numpy path, bit for bit."""

import numpy as np
import pytest

from evalkit.measures import graded

MEASURES = ("nG@1", "P+", "nERR", "Q")


def _both(g, ideal, beta=1.0, measures=MEASURES):
    fast = graded.batch_measures(g, ideal, measures, beta=beta, compiled=True)
    slow = graded.batch_measures(g, ideal, measures, beta=beta, compiled=False)
    return fast, slow


def _gains(rng, shape, levels):
    """Gains on a few levels (ties, zeros) or continuous ones."""
    if levels:
        return rng.integers(0, levels, shape) * rng.choice([0.5, 1.0, 1 / 3])
    return rng.random(shape) * (rng.random(shape) < 0.6)


@pytest.mark.sweep(20, 400)
def test_compiled_batch_path_gives_the_numpy_paths_bits(sweep_size):
    rng = np.random.default_rng(2017)
    for case in range(sweep_size):
        k, width = int(rng.integers(1, 40)), int(rng.integers(1, 60))
        levels = int(rng.choice([0, 2, 3, 5]))
        g = _gains(rng, (3, 7, 5, k), levels)                  # conditions x runs x topics x k
        ideal = _gains(rng, (3, 1, 5, width), levels)          # broadcast over runs, shorter or longer
        ideal[0, 0, 0] = 0                                     # a topic without a positive gain
        beta = float(rng.choice([1.0, 0.5, 2.0]))
        fast, slow = _both(g, ideal, beta)
        for m in MEASURES:
            assert fast[m].shape == slow[m].shape
            assert fast[m].tobytes() == slow[m].tobytes(), (case, m, np.nanmax(np.abs(fast[m] - slow[m])))


def test_compiled_path_on_hand_computed_lists():
    """g = (3, 0, 1), ideal (3, 1): nG@1 1; nERR: ERR = 3/4 + (1/3)(1/4)(1/4)(1 - 0)... by hand."""
    g, ideal = np.array([[3.0, 0.0, 1.0]]), np.array([[3.0, 1.0]])
    fast, slow = _both(g, ideal)
    p = np.array([3, 0, 1]) / 4
    err = p[0] + (1 - p[0]) * p[1] / 2 + (1 - p[0]) * (1 - p[1]) * p[2] / 3
    ideal_err = 3 / 4 + (1 / 4) * (1 / 4) / 2
    assert fast["nG@1"][0] == 1.0
    assert fast["nERR"][0] == pytest.approx(err / ideal_err, rel=1e-15)
    # BR(1) = (3 + 1)/(3 + 1) = 1, BR(3) = (4 + 2)/(4 + 3); Q = (1 + 6/7)/2, P+ = BR(1) (rp = 1)
    assert fast["Q"][0] == pytest.approx((1 + 6 / 7) / 2, rel=1e-15)
    assert fast["P+"][0] == 1.0
    for m in MEASURES:
        assert fast[m].tobytes() == slow[m].tobytes()


def test_large_batches_take_the_compiled_path_by_default_and_unknown_measures_still_fail():
    rng = np.random.default_rng(1)
    g = rng.random((graded.COMPILED_MIN_LISTS, 10))
    ideal = -np.sort(-rng.random((graded.COMPILED_MIN_LISTS, 12)))
    default = graded.batch_measures(g, ideal)
    slow = graded.batch_measures(g, ideal, compiled=False)
    assert all(default[m].tobytes() == slow[m].tobytes() for m in default)
    with pytest.raises(Exception, match="measures"):
        graded.batch_measures(g, ideal, ("nDCG",), compiled=True)
