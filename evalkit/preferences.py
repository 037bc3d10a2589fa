"""Wang et al. (SIGIR 2015) §5: do user preferences agree with the TTG metrics?

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

Agreement (§5.2): :func:`agreement` bins pairs by the absolute difference of
the sampled metric and computes Cohen's kappa between the human choice
("prefer neither" dropped) and the metric's implied preference.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import stats
from .errors import ParameterError

__all__ = ["topic_weights", "draw_topics", "filter_timelines", "precision_pair", "recall_pair",
           "f1_pair", "length_ok", "sample_pairs", "make_batches", "METRICS_OF_TYPE", "BINS",
           "implied_choice", "agreement", "anova_by_bin", "TIME_BIN", "judgment_table",
           "shared_fleiss", "kappa_trend"]

#: Which metrics each sampling type is checked against (§5.2).
METRICS_OF_TYPE = {"precision": ("precision",), "recall": ("recall", "weighted_recall"),
                   "f1": ("f1", "weighted_f1")}
#: Figure 7's bins of absolute metric difference (the last one closed at 1).
BINS = (0.0, 0.1, 0.2, 0.3, 0.4, 1.0 + 1e-9)
#: Figure 9's bins of time spent, seconds.
TIME_BIN = 30


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
    rows = []
    for assessor, n_batches in batches_per_assessor.items():
        for batch in range(1, n_batches + 1):
            ids = (common + take(size - shared)) if batch == 1 else take(size)
            for pid in ids:
                p = pairs.loc[pid]
                left, right = (p.run_a, p.run_b) if rng.random() < 0.5 else (p.run_b, p.run_a)
                rows.append((assessor, batch, int(pid), p.type, p.topic, left, right, pid in common))
    return pd.DataFrame(rows, columns=["assessor", "batch", "pair_id", "type", "topic",
                                       "left_run", "right_run", "shared"])


def implied_choice(left: float, right: float) -> str:
    """The preference a metric implies: the run with the higher score (ties: neither)."""
    return "left" if left > right else "right" if right > left else "neither"


def agreement(judgments: pd.DataFrame, by: tuple[str, ...] = ("metric", "bin"),
              alpha: float = 0.05) -> pd.DataFrame:
    """Cohen's kappa between human and metric preferences per group.

    ``judgments`` (long format, one row per judgment and checked metric) has
    ``metric, bin, choice, implied`` and any grouping columns.  "Prefer
    neither" judgments are counted, then dropped before kappa (as the paper).
    """
    rows = []
    for key, g in judgments.groupby(list(by), sort=True, observed=True):
        decided = g[g.choice != "neither"]
        k = stats.cohens_kappa(decided.choice, decided.implied, alpha) if len(decided) else None
        rows.append({**dict(zip(by, key if isinstance(key, tuple) else (key,))),
                     "kappa": k.kappa if k else np.nan, "low": k.low if k else np.nan,
                     "high": k.high if k else np.nan, "neither": int((g.choice == "neither").sum()),
                     "preferences": len(decided)})
    return pd.DataFrame(rows)


def anova_by_bin(per_assessor: pd.DataFrame) -> pd.DataFrame:
    """Table 3: one-way ANOVA of per-assessor kappa across bins, per metric (scipy)."""
    from scipy.stats import f_oneway

    rows = []
    for metric, g in per_assessor.dropna(subset=["kappa"]).groupby("metric", sort=False):
        groups = [x.kappa.to_numpy() for _, x in g.groupby("bin", observed=True) if len(x)]
        groups = [x for x in groups if len(x) >= 1]
        n = sum(len(x) for x in groups)
        if len(groups) < 2 or n <= len(groups):
            rows.append({"metric": metric, "df1": np.nan, "df2": np.nan, "F": np.nan, "p": np.nan})
            continue
        res = f_oneway(*groups)
        rows.append({"metric": metric, "df1": len(groups) - 1, "df2": n - len(groups),
                     "F": float(res.statistic), "p": float(res.pvalue)})
    return pd.DataFrame(rows)


def judgment_table(log: pd.DataFrame, timelines: pd.DataFrame) -> pd.DataFrame:
    """One row per (judgment, checked metric): the metric difference, its bin,
    the human choice and the metric's implied choice.

    ``timelines`` holds per (run, topic) metric values (see
    :func:`evalkit.simulate.preference_timelines`).  Orientation: ``diff`` is
    left minus right; bins use ``|diff|`` (Figure 7's bins).
    """
    scores = timelines.set_index(["run", "topic"])
    rows = []
    for j in log.itertuples(index=False):
        left, right = scores.loc[(j.left_run, j.topic)], scores.loc[(j.right_run, j.topic)]
        for m in METRICS_OF_TYPE[j.type]:
            d = float(left[m] - right[m])
            rows.append((j.assessor, j.batch, j.pair_id, j.type, j.topic, m, d,
                         implied_choice(left[m], right[m]), j.choice, j.seconds))
    out = pd.DataFrame(rows, columns=["assessor", "batch", "pair_id", "type", "topic", "metric",
                                      "diff", "implied", "choice", "seconds"])
    labels = [f"[{a:g},{b:.1f})" if b < 1 else f"[{a:g},1]" for a, b in zip(BINS[:-1], BINS[1:])]
    out["bin"] = pd.cut(out["diff"].abs(), BINS, right=False, labels=labels)
    edges = np.arange(0, max(out.seconds.max(), TIME_BIN) + TIME_BIN, TIME_BIN)
    out["time_bin"] = pd.cut(out.seconds, edges, right=False,
                             labels=[f"[{int(a)},{int(b)})" for a, b in zip(edges[:-1], edges[1:])])
    return out


def shared_fleiss(log: pd.DataFrame) -> tuple[float, int, int]:
    """Fleiss' kappa over the pairs every assessor judged (the shared pairs).

    Choices are oriented to a fixed run order per pair (left/right placement
    was random), categories: prefer run A, prefer run B, neither.  Returns
    ``(kappa, pairs, raters)``.
    """
    raters = log.assessor.nunique()
    counts = log.groupby("pair_id").assessor.nunique()
    shared = counts[counts == raters].index
    rows = []
    for pid, g in log[log.pair_id.isin(shared)].groupby("pair_id"):
        first = min(g.left_run.iloc[0], g.right_run.iloc[0])
        picks = [("A" if (c == "left") == (l == first) else "B") if c != "neither" else "N"
                 for c, l in zip(g.choice, g.left_run)]
        rows.append([picks.count("A"), picks.count("B"), picks.count("N")])
    if not rows:
        return float("nan"), 0, raters
    return stats.fleiss_kappa(np.array(rows)), len(rows), raters


def kappa_trend(agg: pd.DataFrame, metric: str) -> tuple[float, float]:
    """Kappa of the smallest and of the largest populated bin of ``metric`` (NaN if none)."""
    k = agg[(agg.metric == metric)].dropna(subset=["kappa"]).kappa
    return (float(k.iloc[0]), float(k.iloc[-1])) if len(k) else (float("nan"), float("nan"))
