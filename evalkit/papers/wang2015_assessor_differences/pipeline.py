"""Wang, Sherman, Lin & Efron (SIGIR 2015) §3–4: the assessor-differences pipeline.

From the TTG world on disk to Table 1 and Figure 5's data; the TTG metrics
themselves are in :mod:`evalkit.measures.timeline`, the simulated world in
:mod:`evalkit.simulate.ttg`.

* :func:`load_world` — qrels, the two cluster files and the runs.
* :func:`describe` — relevant tweets and clusters per topic per assessor.
* :func:`topic_ari` — per-topic adjusted Rand index between the assessors;
  :func:`ari_statistics`, :func:`ari_vs_published` — §4.1's summary beside
  the paper's.
* :func:`figure2_spread` — Figure 2's data: spread of the run scores.
* :func:`tweet_times`, :func:`cluster_panels` — Figure 3's panels (shared
  with the real-data notebook).
* :func:`stability` — Table 1: rank swaps and Kendall tau per metric.
* :func:`swap_differences` — Figure 5's data: each swapped pair with its
  absolute score difference.
* :func:`disagreement_curve` — beyond the paper: Kendall tau between the
  official and alternate rankings as both assessors' disagreement grows, on
  one re-simulated world (the notebook's curve is over whole worlds instead:
  :mod:`.curve`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ...errors import InputError
from ...formats import clusters as cluster_files, trec
from ...measures import timeline
from ...simulate import ttg as simulate
from ...simulate.preferences import unjudged_rows
from ...stats import agreement, rank_correlation
from ... import paths

__all__ = ["BIN_WIDTH", "World", "load_world", "describe", "topic_ari", "ari_statistics", "ari_vs_published",
           "SPREAD_METRICS", "figure2_spread", "tweet_times", "cluster_panels", "stability",
           "swap_differences", "disagreement_curve"]


#: Figure 5's bin width of absolute score difference (the paper's: equal bins of 0.01).
BIN_WIDTH = 0.01


@dataclass(frozen=True)
class World:
    qrels: pd.DataFrame
    clusters: dict           # assessor -> {topic: [[tweet, ...], ...]}
    runs: pd.DataFrame
    report: tuple[str, ...]

    def scores(self) -> dict[str, pd.DataFrame]:
        """Per-run mean scores under each assessor's clusters."""
        score = timeline.RunScorer(self.runs)
        return {a: timeline.run_means(score(timeline.cluster_table(c, self.qrels)))
                for a, c in self.clusters.items()}


def load_world(data_dir, qrels_path=None) -> World:
    """Read ``qrels.txt``, ``clusters-official.json``, ``clusters-alternate.json``, ``runs/``."""
    data_dir = Path(data_dir)
    qrels_path = Path(qrels_path or data_dir / "qrels.txt")
    qrels = trec.read_qrels(qrels_path)
    _check_tweet_ids(qrels, qrels_path)
    clusters = {a: cluster_files.read_clusters(data_dir / f"clusters-{a}.json", qrels)
                for a in ("official", "alternate")}
    report: list[str] = []
    runs = trec.read_runs(data_dir / "runs", qrels, report)
    unjudged = _unjudged(qrels, runs)
    if unjudged:
        report.append(f"{unjudged} returned tweets are unjudged (they count as non-relevant)")
    return World(qrels, clusters, runs, tuple(report))


def _unjudged(qrels: pd.DataFrame, runs: pd.DataFrame) -> int:
    """How many run rows return a (topic, tweet) pair the qrels do not judge."""
    return int(unjudged_rows(qrels, runs).sum())


def _check_tweet_ids(qrels: pd.DataFrame, path: Path) -> None:
    """TTG needs snowflake tweet ids (whole numbers below 2**63) for posting times."""
    docs = qrels["doc"].astype(str)
    bad = (~docs.str.fullmatch(r"\d{1,19}")) | ((docs.str.len() == 19) & (docs > "9223372036854775807"))
    if bad.any():
        raise InputError(f"document {docs[bad].iloc[0]!r} is not a tweet id (a whole number "
                         "below 2**63)", path=path, hint="TTG qrels list Twitter status ids")


