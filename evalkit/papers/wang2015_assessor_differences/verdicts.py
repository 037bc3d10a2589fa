"""Wang et al. (SIGIR 2015) §3–4: the paper's claims with the reproduction's verdicts.

:func:`claims` goes through §4.1 and §4.2 sentence by sentence: the
calibration targets (per-topic ARI, clusters and relevant tweets per topic;
kind ``calibration``: the simulator was tuned to them, so meeting them is no
finding), the stability claims (kind ``paper``, each quoting the paper), the
sentences the simulated world cannot bear (``not testable here``, with the
reason) and, beyond the paper, the tau-against-disagreement curve.  Every
verdict that depends on chance is judged over the whole worlds of
:func:`.draws.whole_worlds` (draw 0 is the committed world); the paper's
words "highly correlated", "small", "quite small" and "quite similar" are
read with the workspace thresholds of :mod:`.thresholds`, each recomputed
over its declared range.  A stability claim that does not hold is explained
from the controlled worlds (:mod:`.explain`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...declare.claims import Claims, sensitivity
from ...measures.timeline import METRICS
from .curve import trend_rows
from .draws import VARIES, WorldDraws
from .explain import worlds_why
from .history import REVISED
from .thresholds import (EXTREME_TARGETS, EXTREMES, EXTREMES_RANGE, FEW_SWAPS, FEW_SWAPS_RANGE, RELEVANT,
                         RELEVANT_RANGE, SHARE_DROP, SIMILAR, SIMILAR_RANGE, SMALL_DIFF, SMALL_RANGE, TARGETS,
                         TAU_RANGE, TAU_STABLE)

__all__ = ["claims", "QUOTES", "TARGETS", "TAU_STABLE", "SMALL_DIFF", "SHARE_DROP", "NOT_TESTABLE"]

#: The paper's sentences the rows quote (verbatim; tests/declare/test_quotes.py finds each).
QUOTES = {
    "granularity": "Each topic (55 in total) contains 194 relevant tweets on average: the official "
                   "judgments averaged 89 clusters per topic, while the alternate judgments averaged 73 "
                   "clusters per topic.",
    "ari": "We computed the Adjusted Rand Index on a per topic basis ($N = 55$) between the official and "
           "alternate judgments and obtained a mean of 0.445, a median of 0.492",
    "range": "We observe that the topics exhibit a wide range of similarity values, ranging from a minimum "
             "of 0.007 to a maximum of 0.977",
    "groups": "In total, 13 groups submitted 50 runs to the tweet timeline generation task at TREC 2014.",
    "correlated": "We see that the rankings produced by both sets of judgments are highly correlated, with "
                  "the exception of a few cases in weighted $F_1$.",
    "table1": ("Table 1: Count of rank swaps and Kendall's τ correlation based the official and alternate "
               "judgments for each metric."),
    "similar": "Furthermore, the absolute values of the metrics are also quite similar (particularly the "
               "unweighted metrics).",
    "few": "There are a total of $(50 \\times 49)/2 = 1225$ pairwise comparisons, so the numbers of rank "
           "swaps observed in Table 1 are quite small.",
    "small": "We see that, indeed, most of the rank swaps are small.",
    "lowest": "For space considerations, we only show the histograms for these two metrics, which have the "
              "lowest Kendall\u2019s $\\tau$ correlations.",
    "others": "The histograms for the other metrics show even larger fractions of rank swaps where the score "
              "differences are small.",
    "stable": "The conclusion from these analyses is fairly clear: assessor differences do not appear to "
              "impact the stability of the evaluation, at least in terms of the metrics we have examined.",
}

#: §4 sentences the simulated world cannot bear: (section, quote, claim, reason).
#: The ids of :data:`NOT_TESTABLE`'s rows, in its order.
NOT_TESTABLE_IDS = ("granularity", "topics-179-225", "ari-topics-179-225", "ari-depends-on-need",
                    "taus-like-voorhees")
NOT_TESTABLE = (
    ("§4.1", "These differences suggest that humans perform the semantic clustering task at different "
             "levels of granularity.",
     "Humans cluster at different granularities",
     "built into the simulator: the official assessor lumps 3% of units, the alternate 24% "
     "(TTG_DEFAULTS['merge']); the calibration row on clusters per topic shows the result, not a finding"),
    ("§4.1", "For example, the alternate assessor created fewer clusters for topic 179, and in topic 225, "
             "the alternate assessor did not seem to agree with two early clusters found by the official "
             "assessor.",
     "Topic 179: the alternate makes fewer clusters; topic 225: two early official clusters disputed",
     "the simulated topics carry the paper's ids (171-225) but not its tweets: topic 179 and 225 here are "
     "simulated, so what the paper saw in its topics cannot be checked"),
    ("§4.1", "As a point of reference, for topic 179 (left, Figure 3), the Adjusted Rand Index is 0.687, "
             "and for topic 225 (right, Figure 3), the Adjusted Rand Index is 0.305.",
     "ARI 0.687 for topic 179 and 0.305 for topic 225", "the simulated topics are not the paper's topics"),
    ("§4.1", "We observe that the topics exhibit a wide range of similarity values, ranging from a minimum "
             "of 0.007 to a maximum of 0.977, which suggests that agreement is to a large extent dependent "
             "on the nature of the information need.",
     "Agreement depends on the information need (per-topic ARI 0.007-0.977)",
     "built into the simulator: each topic draws its own disagreement level (a Beta draw per topic), so "
     "the spread of ARI over topics is by construction"),
    ("§4.2", "These values are in the same range as those reported by Voorhees [31] for ad hoc retrieval, "
             "which is generally regarded by the IR community to be stable with respect to assessor "
             "differences in document-level relevance judgments.",
     "Table 1's taus are in the range of Voorhees's for ad hoc retrieval",
     "Voorhees's correlations (TREC ad hoc qrels from other assessors) are not in the workspace"),
)

_UNWEIGHTED, _WEIGHTED = ("precision", "recall", "f1"), ("weighted_recall", "weighted_f1")
_OTHERS = ("precision", "recall", "weighted_recall")


def _range(values, fmt="{:.3f}") -> str:
    values = list(values)
    sep = " to " if min(values) < 0 else "-"          # "-0.017 to 0.069", not "-0.017-0.069"
    return f"{fmt.format(min(values))}{sep}{fmt.format(max(values))}"


def _small(diffs: list, metric: str, t: float) -> np.ndarray:
    """Share of swapped pairs below ``t`` per draw (NaN without swaps)."""
    return np.array([(d[metric] < t).mean() if d[metric].size else np.nan for d in diffs])


def _spread(values, fmt="{:.3f}") -> str:
    """Median, interquartile range and range over draws."""
    v = np.asarray(values, dtype=float)
    q1, med, q3 = np.nanpercentile(v, [25, 50, 75])
    return (f"median {fmt.format(med)} (IQR {fmt.format(q1)}-{fmt.format(q3)}, range "
            f"{fmt.format(np.nanmin(v))}-{fmt.format(np.nanmax(v))})")


def _spread_why(values: pd.Series, inside: pd.Series, what: str, source: str, fmt: str = "{:.3f}") -> str:
    """Why a calibration target is missed in some whole worlds: the world-to-world spread."""
    if inside.mean() >= 0.8:
        return ""
    return (f"The simulator was tuned on the committed world; redrawing the whole world redraws "
            f"{source}, so the {what} over 55 topics varies between worlds ({_spread(values, fmt)}; outside "
            f"the target in {int((~inside.astype(bool)).sum())} of {len(values)}); see "
            "wang2015/assessor_worlds_draws.csv")


def _runs_row(c: Claims, published: pd.DataFrame, simulated) -> None:
    """§3.3's "13 groups submitted 50 runs": the published run scores list them, and the simulated
    world has one run per published run, its group ``Gnn`` one per published group (an identity)."""
    pub = published.groupby("group").size().sort_values(ascending=False).tolist()
    sim = pd.Series([str(x).split("-")[0] for x in simulated]).value_counts().tolist()
    c.add(f"The installed TREC 2014 run scores list {len(published)} runs from {len(pub)} groups, and the simulated "
          "world has one run per published run, grouped alike",
          f"published: {len(published)} runs, {len(pub)} groups; simulated: {sum(sim)} runs, "
          f"{len(sim)} groups; runs per group alike: {pub == sim}",
          bool(len(published) == 50 and len(pub) == 13 and pub == sim), kind="identity", section="§3.3",
          id="trec2014-runs-and-groups",
          quote=QUOTES["groups"])


def claims(ari: pd.Series, desc: pd.DataFrame, t1: pd.DataFrame, diffs: dict, draws: WorldDraws,
           worlds: pd.DataFrame | None = None, curve: pd.DataFrame | None = None,
           published_runs: pd.DataFrame | None = None, simulated_runs=None) -> pd.DataFrame:
    """§4's claims over ``draws`` (:func:`.draws.whole_worlds`, at least 20; draw 0 is the
    committed world, whose own values are ``ari``, ``desc``, ``t1`` and ``diffs``: Figure 5's
    swapped pairs per metric); ``worlds`` (:func:`.worlds.summarise_worlds`) explains the
    stability claims that do not hold; ``curve`` (:func:`.curve.curve_trends`) adds the
    beyond-the-paper rows on tau against disagreement, judged against the question declared
    before the draws (:data:`~evalkit.papers.wang2015_assessor_differences.DISAGREEMENT_TREND`);
    ``published_runs`` (the TREC 2014 run scores, ``run, group``) and ``simulated_runs`` (the
    world's run names) give §3.3's identity row."""
    d = draws.default()
    r = len(d)
    tau = t1.set_index("metric").tau
    swaps = t1.set_index("metric").rank_swaps
    c = Claims(history=REVISED)
    v = {"varies": VARIES}
    # §4.1: calibration
    for stat, col, value in (("mean", "ari_mean", ari.mean()), ("median", "ari_median", ari.median()),
                             ("sd", "ari_sd", ari.std(ddof=1))):
        paper_value, low, high = TARGETS[stat]
        c.add_over_draws(f"Per-topic ARI {stat} between {low:g} and {high:g} (paper {paper_value:g})",
                         f"{value:.3f} (draws {_range(d[col])})", list(d[col].between(low, high)),
                         _spread_why(d[col], d[col].between(low, high), "per-topic ARI " + stat,
                                     "each topic's disagreement level (a Beta draw per topic)"),
                         kind="calibration", section="§4.1", quote=QUOTES["ari"], id=f"ari-{stat}", **v)
    for stat, col, value in (("minimum", "ari_min", ari.min()), ("maximum", "ari_max", ari.max())):
        target = EXTREME_TARGETS[stat[:3]]

        def near(t, col=col, target=target):
            return list((d[col] - target).abs() <= t)

        c.add_over_draws(f"Per-topic ARI {stat} within {EXTREMES:g} of the paper's {target:g}",
                         f"{value:.3f} (draws {_range(d[col])})", near(EXTREMES),
                         _spread_why(d[col], pd.Series(near(EXTREMES)), f"per-topic ARI {stat}",
                                     "each topic's disagreement level (a Beta draw per topic)"),
                         kind="calibration", section="§4.1", quote=QUOTES["range"], id=f"ari-{stat}",
                         threshold=f"|{stat} - {target:g}| <= {EXTREMES:g}", source="workspace",
                         sensitivity=sensitivity(EXTREMES_RANGE, near), **v)
    c.add_over_draws("Official assessor makes more clusters than alternate (89 vs 73)",
                     f"{desc.iloc[1]['mean']:.1f} vs {desc.iloc[3]['mean']:.1f} (alternate draws "
                     f"{_range(d.clusters_alternate, '{:.1f}')})",
                     list(d.clusters_official > d.clusters_alternate), kind="calibration", section="§4.1",
                     id="official-more-clusters",
                     quote=QUOTES["granularity"], **v)

    def near_194(t):
        return list((d.relevant_per_topic - 194).abs() <= t * 194)

    c.add_over_draws(f"Relevant tweets per topic within {RELEVANT:.0%} of the paper's 194 on average",
                     f"{desc.iloc[0]['mean']:.1f} (draws {_range(d.relevant_per_topic, '{:.1f}')})",
                     near_194(RELEVANT), _spread_why(d.relevant_per_topic, pd.Series(near_194(RELEVANT)),
                                                     "relevant tweets per topic",
                                                     "each topic's log-normal count of relevant tweets",
                                                     "{:.1f}"),
                     kind="calibration", section="§4.1", quote=QUOTES["granularity"],
                     id="relevant-per-topic", threshold=f"|mean - 194| <= {RELEVANT:.0%} of 194", source="workspace",
                     sensitivity=sensitivity(RELEVANT_RANGE, near_194, "{:.0%}"), **v)
    # §4.2: stability
    ws = {"source": "workspace"}
    four = [m for m in METRICS if m != "weighted_f1"]

    def correlated(t):
        return list((d[[f"tau_{m}" for m in four]] >= t).all(axis=1))

    c.add_over_draws(f"Highly correlated: tau >= {TAU_STABLE:g} for precision, both recalls and F1 (all but "
                     "weighted F1; paper 0.925-0.964)",
                     f"min tau of the four {tau[four].min():.3f} (draws: {_spread(d[[f'tau_{m}' for m in four]].min(axis=1))})",
                     correlated(TAU_STABLE), section="§4.2", quote=QUOTES["correlated"], id="highly-correlated",
                     threshold=f"tau >= {TAU_STABLE:g}", sensitivity=sensitivity(TAU_RANGE, correlated), **ws, **v)
    c.add_over_draws("Weighted F1 is the exception: the lowest tau and the most rank swaps of the five metrics "
                     "(paper 0.853, 90 swaps)",
                     f"lowest: {tau.idxmin()} ({tau.min():.3f}); most swaps: {swaps.idxmax()} ({swaps.max()}; "
                     f"weighted F1 draws {_range(d.swaps_weighted_f1, '{:.0f}')})",
                     list((d.lowest_tau == "weighted_f1") & (d.most_swaps == "weighted_f1")),
                     section="§4.2", quote=QUOTES["correlated"], id="weighted-f1-exception", **v)
    taus, swap_counts = d[[f"tau_{m}" for m in METRICS]].round(9), d[[f"swaps_{m}" for m in METRICS]]
    top_tau = taus.drop(columns="tau_weighted_recall").max(axis=1) < taus["tau_weighted_recall"]
    few_swaps = swap_counts.drop(columns="swaps_weighted_recall").min(axis=1) > swap_counts["swaps_weighted_recall"]
    c.add_over_draws("Table 1 per metric: weighted recall is the most stable, the highest tau and the fewest "
                     "rank swaps of the five metrics (paper 0.964, 22 swaps; a tie counts as a failure)",
                     f"committed: weighted recall tau {tau['weighted_recall']:.3f}, {swaps['weighted_recall']} "
                     f"swaps; highest tau {tau.idxmax()} ({tau.max():.3f}), fewest swaps {swaps.idxmin()} "
                     f"({swaps.min()}); weighted recall highest tau in {int(top_tau.sum())} of {len(d)} draws, "
                     f"fewest swaps in {int(few_swaps.sum())}",
                     list(top_tau & few_swaps),
                     "" if (top_tau & few_swaps).mean() >= 0.8 else
                     "The metric with the highest tau per world: " + ", ".join(
                         f"{m.removeprefix('tau_').replace('_', ' ')} in {n}" for m, n in
                         taus.idxmax(axis=1).value_counts().items())
                     + "; with the fewest swaps: " + ", ".join(
                         f"{m.removeprefix('swaps_').replace('_', ' ')} in {n}" for m, n in
                         swap_counts.idxmin(axis=1).value_counts().items())
                     + ". Which assumption of the simulated world makes weighted recall less stable than "
                     "in the paper was not tested (tau_* and swaps_* columns of "
                     "wang2015/assessor_worlds_draws.csv).",
                     section="Table 1", quote=QUOTES["table1"],
                     id="weighted-recall-most-stable", **v)
    ratio = {m: d[f"absdiff_{m}"] for m in METRICS}

    un = pd.concat([ratio[m] for m in _UNWEIGHTED], axis=1).mean(axis=1)
    we = pd.concat([ratio[m] for m in _WEIGHTED], axis=1).mean(axis=1)

    def similar(t):
        within = pd.concat({m: ratio[m] for m in _UNWEIGHTED}, axis=1).max(axis=1) <= t
        return list(within & (un < we))

    worst = pd.concat({m: ratio[m] for m in _WEIGHTED}, axis=1).mean().idxmax()
    c.add_over_draws(f"Absolute values quite similar, particularly the unweighted metrics: precision, recall "
                     f"and f1 each differ between the assessors by at most {SIMILAR:.0%} of the mean score "
                     "per run, and their mean relative difference is below the weighted metrics' (weighted "
                     "recall, weighted f1; the sentence gives the weighted metrics no bound of their own)",
                     ", ".join(f"{m.replace('_', ' ')}: {ratio[m].iloc[0]:.1%}" for m in METRICS)
                     + f" (committed); unweighted mean {un.iloc[0]:.1%} vs weighted {we.iloc[0]:.1%} "
                     f"(draws: unweighted {_range(un, '{:.1%}')}, weighted {_range(we, '{:.1%}')}; largest "
                     f"{worst.replace('_', ' ')}, draws {_range(ratio[worst], '{:.1%}')})",
                     similar(SIMILAR), "", section="§4.2", quote=QUOTES["similar"], id="absolute-values-similar",
                     threshold=f"unweighted <= {SIMILAR:.0%} of the mean score, and closer than the weighted",
                     sensitivity=sensitivity(SIMILAR_RANGE, similar, "{:.0%}"), **ws, **v)

    def few(t):
        return list((d[[f"swaps_{m}" for m in METRICS]].max(axis=1) <= t * 1225))

    c.add_over_draws(f"Quite small numbers of rank swaps: at most {FEW_SWAPS:.0%} of the 1225 pairs for every "
                     "metric (paper at most 90, 7.3%)",
                     f"most {swaps.max()} ({swaps.idxmax()}; draws {_range(d[[f'swaps_{m}' for m in METRICS]].max(axis=1), '{:.0f}')})",
                     few(FEW_SWAPS), "" if sum(few(FEW_SWAPS)) >= 0.8 * r else worlds_why(worlds, "tau", draws.table),
                     section="§4.2", quote=QUOTES["few"], id="few-rank-swaps", threshold=f"swaps <= {FEW_SWAPS:.0%} of 1225",
                     sensitivity=sensitivity(FEW_SWAPS_RANGE, few, "{:.1%}"), **ws, **v)

    def small(t):
        return list((_small(draws.diffs, "f1", t) > 0.5) & (_small(draws.diffs, "weighted_f1", t) > 0.5))

    c.add_over_draws(f"Most rank swaps are small (more than half with |diff| < {SMALL_DIFF:g}) for F1 and "
                     "weighted F1",
                     ", ".join(f"{m}: {(x < SMALL_DIFF).mean():.0%}" for m, x in diffs.items())
                     + f" (weighted F1 draws: {_spread(_small(draws.diffs, 'weighted_f1', SMALL_DIFF), '{:.0%}')})",
                     small(SMALL_DIFF), "" if sum(small(SMALL_DIFF)) >= 0.8 * r else
                     worlds_why(worlds, "small", draws.table), section="§4.2", quote=QUOTES["small"], id="small-swaps-f1",
                     threshold=f"|diff| < {SMALL_DIFF:g}; most = more than half", sensitivity=sensitivity(
                         SMALL_RANGE, small), **ws, **v)
    t9 = d[[f"tau_{m}" for m in METRICS]].round(9)   # equal swap counts give equal taus: a tie
    low, rest = t9[["tau_f1", "tau_weighted_f1"]].max(axis=1), t9[[f"tau_{m}" for m in _OTHERS]].min(axis=1)
    lowest_two = list(low < rest)
    ranked = tau.reindex(METRICS).sort_values(kind="stable")   # ties in METRICS order
    ties = [f"{a} = {b}" for a, b in zip(ranked.index[:-1], ranked.index[1:])
            if round(ranked[a], 9) == round(ranked[b], 9)]
    c.add_over_draws("F1 and weighted F1 have the two lowest taus of the five metrics: both strictly below "
                     "precision's and both recalls' (a tie counts as a failure, since the paper's F1 and "
                     "weighted F1, 0.925 and 0.853, stand apart from the others' 0.951-0.964)",
                     "committed ascending: " + ", ".join(f"{m} {x:.4f}" for m, x in ranked.items())
                     + (f" (tie: {'; '.join(ties)})" if ties else "")
                     + f"; counting ties for the claim it would hold in {int((low <= rest).sum())} of {len(d)}",
                     lowest_two, "" if sum(lowest_two) >= 0.8 * r else "see wang2015/assessor_worlds_draws.csv.",
                     section="§4.2", quote=QUOTES["lowest"], id="f1-two-lowest-taus", **v)

    def others(t):
        base = np.maximum(_small(draws.diffs, "f1", t), _small(draws.diffs, "weighted_f1", t))
        return [bool(all(x >= b or np.isnan(x) for x in row)) for row, b in
                zip(zip(*(_small(draws.diffs, m, t) for m in _OTHERS)), base)]

    committed = {m: (draws.diffs[0][m] < SMALL_DIFF).mean() for m in METRICS if draws.diffs[0][m].size}
    c.add_over_draws(f"The other metrics (precision, both recalls) each have a share of small swaps (|diff| < "
                     f"{SMALL_DIFF:g}) at least that of F1 and of weighted F1",
                     ", ".join(f"{m}: {x:.0%}" for m, x in committed.items()) + " (committed)",
                     others(SMALL_DIFF), "" if sum(others(SMALL_DIFF)) >= 0.8 * r else
                     f"It fails in {r - sum(others(SMALL_DIFF))} of {r} worlds. The other metrics have few "
                     "swaps (median " + ", ".join(f"{m.replace('_', ' ')} {d[f'swaps_{m}'].median():.0f}"
                                                  for m in _OTHERS)
                     + " per world), so one swap of |diff| >= the threshold moves a share by several points, "
                     "and F1's share is high too (median "
                     f"{np.nanmedian(_small(draws.diffs, 'f1', SMALL_DIFF)):.0%}); see "
                     "wang2015/assessor_worlds_draws.csv (small_* columns)",
                     section="§4.2", quote=QUOTES["others"], id="others-small-swaps",
                     threshold=f"|diff| < {SMALL_DIFF:g}", sensitivity=sensitivity(SMALL_RANGE, others),
                     **ws, **v)

    def stable(t):
        return list(d.tau_min >= t)

    c.add_over_draws(f"Evaluation stable: tau >= {TAU_STABLE:g} for every metric (paper 0.853-0.964)",
                     f"min tau {t1.tau.min():.3f} (draws: {_spread(d.tau_min)})", stable(TAU_STABLE),
                     "" if sum(stable(TAU_STABLE)) >= 0.8 * r else worlds_why(worlds, "tau", draws.table),
                     section="§4.2", quote=QUOTES["stable"], id="evaluation-stable", threshold=f"tau >= {TAU_STABLE:g}",
                     sensitivity=sensitivity(TAU_RANGE, stable), **ws, **v)
    for key, (section, quote, claim, reason) in zip(NOT_TESTABLE_IDS, NOT_TESTABLE):
        c.add_not_testable(claim, reason, section=section, quote=quote, id=key)
    if published_runs is not None and simulated_runs is not None:
        _runs_row(c, published_runs, list(simulated_runs))
    if curve is not None:
        trend_rows(c, curve, VARIES + "; the alternate's disagreement scaled, paired")
    return c.frame()
