"""Differences between runs (``evalkit estimate --pairs``): intervals, p-values, Holm, verdicts.

For runs ``a`` and ``b`` the per-topic differences ``d_t = x_ta - x_tb``
under each judge are estimated as a run's scores are
(:mod:`~evalkit.evaluate.estimation.estimators`): ``classical`` (the
reference's differences), ``proxy`` (the proxy's on all topics), ``ppi``
(``lam = 1``; its p-value is ppi-python's ``ppi_mean_pval``) and ``ppi++``
(``lam`` tuned on the differences as ``ppi_mean_ci`` tunes it, the p-value
with the same ``lam``; with ``interval="bootstrap-t"`` the bootstrap-t p-value,
``(#{|t*| >= |t|} + 1) / (B + 1)``, of :mod:`evalkit.stats.bootstrap_t`).  Holm's step-down correction (Holm, *A simple
sequentially rejective multiple test procedure*, Scand. J. Statist. 6, 1979)
runs over the pairs, per measure and method.

:func:`verdicts_table` puts each pair's verdicts side by side: which pairs
the proxy's labels let you call that the reference alone could not
(``gained``: ``ppi++`` significant, ``classical`` not) and which proxy-only
verdicts the correction withdraws (``withdrawn``: ``proxy`` significant,
``ppi++`` not, or of the other sign).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from ...stats.pairwise import _holm as holm
from .estimators import METHODS, method_estimates, used_topics

__all__ = ["pairs_table", "verdicts_table", "verdict"]


def verdict(difference: float, p_holm: float, alpha: float) -> str:
    """``a>b`` or ``a<b`` when Holm's p is below ``alpha``, else ``ns`` (not significant)."""
    if not p_holm < alpha:
        return "ns"
    return "a>b" if difference > 0 else "a<b"


def pairs_table(scores, alpha: float = 0.05, interval: str = "normal", resamples: int = 1000,
                seed: int = 0) -> pd.DataFrame:
    """Rows ``run_a, run_b, measure, method, difference, ci_low, ci_high, p_value, p_holm,
    verdict, reference_topics, topics, lambda``: every pair of runs (``a`` before ``b`` in
    name order), measure and method."""
    pairs = list(combinations(range(len(scores.runs)), 2))
    if not pairs:
        return pd.DataFrame(columns=["run_a", "run_b", "measure", "method", "difference",
                                     "ci_low", "ci_high", "p_value", "p_holm", "verdict",
                                     "reference_topics", "topics", "lambda"])
    a, b = (np.array(i) for i in zip(*pairs))

    def diff(x):
        return x[:, a] - x[:, b]                                         # (M, P, topics)

    found = method_estimates(diff(scores.reference), diff(scores.proxy_labelled),
                             diff(scores.proxy_unlabelled), alpha, interval, resamples, seed)
    rows = []
    for m, measure in enumerate(scores.measures):
        for method in METHODS:
            e = found[method]
            adjusted = holm(e.p_value[m])
            n_ref, topics = used_topics(method, scores.n, scores.topics)
            for k, (i, j) in enumerate(pairs):
                rows.append({"run_a": scores.runs[i], "run_b": scores.runs[j], "measure": measure,
                             "method": method, "difference": e.estimate[m, k],
                             "ci_low": e.low[m, k], "ci_high": e.high[m, k],
                             "p_value": e.p_value[m, k], "p_holm": adjusted[k],
                             "verdict": verdict(e.estimate[m, k], adjusted[k], alpha),
                             "reference_topics": n_ref, "topics": topics,
                             "lambda": np.nan if method == "proxy" else e.lam[m, k]})
    return pd.DataFrame(rows)


def verdicts_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """Rows ``run_a, run_b, measure, classical, proxy, ppi, ppi++, gained, withdrawn``."""
    keys = ["run_a", "run_b", "measure"]
    order = pd.MultiIndex.from_frame(pairs[keys].drop_duplicates())     # the measures as given
    wide = (pairs.pivot(index=keys, columns="method", values="verdict")
            .reindex(index=order, columns=list(METHODS)).reset_index())
    wide.columns.name = None
    wide["gained"] = (wide["ppi++"] != "ns") & (wide["classical"] == "ns")
    wide["withdrawn"] = (wide["proxy"] != "ns") & (wide["ppi++"] != wide["proxy"])
    return wide


def verdict_summary(verdicts: pd.DataFrame) -> list[str]:
    """One line per measure: how many pairs each method calls, gained and withdrawn."""
    lines = []
    for measure, part in verdicts.groupby("measure", sort=False):
        called = {m: int((part[m] != "ns").sum()) for m in METHODS}
        lines.append(f"{measure}: of {len(part)} pairs, significant after Holm: "
                     + ", ".join(f"{m} {c}" for m, c in called.items())
                     + f"; the proxy's labels let ppi++ call {int(part['gained'].sum())} that the "
                       f"reference alone could not; the correction withdraws "
                       f"{int(part['withdrawn'].sum())} of the proxy's")
    return lines
