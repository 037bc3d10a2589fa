"""Wang, Sherman, Lin & Efron (SIGIR 2015) §3–4: assessor differences in TTG.

The pipeline of ``notebooks/wang2015_assessor_differences.ipynb`` and its
declaration :data:`NOTEBOOK`; the TTG metrics themselves are in
:mod:`evalkit.measures.timeline`, the simulated world in
:mod:`evalkit.simulate.ttg`.

* :func:`load_world` — qrels, the two cluster files and the runs.
* :func:`describe` — relevant tweets and clusters per topic per assessor.
* :func:`topic_ari` — per-topic adjusted Rand index between the assessors.
* :func:`stability` — Table 1: rank swaps and Kendall tau per metric.
* :func:`swap_differences` — Figure 5's data: each swapped pair with its
  absolute score difference.
* :func:`disagreement_curve` — beyond the paper: Kendall tau between the
  official and alternate rankings as the alternate assessor's disagreement
  grows.
* :func:`ari_statistics`, :func:`cluster_panels` — the ARI summary and
  Figure 3's panels, shared with the real-data notebook.
* :func:`claims` — the paper's claims with the reproduction's verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..errors import InputError
from ..formats import clusters as cluster_files, trec
from ..measures import timeline
from ..simulate import ttg as simulate
from ..stats import agreement, rank_correlation
from ..workspace import params, paths
from ..workspace.claims import Claims
from ..workspace.notebook import Comparison, Input, Notebook

__all__ = ["World", "load_world", "describe", "topic_ari", "stability", "swap_differences",
           "disagreement_curve", "validate_parameters", "BINS"]

#: Figure 5's bins of absolute score difference.
BINS = (0, 0.01, 0.02, 0.03, 0.05, 0.1, 1.0)


@dataclass(frozen=True)
class World:
    qrels: pd.DataFrame
    clusters: dict           # assessor -> {topic: [[tweet, ...], ...]}
    runs: pd.DataFrame
    report: tuple[str, ...]

    def scores(self) -> dict[str, pd.DataFrame]:
        """Per-run mean scores under each assessor's clusters."""
        return {a: timeline.run_means(timeline.score_runs(self.runs, timeline.cluster_table(c, self.qrels)))
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
    judged = set(zip(qrels.topic, qrels.doc))
    unjudged = sum(1 for k in zip(runs.topic, runs.doc) if k not in judged)
    if unjudged:
        report.append(f"{unjudged} returned tweets are unjudged (they count as non-relevant)")
    return World(qrels, clusters, runs, tuple(report))


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


def stability(official: pd.DataFrame, alternate: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Table 1: rank swaps (of n(n-1)/2 pairs) and Kendall tau with CI, per metric."""
    rows = []
    for m in timeline.METRICS:
        x, y = official[m].to_numpy(), alternate.loc[official.index, m].to_numpy()
        kt = rank_correlation.kendall_tau(x, y, alpha)
        rows.append({"metric": m, "rank_swaps": rank_correlation.rank_swaps(x, y),
                     "pairs": len(x) * (len(x) - 1) // 2, "tau": kt.tau, "low": kt.low, "high": kt.high})
    return pd.DataFrame(rows)


def swap_differences(official: pd.DataFrame, alternate: pd.DataFrame, metric: str) -> pd.Series:
    """For each swapped pair, the larger absolute score difference of the two judgments."""
    x, y = official[metric].to_numpy(), alternate.loc[official.index, metric].to_numpy()
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
    rows = []
    for level in tqdm(list(levels), desc="disagreement levels", disable=not progress):
        lrng = np.random.default_rng(np.random.SeedSequence([seed, 5, int(round(level * 1000))]))
        off = simulate.ttg_clusters(latent, merge_o, lrng, level)
        alt = simulate.ttg_clusters(latent, merge_a, lrng, level)
        ari = topic_ari(off, alt).mean()
        s_off = timeline.run_means(timeline.score_runs(runs, timeline.cluster_table(off, qrels)))
        s_alt = timeline.run_means(timeline.score_runs(runs, timeline.cluster_table(alt, qrels)))
        for row in stability(s_off, s_alt).itertuples(index=False):
            rows.append({"level": level, "mean_ARI": ari, **row._asdict()})
    return pd.DataFrame(rows)


#: The notebook's parameters and their checks (see :mod:`evalkit.workspace.params`).
PARAMETERS = {
    "alpha": params.number(lambda x: 0 < x < 1, "a number in (0, 1)"),
    "seed": params.whole(0),
    "levels": params.number_list(lambda x: x >= 0, "a non-empty list of numbers >= 0"),
    "timeline_topics": params.pair("a list of two topic ids"),
    "data_dir": params.folder("an existing folder with qrels.txt, clusters-*.json, runs/"),
}


def validate_parameters(**values) -> None:
    """Check the notebook's parameters; raise ParameterError naming the first bad one."""
    NOTEBOOK.check(**values)


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


def tweet_times(qrels: pd.DataFrame) -> dict:
    """Posting time of every judged tweet (from its snowflake id)."""
    times = simulate.tweet_time_ms(qrels.doc.astype("int64"))
    return dict(zip(qrels.doc, pd.to_datetime(times, unit="ms")))


def cluster_panels(clusters: dict, topics, ari: pd.Series, when: dict, label) -> dict:
    """Figure 3's panels: for each topic and assessor, ``label(topic, assessor, n_clusters)``
    plus the ARI, mapped to (clusters, posting times)."""
    panels = {}
    for topic in topics:
        for assessor in ("official", "alternate"):
            cl = clusters[assessor][topic]
            panels[f"{label(topic, assessor, len(cl))}, ARI {ari[topic]:.3f}"] = (cl, when)
    return panels


SPREAD_METRICS = ["precision", "recall", "weighted_recall"]


def figure2_spread(official: pd.DataFrame, trec_scores: pd.DataFrame) -> pd.DataFrame:
    """Mean, sd, min and max of the simulated and the official TREC 2014 run scores."""
    def describe_(frame):
        return frame[SPREAD_METRICS].describe().loc[["mean", "std", "min", "max"]].stack()

    spread = pd.DataFrame({"simulated": describe_(official), "TREC 2014": describe_(trec_scores)})
    spread.index.names = ["statistic", "metric"]
    return spread


def claims(ari: pd.Series, desc: pd.DataFrame, t1: pd.DataFrame, diffs: dict) -> pd.DataFrame:
    """The paper's §3–4 claims (and the calibration targets) with the reproduction's verdicts."""
    c = Claims()
    c.add("Mean per-topic ARI near 0.445 (±0.05)", f"{ari.mean():.3f}", abs(ari.mean() - 0.445) <= 0.05)
    c.add("Median per-topic ARI near 0.492 (±0.05)", f"{ari.median():.3f}",
          abs(ari.median() - 0.492) <= 0.05)
    c.add("ARI sd between 0.15 and 0.30 (paper 0.225)", f"{ari.std(ddof=1):.3f}",
          0.15 <= ari.std(ddof=1) <= 0.30)
    c.add("Official assessor makes more clusters than alternate (89 vs 73)",
          f"{desc.iloc[1]['mean']:.1f} vs {desc.iloc[3]['mean']:.1f}",
          desc.iloc[1]["mean"] > desc.iloc[3]["mean"])
    c.add("Rankings stable: tau >= 0.85 for every metric (paper 0.853-0.964)",
          f"min tau {t1.tau.min():.3f}", t1.tau.min() >= 0.85)
    most = t1.loc[t1.rank_swaps.idxmax(), "metric"]
    c.add("Weighted F1 has the most rank swaps (paper 90)", f"most: {most} ({t1.rank_swaps.max()})",
          most == "weighted_f1")
    c.add("Most rank swaps are small (|diff| < 0.03) for F1 and weighted F1",
          ", ".join(f"{m}: {(d < 0.03).mean():.0%}" for m, d in diffs.items()),
          all((d < 0.03).mean() > 0.5 for d in diffs.values() if len(d)))
    return c.frame()


#: Seed of the default simulated TTG world.
TTG_SEED = 2015

NOTEBOOK = Notebook(
    name="wang2015_assessor_differences",
    paper="wang2015",
    title="Wang, Sherman, Lin & Efron (SIGIR 2015): assessor differences and user preferences in TTG",
    parameters=PARAMETERS,
    inputs=(Input("data/raw/ttg/qrels.txt",
                  lambda: simulate.simulate_ttg(paths.RAW / "ttg", seed=TTG_SEED)),),
    outputs=(
        "descriptive.csv", "ari_vs_published.csv", "ari_per_topic.csv",
        "ari_histogram.png", "figure2_precision_recall.png", "figure2_spread.csv",
        "figure3_cluster_timelines.png", "figure4_official_vs_alternate.png",
        "table1.csv", "table1.md", "table1_vs_published.md",
        "figure5_swap_histograms.png", "tau_vs_disagreement.csv",
        "tau_vs_disagreement.png", "claims.csv", "claims.md",
    ),
    quick={"levels": [0, 1]},
    comparisons=(
        Comparison("wang2015_ari", "wang2015/ari_vs_published.csv", ("statistic",),
                   {"value_published": "value_reproduced"}, 0.05,
                   "Section 4.1: per-topic ARI and cluster counts.", joined=True),
        Comparison("wang2015_table1", "wang2015/table1.csv", ("metric",),
                   {"rank_swaps": "rank_swaps", "tau": "tau"}, 0.03,
                   "Table 1: rank swaps (of 1225 pairs) and Kendall tau, official vs alternate."),
        Comparison("wang2015_ttg_official_scores", "wang2015/figure2_spread.csv",
                   ("statistic", "metric"), {"TREC 2014": "simulated"}, 0.05,
                   "Figure 2's data: spread of the official TREC 2014 scores vs the simulated runs.",
                   joined=True),
    ),
    figures=(
        ("figure2_precision_recall.png", "Figure 2: precision vs unweighted / weighted recall with "
                                         "iso-F1 contours; simulated runs (top), official TREC 2014 runs (bottom)."),
        ("ari_histogram.png", "Per-topic ARI between the official and alternate clusters."),
        ("figure3_cluster_timelines.png", "Figure 3: clusters of two topics, official (top) and alternate (bottom)."),
        ("figure4_official_vs_alternate.png", "Figure 4: every run's score under both cluster sets."),
        ("figure5_swap_histograms.png", "Figure 5: rank swaps binned by absolute score difference."),
        ("tau_vs_disagreement.png", "Beyond the paper: Kendall tau against assessor disagreement."),
    ),
)
