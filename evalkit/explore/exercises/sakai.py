"""Exercises on Sakai (EVIA 2017): unanimity-aware gain, and the HSD discrepancies it causes."""

from __future__ import annotations

import numpy as np

from .core import Verdict, close_to, report, unanswered

__all__ = ["check_first_n_without_discrepancies", "check_ug_item", "check_unanimous_share",
           "first_n_without_discrepancies", "unanimous_share"]


def check_ug_item(answer, ratings: str = "11233", dmax: int = 3, p: float = 0.2) -> Verdict:
    """UG (Eq. 2) of one item of Table 1 (default: item 2, ratings 1,1,2,3,3)."""
    from ...measures import gains

    if unanswered(answer):
        return Verdict(False)
    r = np.array([[int(c) for c in ratings]])
    expected = float(gains.unanimity_gain(r, dmax, p)[0])
    return report(close_to(answer, expected, 1e-9),
                   f"UG = RawG + p N (Dmax - D) = {expected:g}.",
                   "RawG is the sum of the ratings, D = max - min, N the number of ratings; "
                   "UG = RawG + p N (Dmax - D).")


def unanimous_share(agreement: float, n: int, dmax: int) -> float:
    """P(all N ratings equal) under :func:`~evalkit.simulate.latent_ratings.simulate_agreeing_ratings`.

    Each rating equals the latent grade with probability ``a + (1 - a)/(Dmax + 1)`` and any
    given other value with ``(1 - a)/(Dmax + 1)``, independently given the latent grade.
    """
    levels = dmax + 1
    other = (1 - agreement) / levels
    return (agreement + other) ** n + (levels - 1) * other ** n


def check_unanimous_share(answer, agreement: float = 0.5, n: int = 5, dmax: int = 3) -> Verdict:
    """Share of relevant items rated unanimously (D = 0) at a given agreement."""
    if unanswered(answer):
        return Verdict(False)
    expected = unanimous_share(agreement, n, dmax)
    return report(close_to(answer, expected, 0.002),
                   f"{expected:.4f}: (a + (1-a)/(Dmax+1))^N for the latent grade plus Dmax "
                   f"times ((1-a)/(Dmax+1))^N for the other values.",
                   "all N ratings equal either the latent grade (each with probability "
                   "a + (1-a)/(Dmax+1)) or one of the Dmax other values (each (1-a)/(Dmax+1)).")


def first_n_without_discrepancies(collection, ns=(5, 10, 20, 40, 80), **values) -> int | None:
    """The smallest N in ``ns`` at which no measure has an HSD discrepancy (None if none)."""
    from ...papers import sakai2017_unanimity_gain as paper
    from .. import sakai

    best = paper.best_runs(collection)
    for n in ns:
        view = sakai.compute(collection, n=n, best=best, **values)
        if int(view.hsd["discrepancies"].sum()) == 0:
            return n
    return None


def check_first_n_without_discrepancies(answer, collection=None, **values) -> Verdict:
    """Smallest N in 5, 10, 20, 40, 80 without any RawG/UG discrepancy (Dmax 3, p 0.2)."""
    from ...papers import sakai2017_unanimity_gain as paper
    from ... import paths

    if unanswered(answer):
        return Verdict(False)
    collection = collection or paper.load_collection(paths.RAW / "stc")
    expected = first_n_without_discrepancies(collection, **values)
    return report(answer == expected,
                   f"N = {expected}: with more assessors the spread D matters less next to RawG.",
                   "set Dmax = 3, p = 0.2, agreement = 0 and try N = 5, 10, 20, 40, 80 in turn; "
                   "read the discrepancy column.")
