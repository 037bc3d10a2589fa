"""Wang et al. (SIGIR 2015) §3–4: the lighter generator of whole TTG worlds (draws 1..R-1).

The same distribution as :func:`evalkit.simulate.ttg.simulate_ttg`, drawn
in fewer, vectorised random calls (so not the same stream; draw 0, the
committed world, is made by :func:`.fastworld.draw_world` on the original
stream):

* the pool keeps what the metrics see: per topic the relevant tweets'
  posting times (the first ``n_rel`` of the shuffled, independently uniform
  times are themselves independent uniforms) and grades, and the count of
  judged non-relevant tweets; tweet ids are not made;
* the latent units come from the same time-aware Chinese restaurant process
  (:func:`crp`, compiled; its uniforms are drawn in one call, as
  ``rng.random()`` per tweet would give them);
* the assessors are :func:`evalkit.simulate.ttg.ttg_labels` itself;
* the runs (:func:`runs`): per (run, topic) the recall and precision jitter,
  the units found (``hits`` of them, without replacement with probability
  proportional to size: Efraimidis & Spirakis's exponential keys, the same
  distribution as successive sampling), one random tweet of each, and the
  filler split into redundant, unjudged and non-relevant tweets, for all
  2,750 cells at once.

``tests/papers/test_wang2015_whole_worlds.py`` checks the distributions
against the original generator.
"""

from __future__ import annotations

import copy

import numba
import numpy as np
import pandas as pd

from ...simulate import ttg as simulate
from .fastworld import World

__all__ = ["crp", "pool", "runs", "light_world", "assessor", "assess", "labels"]


@numba.njit(cache=True)
def crp(times, alpha, tau, u):
    """:func:`evalkit.simulate.ttg._crp` with its uniforms ``u`` given (one per tweet)."""
    n = times.size
    labels = np.empty(n, dtype=np.int64)
    sizes = np.zeros(n)
    last = np.zeros(n)
    w = np.zeros(n)
    k = 0
    for i in range(n):
        total = alpha
        for c in range(k):
            w[c] = sizes[c] * np.exp(-(times[i] - last[c]) / tau)
            total += w[c]
        x = u[i] * total
        if x < alpha:
            c = k
            k += 1
        else:
            x -= alpha
            acc = 0.0
            c = k - 1
            for j in range(k):
                acc += w[j]
                if acc > x:
                    c = j
                    break
        labels[i] = c
        sizes[c] += 1
        last[c] = times[i]
    return labels


def pool(rng: np.random.Generator, cfg: dict | None = None) -> tuple[dict, np.ndarray, dict]:
    """``(latent, grade, nonrelevant)``: the latent structure as
    :func:`evalkit.simulate.ttg.ttg_pool` (``docs`` are positions, not ids), the relevant
    tweets' grades (topics in sorted order) and judged non-relevant tweets per topic."""
    cfg = {**simulate.TTG_DEFAULTS, **(cfg or {})}
    n = cfg["n_topics"]
    topics = [str(171 + t) for t in range(n)]
    n_rel = np.clip(rng.lognormal(*cfg["relevant"], size=n), 20, 900).astype(int)
    n_non = np.clip(rng.lognormal(*cfg["nonrelevant"], size=n), 50, 4000).astype(int)
    query = rng.integers(simulate._FEB_2013 + 20 * 86400000, simulate._MAR_END_2013, size=n)
    total = int(n_rel.sum())
    span = np.repeat(query - simulate._FEB_2013, n_rel)
    times = simulate._FEB_2013 + np.floor(rng.random(total) * span)
    grade = np.where(rng.random(total) < cfg["highly_relevant"], 2.0, 1.0)
    u = rng.random(total)
    a, b, scale = cfg["disagreement"]
    level = scale * rng.beta(a, b, size=n)
    latent, start = {}, 0
    for i, topic in sorted(enumerate(topics), key=lambda x: x[1]):
        stop = start + n_rel[i]
        t = np.sort(times[start:stop])
        latent[topic] = {"docs": np.arange(n_rel[i]),
                         "units": crp(t, float(cfg["crp_alpha"]), cfg["burst_days"] * 86400000.0,
                                      u[start:stop]),
                         "disagreement": float(level[i])}
        start = stop
    return latent, grade, dict(zip(topics, n_non))


