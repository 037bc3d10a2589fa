"""Wang et al. (SIGIR 2015) §5.1: how pairs of timelines are chosen for a user study.

The paper's sampling procedure, each rule a function:

1. :func:`topic_weights` / :func:`draw_topics` — 30 topics, drawn with
   probability proportional to the N(0, 20^2) density at (relevant count -
   median relevant count), so "typical" topics are preferred.
2. :func:`filter_timelines` — drop runs that contain unjudged tweets (on any
   drawn topic), then drop timelines (run, topic) longer than the median
   length of the remaining ones (41 tweets in the paper; computed here).
3. :func:`precision_pair`, :func:`recall_pair`, :func:`f1_pair` — the three
   sampling criteria on unweighted cluster metrics; :func:`length_ok` — at
   most 20 tweets apart.  :func:`sample_pairs` — 20 base runs per topic, up to
   20 comparison runs per type and base run.
4. :func:`make_batches` — batches of 180 pairs, about a third per type; every
   assessor's first batch holds the same 30 shared pairs, all other pairs are
   unique to one assessor; left/right placement is random.

The simulated study (:mod:`evalkit.simulate.preferences`) draws its pairs with
these functions; they apply unchanged to real runs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import ParameterError


def topic_weights(relevant_counts: pd.Series, sigma: float = 20.0) -> pd.Series:
    """Normal N(0, sigma^2) density at (relevant count - median), normalised to sum 1."""
    x = relevant_counts - relevant_counts.median()
    w = np.exp(-0.5 * (x / sigma) ** 2)
    if w.sum() <= 0:
        raise ParameterError("sigma", sigma, "a width that gives some topic a positive weight")
    return w / w.sum()


def draw_topics(relevant_counts: pd.Series, n: int, rng: np.random.Generator) -> list:
    """``n`` topics without replacement, probability as :func:`topic_weights`."""
    w = topic_weights(relevant_counts)
    n = min(n, int((w > 0).sum()))
    return list(rng.choice(w.index.to_numpy(), size=n, replace=False, p=w.to_numpy()))


def filter_timelines(timelines: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Apply the two run filters to ``run, topic, length, unjudged`` rows.

    Returns the kept rows and the length limit (median length after the first
    filter).
    """
    dirty = set(timelines.loc[timelines["unjudged"] > 0, "run"])
    clean = timelines[~timelines["run"].isin(dirty)]
    limit = int(np.median(clean["length"])) if len(clean) else 0
    return clean[clean["length"] <= limit].reset_index(drop=True), limit


def precision_pair(b, c) -> bool:
    """Precision sampling: recall within 0.1, precision more than 0.1 apart."""
    return abs(b["recall"] - c["recall"]) < 0.1 and abs(b["precision"] - c["precision"]) > 0.1


def recall_pair(b, c) -> bool:
    """Recall sampling: precision within 0.1, recall more than 0.1 apart."""
    return abs(b["precision"] - c["precision"]) < 0.1 and abs(b["recall"] - c["recall"]) > 0.1


def f1_pair(b, c) -> bool:
    """F1 sampling: | |P-R|_b - |P-R|_c | <= 0.1 and P or R more than 0.1 apart."""
    tb, tc = abs(b["precision"] - b["recall"]), abs(c["precision"] - c["recall"])
    return abs(tb - tc) <= 0.1 and (abs(b["precision"] - c["precision"]) > 0.1
                                    or abs(b["recall"] - c["recall"]) > 0.1)


def length_ok(b, c, limit: int = 20) -> bool:
    """Keep a pair whose timelines differ in length by at most ``limit`` tweets."""
    return abs(b["length"] - c["length"]) <= limit


_RULES = {"precision": precision_pair, "recall": recall_pair, "f1": f1_pair}


def sample_pairs(timelines: pd.DataFrame, rng: np.random.Generator, base_runs: int = 20,
                 per_type: int = 20) -> pd.DataFrame:
    """Pairs per topic: ``base_runs`` random base runs, up to ``per_type`` partners per type.

    ``timelines`` has ``run, topic, length, precision, recall`` (per topic,
    unweighted).  A pair is kept once (the first type and orientation that
    selects it).  Returns ``type, topic, run_a (base), run_b``.
    """
    out, seen = [], set()
    for topic, g in timelines.groupby("topic", sort=True):
        rows = g.set_index("run").to_dict("index")
        runs = sorted(rows)
        bases = rng.choice(runs, size=min(base_runs, len(runs)), replace=False)
        for base in bases:
            b = rows[base]
            for kind, rule in _RULES.items():
                partners = [r for r in runs if r != base and rule(b, rows[r]) and length_ok(b, rows[r])]
                if len(partners) > per_type:
                    partners = list(rng.choice(partners, size=per_type, replace=False))
                for r in partners:
                    key = (topic, frozenset((base, r)))
                    if key not in seen:
                        seen.add(key)
                        out.append((kind, topic, base, r))
    return pd.DataFrame(out, columns=["type", "topic", "run_a", "run_b"])


def make_batches(pairs: pd.DataFrame, batches_per_assessor: dict, rng: np.random.Generator,
                 size: int = 180, shared: int = 30) -> pd.DataFrame:
    """Assign pairs to assessors' batches (a third of each batch per type).

    Every assessor's first batch starts with the same ``shared`` pairs; all
    other pairs are unique to one assessor.  Left/right placement is random
    per judgment.  Returns ``assessor, batch, pair_id, type, topic, left_run,
    right_run, shared``.
    """
    pools = {k: list(rng.permutation(g.index.to_numpy())) for k, g in pairs.groupby("type")}
    types = sorted(pools)

    def take(n):
        picked = []
        for i in range(n):
            for j in range(len(types)):  # round robin over types, skipping exhausted ones
                kind = types[(i + j) % len(types)]
                if pools[kind]:
                    picked.append(pools[kind].pop())
                    break
        return picked

    common = take(shared)
    at = dict(zip(pairs.index, range(len(pairs))))   # label -> row, for plain array access
    kind_of, topic_of = pairs["type"].to_numpy(), pairs["topic"].to_numpy()
    run_a, run_b = pairs["run_a"].to_numpy(), pairs["run_b"].to_numpy()
    in_common = set(common)
    rows = []
    for assessor, n_batches in batches_per_assessor.items():
        for batch in range(1, n_batches + 1):
            ids = (common + take(size - shared)) if batch == 1 else take(size)
            for pid in ids:
                i = at[pid]
                a, b = run_a[i], run_b[i]
                left, right = (a, b) if rng.random() < 0.5 else (b, a)
                rows.append((assessor, batch, int(pid), kind_of[i], topic_of[i], left, right,
                             pid in in_common))
    return pd.DataFrame(rows, columns=["assessor", "batch", "pair_id", "type", "topic",
                                       "left_run", "right_run", "shared"])
