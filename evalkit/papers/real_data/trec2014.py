"""TREC 2014 Microblog on the real pool: the pool's facts, and the ARI summary beside Wang et al.'s.

:func:`trec2014_facts` counts the real qrels and sets each count beside the
value it is stated as, and by whom (:data:`STATED`): Wang, Sherman, Lin &
Efron (SIGIR 2015) §4.1 state 55 topics and "194 relevant tweets on average"
(the qrels give 10,645 relevant tweets over 55 topics, 193.5 per topic, which
rounds to 194); the 57,985 judgments are the qrels' own count (as the data
registry, :mod:`evalkit.data`, records it), not a number of the paper.  The
notebook then runs the TTG simulator over the real pool (real topics, tweets,
grades and snowflake times) to draw §4.1's Figure 3 for the paper's own
topics 179 and 225; :func:`ari_table` summarises the simulated assessors'
per-topic adjusted Rand index beside the paper's (:data:`PAPER_ARI`,
:data:`PAPER_TOPIC_ARI`), and :func:`timeline_panels` labels each panel with
both.
"""

from __future__ import annotations

import pandas as pd

from ..wang2015_assessor_differences import ari_statistics, cluster_panels

__all__ = ["PAPER_FACTS", "STATED", "PAPER_ARI", "PAPER_TOPIC_ARI", "trec2014_facts", "ari_table",
           "timeline_panels"]

#: The stated value of each fact of the 2014 pool, and who states it.
STATED = {
    "topics": (55, "Wang et al. §4.1: 'Each topic (55 in total)'"),
    "judgments": (57985, "the qrels' own count, as the data registry records it (not in the paper)"),
    "relevant_per_topic": (194, "Wang et al. §4.1: '194 relevant tweets on average' "
                                "(the qrels' 10,645 relevant / 55 = 193.5, rounded)"),
}
#: The stated values alone (fact -> value).
PAPER_FACTS = {k: v for k, (v, _) in STATED.items()}
#: Wang et al. §4.1's per-topic ARI summary (official vs alternate clusters, 55 topics).
PAPER_ARI = {"mean": 0.445, "median": 0.492, "sd": 0.225, "min": 0.007, "max": 0.977}
#: Wang et al. §4.1's ARI of the two topics of Figure 3.
PAPER_TOPIC_ARI = {"179": 0.687, "225": 0.305}


def trec2014_facts(qrels: pd.DataFrame) -> pd.DataFrame:
    """Topics, judgments and relevant tweets (grade >= 1) per topic, beside their stated values.

    ``relevant_per_topic`` is computed unrounded (10,645 / 55 = 193.5); the
    paper's 194 is that rounded to a whole tweet, so the report compares it
    with a tolerance of 0.5.
    """
    rel = qrels[qrels.grade > 0]
    got = {"topics": qrels.topic.nunique(), "judgments": len(qrels),
           "relevant_per_topic": round(len(rel) / qrels.topic.nunique(), 1)}
    return pd.DataFrame({"fact": list(got), "computed": list(got.values()),
                         "published": [STATED[k][0] for k in got],
                         "stated_by": [STATED[k][1] for k in got]})


def ari_table(ari: pd.Series) -> pd.DataFrame:
    """The per-topic ARI summary of the simulated assessors on the real pool, beside the paper's."""
    stats_ = ari_statistics(ari)
    return pd.DataFrame({"statistic": list(stats_), "ARI": list(stats_.values()),
                         "paper": [PAPER_ARI[k] for k in stats_]})


def timeline_panels(clusters: dict, topics, ari: pd.Series, when: dict, queries) -> dict:
    """Figure 3's panels on the real pool, each title with the simulated ARI and the paper's.

    ``queries`` maps a topic id to its title.  Titles read ``MB179 "care of
    Iditarod dogs", official (simulated): 18 clusters, ARI 0.153 (paper
    0.687)``; a topic the paper gives no ARI for has no paper value.
    """
    def label(t, a, n):
        return f'MB{t} "{queries[t]}", {a} (simulated): {n} clusters'

    panels = {}
    for title, panel in cluster_panels(clusters, topics, ari, when, label).items():
        topic = title[2:title.index(" ")]
        paper = PAPER_TOPIC_ARI.get(topic)
        panels[title + (f" (paper {paper:.3f})" if paper is not None else "")] = panel
    return panels
