"""All system pairs of a topics x systems matrix: tests, intervals, effect sizes.

``evalkit compare`` reports every pair under one of four tests:

``hsd``
    The randomised Tukey HSD (Carterette 2012; Sakai 2018, *Laboratory
    Experiments in Information Retrieval*, ch. 5) of :mod:`evalkit.stats.hsd`,
    which holds the familywise error over all pairs by itself, with its
    *simultaneous* interval from the same permutation distribution of the
    range of the means.
``t``, ``wilcoxon``, ``permutation``
    Paired tests of each pair alone (scipy's ``ttest_rel`` and ``wilcoxon``;
    the paired randomisation test by random sign flips, Smucker, Allan &
    Carterette, CIKM 2007), whose p-values are then corrected for the number
    of pairs by statsmodels' ``multipletests`` (Holm, Benjamini-Hochberg or
    Bonferroni), as Urbano, Lima & Hanjalic (SIGIR 2019) recommend.  The t-test's
    p-values and Holm's adjustment are computed here with those functions'
    arithmetic (the same bits, tested), so neither library is imported for them.

Every table has ``system_a, system_b, diff, ci_low, ci_high, p_value,
p_adjusted, effect_size, significant`` (``diff`` = mean of a - mean of b).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import special

from ..errors import ParameterError
from .hsd import _check_trials, _hsd_table, _score_matrix, tukey_null_ranges

__all__ = ["TESTS", "CORRECTIONS", "hsd_pairs", "paired_pairs", "wins_ties_losses"]

TESTS = ("hsd", "t", "wilcoxon", "permutation")

# our names -> statsmodels.stats.multitest.multipletests' method names
CORRECTIONS = {"holm": "holm", "bh": "fdr_bh", "bonferroni": "bonferroni", "none": None}

PAIR_COLUMNS = ["system_a", "system_b", "diff", "ci_low", "ci_high", "p_value", "p_adjusted",
                "effect_size", "significant"]


def _check_alpha(alpha) -> float:
    if isinstance(alpha, bool) or not 0 < alpha < 1:
        raise ParameterError("alpha", alpha, "a number in (0, 1)")
    return float(alpha)


def hsd_pairs(scores, n_trials: int = 5000, seed=None, alpha: float = 0.05) -> pd.DataFrame:
    """Randomised Tukey HSD of every pair with its simultaneous ``1 - alpha`` interval.

    ``p_value`` (= ``p_adjusted``) and ``effect_size`` ``|diff| / sqrt(V_E)``
    are those of :func:`evalkit.stats.hsd.randomised_tukey_hsd` with the same
    seed.  With ``r_(1) <= ... <= r_(B)`` the sorted null ranges of the means
    and ``k`` the smallest count of ranges below ``|diff|`` that makes
    ``p < alpha`` (``k = floor(B (1 - alpha)) + 1``), the interval is
    ``diff +- r_(k)``: the randomisation version of Tukey's
    ``diff +- q(1 - alpha; S, df_E) sqrt(V_E / T)``.  It holds all pairs at
    once with probability ``1 - alpha`` under the null, and excludes 0
    exactly when ``p_value < alpha``.
    """
    alpha = _check_alpha(alpha)
    x, labels = _score_matrix(scores)
    n_trials = _check_trials(n_trials)
    null = np.sort(tukey_null_ranges(x, n_trials, seed))
    table = _hsd_table(x, labels, null)
    below = np.arange(n_trials + 1)
    k = int(below[(n_trials - below) / n_trials < alpha][0])     # p < alpha iff >= k ranges below
    tol = 1e-12 * max(1.0, float(np.abs(x).max()))              # _hsd_table's tie allowance
    margin = null[k - 1] + tol
    table["ci_low"] = table["diff"] - margin
    table["ci_high"] = table["diff"] + margin
    table["p_adjusted"] = table["p_value"]
    table["significant"] = table["p_value"] < alpha
    table.attrs.update(p_value_se=float(table["p_value_se"].max()), margin=margin)
    return table[PAIR_COLUMNS]


def _sign_flip_p_values(d: np.ndarray, n_trials: int, seed, chunk: int = 1000) -> np.ndarray:
    """Two-sided paired randomisation p-values of every column of ``d`` (T x P differences).

    Each trial flips the sign of each topic's difference with probability 1/2
    (the same flips for every pair); ``p = #{trials: |mean(s d)| >= |mean(d)|} / B``.
    """
    rng = np.random.default_rng(seed)
    t = d.shape[0]
    observed = np.abs(d.mean(axis=0))
    tol = 1e-12 * max(1.0, float(np.abs(d).max()))
    count = np.zeros(d.shape[1], dtype=np.int64)
    for start in range(0, n_trials, chunk):
        b = min(chunk, n_trials - start)
        signs = rng.integers(0, 2, size=(b, t)) * 2.0 - 1.0
        count += (np.abs(signs @ d) / t >= observed - tol).sum(axis=0)
    return count / n_trials


def _ttest_rel_p(xa: np.ndarray, xb: np.ndarray) -> np.ndarray:
    """Two-sided p-values of ``scipy.stats.ttest_rel(xa, xb, axis=0)``, its arithmetic step by
    step (scipy 1.17: the mean and ddof-1 variance of the differences, ``t = mean / sqrt(var /
    n)``, ``p = 2 stdtr(n - 1, -|t|)``; the same bits, tested) without importing ``scipy.stats``."""
    d = xa - xb
    n = d.shape[0]
    mean = np.mean(d, axis=0)
    var = np.mean((d - np.mean(d, axis=0, keepdims=True)) ** 2, axis=0)
    var *= np.float64(n) / (np.float64(n) - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (mean - 0.0) / np.sqrt(var / n)
    return 2 * special.stdtr(np.float64(n - 1), -np.abs(t))


def _holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values: ``multipletests(p, method="holm")[1]`` of statsmodels,
    its arithmetic step by step (the same bits, tested) without the ``gc.collect()`` it runs."""
    p = np.asarray(p)
    order = np.argsort(p)
    ranked = np.take(p, order)
    adjusted = np.maximum.accumulate(ranked * np.arange(len(ranked), 0, -1))
    adjusted[adjusted > 1] = 1
    out = np.empty_like(adjusted)
    out[order] = adjusted
    return out


