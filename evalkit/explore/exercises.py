"""The explorer notebooks' exercises: each ``check_<name>(answer)`` prints whether it is right.

Every check computes the expected answer itself, from the same evalkit
functions the notebooks use (never a typed-in number), prints "Right" with a
one-line explanation or "Not yet" with a hint, and returns ``True`` or
``False`` (as a :class:`Verdict`, which a notebook does not echo).  ``None``
(the answer cells' starting value) prints a reminder.
Tests (``tests/explore/test_exercises.py``) run every notebook solution and a
wrong answer through its check.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "Verdict",
    "best_method",
    "check_ari",
    "check_best_method_at_full_noise",
    "check_dilution",
    "check_first_n_without_discrepancies",
    "check_kendall_orderings",
    "check_lowest_ari_level",
    "check_swap_tau",
    "check_ug_item",
    "check_unanimous_share",
    "first_n_without_discrepancies",
    "lowest_ari_level",
    "unanimous_share",
]


class Verdict:
    """A check's result: true when the answer is right; a notebook shows only the printed text."""

    def __init__(self, ok: bool):
        self.ok = bool(ok)

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return f"Verdict({self.ok})"

    def _ipython_display_(self) -> None:   # the message is already printed: no Out[] echo
        pass


def _report(ok: bool, right: str, hint: str) -> Verdict:
    print(f"Right. {right}" if ok else f"Not yet. Hint: {hint}")
    return Verdict(ok)


def _number(answer, expected: float, tolerance: float) -> bool:
    try:
        return math.isfinite(float(answer)) and abs(float(answer) - expected) <= tolerance
    except (TypeError, ValueError):
        return False


def _unanswered(answer) -> bool:
    if answer is None:
        print("Not answered yet: replace None with your answer and run the cell again.")
        return True
    return False


# -- Sakai (EVIA 2017) ---------------------------------------------------------------

