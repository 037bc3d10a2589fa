"""The LLMJudge chapter's claims table: the organisers' table, and the three papers' questions.

Rows (:class:`~evalkit.declare.claims.Claims`, every number read from the
tables the notebook has just computed):

* ``paper``: the organisers' printed table (quoted from their notebook's
  output) is reproduced; their columns headed "kappa" are Cohen's kappa
  (they are not: alpha of binarised labels).
* ``identity``: clipping touches only the labels outside 0-3.
* ``beyond``: the papers' questions on real judgments: how many judge pairs
  25 topics separate (randomised Tukey HSD), whether the median of the 33
  LLM judges beats the best single judge chosen on other topics (over
  seeded topic splits), whether unanimous LLM judges agree with the human
  more often (Sakai), whether UG correlates with the human grade better than
  RawG (over seeded judge subsets), and the leaderboard question, not
  testable here (no runs were released).
"""

from __future__ import annotations

import pandas as pd

from ...declare.claims import Claims, sensitivity
from .combining import ORACLE

__all__ = ["SOURCE", "N_JUDGED", "claims", "answers", "ug_vs_raw_sensitivity"]

#: Where the published numbers are printed.
SOURCE = "organisers' analysis, codes/0-corr-analysis.ipynb (LLMJudge-benchmark), printed table"
#: The number of judges per subset at which UG is judged against RawG: a workspace choice (no
#: paper fixes it), so its row carries the verdict recomputed at every N computed.
N_JUDGED = 9
_HEADER = "krippendorff kappa 0|123 kappa 01|23 kappa 012|3"


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
          section=SOURCE, quote=_quote_row(vs, worst["judge"]),
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
          section=SOURCE, quote=_HEADER)


