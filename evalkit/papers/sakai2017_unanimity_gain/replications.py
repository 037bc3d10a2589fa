"""Sakai (EVIA 2017) Tables 2 and 3 over many independent worlds: the draws every claim is judged on.

The paper draws one collection (the NTCIR-12 STC runs) and one set of
simulated ratings per (Dmax, N) condition.  Its Table 2 claim rests mostly on
the collection (how far apart the runs near a tie are), its Table 3 claims on
both.  :func:`replicate` therefore redraws the *whole world* per draw: the
simulated STC-like collection (topics, pools, the 44 runs of 16 teams;
:func:`evalkit.simulate.stc.stc_lists` with the seed :func:`collection_seed`)
and the ratings of every condition (:func:`~.conditions.ratings_stream`).
Draw 0 is the committed world: the collection read from ``data_dir`` (seed
:data:`~.collection.DATA_SEED`) and the ratings of the paper-style tables.
Each world is computed once; its rows serve every claim, table and figure,
including the default-spread worlds of :mod:`.run_spread`
(:func:`replication_summary` summarises the draws).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ...errors import ParameterError
from ...simulate.stc import stc_lists
from .collection import DATA_SEED, Collection, collection_from_lists
from .conditions import score_conditions
from .tables import best_runs, discrepancies, tau_table

__all__ = ["replicate", "replication_summary", "collection_seed", "hsd_border_d", "WHAT_VARIES"]

#: What each draw redraws, for the claims' ``varies`` column.
WHAT_VARIES = {True: ("collection (topics, pool grades, the 44 runs of 16 teams) and the ratings of "
                      "every (Dmax, N); draw 0 is the committed collection and its ratings"),
               False: ("the ratings of every (Dmax, N) on the one given collection; draw 0 is the "
                       "committed ratings")}


def collection_seed(seed: int, draw: int) -> int:
    """The seed of draw ``draw``'s collection: :data:`~.collection.DATA_SEED` for draw 0 (the
    committed collection), else a 32-bit int from ``SeedSequence([seed, draw])``."""
    if draw == 0:
        return DATA_SEED
    return int(np.random.SeedSequence([int(seed), int(draw)]).generate_state(1)[0])


def hsd_border_d(conditions, best: np.ndarray, alpha: float = 0.05) -> float:
    """The HSD border |d| of nG@1 with RawG gains at the first condition: q sqrt(V_E / n).

    The studentised-range approximation of where the randomised test's 5%
    border lies among the best runs (the calibration target of the collection;
    :func:`~.effect_sizes.es_arithmetic` works it out).
    """
    from ...stats import hsd
    from .effect_sizes import studentised_range_q

    raw = conditions.scores["nG@1"][0, 0][:, conditions.valid[0]][best].T   # topics x best runs
    n, s = raw.shape
    return float(studentised_range_q(alpha, s, n) * np.sqrt(hsd.residual_variance(raw) / n))


def replicate(
    collection: Collection,
    dmax_grid: Sequence[int],
    n_grid: Sequence[int],
    replications: int,
    p: float = 0.2,
    n_trials: int = 5000,
    alpha: float = 0.05,
    seed: int = 2017,
    progress: bool = True,
    first: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame] | None = None,
    redraw_collection: bool = True,
    k: int = 10,
    first_conditions=None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Repeat the whole experiment over ``replications`` independent worlds.

    Draw 0 is ``collection`` with the ratings of replication 0; ``first``, the
    ``(tau table, counts, pairs)`` already computed for it, is reused instead
    of recomputed (the same numbers), and so are its scores ``first_conditions``
    (:func:`~.conditions.score_conditions` of draw 0) when given.  Each later draw ``r`` simulates its own
    collection (seed :func:`collection_seed`, depth ``k``) when
    ``redraw_collection`` (else reuses ``collection``, e.g. for real ratings)
    and its own ratings (stream ``(seed, r, Dmax, N)``); the HSD uses the
    permutation seed ``seed + r``.  Returns ``(reps, pairs)``: one row per
    (replication, measure, dmax, N) with the draw's ``collection_seed``, tau,
    its interval, the number of discrepancies and the draw's HSD border |d|
    (:func:`hsd_border_d`); and every discrepant pair of every draw.
    """
    if isinstance(replications, bool) or int(replications) != replications or replications < 1:
        raise ParameterError("replications", replications, "a whole number >= 1")
    frames, pair_frames = [], []
    for rep in tqdm(range(int(replications)), desc="worlds", disable=not progress):
        world = collection
        if rep and redraw_collection:
            world = collection_from_lists(*stc_lists(collection_seed(seed, rep), depth=k))
        best = best_runs(world)
        if rep == 0 and first_conditions is not None:
            cond = first_conditions
        else:
            cond = score_conditions(world, dmax_grid, n_grid, p, seed, rep)
        if rep == 0 and first is not None:
            taus, counts, pairs = first
        else:
            taus = tau_table(cond, world.lists.runs, alpha)
            pairs, counts = discrepancies(cond, world, best, n_trials, alpha, seed + rep)
        merged = taus.merge(counts, on=["measure", "dmax", "N"])
        merged.insert(0, "replication", rep)
        merged.insert(1, "collection_seed", collection_seed(seed, rep) if redraw_collection
                      else DATA_SEED)
        merged["hsd_border_d"] = hsd_border_d(cond, best, alpha)
        frames.append(merged)
        pair_frames.append(pairs.assign(replication=rep))
    pairs = pd.concat(pair_frames, ignore_index=True)
    pairs = pairs[["replication", *[c for c in pairs.columns if c != "replication"]]]
    return pd.concat(frames, ignore_index=True), pairs


def replication_summary(reps: pd.DataFrame) -> pd.DataFrame:
    """Median, quartiles, min and max of tau and mean and max of discrepancy counts over
    the draws, per condition."""
    g = reps.groupby(["measure", "dmax", "N"])
    return (g.agg(tau_median=("tau", "median"),
                  tau_q1=("tau", lambda x: x.quantile(0.25)),
                  tau_q3=("tau", lambda x: x.quantile(0.75)),
                  tau_min=("tau", "min"), tau_max=("tau", "max"),
                  discrepancies_mean=("discrepancies", "mean"),
                  discrepancies_max=("discrepancies", "max"))
            .reset_index())
