"""The simulated user study of Wang et al. (SIGIR 2015) §5: a judgment log.

Pairs come from the paper's sampling procedure
(:mod:`evalkit.simulate.preference_sampling`); choices come from a logistic
user model on the cluster metrics.  One study is :func:`draw_design` (the
pairs, batches, sensitivities and the study's uniform draws) followed by
:func:`draw_choices`; :func:`simulate_preferences` writes draw 0 of a seed
(:func:`study_generator`) as the committed log, which
:func:`evalkit.formats.preferences.read_preferences` reads back.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

__all__ = ["PREFERENCE_DEFAULTS", "simulate_preferences", "assessor_sensitivities",
           "choice_probabilities", "preference_timelines", "study_generator", "StudyDesign",
           "draw_design", "draw_choices", "unjudged_rows"]


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

_LOG_COLUMNS = ["assessor", "batch", "pair_id", "type", "topic", "left_run", "right_run", "choice",
                "seconds"]


def study_generator(seed: int, study: int) -> np.random.Generator:
    """The generator of simulated study ``study`` of ``seed``: ``SeedSequence([seed, 7, study])``.
    Study 0 of a seed is the log :func:`simulate_preferences` writes with that seed."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), 7, int(study)]))


class StudyDesign(NamedTuple):
    """One simulated study before its choices: the batches (one row per judgment), each
    assessor's sensitivities (the insensitive assessor's at full strength) and the uniform
    draws of its choices; ``seconds`` is the time spent per judgment (0.1 s resolution);
    ``differences``: per metric of the user model, left minus right per judgment; ``pools``:
    how many pairs each sampling type's pool offered the batches; ``length_limit``: the
    run-length filter (the median length after the first filter; 41 tweets in the paper)."""

    batches: pd.DataFrame
    sensitivities: dict
    u_neither: np.ndarray
    u_left: np.ndarray
    seconds: np.ndarray
    differences: dict
    pools: dict | None = None
    length_limit: int = 0


def draw_design(timelines: pd.DataFrame, relevant_counts: pd.Series, rng: np.random.Generator,
                **overrides) -> StudyDesign:
    """Draw a study by the paper's sampling procedure (§5.1) on per-(run, topic) ``timelines``
    (:func:`preference_timelines`): 30 topics weighted by ``relevant_counts``, the
    two filters, one trial of the pair sampling, batches, the assessors' sensitivities
    and the uniforms of their choices and times."""
    from . import preference_sampling as sampling

    cfg = {**PREFERENCE_DEFAULTS, **overrides}
    topics = sampling.draw_topics(relevant_counts, 30, rng)
    kept, limit = sampling.filter_timelines(timelines[timelines.topic.isin(topics)])
    pairs = sampling.sample_pairs(kept, rng)
    batches = sampling.make_batches(pairs, cfg["batches"], rng)
    sens = assessor_sensitivities({**cfg, "insensitive_share": 1.0}, rng)
    n = len(batches)
    u_neither, u_left = rng.random(n), rng.random(n)
    scores = timelines.set_index(["run", "topic"])
    left = scores.reindex(pd.MultiIndex.from_arrays([batches.left_run, batches.topic]))
    right = scores.reindex(pd.MultiIndex.from_arrays([batches.right_run, batches.topic]))
    both = left["length"].to_numpy() + right["length"].to_numpy()
    seconds = np.round(rng.lognormal(*cfg["seconds"], size=n) * (1 + both / 80), 1)
    diffs = {m: left[m].to_numpy() - right[m].to_numpy() for m in cfg["sensitivity"]}
    pools = {t: int((pairs["type"] == t).sum()) for t in ("precision", "recall", "f1")}
    return StudyDesign(batches, sens, u_neither, u_left, seconds, diffs, pools, int(limit))


