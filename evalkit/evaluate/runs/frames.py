"""Runs given as frames: ``run, topic, doc, rank`` from TREC-like tables, and a run's team."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...errors import InputError
from ..columns import rename

__all__ = ["normalise_runs", "team_of"]


def normalise_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """``run, topic, doc, rank, score`` from a TREC-like frame (ir_measures' and ranx's column
    names too: :mod:`evalkit.evaluate.columns`).

    Scores are what trec_eval orders by (:mod:`evalkit.evaluate.runs.order`);
    without a ``score`` column it is NaN and the ranks give the order.
    Without a ``rank`` column the rank is the place in trec_eval's order
    (score descending, ties by document id descending).  Without a run column
    all rows are one run named ``run``.
    """
    r = rename(runs, ("topic", "doc"), ("run", "rank", "score"), what="runs")
    if "run" not in r:
        r.insert(0, "run", "run")
    if "rank" not in r and "score" not in r:
        raise InputError("runs need a 'rank' or a 'score' column")
    if "score" in r:
        r["score"] = pd.to_numeric(r["score"], errors="coerce")
        if r["score"].isna().any() or not np.isfinite(r["score"].to_numpy(float)).all():
            row = int(np.flatnonzero(~np.isfinite(r["score"].to_numpy(float)))[0])
            raise InputError(f"score {runs.iloc[row][r.columns.get_loc('score')]!r} in row {row} "
                             "is not a finite number")
    else:
        r["score"] = np.nan
    if "rank" not in r:
        r = r.sort_values(["run", "topic", "score", "doc"], ascending=[True, True, False, False],
                          kind="stable")
        r["rank"] = r.groupby(["run", "topic"]).cumcount() + 1
    return r[["run", "topic", "doc", "rank", "score"]].reset_index(drop=True)


def team_of(run: str) -> str:
    """A run's team: its tag up to the first '-' (Sakai's best-run-per-team selection)."""
    return run.split("-", 1)[0]
