"""Exercises on the LLMJudge 2024 labels (``notebooks/llmjudge2024.ipynb``).

* :func:`check_binary_alpha` — Krippendorff's alpha of two raters from a 2 x 2 table by hand
  (what the organisers' "kappa" columns hold);
* :func:`check_worse_than_top` — how many judges the randomised Tukey HSD finds worse than
  the top one (reading a pairs table);
* :func:`check_item_ug` — Sakai's UG of one item from its 33 LLM grades (Dmax = 3).
"""

from __future__ import annotations

import numpy as np

from .core import Verdict, close_to, report, unanswered

__all__ = ["binary_alpha", "check_binary_alpha", "worse_than_top", "check_worse_than_top",
           "check_item_ug"]


def binary_alpha(table) -> float:
    """Krippendorff's alpha of two raters from their 2 x 2 table ``[[n00, n01], [n10, n11]]``.

    Rows: rater A's value, columns: rater B's.  With ``n`` items the ``2n``
    values pool into ``n_0`` zeros and ``n_1`` ones; the observed
    disagreement is ``D_o = (n01 + n10) / n`` and the expected one
    ``D_e = 2 n_0 n_1 / (2n (2n - 1))``; alpha = 1 - D_o / D_e
    (Krippendorff 2011, the nominal metric; computed by the library's
    :func:`evalkit.stats.confusion_agreement.alpha_from_confusion`).
    """
    from ...stats.confusion_agreement import alpha_from_confusion

    return float(alpha_from_confusion(np.asarray(table, dtype=float), np.array([0, 1]), "nominal"))


def check_binary_alpha(answer, table) -> Verdict:
    """Alpha of the binary labels from their 2 x 2 table, to three decimals."""
    if unanswered(answer):
        return Verdict(False)
    expected = binary_alpha(table)
    t = np.asarray(table, dtype=float)
    n = t.sum()
    return report(close_to(answer, expected, 5e-4),
                  f"alpha = 1 - D_o / D_e = {expected:.6f}: the organisers' 'kappa' for this "
                  f"judge and cut. (Cohen's kappa of the same table takes each rater's own "
                  "shares for chance, not the pooled ones.)",
                  f"n = {n:g} items, so 2n = {2 * n:g} values: count the zeros n_0 and ones n_1 "
                  "over both raters, then D_o = (off-diagonal cells) / n and "
                  "D_e = 2 n_0 n_1 / (2n (2n - 1)); alpha = 1 - D_o / D_e.")


def worse_than_top(systems, pairs) -> tuple[str, int]:
    """``(top judge, how many judges the HSD finds significantly worse than it)``."""
    top = systems.sort_values("mean").iloc[-1]["system"]
    mine = pairs[(pairs["system_a"] == top) | (pairs["system_b"] == top)]
    return top, int(mine["significant"].sum())


def check_worse_than_top(answer, systems, pairs) -> Verdict:
    """Judges significantly worse than the judge with the highest mean per-topic alpha."""
    if unanswered(answer):
        return Verdict(False)
    top, k = worse_than_top(systems, pairs)
    others = len(systems) - 1
    return report(close_to(answer, k, 0),
                  f"{k} of the other {others} judges are significantly worse than {top}; "
                  f"the other {others - k} cannot be told apart from it over these topics.",
                  "find the judge with the highest mean, take the pairs rows where it is "
                  "system_a or system_b, and count those marked significant.")


def check_item_ug(answer, grades, p: float = 0.2, dmax: int = 3) -> Verdict:
    """UG = RawG + p N (Dmax - D) of one item from its N LLM grades (0 when RawG = 0)."""
    from ...measures import gains

    if unanswered(answer):
        return Verdict(False)
    row = np.asarray(grades, dtype=float).reshape(1, -1)
    expected = float(gains.unanimity_gain(row, dmax, p)[0])
    return report(close_to(answer, expected, 1e-9),
                  f"UG = RawG + p N (Dmax - D) = {expected:g}.",
                  f"RawG is the sum of the {row.shape[1]} grades, D their max minus their min, "
                  f"N = {row.shape[1]} and Dmax = {dmax}; UG = RawG + p N (Dmax - D), or 0 when "
                  "RawG = 0.")