def describe(world: World) -> pd.DataFrame:
    """Relevant tweets and clusters per topic per assessor: mean, median, min, max."""
    rel = world.qrels[world.qrels.grade > 0].groupby("topic").size()
    rows = {"relevant tweets": rel}
    for a, c in world.clusters.items():
        rows[f"clusters ({a})"] = pd.Series({t: len(v) for t, v in c.items()})
        rows[f"singleton share ({a})"] = pd.Series({t: np.mean([len(x) == 1 for x in v])
                                                    for t, v in c.items()})
    out = pd.DataFrame({k: v.agg(["mean", "median", "min", "max"]) for k, v in rows.items()}).T
    out.index.name = "per topic"
    return out.reset_index()


def topic_ari(a: dict, b: dict) -> pd.Series:
    """ARI per topic between two cluster files, over the tweets both clustered."""
    out = {}
    for topic in sorted(set(a) & set(b)):
        la = {x: i for i, c in enumerate(a[topic]) for x in c}
        lb = {x: i for i, c in enumerate(b[topic]) for x in c}
        common = sorted(set(la) & set(lb))
        if len(common) >= 2:
            out[topic] = agreement.adjusted_rand_index([la[x] for x in common], [lb[x] for x in common])
    return pd.Series(out, name="ARI")


def ari_statistics(ari: pd.Series) -> dict[str, float]:
    """Mean, median, sd (n - 1), min and max of per-topic ARI values."""
    return {"mean": ari.mean(), "median": ari.median(), "sd": ari.std(ddof=1),
            "min": ari.min(), "max": ari.max()}


def ari_vs_published(desc: pd.DataFrame, ari: pd.Series, published: pd.DataFrame) -> pd.DataFrame:
    """§4.1's statistics (ARI, clusters per topic, relevant tweets) beside the paper's."""
    stats_ = {f"ari_{k}": v for k, v in ari_statistics(ari).items()}
    stats_ |= {"clusters_official": desc.iloc[1]["mean"], "clusters_alternate": desc.iloc[3]["mean"],
               "relevant_per_topic": desc.iloc[0]["mean"]}
    reproduced = pd.DataFrame({"statistic": list(stats_), "value": list(stats_.values())})
    return reproduced.merge(published, on="statistic", suffixes=("_reproduced", "_published"))


SPREAD_METRICS = ["precision", "recall", "weighted_recall"]


def figure2_spread(official: pd.DataFrame, trec_scores: pd.DataFrame) -> pd.DataFrame:
    """Mean, sd, min and max of the simulated and the official TREC 2014 run scores."""
    def describe_(frame):
        return frame[SPREAD_METRICS].describe().loc[["mean", "std", "min", "max"]].stack()

    spread = pd.DataFrame({"simulated": describe_(official), "TREC 2014": describe_(trec_scores)})
    spread.index.names = ["statistic", "metric"]
    return spread


class _Times(Mapping):
    """Tweet id -> posting time, each ``Timestamp`` made when it is looked up (Figure 3 looks
    up two topics' tweets of tens of thousands)."""

    def __init__(self, docs, stamps: pd.DatetimeIndex):
        self._at = dict(zip(docs, range(len(docs))))      # a repeated id: its last row, as dict()
        self._stamps = stamps

    def __getitem__(self, doc):
        return self._stamps[self._at[doc]]

    def __iter__(self):
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)


def tweet_times(qrels: pd.DataFrame) -> Mapping:
    """Posting time of every judged tweet (from its snowflake id): a read-only mapping
    from tweet id to ``pandas.Timestamp``, equal to the dict of all of them."""
    times = simulate.tweet_time_ms(qrels.doc.astype("int64"))
    return _Times(qrels.doc.to_numpy(object), pd.to_datetime(times, unit="ms"))


