"""The simulated user study of Wang et al. (SIGIR 2015) §5: a judgment log.

Pairs come from the paper's sampling procedure
(:mod:`evalkit.simulate.preference_sampling`); choices come from a logistic
user model on the cluster metrics (:func:`simulate_preferences`).  The log is
read back by :func:`evalkit.formats.preferences.read_preferences`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..seeds import as_generator

__all__ = ["PREFERENCE_DEFAULTS", "simulate_preferences", "assessor_sensitivities",
           "choice_probabilities", "preference_timelines"]


#: The simulated user study (five assessors, two of them doing two batches).
PREFERENCE_DEFAULTS = dict(
    batches={"A1": 2, "A2": 1, "A3": 2, "A4": 1, "A5": 1},
    sensitivity={"precision": 7.0, "recall": 7.0, "weighted_recall": 3.0},  # logit per unit of metric
    assessor_spread=0.4,          # sd of log-sensitivity between assessors
    insensitive=("A4", "precision"),  # the assessor the paper saw ignore precision
    insensitive_share=0.0,        # share of its drawn sensitivity to that metric it keeps (0: none)
    neither=(0.5, 0.8),           # P(neither) = a * exp(-|d| / b), d the logit preference
    seconds=(3.4, 0.6),           # log-normal time per judgment (median ~30 s), longer for long timelines
)


def simulate_preferences(world_dir, seed=2015, **overrides) -> Path:
    """Write ``preferences.csv`` for the TTG world in ``world_dir`` (a judgment log).

    The pairs come from the paper's sampling procedure
    (:mod:`evalkit.simulate.preference_sampling`) on the world's runs scored with the official
    clusters.  User model: assessor ``a`` prefers the left timeline with
    probability ``sigmoid(d)``, ``d = sum_m s_{a,m} (m_left - m_right)`` over
    precision, recall and weighted recall (per-topic, official clusters),
    ``s_{a,m}`` log-normal around the defaults (assessor A4 ignores
    precision unless ``insensitive_share`` > 0, see
    :func:`assessor_sensitivities`); "prefer neither" has probability
    ``a exp(-|d|/b)`` (likely when the timelines are close, :func:`choice_probabilities`); time spent is log-normal, longer for long
    timelines.  Columns: ``assessor, batch, pair_id, type, topic, left_run,
    right_run, choice, seconds``.
    """
    from . import preference_sampling as preferences
    from ..formats.clusters import read_clusters
    from ..formats.trec import read_qrels, read_runs
    from ..outputs import write_text

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
    sens = assessor_sensitivities(cfg, rng)
    rows = ["assessor,batch,pair_id,type,topic,left_run,right_run,choice,seconds\n"]
    a_n, b_n = cfg["neither"]
    for j in batches.itertuples(index=False):
        left, right = metric.loc[(j.left_run, j.topic)], metric.loc[(j.right_run, j.topic)]
        d = sum(s * (left[m] - right[m]) for m, s in sens[j.assessor].items())
        p_neither, p_left = choice_probabilities(d, (a_n, b_n))
        if rng.random() < p_neither:
            choice = "neither"
        else:
            choice = "left" if rng.random() < p_left else "right"
        seconds = rng.lognormal(*cfg["seconds"]) * (1 + (left["length"] + right["length"]) / 80)
        rows.append(f"{j.assessor},{j.batch},{j.pair_id},{j.type},{j.topic},{j.left_run},"
                    f"{j.right_run},{choice},{seconds:.1f}\n")
    return write_text(world_dir / "preferences.csv", "".join(rows))


def choice_probabilities(d, neither):
    """The user model's ``(P(prefer neither), P(left | a preference))`` for logit preference ``d``
    (a number or an array): ``a exp(-|d|/b)`` and ``sigmoid(d)``, ``(a, b) = neither``."""
    a_n, b_n = neither
    return a_n * np.exp(-np.abs(d) / b_n), 1 / (1 + np.exp(-d))


def assessor_sensitivities(cfg: dict, rng: np.random.Generator) -> dict:
    """Each assessor's logit per unit of each metric: log-normal around ``cfg["sensitivity"]``;
    the ``insensitive`` assessor keeps ``insensitive_share`` of its sensitivity to that metric
    (0 by default: it ignores it, as the paper's assessor 4 appeared to ignore precision)."""
    sens = {a: {m: v * np.exp(rng.normal(0, cfg["assessor_spread"])) for m, v in cfg["sensitivity"].items()}
            for a in cfg["batches"]}
    who, what = cfg["insensitive"]
    if who in sens:
        sens[who][what] = sens[who][what] * cfg.get("insensitive_share", 0.0)
    return sens


def preference_timelines(runs: pd.DataFrame, qrels: pd.DataFrame, clusters: dict) -> pd.DataFrame:
    """Per (run, topic): length, unjudged tweets and unweighted/weighted metrics."""
    from ..measures import timeline

    tidy = timeline.score_runs(runs, timeline.cluster_table(clusters, qrels))
    wide = tidy.pivot_table(index=["run", "topic"], columns="metric", values="value").reset_index()
    judged = set(zip(qrels.topic, qrels.doc))
    per = runs.assign(unjudged=[k not in judged for k in zip(runs.topic, runs.doc)])
    stats_ = per.groupby(["run", "topic"]).agg(length=("doc", "size"), unjudged=("unjudged", "sum"))
    out = wide.merge(stats_.reset_index(), on=["run", "topic"], how="left")
    return out.fillna({"length": 0, "unjudged": 0}).astype({"length": int, "unjudged": int})
