"""The simulated NTCIR-12 STC-like test collection of Sakai (EVIA 2017).

* :func:`simulate_stc_collection`: 100 topics, 44 runs from 16 teams (runs of a
  team are correlated), top-10 lists, a graded pool L0/L1/L2, written as TREC
  qrels and runs; :func:`rank_pool` ranks any judged pool the same way (the
  real-data notebook uses it on the real STC-ja pool).
* :func:`simulate_ratings`: Sakai's rating simulation: an L0 item gets N
  zeros; an L1 or L2 item gets N independent integer ratings uniform on
  ``{0..dmax}``.
* Controlled variants of real ratings (the real-data notebook's experiments):
  :func:`subsample_assessors` keeps N of each item's ratings;
  :func:`fixed_sum_ratings` rebuilds ratings with a given sum (RawG) and a
  chosen unanimity; :func:`shuffle_relevant` moves whole rating vectors between
  a topic's relevant items.

Every function takes an explicit seed or ``numpy.random.Generator``; the same
seed gives byte-identical files.  Calibration: ``docs/simulators.md``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import ParameterError
from ..formats.trec import write_qrels, write_run
from ..seeds import as_generator

__all__ = ["simulate_ratings", "STC_DEFAULTS", "rank_pool", "simulate_stc_collection", "stc_frames",
           "stc_lists", "subsample_assessors", "fixed_sum_ratings", "shuffle_relevant"]


def simulate_ratings(grades, n_assessors: int, dmax: int, seed) -> np.ndarray:
    """Sakai's simulated ratings for judged items (Sakai 2017, §4).

    ``grades`` are the items' qrels grades.  Grade 0 -> ``n_assessors`` zeros;
    any positive grade (L1 and L2 alike, as in the paper) -> ``n_assessors``
    independent integers uniform on ``{0, ..., dmax}``.  Returns an
    ``items x n_assessors`` int array.
    """
    for name, value in (("n_assessors", n_assessors), ("dmax", dmax)):
        if isinstance(value, bool) or int(value) != value or value < 1:
            raise ParameterError(name, value, "a whole number >= 1")
    rng = as_generator(seed)
    grades = np.asarray(grades)
    ratings = rng.integers(0, int(dmax) + 1, size=(grades.size, int(n_assessors)))
    ratings[grades <= 0] = 0
    return ratings


#: Calibration of the STC-like collection; see ``notebooks/README.md``.
STC_DEFAULTS = dict(
    n_topics=100,
    n_teams=16,
    n_runs=44,
    depth=10,
    candidates=120,        # candidate posts per topic a system could return
    relevant_rate=(2.0, 5.0),  # Beta(a, b) share of relevant candidates per topic
    l2_share=0.45,         # share of relevant candidates that are L2
    team_skill=(0.05, 1.00),  # range of team skill (signal weight)
    run_spread=0.25,       # sd of run skill around its team's
    team_noise_share=0.6,  # share of a run's noise shared with its team's runs
)


def _runs_per_team(n_runs: int, n_teams: int, rng: np.random.Generator) -> np.ndarray:
    if n_runs < n_teams:
        raise ParameterError("n_runs", n_runs, f"at least n_teams = {n_teams}")
    counts = np.ones(n_teams, dtype=int)
    extra = n_runs - n_teams
    # Teams submit 1-5 runs, as NTCIR allows.
    while extra:
        t = rng.integers(n_teams)
        if counts[t] < 5:
            counts[t] += 1
            extra -= 1
    return counts


def rank_pool(relevance: dict, seed, n_teams: int = 16, n_runs: int = 44, depth: int = 10,
              team_skill=(0.05, 1.0), run_spread: float = 0.25,
              team_noise_share: float = 0.6) -> pd.DataFrame:
    """Top-``depth`` runs of ``n_runs`` systems from ``n_teams`` teams over a pool.

    ``relevance`` maps topic -> (doc ids, latent relevance values).  Each team
    ``T`` has a skill ``s_T`` and a team-level noise field ``e_Ti ~ N(0, 1)``,
    each run ``r`` of the team a skill ``s_r = s_T + N(0, run_spread)`` and its
    own noise ``u_ri``; run ``r`` scores item ``i`` as ``s_r rel_i + 0.5 a_i +
    sqrt(c) e_Ti + sqrt(1 - c) u_ri`` (``a_i ~ N(0, 1)`` an appeal all systems
    share, ``c = team_noise_share``, which makes a team's runs correlated) and
    returns its ``depth`` best.  Returns ``run, topic, doc, rank, score``.
    """
    rng = as_generator(seed)
    names, tops = _rank_tops(relevance, rng, n_teams, n_runs, depth, team_skill, run_spread,
                             team_noise_share)
    rows = []
    for (topic, (docs, _)), (top, score) in zip(relevance.items(), tops):
        for r in range(len(names)):
            for rank, (i, s) in enumerate(zip(top[r], score[r]), start=1):
                rows.append((names[r], topic, str(docs[i]), rank, float(s)))
    return pd.DataFrame(rows, columns=["run", "topic", "doc", "rank", "score"])


def _rank_tops(relevance: dict, rng: np.random.Generator, n_teams: int, n_runs: int, depth: int,
               team_skill, run_spread: float, team_noise_share: float):
    """The draws of :func:`rank_pool`: run names and, per topic, each run's top ``depth``
    item indices (``runs x depth``) with their scores, in ``relevance``'s topic order."""
    per_team = _runs_per_team(n_runs, n_teams, rng)
    team_of_run = np.repeat(np.arange(n_teams), per_team)
    team = rng.uniform(*team_skill, n_teams)
    skill = team[team_of_run] + rng.normal(0, run_spread, n_runs)
    names = [f"T{t + 1:02d}-R{int((team_of_run[:i] == t).sum()) + 1}"
             for i, t in enumerate(team_of_run)]
    c = team_noise_share
    tops = []
    for docs, rel in relevance.values():
        m = len(docs)
        appeal = rng.normal(0, 1, m)
        team_noise = rng.normal(0, 1, (n_teams, m))
        run_noise = rng.normal(0, 1, (n_runs, m))
        score = (skill[:, None] * np.asarray(rel, float)[None, :] + 0.5 * appeal[None, :]
                 + np.sqrt(c) * team_noise[team_of_run] + np.sqrt(1 - c) * run_noise)
        top = np.argsort(-score, axis=1, kind="stable")[:, :depth]
        tops.append((top, np.take_along_axis(score, top, axis=1)))
    return names, tops


def simulate_stc_collection(out_dir, seed=2017, **overrides) -> dict[str, Path]:
    """Write :func:`stc_frames` to ``out_dir`` as ``qrels.txt`` and ``runs/<run>.txt``."""
    qrels, runs = stc_frames(seed, **overrides)
    out = Path(out_dir)
    written = {"qrels": write_qrels(qrels, out / "qrels.txt")}
    for name, run in runs.groupby("run", sort=True):
        written[name] = write_run(run, out / "runs" / f"{name}.txt")
    return written


def stc_frames(seed=2017, **overrides) -> tuple[pd.DataFrame, pd.DataFrame]:
    """An STC-like collection as frames ``(qrels, runs)`` (what :func:`simulate_stc_collection` writes).

    Per topic, ``candidates`` posts get a latent grade in {0, 1, 2} (the share
    of relevant ones drawn per topic); :func:`rank_pool` ranks them for 44 runs
    from 16 teams; the pool (all returned posts) is judged with the latent
    grades, so every retrieved post is judged, as in NTCIR's depth-10 pooling
    of top-10 runs.  Run tags are ``T<team>-C-R<k>``.

    Calibration target (docs/simulators.md): among the best run of each team, pairs
    with mean nG@1 differences of 0.12–0.17 near the 5% significance border
    of the randomised Tukey HSD test.
    """
    cfg, grades, names, tops = _stc_draw(seed, overrides)
    rows = []
    for (topic, (docs, _)), (top, score) in zip(grades.items(), tops):
        for r, name in enumerate(names):
            for rank, (i, s) in enumerate(zip(top[r], score[r]), start=1):
                rows.append((name, topic, str(docs[i]), rank, float(s)))
    runs = pd.DataFrame(rows, columns=["run", "topic", "doc", "rank", "score"])
    grade_of = {(t, str(d)): int(g) for t, (docs, gr) in grades.items() for d, g in zip(docs, gr)}
    pooled = runs[["topic", "doc"]].drop_duplicates().sort_values(["topic", "doc"])
    qrels = pooled.assign(grade=[grade_of[k] for k in zip(pooled.topic, pooled.doc)])
    return qrels.reset_index(drop=True), runs


def _stc_draw(seed, overrides: dict):
    """The draws of :func:`stc_frames`: the settings, ``{topic: (ids, grades)}`` of every
    candidate, the run names and each topic's top lists (:func:`_rank_tops`)."""
    cfg = {**STC_DEFAULTS, **overrides}
    unknown = set(overrides) - set(STC_DEFAULTS)
    if unknown:
        raise ParameterError("overrides", sorted(unknown), f"keys of {sorted(STC_DEFAULTS)}")
    rng = as_generator(seed)
    n_topics, m = cfg["n_topics"], cfg["candidates"]
    if cfg["depth"] > m:
        raise ParameterError("depth", cfg["depth"], f"at most candidates = {m}")
    if cfg["n_runs"] < cfg["n_teams"]:
        raise ParameterError("n_runs", cfg["n_runs"], f"at least n_teams = {cfg['n_teams']}")
    topics = [f"C{t + 1:03d}" for t in range(n_topics)]
    # Weibo-like 16-digit post ids, unique across the collection.
    ids = (rng.choice(9 * 10**15, size=n_topics * m, replace=False) + 10**15).reshape(n_topics, m)
    a, b = cfg["relevant_rate"]
    grades = {}
    for t, topic in enumerate(topics):
        relevant = rng.random(m) < rng.beta(a, b)
        grades[topic] = (ids[t], np.where(relevant, np.where(rng.random(m) < cfg["l2_share"], 2, 1), 0))
    names, tops = _rank_tops(grades, rng, cfg["n_teams"], cfg["n_runs"], cfg["depth"],
                             cfg["team_skill"], cfg["run_spread"], cfg["team_noise_share"])
    return cfg, grades, [n.replace("-R", "-C-R") for n in names], tops


def stc_lists(seed=2017, **overrides):
    """The collection of :func:`stc_frames`, straight to ranked lists (no frames, no files).

    Returns ``(lists, grades)``: the :class:`~evalkit.measures.graded.RankedLists`
    and each topic's pool grades aligned with ``lists.items``, equal to what
    :func:`evalkit.measures.graded.ranked_lists` makes of :func:`stc_frames`
    (same seed, same draws) at depth ``depth``, several times faster: for
    experiments over many simulated collections.
    """
    from ..measures.graded import RankedLists

    _, grades, names, tops = _stc_draw(seed, overrides)
    order = np.argsort(names, kind="stable")                 # runs sorted by name
    items, index, pool_grades = [], [], []
    for (docs, grade), (top, _) in zip(grades.values(), tops):
        pooled = np.unique(top)
        by_id = pooled[np.argsort(docs[pooled], kind="stable")]   # 16-digit ids: as strings sort
        items.append(tuple(str(d) for d in docs[by_id]))
        pool_grades.append(grade[by_id])
        index.append(np.searchsorted(docs[by_id], docs[top]))
    index = np.stack(index, axis=1)[order]                    # runs x topics x depth
    lists = RankedLists(tuple(names[i] for i in order), tuple(grades), tuple(items),
                        index.astype(np.int64), 0)
    return lists, tuple(pool_grades)


def subsample_assessors(ratings, n: int, seed) -> np.ndarray:
    """Keep ``n`` of each item's ratings, chosen at random per item.

    ``ratings`` is ``items x assessors`` with NaN for a missing rating.  Each
    item keeps ``n`` of its own non-missing ratings (its own draw, so different
    items keep different assessors, as in crowd-sourced pools); an item with
    fewer than ``n`` ratings keeps them all (NaN-padded).  Returns an
    ``items x n`` float array.
    """
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise ParameterError("n", n, "a whole number >= 1")
    r = np.asarray(ratings, float)
    if r.ndim != 2 or n > r.shape[1]:
        raise ParameterError("n", n, f"at most the {r.shape[-1]} ratings per item")
    keys = as_generator(seed).random(r.shape)
    keys[np.isnan(r)] = np.inf                      # missing ratings are never picked first
    keep = np.argsort(keys, axis=1, kind="stable")[:, :int(n)]
    return np.take_along_axis(r, keep, axis=1)


def fixed_sum_ratings(raw, n: int, dmax: int, disagree) -> np.ndarray:
    """``n`` integer ratings on ``0..dmax`` per item with sum ``raw``: RawG fixed, unanimity chosen.

    An item with ``disagree`` False gets its most unanimous ratings (values
    ``a`` and ``a + 1`` only, so D <= 1; D = 0 when ``raw`` is a multiple of
    ``n``).  An item with ``disagree`` True gets one 0 and one ``dmax`` and the
    rest as unanimous as possible (D = dmax), when ``dmax <= raw <= (n-1) dmax``;
    outside that range D = dmax is impossible and it gets the unanimous ratings.
    RawG (the sum) is the same either way, so only Sakai's D, hence UG, changes.
    """
    raw = np.asarray(raw, dtype=np.int64)
    disagree = np.broadcast_to(np.asarray(disagree, bool), raw.shape)
    if (raw < 0).any() or (raw > n * dmax).any():
        raise ParameterError("raw", raw.max() if (raw > 0).any() else raw.min(),
                             f"sums of {n} ratings on 0..{dmax}")

    def even(total, k):                              # k ratings in {a, a+1} summing to total
        a, b = np.divmod(total, k)
        return a[:, None] + (np.arange(k)[None, :] < b[:, None])

    out = even(raw, n)
    can = disagree & (raw >= dmax) & (raw <= (n - 1) * dmax) & (n >= 2)
    if can.any():
        rest = even(raw[can] - dmax, n - 2)
        out[can] = np.concatenate([np.zeros((can.sum(), 1), np.int64),
                                   np.full((can.sum(), 1), dmax), rest], axis=1)
    return out


def shuffle_relevant(ratings, seed) -> np.ndarray:
    """Permute the rating vectors of a topic's relevant items (RawG > 0) among themselves.

    The multiset of rating vectors, hence every agreement statistic (the
    distribution of D, and of RawG), is unchanged; which item has which
    ratings is random, so the link between an item's ratings and how the
    runs rank it is cut beyond relevant vs not.  ``ratings``: ``items x N``.
    """
    r = np.array(ratings, copy=True)
    rel = np.flatnonzero(np.nansum(r, axis=1) > 0)
    r[rel] = r[as_generator(seed).permutation(rel)]
    return r
