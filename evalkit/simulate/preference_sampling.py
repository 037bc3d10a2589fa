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
   most 20 tweets apart.  :func:`sample_pairs` — one trial: 20 base runs per
   topic, up to 20 comparison runs per type and base run, a pool per type.
4. :func:`make_batches` — batches of 180 pairs, "roughly an equal number" per
   type (round robin; a type whose pool runs out leaves its place to the others); every
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


def _rule_matrices(p: np.ndarray, r: np.ndarray, length: np.ndarray, limit: int = 20) -> dict:
    """Per type, the (base, comparison) matrix of :func:`precision_pair`, :func:`recall_pair`
    and :func:`f1_pair`, each and-ed with :func:`length_ok` (the same comparisons, vectorised)."""
    dp, dr = np.abs(p[:, None] - p[None, :]), np.abs(r[:, None] - r[None, :])
    t = np.abs(p - r)
    near = np.abs(length[:, None] - length[None, :]) <= limit
    np.fill_diagonal(near, False)
    return {"precision": (dr < 0.1) & (dp > 0.1) & near, "recall": (dp < 0.1) & (dr > 0.1) & near,
            "f1": (np.abs(t[:, None] - t[None, :]) <= 0.1) & ((dp > 0.1) | (dr > 0.1)) & near}


def sample_pairs(timelines: pd.DataFrame, rng: np.random.Generator, base_runs: int = 20,
                 per_type: int = 20) -> pd.DataFrame:
    """One trial of the sampling: per topic ``base_runs`` random base runs, and for each base
    run up to ``per_type`` comparison runs per type (precision, recall, F1 sampling).

    ``timelines`` has ``run, topic, length, precision, recall`` (per topic,
    unweighted).  Each type keeps its own pool ("up to 20 ... per metric"): a
    pair is listed once per type that selects it (the first base run that
    selects it gives its orientation), so one pair can sit in two pools;
    :func:`make_batches` gives every pair to one judgment type at most.
    Returns ``type, topic, run_a (base), run_b``.
    """
    out = []
    t = timelines.sort_values(["topic", "run"])
    topics, starts = np.unique(t["topic"].to_numpy(), return_index=True)
    cols = {c: t[c].to_numpy() for c in ("run", "precision", "recall", "length")}
    for topic, lo, hi in zip(topics, starts, [*starts[1:], len(t)]):
        runs = cols["run"][lo:hi]
        rules = _rule_matrices(cols["precision"][lo:hi].astype(float), cols["recall"][lo:hi].astype(float),
                               cols["length"][lo:hi].astype(float))
        bases = rng.choice(len(runs), size=min(base_runs, len(runs)), replace=False)
        for kind, m in rules.items():
            # each base's partners in order; a base with more than per_type draws per_type of
            # them (the bases in order, so the same draws as one base at a time)
            rows, partners = np.nonzero(m[bases])
            counts = np.bincount(rows, minlength=len(bases))
            over = np.flatnonzero(counts > per_type)
            if over.size:
                parts = np.split(partners, np.cumsum(counts)[:-1])
                for i in over:
                    parts[i] = rng.choice(parts[i], size=per_type, replace=False)
                counts = np.minimum(counts, per_type)
                partners = np.concatenate(parts)
            base = np.repeat(bases, counts)
            key = np.minimum(base, partners) * len(runs) + np.maximum(base, partners)
            first = np.sort(np.unique(key, return_index=True)[1])   # each pair once, first base's way
            out.append((np.full(len(first), kind), np.full(len(first), topic, dtype=object),
                        runs[base[first]], runs[partners[first]]))
    names = ["type", "topic", "run_a", "run_b"]
    if not out:
        return pd.DataFrame(columns=names)
    return pd.DataFrame({c: np.concatenate([o[i] for o in out]) for i, c in enumerate(names)})


def make_batches(pairs: pd.DataFrame, batches_per_assessor: dict, rng: np.random.Generator,
                 size: int = 180, shared: int = 30) -> pd.DataFrame:
    """Assign pairs to assessors' batches, roughly an equal number per type.

    Each batch takes a third of its pairs from each type's pool; a type too
    scarce for that is spread evenly over the batches still to fill, and the
    other types fill its place round robin.  Every assessor's first batch starts with the same
    ``shared`` pairs; all other pairs are unique to one assessor, and a pair
    listed in two types' pools (:func:`sample_pairs`) is judged once.
    Left/right placement is random per judgment.  Returns ``assessor, batch,
    pair_id, type, topic, left_run, right_run, shared``; ``pair_id`` is the
    row label in ``pairs``.
    """
    pools = {k: list(rng.permutation(g.index.to_numpy())) for k, g in pairs.groupby("type")}
    types = sorted(pools)
    at = dict(zip(pairs.index, range(len(pairs))))   # label -> row, for plain array access
    kind_of, topic_of = pairs["type"].to_numpy(), pairs["topic"].to_numpy()
    run_a, run_b = pairs["run_a"].to_numpy(), pairs["run_b"].to_numpy()
    used: set = set()

    def key(pid):
        i = at[pid]
        return topic_of[i], min(run_a[i], run_b[i]), max(run_a[i], run_b[i])

    def pop(kind):
        pool = pools[kind]
        while pool:
            pid = pool.pop()
            if key(pid) not in used:
                used.add(key(pid))
                return pid
        return None

    turn = [0]   # whose turn it is in the round robin, across batches
    left = [sum(batches_per_assessor.values())]   # batches still to fill

    def take(n):
        """``n`` pairs: an equal share per type, a scarce type spread evenly over the batches
        still to fill, the rest round robin over the types that still have pairs."""
        per = {k: n // len(types) + (i < n % len(types)) for i, k in enumerate(types)}
        picked, scarce = [], set()
        for k in types:
            spread = -(-len(pools[k]) // max(left[0], 1))
            if spread < per[k]:
                scarce.add(k)
            for _ in range(min(per[k], spread)):
                pid = pop(k)
                if pid is not None:
                    picked.append(pid)
        while len(picked) < n and any(pools.values()):
            fill = [k for k in types if pools[k] and k not in scarce] or types
            for j in range(len(types)):  # round robin over the filling types
                q = (turn[0] + j) % len(types)
                pid = pop(types[q]) if types[q] in fill else None
                if pid is not None:
                    picked.append(pid)
                    turn[0] = q + 1
                    break
        return picked

    common = take(shared)
    in_common = set(common)
    rows = []
    for assessor, n_batches in batches_per_assessor.items():
        for batch in range(1, n_batches + 1):
            ids = (common + take(size - shared)) if batch == 1 else take(size)
            left[0] -= 1
            rows += [(assessor, batch, int(pid), kind_of[at[pid]], topic_of[at[pid]], run_a[at[pid]],
                      run_b[at[pid]], pid in in_common) for pid in ids]
    out = pd.DataFrame(rows, columns=["assessor", "batch", "pair_id", "type", "topic", "run_a",
                                      "run_b", "shared"])
    flip = rng.random(len(out)) < 0.5
    out.insert(5, "left_run", np.where(flip, out.run_b, out.run_a))
    out.insert(6, "right_run", np.where(flip, out.run_a, out.run_b))
    return out.drop(columns=["run_a", "run_b"])