def paired_pairs(scores, test: str = "t", correction: str = "holm", alpha: float = 0.05,
                 n_trials: int = 10000, seed=None) -> pd.DataFrame:
    """A paired test of every pair, p-values corrected over the pairs.

    For each pair, ``d_t = x_ta - x_tb`` over the ``T`` topics:

    * ``t``: ``scipy.stats.ttest_rel`` (two-sided); constant differences
      (``sd(d) = 0``) give p = 1 when they are 0, else p = 0;
    * ``wilcoxon``: ``scipy.stats.wilcoxon`` (two-sided, zero differences
      dropped, exact for small T without ties); p = 1 when every d_t is 0;
    * ``permutation``: the paired randomisation test, ``n_trials`` random
      sign flips of the d_t shared by all pairs (seeded).

    ``p_adjusted``: statsmodels' ``multipletests`` with ``holm``, ``bh``
    (Benjamini-Hochberg, ``fdr_bh``), ``bonferroni`` or ``none``;
    ``significant`` = ``p_adjusted < alpha``.  The interval is the paired t
    interval ``mean(d) +- t(1 - alpha/2; T-1) sd(d) / sqrt(T)`` for every
    test (unadjusted: it is one pair's interval, not a simultaneous one), and
    ``effect_size`` is ``mean(d) / sd(d)`` (Sakai 2018, ch. 2: the paired
    t-test's effect size; signed like ``diff``; ``sd`` with ``T - 1``).
    """
    if test not in TESTS[1:]:
        raise ParameterError("test", test, f"one of {', '.join(TESTS[1:])}")
    if correction not in CORRECTIONS:
        raise ParameterError("correction", correction, f"one of {', '.join(CORRECTIONS)}")
    alpha = _check_alpha(alpha)
    x, labels = _score_matrix(scores)
    a, b = np.triu_indices(x.shape[1], k=1)
    d = x[:, a] - x[:, b]                                          # (T, P)
    t = d.shape[0]
    mean, sd = d.mean(axis=0), d.std(axis=0, ddof=1)
    margin = special.stdtrit(t - 1, 1 - alpha / 2) * sd / np.sqrt(t)  # = scipy.stats.t.ppf
    if test == "t":
        p = np.where(mean == 0, 1.0, 0.0)                        # constant differences (sd = 0)
        varied = sd > 0
        if varied.any():
            p[varied] = _ttest_rel_p(x[:, a[varied]], x[:, b[varied]])
    elif test == "wilcoxon":
        from scipy import stats  # half a second to import: only for this test

        p = np.array([1.0 if not d[:, i].any() else stats.wilcoxon(d[:, i]).pvalue
                      for i in range(d.shape[1])])
    else:
        p = _sign_flip_p_values(d, _check_trials(n_trials), seed)
    method = CORRECTIONS[correction]
    if method is None:
        adjusted = p.copy()
    elif method == "holm":
        adjusted = _holm(p)
    else:
        from statsmodels.stats.multitest import multipletests

        adjusted = multipletests(p, alpha=alpha, method=method)[1]
    with np.errstate(divide="ignore", invalid="ignore"):
        effect = np.where(sd > 0, mean / np.where(sd > 0, sd, 1.0), np.nan)
    return pd.DataFrame({"system_a": [labels[i] for i in a], "system_b": [labels[i] for i in b],
                         "diff": mean, "ci_low": mean - margin, "ci_high": mean + margin,
                         "p_value": p, "p_adjusted": adjusted, "effect_size": effect,
                         "significant": adjusted < alpha})


def wins_ties_losses(scores) -> pd.DataFrame:
    """Per pair (``a < b`` in column order): topics where a scores higher, equal, lower.

    Scores are compared exactly as read (no tolerance): two tools that print
    four decimals tie when they print the same digits.
    """
    x, _ = _score_matrix(scores)
    a, b = np.triu_indices(x.shape[1], k=1)
    d = x[:, a] - x[:, b]
    return pd.DataFrame({"wins": (d > 0).sum(axis=0), "ties": (d == 0).sum(axis=0),
                         "losses": (d < 0).sum(axis=0)})