def check_ug_item(answer, ratings: str = "11233", dmax: int = 3, p: float = 0.2) -> Verdict:
    """UG (Eq. 2) of one item of Table 1 (default: item 2, ratings 1,1,2,3,3)."""
    from ..measures import gains

    if _unanswered(answer):
        return Verdict(False)
    r = np.array([[int(c) for c in ratings]])
    expected = float(gains.unanimity_gain(r, dmax, p)[0])
    return _report(_number(answer, expected, 1e-9),
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
    if _unanswered(answer):
        return Verdict(False)
    expected = unanimous_share(agreement, n, dmax)
    return _report(_number(answer, expected, 0.002),
                   f"{expected:.4f}: (a + (1-a)/(Dmax+1))^N for the latent grade plus Dmax "
                   f"times ((1-a)/(Dmax+1))^N for the other values.",
                   "all N ratings equal either the latent grade (each with probability "
                   "a + (1-a)/(Dmax+1)) or one of the Dmax other values (each (1-a)/(Dmax+1)).")


def first_n_without_discrepancies(collection, ns=(5, 10, 20, 40, 80), **values) -> int | None:
    """The smallest N in ``ns`` at which no measure has an HSD discrepancy (None if none)."""
    from ..papers import sakai2017_unanimity_gain as paper
    from . import sakai

    best = paper.best_runs(collection)
    for n in ns:
        view = sakai.compute(collection, n=n, best=best, **values)
        if int(view.hsd["discrepancies"].sum()) == 0:
            return n
    return None


def check_first_n_without_discrepancies(answer, collection=None, **values) -> Verdict:
    """Smallest N in 5, 10, 20, 40, 80 without any RawG/UG discrepancy (Dmax 3, p 0.2)."""
    from ..papers import sakai2017_unanimity_gain as paper
    from .. import paths

    if _unanswered(answer):
        return Verdict(False)
    collection = collection or paper.load_collection(paths.RAW / "stc")
    expected = first_n_without_discrepancies(collection, **values)
    return _report(answer == expected,
                   f"N = {expected}: with more assessors the spread D matters less next to RawG.",
                   "set Dmax = 3, p = 0.2, agreement = 0 and try N = 5, 10, 20, 40, 80 in turn; "
                   "read the discrepancy column.")


# -- Wang et al. (SIGIR 2015) --------------------------------------------------------

ARI_EXAMPLE = ({"a": 0, "b": 0, "c": 0, "d": 1, "e": 1, "f": 1},
               {"a": 0, "b": 0, "c": 1, "d": 1, "e": 1, "f": 1})


def check_ari(answer) -> Verdict:
    """ARI of the two clusterings of six tweets in :data:`ARI_EXAMPLE`."""
    from ..stats.agreement import adjusted_rand_index

    if _unanswered(answer):
        return Verdict(False)
    a, b = ARI_EXAMPLE
    expected = adjusted_rand_index([a[k] for k in sorted(a)], [b[k] for k in sorted(a)])
    return _report(_number(answer, expected, 0.001), f"ARI = {expected:.4f}.",
                   "count the pairs together in both clusterings (sum of C(n_ij, 2) over the "
                   "contingency table), then ARI = (index - expected) / (max - expected).")


SWAP_EXAMPLE = ([0.30, 0.50, 0.40, 0.20, 0.60], [0.35, 0.45, 0.50, 0.10, 0.40])


def check_swap_tau(answer) -> Verdict:
    """Kendall's tau between the official and alternate scores of :data:`SWAP_EXAMPLE`."""
    from ..stats.rank_correlation import kendall_tau, rank_swaps

    if _unanswered(answer):
        return Verdict(False)
    x, y = SWAP_EXAMPLE
    expected = kendall_tau(x, y).tau
    swaps = rank_swaps(x, y)
    return _report(_number(answer, expected, 0.001),
                   f"{swaps} of 10 pairs swap, so tau = 1 - 2 x {swaps}/10 = {expected:.2f}.",
                   "count the swapped pairs s among the n(n-1)/2 = 10; without ties "
                   "tau = 1 - 2 s / 10.")


def lowest_ari_level(world, levels=(0.0, 0.5, 1.0, 2.0, 3.0)) -> float:
    """The level in ``levels`` at which the explorer's mean ARI is lowest."""
    from . import wang

    return min(levels, key=lambda lv: wang.compute(world, lv).mean_ari)


def check_lowest_ari_level(answer, world=None) -> Verdict:
    """Level (0, 0.5, 1, 2, 3) of the alternate assessor with the lowest mean ARI."""
    if _unanswered(answer):
        return Verdict(False)
    if world is None:
        from ..formats import trec
        from .. import paths
        from . import wang

        world = wang.World(trec.read_qrels(paths.RAW / "ttg" / "qrels.txt"))
    expected = lowest_ari_level(world)
    return _report(_number(answer, expected, 1e-9),
                   f"level {expected:g}: the more tweets the alternate re-judges, the less the "
                   "clusterings agree -- yet watch how little tau moves.",
                   "move the slider to 0, 0.5, 1, 2 and 3 and read the mean ARI.")


# -- Kim, Zhai & Han (ECIR 2010) -----------------------------------------------------

def check_dilution(answer, clean_ed: float = 0.45, n: int = 10, ratio: float = 0.5) -> Verdict:
    """AC-tau's ED after adding round(n r) random orderings, by the dilution formula."""
    if _unanswered(answer):
        return Verdict(False)
    m = math.floor(n * ratio + 0.5)
    expected = clean_ed * (n - 1) / (n - 1 + m) * n / (n + m)
    return _report(_number(answer, expected, 0.001),
                   f"{clean_ed:g} x {n - 1}/{n - 1 + m} x {n}/{n + m} = {expected:.4f}: random "
                   "orderings add weight but no agreement.",
                   "m = round(n r) noise orderings join; each held-out ordering is averaged over "
                   "n - 1 + m others instead of n - 1, and ED averages over n + m held-out "
                   "orderings, of which the noisy ones score 0 on average.")


KENDALL_EXAMPLE = (("a", "b", "c", "d"), ("b", "a", "d", "c"))


def check_kendall_orderings(answer) -> Verdict:
    """Kendall's tau between the two orderings of :data:`KENDALL_EXAMPLE`."""
    from ..measures.aggregation import kendall

    if _unanswered(answer):
        return Verdict(False)
    expected = kendall(*KENDALL_EXAMPLE)
    return _report(_number(answer, expected, 0.001),
                   f"2 of 6 pairs are discordant: tau = (4 - 2)/6 = {expected:.4f}.",
                   "list the 6 pairs of items and count those the two orderings put in "
                   "opposite order.")


def best_method(engines, noise_ratio: float = 1.0, **values) -> str:
    """The method with the highest ED in the explorer at ``noise_ratio``."""
    from . import kim

    ed = kim.compute(engines, noise_ratio, **values).ed
    return str(ed.loc[ed["ED"].idxmax(), "method"])


def check_best_method_at_full_noise(answer, engines=None, **values) -> Verdict:
    """Which of the seven methods has the highest ED at noise ratio 1 (default FreSPA)?"""
    if _unanswered(answer):
        return Verdict(False)
    if engines is None:
        from ..formats.orderings import read_orderings
        from .. import paths
        from . import kim

        engines = kim.Engines(read_orderings(paths.RAW / "ordering" / "judgments.csv"))
    from .kim import published_row

    expected = best_method(engines, **values)
    row = published_row(1.0) or {}
    top = max(row, key=row.get) if row else None
    verdict = ("the same as the paper's Table 1 at r = 1" if top == expected else
               f"the paper's Table 1 has {top} first at r = 1: the simulated judgments do not "
               "reproduce that ranking under heavy noise")
    return _report(str(answer).strip().lower() == expected, f"{expected}: {verdict}.",
                   "set the noise ratio to 1 and read the tallest bar (names as in the table, "
                   "e.g. 'rba-sp').")
