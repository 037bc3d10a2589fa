"""Why some of Sakai's (EVIA 2017) Table 2 upper limits stay below 1: run-spread worlds.

The paper's Table 2 has every upper 95% limit of tau at or above 1; the
reproduction misses a few conditions.  The suspected cause is how far apart
the runs near a tie are.  :func:`run_spread_worlds` simulates alternative
collections that differ from the default only in ``run_spread``, on the
collection seeds of the notebook's first draws, and recomputes Table 2 on each;
:func:`run_spread_summary` gives each value's mean with a 95% interval and
the paired difference from the default (the same seeds at every value), so
the effect can be read against the seed-to-seed spread.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ...simulate.stc import STC_DEFAULTS, stc_lists
from .collection import collection_from_lists
from .conditions import score_conditions
from .tables import best_runs, tau_table

__all__ = ["run_spread_worlds", "run_spread_summary"]


def run_spread_worlds(spreads, world_seeds: int, dmax_grid, n_grid, p: float, seed: int,
                      alpha: float = 0.05, k: int = 10, reps: pd.DataFrame | None = None
                      ) -> pd.DataFrame:
    """Alternative simulated collections that differ only in ``run_spread``.

    ``run_spread`` is the sd of a run's skill around its team's
    (:func:`evalkit.simulate.stc.rank_pool`): how far apart the runs near a
    tie are.  For each value and each of the first ``world_seeds`` draws of
    :func:`~.replications.replicate` (collection seed
    :func:`~.replications.collection_seed`, ratings of that draw) a collection
    is simulated with everything else at its default
    (:func:`evalkit.simulate.stc.stc_lists`, the same draws as the files),
    Table 2 is recomputed on the same (Dmax, N) grid, and the row counts the
    conditions whose upper 95% limit of tau reaches 1.  A seed draws the same
    topics, candidates and noise at every value, so values are compared on
    the same collections (paired).  The worlds at the default spread *are*
    the notebook's draws: with ``reps`` (:func:`~.replications.replicate`'s
    rows, at least ``world_seeds`` draws) the rows of draws 1, 2, ... are read
    from it, not recomputed (draw 0 is recomputed from its seed: the
    notebook's draw 0 is the collection read from ``data_dir``, which need not
    be the simulated one).  The calibration target of the collection, the |d| of
    best-run pairs on the HSD border (paper: 0.12-0.17), is reported for each
    world (:func:`~.replications.hsd_border_d`).
    """
    from .replications import collection_seed, hsd_border_d

    default = STC_DEFAULTS["run_spread"]
    reuse = reps is not None and reps["replication"].nunique() >= world_seeds
    rows = []
    for spread in spreads:
        for w in range(world_seeds):
            cseed = collection_seed(seed, w)
            if spread == default and reuse and w > 0:    # draw 0 may be a collection read
                # from files (data_dir), not the simulated one of seed DATA_SEED: recomputed
                t2 = reps[reps["replication"] == w]
                border = float(t2["hsd_border_d"].iloc[0])
            else:
                collection = collection_from_lists(*stc_lists(cseed, run_spread=spread, depth=k))
                cond = score_conditions(collection, dmax_grid, n_grid, p, seed, w)
                t2 = tau_table(cond, collection.lists.runs, alpha)
                border = hsd_border_d(cond, best_runs(collection), alpha)
            rows.append({"run_spread": spread, "collection_seed": cseed,
                         "world": "default" if spread == default else "alternative",
                         "upper_at_least_1": int((t2["high"] >= 1).sum()), "conditions": len(t2),
                         "tau_mean": float(t2["tau"].mean()), "hsd_border_d": border})
    return pd.DataFrame(rows)


def _t_interval(x: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Mean +- t_{(1+level)/2, n-1} sd / sqrt(n); NaN with fewer than two values."""
    x = np.asarray(x, float)
    if len(x) < 2:
        return float("nan"), float("nan")
    half = stats.t.ppf(0.5 + level / 2, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))
    return float(x.mean() - half), float(x.mean() + half)


def run_spread_summary(worlds: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Per ``run_spread``: worlds, the mean count of upper limits >= 1 with its t interval,
    the worlds where all conditions reach 1, and the paired difference from the default
    spread (same collection seeds) with its t interval."""
    default = STC_DEFAULTS["run_spread"]
    wide = worlds.pivot(index="collection_seed", columns="run_spread", values="upper_at_least_1")
    rows = []
    for spread, x in wide.items():
        x = x.dropna().to_numpy()
        lo, hi = _t_interval(x, level)
        diff = (wide[spread] - wide[default]).dropna().to_numpy() if default in wide else np.array([])
        dlo, dhi = _t_interval(diff, level) if spread != default else (0.0, 0.0)
        rows.append({"run_spread": spread, "worlds": len(x), "mean": x.mean(), "low": lo,
                     "high": hi, "all_conditions": int((x >= worlds["conditions"].max()).sum()),
                     "diff_vs_default": diff.mean() if len(diff) else float("nan"),
                     "diff_low": dlo, "diff_high": dhi})
    return pd.DataFrame(rows)
