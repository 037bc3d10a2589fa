"""The simulated tweet-timeline-generation world of Wang et al. (SIGIR 2015) §3-4.

A TREC 2014 Microblog-like pool (55 topics, snowflake tweet ids in
February-March 2013), latent information units drawn by a time-aware Chinese
restaurant process (:func:`ttg_pool`), two assessors who cluster the same
units at different granularity and with per-topic disagreement
(:func:`assessor_clusters`, :func:`ttg_clusters`), and 50 runs from 13 groups
whose scores spread like the official TREC 2014 runs (:func:`ttg_runs`).
:func:`simulate_ttg` writes qrels, the two cluster files and the runs.
Calibration targets and what is reached: ``docs/simulators.md``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..seeds import as_generator

__all__ = ["TTG_DEFAULTS", "snowflake_id", "tweet_time_ms", "assessor_clusters", "ttg_pool",
           "ttg_labels", "ttg_clusters", "ttg_runs", "simulate_ttg"]


TWITTER_EPOCH_MS = 1288834974657


_FEB_2013 = 1359676800000   # 2013-02-01T00:00Z in ms


_MAR_END_2013 = 1364774399000  # 2013-03-31T23:59:59Z


#: Calibration of the TTG simulator (targets in docs/simulators.md and data/published/wang2015_*.csv).
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
                      rng: np.random.Generator, merge_size_bias: float = 1.0,
                      largest_share: float | None = None) -> np.ndarray:
    """One assessor's clustering of tweets whose latent information units are ``units``.

    The assessor lumps each unit into another with chance ``merge`` (coarser
    granularity), then re-judges each tweet with chance ``disagreement``: half
    of those start a cluster of their own, half join a cluster chosen by size.
    Returns cluster labels 0..m-1, numbered by first appearance.

    ``merge_size_bias`` is the modelling assumption of which unit a lumped
    unit joins: probability proportional to ``size ** merge_size_bias``, so 1
    (the default) joins large units by size, 0 any unit alike, and negative
    values prefer small units.  The number of random draws does not depend on
    it, so the same generator state gives the same draws afterwards.

    ``largest_share`` (default ``None``: left as it comes out) sets the share of
    the tweets in the assessor's largest cluster directly, after the steps
    above: to ``m = round(largest_share * n)`` of the ``n`` tweets, by moving
    tweets picked at random from the other clusters into it (when it is
    smaller) or, when larger, out of every cluster above ``m`` into the free
    places of the clusters below it (:func:`_set_largest_share`).  It draws
    only when set, so ``None`` leaves every draw as before.
    """
    labels = units.copy()
    ids, sizes = np.unique(labels, return_counts=True)
    target = _merge_targets(ids, sizes, merge, rng, merge_size_bias)
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
    if largest_share is not None:
        _set_largest_share(labels, largest_share, rng)
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(first)
    remap = np.empty(labels.max() + 1, dtype=np.int64)
    remap[np.unique(labels)[order]] = np.arange(order.size)
    return remap[labels]


def _merge_targets(ids: np.ndarray, sizes: np.ndarray, merge: float, rng: np.random.Generator,
                   merge_size_bias: float = 1.0) -> dict:
    """Which unit each lumped unit joins: per unit in order a uniform (< ``merge``: lumped) and,
    when lumped, one more picking another unit with probability ``size ** merge_size_bias``
    over the rest -- the random calls and results of ``rng.random()`` and
    ``rng.choice(others, p=w / w.sum())`` unit by unit (tested against that loop bit for bit),
    the uniforms drawn in blocks no longer than what is surely still needed and the picks
    looked up for all lumped units at once."""
    n = len(ids)
    buf: list = []
    at, lumped, pick = 0, [], []
    for i in range(n):
        if at == len(buf):
            buf += rng.random(n - i).tolist()      # units i..n-1 need one each at least
        x, at = buf[at], at + 1
        if x < merge and n > 1:
            if at == len(buf):
                buf += rng.random(n - i).tolist()  # this pick and units i+1..n-1
            lumped.append(i)
            pick.append(buf[at])
            at += 1
    if not lumped:
        return {}
    rows = np.array(lumped)
    keep = np.arange(n)[None, :] != rows[:, None]                  # every unit but the lumped one
    w = np.broadcast_to(sizes, keep.shape)[keep].reshape(rows.size, n - 1).astype(float)
    if merge_size_bias != 1.0:
        w = w ** merge_size_bias
    cdf = np.cumsum(w / w.sum(axis=1, keepdims=True), axis=1)
    cdf /= cdf[:, -1:]
    at = (cdf <= np.array(pick)[:, None]).sum(axis=1)                # searchsorted(side="right")
    at += at >= rows                                                 # position among all units
    return {u: int(v) for u, v in zip(ids[rows], ids[at])}


def _set_largest_share(labels: np.ndarray, share: float, rng: np.random.Generator) -> None:
    """Make the largest cluster of ``labels`` hold ``round(share * n)`` tweets (in place).

    Smaller: random tweets of the other clusters move into it.  Larger: every
    cluster above the target gives random tweets up, and they fill the free
    places (up to the target) of the clusters below it, each place alike, or
    new clusters of the target size when no place is left.
    """
    if not 0 < share <= 1:
        raise ValueError(f"largest_share must lie in (0, 1], got {share}")
    ids, sizes = np.unique(labels, return_counts=True)
    target = max(1, int(round(share * labels.size)))
    if sizes.max() < target:
        big = ids[np.argmax(sizes)]
        outside = np.flatnonzero(labels != big)
        labels[rng.choice(outside, target - sizes.max(), replace=False)] = big
        return
    over = np.flatnonzero(sizes > target)
    move = np.concatenate([rng.choice(np.flatnonzero(labels == ids[i]), sizes[i] - target, replace=False)
                           for i in over]) if over.size else np.zeros(0, dtype=np.int64)
    places = np.repeat(ids, np.maximum(target - sizes, 0))
    fill = min(move.size, places.size)
    labels[move[:fill]] = rng.choice(places, fill, replace=False) if fill else labels[move[:fill]]
    rest = move.size - fill
    labels[move[fill:]] = labels.max() + 1 + np.arange(rest) // target


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


def ttg_labels(latent: dict, merge: float, seed, level: float = 1.0, merge_size_bias: float = 1.0,
               largest_share: float | None = None) -> dict[str, np.ndarray]:
    """One assessor's cluster labels per topic, aligned with ``latent[topic]["docs"]``
    (the draws of :func:`ttg_clusters`, which lists the same clusters as tweet ids)."""
    rng = as_generator(seed)
    return {topic: assessor_clusters(lt["units"], merge, min(1.0, lt["disagreement"] * level), rng,
                                     merge_size_bias, largest_share)
            for topic, lt in sorted(latent.items())}


def ttg_clusters(latent: dict, merge: float, seed, level: float = 1.0,
                 merge_size_bias: float = 1.0, largest_share: float | None = None) -> dict[str, list[list[str]]]:
    """One assessor's cluster file for every topic (``level`` scales the disagreement;
    ``merge_size_bias`` and ``largest_share``: see :func:`assessor_clusters`)."""
    out = {}
    for topic, labels in ttg_labels(latent, merge, seed, level, merge_size_bias, largest_share).items():
        order = np.argsort(labels, kind="stable")     # tweets of each cluster in time order
        bounds = np.cumsum(np.bincount(labels))[:-1]
        out[topic] = [list(c) for c in np.split(latent[topic]["docs"][order], bounds)]
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
    from ..formats.clusters import write_clusters
    from ..formats.trec import write_qrels, write_run

    rng = as_generator(seed)
    simulated = qrels is None
    qrels, latent = ttg_pool(rng, qrels, **overrides)
    cfg = {**TTG_DEFAULTS, **overrides}
    if targets is None:
        from ..paths import PUBLISHED
        targets = pd.read_csv(PUBLISHED / "wang2015_ttg_official_scores.csv")
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
