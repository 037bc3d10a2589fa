"""Beyond the paper: two controlled worlds that separate agreement from the runs' signal.

The agreement knob (:mod:`.stc_agreement`) moves agreement and ranking
signal together.  :func:`control_worlds` moves one at a time on the real
STC-ja pool (RawG fixed with unanimity varied; real rating vectors shuffled),
to explain why real and uniform ratings (Sakai, EVIA 2017 §4-5) differ.
Outputs ``stc_controls*``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ...measures import gains
from ...simulate import stc as simulate
from .. import sakai2017_unanimity_gain as unanimity
from .stc_rawg_vs_ug import rawg_vs_ug_many, split_by_topic

__all__ = ["DISAGREE_GRID", "control_worlds", "controls_summary"]

#: Share of relevant items given disagreeing ratings in the fixed-RawG worlds.
DISAGREE_GRID = (0.0, 0.25, 0.5, 0.75, 1.0)


def control_worlds(collection: unanimity.Collection, per_topic: list, p: float, trials: int,
                   alpha: float, seed: int, draws: int, shares=DISAGREE_GRID,
                   progress: bool = True) -> pd.DataFrame:
    """Two controlled experiments on the real pool, N = 10, Dmax = 2.

    * ``fixed RawG``: every item keeps its real RawG (so the RawG ranking and
      its significant pairs are exactly the real ones) and only unanimity
      varies: a share ``w`` of the relevant items, drawn at random, gets
      disagreeing ratings (D = 2), the rest the most unanimous ratings with
      that sum (D <= 1) (:func:`evalkit.simulate.stc.fixed_sum_ratings`).
    * ``shuffled``: the real rating vectors permuted among each topic's relevant
      items (:func:`evalkit.simulate.stc.shuffle_relevant`): agreement exactly
      the real one, but which item got which ratings no longer matches how the
      runs rank it: the runs' signal is cut, as in Sakai's uniform ratings.

    ``draws`` seeded draws per world; one row per (world, w, draw, measure)
    with tau, discrepancies, significant pairs and the share of relevant
    items with D < Dmax reached.
    """
    dmax, n = 2, 10
    best = unanimity.best_runs(collection)
    flat = np.concatenate(per_topic)
    raw = np.rint(np.nansum(flat, axis=1)).astype(np.int64)
    rel = raw > 0
    todo = [("fixed RawG", w, d) for w in shares for d in range(draws)]
    todo += [("shuffled", np.nan, d) for d in range(draws)]
    jobs, shares_reached = [], []
    for k, (world, w, d) in enumerate(tqdm(todo, desc="control worlds", disable=not progress)):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 15, k]))
        if world == "fixed RawG":
            sim = split_by_topic(simulate.fixed_sum_ratings(raw, n, dmax, rng.random(len(raw)) < w),
                                 per_topic)
        else:
            sim = [simulate.shuffle_relevant(r, rng) for r in per_topic]
        spread = gains.rating_spread(np.concatenate(sim)[rel])
        jobs.append((sim, seed))
        shares_reached.append(float((spread < dmax).mean()))
    frames = rawg_vs_ug_many(collection, best, jobs, dmax, p, trials, alpha)   # one HSD pass
    return pd.concat([f.assign(world=world, disagree_share=w, draw=d, share_D_below_dmax=share)
                      for f, (world, w, d), share in zip(frames, todo, shares_reached)],
                     ignore_index=True)


def controls_summary(worlds: pd.DataFrame) -> pd.DataFrame:
    """Mean tau, discrepancies and significant pairs per world, share and measure."""
    return (worlds.groupby(["world", "disagree_share", "measure"], dropna=False)
            .agg(tau=("tau", "mean"), tau_min=("tau", "min"), tau_max=("tau", "max"),
                 discrepancies=("discrepancies", "mean"),
                 significant_RawG=("significant_RawG", "mean"),
                 share_D_below_dmax=("share_D_below_dmax", "mean"), draws=("tau", "size"))
            .reset_index())
