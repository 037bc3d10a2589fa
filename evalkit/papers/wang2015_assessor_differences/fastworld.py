"""Wang et al. (SIGIR 2015) §3–4: a whole simulated TTG world, scored without writing it.

:func:`evalkit.simulate.ttg.simulate_ttg` writes a world as files (qrels,
two cluster files, 280,000 run rows); judging a claim over many worlds only
needs, per run and topic, which *relevant* tweets it returned and how many
tweets it returned in all: the TTG metrics (:mod:`evalkit.measures.timeline`)
depend on nothing else.  :func:`draw_world` makes the same world as
``simulate_ttg`` with the same generator (the same pool, latent units, official
and alternate clusters, and runs: :func:`run_hits` makes exactly the random
calls of :func:`evalkit.simulate.ttg.ttg_runs`, in the same order, keeping
tweet positions instead of tweet ids), and :meth:`World.score` gives the
per-run mean scores under any cluster labels (tested equal to the file path's
scores).  The identity is only lost if an unjudged tweet's random id
collides with another tweet's (probability about 1e-12 per world): then the
run returned one tweet fewer than counted here.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from ...measures import timeline
from ...simulate import ttg as simulate

__all__ = ["World", "draw_world", "run_hits", "choice_without_replacement"]


@dataclass
class World:
    """A TTG world in tweet positions: ``latent`` (:func:`evalkit.simulate.ttg.ttg_pool`),
    both assessors' labels, the relevant tweets' grades, and the runs as (cell, tweet) pairs
    of relevant tweets returned plus the count of tweets returned per cell
    (cell = run x topic)."""

    latent: dict
    official: dict
    alternate: dict
    grade: np.ndarray          # grade of every relevant tweet, topics in sorted order
    run_names: np.ndarray
    returned: np.ndarray       # (runs, topics) tweets returned
    cell: np.ndarray           # run * topics + topic of each relevant tweet returned
    tweet: np.ndarray          # its position in the concatenated relevant tweets
    before_alternate: dict     # generator state before the alternate was drawn
    labeler: Callable = simulate.ttg_labels   # how its assessors were drawn (ttg_labels' signature)

    @property
    def topics(self) -> list[str]:
        return sorted(self.latent)

    def alternate_rng(self) -> np.random.Generator:
        """A generator in the state the alternate assessor was drawn from."""
        rng = np.random.default_rng()
        rng.bit_generator.state = copy.deepcopy(self.before_alternate)
        return rng

    def score(self, labels: dict) -> pd.DataFrame:
        """Per-run mean scores (one column per metric, as :func:`evalkit.measures.timeline.run_means`)
        under ``labels`` (topic -> cluster label per relevant tweet)."""
        topics = self.topics
        n_t, n_r = len(topics), self.run_names.size
        sizes = [labels[t].size for t in topics]
        width = max(int(labels[t].max()) for t in topics) + 1
        local = np.concatenate([labels[t] for t in topics])
        topic_of = np.repeat(np.arange(n_t), sizes)
        weight = np.bincount(topic_of * width + local, weights=self.grade,
                             minlength=n_t * width).reshape(n_t, width)   # cluster weights per topic
        clusters = np.array([int(labels[t].max()) + 1 for t in topics])
        total_w = weight.sum(axis=1)
        hit = np.zeros((n_r * n_t, width), dtype=bool)            # cell x cluster: any tweet returned
        hit[self.cell, local[self.tweet]] = True
        hits = hit.sum(axis=1).reshape(n_r, n_t)
        hit_w = np.einsum("cw,cw->c", hit, weight[np.arange(n_r * n_t) % n_t]).reshape(n_r, n_t)
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = np.where(self.returned > 0, hits / np.maximum(self.returned, 1), 0.0)
        recall, weighted = hits / clusters, hit_w / total_w
        values = {"precision": precision, "recall": recall, "weighted_recall": weighted,
                  "f1": timeline.f1_score(precision, recall),
                  "weighted_f1": timeline.f1_score(precision, weighted)}
        out = pd.DataFrame({m: v.mean(axis=1) for m, v in values.items()},
                           index=pd.Index(self.run_names, name="run"))
        out.columns.name = "metric"
        return out


def choice_without_replacement(rng: np.random.Generator, size: int, p: np.ndarray,
                                cdf: np.ndarray) -> np.ndarray:
    """``rng.choice(p.size, size, replace=False, p=p)`` with its random calls and result
    (numpy's algorithm: draw the missing uniforms, look them up in the cdf of the units not yet
    found, keep the first occurrence of each new unit), given ``cdf`` (``cumsum(p)`` over its
    last value), without the argument checks.  ``tests/papers/test_wang2015_whole_worlds.py``
    compares it with ``rng.choice`` bit for bit."""
    found = np.empty(size, dtype=np.int64)
    n_uniq, q = 0, None
    while n_uniq < size:
        x = rng.random(size - n_uniq)
        if n_uniq > 0:
            if q is None:
                q = p.copy()
            q[found[:n_uniq]] = 0
            cdf = np.cumsum(q)
            cdf /= cdf[-1]
        new = dict.fromkeys(cdf.searchsorted(x, side="right").tolist())    # first occurrences, in order
        found[n_uniq:n_uniq + len(new)] = list(new)
        n_uniq += len(new)
    return found


def run_hits(qrels: pd.DataFrame, latent: dict, targets: pd.DataFrame, rng: np.random.Generator):
    """:func:`evalkit.simulate.ttg.ttg_runs` in tweet positions, with the same random calls.

    Returns ``(run_names, returned, cell, tweet)`` (see :class:`World`); the
    generator is left where ``ttg_runs`` leaves it.
    """
    topics = sorted(latent)
    groups = sorted(targets["group"].unique())
    style = {g: (rng.uniform(0.05, 0.6), rng.random() < 0.2) for g in groups}
    n_non = qrels[qrels["grade"] == 0].groupby("topic").size().to_dict()
    offset = np.cumsum([0] + [latent[t]["docs"].size for t in topics])
    layout = []
    for ti, topic in enumerate(topics):
        units = latent[topic]["units"]
        sizes = np.bincount(units)
        p_unit = sizes / sizes.sum()
        cdf = np.cumsum(p_unit)
        cdf /= cdf[-1]
        layout.append((np.argsort(units, kind="stable") + offset[ti], sizes, np.cumsum(sizes) - sizes,
                       p_unit, cdf, n_non.get(topic, 0)))
    names, counter = [], {}
    returned = np.zeros((len(targets), len(topics)), dtype=np.int64)
    cells, tweets = [], []
    lognormal, binomial, random, choice = rng.lognormal, rng.binomial, rng.random, rng.choice
    for ri, row in enumerate(targets.itertuples(index=False)):
        gi = groups.index(row.group)
        counter[row.group] = counter.get(row.group, 0) + 1
        names.append(f"G{gi + 1:02d}-run{counter[row.group]}")
        redundancy, unjudged = style[row.group]
        for ti, (by_unit, sizes, starts, p_unit, cdf, pool_non) in enumerate(layout):
            r = min(max(row.unweighted_recall * lognormal(0, 0.35), 0.0), 1.0)       # np.clip's value
            hits = int(binomial(sizes.size, r))
            p = min(max(row.precision * lognormal(0, 0.3), 0.02), 1.0)
            chosen = (choice_without_replacement(rng, hits, p_unit, cdf) if hits
                      else np.zeros(0, dtype=np.int64))
            size = sizes[chosen]
            picks = starts[chosen] + (random(chosen.size) * size).astype(np.int64)
            filler = max(0, int(round(hits / p)) - hits) if hits else int(rng.integers(1, 15))
            n_red = int(binomial(filler, redundancy))
            n_unj = int(binomial(filler - n_red, 0.3)) if unjudged else 0
            n_nonrel = filler - n_red - n_unj
            got = [picks]
            pool_red = int(size.sum()) - chosen.size
            if pool_red:
                # the chosen units' tweets in order, less each unit's pick (the units are disjoint)
                total = int(size.sum())
                span = np.repeat(starts[chosen] - (np.cumsum(size) - size), size) + np.arange(total)
                span = span[span != np.repeat(picks, size)]
                take = min(n_red, pool_red)
                got.append(span[choice(pool_red, size=take, replace=False)])
            else:
                take = 0
            non = 0
            if pool_non:
                non = min(n_nonrel, pool_non)
                choice(pool_non, size=non, replace=False)
            if n_unj:
                rng.integers(simulate._FEB_2013, simulate._MAR_END_2013, size=n_unj)
                rng.integers(0, 1 << 22, size=n_unj)           # the snowflake ids' low bits
            n = hits + take + non + n_unj
            rng.permutation(n)
            returned[ri, ti] = n
            rel = by_unit[np.concatenate(got)] if len(got) > 1 else by_unit[picks]
            tweets.append(rel)
            cells.append(np.full(rel.size, ri * len(topics) + ti, dtype=np.int64))
    return (np.array(names, dtype=object), returned, np.concatenate(cells), np.concatenate(tweets))


def draw_world(rng: np.random.Generator, targets: pd.DataFrame) -> World:
    """One whole world from ``rng``, with the random calls of
    :func:`evalkit.simulate.ttg.simulate_ttg` in its order (pool and latent units, official
    clusters, alternate clusters, runs): from ``default_rng(2015)`` it is the committed world."""
    qrels, latent = simulate.ttg_pool(rng)
    merge_o, merge_a = simulate.TTG_DEFAULTS["merge"]
    official = simulate.ttg_labels(latent, merge_o, rng)
    before = copy.deepcopy(rng.bit_generator.state)
    alternate = simulate.ttg_labels(latent, merge_a, rng)
    names, returned, cell, tweet = run_hits(qrels, latent, targets, rng)
    topics = sorted(latent)
    docs = np.concatenate([latent[t]["docs"] for t in topics])
    topic = np.repeat(np.array(topics, dtype=object), [latent[t]["docs"].size for t in topics])
    where = timeline.pair_positions(qrels["topic"], qrels["doc"], topic, docs)
    grade = qrels["grade"].to_numpy()[where].astype(float)
    order = np.argsort(names, kind="stable")              # runs in name order, as run_means
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    n_t = len(topics)
    cell = rank[cell // n_t] * n_t + cell % n_t
    return World(latent, official, alternate, grade, names[order], returned[order], cell, tweet, before)
