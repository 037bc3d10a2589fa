"""Can these LLM judges replace the human assessors here, and does combining them help?

The chapter's answer to the question teams bring (issue: "can this judge
replace that one?"), written from the tables of :mod:`.best_judge` (how many
judges the best cannot be told apart from) and :mod:`.combining` (the library's
consensus rules, made without the human labels, against the best single judge
chosen on held-out topics), with the limits of 25 topics and one human
assessor per passage.  :func:`replacement_answers` gives the paragraphs; every number in
them is read from those tables.

The bar for "replace" is Krippendorff's guideline for data one relies on
(:data:`KRIPPENDORFF_RELY`, :data:`KRIPPENDORFF_TENTATIVE`; Krippendorff,
*Content Analysis: An Introduction to Its Methodology*, 2nd ed., Sage 2004,
p. 241): alpha of 0.800 to rely on data, 0.667 for tentative
conclusions.  Using it as the bar for LLM-versus-human agreement is the
workspace's choice, and the answer says so.
"""

from __future__ import annotations

import pandas as pd

from ...declare.claims import DOES_NOT_HOLD, HOLDS

__all__ = ["KRIPPENDORFF_RELY", "KRIPPENDORFF_TENTATIVE", "replacement_answers"]

#: Krippendorff (2004, p. 241): rely only on data with alpha of at least 0.800 ...
KRIPPENDORFF_RELY = 0.800
#: ... and draw only tentative conclusions from data between 0.667 and 0.800.
KRIPPENDORFF_TENTATIVE = 0.667

_NAMES = {"majority": "majority", "median": "median", "dawid-skene": "Dawid-Skene"}


def _interval(low: float, high: float, fmt: str = "{:.3f}") -> str:
    return f"{fmt.format(low)} to {fmt.format(high)}"


def _resolved(verdict: str) -> str:
    return {HOLDS: "above 0", DOES_NOT_HOLD: "below 0"}.get(verdict, "includes 0")


def _best_paragraph(versus: pd.DataFrame, summary: pd.DataFrame, topics: int,
                    alpha: float, per_topic_best: str | None = None) -> str:
    best, rest = versus.iloc[0], versus.iloc[1:]
    every, mine = summary.iloc[0], summary.iloc[1]
    below = rest[~rest["indistinguishable"]]
    n = len(rest)
    other = ("" if not per_topic_best or per_topic_best == best.judge else
             f" Which judge is best depends on the statistic: by the mean over topics of the "
             f"per-topic alpha (the judges-as-systems comparison) it is {per_topic_best}, which "
             f"the HSD does not separate from {best.judge}.")
    text = (f"**How many judges are indistinguishable from the best?** The best of the "
            f"{len(versus)} judges by ordinal alpha over all items pooled, {best.judge} (ordinal "
            f"alpha {best.alpha:.3f}, 95% "
            f"topic-bootstrap interval {_interval(best.ci_low, best.ci_high)}), cannot be told "
            f"apart from {int(mine.indistinguishable)} of the other {n} (paired randomisation "
            f"test over the {topics} topics, B = {int(mine.trials)} swaps, Holm over its {n} "
            f"pairs, alpha = {alpha:g}; between {int(mine.indistinguishable_low)} and "
            f"{int(mine.indistinguishable_high)} over {int(mine.draws)} seeded swap streams, "
            f"{int(mine.indistinguishable)} in {int(mine.draws_at_count)} of them).{other}")
    if len(below):
        text += (f" Only {len(below)} are significantly below it, {abs(below['difference']).min():.3f}"
                 f" to {abs(below['difference']).max():.3f} lower: "
                 + ", ".join(below["judge"]) + ".")
    if every.smallest_holm_p >= alpha:
        text += (f" Holm over all {int(every.pairs)} pairs, as `evalkit agreement` adjusts, "
                 f"calls {int(every.indistinguishable)} of {n} indistinguishable, but that count "
                 f"is fixed by B, not by the judges: with B = {int(every.trials)} swaps no "
                 f"adjusted p can fall below {every.smallest_holm_p:.3f}, so nothing can be "
                 f"significant at {alpha:g}; that family needs B >= {int(every.trials_needed)}.")
    else:
        text += (f" Holm over all {int(every.pairs)} pairs: {int(every.indistinguishable)} of {n} "
                 "indistinguishable.")
    return text


def _consensus_paragraph(consensus: pd.DataFrame, folds: int) -> str:
    c = consensus.set_index("rule")
    r = int(c["draws"].iloc[0])
    alphas = "; ".join(f"{_NAMES.get(k, k)} {row.alpha:.3f} ({_interval(row.ci_low, row.ci_high)})"
                       for k, row in c.iterrows())
    diffs = "; ".join(
        f"{_NAMES.get(k, k)} {row.mean_diff:+.3f} (95% paired topic-bootstrap interval "
        f"{_interval(row.diff_low, row.diff_high, '{:+.3f}')}, {_resolved(row.verdict)}; the "
        f"randomisation test rejects in {int(row.test_rejects)} of {r} splits)"
        for k, row in c.iterrows())
    return (f"**Consensus without the humans.** Made of the {int(c['judges'].iloc[0])} LLM judges "
            f"alone (the human labels left out), the consensus rules reach ordinal alpha with the "
            f"human labels of {alphas} (95% topic-bootstrap intervals). Against the best single "
            f"judge chosen on held-out topics ({folds} folds, {r} seeded splits), the difference "
            f"averaged over the splits is: {diffs}.")


