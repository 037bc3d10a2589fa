"""Why some of Sakai's (EVIA 2017) Table 2 upper limits stay below 1: run-spread worlds.

The paper's Table 2 has every upper 95% limit of tau at or above 1; the
reproduction misses a few conditions.  The suspected cause is how far apart
the runs near a tie are.  :func:`run_spread_worlds` simulates alternative
collections that differ from the default only in ``run_spread`` and
recomputes Table 2 on each.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...simulate.stc import STC_DEFAULTS, stc_frames
from ...stats import hsd
from .collection import DATA_SEED, collection_from_frames
from .conditions import score_conditions
from .effect_sizes import studentised_range_q
from .tables import best_runs, tau_table

__all__ = ["run_spread_worlds"]


def run_spread_worlds(spreads, world_seeds: int, dmax_grid, n_grid, p: float, seed: int,
                      alpha: float = 0.05, k: int = 10) -> pd.DataFrame:
    """Alternative simulated collections that differ only in ``run_spread``.

    ``run_spread`` is the sd of a run's skill around its team's
    (:func:`evalkit.simulate.stc.rank_pool`): how far apart the runs near a
    tie are.  For each value and each of ``world_seeds`` collection seeds
    (2017, 2018, ...) a collection is simulated (everything else at its
    default), Table 2 is recomputed on the same (Dmax, N) grid, and the row
    counts the conditions whose upper 95% limit of tau reaches 1.  The
    calibration target of the collection, the |d| of best-run pairs on the
    HSD border (paper: 0.12-0.17), is reported for each world as
    q sqrt(V_E / n) of nG@1 with RawG gains at the first (Dmax, N) condition
    (the studentised-range approximation of the randomised test's border;
    see :func:`~evalkit.papers.sakai2017_unanimity_gain.effect_sizes.es_arithmetic`).
    The default world is one of the rows, labelled.
    """
    default = STC_DEFAULTS["run_spread"]
    rows = []
    for spread in spreads:
        for w in range(world_seeds):
            collection = collection_from_frames(
                *stc_frames(DATA_SEED + w, run_spread=spread), k)
            cond = score_conditions(collection, dmax_grid, n_grid, p, seed)
            t2 = tau_table(cond, collection.lists.runs, alpha)
            best = best_runs(collection)
            raw = cond.scores["nG@1"][0, 0][:, cond.valid[0]][best].T       # topics x best runs
            n, s_ = raw.shape
            q = studentised_range_q(alpha, s_, n)
            rows.append({"run_spread": spread, "collection_seed": DATA_SEED + w,
                         "world": "default" if spread == default else "alternative",
                         "upper_at_least_1": int((t2["high"] >= 1).sum()), "conditions": len(t2),
                         "tau_mean": t2["tau"].mean(),
                         "hsd_border_d": q * np.sqrt(hsd.residual_variance(raw) / n)})
    return pd.DataFrame(rows)
