"""Can this judge replace that one?  Tests between judges: ``pairs.csv`` of ``evalkit agreement``.

``docs/agreement.md``, "Tests between judges".  Every pair of judges (a, b)
is compared on one statistic of ``agreement.csv`` (``--order-by``, e.g.
ordinal alpha), each judge measured against the reference (or the others
pooled), on the items both judges graded and the reference graded:

* ``difference`` = value(a) - value(b) on those items;
* ``ci_low``, ``ci_high``: the paired topic bootstrap's percentile interval
  (the same resampled topics for both judges; the same resamples as the
  intervals of ``agreement.csv``);
* ``p_value``: the paired randomisation test over topics (each topic's labels
  of a and b swapped with probability 1/2 in each trial), two-sided,
  ``(#{|diff*| >= |diff|} + 1) / (B + 1)``; ``p_holm``: Holm's step-down
  adjustment over all pairs (:func:`evalkit.stats.pairwise._holm`, equal to
  statsmodels' ``multipletests(method="holm")`` bit for bit, tested).

Both resamplings are weighted sums of per-topic confusion matrices
(:mod:`evalkit.stats.paired_agreement`).  With ``test="hsd"`` the pairs come
instead from the randomised Tukey HSD over the judges' per-topic values
(:func:`evalkit.stats.pairwise.hsd_pairs`): the mean per-topic difference,
the HSD's simultaneous interval and its p-value, which holds the familywise
error by itself (``p_holm`` repeats it).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...errors import InputError, ParameterError
from ...stats.confusion_agreement import percentile_interval, topic_bootstrap
from ...stats.paired_agreement import paired_differences, randomisation_p_values, statistic_code
from .grid import LabelGrid, as_grid
from .tables import statistic_parts, statistic_value

__all__ = ["PAIR_COLUMNS", "PAIR_TESTS", "MAX_JUDGES_FOR_PAIRS", "pairs_table", "pair_stack",
           "indistinguishable_from", "holm_floor", "trials_needed"]

#: The columns of ``pairs.csv``.
PAIR_COLUMNS = ["judge_a", "judge_b", "statistic", "difference", "ci_low", "ci_high", "p_value",
                "p_holm"]
#: ``--test``: the paired randomisation test (default) or the randomised Tukey HSD.
PAIR_TESTS = ("permutation", "hsd")
#: ``--pairs`` is on by default up to this many judges (780 pairs).
MAX_JUDGES_FOR_PAIRS = 40


def _restricted(grid: LabelGrid, reference: str | None, j: int, items: np.ndarray,
                grade_counts: np.ndarray | None) -> np.ndarray:
    """Judge ``j``'s per-topic confusion matrices ``(T, K, K)`` on ``items`` (a mask) alone;
    pooled, ``grade_counts`` is :meth:`LabelGrid.grade_counts` of every judge."""
    n_t, k = len(grid.topics), len(grid.values)
    at = np.flatnonzero(items)
    t, own = grid.topic_code[at], grid.grid[at, j]
    if reference is not None:
        ref = grid.grid[at, grid.index(reference)]
        flat = (t * k + ref) * k + own
        return np.bincount(flat, minlength=n_t * k * k).astype(float).reshape(n_t, k, k)
    others = grade_counts[at]
    others[np.arange(len(at)), own] -= 1.0                             # not against itself
    flat = (t[:, None] * k + np.arange(k)[None, :]) * k + own[:, None]
    return np.bincount(flat.ravel(), weights=others.ravel(), minlength=n_t * k * k).reshape(n_t, k, k)


def pair_stack(labels, reference: str | None, judges: list[str]):
    """``(stack, ia, ib, a, b)``: per-topic confusion matrices ``stack (Q, T, K, K)`` and, for
    every pair ``(judges[a[p]], judges[b[p]])``, ``a[p] < b[p]``, the matrices of each judge on
    the items both graded (and the reference graded): ``stack[ia[p]]``, ``stack[ib[p]]``.

    A judge whose items are all graded by the other judge of the pair keeps its own
    matrices (``ia[p] = a[p]``), so judges that graded the same items cost no extra matrix.
    """
    grid = as_grid(labels)
    cols = [grid.judges.index(j) for j in judges]
    per_topic, _ = grid.confusions(reference)
    compared = grid.compared(reference)
    counts = compared.sum(axis=0)
    mats = [per_topic[:, c] for c in cols]
    grade_counts = grid.grade_counts() if reference is None else None
    a, b = np.triu_indices(len(cols), k=1)
    ia, ib = a.copy(), b.copy()
    for p, (x, y) in enumerate(zip(a, b)):
        both = compared[:, cols[x]] & compared[:, cols[y]]
        n = int(both.sum())
        for pos, side in ((x, ia), (y, ib)):
            if n != counts[cols[pos]]:
                mats.append(_restricted(grid, reference, cols[pos], both, grade_counts))
                side[p] = len(mats) - 1
    return np.stack(mats), ia, ib, a, b


def _holm_defined(p: np.ndarray) -> np.ndarray:
    from ...stats.pairwise import _holm

    out = np.full_like(p, np.nan)
    ok = np.isfinite(p)
    if ok.any():
        out[ok] = _holm(p[ok])
    return out


def pairs_table(labels, reference: str | None, statistic: str, judges: list[str],
                bootstrap: int = 1000, trials: int = 5000, seed=0, test: str = "permutation",
                alpha: float = 0.05) -> tuple[pd.DataFrame, list[str]]:
    """``(pairs, notes)``: ``pairs.csv`` (module docstring) for every pair of ``judges`` (names,
    in the order given: pair ``(judges[i], judges[k])`` for ``i < k``), on ``statistic``.

    ``bootstrap``: replicates of the paired topic bootstrap (``topic_bootstrap(T, B, seed)``,
    the resamples of ``agreement.csv``; 0: no interval), interval level ``1 - alpha``;
    ``trials``: swaps of the randomisation test (:func:`evalkit.stats.paired_agreement.topic_swaps`
    from ``seed``) or HSD trials.
    """
    if test not in PAIR_TESTS:
        raise ParameterError("test", test, " or ".join(PAIR_TESTS))
    if isinstance(alpha, bool) or not 0 < alpha < 1:
        raise ParameterError("alpha", alpha, "a number in (0, 1)")
    grid = as_grid(labels)
    if len(judges) < 2:
        raise InputError("tests between judges need two judges besides the reference")
    notes: list[str] = []
    if test == "hsd":
        frame, notes = _hsd(grid, reference, statistic, judges, trials, seed, alpha)
    else:
        stack, ia, ib, a, b = pair_stack(grid, reference, judges)
        value = statistic_value(statistic, stack.sum(axis=1), grid.values)          # (Q,)
        family, kind, reduced, values = statistic_parts(statistic, stack, grid.values)
        code, w = statistic_code(family, kind, values)
        _, p = randomisation_p_values(reduced, ia, ib, code, w, trials, seed)
        low = high = np.full(len(a), np.nan)
        if bootstrap:
            weights = topic_bootstrap(stack.shape[1], int(bootstrap), seed).astype(float)
            star = paired_differences(reduced, ia, ib, weights, 0.0 * weights, code, w)
            low, high = percentile_interval(star, 1.0 - alpha)
        frame = pd.DataFrame({"judge_a": [judges[i] for i in a], "judge_b": [judges[i] for i in b],
                              "statistic": statistic, "difference": value[ia] - value[ib],
                              "ci_low": low, "ci_high": high, "p_value": p,
                              "p_holm": _holm_defined(p)})
    frame.attrs.update(test=test, trials=int(trials), bootstrap=int(bootstrap), seed=seed,
                       alpha=float(alpha), statistic=statistic)
    return frame[PAIR_COLUMNS], notes


def _hsd(grid: LabelGrid, reference, statistic, judges, trials, seed, alpha):
    from ...stats.pairwise import hsd_pairs

    per_topic, _ = grid.confusions(reference)
    cols = [grid.judges.index(j) for j in judges]
    values = statistic_value(statistic, per_topic[:, cols], grid.values)           # (T, J)
    ok = np.isfinite(values).all(axis=1)
    notes = []
    if not ok.all():
        gone = np.asarray(grid.topics, dtype=object)[~ok]
        notes.append(f"--test hsd: {len(gone)} of {len(ok)} topics left out, where {statistic} is "
                     "undefined for some judge: " + ", ".join(map(str, gone[:10]))
                     + (" ..." if len(gone) > 10 else ""))
    if ok.sum() < 2:
        raise InputError(f"--test hsd needs two topics or more where every judge's {statistic} "
                         f"is defined; {int(ok.sum())} here", hint="use --test permutation")
    table = hsd_pairs(pd.DataFrame(values[ok], columns=list(judges)), trials, seed, alpha)
    frame = pd.DataFrame({"judge_a": table["system_a"], "judge_b": table["system_b"],
                          "statistic": statistic, "difference": table["diff"],
                          "ci_low": table["ci_low"], "ci_high": table["ci_high"],
                          "p_value": table["p_value"], "p_holm": table["p_value"]})
    return frame, notes


def indistinguishable_from(pairs: pd.DataFrame, judge: str, alpha: float) -> list[str]:
    """The judges whose pair with ``judge`` is not significant (``p_holm >= alpha``)."""
    mine = pairs[(pairs["judge_a"] == judge) | (pairs["judge_b"] == judge)]
    same = mine[mine["p_holm"] >= alpha]
    return [b if a == judge else a for a, b in zip(same["judge_a"], same["judge_b"])]


def holm_floor(n_pairs: int, trials: int) -> float:
    """The smallest Holm-adjusted p the randomisation test can give over ``n_pairs`` pairs:
    ``min(1, n_pairs / (trials + 1))`` (a p-value is at least ``1 / (B + 1)``; Holm multiplies
    the smallest by the number of pairs and never lowers the others below it).  At or above
    ``alpha`` no pair can be significant, whatever the labels."""
    return min(1.0, n_pairs / (trials + 1))


def trials_needed(n_pairs: int, alpha: float) -> int:
    """The fewest trials B with :func:`holm_floor` below ``alpha``: ``floor(n_pairs / alpha)``
    (needed, not sufficient: a pair must then beat every swap)."""
    return int(np.floor(n_pairs / alpha + 1e-9))
