"""Exercises on Kim, Zhai & Han (ECIR 2010): orderings, noise and evaluation discriminativeness."""

from __future__ import annotations

import math

from .core import Verdict, close_to, report, unanswered

__all__ = ["KENDALL_EXAMPLE", "best_method", "check_best_method_at_full_noise",
           "check_dilution", "check_kendall_orderings"]


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
