"""Beyond the paper: N of the ten real STC-ja assessors per item.

Sakai (EVIA 2017, §4-5) expects the unanimity effect to shrink as N grows,
because N independent uniform ratings almost surely span 0..Dmax.
:func:`assessor_subsets` keeps N of each item's real ratings and compares
RawG with UG as :func:`~evalkit.papers.real_data.stc_rawg_vs_ug.stc_experiment`
does; :func:`uniform_share_below_dmax` is the same agreement statistic for
Sakai's uniform raters, in closed form.  Outputs ``stc_assessors_n*``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ...measures import gains
from ...simulate import stc as simulate
from .. import sakai2017_unanimity_gain as unanimity
from .stc_rawg_vs_ug import rawg_vs_ug, split_by_topic

__all__ = ["N_GRID", "assessor_subsets", "uniform_share_below_dmax", "subset_summary"]

#: Assessors drawn per item in the N-subsampling experiment (STC-ja has ten).
N_GRID = (2, 3, 5, 7, 10)


def assessor_subsets(collection: unanimity.Collection, per_topic: list, p: float, trials: int,
                     alpha: float, seed: int, subsets: int, n_grid=N_GRID, dmax: int = 2,
                     progress: bool = True) -> pd.DataFrame:
    """Beyond the paper: RawG vs UG with N of the real assessors per item.

    For each N and each of ``subsets`` seeded draws, every item keeps N of its
    real ratings chosen at random (:func:`evalkit.simulate.stc.subsample_assessors`:
    its own draw, so different items keep different assessors: crowd-style
    pools of correlated, real raters); RawG and UG (N_i = N) are compared as in
    :func:`stc_experiment` (Kendall tau of all runs, HSD discrepancies among
    each team's best run).  N equal to the ratings per item keeps every rating
    (one draw), so its rows equal the real-ratings row.  The runs are the
    simulated ones of :func:`stc_collection` (or any collection over the pool).
    """
    flat = np.concatenate(per_topic)
    full = flat.shape[1]
    best = unanimity.best_runs(collection)
    frames = []
    todo = [(n, s) for n in n_grid for s in range(subsets if n < full else 1)]
    for n, s in tqdm(todo, desc="assessor subsets", disable=not progress):
        picked = simulate.subsample_assessors(flat, n, np.random.default_rng(
            np.random.SeedSequence([seed, n, s])))
        spread = gains.rating_spread(picked[gains.raw_gain(picked) > 0])
        frames.append(rawg_vs_ug(collection, best, split_by_topic(picked, per_topic), dmax, p,
                                 trials, alpha, seed + s)
                      .assign(subset=s, share_D_below_dmax=float((spread < dmax).mean())))
    return pd.concat(frames, ignore_index=True)


def uniform_share_below_dmax(n: int, dmax: int = 2) -> float:
    """P(D < Dmax) for ``n`` independent ratings uniform on ``0..dmax`` (Sakai's simulation).

    D < Dmax unless both 0 and Dmax occur: P(no 0) + P(no Dmax) - P(neither)
    = 2 (dmax / (dmax + 1))^n - ((dmax - 1) / (dmax + 1))^n.
    """
    return 2 * (dmax / (dmax + 1)) ** n - ((dmax - 1) / (dmax + 1)) ** n


def subset_summary(res: pd.DataFrame) -> pd.DataFrame:
    """Mean, min and max of tau and of the discrepancy count per measure and N."""
    return (res.groupby(["measure", "N"])
            .agg(tau=("tau", "mean"), tau_min=("tau", "min"), tau_max=("tau", "max"),
                 discrepancies=("discrepancies", "mean"),
                 discrepancies_max=("discrepancies", "max"), subsets=("tau", "size"),
                 share_D_below_dmax=("share_D_below_dmax", "mean"))
            .reset_index()
            .assign(uniform_share_D_below_dmax=lambda f: [uniform_share_below_dmax(n) for n in f["N"]]))
