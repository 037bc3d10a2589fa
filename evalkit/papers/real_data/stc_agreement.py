"""Beyond the paper: an agreement knob on the real STC-ja pool.

Sakai (EVIA 2017 §5) expected real ratings to move the RawG-vs-UG ranking
more than his uniform ones; whether they do is judged over the uniform
draws in ``claims.csv``.  Uniform ratings differ from real
ones in two ways at once: they disagree more, and they ignore which items
are good.  :func:`agreement_worlds` draws ratings around each item's real
mean with a noise sigma and varies only sigma.  Outputs ``stc_agreement*``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...measures import gains
from .. import sakai2017_unanimity_gain as unanimity
from .stc_rawg_vs_ug import rawg_vs_ug_many

__all__ = ["NOISE_GRID", "agreement_worlds"]

#: Noise of the agreement knob: sd of each rating around the item's real mean.
NOISE_GRID = (0.25, 0.5, 1.0, 2.0, 4.0)


def agreement_worlds(collection: unanimity.Collection, per_topic: list, p: float, trials: int,
                     alpha: float, seed: int, noises=NOISE_GRID) -> pd.DataFrame:
    """Alternative ratings on the real pool: ten ratings around each item's real mean.

    Each item the real assessors found relevant gets N = 10 ratings
    ``clip(round(m_i + e), 0, 2)`` with ``m_i`` its real mean rating and
    ``e ~ N(0, sigma^2)``; other items get zeros (as in Sakai's simulation).
    Only sigma varies: small sigma keeps both the real ranking signal (which
    items are good) and near-unanimous ratings; large sigma tends to Sakai's
    uniform ratings, which keep neither.  Per sigma: RawG-vs-UG tau and HSD
    discrepancies (as :func:`stc_experiment`), the share of relevant items with
    D < Dmax (the agreement statistic of :func:`stc_spread`) and the number
    of best-run pairs significant under RawG (how much ranking signal is left).
    """
    dmax = 2
    best = unanimity.best_runs(collection)
    jobs, agrees = [], []
    for i, sigma in enumerate(noises):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 77, i]))
        sim = []
        for r in per_topic:
            mean = np.nanmean(r, axis=1)
            draw = np.clip(np.rint(mean[:, None] + rng.normal(0, sigma, (len(r), 10))), 0, dmax)
            sim.append(np.where((np.nansum(r, axis=1) > 0)[:, None], draw, 0).astype(np.int64))
        relevant = np.concatenate([r[r.sum(axis=1) > 0] for r in sim])
        agree = float((gains.rating_spread(relevant) < dmax).mean())
        jobs.append((sim, seed))
        agrees.append(agree)
    frames = rawg_vs_ug_many(collection, best, jobs, dmax, p, trials, alpha)   # one HSD pass
    return pd.concat([f.assign(sigma=sigma, share_D_below_dmax=agree)
                      for f, sigma, agree in zip(frames, noises, agrees)], ignore_index=True)
