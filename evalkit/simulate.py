"""Simulators for raw data that is not public, calibrated to published statistics.

Every simulator takes an explicit ``seed`` (int) or ``numpy.random.Generator``
and never touches numpy's global state; the same seed gives byte-identical
files.

* :func:`simulate_stc_collection` — an NTCIR-12 STC-like test collection
  (Sakai 2017 §4): 100 topics, 44 runs from 16 teams, top-10 lists, a graded
  pool L0/L1/L2, written as TREC qrels and runs.
* :func:`simulate_ratings` — Sakai's rating simulation: an L0 item gets N
  zeros; an L1 or L2 item gets N independent integer ratings uniform on
  ``{0..dmax}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from .errors import ParameterError
from .io import write_qrels, write_run

__all__ = [
    "as_generator", "simulate_ratings", "simulate_stc_collection", "STC_DEFAULTS", "rank_pool",
    "mallows", "simulate_orderings", "ORDERING_DEFAULTS",
    "simulate_ttg", "ttg_pool", "ttg_clusters", "ttg_runs", "assessor_clusters",
    "snowflake_id", "tweet_time_ms", "TTG_DEFAULTS",
    "simulate_preferences", "preference_timelines", "PREFERENCE_DEFAULTS",
]


def as_generator(seed) -> np.random.Generator:
    """``numpy.random.Generator`` from an int seed or an existing Generator."""
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ParameterError("seed", seed, "an int or a numpy.random.Generator")
    return np.random.default_rng(int(seed))


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
    per_team = _runs_per_team(n_runs, n_teams, rng)
    team_of_run = np.repeat(np.arange(n_teams), per_team)
    team = rng.uniform(*team_skill, n_teams)
    skill = team[team_of_run] + rng.normal(0, run_spread, n_runs)
    names = [f"T{t + 1:02d}-R{int((team_of_run[:i] == t).sum()) + 1}"
             for i, t in enumerate(team_of_run)]
    c = team_noise_share
    rows = []
    for topic, (docs, rel) in relevance.items():
        m = len(docs)
        appeal = rng.normal(0, 1, m)
        team_noise = rng.normal(0, 1, (n_teams, m))
        run_noise = rng.normal(0, 1, (n_runs, m))
        score = (skill[:, None] * np.asarray(rel, float)[None, :] + 0.5 * appeal[None, :]
                 + np.sqrt(c) * team_noise[team_of_run] + np.sqrt(1 - c) * run_noise)
        top = np.argsort(-score, axis=1, kind="stable")[:, :depth]
        for r in range(n_runs):
            for rank, i in enumerate(top[r], start=1):
                rows.append((names[r], topic, str(docs[i]), rank, float(score[r, i])))
    return pd.DataFrame(rows, columns=["run", "topic", "doc", "rank", "score"])


def simulate_stc_collection(out_dir, seed=2017, **overrides) -> dict[str, Path]:
    """Write an STC-like collection to ``out_dir`` (``qrels.txt``, ``runs/*.txt``).

    Per topic, ``candidates`` posts get a latent grade in {0, 1, 2} (the share
    of relevant ones drawn per topic); :func:`rank_pool` ranks them for 44 runs
    from 16 teams; the pool (all returned posts) is judged with the latent
    grades, so every retrieved post is judged, as in NTCIR's depth-10 pooling
    of top-10 runs.  Run tags are ``T<team>-C-R<k>``.

    Calibration target (DESIGN.md): among the best run of each team, pairs
    with mean nG@1 differences of 0.12–0.17 near the 5% significance border
    of the randomised Tukey HSD test.  Returns the paths written.
    """
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
    runs = rank_pool(grades, rng, cfg["n_teams"], cfg["n_runs"], cfg["depth"], cfg["team_skill"],
                     cfg["run_spread"], cfg["team_noise_share"])
    runs["run"] = runs["run"].str.replace("-R", "-C-R", regex=False)
    grade_of = {(t, str(d)): int(g) for t, (docs, gr) in grades.items() for d, g in zip(docs, gr)}
    pooled = runs[["topic", "doc"]].drop_duplicates().sort_values(["topic", "doc"])
    qrels = pooled.assign(grade=[grade_of[k] for k in zip(pooled.topic, pooled.doc)])
    out = Path(out_dir)
    written = {"qrels": write_qrels(qrels, out / "qrels.txt")}
    for name, run in runs.groupby("run", sort=True):
        written[name] = write_run(run, out / "runs" / f"{name}.txt")
    return written


# --------------------------------------------------------------------------
# Kim, Zhai & Han: sentence-ordering judgments
# --------------------------------------------------------------------------
#: Calibration of the ordering simulator (see :func:`simulate_orderings`).
ORDERING_DEFAULTS = dict(
    n_sets=10,
    items=(5, 8, 0.475),      # k = 5 + Binomial(8, 0.475): mean 8.8 sentences
    assessors=(8, 6, 0.4),    # n = 8 + Binomial(6, 0.4): mean 10.4 assessors
    phi=0.44,                 # median Mallows dispersion (0 = all agree, 1 = uniform)
    phi_spread=0.35,          # sd of log(phi) between assessors
)


def mallows(centre: Sequence, phi: float, rng: np.random.Generator) -> tuple:
    """One draw from the Mallows model ``P(s) ~ phi ** d_K(s, centre)``.

    Repeated insertion (Doignon et al. 2004): the ``i``-th item of ``centre``
    goes to position ``j`` of the ``i`` slots with probability proportional to
    ``phi ** (i - j)``.
    """
    if not 0.0 <= phi <= 1.0:
        raise ParameterError("phi", phi, "a number in [0, 1]")
    out: list = []
    for i, item in enumerate(centre, start=1):
        w = phi ** np.arange(i - 1, -1, -1, dtype=float)
        out.insert(int(rng.choice(i, p=w / w.sum())), item)
    return tuple(out)


def simulate_orderings(out_path, seed=2010, **overrides) -> Path:
    """Write sentence-ordering judgments as CSV ``set,assessor,position,item``.

    Each set has a latent "true" order; each assessor ``a`` draws from a
    Mallows model around it with dispersion ``phi_a = phi * exp(N(0,
    phi_spread))`` (clipped to ``[0, 1]``), so some assessors are more
    consistent than others.  Calibrated so that the mean pairwise Kendall tau
    between assessors is about 0.45, what the paper's ED of AC-tau (0.454)
    implies (``tests/test_ordering.py`` checks it).
    """
    cfg = {**ORDERING_DEFAULTS, **overrides}
    unknown = set(overrides) - set(ORDERING_DEFAULTS)
    if unknown:
        raise ParameterError("overrides", sorted(unknown), f"keys of {sorted(ORDERING_DEFAULTS)}")
    rng = as_generator(seed)
    rows = ["set,assessor,position,item\n"]
    for s in range(cfg["n_sets"]):
        base, trials, prob = cfg["items"]
        k = base + int(rng.binomial(trials, prob))
        base, trials, prob = cfg["assessors"]
        n = base + int(rng.binomial(trials, prob))
        centre = [f"s{i + 1}" for i in rng.permutation(k)]
        for a in range(n):
            phi = float(np.clip(cfg["phi"] * np.exp(rng.normal(0, cfg["phi_spread"])), 0, 1))
            for pos, item in enumerate(mallows(centre, phi, rng), start=1):
                rows.append(f"set{s + 1:02d},A{a + 1:02d},{pos},{item}\n")
    from .io import write_text

    return write_text(out_path, "".join(rows))


# --------------------------------------------------------------------------
# Wang et al.: tweet timeline generation (TREC 2014 Microblog-like)
# --------------------------------------------------------------------------
TWITTER_EPOCH_MS = 1288834974657
_FEB_2013 = 1359676800000   # 2013-02-01T00:00Z in ms
_MAR_END_2013 = 1364774399000  # 2013-03-31T23:59:59Z

#: Calibration of the TTG simulator (targets in DESIGN.md and data/published/wang2015_*.csv).
TTG_DEFAULTS = dict(
    n_topics=55,
    relevant=(5.15, 0.55),    # log-normal (mu, sigma) of relevant tweets per topic: mean ~194
    nonrelevant=(6.6, 0.5),   # log-normal of judged non-relevant tweets per topic: mean ~860
    highly_relevant=0.55,     # share of relevant tweets graded 2
    crp_alpha=19.0,           # latent units: time-aware CRP concentration
    burst_days=2.2,           # a unit's pull decays with e-folding time of this many days
    merge=(0.03, 0.24),       # official / alternate: chance a unit is lumped into another
    disagreement=(0.3, 1.0, 0.6),  # per-topic Beta(a, b) * scale: share of tweets re-judged
)


def snowflake_id(ms: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Twitter snowflake ids for posting times ``ms`` (ms since the Unix epoch, UTC)."""
    ms = np.asarray(ms, dtype=np.int64)
    return ((ms - TWITTER_EPOCH_MS) << 22) | rng.integers(0, 1 << 22, size=ms.shape)


def tweet_time_ms(ids) -> np.ndarray:
    """Posting time in ms since the Unix epoch of snowflake tweet ids."""
    return (np.asarray(ids, dtype=np.int64) >> 22) + TWITTER_EPOCH_MS


def _crp(times_ms: np.ndarray, alpha: float, tau_ms: float, rng: np.random.Generator) -> np.ndarray:
    """Time-aware Chinese restaurant process over tweets sorted by time.

    Tweet ``i`` opens a new information unit with weight ``alpha`` or joins
    unit ``c`` with weight ``size_c * exp(-(t_i - last_c) / tau)``, ``last_c``
    the time of the unit's latest tweet: units are bursty in time, and sizes
    heavy-tailed with many singletons (cf. the TREC 2011-2012 training clusters).
    """
    n = times_ms.size
    labels = np.empty(n, dtype=np.int64)
    sizes = np.zeros(n)
    last = np.zeros(n)
    k = 0
    for i in range(n):
        w = sizes[:k] * np.exp(-(times_ms[i] - last[:k]) / tau_ms) if k else np.zeros(0)
        total = alpha + w.sum()
        u = rng.random() * total
        if u < alpha:
            c = k
            k += 1
        else:
            c = int(np.searchsorted(np.cumsum(w), u - alpha, side="right"))
            c = min(c, k - 1)
        labels[i] = c
        sizes[c] += 1
        last[c] = times_ms[i]
    return labels


def assessor_clusters(units: np.ndarray, merge: float, disagreement: float,
                      rng: np.random.Generator) -> np.ndarray:
    """One assessor's clustering of tweets whose latent information units are ``units``.

    The assessor lumps each unit into another (chosen by size) with chance
    ``merge`` (coarser granularity), then re-judges each tweet with chance
    ``disagreement``: half of those start a cluster of their own, half join a
    cluster chosen by size.  Returns cluster labels 0..m-1, numbered by first
    appearance.
    """
    labels = units.copy()
    ids, sizes = np.unique(labels, return_counts=True)
    target = {}
    for u in ids:
        if rng.random() < merge and len(ids) > 1:
            others = ids[ids != u]
            w = sizes[ids != u].astype(float)
            target[u] = int(rng.choice(others, p=w / w.sum()))
    for u, v in target.items():  # resolve chains of merges
        seen = {u}
        while v in target and v not in seen:
            seen.add(v)
            v = target[v]
        labels[labels == u] = v
    fresh = labels.max() + 1
    for i in np.flatnonzero(rng.random(labels.size) < disagreement):
        if rng.random() < 0.5:
            labels[i] = fresh
            fresh += 1
        else:
            labels[i] = labels[rng.integers(labels.size)]
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(first)
    remap = np.empty(labels.max() + 1, dtype=np.int64)
    remap[np.unique(labels)[order]] = np.arange(order.size)
    return remap[labels]


def ttg_pool(seed, qrels: pd.DataFrame | None = None, **overrides) -> tuple[pd.DataFrame, dict]:
    """Judged pool and latent structure of a TTG collection.

    With ``qrels`` (e.g. the real TREC 2014 qrels) the topics, tweet ids and
    grades are taken from it (times from the snowflake ids); otherwise a pool
    is simulated: 55 topics, log-normal relevant and non-relevant counts,
    grades 1/2, times in Feb–Mar 2013.  Returns ``(qrels, latent)`` where
    ``latent[topic]`` holds the relevant tweets in time order, their latent
    units (bursty in time) and the topic's disagreement level.
    """
    cfg = {**TTG_DEFAULTS, **overrides}
    rng = as_generator(seed)
    if qrels is None:
        rows = []
        for t in range(cfg["n_topics"]):
            topic = str(171 + t)
            n_rel = int(np.clip(rng.lognormal(*cfg["relevant"]), 20, 900))
            n_non = int(np.clip(rng.lognormal(*cfg["nonrelevant"]), 50, 4000))
            query_ms = rng.integers(_FEB_2013 + 20 * 86400000, _MAR_END_2013)
            ms = rng.integers(_FEB_2013, query_ms, size=n_rel + n_non)
            ids = np.unique(snowflake_id(ms, rng))
            rng.shuffle(ids)
            grade = np.zeros(ids.size, dtype=int)
            rel = ids[:n_rel]
            grade[:n_rel] = np.where(rng.random(rel.size) < cfg["highly_relevant"], 2, 1)
            rows += [(topic, str(i), int(g)) for i, g in zip(ids, grade)]
        qrels = pd.DataFrame(rows, columns=["topic", "doc", "grade"])
    latent = {}
    for topic, g in qrels[qrels["grade"] > 0].groupby("topic", sort=True):
        docs = g["doc"].to_numpy()
        times = tweet_time_ms(docs.astype(np.int64))
        order = np.argsort(times, kind="stable")
        docs, times = docs[order], times[order].astype(float)
        units = _crp(times, cfg["crp_alpha"], cfg["burst_days"] * 86400000.0, rng)
        a, b, scale = cfg["disagreement"]
        latent[topic] = {"docs": docs, "units": units, "disagreement": scale * rng.beta(a, b)}
    return qrels, latent


def ttg_clusters(latent: dict, merge: float, seed, level: float = 1.0) -> dict[str, list[list[str]]]:
    """One assessor's cluster file for every topic (``level`` scales the disagreement)."""
    rng = as_generator(seed)
    out = {}
    for topic, lt in sorted(latent.items()):
        labels = assessor_clusters(lt["units"], merge, min(1.0, lt["disagreement"] * level), rng)
        out[topic] = [list(lt["docs"][labels == c]) for c in range(labels.max() + 1)]
    return out


def ttg_runs(qrels: pd.DataFrame, latent: dict, targets: pd.DataFrame, seed) -> pd.DataFrame:
    """Runs whose mean scores spread like ``targets`` (one simulated run per row).

    ``targets`` has ``group, unweighted_recall, precision`` (e.g. the official
    TREC 2014 scores).  Per topic a run finds about ``recall x units`` latent
    units, preferring large ones, returns one tweet of each, and fills the
    timeline to ``hits / precision`` tweets with redundant tweets (a second
    tweet of a found unit), judged non-relevant tweets and — for some groups —
    unjudged tweets; groups differ in how they split that filler.
    """
    rng = as_generator(seed)
    groups = sorted(targets["group"].unique())
    style = {g: (rng.uniform(0.05, 0.6), rng.random() < 0.2) for g in groups}
    nonrel = {t: g["doc"].to_numpy() for t, g in qrels[qrels["grade"] == 0].groupby("topic")}
    layout = {}  # topic -> docs sorted by unit, unit sizes, unit start offsets
    for topic, lt in latent.items():
        sizes = np.bincount(lt["units"])
        layout[topic] = (lt["docs"][np.argsort(lt["units"], kind="stable")], sizes,
                         np.cumsum(sizes) - sizes)
    rows = []
    counter: dict[str, int] = {}
    for row in targets.itertuples(index=False):
        gi = groups.index(row.group)
        counter[row.group] = counter.get(row.group, 0) + 1
        name = f"G{gi + 1:02d}-run{counter[row.group]}"
        redundancy, unjudged = style[row.group]
        for topic in sorted(latent):
            by_unit, sizes, starts = layout[topic]
            r = float(np.clip(row.unweighted_recall * rng.lognormal(0, 0.35), 0, 1))
            hits = int(rng.binomial(sizes.size, r))
            p = float(np.clip(row.precision * rng.lognormal(0, 0.3), 0.02, 1))
            w = sizes.astype(float)
            chosen = rng.choice(sizes.size, size=hits, replace=False, p=w / w.sum()) if hits else []
            chosen = np.asarray(chosen, dtype=np.int64)
            picks = starts[chosen] + (rng.random(chosen.size) * sizes[chosen]).astype(np.int64)
            tweets = [str(d) for d in by_unit[picks]]
            filler = max(0, int(round(hits / p)) - hits) if hits else int(rng.integers(1, 15))
            n_red = int(rng.binomial(filler, redundancy))
            n_unj = int(rng.binomial(filler - n_red, 0.3)) if unjudged else 0
            n_non = filler - n_red - n_unj
            taken = set(tweets)
            pool_red = [d for u in chosen for d in by_unit[starts[u]:starts[u] + sizes[u]]
                        if d not in taken]
            if pool_red:
                tweets += list(rng.choice(pool_red, size=min(n_red, len(pool_red)), replace=False))
            pool_non = nonrel.get(topic, np.array([], dtype=str))
            if pool_non.size:
                tweets += list(rng.choice(pool_non, size=min(n_non, pool_non.size), replace=False))
            if n_unj:
                ms = rng.integers(_FEB_2013, _MAR_END_2013, size=n_unj)
                tweets += [str(i) for i in snowflake_id(ms, rng)]
            tweets = list(dict.fromkeys(tweets))
            order = rng.permutation(len(tweets))
            for rank, j in enumerate(order, start=1):
                rows.append((name, topic, tweets[j], rank, float(len(tweets) - rank + 1)))
    return pd.DataFrame(rows, columns=["run", "topic", "doc", "rank", "score"])


def simulate_ttg(out_dir, seed=2015, qrels: pd.DataFrame | None = None,
                 targets: pd.DataFrame | None = None, **overrides) -> dict[str, Path]:
    """Write a TREC 2014 TTG-like world to ``out_dir``.

    Files: ``qrels.txt`` (TREC qrels; only when simulated), ``clusters-official.json``
    and ``clusters-alternate.json`` (NIST cluster format), ``runs/*.txt`` (TREC
    runs).  ``targets`` defaults to the published official scores
    (``data/published/wang2015_ttg_official_scores.csv``).
    """
    from .io import write_clusters, write_qrels, write_run

    rng = as_generator(seed)
    simulated = qrels is None
    qrels, latent = ttg_pool(rng, qrels, **overrides)
    cfg = {**TTG_DEFAULTS, **overrides}
    if targets is None:
        targets = pd.read_csv(Path(__file__).resolve().parent.parent / "data" / "published"
                              / "wang2015_ttg_official_scores.csv")
    out = Path(out_dir)
    written = {}
    if simulated:
        written["qrels"] = write_qrels(qrels, out / "qrels.txt")
    for name, merge in zip(("official", "alternate"), cfg["merge"]):
        written[name] = write_clusters(ttg_clusters(latent, merge, rng), out / f"clusters-{name}.json")
    runs = ttg_runs(qrels, latent, targets, rng)
    for name, run in runs.groupby("run", sort=True):
        written[name] = write_run(run, out / "runs" / f"{name}.txt")
    return written


# --------------------------------------------------------------------------
# Wang et al. §5: user preference judgments
# --------------------------------------------------------------------------
#: The simulated user study (five assessors, two of them doing two batches).
PREFERENCE_DEFAULTS = dict(
    batches={"A1": 2, "A2": 1, "A3": 2, "A4": 1, "A5": 1},
    sensitivity={"precision": 7.0, "recall": 7.0, "weighted_recall": 3.0},  # logit per unit of metric
    assessor_spread=0.4,          # sd of log-sensitivity between assessors
    insensitive=("A4", "precision"),  # the assessor the paper saw ignore precision
    neither=(0.5, 0.8),           # P(neither) = a * exp(-|d| / b), d the logit preference
    seconds=(3.4, 0.6),           # log-normal time per judgment (median ~30 s), longer for long timelines
)


def simulate_preferences(world_dir, seed=2015, **overrides) -> Path:
    """Write ``preferences.csv`` for the TTG world in ``world_dir`` (a judgment log).

    The pairs come from the paper's sampling procedure
    (:mod:`evalkit.preferences`) on the world's runs scored with the official
    clusters.  User model: assessor ``a`` prefers the left timeline with
    probability ``sigmoid(d)``, ``d = sum_m s_{a,m} (m_left - m_right)`` over
    precision, recall and weighted recall (per-topic, official clusters),
    ``s_{a,m}`` log-normal around the defaults (assessor A4 ignores
    precision); "prefer neither" has probability ``a exp(-|d|/b)`` (likely
    when the timelines are close); time spent is log-normal, longer for long
    timelines.  Columns: ``assessor, batch, pair_id, type, topic, left_run,
    right_run, choice, seconds``.
    """
    from . import preferences
    from .io import read_clusters, read_qrels, read_runs, write_text

    cfg = {**PREFERENCE_DEFAULTS, **overrides}
    rng = as_generator(seed)
    world_dir = Path(world_dir)
    qrels = read_qrels(world_dir / "qrels.txt")
    clusters = read_clusters(world_dir / "clusters-official.json", qrels)
    runs = read_runs(world_dir / "runs", qrels, report=[])
    table = preference_timelines(runs, qrels, clusters)
    rel = qrels[qrels.grade > 0].groupby("topic").size()
    topics = preferences.draw_topics(rel, 30, rng)
    kept, _ = preferences.filter_timelines(table[table.topic.isin(topics)])
    pairs = preferences.sample_pairs(kept, rng)
    batches = preferences.make_batches(pairs, cfg["batches"], rng)
    metric = table.set_index(["run", "topic"])
    sens = {a: {m: v * np.exp(rng.normal(0, cfg["assessor_spread"])) for m, v in cfg["sensitivity"].items()}
            for a in cfg["batches"]}
    who, what = cfg["insensitive"]
    if who in sens:
        sens[who][what] = 0.0
    rows = ["assessor,batch,pair_id,type,topic,left_run,right_run,choice,seconds\n"]
    a_n, b_n = cfg["neither"]
    for j in batches.itertuples(index=False):
        left, right = metric.loc[(j.left_run, j.topic)], metric.loc[(j.right_run, j.topic)]
        d = sum(s * (left[m] - right[m]) for m, s in sens[j.assessor].items())
        if rng.random() < a_n * np.exp(-abs(d) / b_n):
            choice = "neither"
        else:
            choice = "left" if rng.random() < 1 / (1 + np.exp(-d)) else "right"
        seconds = rng.lognormal(*cfg["seconds"]) * (1 + (left["length"] + right["length"]) / 80)
        rows.append(f"{j.assessor},{j.batch},{j.pair_id},{j.type},{j.topic},{j.left_run},"
                    f"{j.right_run},{choice},{seconds:.1f}\n")
    return write_text(world_dir / "preferences.csv", "".join(rows))


def preference_timelines(runs: pd.DataFrame, qrels: pd.DataFrame, clusters: dict) -> pd.DataFrame:
    """Per (run, topic): length, unjudged tweets and unweighted/weighted metrics."""
    from . import timeline

    tidy = timeline.score_runs(runs, timeline.cluster_table(clusters, qrels))
    wide = tidy.pivot_table(index=["run", "topic"], columns="metric", values="value").reset_index()
    judged = set(zip(qrels.topic, qrels.doc))
    per = runs.assign(unjudged=[k not in judged for k in zip(runs.topic, runs.doc)])
    stats_ = per.groupby(["run", "topic"]).agg(length=("doc", "size"), unjudged=("unjudged", "sum"))
    out = wide.merge(stats_.reset_index(), on=["run", "topic"], how="left")
    return out.fillna({"length": 0, "unjudged": 0}).astype({"length": int, "unjudged": int})
