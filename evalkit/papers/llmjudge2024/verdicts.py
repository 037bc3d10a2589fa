"""The LLMJudge chapter's claims table: the organisers' table, and the three papers' questions.

Rows (:class:`~evalkit.declare.claims.Claims`, every number read from the
tables the notebook has just computed):

* ``paper``: the organisers' printed table (quoted from their notebook's
  output) is reproduced.
* ``beyond``: their columns headed "kappa" are Cohen's kappa (they are not:
  alpha of binarised labels): a reading of the organisers' table, as Sakai's
  ES reading is, not a claim the organisers make.
* ``identity``: clipping touches only the labels outside 0-3.
* ``beyond``: the papers' questions on real judgments: how many judge pairs
  25 topics separate (randomised Tukey HSD), how many judges the best one is
  told apart from (paired randomisation test, Holm over its pairs, over
  seeded swap streams), whether the median, the majority and the
  Dawid-Skene consensus of the 33 LLM judges (the human labels left out)
  beat the best single judge chosen on other topics (averaged over seeded
  topic splits), whether unanimous LLM judges agree with the
  human more often (Sakai), whether UG correlates with the human grade better
  than RawG (averaged over seeded judge subsets), and the leaderboard
  question, not testable here (no runs were released).  The two averaged rows
  are decided by the topic-bootstrap interval of the average
  (:data:`RESOLUTION_TEXT`): the splits and subsets all score the same 25
  topics, so their count says nothing about what 25 topics can resolve.
"""

from __future__ import annotations

import pandas as pd

from ...declare.claims import Claims, interval_verdict, sensitivity
from .combining import CONSENSUS_RULES, ORACLE
from .history import REVISED

__all__ = ["SOURCE", "N_JUDGED", "RESOLUTION_TEXT", "claims", "answers", "ug_vs_raw_sensitivity"]

#: Where the published numbers are printed.
SOURCE = "organisers' analysis, codes/0-corr-analysis.ipynb (LLMJudge-benchmark), printed table"
#: The number of judges per subset at which UG is judged against RawG: a workspace choice (no
#: paper fixes it), so its row carries the verdict recomputed at every N computed.
N_JUDGED = 9
_HEADER = "krippendorff kappa 0|123 kappa 01|23 kappa 012|3"
#: The rule deciding the combining and UG-vs-RawG rows (the workspace's, as in the real-data
#: chapter: :func:`~evalkit.declare.claims.interval_verdict`): topics are what a claim about
#: these judgments generalises over, and every split or subset shares the same 25.
RESOLUTION_TEXT = ("the paired 95% topic-bootstrap interval of the {what} (ours): above 0 holds, "
                   "below 0 does not hold, including 0 not testable (25 topics do not resolve it)")


def _quote_row(vs: pd.DataFrame, judge: str) -> str:
    row = vs[vs["judge"] == judge].set_index("statistic")["published"]
    return f"{_HEADER} ... {judge} " + " ".join(f"{row[c]:.6f}" for c in
                                               ("krippendorff", "kappa 0|123", "kappa 01|23",
                                                "kappa 012|3"))


def _published_rows(c: Claims, vs: pd.DataFrame, usual: pd.DataFrame) -> None:
    worst = vs.loc[vs["difference"].abs().idxmax()]
    gap = float(vs["difference"].abs().max())
    c.add(f"The organisers' table is reproduced: all {len(vs)} printed numbers of the "
          f"{vs['judge'].nunique()} public rows, labels clipped to 0-3, 'krippendorff' = ordinal "
          "alpha, each 'kappa' column = alpha of the labels binarised at its cut",
          f"largest |difference| {gap:.1e} ({worst['judge']}, {worst['statistic']}); every "
          "number agrees to its six printed decimals", bool(gap <= 1e-6),
          section=SOURCE, quote=_quote_row(vs, worst["judge"]), id="organisers-table",
          threshold="|reproduced - published| <= 1e-6 (the table prints six decimals)",
          source="workspace",
          sensitivity=sensitivity([5e-7, 1e-6, 1e-5], lambda t: bool(gap <= t), "{:.0e}"))
    big = usual.loc[usual["difference"].abs().idxmax()]
    c.add("The columns headed 'kappa' hold Cohen's kappa of the binarised labels "
          "(as their heading says)",
          f"they hold Krippendorff's alpha of the binarised labels; Cohen's kappa differs by "
          f"up to {big['difference']:+.3f} ({big['judge']}, {big['statistic']}: printed "
          f"{big['printed']:.3f}, Cohen's kappa {big['cohen_kappa']:.3f}); kappa >= alpha in "
          f"{int((usual['difference'] >= -1e-12).sum())} of {len(usual)} judge-cut cells",
          False, "Both correct for chance; alpha takes chance agreement from the two raters' "
          "pooled label shares, Cohen's kappa from each rater's own, so they part where a "
          "judge's share of relevant labels differs from the human's. "
          "See llmjudge2024/agreement_vs_usual.csv and llmjudge2024/alpha_vs_kappa.png.",
          kind="beyond", section=SOURCE, quote=_HEADER, id="kappa-columns-hold-kappa")