def _others(consensus: pd.DataFrame, split_mean: pd.DataFrame | None) -> str:
    """A sentence on the chapter's other combiners whose interval over the splits excludes 0."""
    if split_mean is None:
        return ""
    rest = split_mean[~split_mean["judge"].isin(consensus["rule"])]
    resolved = rest[(rest["diff_low"] > 0) | (rest["diff_high"] < 0)]
    if resolved.empty:
        return ""
    said = ", ".join(f"the {r.judge}'s ({r.mean_diff:+.3f}, {_interval(r.diff_low, r.diff_high)})"
                     for r in resolved.itertuples())
    n = len(split_mean)
    return (f" Of the chapter's other combiners, {said} excludes 0: "
            f"{len(resolved)} interval{'s' if len(resolved) > 1 else ''} of {n} combiners, none "
            f"declared in advance and none adjusted for the {n}, so a lead, not a finding.")


def _verdict_paragraph(versus: pd.DataFrame, summary: pd.DataFrame, consensus: pd.DataFrame,
                       topics: int, split_mean: pd.DataFrame | None = None) -> str:
    best = versus.iloc[0]
    mine = summary.iloc[1]
    if best.ci_high < KRIPPENDORFF_TENTATIVE:
        replace = (f"Not as a stand-in for the human labels: even the best judge's agreement with "
                   f"them ({best.alpha:.3f}, interval up to {best.ci_high:.3f}) stays below "
                   f"{KRIPPENDORFF_TENTATIVE:.3f}, the lowest alpha Krippendorff (2004) accepts "
                   f"for tentative conclusions ({KRIPPENDORFF_RELY:.3f} to rely on the data; "
                   "using his guideline as the bar for replacing assessors is ours).")
    elif best.ci_low >= KRIPPENDORFF_RELY:
        replace = (f"Yes by Krippendorff's (2004) bar for data one relies on: the best judge's "
                   f"interval lies above {KRIPPENDORFF_RELY:.3f} (the bar is ours to apply).")
    else:
        replace = (f"Not settled: the best judge's interval ({_interval(best.ci_low, best.ci_high)}) "
                   f"reaches into Krippendorff's (2004) band of {KRIPPENDORFF_TENTATIVE:.3f}-"
                   f"{KRIPPENDORFF_RELY:.3f} (the bar is ours to apply).")
    verdicts = consensus.set_index("rule")["verdict"]
    better = [_NAMES.get(k, k) for k, v in verdicts.items() if v == HOLDS]
    worse = [_NAMES.get(k, k) for k, v in verdicts.items() if v == DOES_NOT_HOLD]
    if better:
        combine = f"Combining helps: {', '.join(better)} beat the fairly chosen single judge."
    elif worse:
        combine = (f"Combining does not help: {', '.join(worse)} fall below the fairly chosen "
                   "single judge, and no rule is resolved above it.")
    else:
        combine = ("Combining does not help measurably: no consensus rule is resolved above or "
                   "below the single judge chosen on held-out topics; every interval includes 0.")
    combine += _others(consensus, split_mean)
    width = best.ci_high - best.ci_low
    return (f"**Can these LLM judges replace the human assessors here, and does combining them "
            f"help?** {replace} Which LLM judge is used matters less than the ranking suggests: "
            f"{int(mine.indistinguishable)} of {len(versus) - 1} cannot be told from the best. "
            f"{combine} Limits: {topics} topics (the best judge's interval alone is {width:.2f} "
            "wide, and every test here resamples or swaps topics); one human assessor per "
            "passage, so how far a second human would agree with the first, the natural bar for "
            "a replacement, is not known from these data; 33 public judges of 64 submissions, "
            "several of them runs of one team, so not independent judges.")


def replacement_answers(versus: pd.DataFrame, summary: pd.DataFrame, consensus: pd.DataFrame,
                        topics: int, folds: int, alpha: float = 0.05,
                        split_mean: pd.DataFrame | None = None,
                        per_topic_best: str | None = None) -> list[str]:
    """Three paragraphs: how many judges are indistinguishable from the best
    (:func:`~.best_judge.versus_best`, :func:`~.best_judge.indistinguishable_summary`), the
    consensus rules without the humans (:func:`~.combining.consensus_summary`), and the answer
    to "can they replace the humans, and does combining help?" with its limits (and, with
    ``split_mean``, :func:`~.combining.split_summary`, the chapter's other combiners whose
    interval excludes 0); ``per_topic_best``, the judge with the highest mean per-topic alpha,
    is named beside the pooled best when they differ ("best" depends on the statistic)."""
    return [_best_paragraph(versus, summary, topics, alpha, per_topic_best),
            _consensus_paragraph(consensus, folds),
            _verdict_paragraph(versus, summary, consensus, topics, split_mean)]
