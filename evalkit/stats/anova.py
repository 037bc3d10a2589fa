"""Two-way ANOVA without replication and the systems' confidence intervals.

The first two steps of Sakai's comparison of several systems over one topic
set (Sakai 2018, *Laboratory Experiments in Information Retrieval: Sample
Sizes, Effect Sizes, and Statistical Power*, Springer, ch. 5 and its
Table 5.1 example; doi:10.1007/978-981-13-1199-4): split the variation of a
topics x systems score matrix into systems, topics and residual, and give
each system's mean an interval whose width uses the residual variance V_E.
statsmodels' ``ols`` + ``anova_lm`` computes the same table from a model
formula; it is the reference in the tests, and these closed forms are used
here because they take a few microseconds; the F and t distributions come
from ``scipy.special`` (``fdtrc``, ``stdtrit``: the functions behind
``scipy.stats.f.sf`` and ``t.ppf``), whose import takes a fraction of
``scipy.stats``'s second.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import special

from .hsd import _score_matrix

__all__ = ["two_way_anova", "system_intervals"]


def two_way_anova(scores) -> pd.DataFrame:
    """Two-way ANOVA without replication of a ``T x S`` topics-by-systems matrix.

    With ``xbar`` the grand mean, ``xbar_.j`` system ``j``'s mean and
    ``xbar_t.`` topic ``t``'s mean (Sakai 2018, ch. 5)::

        S_A = T sum_j (xbar_.j - xbar)^2             df_A = S - 1
        S_B = S sum_t (xbar_t. - xbar)^2             df_B = T - 1
        S_E = sum_{t,j} (x_tj - xbar_.j - xbar_t. + xbar)^2   df_E = (S-1)(T-1)

    ``ms = ss / df``; ``F = ms / V_E`` with ``V_E = S_E / df_E``; ``p`` the
    upper tail of F(df, df_E).  Returns one row per ``source`` (systems,
    topics, residual) with ``df, ss, ms, F, p`` (F and p empty for the
    residual).
    """
    x, _ = _score_matrix(scores)
    t, s = x.shape
    grand = x.mean()
    ss = np.array([t * ((x.mean(axis=0) - grand) ** 2).sum(),
                   s * ((x.mean(axis=1) - grand) ** 2).sum(),
                   ((x - x.mean(axis=0) - x.mean(axis=1, keepdims=True) + grand) ** 2).sum()])
    df = np.array([s - 1, t - 1, (s - 1) * (t - 1)])
    ms = ss / df
    with np.errstate(divide="ignore", invalid="ignore"):
        f = ms[:2] / ms[2]
    p = special.fdtrc(df[:2], df[2], f)                          # = scipy.stats.f.sf
    return pd.DataFrame({"source": ["systems", "topics", "residual"], "df": df, "ss": ss,
                         "ms": ms, "F": [*f, np.nan], "p": [*p, np.nan]})


def system_intervals(scores, alpha: float = 0.05) -> pd.DataFrame:
    """Each system's mean with its ``1 - alpha`` interval from the two-way ANOVA.

    ``mean_j +- t(1 - alpha/2; df_E) sqrt(V_E / T)``, ``V_E`` the residual
    mean square of :func:`two_way_anova` and ``df_E = (S-1)(T-1)`` (Sakai
    2018, ch. 5: every system gets the same margin of error, since V_E
    pools the residual over all systems).  Returns ``system, mean, ci_low,
    ci_high``.
    """
    x, labels = _score_matrix(scores)
    table = two_way_anova(x)
    t = x.shape[0]
    ve, df_e = table["ms"].iloc[2], table["df"].iloc[2]
    margin = special.stdtrit(df_e, 1 - alpha / 2) * np.sqrt(ve / t)  # = scipy.stats.t.ppf
    means = x.mean(axis=0)
    return pd.DataFrame({"system": labels, "mean": means, "ci_low": means - margin,
                         "ci_high": means + margin})