_RULE_NAMES = {"median": "median", "majority": "majority grade", "dawid-skene": "Dawid-Skene consensus",
               "team median": "team median (each team's runs reduced to their median first)"}
#: The combiner the chapter singles out beside the three consensus rules: the one whose interval
#: excludes 0, with its multiplicity caveat (it is one of :data:`~.combining.COMBINERS`).
TEAM_MEDIAN = "team median"


def _best_judge_row(c: Claims, versus: pd.DataFrame, best_summary: pd.DataFrame,
                    rest: pd.DataFrame, alpha: float = 0.05) -> None:
    """The row "25 topics tell the best judge apart from at least half of the others", judged
    over the seeded swap streams of :func:`~.best_judge.best_versus_rest`."""
    best, n = versus["judge"].iloc[0], len(versus) - 1
    every, mine = best_summary.iloc[0], best_summary.iloc[1]
    apart = (rest["p_holm"] < alpha).groupby(rest["draw"]).sum()
    below = versus[~versus["indistinguishable"].astype(bool)]

    def outcomes(share):
        return [bool(k >= share * n) for k in apart]

    c.add_over_draws(
        f"Tests between judges: 25 topics tell the best LLM judge ({best}, by ordinal alpha with "
        f"the human labels) apart from at least half of the other {n} (paired randomisation test "
        f"over topics, Holm over the best judge's {n} pairs, alpha = {alpha:g})",
        f"{int(mine.distinguishable)} of {n} told apart on the first swap stream ("
        + ", ".join(below["judge"]) + f"); {n - int(mine.indistinguishable_high)} to "
        f"{n - int(mine.indistinguishable_low)} over the {int(mine.draws)} streams; Holm over all "
        f"{int(every.pairs)} pairs (as evalkit agreement): {int(every.distinguishable)}, its "
        f"smallest possible adjusted p being {every.smallest_holm_p:.3f} with B = "
        f"{int(every.trials)}",
        outcomes(0.5),
        f"The best judge's ordinal alpha is {versus['alpha'].iloc[0]:.3f} (95% topic-bootstrap "
        f"interval {versus['ci_low'].iloc[0]:.3f}-{versus['ci_high'].iloc[0]:.3f}); only the "
        "judges far below it are told apart over 25 topics, and Holm over all pairs cannot reject "
        f"at all unless B >= {int(every.trials_needed)}. See llmjudge2024/indistinguishable.png, "
        "llmjudge2024/indistinguishable.csv and llmjudge2024/pairs.csv.",
        varies="the seeded stream of topic swaps of the randomisation test (seed, seed + 1, ...)",
        kind="beyond", id="best-judge-told-apart", threshold="at least half of the other judges; Holm over the best judge's "
        "pairs rather than over all pairs (both ours)", source="workspace",
        sensitivity=sensitivity([0.1, 0.25, 0.5], outcomes, "{:.0%}"))


