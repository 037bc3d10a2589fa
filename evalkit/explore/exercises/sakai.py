"""Exercises on Sakai (EVIA 2017): unanimity-aware gain, and the HSD discrepancies it causes."""

from __future__ import annotations

import numpy as np

from .core import Verdict, close_to, report, unanswered

__all__ = ["check_first_n_without_discrepancies", "check_ug_item", "check_unanimous_share",
           "first_n_without_discrepancies", "unanimous_share", "HSD_SCORES", "HSD_PERMUTATION",
           "hsd_trial_range", "check_hsd_trial_range", "draws_with_discrepancies",
           "check_draws_with_discrepancies"]

#: A tiny randomised Tukey HSD by hand (Sakai 2017 §5): 4 topics (rows) x 3 systems A, B, C.
HSD_SCORES = ((0.6, 0.4, 0.2),
              (0.8, 0.5, 0.5),
              (0.4, 0.4, 0.1),
              (0.7, 0.3, 0.4))
#: One trial's permutation of each topic row: row t of the permuted matrix is
#: ``HSD_SCORES[t][HSD_PERMUTATION[t][j]]`` for j = 0, 1, 2.
HSD_PERMUTATION = ((2, 0, 1), (1, 0, 2), (0, 2, 1), (1, 2, 0))


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


def hsd_trial_range(scores=HSD_SCORES, permutation=HSD_PERMUTATION) -> float:
    """One trial of the randomised Tukey HSD: permute each topic row, then max - min of the
    system means (the null range the test compares every observed |d| with)."""
    x = np.asarray(scores, float)
    permuted = np.take_along_axis(x, np.asarray(permutation), axis=1)
    means = permuted.mean(axis=0)
    return float(means.max() - means.min())


def check_hsd_trial_range(answer, scores=HSD_SCORES, permutation=HSD_PERMUTATION) -> Verdict:
    """The range statistic of one randomised-HSD trial on the tiny matrix, by hand."""
    if unanswered(answer):
        return Verdict(False)
    expected = hsd_trial_range(scores, permutation)
    x = np.asarray(scores, float).mean(axis=0)
    observed = abs(x[0] - x[1])
    reached = "reaches" if expected >= observed else "does not reach"
    return report(close_to(answer, expected, 5e-4),
                  f"range = max - min of the permuted means = {expected:.3f}; it {reached} the "
                  f"observed |d| of A and B ({observed:.3f}), so this trial "
                  f"{'counts' if expected >= observed else 'does not count'} towards that "
                  "pair's p-value.",
                  "put row t's scores in the order the permutation gives, average each column "
                  "over the 4 topics, and subtract the smallest mean from the largest.")


def draws_with_discrepancies(reps, ns=(40, 80)) -> int:
    """How many rating draws (replications) have at least one discrepancy at an N in ``ns``."""
    big = reps[reps["N"].isin(ns)]
    return int((big.groupby("replication")["discrepancies"].sum() > 0).sum())


def check_draws_with_discrepancies(answer, reps, ns=(40, 80)) -> Verdict:
    """Variation between draws: in how many draws is there a discrepancy at N = 40 or 80?"""
    if unanswered(answer):
        return Verdict(False)
    expected = draws_with_discrepancies(reps, ns)
    total = reps["replication"].nunique()
    ok = not isinstance(answer, bool) and close_to(answer, expected, 0)
    return report(ok,
                  f"{expected} of {total} draws have at least one discrepancy at N = "
                  f"{' or '.join(map(str, ns))}; a single draw, like the paper's, shows only one "
                  "of these outcomes.",
                  "keep the rows with N in (40, 80), add up the discrepancies per replication, "
                  "and count the replications whose sum is above 0.")
