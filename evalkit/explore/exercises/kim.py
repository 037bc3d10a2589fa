"""Exercises on Kim, Zhai & Han (ECIR 2010): orderings, noise and evaluation discriminativeness."""

from __future__ import annotations

import math

from .core import Verdict, close_to, report, unanswered

__all__ = ["KENDALL_EXAMPLE", "best_method", "check_best_method_at_full_noise",
           "check_dilution", "check_kendall_orderings", "ED_EXAMPLE", "check_ed_by_hand",
           "WCA_EXAMPLE", "check_wca_score", "check_minsup_worlds_best"]


def check_dilution(answer, clean_ed: float = 0.45, n: int = 10, ratio: float = 0.5) -> Verdict:
    """AC-tau's ED after adding round(n r) random orderings, by the dilution formula."""
    if unanswered(answer):
        return Verdict(False)
    m = math.floor(n * ratio + 0.5)
    expected = clean_ed * (n - 1) / (n - 1 + m) * n / (n + m)
    return report(close_to(answer, expected, 0.001),
                   f"{clean_ed:g} x {n - 1}/{n - 1 + m} x {n}/{n + m} = {expected:.4f}: random "
                   "orderings add weight but no agreement.",
                   "m = round(n r) noise orderings join; each held-out ordering is averaged over "
                   "n - 1 + m others instead of n - 1, and ED averages over n + m held-out "
                   "orderings, of which the noisy ones score 0 on average.")


KENDALL_EXAMPLE = (("a", "b", "c", "d"), ("b", "a", "d", "c"))


def check_kendall_orderings(answer) -> Verdict:
    """Kendall's tau between the two orderings of :data:`KENDALL_EXAMPLE`."""
    from ...measures.aggregation import kendall

    if unanswered(answer):
        return Verdict(False)
    expected = kendall(*KENDALL_EXAMPLE)
    return report(close_to(answer, expected, 0.001),
                   f"2 of 6 pairs are discordant: tau = (4 - 2)/6 = {expected:.4f}.",
                   "list the 6 pairs of items and count those the two orderings put in "
                   "opposite order.")


def best_method(engines, noise_ratio: float = 1.0, **values) -> str:
    """The method with the highest ED in the explorer at ``noise_ratio``."""
    from .. import kim

    ed = kim.compute(engines, noise_ratio, **values).ed
    return str(ed.loc[ed["ED"].idxmax(), "method"])


def check_best_method_at_full_noise(answer, engines=None, **values) -> Verdict:
    """Which of the seven methods has the highest ED at noise ratio 1 (default FreSPA)?"""
    if unanswered(answer):
        return Verdict(False)
    if engines is None:
        from ...formats.orderings import read_orderings
        from ... import paths
        from .. import kim

        engines = kim.Engines(read_orderings(paths.RAW / "ordering" / "judgments.csv"))
    from ..kim import published_row

    expected = best_method(engines, **values)
    row = published_row(1.0) or {}
    top = max(row, key=row.get) if row else None
    verdict = ("the same as the paper's Table 1 at r = 1" if top == expected else
               f"the paper's Table 1 has {top} first at r = 1: the simulated judgments do not "
               "reproduce that ranking under heavy noise")
    return report(str(answer).strip().lower() == expected, f"{expected}: {verdict}.",
                   "set the noise ratio to 1 and read the tallest bar (names as in the table, "
                   "e.g. 'rba-sp').")


#: Three assessors' orderings of three items (the chapter's ED-by-hand exercise).
ED_EXAMPLE = ("abc", "acb", "bac")


def check_ed_by_hand(answer) -> Verdict:
    """ED of AC-tau for :data:`ED_EXAMPLE`, leave-one-out (Kim et al. §5.2)."""
    from ...measures.discriminativeness import discriminativeness

    if unanswered(answer):
        return Verdict(False)
    expected = discriminativeness("ac-tau", list(ED_EXAMPLE))
    return report(close_to(answer, expected, 0.001),
                  f"ED = {expected:.4f}: held out 'abc' the others average tau 1/3, held out 'acb' or "
                  "'bac' they average (1/3 - 1/3)/2 = 0; the mean of 1/3, 0, 0 is 1/9. With (x + 1)/2 "
                  "the score minus the reverse's score is the mean tau itself.",
                  "hold out each ordering in turn; its score minus its reverse's score is its mean "
                  "Kendall tau with the other two (tau = (concordant - discordant pairs)/3); "
                  "then average the three.")


#: WCA's printed weights (mean correlations, here of mixed sign) and one held-out ordering's
#: correlations with the same golds.
WCA_EXAMPLE = {"weights": (0.5, -0.45), "correlations": (0.6, -0.2)}


def check_wca_score(answer) -> Verdict:
    """WCA's score ``sum w c / sum w`` for :data:`WCA_EXAMPLE` (it leaves [-1, 1])."""
    if unanswered(answer):
        return Verdict(False)
    w, c = WCA_EXAMPLE["weights"], WCA_EXAMPLE["correlations"]
    expected = sum(a * b for a, b in zip(w, c)) / sum(w)
    return report(close_to(answer, expected, 0.01),
                  f"{expected:.2f}: the weights sum to only {sum(w):.2f}, so a weighted 'mean' of "
                  "correlations in [-1, 1] lands far outside it. This is what lifts some noisy draws "
                  "of WCA above its clean ED.",
                  "multiply each weight by its correlation, add, and divide by the sum of the weights "
                  "(not by the number of golds).")


def check_minsup_worlds_best(answer, minsup_long=None) -> Verdict:
    """In how many worlds drawn with the default calibration is minSup 1 best?

    ``minsup_long`` is :func:`evalkit.papers.kim2010_ordering_aggregation.minsup_worlds`'s
    frame (default: the committed ``figures/kim2010/minsup_worlds_draws.csv``).
    """
    import pandas as pd

    from ...declare.claims import verdict_over_draws
    from ... import paths

    if unanswered(answer):
        return Verdict(False)
    long = (minsup_long if minsup_long is not None else
            pd.read_csv(paths.FIGURES / "kim2010" / "minsup_worlds_draws.csv"))
    dflt = long[long["world"] == "default"]
    k, r = int((dflt["best_min_sup"] == 1.0).sum()), len(dflt)
    ok = close_to(answer, k, 0)
    rule = verdict_over_draws(k, r) if r >= 20 else "too few worlds for a verdict"
    first = (f", while the committed judgments (the first world) have minSup "
             f"{dflt.sort_values('world_seed')['best_min_sup'].iloc[0]:g} best"
             if "world_seed" in dflt else "")
    calib = ""
    if "mean_pairwise_tau" in dflt and 0 < k < r:
        tau = dflt.groupby(dflt["best_min_sup"] == 1.0)["mean_pairwise_tau"].agg(["min", "max"])
        calib = (f" The worlds with 1 best have mean pairwise tau {tau.loc[True, 'min']:.3f}-"
                 f"{tau.loc[True, 'max']:.3f}, the others {tau.loc[False, 'min']:.3f}-"
                 f"{tau.loc[False, 'max']:.3f}: which minSup wins moves with the agreement around the "
                 "calibrated value, so matching the mean pairwise tau cannot settle it.")
    return report(ok, f"{k} of {r}: the claim '{rule}' under the 80%/20% rule{first}.{calib}",
                  "count the rows of world 'default' in minsup_long whose best_min_sup is 1.0.")
