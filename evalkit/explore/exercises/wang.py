"""Exercises on Wang, Sherman, Lin & Efron (SIGIR 2015) §3–4: ARI, rank swaps, assessor differences.

The explorer's (``explore_wang2015.ipynb``: :func:`check_ari`,
:func:`check_swap_tau`, :func:`check_lowest_ari_level`) and the chapter's
(``wang2015_assessor_differences.ipynb``: an ARI by hand, rank swaps and tau
by hand, the verdict over draws, what calibration can show).
"""

from __future__ import annotations

from .core import Verdict, close_to, report, unanswered

__all__ = ["ARI_EXAMPLE", "SWAP_EXAMPLE", "check_ari", "check_lowest_ari_level",
           "check_swap_tau", "lowest_ari_level",
           # the §3–4 chapter (wang2015_assessor_differences.ipynb)
           "TOPIC_CLUSTERS", "RUN_SCORES", "CALIBRATION_CHOICES", "check_topic_ari", "check_rank_swaps",
           "check_stable_draws", "check_calibration_meaning"]


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


def _levels_table(world, levels):
    """Mean ARI and smallest tau over metrics of the explorer at each level."""
    from .. import wang

    views = {lv: wang.compute(world, lv) for lv in levels}
    return {lv: (v.mean_ari, float(v.stability["tau"].min())) for lv, v in views.items()}


def lowest_ari_level(world, levels=(0.0, 0.5, 1.0, 2.0, 3.0)) -> float:
    """The level in ``levels`` at which the explorer's mean ARI is lowest."""
    table = _levels_table(world, levels)
    return min(levels, key=lambda lv: table[lv][0])


def _moves(a: float, b: float, flat: float = 0.02) -> str:
    return "stays about the same" if abs(b - a) < flat else "rises" if b > a else "falls"


def check_lowest_ari_level(answer, world=None, levels=(0.0, 0.5, 1.0, 2.0, 3.0)) -> Verdict:
    """Level (0, 0.5, 1, 2, 3) of the alternate assessor with the lowest mean ARI; the message
    says, from the explorer's own numbers, which way the smallest tau moves meanwhile."""
    if unanswered(answer):
        return Verdict(False)
    if world is None:
        from ...formats import trec
        from ... import paths
        from .. import wang

        world = wang.World(trec.read_qrels(paths.RAW / "ttg" / "qrels.txt"))
    table = _levels_table(world, levels)
    expected = min(levels, key=lambda lv: table[lv][0])
    first = min(levels)
    (ari0, tau0), (ari1, tau1) = table[first], table[expected]
    return report(close_to(answer, expected, 1e-9),
                   f"level {expected:g}: the more tweets the alternate re-judges, the less the "
                   f"clusterings agree (mean ARI {ari0:.3f} at level {first:g}, {ari1:.3f} at level "
                   f"{expected:g}). The smallest tau over metrics {_moves(tau0, tau1)} meanwhile "
                   f"({tau0:.3f} -> {tau1:.3f}): less agreement between the clusterings need not "
                   "mean a less stable ranking.",
                   "move the slider to 0, 0.5, 1, 2 and 3 and read the mean ARI.")


#: Seven tweets of one topic clustered by the two assessors (the chapter's ARI by hand).
TOPIC_CLUSTERS = ([["t1", "t2", "t3"], ["t4", "t5"], ["t6"], ["t7"]],
                  [["t1", "t2"], ["t3", "t4", "t5"], ["t6", "t7"]])


def check_topic_ari(answer) -> Verdict:
    """ARI between the official and alternate clusters of :data:`TOPIC_CLUSTERS`."""
    from ...stats.agreement import adjusted_rand_index

    if unanswered(answer):
        return Verdict(False)
    official, alternate = ({t: i for i, c in enumerate(cl) for t in c} for cl in TOPIC_CLUSTERS)
    tweets = sorted(official)
    expected = adjusted_rand_index([official[t] for t in tweets], [alternate[t] for t in tweets])
    return report(close_to(answer, expected, 0.001), f"ARI = {expected:.4f}.",
                  "build the 4 x 3 contingency table of cluster overlaps; index = sum of C(n_ij, 2), "
                  "a = sum of C(row sums, 2), b = sum of C(column sums, 2), expected = a b / C(7, 2), "
                  "ARI = (index - expected) / ((a + b) / 2 - expected).")


#: Six runs' weighted F1 under the official and the alternate clusters (the chapter's rank swaps).
RUN_SCORES = ([0.42, 0.38, 0.35, 0.31, 0.30, 0.22], [0.40, 0.41, 0.30, 0.33, 0.29, 0.25])


def check_rank_swaps(answer) -> Verdict:
    """Kendall's tau between the two rankings of :data:`RUN_SCORES` (no ties)."""
    from ...stats.rank_correlation import kendall_tau, rank_swaps

    if unanswered(answer):
        return Verdict(False)
    x, y = RUN_SCORES
    swaps, pairs = rank_swaps(x, y), len(x) * (len(x) - 1) // 2
    expected = kendall_tau(x, y).tau
    return report(close_to(answer, expected, 0.001),
                  f"{swaps} of {pairs} pairs swap, so tau = 1 - 2 x {swaps}/{pairs} = {expected:.3f}.",
                  f"a pair swaps when the two scores order it differently; count the swaps s among "
                  f"the {pairs} pairs, then tau = 1 - 2 s / {pairs} (no ties).")


def check_stable_draws(answer, draws) -> Verdict:
    """In how many of the whole worlds (``draws``: the notebook's ``worlds_draws``, rows ``default``) is
    tau >= :data:`~evalkit.papers.wang2015_assessor_differences.TAU_STABLE` for every metric?"""
    from ...declare.claims import verdict_over_draws
    from ...papers.wang2015_assessor_differences import TAU_STABLE

    if unanswered(answer):
        return Verdict(False)
    d = draws[draws["world"] == "default"]
    k, r = int((d["tau_min"] >= TAU_STABLE).sum()), len(d)
    lesson = ("every draw tells the same story here, which only the other draws could show"
              if k in (0, r) else "the committed draw alone could have told either story")
    return report(close_to(answer, k, 0), f"{k} of {r} draws: the claim's verdict is "
                  f"'{verdict_over_draws(k, r)}'; {lesson}.",
                  "filter worlds_draws to world == 'default' and count the rows whose tau_min is "
                  f"at least {TAU_STABLE:g} (the workspace's threshold: the paper names none).")


#: The calibration exercise's options; the right one is computed from their wording below.
CALIBRATION_CHOICES = {
    "a": "it confirms the paper's finding that assessors disagree substantially",
    "b": "it shows the simulator was tuned well; it is no evidence for or against the paper",
    "c": "it shows the paper's rankings are stable",
}


def check_calibration_meaning(answer) -> Verdict:
    """What does the simulated mean ARI's agreement with the paper's 0.445 show? (a, b or c)"""
    if unanswered(answer):
        return Verdict(False)
    expected = next(k for k, v in CALIBRATION_CHOICES.items() if "tuned" in v)
    return report(str(answer).strip().lower() == expected,
                  f"({expected}) {CALIBRATION_CHOICES[expected]}: the simulator's disagreement was "
                  "set so that the ARI matches, so the match cannot count as a finding (its claims "
                  "rows are of kind 'calibration' and are not counted).",
                  "ask where the simulated ARI comes from: was it measured on real assessors, "
                  "or chosen?")
