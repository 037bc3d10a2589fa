"""The effect size of borderline pairs in Sakai's (EVIA 2017) Table 3: the ES_HSD arithmetic.

ES_HSD = |d| / sqrt(V_E), V_E the residual variance of the two-way ANOVA
without replication (Sakai 2014).  A pair on the border of the Tukey HSD has
|d| close to q sqrt(V_E / n), so its ES is about q / sqrt(n), fixed by the
number of topics n whatever the scores.  :func:`es_arithmetic` works this
out for the reproduction and :func:`es_vs_topics` checks it numerically on
random topic subsets.  What the paper's own printed ES divide by is
:mod:`.es_reading`'s question.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from ...stats import hsd
from .conditions import MEASURE_NAMES, Conditions

__all__ = ["ES_TOPIC_COUNTS", "ES_SUBSETS", "studentised_range_q", "es_arithmetic",
           "es_vs_topics", "es_topics_summary"]

#: Topic counts of the ES-vs-n check, and random topic subsets per count.
ES_TOPIC_COUNTS = (5, 7, 10, 25, 50, 100)
ES_SUBSETS = 5


@lru_cache(maxsize=None)
def studentised_range_q(alpha: float, systems: int, topics: int) -> float:
    """q(1 - alpha; systems, (systems-1)(topics-1) df), the studentised range quantile.

    The critical value of Tukey's HSD over ``systems`` means with the residual
    degrees of freedom of the two-way ANOVA over ``topics`` topics
    (:func:`evalkit.stats.studentized_range.studentized_range_ppf`: scipy's
    :data:`scipy.stats.studentized_range` to about 1e-13, ten times faster; cached).
    """
    from ...stats.studentized_range import studentized_range_ppf

    return studentized_range_ppf(1 - alpha, systems, (systems - 1) * (topics - 1))


def es_arithmetic(pairs: pd.DataFrame, n_topics: int, n_systems: int,
                  alpha: float = 0.05) -> pd.DataFrame:
    """Why borderline pairs have ES_HSD near q/sqrt(n): the prediction beside the reproduced ES.

    A pair on the HSD border has |d| close to the critical range of the
    system means, q * sqrt(V_E / n), with q the studentised range quantile
    for ``n_systems`` means and (S-1)(n-1) residual degrees of freedom
    (:func:`studentised_range_q`; the randomised test approximates it).  So
    ES = |d| / sqrt(V_E) is about q / sqrt(n), whatever the scores: the
    effect size of a borderline pair is fixed by n.
    """
    q = studentised_range_q(alpha, n_systems, n_topics)
    es = pd.concat([pairs["ES_RawG"], pairs["ES_UG"]]) if len(pairs) else pd.Series(dtype=float)
    rows = [("studentised range q (alpha, S systems, (S-1)(n-1) df)", q),
            ("topics n", n_topics), ("systems S", n_systems),
            ("predicted ES at the border, q / sqrt(n)", q / np.sqrt(n_topics)),
            ("reproduced ES of discrepant pairs, median", es.median() if len(es) else np.nan),
            ("reproduced ES, min", es.min() if len(es) else np.nan),
            ("reproduced ES, max", es.max() if len(es) else np.nan)]
    return pd.DataFrame(rows, columns=["quantity", "value"])


def es_vs_topics(conditions: Conditions, best: np.ndarray, n_trials: int, alpha: float = 0.05,
                 seed: int = 2017, topic_counts=ES_TOPIC_COUNTS, subsets: int = ES_SUBSETS,
                 window=(0.02, 0.10)) -> pd.DataFrame:
    """ES_HSD of pairs near the HSD border against the number of topics n (numerical check).

    For each measure, the best runs' RawG scores of the first condition are
    restricted to ``subsets`` random sets of n topics (all topics once at the
    full count); the randomised Tukey HSD is run and the pairs with p in
    ``window`` (near alpha) are kept.  Their median ES = |d| / sqrt(V_E) is
    reported beside q / sqrt(n), q the studentised range quantile for the
    number of runs and (S-1)(n-1) df: the two agree at every n if borderline
    pairs have ES ~ q / sqrt(n), so an ES of 1.6-2.4 at the border needs a
    handful of topics.
    """
    valid = conditions.valid[0]
    full = {m: conditions.scores[m][0, 0][best][:, valid].T for m in MEASURE_NAMES}  # topics x runs
    total, systems = full[MEASURE_NAMES[0]].shape
    rows = []
    for n in topic_counts:
        if n > total:
            continue
        keys, mats = [], []
        for s in range(subsets if n < total else 1):
            rng = np.random.default_rng(np.random.SeedSequence([seed, n, s]))
            pick = np.sort(rng.choice(total, n, replace=False))
            for m in MEASURE_NAMES:
                keys.append((m, s))
                mats.append(full[m][pick])
        # one pass per n: every matrix of that shape shares the row permutations
        for (m, s), table in zip(keys, hsd.randomised_tukey_hsd_many(mats, n_trials, seed)):
            near = table[table["p_value"].between(*window)]
            rows.append({"measure": m, "topics": n, "subset": s, "pairs_near_border": len(near),
                         "es_median": near["effect_size"].median() if len(near) else np.nan,
                         "q_over_root_n": studentised_range_q(alpha, systems, n) / np.sqrt(n)})
    return pd.DataFrame(rows).sort_values(["measure", "topics", "subset"], ignore_index=True)


def es_topics_summary(res: pd.DataFrame) -> pd.DataFrame:
    """Per measure and n: borderline pairs found, their median ES, and q / sqrt(n)."""
    return (res.groupby(["measure", "topics"])
            .agg(pairs_near_border=("pairs_near_border", "sum"), es_median=("es_median", "median"),
                 q_over_root_n=("q_over_root_n", "first"))
            .reset_index())
