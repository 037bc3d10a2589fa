"""Exercises of ``notebooks/few_human_labels.ipynb`` (few human labels, many LLM labels).

* :func:`check_ppi_estimate` — the prediction-powered mean (lambda = 1) of one run by hand;
* :func:`check_worth_topics` — how many human topics a judge's PPI++ interval is worth;
* :func:`check_best_strategy` — which way of scoring shallow-pool holes keeps the
  leaderboard best at depth 10.
"""

from __future__ import annotations

import numpy as np

from .core import Verdict, close_to, report, unanswered

__all__ = ["check_ppi_estimate", "check_worth_topics", "check_best_strategy"]


def check_ppi_estimate(answer, human, llm_labelled, llm_unlabelled) -> Verdict:
    """PPI's estimate (lambda = 1): the LLM's mean over the unlabelled topics plus the mean
    human-minus-LLM difference on the labelled ones (Angelopoulos et al. 2023; computed by
    :func:`evalkit.stats.prediction_powered.prediction_powered_mean`)."""
    from ...stats.prediction_powered import prediction_powered_mean

    if unanswered(answer):
        return Verdict(False)
    expected = float(prediction_powered_mean(np.asarray(human, float),
                                             np.asarray(llm_labelled, float),
                                             np.asarray(llm_unlabelled, float), 1.0).estimate)
    return report(close_to(answer, expected, 5e-4),
                  f"{expected:.4f}: the LLM's mean on the unlabelled topics, corrected by the "
                  "mean human-minus-LLM difference on the labelled ones (the rectifier).",
                  "take the mean of the LLM's scores on the unlabelled topics, then add the "
                  "mean of (human - LLM) over the labelled topics.")


def worth_topics(widths, judge: str, n: int) -> float:
    """``n / ratio^2``: the human topics a classical interval as narrow as ``judge``'s PPI++
    interval at ``n`` human topics needs (widths shrink as 1 / sqrt(n))."""
    row = widths[(widths["judge"] == judge) & (widths["n"] == n) & (widths["method"] == "ppi++")]
    return float(n / row["width_ratio"].iloc[0] ** 2)


def check_worth_topics(answer, widths, judge: str, n: int = 10) -> Verdict:
    """Human topics ``judge``'s PPI++ interval at ``n`` human topics is worth, to one decimal."""
    if unanswered(answer):
        return Verdict(False)
    expected = worth_topics(widths, judge, n)
    return report(close_to(answer, expected, 0.05),
                  f"{n} / ratio^2 = {expected:.1f} human topics: the LLM labels on the other "
                  "topics add what the extra human topics would (as long as the assumption of "
                  "randomly chosen human topics holds).",
                  "a classical interval's width goes as 1 / sqrt(n); solve "
                  "ratio = sqrt(n / n') for n'.")


def check_best_strategy(answer, summary, depth: int = 10) -> Verdict:
    """The strategy with the highest Kendall's tau (all runs) at ``depth``."""
    if unanswered(answer):
        return Verdict(False)
    part = summary[summary["depth"] == depth].sort_values("tau", ascending=False, kind="stable")
    best = part["strategy"].iloc[0]
    return report(str(answer).strip() == best,
                  f"{best} (tau {part['tau'].iloc[0]:.3f}); but look at the shifts too: a "
                  "strategy can keep the order of the runs and still move every score.",
                  "read the pool_depth table's tau column at this depth.")
