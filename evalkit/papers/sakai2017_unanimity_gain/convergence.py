"""Sakai (EVIA 2017) §4: as N grows, UG_i tends to RawG_i under uniform ratings.

§4: "as N gets large, we are more likely to obtain both 0 and D_max among the
N observations and therefore D_i is more likely to be D_max, i.e., UG_i is
more likely to reduce to RawG_i (Eq. 2)".  For N independent ratings uniform
on {0..m} (m = Dmax) inclusion-exclusion gives

* ``P(D = m) = 1 - 2 (m/(m+1))^N + ((m-1)/(m+1))^N`` (both 0 and m seen), which
  rises to 1 with N (:func:`p_full_spread`);
* ``E[UG - RawG] = p N (E[m - D] - m P(all 0))`` with ``E[m - D] = 2 S``,
  ``S = sum_{i=1..m} (i/(m+1))^N`` (``E[max] = m - S``, ``E[min] = S``) and
  ``P(all 0) = (m+1)^-N`` (UG = RawG = 0 then); and ``E[RawG] = N m / 2``, so
  the relative excess ``E[UG - RawG] / E[RawG]`` is
  ``2 p (2 S - m (m+1)^-N) / m``, which falls to 0 (:func:`relative_excess`).

:func:`ug_to_rawg` sets these closed forms beside the committed draw's own
ratings (the stream of :func:`~.conditions.score_conditions`), for the
identity row of the claims.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ...measures import gains
from ...simulate.stc import simulate_ratings
from .collection import Collection
from .conditions import ratings_stream

__all__ = ["p_full_spread", "relative_excess", "ug_to_rawg"]


def p_full_spread(n: int, dmax: int) -> float:
    """``P(D_i = Dmax)`` for ``n`` independent ratings uniform on ``0..dmax`` (see the module)."""
    m = dmax
    return 1 - 2 * (m / (m + 1)) ** n + ((m - 1) / (m + 1)) ** n


def relative_excess(n: int, dmax: int, p: float) -> float:
    """``E[UG_i - RawG_i] / E[RawG_i]`` for a relevant item with uniform ratings (see the module)."""
    m = dmax
    s = sum((i / (m + 1)) ** n for i in range(1, m + 1))
    return 2 * p * (2 * s - m * (m + 1.0) ** -n) / m


def ug_to_rawg(collection: Collection, dmax_grid: Sequence[int], n_grid: Sequence[int],
               p: float = 0.2, seed: int = 2017, replication: int = 0) -> pd.DataFrame:
    """Per (Dmax, N): the closed forms beside one draw's relevant items.

    Columns: ``P_D_eq_Dmax`` (closed form), ``count_D_eq_Dmax`` and
    ``share_D_eq_Dmax`` (the draw's relevant items with D = Dmax), with ``se``
    the binomial standard error of that share; ``excess_expected`` (closed form) and ``excess``
    (the draw's ``sum(UG - RawG) / sum(RawG)`` over relevant items).  The
    ratings are those of ``replication`` (0: the committed draw), the same
    stream as :func:`~.conditions.score_conditions`.
    """
    grades = np.concatenate(collection.grades)
    relevant = grades > 0
    rows = []
    for dmax in dmax_grid:
        for n in n_grid:
            r = simulate_ratings(grades, n, dmax, ratings_stream(seed, replication, dmax, n))
            raw = gains.raw_gain(r)[relevant]
            ug = gains.unanimity_gain(r, dmax, p)[relevant]
            d = gains.rating_spread(r)[relevant]
            prob = p_full_spread(n, dmax)
            rows.append({"dmax": int(dmax), "N": int(n), "relevant_items": int(relevant.sum()),
                         "P_D_eq_Dmax": prob, "count_D_eq_Dmax": int((d == dmax).sum()),
                         "share_D_eq_Dmax": float((d == dmax).mean()),
                         "se": float(np.sqrt(prob * (1 - prob) / relevant.sum())),
                         "excess_expected": relative_excess(n, dmax, p),
                         "excess": float((ug - raw).sum() / raw.sum())})
    return pd.DataFrame(rows)