def claims(vs: pd.DataFrame, usual: pd.DataFrame, dirt_table: pd.DataFrame, changed: int,
           separable: pd.DataFrame, anova: pd.DataFrame, comb: pd.DataFrame,
           splits: pd.DataFrame, spread: pd.DataFrame, by_n: pd.DataFrame,
           n_judged: int = N_JUDGED) -> pd.DataFrame:
    """The claims table (``claims.csv``): see the module docstring for the rows.

    ``changed``: how many labels clipping changed (the clipped and the raw
    labels compared); ``anova``: the judges-as-systems two-way ANOVA
    (``compare_scores``' ``anova``); ``n_judged``: the N whose subsets judge
    UG against RawG.
    """
    c = Claims()
    _published_rows(c, vs, usual)
    outside = int(dirt_table["count"].sum())
    c.add("Clipping to 0-3 changes exactly the labels outside the scale, and nothing else",
          f"{outside} labels outside 0-3 ("
          + ", ".join(f"{r.judge}: {r.count} x {r.label}" for r in dirt_table.itertuples())
          + f"); {changed} labels changed by clipping", bool(changed == outside), kind="identity")

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
          kind="beyond", threshold="at least half of the pairs", source="workspace",
          sensitivity=sensitivity([0.25, 0.5, 0.75], lambda t: bool(hsd.share >= t), "{:.0%}"))

    med = comb.set_index("judge").loc["median"]
    oracle = comb.set_index("judge").loc[ORACLE]
    mine = splits[splits["judge"] == "median"]
    wins = mine["supported"] & (mine["diff"] > 0)
    c.add_over_draws(
        "Kim's question on real judgments: the median of the 33 LLM judges agrees with the human "
        "labels better than the best single judge chosen on other topics (ordinal alpha; the "
        "paired 95% topic-bootstrap interval of the difference excludes 0)",
        f"split 0: {med.value:.3f} vs {med.value - med.diff_vs_fair:.3f}, difference "
        f"{med.diff_vs_fair:+.3f} ({med.diff_low:+.3f} to {med.diff_high:+.3f}); over the "
        f"splits the difference is {mine['diff'].min():+.3f} to {mine['diff'].max():+.3f}, "
        f"positive in {int((mine['diff'] > 0).sum())} of {len(mine)}",
        list(wins),
        "" if wins.mean() >= 0.8 else
        f"The median is above the fairly chosen judge in {int((mine['diff'] > 0).sum())} of "
        f"{len(mine)} splits, but its paired interval excludes 0 in {int(mine['supported'].sum())}: "
        "the gain is smaller than 25 topics can resolve. The oracle's pick (the best judge on "
        f"the very topics it is scored on) scores {oracle.diff_vs_fair:+.3f} against the fair "
        "choice on split 0: the optimism a fair choice removes. See llmjudge2024/combining.png "
        "and llmjudge2024/combining_splits.csv.",
        kind="beyond", varies="the seeded split of the 25 topics into folds (which judge is "
        "chosen on the other folds)")

    d0, d3 = spread.set_index("D").loc[spread["D"].min()], spread.set_index("D").loc[spread["D"].max()]
    c.add("Sakai's question on real judgments: where the 33 LLM judges are unanimous (D = 0) a "
          "single judge gives the human grade more often than where they spread over the whole "
          "scale (D = 3); the 95% topic-bootstrap intervals do not overlap",
          f"D = 0 ({int(d0['items'])} items): {d0.exact:.2f} ({d0.exact_low:.2f}-"
          f"{d0.exact_high:.2f}); D = 3 ({int(d3['items'])} items): {d3.exact:.2f} "
          f"({d3.exact_low:.2f}-{d3.exact_high:.2f})", bool(d0.exact_low > d3.exact_high),
          kind="beyond")

    wide = by_n.pivot_table(index=["N", "draw"], columns="gain", values="tau")
    at_n = wide.loc[n_judged]
    full = wide.loc[wide.index.get_level_values("N").max()].iloc[0]
    sens = ug_vs_raw_sensitivity(by_n)
    c.add_over_draws(
        f"Sakai's gains on real judgments: UG from N = {n_judged} LLM judges correlates with the "
        "human grade at least as well as RawG (Kendall tau-b over all items; N is the workspace's "
        "choice, the sensitivity column gives the verdict at every N computed)",
        f"mean tau UG {at_n['ug'].mean():.3f}, RawG {at_n['raw'].mean():.3f}, WG "
        f"{at_n['wg'].mean():.3f}; all 33 judges: UG {full['ug']:.3f}, RawG {full['raw']:.3f}, "
        f"WG {full['wg']:.3f}; UG >= RawG by N: " + _wins_by_n(wide), list(at_n["ug"] >= at_n["raw"]),
        f"The verdict depends on N ({sens}; at N = 1 UG = RawG by construction), so N = {n_judged} "
        "alone does not settle the question. UG adds p N (Dmax - D) to RawG; with 33 LLM judges most "
        "items spread widely (see llmjudge2024/unanimity_spread.csv), so the bonus reorders few items "
        "and RawG's order already carries the judges' agreement. See "
        "llmjudge2024/gains_vs_n_summary.csv and llmjudge2024/unanimity.png.",
        kind="beyond", varies=f"the seeded subset of {n_judged} of the 33 judges",
        threshold=f"N = {n_judged} judges per subset", source="workspace", sensitivity=sens)

    c.add_not_testable(
        "Wang's and Sakai's leaderboard question: do LLM labels rank retrieval systems as the "
        "human labels do?", "No system runs were released with the LLMJudge challenge, only "
        "labels; the chapter does not simulate runs to stand in for them.", kind="beyond")
    return c.frame()


def _wins_by_n(wide: pd.DataFrame) -> str:
    """"k of R at N = n" for every N computed (UG >= RawG in k of the R subsets of N judges)."""
    return ", ".join(f"{int((g['ug'] >= g['raw']).sum())} of {len(g)} at N = {n}"
                     for n, g in wide.groupby(level="N"))


def ug_vs_raw_sensitivity(by_n: pd.DataFrame) -> str:
    """The verdict "UG >= RawG" recomputed at every N computed (over its subsets where there are
    at least 20, else the one set of all judges), in :func:`~evalkit.declare.claims.sensitivity`'s words."""
    wide = by_n.pivot_table(index=["N", "draw"], columns="gain", values="tau")
    ns = sorted(int(n) for n in wide.index.get_level_values("N").unique())

    def outcome_at(n):
        g = wide.loc[n]
        wins = [bool(x) for x in g["ug"] >= g["raw"]]
        return wins if len(wins) > 1 else wins[0]
    return sensitivity(ns, outcome_at)


