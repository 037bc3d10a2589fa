"""TREC 2014 Microblog on the real pool: Wang et al.'s descriptive facts and the ARI summary.

Wang, Sherman, Lin & Efron (SIGIR 2015) §3.2 describe the 2014 pool (55
topics, 57,985 judgments, 10,645 relevant tweets); :func:`trec2014_facts`
computes them from the real qrels.  The notebook then runs the TTG simulator
over the real pool (real topics, tweets, grades and snowflake times) to draw
§4.1's Figure 3 for the paper's own topics 179 and 225; :func:`ari_table`
summarises the simulated assessors' per-topic adjusted Rand index there.
"""

from __future__ import annotations

import pandas as pd

from ..wang2015_assessor_differences import ari_statistics

__all__ = ["PAPER_FACTS", "trec2014_facts", "ari_table"]

#: Wang et al.'s (and the data README's) descriptive facts of the 2014 pool.
PAPER_FACTS = {"topics": 55, "judgments": 57985, "relevant": 10645, "relevant_per_topic": 193.5}


def trec2014_facts(qrels: pd.DataFrame) -> pd.DataFrame:
    """Topics, judgments, relevant tweets (grade >= 1) and their per-topic mean."""
    rel = qrels[qrels.grade > 0]
    got = {"topics": qrels.topic.nunique(), "judgments": len(qrels), "relevant": len(rel),
           "relevant_per_topic": round(len(rel) / qrels.topic.nunique(), 1)}
    return pd.DataFrame({"fact": list(got), "computed": list(got.values()),
                         "published": [PAPER_FACTS[k] for k in got]})


def ari_table(ari: pd.Series) -> pd.DataFrame:
    """The per-topic ARI summary of the simulated assessors on the real pool."""
    stats_ = ari_statistics(ari)
    return pd.DataFrame({"statistic": list(stats_), "ARI": list(stats_.values())})