def draw_choices(design: StudyDesign, insensitive_share: float = 0.0, **overrides) -> pd.DataFrame:
    """The judgment log of ``design`` when the insensitive assessor keeps ``insensitive_share``
    of its sensitivity: assessor ``a`` prefers the left timeline with probability
    ``sigmoid(d)``, ``d = sum_m s_{a,m} (m_left - m_right)``, and prefers neither with
    probability ``a exp(-|d|/b)`` (:func:`choice_probabilities`).  The same design gives the
    same uniforms at every share (common random numbers)."""
    cfg = {**PREFERENCE_DEFAULTS, **overrides}
    b = design.batches
    who, what = cfg["insensitive"]
    assessors = b.assessor.to_numpy()
    d = np.zeros(len(b))
    for m in cfg["sensitivity"]:
        s = np.zeros(len(b))
        for a, v in design.sensitivities.items():
            s[assessors == a] = v[m] * (insensitive_share if (a, m) == (who, what) else 1.0)
        d += s * design.differences[m]
    p_neither, p_left = choice_probabilities(d, cfg["neither"])
    choice = np.where(design.u_neither < p_neither, "neither",
                      np.where(design.u_left < p_left, "left", "right"))
    return b.assign(choice=choice, seconds=design.seconds)[_LOG_COLUMNS]


def simulate_preferences(world_dir, seed=2015, **overrides) -> Path:
    """Write ``preferences.csv`` for the TTG world in ``world_dir`` (a judgment log):
    study 0 of ``seed`` (:func:`study_generator`, :func:`draw_design`, :func:`draw_choices`).

    The pairs come from the paper's sampling procedure
    (:mod:`evalkit.simulate.preference_sampling`) on the world's runs scored with the official
    clusters.  User model: assessor ``a`` prefers the left timeline with
    probability ``sigmoid(d)``, ``d = sum_m s_{a,m} (m_left - m_right)`` over
    precision, recall and weighted recall (per-topic, official clusters),
    ``s_{a,m}`` log-normal around the defaults (assessor A4 ignores
    precision unless ``insensitive_share`` > 0, see
    :func:`assessor_sensitivities`); "prefer neither" has probability
    ``a exp(-|d|/b)`` (likely when the timelines are close, :func:`choice_probabilities`); time
    spent is log-normal, longer for long timelines, independent of the choice.  Columns:
    ``assessor, batch, pair_id, type, topic, left_run, right_run, choice, seconds``.
    """
    from ..formats.clusters import read_clusters
    from ..formats.trec import read_qrels, read_runs
    from ..outputs import write_text

    cfg = {**PREFERENCE_DEFAULTS, **overrides}
    world_dir = Path(world_dir)
    qrels = read_qrels(world_dir / "qrels.txt")
    clusters = read_clusters(world_dir / "clusters-official.json", qrels)
    runs = read_runs(world_dir / "runs", qrels, report=[])
    table = preference_timelines(runs, qrels, clusters)
    rel = qrels[qrels.grade > 0].groupby("topic").size()
    design = draw_design(table, rel, study_generator(seed, 0), **overrides)
    log = draw_choices(design, cfg["insensitive_share"],
                       **{k: v for k, v in overrides.items() if k != "insensitive_share"})
    return write_text(world_dir / "preferences.csv", log.to_csv(index=False, float_format="%.1f"))


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
    per = runs.assign(unjudged=unjudged_rows(qrels, runs))
    stats_ = per.groupby(["run", "topic"]).agg(length=("doc", "size"), unjudged=("unjudged", "sum"))
    out = wide.merge(stats_.reset_index(), on=["run", "topic"], how="left")
    return out.fillna({"length": 0, "unjudged": 0}).astype({"length": int, "unjudged": int})


def unjudged_rows(qrels: pd.DataFrame, runs: pd.DataFrame) -> np.ndarray:
    """Per row of ``runs``: True when the qrels do not judge its (topic, doc) pair.  Each pair
    as a whole number (the topic's and the document's positions among the qrels' own; a topic
    or document the qrels never name is unjudged outright)."""
    column = lambda frame, name: frame[name].to_numpy(object)    # noqa: E731
    topics = pd.Index(pd.unique(column(qrels, "topic")))
    docs = pd.Index(pd.unique(column(qrels, "doc")))
    judged = topics.get_indexer(column(qrels, "topic")).astype(np.int64) * len(docs) \
        + docs.get_indexer(column(qrels, "doc"))
    t, d = (index.get_indexer(column(runs, col)).astype(np.int64) for index, col in ((topics, "topic"), (docs, "doc")))
    return (t < 0) | (d < 0) | ~np.isin(t * len(docs) + d, judged)