def claims(vs: pd.DataFrame, usual: pd.DataFrame, dirt_table: pd.DataFrame, changed: int,
           separable: pd.DataFrame, anova: pd.DataFrame, comb: pd.DataFrame,
           splits: pd.DataFrame, spread: pd.DataFrame, by_n: pd.DataFrame,
           split_mean: pd.DataFrame, ug_diff: pd.DataFrame, versus: pd.DataFrame,
           best_summary: pd.DataFrame, rest: pd.DataFrame, n_judged: int = N_JUDGED,
           alpha: float = 0.05) -> pd.DataFrame:
    """The claims table (``claims.csv``): see the module docstring for the rows.

    ``changed``: how many labels clipping changed (the clipped and the raw
    labels compared); ``anova``: the judges-as-systems two-way ANOVA
    (``compare_scores``' ``anova``); ``split_mean``: :func:`~.combining.split_summary`;
    ``ug_diff``: :func:`~.unanimity.ug_minus_raw`; ``versus``, ``best_summary``, ``rest``:
    :func:`~.best_judge.versus_best`, :func:`~.best_judge.indistinguishable_summary`,
    :func:`~.best_judge.best_versus_rest`; ``n_judged``: the N whose subsets judge UG
    against RawG.  The combining and UG-vs-RawG rows are decided by
    :data:`RESOLUTION_TEXT`'s rule.
    """
    c = Claims(history=REVISED)
    _published_rows(c, vs, usual)
    outside = int(dirt_table["count"].sum())
    c.add("Clipping to 0-3 changes exactly the labels outside the scale, and nothing else",
          f"{outside} labels outside 0-3 ("
          + ", ".join(f"{r.judge}: {r.count} x {r.label}" for r in dirt_table.itertuples())
          + f"); {changed} labels changed by clipping", bool(changed == outside), kind="identity",
          id="clipping-changes-outside-only")

    hsd = separable.set_index("test").loc["hsd"]
    holm = separable.set_index("test").loc["t-holm"]
    ss = anova.set_index("source")["ss"]
    c.add("Judges compared as systems: 25 topics tell at least half of the judge pairs apart "
          "(per-topic ordinal alpha with the human labels, randomised Tukey HSD, alpha = 0.05)",
          f"{int(hsd.significant)} of {int(hsd.pairs)} pairs ({hsd.share:.0%}) under the HSD; "
          f"{int(holm.significant)} ({holm.share:.0%}) under paired t tests with Holm; the lower "
          f"judge of every pair the HSD separates is one of {int(hsd.lower_judges)} judges",
          bool(hsd.share >= 0.5),
          "" if hsd.share >= 0.5 else
          f"Of the per-topic scores' variation (two-way ANOVA sums of squares) the topics take "
          f"{ss['topics'] / ss.sum():.0%}, the judges {ss['systems'] / ss.sum():.0%}: with 25 "
          "topics the judges' 95% intervals overlap widely and only the worst few are told "
          "apart from the rest. See llmjudge2024/judges_as_systems.png and "
          "llmjudge2024/judges_as_systems_pairs.csv.",
          kind="beyond", id="judges-as-systems", threshold="at least half of the pairs", source="workspace",
          sensitivity=sensitivity([0.25, 0.5, 0.75], lambda t: bool(hsd.share >= t), "{:.0%}"))

    _best_judge_row(c, versus, best_summary, rest, alpha)
    oracle = comb.set_index("judge").loc[ORACLE]
    level_bounds = {0.90: ("low_90", "high_90"), 0.95: ("diff_low", "diff_high"),
                    0.99: ("low_99", "high_99")}
    n_combiners = comb[comb["kind"] == "combined"]["judge"].nunique()
    for rule in ("median", *(r for r in CONSENSUS_RULES if r != "median"), TEAM_MEDIAN):
        if rule not in set(split_mean["judge"]):
            continue
        row = comb.set_index("judge").loc[rule]
        mine = splits[splits["judge"] == rule]
        mean = split_mean.set_index("judge").loc[rule]
        tested = mine["p_holm"].notna().all()
        c.add_resolved(
            f"Kim's question on real judgments: the {_RULE_NAMES[rule]} of the 33 LLM judges (the "
            "human labels left out) agrees with the human labels better than the best single judge "
            "chosen on other topics (ordinal alpha; the difference averaged over the seeded topic "
            "splits)",
            f"mean difference over the {int(mean.draws)} splits {mean.mean_diff:+.3f} (paired 95% "
            f"topic-bootstrap interval {mean.diff_low:+.3f} to {mean.diff_high:+.3f}); positive in "
            f"{int(mean.positive)} of {int(mean.draws)} splits, each split's own interval excluding "
            f"0 in {int(mine['supported'].sum())}"
            + (f", its randomisation test (Holm over the {splits['judge'].nunique()} "
               f"combiners) rejecting in {int((mine['p_holm'] < alpha).sum())}" if tested else "")
            + f"; split 0: {row.value:.3f} vs {row.value - row.diff_vs_fair:.3f}, difference "
            f"{row.diff_vs_fair:+.3f}",
            mean.diff_low, mean.diff_high,
            f"The oracle's pick (the best judge on the very topics it is scored on) scores "
            f"{oracle.diff_vs_fair:+.3f} against the fair choice on split 0: the optimism a fair "
            "choice removes. See llmjudge2024/combining.png, llmjudge2024/combining_splits.csv and "
            "llmjudge2024/consensus.csv."
            + ("" if rule != TEAM_MEDIAN else
               f" Multiplicity: the team median is one of the {n_combiners} combiners the chapter "
               f"computes, singled out because its interval excludes 0 after all {n_combiners} "
               f"results were seen; at the 99% level (about what a Bonferroni correction over "
               f"{n_combiners} asks, {1 - 0.05 / n_combiners:.1%}) its interval is "
               f"{mean.low_99:+.3f} to {mean.high_99:+.3f} (see the sensitivity column)."),
            varies="the seeded split of the 25 topics into folds (which judge is chosen on the "
            "other folds); the interval resamples the topics, which every split shares",
            unresolved=(f"Unresolved: the interval includes 0, so 25 topics do not resolve a "
                        f"difference of {mean.mean_diff:+.3f}. That it is positive in "
                        f"{int(mean.positive)} of {int(mean.draws)} splits is no evidence either "
                        "way: every split scores the same 25 topics, and the splits redraw only "
                        "which judge is chosen."),
            kind="beyond", id=f"combiner-{rule.replace(' ', '-')}",
            threshold=RESOLUTION_TEXT.format(what="mean difference over the splits"),
            sensitivity=sensitivity(sorted(level_bounds), lambda lv: interval_verdict(
                *(mean[k] for k in level_bounds[lv])), "{:.0%}"))

    d0, d3 = spread.set_index("D").loc[spread["D"].min()], spread.set_index("D").loc[spread["D"].max()]
    c.add("Sakai's question on real judgments: where the 33 LLM judges are unanimous (D = 0) a "
          "single judge gives the human grade more often than where they spread over the whole "
          "scale (D = 3); the 95% topic-bootstrap intervals do not overlap",
          f"D = 0 ({int(d0['items'])} items): {d0.exact:.2f} ({d0.exact_low:.2f}-"
          f"{d0.exact_high:.2f}); D = 3 ({int(d3['items'])} items): {d3.exact:.2f} "
          f"({d3.exact_low:.2f}-{d3.exact_high:.2f})", bool(d0.exact_low > d3.exact_high),
          kind="beyond", id="unanimous-items-human-grade")

    wide = by_n.pivot_table(index=["N", "draw"], columns="gain", values="tau")
    at_n = wide.loc[n_judged]
    full = wide.loc[wide.index.get_level_values("N").max()].iloc[0]
    gap = ug_diff.set_index("N").loc[n_judged]
    c.add_resolved(
        f"Sakai's gains on real judgments: UG from N = {n_judged} LLM judges correlates with the "
        "human grade better than RawG (Kendall tau-b over all items, UG's minus RawG's averaged "
        "over the subsets; N is the workspace's choice, the sensitivity column gives the verdict "
        "at every N computed)",
        f"mean tau UG {at_n['ug'].mean():.3f}, RawG {at_n['raw'].mean():.3f}, WG "
        f"{at_n['wg'].mean():.3f}; UG minus RawG {gap.mean_diff:+.4f} (95% topic-bootstrap "
        f"interval {gap.diff_low:+.4f} to {gap.diff_high:+.4f}); all 33 judges: UG "
        f"{full['ug']:.3f}, RawG {full['raw']:.3f}, WG {full['wg']:.3f}; UG >= RawG by N: "
        + _wins_by_n(wide), gap.diff_low, gap.diff_high,
        "UG adds p N (Dmax - D) to RawG; with 33 LLM judges most items spread widely (see "
        "llmjudge2024/unanimity_spread.csv), so the bonus reorders few items and RawG's order "
        "already carries the judges' agreement. See llmjudge2024/ug_minus_raw.csv and "
        "llmjudge2024/unanimity.png.",
        varies=f"the seeded subset of {n_judged} of the 33 judges; the interval resamples the 25 "
        "topics",
        unresolved=(f"Unresolved: the interval includes 0, so 25 topics do not resolve a gap of "
                    f"{abs(gap.mean_diff):.3f} in tau; that UG >= RawG in "
                    f"{int(gap.ug_at_least_raw)} of {int(gap.draws)} subsets at N = {n_judged} "
                    "(and in more or fewer at other N) is a count over subsets of the same "
                    "topics and says nothing either way."),
        kind="beyond", id="ug-vs-rawg-llm-judges", threshold=f"N = {n_judged} judges per subset; "
        + RESOLUTION_TEXT.format(what="mean difference"),
        sensitivity=ug_vs_raw_sensitivity(ug_diff))

    c.add_not_testable(
        "Wang's and Sakai's leaderboard question: do LLM labels rank retrieval systems as the "
        "human labels do?", "No system runs were released with the LLMJudge challenge, only "
        "labels; the chapter does not simulate runs to stand in for them.", kind="beyond",
        id="leaderboard-question")
    return c.frame()


