"""Wang et al. (SIGIR 2015) §4, beyond the paper: alternative alternate assessors.

Why weighted F1 is less stable here than in the paper.  The notebook draws
its worlds with :func:`.draws.whole_worlds` (every claim is judged over
whole worlds there) and summarises them here with :func:`summarise_worlds`.
:func:`assessor_worlds` is the older, narrower experiment, kept (public) for its
tests and other callers: the committed world is rebuilt in memory and only
its alternate assessor is re-drawn, varying which units it lumps together
(``merge_size_bias``) and how much it disagrees, and with the share of each
topic's tweets in its largest cluster set directly (``largest_share``).
Each world re-runs the §3–4 pipeline (:mod:`.pipeline`: Table 1's tau and
swaps, Figure 5's small swaps, §4.1's ARI) on cluster labels, without
writing cluster files.

* :func:`assessor_worlds` — one row per (world, draw), committed world only.
* :func:`summarise_worlds` — one row per world, with whether it meets §4.1's
  calibration targets.

The figure is :func:`.figures.assessor_worlds_figure`; the explanation the
claims quote from the summary is in :mod:`.explain`.
"""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ...measures import timeline
from ...simulate import ttg as simulate
from ... import paths
from . import TTG_SEED
from ...stats.agreement import adjusted_rand_index
from .pipeline import ari_statistics, stability, swap_differences

__all__ = ["DEFAULT_WORLD", "assessor_worlds", "summarise_worlds"]


#: The alternate assessor's default merge_size_bias and disagreement level (the default world).
DEFAULT_WORLD = (1.0, 1.0)


def assessor_worlds(biases, levels, draws: int, seed: int | None = None,
                    targets: pd.DataFrame | None = None, progress: bool = False,
                    default_draws: int | None = None, shares=()) -> pd.DataFrame:
    """Alternative alternate assessors on the default simulated world, one row per (world, draw).

    The default world (:func:`evalkit.simulate.ttg.simulate_ttg` with seed
    :data:`TTG_SEED`) is rebuilt in memory; its pool, latent units, official
    clusters and runs stay fixed.  Only the alternate assessor varies, over
    ``biases`` x ``levels`` (the default (1, 1) always included):
    ``merge_size_bias``, which units a lumped unit joins (probability
    proportional to size ** bias: 1 by size, the default; 0 any unit alike;
    negative, small units), and ``level``, the multiplier of its per-topic
    disagreement.  Draw 0 continues the default world's random stream, so the
    default world's draw 0 *is* the committed alternate assessor; draws
    1..``draws``-1 are independent alternates.  The default world gets
    ``default_draws`` draws (default ``draws``): the paper's claims are judged
    over them.

    ``shares``: worlds ``"largest share set"`` that take each of the default
    world's draws (the same alternate, paired) and set the share of each
    topic's tweets in the alternate's largest cluster directly
    (``largest_share`` of :func:`evalkit.simulate.ttg.assessor_clusters`), so
    the named cause is varied on its own; column ``share_set``.

    Each row has Table 1's tau and swaps for weighted F1, the smallest tau
    over metrics and the metric with most swaps, Figure 5's share of small
    swaps (|diff| < 0.03) for F1 and weighted F1, and the calibration targets:
    per-topic ARI mean, median and sd, clusters per topic of both assessors,
    and the mean share of a topic's relevant tweets in its largest alternate
    (and official) cluster.
    """
    seed = TTG_SEED if seed is None else seed
    rng = np.random.default_rng(seed)
    qrels, latent = simulate.ttg_pool(rng)
    merge_o, merge_a = simulate.TTG_DEFAULTS["merge"]
    official = simulate.ttg_labels(latent, merge_o, rng)
    before_alternate = copy.deepcopy(rng.bit_generator.state)
    simulate.ttg_labels(latent, merge_a, rng)            # the committed alternate (draw 0 of the default)
    if targets is None:
        targets = pd.read_csv(paths.PUBLISHED / "wang2015_ttg_official_scores.csv")
    runs = simulate.ttg_runs(qrels, latent, targets, rng)
    score = timeline.RunScorer(runs)
    table = _LabelTable(latent, qrels)
    s_off = timeline.run_means(score(table(official)))
    grid = [(float(b), float(lv), None) for lv in levels for b in biases]
    if DEFAULT_WORLD + (None,) not in grid:
        grid.insert(0, DEFAULT_WORLD + (None,))
    grid += [DEFAULT_WORLD + (float(s),) for s in shares]
    fixed = {"clusters_official": np.mean([lab.max() + 1 for lab in official.values()]),
             "largest_share_official": _largest_share(official)}   # the same in every world

    def alternate_rng(draw):
        if draw == 0:
            arng = np.random.default_rng()
            arng.bit_generator.state = copy.deepcopy(before_alternate)
            return arng
        return np.random.default_rng(np.random.SeedSequence([seed, 6, draw]))

    rows = []
    for bias, level, share in tqdm(grid, desc="assessor worlds", disable=not progress):
        default = (bias, level) == DEFAULT_WORLD
        for draw in range(default_draws if default and default_draws else draws):
            alt = simulate.ttg_labels(latent, merge_a, alternate_rng(draw), level,
                                      merge_size_bias=bias, largest_share=share)
            s_alt = timeline.run_means(score(table(alt)))
            t1 = stability(s_off, s_alt).set_index("metric")
            ari = ari_statistics(pd.Series({t: adjusted_rand_index(official[t], alt[t]) for t in alt}))
            small = {m: (swap_differences(s_off, s_alt, m) < 0.03).mean() for m in ("f1", "weighted_f1")}
            rows.append({"world": "largest share set" if share is not None else _world_label(bias, level),
                         "merge_size_bias": bias, "level": level, "share_set": share,
                         "draw": draw, "tau_weighted_f1": t1.loc["weighted_f1", "tau"],
                         "swaps_weighted_f1": int(t1.loc["weighted_f1", "rank_swaps"]),
                         "tau_min": t1.tau.min(), "most_swaps": t1.rank_swaps.idxmax(),
                         "small_f1": small["f1"], "small_weighted_f1": small["weighted_f1"],
                         "ari_mean": ari["mean"], "ari_median": ari["median"], "ari_sd": ari["sd"],
                         "clusters_official": fixed["clusters_official"],
                         "clusters_alternate": np.mean([lab.max() + 1 for lab in alt.values()]),
                         "largest_share_alternate": _largest_share(alt),
                         "largest_share_official": fixed["largest_share_official"]})
    return pd.DataFrame(rows)


