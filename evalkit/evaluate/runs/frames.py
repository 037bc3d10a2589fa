"""Runs given as frames: ``run, topic, doc, rank`` from TREC-like tables, and a run's team."""

from __future__ import annotations

import pandas as pd

from ...errors import InputError
from ..columns import rename

__all__ = ["normalise_runs", "team_of"]


def normalise_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """``run, topic, doc, rank`` from a TREC-like frame.

    Without a ``rank`` column the order is by ``score`` descending, ties broken
    by document id descending (trec_eval's rule).  Without a run column all
    rows are one run named ``run``.
    """
    r = rename(runs, ("topic", "doc"), ("run", "rank", "score"), what="runs")
    if "run" not in r:
        r.insert(0, "run", "run")
    if "rank" not in r:
        if "score" not in r:
            raise InputError("runs need a 'rank' or a 'score' column")
        r = r.sort_values(["run", "topic", "score", "doc"], ascending=[True, True, False, False],
                          kind="stable")
        r["rank"] = r.groupby(["run", "topic"]).cumcount() + 1
    return r[["run", "topic", "doc", "rank"]].reset_index(drop=True)


def team_of(run: str) -> str:
    """A run's team: its tag up to the first '-' (Sakai's best-run-per-team selection)."""
    return run.split("-", 1)[0]
