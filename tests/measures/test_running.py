"""evalkit.measures.running: the compiled running sum gives np.cumsum's bits, type and shape."""

from __future__ import annotations

import numpy as np
import pytest

from evalkit.measures import running
from evalkit.measures.running import COMPILED_MIN_CELLS, running_sum, sequential_total


def _floats(rng, shape):
    """Values over ten orders of magnitude, with -0.0, NaN and infinities among them."""
    values = rng.normal(size=shape) * 10.0 ** rng.integers(-5, 6, size=shape)
    flat = values.reshape(-1)
    flat[::97], flat[5::1001], flat[7::2003], flat[11::3001] = -0.0, np.nan, np.inf, -np.inf
    return values


@pytest.mark.parametrize("shape", [(3, 50, 1000), (1, 200, 1000), (7,), (2, 3, 1), (40000,)])
def test_compiled_running_sums_have_numpys_bits(shape):
    rng = np.random.default_rng(sum(shape))
    values, hits = _floats(rng, shape), rng.random(shape) < 0.3
    cases = [(values, None), (values, np.float64), (hits, None), (hits, np.int64),
             (hits, np.int32), (hits, float), (hits.astype(np.int8), None),
             (rng.integers(-9, 9, size=shape), None), (values[..., ::2], None),
             (np.nan_to_num(values, posinf=0, neginf=0) % 7 - 3, np.int64),
             (rng.integers(-9, 9, size=shape), float),
             (np.swapaxes(values, 0, -1), None)]
    for a, dtype in cases:
        with np.errstate(invalid="ignore"):                  # inf + -inf, as numpy says
            theirs = np.cumsum(a, axis=-1, dtype=dtype)
        with np.errstate(invalid="ignore"):
            ours = running_sum(a, dtype, compiled=True)
        assert (ours.dtype, ours.shape) == (theirs.dtype, theirs.shape)
        assert ours.tobytes() == theirs.tobytes(), (a.dtype, dtype)


def test_the_order_of_additions_is_numpys_not_pairwise():
    # 1e16 + 1 + 1 ... one after another loses every 1; a pairwise sum keeps some
    a = np.r_[1e16, np.ones(255)]
    assert running_sum(a, compiled=True)[-1] == np.cumsum(a)[-1] == 1e16
    assert sequential_total(np.stack([a, a]))[0] == 1e16 != a.sum()


def test_empty_and_other_arrays_are_numpys():
    for a in (np.zeros((3, 0)), np.zeros(0), np.array([1.5, 2], dtype=object),
              np.ones(4, dtype=np.float32)):
        ours, theirs = running_sum(a, compiled=True), np.cumsum(a, axis=-1)
        assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs)
    assert sequential_total(np.zeros((2, 0))).tolist() == [0.0, 0.0]


def test_the_compiled_loop_only_for_large_arrays_once_numba_is_loaded(monkeypatch):
    import evalkit.measures._running_kernel as kernel

    calls = []
    original = kernel.running_rows
    monkeypatch.setattr(kernel, "running_rows", lambda rows, out: calls.append(rows.size) or
                        original(rows, out))
    running_sum(np.ones((2, 10)))                            # small: numpy
    assert calls == []
    large = np.ones((4, COMPILED_MIN_CELLS // 4))
    assert running_sum(large)[:, -1].tolist() == [COMPILED_MIN_CELLS // 4] * 4
    assert calls == [large.size]                             # numba is loaded in the tests
    monkeypatch.setattr(running, "_numba_loaded", lambda: False)
    running_sum(large)                                       # numba not loaded: numpy
    assert calls == [large.size]
