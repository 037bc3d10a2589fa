"""Judges compared as systems are: per-topic agreement with the human labels as a per-topic score.

A judge's agreement with the human labels on one topic (Krippendorff's
ordinal alpha over that topic's items, from the topic's confusion matrix by
:func:`evalkit.stats.confusion_agreement.alpha_from_confusion`)
is a per-topic score like a run's nDCG: :func:`per_topic_agreement` writes
them in ``evalkit compare``'s long format and :func:`judges_compared` hands
them to the library's comparison machinery
(:func:`evalkit.evaluate.comparison.report.compare_scores`): the two-way ANOVA, each
judge's mean with its 95% interval, every pair under the randomised Tukey
HSD over topics (Carterette 2012; Sakai 2018, ch. 5) and under paired t
tests with Holm's correction.  :func:`separable_pairs` counts how many of
the 33 x 32 / 2 = 528 judge pairs 25 topics tell apart.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...evaluate.comparison.report import compare_scores
from ...stats.confusion_agreement import alpha_from_confusion
from .labels import GRADES, LabelMatrix

__all__ = ["MEASURE", "per_topic_agreement", "judges_compared", "separable_pairs", "pairs_table"]

#: The per-topic score's name in the comparison tables.
MEASURE = "alpha_ordinal"


def per_topic_agreement(m: LabelMatrix, level: str = "ordinal") -> pd.DataFrame:
    """``run, measure, topic, value``: each judge's alpha with the human labels on each topic.

    ``value`` is Krippendorff's alpha (``level`` metric) of the two label
    columns (human, judge) over the topic's items.
    """
    names, t = m.topic_codes
    k = GRADES[1] - GRADES[0] + 1
    conf = np.zeros((len(names), len(m.judges), k, k))
    for j in range(len(m.judges)):
        np.add.at(conf, (t, j, m.human - GRADES[0], m.llm[:, j] - GRADES[0]), 1.0)
    value = alpha_from_confusion(conf, np.arange(GRADES[0], GRADES[1] + 1), level)   # (T, J)
    return pd.DataFrame({"run": np.repeat(list(m.judges), len(names)),
                         "measure": f"alpha_{level}",
                         "topic": np.tile(names.astype(str), len(m.judges)),
                         "value": value.T.ravel()})


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
    """``test, pairs, significant, share, lower_judges``: how many judge pairs each test tells
    apart; ``lower_judges`` counts the distinct judges that are the lower-mean side of a
    separated pair (few when only the worst judges are told apart from the rest)."""
    rows = []
    for test, report in reports.items():
        pairs = report.pairs
        mean = report.systems.set_index("system")["mean"]
        sig = pairs[pairs["significant"].astype(bool)]
        lower = {a if mean[a] < mean[b] else b for a, b in zip(sig["system_a"], sig["system_b"])}
        k = len(sig)
        rows.append((test, len(pairs), k, k / len(pairs), len(lower)))
    return pd.DataFrame(rows, columns=["test", "pairs", "significant", "share", "lower_judges"])


def pairs_table(reports: dict) -> pd.DataFrame:
    """Every judge pair under every test: the reports' ``pairs`` with a ``test`` column first."""
    frames = [r.pairs.assign(test=test) for test, r in reports.items()]
    out = pd.concat(frames, ignore_index=True)
    return out[["test"] + [c for c in out.columns if c != "test"]]
