"""Judges compared as systems are: per-topic agreement with the human labels as a per-topic score.

A judge's agreement with the human labels on one topic (Krippendorff's
ordinal alpha over that topic's items, :func:`evalkit.stats.krippendorff_alpha`)
is a per-topic score like a run's nDCG: :func:`per_topic_agreement` writes
them in ``evalkit compare``'s long format and :func:`judges_compared` hands
them to the library's comparison machinery
(:func:`evalkit.evaluate.comparison.compare_scores`): the two-way ANOVA, each
judge's mean with its 95% interval, every pair under the randomised Tukey
HSD over topics (Carterette 2012; Sakai 2018, ch. 5) and under paired t
tests with Holm's correction.  :func:`separable_pairs` counts how many of
the 33 x 32 / 2 = 528 judge pairs 25 topics tell apart.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...evaluate.comparison import compare_scores
from ...stats.krippendorff import krippendorff_alpha
from .labels import LabelMatrix

__all__ = ["MEASURE", "per_topic_agreement", "judges_compared", "separable_pairs"]

#: The per-topic score's name in the comparison tables.
MEASURE = "alpha_ordinal"


def per_topic_agreement(m: LabelMatrix, level: str = "ordinal") -> pd.DataFrame:
    """``run, measure, topic, value``: each judge's alpha with the human labels on each topic.

    ``value`` is Krippendorff's alpha (``level`` metric) of the two label
    columns (human, judge) over the topic's items.
    """
    names, codes = m.topic_codes
    rows = []
    for j, judge in enumerate(m.judges):
        for t, topic in enumerate(names):
            pair = np.column_stack([m.human[codes == t], m.llm[codes == t, j]])
            rows.append((judge, f"alpha_{level}", str(topic), krippendorff_alpha(pair, level)))
    return pd.DataFrame(rows, columns=["run", "measure", "topic", "value"])


def judges_compared(scores: pd.DataFrame, trials: int = 5000, seed: int = 0,
                    alpha: float = 0.05) -> dict:
    """``{"hsd": report, "t-holm": report}``: :func:`compare_scores` under both tests.

    The two reports share ``systems`` (means and intervals); their ``pairs``
    differ in the test.  The HSD holds the familywise error over all pairs by
    itself; the paired t tests are corrected with Holm's step-down method.
    """
    return {"hsd": compare_scores(scores, test="hsd", alpha=alpha, trials=trials, seed=seed),
            "t-holm": compare_scores(scores, test="t", correction="holm", alpha=alpha,
                                     trials=trials, seed=seed)}


def separable_pairs(reports: dict) -> pd.DataFrame:
    """``test, pairs, significant, share``: how many judge pairs each test tells apart."""
    rows = []
    for test, report in reports.items():
        pairs = report.pairs
        k = int(pairs["significant"].sum())
        rows.append((test, len(pairs), k, k / len(pairs)))
    return pd.DataFrame(rows, columns=["test", "pairs", "significant", "share"])
