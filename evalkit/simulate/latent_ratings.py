"""Ratings that agree: several assessors around a shared latent grade.

Sakai (EVIA 2017, §4) draws every assessor's rating of a relevant item
independently and uniformly on ``{0..Dmax}``, so ratings spread widely; real
multi-assessor ratings (e.g. NTCIR STC-ja) are far more often unanimous.
:func:`simulate_agreeing_ratings` moves between the two with one knob,
``agreement`` in ``[0, 1]``: each relevant item gets a latent grade uniform
on ``{0..Dmax}``, and each assessor reports it with probability
``agreement``, else an independent uniform rating (a mixture, so every single
rating stays uniform on ``{0..Dmax}`` whatever the agreement: the expected
RawG does not move, only the spread D does).

* ``agreement = 0`` is exactly Sakai's simulation, draw for draw (same seed,
  same ratings as :func:`evalkit.simulate.stc.simulate_ratings`);
* ``agreement = 1`` makes every item unanimous (D = 0).
"""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError
from ..seeds import as_generator
from .stc import simulate_ratings

__all__ = ["simulate_agreeing_ratings"]


def simulate_agreeing_ratings(grades, n_assessors: int, dmax: int, agreement: float,
                              seed) -> np.ndarray:
    """``items x n_assessors`` integer ratings; grade-0 items get zeros (as in Sakai's).

    The independent ratings are drawn first, with the same generator calls as
    :func:`~evalkit.simulate.stc.simulate_ratings`; then the latent grades
    and the "agrees" coin of every rating (only when ``agreement > 0``).
    """
    if isinstance(agreement, bool) or not np.isfinite(agreement) or not 0 <= agreement <= 1:
        raise ParameterError("agreement", agreement, "a number in [0, 1]")
    rng = as_generator(seed)
    ratings = simulate_ratings(grades, n_assessors, dmax, rng)
    if agreement == 0:
        return ratings
    grades = np.asarray(grades)
    latent = rng.integers(0, int(dmax) + 1, size=grades.size)
    agrees = rng.random(ratings.shape) < agreement
    ratings = np.where(agrees, latent[:, None], ratings)
    ratings[grades <= 0] = 0
    return ratings