def answers(separable: pd.DataFrame, comb: pd.DataFrame, splits: pd.DataFrame,
            spread: pd.DataFrame, summary: pd.DataFrame, by_n: pd.DataFrame | None = None) -> list[str]:
    """The chapter's three answers (items 4-6 of its questions), each generated from the tables."""
    hsd = separable.set_index("test").loc["hsd"]
    holm = separable.set_index("test").loc["t-holm"]
    t = comb.set_index("judge")
    best = t.loc["median"]          # the pre-declared combiner (as the claims row), not the best on these topics
    fair = t.loc["best single (chosen on other topics)"]
    supported = [r.judge for r in comb.itertuples() if r.kind == "combined" and r.supported]
    top_here = comb[comb["kind"] == "combined"].sort_values("value").iloc[-1]["judge"]
    med = splits[splits["judge"] == "median"]
    d = spread.set_index("D")
    full = summary[summary["N"] == summary["N"].max()].set_index("gain")["mean_tau"]
    top = summary[summary["N"] < summary["N"].max()]
    ug_wins = top[top["gain"] == "ug"].set_index("N")["ug_best"]
    n_judges = int(summary["N"].max())
    ug_vs_raw = "beats" if full["ug"] > full["raw"] else "does not beat"
    by_n_text = "" if by_n is None else (
        f" UG against RawG alone, over every N computed (the verdicts row judges it at N = {N_JUDGED}, "
        f"the workspace's choice, not a paper's): {ug_vs_raw_sensitivity(by_n)}.")
    return [
        f"**Judges as systems.** The randomised Tukey HSD over 25 topics separates "
        f"{int(hsd.significant)} of {int(hsd.pairs)} judge pairs ({hsd.share:.0%}; paired t "
        f"tests with Holm {int(holm.significant)}), and the lower judge of every separated pair "
        f"is one of only {int(hsd.lower_judges)} judges: no pair among the other "
        f"{n_judges - int(hsd.lower_judges)} judges is separated.",
        f"**Combining judges (Kim).** The combiner declared before looking, the median of the "
        f"{n_judges} judges, has ordinal alpha "
        f"{best['value']:.3f} ({best['ci_low']:.3f}-{best['ci_high']:.3f}) against "
        f"{fair['value']:.3f} ({fair['ci_low']:.3f}-{fair['ci_high']:.3f}) for the single judge "
        f"chosen on other topics: a difference of {best['diff_vs_fair']:+.3f} (paired interval "
        f"{best['diff_low']:+.3f} to {best['diff_high']:+.3f}), positive in "
        f"{int((med['diff'] > 0).sum())} of {len(med)} topic splits but with an interval "
        f"excluding 0 in only {int(med['supported'].sum())}; intervals that exclude 0 on the "
        f"first split: {', '.join(supported) if supported else 'none'}. (The combiner scoring "
        f"highest on these very topics, the {top_here}, is not singled out: choosing it on the topics "
        "it is scored on is the selection the fair choice of the single judge avoids.)",
        f"**Unanimity (Sakai).** A single LLM judge gives the human grade for "
        f"{d.loc[d.index.min(), 'exact']:.0%} ({d.loc[d.index.min(), 'exact_low']:.0%}-"
        f"{d.loc[d.index.min(), 'exact_high']:.0%}) of the items on which all 33 agree (D = 0, "
        f"{d.loc[d.index.min(), 'share']:.0%} of items) but for {d.loc[d.index.max(), 'exact']:.0%} "
        f"({d.loc[d.index.max(), 'exact_low']:.0%}-{d.loc[d.index.max(), 'exact_high']:.0%}) where "
        f"they span the scale (D = 3, {d.loc[d.index.max(), 'share']:.0%}). As a gain, UG "
        f"(Kendall tau-b {full['ug']:.3f} with the human grade, all {n_judges} judges) "
        f"{ug_vs_raw} RawG ({full['raw']:.3f}), and WG, which scales RawG down by D, reaches "
        f"{full['wg']:.3f}; UG is at least "
        f"as good as RawG and WG in " + ", ".join(f"{k} of {int(top[(top.gain == 'ug') & (top.N == n)].draws.iloc[0])} "
                                                   f"subsets at N = {n}" for n, k in ug_wins.items() if n > 1) + "." + by_n_text,
    ]