def _world_label(bias: float, level: float) -> str:
    if (bias, level) == DEFAULT_WORLD:
        return "default"
    if level == DEFAULT_WORLD[1]:
        return "merge_size_bias only"
    if bias == DEFAULT_WORLD[0]:
        return "disagreement only"
    return "both knobs"


def _largest_share(labels: dict) -> float:
    """Mean over topics of the share of relevant tweets in the topic's largest cluster."""
    return float(np.mean([np.bincount(lab).max() / lab.size for lab in labels.values()]))


class _LabelTable:
    """:func:`evalkit.measures.timeline.cluster_table` of cluster labels aligned with the latent
    docs (:func:`evalkit.simulate.ttg.ttg_labels`): the topics, docs and grades are looked up
    once, so each assessor costs one weight sum (the same rows, in time order within a topic)."""

    def __init__(self, latent: dict, qrels: pd.DataFrame):
        topics = sorted(latent)
        self.topic = np.concatenate([np.full(latent[t]["docs"].size, t, dtype=object) for t in topics])
        self.doc = np.concatenate([latent[t]["docs"].astype(str) for t in topics]).astype(object)
        where = timeline.pair_positions(qrels["topic"], qrels["doc"], self.topic, self.doc)
        self.grade = np.where(where >= 0, qrels["grade"].to_numpy()[where], 0)
        self.topic_index = np.repeat(np.arange(len(topics)), [latent[t]["docs"].size for t in topics])

    def __call__(self, labels: dict) -> pd.DataFrame:
        cluster = np.concatenate([labels[t] for t in sorted(labels)])
        gid = self.topic_index * (int(cluster.max()) + 1) + cluster
        weight = np.bincount(gid, weights=self.grade)[gid]
        return pd.DataFrame({"topic": self.topic, "doc": self.doc, "cluster": cluster,
                             "grade": self.grade, "weight": weight})


def _calibrated(row) -> bool:
    """The §4.1 calibration targets the default world is held to (see :func:`.verdicts.claims`)."""
    from .verdicts import TARGETS

    return bool(all(TARGETS[k][1] <= getattr(row, f"ari_{k}") <= TARGETS[k][2] for k in TARGETS)
                and row.clusters_official > row.clusters_alternate)


def summarise_worlds(draws: pd.DataFrame) -> pd.DataFrame:
    """One row per world: means over draws (and the range and draw 0 of the two claimed
    quantities; draw 0 of the default world is the committed one) and whether the mean
    ARI/cluster statistics meet the calibration targets."""
    keys = ["world", "merge_size_bias", "level", "share_set"]
    draws = draws.assign(share_set=draws["share_set"].fillna(-1.0))   # -1: not set (groupby keeps it)
    g = draws.groupby(keys, sort=False)
    out = g.mean(numeric_only=True).drop(columns="draw")
    for col in ("tau_weighted_f1", "small_weighted_f1"):
        out[f"{col}_min"], out[f"{col}_max"] = g[col].min(), g[col].max()
        out[f"{col}_draw0"] = draws[draws["draw"] == 0].set_index(keys)[col]
    out["draws"] = g.size()
    out = out.reset_index()
    out["share_set"] = out["share_set"].where(out["share_set"] >= 0)
    out["calibrated"] = [_calibrated(r) for r in out.itertuples()]
    return out
