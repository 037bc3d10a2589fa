"""Seeds and generators: every simulator takes a seed or a ``numpy.random.Generator``."""

from __future__ import annotations

import numpy as np

from .errors import ParameterError

__all__ = ["as_generator"]


def as_generator(seed) -> np.random.Generator:
    """``numpy.random.Generator`` from an int seed or an existing Generator."""
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ParameterError("seed", seed, "an int or a numpy.random.Generator")
    return np.random.default_rng(int(seed))