def _wins_by_n(wide: pd.DataFrame) -> str:
    """"k of R at N = n" for every N computed (UG >= RawG in k of the R subsets of N judges)."""
    return ", ".join(f"{int((g['ug'] >= g['raw']).sum())} of {len(g)} at N = {n}"
                     for n, g in wide.groupby(level="N"))


def ug_vs_raw_sensitivity(ug_diff: pd.DataFrame) -> str:
    """The verdict "UG better than RawG" recomputed at every N computed, by the rule of
    :data:`RESOLUTION_TEXT` on :func:`~.unanimity.ug_minus_raw`'s interval at that N, in
    :func:`~evalkit.declare.claims.sensitivity`'s words."""
    at = ug_diff.set_index("N")
    return sensitivity(sorted(int(n) for n in at.index),
                       lambda n: interval_verdict(at.loc[n, "diff_low"], at.loc[n, "diff_high"]))


def _resolved_words(low: float, high: float) -> str:
    """What :func:`~evalkit.declare.claims.interval_verdict` says of an interval, in a clause."""
    return {"holds": "above 0", "does not hold": "below 0"}.get(
        interval_verdict(low, high), "including 0: 25 topics do not resolve it")


def answers(separable: pd.DataFrame, comb: pd.DataFrame, splits: pd.DataFrame,
            spread: pd.DataFrame, summary: pd.DataFrame, split_mean: pd.DataFrame | None = None,
            ug_diff: pd.DataFrame | None = None) -> list[str]:
    """The chapter's three answers (items 4-6 of its questions), each generated from the tables
    (``split_mean``: :func:`~.combining.split_summary`; ``ug_diff``: :func:`~.unanimity.ug_minus_raw`)."""
    hsd = separable.set_index("test").loc["hsd"]
    holm = separable.set_index("test").loc["t-holm"]
    t = comb.set_index("judge")
    best = t.loc["median"]          # the first combiner asked (as the claims rows), not the best on these topics
    fair = t.loc["best single (chosen on other topics)"]
    supported = [r.judge for r in comb.itertuples() if r.kind == "combined" and r.supported]
    top_here = comb[comb["kind"] == "combined"].sort_values("value").iloc[-1]["judge"]
    med = splits[splits["judge"] == "median"]
    d = spread.set_index("D")
    full = summary[summary["N"] == summary["N"].max()].set_index("gain")["mean_tau"]
    top = summary[summary["N"] < summary["N"].max()]
    ug_wins = top[top["gain"] == "ug"].set_index("N")["ug_best"]
    n_judges = int(summary["N"].max())
    mean_text = ""
    if split_mean is not None:
        sm = split_mean.set_index("judge").loc["median"]
        mean_text = (f" Averaged over the {int(sm.draws)} splits the difference is "
                     f"{sm.mean_diff:+.3f} (95% topic-bootstrap interval {sm.diff_low:+.3f} to "
                     f"{sm.diff_high:+.3f}, {_resolved_words(sm.diff_low, sm.diff_high)}).")
    gain_text = (f"As a gain, UG (Kendall tau-b {full['ug']:.3f} with the human grade, all {n_judges} "
                 f"judges) {'beats' if full['ug'] > full['raw'] else 'does not beat'} RawG "
                 f"({full['raw']:.3f})")
    by_n_text = ""
    if ug_diff is not None:
        at = ug_diff.set_index("N").loc[n_judges]
        gain_text = (f"As a gain, UG (Kendall tau-b {full['ug']:.3f} with the human grade, all "
                     f"{n_judges} judges) and RawG ({full['raw']:.3f}) differ by "
                     f"{at.mean_diff:+.3f} (95% topic-bootstrap interval {at.diff_low:+.3f} to "
                     f"{at.diff_high:+.3f}, {_resolved_words(at.diff_low, at.diff_high)})")
        by_n_text = (f" UG against RawG alone at every N computed, by the topic-bootstrap interval "
                     f"of the mean difference (the verdicts row judges it at N = {N_JUDGED}, the "
                     f"workspace's choice, not a paper's): {ug_vs_raw_sensitivity(ug_diff)}.")
    return [
        f"**Judges as systems.** The randomised Tukey HSD over 25 topics separates "
        f"{int(hsd.significant)} of {int(hsd.pairs)} judge pairs ({hsd.share:.0%}; paired t "
        f"tests with Holm {int(holm.significant)}), and the lower judge of every separated pair "
        f"is one of only {int(hsd.lower_judges)} judges: no pair among the other "
        f"{n_judges - int(hsd.lower_judges)} judges is separated.",
        f"**Combining judges (Kim).** Three combiners are judged (median, majority grade, "
        f"Dawid-Skene); the median was asked first, the other two were added after its result was "
        f"known (their claims rows' history says so), and none resolves above the fair single "
        f"judge. The median of the {n_judges} judges has ordinal alpha "
        f"{best['value']:.3f} ({best['ci_low']:.3f}-{best['ci_high']:.3f}) against "
        f"{fair['value']:.3f} ({fair['ci_low']:.3f}-{fair['ci_high']:.3f}) for the single judge "
        f"chosen on other topics: a difference of {best['diff_vs_fair']:+.3f} (paired interval "
        f"{best['diff_low']:+.3f} to {best['diff_high']:+.3f}), positive in "
        f"{int((med['diff'] > 0).sum())} of {len(med)} topic splits but with an interval "
        f"excluding 0 in only {int(med['supported'].sum())}; intervals that exclude 0 on the "
        f"first split: {', '.join(supported) if supported else 'none'}.{mean_text} (The combiner "
        f"scoring highest on these very topics, the {top_here}, is not singled out: choosing it on "
        "the topics it is scored on is the selection the fair choice of the single judge avoids.)",
        f"**Unanimity (Sakai).** A single LLM judge gives the human grade for "
        f"{d.loc[d.index.min(), 'exact']:.0%} ({d.loc[d.index.min(), 'exact_low']:.0%}-"
        f"{d.loc[d.index.min(), 'exact_high']:.0%}) of the items on which all 33 agree (D = 0, "
        f"{d.loc[d.index.min(), 'share']:.0%} of items) but for {d.loc[d.index.max(), 'exact']:.0%} "
        f"({d.loc[d.index.max(), 'exact_low']:.0%}-{d.loc[d.index.max(), 'exact_high']:.0%}) where "
        f"they span the scale (D = 3, {d.loc[d.index.max(), 'share']:.0%}). {gain_text}, and WG, "
        f"which scales RawG down by D, reaches {full['wg']:.3f}; UG is at least "
        f"as good as RawG and WG in " + ", ".join(f"{k} of {int(top[(top.gain == 'ug') & (top.N == n)].draws.iloc[0])} "
                                                   f"subsets at N = {n}" for n, k in ug_wins.items() if n > 1) + "." + by_n_text,
    ]