def _segment_rank(cell: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Rank of each element's key (in [0, 1)) within its cell (0 = smallest); ``cell`` sorted.
    A stable sort (timsort: it finds the cells' ascending runs, about twice as fast as the
    default introsort here; the two differ only on equal keys in a cell, which continuous keys
    never have)."""
    order = np.argsort(cell + np.minimum(key, 1 - 1e-9), kind="stable")   # the cap keeps every cell apart
    first = np.r_[0, np.flatnonzero(np.diff(cell)) + 1]
    rank = np.empty(cell.size, dtype=np.int64)
    rank[order] = np.arange(cell.size) - np.repeat(first, np.diff(np.r_[first, cell.size]))
    return rank


def runs(latent: dict, nonrelevant: dict, targets: pd.DataFrame, rng: np.random.Generator):
    """The runs of :func:`evalkit.simulate.ttg.ttg_runs`, drawn for every (run, topic) cell
    at once: ``(run_names, returned, cell, tweet)`` as :func:`.fastworld.run_hits`."""
    topics = sorted(latent)
    n_t = len(topics)
    groups = sorted(targets["group"].unique())
    redundancy, unjudged = rng.uniform(0.05, 0.6, len(groups)), rng.random(len(groups)) < 0.2
    g = np.array([groups.index(x) for x in targets["group"]])
    counter: dict = {}
    names = []
    for x in targets["group"]:
        counter[x] = counter.get(x, 0) + 1
        names.append(f"G{groups.index(x) + 1:02d}-run{counter[x]}")
    n_r = len(targets)
    sizes = [np.bincount(latent[t]["units"]) for t in topics]
    n_units = np.array([s.size for s in sizes])
    offset = np.cumsum([0] + [latent[t]["docs"].size for t in topics])
    by_unit = np.concatenate([np.argsort(latent[t]["units"], kind="stable") + offset[i]
                              for i, t in enumerate(topics)])
    u_size = np.concatenate(sizes)
    u_start = np.concatenate([offset[i] + np.cumsum(s) - s for i, s in enumerate(sizes)])
    u_first = np.cumsum(np.r_[0, n_units])[:-1]             # topic's first unit in the flat list
    shape = (n_r, n_t)
    r = np.clip(targets["unweighted_recall"].to_numpy()[:, None] * rng.lognormal(0, 0.35, shape), 0, 1)
    hits = rng.binomial(np.broadcast_to(n_units, shape), r)
    p = np.clip(targets["precision"].to_numpy()[:, None] * rng.lognormal(0, 0.3, shape), 0.02, 1)
    # units found: the `hits` smallest keys E / size per cell (weighted sampling without replacement)
    cell_of_unit = np.repeat(np.arange(n_r * n_t), np.tile(n_units, n_r))
    unit = (np.tile(np.arange(n_units.sum()), n_r))
    key = -np.expm1(-rng.exponential(size=unit.size) / u_size[unit])   # order of E / size, in [0, 1)
    found = _segment_rank(cell_of_unit, key) < hits.ravel()[cell_of_unit]
    f_cell, f_unit = cell_of_unit[found], unit[found]
    pick = u_start[f_unit] + (rng.random(f_unit.size) * u_size[f_unit]).astype(np.int64)
    filler = np.where(hits > 0, np.maximum(0, np.round(hits / np.maximum(p, 1e-12)).astype(np.int64) - hits),
                      rng.integers(1, 15, shape))
    n_red = rng.binomial(filler, redundancy[g][:, None])
    n_unj = np.where(unjudged[g][:, None], rng.binomial(filler - n_red, 0.3), 0)
    n_non = filler - n_red - n_unj
    # redundant tweets: uniformly without replacement among the found units' other tweets
    rep = u_size[f_unit]
    o_cell = np.repeat(f_cell, rep)
    o_tweet = np.repeat(u_start[f_unit], rep) + (np.arange(rep.sum()) - np.repeat(np.cumsum(rep) - rep, rep))
    keep = o_tweet != np.repeat(pick, rep)
    o_cell, o_tweet = o_cell[keep], o_tweet[keep]
    pool_red = np.bincount(o_cell, minlength=n_r * n_t)
    take = np.minimum(n_red.ravel(), pool_red)
    chosen = _segment_rank(o_cell, rng.random(o_cell.size)) < take[o_cell]
    non = np.minimum(n_non.ravel(), np.array([nonrelevant[t] for t in topics] * n_r))
    returned = (hits.ravel() + take + non + n_unj.ravel()).reshape(shape)
    cell = np.concatenate([f_cell, o_cell[chosen]])
    tweet = by_unit[np.concatenate([pick, o_tweet[chosen]])]
    return np.array(names, dtype=object), returned, cell, tweet


def light_world(rng: np.random.Generator, targets: pd.DataFrame) -> World:
    """One whole world (pool, latent units, official and alternate clusters, runs) from ``rng``
    with the lighter generator; the runs are in name order, as :func:`.fastworld.draw_world`."""
    latent, grade, nonrelevant = pool(rng)
    merge_o, merge_a = simulate.TTG_DEFAULTS["merge"]
    official = labels(latent, merge_o, rng)
    before = copy.deepcopy(rng.bit_generator.state)
    alternate = labels(latent, merge_a, rng)
    names, returned, cell, tweet = runs(latent, nonrelevant, targets, rng)
    order = np.argsort(names, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    n_t = len(latent)
    cell = rank[cell // n_t] * n_t + cell % n_t
    return World(latent, official, alternate, grade, names[order], returned[order], cell, tweet, before, labels)


def assessor(units: np.ndarray, merge: float, disagreement: float, rng: np.random.Generator,
             merge_size_bias: float = 1.0, largest_share: float | None = None) -> np.ndarray:
    """:func:`evalkit.simulate.ttg.assessor_clusters` for one topic, in a fixed number of
    vectorised random calls (the same distribution; see :func:`assess`)."""
    return assess([units], merge, np.array([disagreement]), rng, merge_size_bias, largest_share)[0]


def assess(units: list, merge: float, disagreement: np.ndarray, rng: np.random.Generator,
           merge_size_bias: float = 1.0, largest_share: float | None = None) -> list:
    """One assessor's labels for every topic at once (``units[i]``: topic i's latent units,
    ``disagreement[i]`` its share of re-judged tweets), in the distribution of
    :func:`evalkit.simulate.ttg.assessor_clusters`: a uniform per unit decides the lumping and
    one more picks the unit it joins (weights size ** merge_size_bias over the topic's other
    units); a uniform per tweet decides the re-judging, one more fresh-or-copy and one whom it
    copies (a copy of a tweet re-judged before it takes its new label, as in the sequential
    original).  Every call draws the same amount whatever ``merge``, ``disagreement`` and
    ``merge_size_bias``, so two calls from the same generator state differ only by those
    (paired variants)."""
    n_t = len(units)
    sizes = np.array([u.size for u in units])
    t_tweet = np.repeat(np.arange(n_t), sizes)
    span = int(max(u.max() for u in units)) + 1
    uid, inv, count = np.unique(t_tweet * span + np.concatenate(units), return_inverse=True,
                                return_counts=True)
    inv = inv.ravel()
    t_unit = uid // span
    k, n = uid.size, inv.size
    u_merge, u_pick = rng.random(k), rng.random(k)
    u_judge, u_fresh, u_copy = rng.random(n), rng.random(n), rng.random(n)
    w = count.astype(float) ** merge_size_bias if merge_size_bias != 1.0 else count.astype(float)
    cdf = np.cumsum(w)
    per_topic = np.bincount(t_unit, minlength=n_t)
    first = np.cumsum(per_topic) - per_topic
    edge = np.r_[0.0, cdf]
    before, total = edge[first], edge[first + per_topic] - edge[first]
    merged = np.flatnonzero((u_merge < merge) & (per_topic[t_unit] > 1))
    t = t_unit[merged]
    x = before[t] + u_pick[merged] * (total[t] - w[merged])         # over the topic's other units ...
    x = np.where(x >= cdf[merged] - w[merged], x + w[merged], x)     # ... skipping the unit itself
    pick = np.clip(np.searchsorted(cdf, x, side="right"), first[t], first[t] + per_topic[t] - 1)
    target = dict(zip(merged.tolist(), pick.tolist()))
    final = np.arange(k)
    for u, v in target.items():                                      # resolve chains, as the original
        seen = {u}
        while v in target and v not in seen:
            seen.add(v)
            v = target[v]
        final[u] = v
    labels = final[inv]
    judged = np.flatnonzero(u_judge < disagreement[t_tweet])
    start = np.cumsum(sizes) - sizes
    copy_of = start[t_tweet] + np.minimum((u_copy * sizes[t_tweet]).astype(np.int64), sizes[t_tweet] - 1)
    for i, f, j in zip(judged.tolist(), (u_fresh[judged] < 0.5).tolist(), copy_of[judged].tolist()):
        labels[i] = k + i if f else labels[j]                        # labels[j]: j's label when i is judged
    out = np.split(labels, start[1:])
    if largest_share is not None:
        for lab in out:
            simulate._set_largest_share(lab, largest_share, rng)
        labels = np.concatenate(out)
    # number each topic's clusters 0.. by first appearance
    top = int(labels.max()) + 1
    key, first_at, back = np.unique(t_tweet * top + labels, return_index=True, return_inverse=True)
    order = np.argsort(first_at, kind="stable")
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    per = np.bincount(key // top, minlength=n_t)
    rank -= (np.cumsum(per) - per)[key // top]
    return np.split(rank[back.ravel()], start[1:])


def labels(latent: dict, merge: float, rng: np.random.Generator, level: float = 1.0,
           merge_size_bias: float = 1.0, largest_share: float | None = None) -> dict:
    """:func:`evalkit.simulate.ttg.ttg_labels` with :func:`assess` (every topic at once)."""
    topics = sorted(latent)
    level_of = np.minimum(1.0, np.array([latent[t]["disagreement"] for t in topics]) * level)
    return dict(zip(topics, assess([latent[t]["units"] for t in topics], merge, level_of, rng,
                                   merge_size_bias, largest_share)))
