"""Exercises on Wang, Sherman, Lin & Efron (SIGIR 2015): ARI, rank swaps, assessor differences."""

from __future__ import annotations

from .core import Verdict, close_to, report, unanswered

__all__ = ["ARI_EXAMPLE", "SWAP_EXAMPLE", "check_ari", "check_lowest_ari_level",
           "check_swap_tau", "lowest_ari_level"]


ARI_EXAMPLE = ({"a": 0, "b": 0, "c": 0, "d": 1, "e": 1, "f": 1},
               {"a": 0, "b": 0, "c": 1, "d": 1, "e": 1, "f": 1})


def check_ari(answer) -> Verdict:
    """ARI of the two clusterings of six tweets in :data:`ARI_EXAMPLE`."""
    from ...stats.agreement import adjusted_rand_index

    if unanswered(answer):
        return Verdict(False)
    a, b = ARI_EXAMPLE
    expected = adjusted_rand_index([a[k] for k in sorted(a)], [b[k] for k in sorted(a)])
    return report(close_to(answer, expected, 0.001), f"ARI = {expected:.4f}.",
                   "count the pairs together in both clusterings (sum of C(n_ij, 2) over the "
                   "contingency table), then ARI = (index - expected) / (max - expected).")


SWAP_EXAMPLE = ([0.30, 0.50, 0.40, 0.20, 0.60], [0.35, 0.45, 0.50, 0.10, 0.40])


def check_swap_tau(answer) -> Verdict:
    """Kendall's tau between the official and alternate scores of :data:`SWAP_EXAMPLE`."""
    from ...stats.rank_correlation import kendall_tau, rank_swaps

    if unanswered(answer):
        return Verdict(False)
    x, y = SWAP_EXAMPLE
    expected = kendall_tau(x, y).tau
    swaps = rank_swaps(x, y)
    return report(close_to(answer, expected, 0.001),
                   f"{swaps} of 10 pairs swap, so tau = 1 - 2 x {swaps}/10 = {expected:.2f}.",
                   "count the swapped pairs s among the n(n-1)/2 = 10; without ties "
                   "tau = 1 - 2 s / 10.")


def lowest_ari_level(world, levels=(0.0, 0.5, 1.0, 2.0, 3.0)) -> float:
    """The level in ``levels`` at which the explorer's mean ARI is lowest."""
    from .. import wang

    return min(levels, key=lambda lv: wang.compute(world, lv).mean_ari)


def check_lowest_ari_level(answer, world=None) -> Verdict:
    """Level (0, 0.5, 1, 2, 3) of the alternate assessor with the lowest mean ARI."""
    if unanswered(answer):
        return Verdict(False)
    if world is None:
        from ...formats import trec
        from ... import paths
        from .. import wang

        world = wang.World(trec.read_qrels(paths.RAW / "ttg" / "qrels.txt"))
    expected = lowest_ari_level(world)
    return report(close_to(answer, expected, 1e-9),
                   f"level {expected:g}: the more tweets the alternate re-judges, the less the "
                   "clusterings agree -- yet watch how little tau moves.",
                   "move the slider to 0, 0.5, 1, 2 and 3 and read the mean ARI.")
