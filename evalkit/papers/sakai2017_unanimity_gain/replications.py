"""Beyond Sakai (EVIA 2017): Tables 2 and 3 over many independent rating draws.

The paper draws the simulated ratings once per (Dmax, N) condition;
:func:`replicate` repeats the whole experiment over several draws, so that
one can see how much of tau and of the discrepancy counts is the luck of
the draw (:func:`replication_summary`).
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd
from tqdm.auto import tqdm

from ...errors import ParameterError
from .collection import Collection
from .conditions import score_conditions
from .tables import best_runs, discrepancies, tau_table

__all__ = ["replicate", "replication_summary"]


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
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Repeat the whole experiment over ``replications`` independent rating draws.

    Replication 0 is the draw the paper-style tables use; ``first``, the
    ``(tau table, counts, pairs)`` already computed for it, is reused instead
    of recomputed (the same numbers).  Returns ``(reps, pairs)``: one row per
    (replication, measure, dmax, N) with tau, its interval and the number of
    discrepancies; and every discrepant pair of every draw, with its
    replication.
    """
    if isinstance(replications, bool) or int(replications) != replications or replications < 1:
        raise ParameterError("replications", replications, "a whole number >= 1")
    best = best_runs(collection)
    frames, pair_frames = [], []
    for rep in tqdm(range(int(replications)), desc="replications", disable=not progress):
        if rep == 0 and first is not None:
            taus, counts, pairs = first
        else:
            cond = score_conditions(collection, dmax_grid, n_grid, p, seed, rep)
            taus = tau_table(cond, collection.lists.runs, alpha)
            pairs, counts = discrepancies(cond, collection, best, n_trials, alpha, seed + rep)
        merged = taus.merge(counts, on=["measure", "dmax", "N"])
        merged.insert(0, "replication", rep)
        frames.append(merged)
        pair_frames.append(pairs.assign(replication=rep))
    pairs = pd.concat(pair_frames, ignore_index=True)
    pairs = pairs[["replication", *[c for c in pairs.columns if c != "replication"]]]
    return pd.concat(frames, ignore_index=True), pairs


def replication_summary(reps: pd.DataFrame) -> pd.DataFrame:
    """Mean, min and max tau and discrepancy counts over rating draws, per condition."""
    return (reps.groupby(["measure", "dmax", "N"])
            .agg(tau_mean=("tau", "mean"), tau_min=("tau", "min"), tau_max=("tau", "max"),
                 discrepancies_mean=("discrepancies", "mean"),
                 discrepancies_max=("discrepancies", "max"))
            .reset_index())
