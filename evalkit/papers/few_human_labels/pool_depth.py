"""Holes in shallow pools, in the style of Upadhyay, Kamalloo & Lin (2024).

Upadhyay, S., Kamalloo, E. & Lin, J. (2024). LLMs can patch up missing
relevance judgments in evaluation. arXiv:2405.04727.  Half of the runs build a
pool of depth ``k`` (10, 20, 50): the human labels of the documents in their
top ``k`` are kept, the others are holes.  Every run is then scored three
ways against those shallow qrels, each against the full human qrels:

* ``non-relevant``: a hole counts as a non-relevant document (trec_eval's
  default);
* ``condensed``: holes removed from each list before scoring
  (``--judged-only``, ``judged_only=True``; Sakai's condensed lists);
* ``filled``: holes take an LLM judge's label (``--fill``, ``fill=``,
  :mod:`evalkit.evaluate.judges.holes`).

:func:`pool_depth_study` reports per depth and strategy Kendall's tau-b of the
leaderboard against the full qrels' (all runs, and the left-out runs alone),
and each left-out run's score shift (strategy minus full, mean over topics,
95% t interval over topics).  On LLMJudge 2024 the runs are simulated over the
judged pool, so this is a worked example of the strategies, not a finding
about real systems.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy import stats

from ...errors import EvalkitNote
from ...evaluate.estimation.judge_panel import pool_runs

__all__ = ["DEPTHS", "STRATEGIES", "pool_depth_study"]

DEPTHS = (10, 20, 50)
STRATEGIES = ("non-relevant", "condensed", "filled")


def _per_topic(runs, qrels, measure, **options) -> pd.DataFrame:
    """Runs x topics of ``measure`` with ``qrels`` as the one judge ``human``."""
    from ...evaluate.scoring.engine import score

    with warnings.catch_warnings():          # the same gains note for every call
        warnings.simplefilter("ignore", EvalkitNote)
        out = score(runs, judges={"human": qrels}, measures=(measure,), per_topic=True,
                    **options)
    return out[out["topic"] != "all"].pivot(index="run", columns="topic", values="value")


def pool_depth_study(labels: pd.DataFrame, human: str, llm: str, seed: int, depths=DEPTHS,
                     n_runs: int = 20, n_teams: int = 8, measure: str = "nDCG@10",
                     alpha: float = 0.05) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(summary, shifts)``.  ``summary``: ``depth, strategy, judged, filled, tau, tau_left_out,
    mean_abs_shift``; ``shifts``: ``depth, strategy, run, shift, ci_low, ci_high`` of the
    left-out runs.  ``n_runs`` runs of ``n_teams`` teams are simulated over ``human``'s pool
    (depth ``max(depths)``), half of them (seeded) pooled; ``llm`` fills the holes."""
    runs = pool_runs(labels, human, seed, n_runs=n_runs, n_teams=n_teams, depth=max(depths))
    names = np.array(sorted(runs["run"].unique()))
    pooling = set(np.random.default_rng(seed).permutation(names)[:len(names) // 2])
    left_out = [r for r in names if r not in pooling]
    full_qrels = labels[labels["judge"] == human][["topic", "doc", "grade"]]
    fill = labels[labels["judge"] == llm][["topic", "doc", "grade"]]
    full = _per_topic(runs, full_qrels, measure)
    rows, shifts = [], []
    for depth in depths:
        top = runs[runs["run"].isin(pooling) & (runs["rank"] <= depth)][["topic", "doc"]]
        shallow = full_qrels.merge(top.drop_duplicates(), on=["topic", "doc"])
        holes = len(fill.merge(shallow[["topic"]].drop_duplicates(), on="topic")) - len(shallow)
        for strategy in STRATEGIES:
            options = {"condensed": {"judged_only": True},
                       "filled": {"fill": fill}}.get(strategy, {})
            with warnings.catch_warnings():   # the fill's count is the `filled` column
                warnings.simplefilter("ignore", EvalkitNote)
                found = _per_topic(runs, shallow, measure, **options).reindex_like(full)
            diff = found - full
            means_full, means = full.mean(axis=1), found.mean(axis=1)
            for run in left_out:
                d = diff.loc[run].to_numpy()
                half = stats.t.ppf(1 - alpha / 2, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
                shifts.append({"depth": depth, "strategy": strategy, "run": run,
                               "shift": d.mean(), "ci_low": d.mean() - half,
                               "ci_high": d.mean() + half})
            rows.append({"depth": depth, "strategy": strategy, "judged": len(shallow),
                         "filled": holes if strategy == "filled" else 0,
                         "tau": stats.kendalltau(means_full, means)[0],
                         "tau_left_out": stats.kendalltau(means_full[left_out],
                                                          means[left_out])[0],
                         "mean_abs_shift": diff.loc[left_out].mean(axis=1).abs().mean()})
    return pd.DataFrame(rows), pd.DataFrame(shifts)
