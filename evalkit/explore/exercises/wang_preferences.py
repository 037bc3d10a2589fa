"""Exercises on Wang, Sherman, Lin & Efron (SIGIR 2015) §5: user preferences and the metrics.

Used by ``notebooks/wang2015_user_preferences.ipynb``: an implied choice and
an agreement count (:func:`check_agreement_count`), Cohen's kappa and its 95%
interval by hand for a 2 x 2 table (:func:`check_kappa_interval`), and the
variation of Table 3's precision ANOVA between simulated studies
(:func:`check_significant_studies`).  Every expected answer is computed from
the functions the notebook uses.
"""

from __future__ import annotations

from .core import Verdict, close_to, report, unanswered

__all__ = ["JUDGMENTS", "KAPPA_TABLE", "check_agreement_count", "check_kappa_interval",
           "check_significant_studies"]

#: Six judgments of precision-sampled pairs: (precision of the left timeline, of the right
#: timeline, the assessor's choice).
JUDGMENTS = ((0.60, 0.40, "left"), (0.25, 0.45, "right"), (0.30, 0.55, "left"),
             (0.70, 0.50, "neither"), (0.20, 0.35, "right"), (0.55, 0.30, "left"))

#: A 2 x 2 table of decided judgments: rows the assessor's choice (left, right), columns the
#: metric's implied choice (left, right).
KAPPA_TABLE = ((18, 6), (4, 12))


def _agreement_count() -> tuple[int, int]:
    from ...papers.wang2015_user_preferences.study import implied_choice

    decided = [(implied_choice(a, b), c) for a, b, c in JUDGMENTS if c != "neither"]
    return sum(i == c for i, c in decided), len(decided)


def check_agreement_count(answer) -> Verdict:
    """How many of the decided judgments in :data:`JUDGMENTS` agree with precision's implied choice."""
    if unanswered(answer):
        return Verdict(False)
    agree, decided = _agreement_count()
    ok = close_to(answer, agree, 0)
    return report(ok, f"{agree} of the {decided} decided judgments agree with the metric ('prefer "
                      "neither' is dropped before kappa).",
                  "the metric implies the timeline with the higher precision; drop the 'prefer "
                  "neither' judgment first, then count the choices that match.")


def check_kappa_interval(answer) -> Verdict:
    """Cohen's kappa of :data:`KAPPA_TABLE` and its 95% interval, as ``(kappa, low, high)``."""
    from ...stats.agreement import cohens_kappa

    if unanswered(answer):
        return Verdict(False)
    (a, b), (c, d) = KAPPA_TABLE
    human = ["left"] * (a + b) + ["right"] * (c + d)
    metric = ["left"] * a + ["right"] * b + ["left"] * c + ["right"] * d
    k = cohens_kappa(human, metric)
    try:
        kappa, low, high = (float(x) for x in answer)
    except (TypeError, ValueError):
        return report(False, "", "give three numbers: (kappa, low, high).")
    ok = all(close_to(x, e, 0.005) for x, e in ((kappa, k.kappa), (low, k.low), (high, k.high)))
    hint = ("kappa = (p_o - p_e) / (1 - p_e) with p_e from the margins; check it first."
            if not close_to(kappa, k.kappa, 0.005) else
            "kappa is right; the interval is kappa -/+ 1.96 se with Fleiss, Cohen & Everitt's "
            "large-sample variance (docs/statistics.md), not the variance under kappa = 0.")
    return report(ok, f"kappa = {k.kappa:.3f}, se = {k.se:.3f}, 95% interval "
                      f"[{k.low:.3f}, {k.high:.3f}].", hint)


def check_significant_studies(answer, studies) -> Verdict:
    """In how many of the default model's simulated studies (``insensitive_share`` 0 in the
    notebook's ``anova_studies``) is the precision ANOVA significant at p < 0.05?"""
    if unanswered(answer):
        return Verdict(False)
    prec = studies[(studies.metric == "precision") & (studies.insensitive_share == 0)]
    hits = int((prec.p < 0.05).sum())
    return report(close_to(answer, hits, 0),
                  f"{hits} of {len(prec)}: one committed study cannot decide a claim about "
                  "significance; the share over studies can.",
                  "select the rows of the precision ANOVA with insensitive_share 0 and count p < 0.05.")