def cluster_panels(clusters: dict, topics, ari: pd.Series, when: dict, label) -> dict:
    """Figure 3's panels: for each topic and assessor, ``label(topic, assessor, n_clusters)``
    plus the ARI, mapped to (clusters, posting times)."""
    panels = {}
    for topic in topics:
        for assessor in ("official", "alternate"):
            cl = clusters[assessor][topic]
            panels[f"{label(topic, assessor, len(cl))}, ARI {ari[topic]:.3f}"] = (cl, when)
    return panels


def stability(official: pd.DataFrame, alternate: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Table 1: rank swaps (of n(n-1)/2 pairs) and Kendall tau with CI, per metric."""
    rows = []
    for m in timeline.METRICS:
        x, y = official[m].to_numpy(), _aligned(alternate, official, m)
        kt = rank_correlation.kendall_tau(x, y, alpha)
        rows.append({"metric": m, "rank_swaps": rank_correlation.rank_swaps(x, y),
                     "pairs": len(x) * (len(x) - 1) // 2, "tau": kt.tau, "low": kt.low, "high": kt.high})
    return pd.DataFrame(rows)


def _aligned(alternate: pd.DataFrame, official: pd.DataFrame, metric: str) -> np.ndarray:
    """``alternate[metric]`` in ``official``'s run order (no reindexing when it already is)."""
    if alternate.index.equals(official.index):
        return alternate[metric].to_numpy()
    return alternate.loc[official.index, metric].to_numpy()


def swap_differences(official: pd.DataFrame, alternate: pd.DataFrame, metric: str) -> pd.Series:
    """For each swapped pair, the larger absolute score difference of the two judgments."""
    x, y = official[metric].to_numpy(), _aligned(alternate, official, metric)
    i, j = np.triu_indices(len(x), 1)
    swapped = (x[i] - x[j]) * (y[i] - y[j]) < 0
    return pd.Series(np.maximum(np.abs(x[i] - x[j]), np.abs(y[i] - y[j]))[swapped], name=metric)


def disagreement_curve(world: World, levels, seed: int, targets: pd.DataFrame | None = None,
                       progress: bool = True) -> pd.DataFrame:
    """Kendall tau between rankings under two assessors, against their disagreement.

    Re-simulates a latent structure over ``world.qrels`` and, for each level
    (a multiplier of each topic's disagreement), an official and an alternate
    assessor; the runs are the simulated runs of that structure.  Returns one
    row per (level, metric) with the mean per-topic ARI, tau (with CI) and
    rank swaps.
    """
    rng = np.random.default_rng(np.random.SeedSequence([seed, 4]))
    qrels, latent = simulate.ttg_pool(rng, world.qrels)
    if targets is None:
        targets = pd.read_csv(paths.PUBLISHED / "wang2015_ttg_official_scores.csv")
    runs = simulate.ttg_runs(qrels, latent, targets, rng)
    merge_o, merge_a = simulate.TTG_DEFAULTS["merge"]
    score = timeline.RunScorer(runs)
    rows = []
    for level in tqdm(list(levels), desc="disagreement levels", disable=not progress):
        lrng = np.random.default_rng(np.random.SeedSequence([seed, 5, int(round(level * 1000))]))
        off = simulate.ttg_clusters(latent, merge_o, lrng, level)
        alt = simulate.ttg_clusters(latent, merge_a, lrng, level)
        ari = topic_ari(off, alt).mean()
        s_off = timeline.run_means(score(timeline.cluster_table(off, qrels)))
        s_alt = timeline.run_means(score(timeline.cluster_table(alt, qrels)))
        for row in stability(s_off, s_alt).itertuples(index=False):
            rows.append({"level": level, "mean_ARI": ari, **row._asdict()})
    return pd.DataFrame(rows)
