"""NTCIR-12 STC Japanese: ten real ratings per item, and RawG vs UG on the real pool.

Sakai (EVIA 2017) simulated N uniform ratings per item (§4) and named the
Japanese subtask's ten real ratings per item as future work (§4 footnote 3,
§6).  This module is that experiment:

* :func:`load_stc`, :func:`missing_ratings_summary` — the ratings (NA kept as NaN);
* :func:`stc_spread` — the spread D of the real ratings against Sakai's
  uniform simulation on the same items;
* :func:`stc_collection` — simulated runs over the real pool (the real runs
  are not public);
* :func:`rawg_vs_ug` (:func:`rawg_vs_ug_many`), :func:`stc_experiment`, :func:`stc_summary` — Kendall
  tau (§5 Table 2) and randomised Tukey HSD discrepancies (§5 Table 3) of
  RawG vs UG, under the real ratings and under uniform ones.

The other experiments of the package (:mod:`.stc_assessors_n`,
:mod:`.stc_agreement`, :mod:`.stc_controls`) re-use :func:`rawg_vs_ug` with
other ratings on the same pool.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ...formats.ratings import read_ratings
from ...measures import gains, graded as measures
from ...simulate import stc as simulate
from .. import sakai2017_unanimity_gain as unanimity
from ..sakai2017_unanimity_gain.tables import _hsd_all_many

__all__ = ["load_stc", "missing_ratings_summary", "stc_spread", "stc_collection",
           "split_by_topic", "rawg_vs_ug", "rawg_vs_ug_many", "stc_experiment", "stc_summary"]


def load_stc(path) -> tuple[pd.DataFrame, np.ndarray]:
    """STC-ja ratings: ``(items with post, reply; ratings items x 10, NaN = NA)``."""
    return read_ratings(path, dmax=2)


def missing_ratings_summary(ratings: np.ndarray) -> pd.DataFrame:
    """How many items have how many ratings (N_i), and what Eq. 2 then does."""
    n_i = np.count_nonzero(~np.isnan(ratings), axis=1)
    counts = pd.Series(n_i).value_counts().sort_index()
    return pd.DataFrame({"ratings per item (N_i)": counts.index, "items": counts.values})


def stc_spread(ratings: np.ndarray, dmax: int, seed: int) -> pd.DataFrame:
    """Share of items with each spread D among items with RawG > 0: real vs uniform.

    The uniform column is Sakai's simulation on the same items: N ratings
    uniform on 0..dmax for every item that real assessors found relevant.
    """
    raw = gains.raw_gain(ratings)
    real = gains.rating_spread(ratings[raw > 0])
    n = ratings.shape[1]
    uniform = simulate.simulate_ratings(np.ones(int((raw > 0).sum())), n, dmax, seed)
    uni = gains.rating_spread(uniform[gains.raw_gain(uniform) > 0])
    levels = np.arange(dmax + 1)
    return pd.DataFrame({"D": levels,
                         "real_items": [(real == d).sum() for d in levels],
                         "real_share": [(real == d).mean() for d in levels],
                         "uniform_share": [(uni == d).mean() for d in levels]})


def stc_collection(items: pd.DataFrame, ratings: np.ndarray, seed: int, n_teams: int = 7,
                   n_runs: int = 25, depth: int = 10) -> tuple[unanimity.Collection, list]:
    """Simulated runs over the real STC-ja pool (the real runs are not public).

    Runs rank each post's replies by their real mean rating plus system noise
    (:func:`evalkit.simulate.stc.rank_pool`); the default 25 runs from 7 teams is
    the size of the real Japanese subtask.  Returns the collection (every
    reply judged, grade = 1 if any assessor rated it above 0) and, per topic,
    the ratings aligned with the collection's items.
    """
    frame = items.assign(row=np.arange(len(items)), mean=np.nanmean(ratings, axis=1))
    pool = {post: (g["reply"].to_numpy(), g["mean"].to_numpy()) for post, g in frame.groupby("post")}
    runs = simulate.rank_pool(pool, seed, n_teams, n_runs, depth)
    qrels = pd.DataFrame({"topic": frame["post"], "doc": frame["reply"],
                          "grade": (np.nansum(ratings, axis=1) > 0).astype(int)})
    lists = measures.ranked_lists(runs, qrels, depth)
    row = {(t, d): r for t, d, r in zip(frame.post, frame.reply, frame.row)}
    per_topic = [ratings[[row[(t, d)] for d in docs]] for t, docs in zip(lists.topics, lists.items)]
    grades = tuple((np.nansum(r, axis=1) > 0).astype(int) for r in per_topic)
    return unanimity.Collection(qrels, lists, grades, ()), per_topic


def split_by_topic(flat: np.ndarray, per_topic: list) -> list:
    """Cut ``flat`` (one entry or row per item, topics in order) into blocks shaped like ``per_topic``."""
    return np.split(flat, np.cumsum([len(r) for r in per_topic])[:-1])


def rawg_vs_ug(collection: unanimity.Collection, best: np.ndarray, per_topic: list, dmax: int,
               p: float, trials: int, alpha: float, seed: int) -> pd.DataFrame:
    """Tau (all runs) and HSD discrepancies (best runs) of RawG vs UG for one set of ratings.

    ``per_topic`` holds each topic's ``items x N`` ratings aligned with the
    collection's items; N is their column count.  One row per measure.
    RawG is the sum of an item's ratings and UG = RawG + p N (Dmax - D) when
    RawG > 0 (Sakai's Eq. 2; :mod:`evalkit.measures.gains`).
    """
    return rawg_vs_ug_many(collection, best, [(per_topic, seed)], dmax, p, trials, alpha)[0]


#: Jobs scored together by :func:`_conditions_many`.
_BATCH = 8


def _conditions_many(collection: unanimity.Collection, jobs, dmax: int, p: float) -> list:
    """RawG and UG scores of each job's ratings, all jobs scored in one batch.

    The same Conditions (and bits) as :func:`unanimity.conditions_from_gains` job by job
    (the measures reduce each list's own gains only, so the batch does not change a sum).
    """
    lists, padded, conditions = collection.lists, [], []
    for per_topic, _ in jobs:
        flat = np.concatenate(per_topic)
        raw, ug = gains.raw_and_unanimity_gain(flat, dmax, p)
        padded.append(np.stack([lists.pad(split_by_topic(raw, per_topic)),
                                lists.pad(split_by_topic(ug, per_topic))]))
        conditions.append((dmax, flat.shape[1]))
    out = []
    for start in range(0, len(jobs), _BATCH):        # a few MB of run gains a batch (faster than all)
        scores, valid = measures.score_runs(lists, np.stack(padded[start:start + _BATCH]),
                                            unanimity.MEASURE_NAMES)
        out += [unanimity.Conditions((c,), {m: s[i:i + 1] for m, s in scores.items()}, valid[i:i + 1, 0])
                for i, c in enumerate(conditions[start:start + _BATCH])]
    return out


def rawg_vs_ug_many(collection: unanimity.Collection, best: np.ndarray, jobs, dmax: int,
                    p: float, trials: int, alpha: float) -> list:
    """:func:`rawg_vs_ug` of each ``(per_topic, seed)`` in ``jobs``: the same frames, with the
    HSD of all the jobs that share a seed run in one pass (one set of permutations)."""
    conds = _conditions_many(collection, jobs, dmax, p)
    tables = [None] * len(jobs)
    for seed in dict.fromkeys(s for _, s in jobs):
        idx = [i for i, (_, s) in enumerate(jobs) if s == seed]
        for i, t in zip(idx, _hsd_all_many([conds[i] for i in idx], best, trials, seed)):
            tables[i] = t
    frames = []
    for cond, (_, seed), t in zip(conds, jobs, tables):
        taus = unanimity.tau_table(cond, collection.lists.runs, alpha)
        _, counts = unanimity.discrepancies(cond, collection, best, trials, alpha, seed, tables=t)
        frames.append(taus.merge(counts, on=["measure", "dmax", "N"]))
    return frames


def stc_experiment(collection: unanimity.Collection, per_topic: list, p: float, trials: int,
                   alpha: float, seed: int, replications: int, progress: bool = True) -> pd.DataFrame:
    """Tau and HSD discrepancies of RawG vs UG: real ratings, then uniform ratings.

    One row per (ratings, replication, measure).  The real ratings are one
    fixed set (replication 0); the uniform baseline draws Sakai's simulated
    ratings ``replications`` times on the same pool (N = 10, Dmax = 2).
    """
    dmax, n = 2, per_topic[0].shape[1]
    best = unanimity.best_runs(collection)
    jobs = [(per_topic, seed)]
    for rep in tqdm(range(replications), desc="uniform baseline", disable=not progress):
        rng = np.random.default_rng(np.random.SeedSequence([seed, rep, dmax, n]))
        jobs.append(([simulate.simulate_ratings(g, n, dmax, rng) for g in collection.grades],
                     seed + rep))
    frames = rawg_vs_ug_many(collection, best, jobs, dmax, p, trials, alpha)
    frames = [frames[0].assign(ratings="real", replication=0)] + [
        f.assign(ratings="uniform", replication=rep) for rep, f in enumerate(frames[1:])]
    return pd.concat(frames, ignore_index=True)


def stc_summary(res: pd.DataFrame) -> pd.DataFrame:
    """Mean tau (with its range) and discrepancy counts per measure, real vs uniform ratings."""
    return (res.groupby(["measure", "ratings"])
            .agg(tau=("tau", "mean"), tau_min=("tau", "min"), tau_max=("tau", "max"),
                 discrepancies=("discrepancies", "mean"), significant_RawG=("significant_RawG", "mean"))
            .reset_index())
