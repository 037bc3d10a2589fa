"""Which topics each judge judged: a judge that shares none is refused, differing sets are said.

``evalkit score``, ``compare`` and ``assessors`` score runs under several
judges' labels.  A judge whose topics are spelled differently from the
others' or the runs' (``127266`` against ``2024-127266``) would score 0 for
every run and, pooled, add topics that no run returns (with trec_eval's
``-c`` they count 0 and halve the pooled mean).  So, as ``evalkit
agreement`` does for items:

* :func:`refuse_disjoint_judges` stops, in one line naming the judge and one
  topic id of each side, on a judge given on its own that shares no topic
  with the other such judges (:func:`named_judges`; before any run is read),
  and :func:`refuse_judges_without_runs` on any judge that shares none with
  the runs (the assessors of one ratings file may each judge other topics,
  as TREC's one assessor per topic does);
* :func:`topics_note` says, when the judges' topic sets differ, how many
  topics each judge's means cover; :func:`common_topics` keeps only the
  topics every judge judged (``--common-topics``).
"""

from __future__ import annotations

import difflib

import numpy as np
import pandas as pd

from ...errors import InputError
from .gains import natural_key

__all__ = ["judge_topics", "named_judges", "refuse_disjoint_judges", "refuse_judges_without_runs",
           "topics_note", "common_topics"]


def judge_topics(labels: pd.DataFrame) -> dict[str, set]:
    """``{judge: set of topics}`` of a labels frame (``topic, judge, doc, grade``), judges in
    the frame's order."""
    if labels is None or "judge" not in labels:
        return {}
    return {str(j): set(map(str, t)) for j, t in
            labels.groupby("judge", sort=False)["topic"].unique().items()}


def _closest(mine: set, theirs: set) -> tuple[str, str]:
    """One of ``mine`` and the id of ``theirs`` that looks most like it (``127266`` and
    ``2024-127266``): an id holding the other first, else difflib's closest."""
    ours = sorted(mine, key=natural_key)
    other = sorted(theirs, key=natural_key)
    for a in ours[:50]:
        for b in other:
            if a in b or b in a:
                return a, b
    best = difflib.get_close_matches(ours[0], other[:2000], n=1, cutoff=0.0)
    return ours[0], (best[0] if best else other[0])


def named_judges(topics: dict[str, set], judges) -> dict[str, set]:
    """The part of ``topics`` whose judges were given one by one (``--judge NAME=FILE``, a
    ``{name: qrels}`` dict or a labels frame), not as assessors of one ratings file: only
    those must share topics with each other."""
    if judges is None:
        return {}
    if isinstance(judges, pd.DataFrame):
        return topics
    names = {str(n) for n in judges}
    return {j: t for j, t in topics.items() if j in names}


def refuse_disjoint_judges(topics: dict[str, set]) -> None:
    """:class:`~evalkit.errors.InputError` when a judge of ``topics`` (``{judge: topics}``, two
    or more judges) shares no topic with the other judges: one line naming the judge (both,
    when there are two) and a topic of each side."""
    if len(topics) == 2:
        (one, mine), (two, theirs) = topics.items()
        if mine and theirs and not mine & theirs:
            a, b = _closest(mine, theirs)
            raise InputError(f"judges {one} and {two} share no topic: {one}'s topic {a} against "
                             f"{two}'s topic {b}",
                             hint="spell topics alike in both judges' files")
    elif len(topics) > 2:
        for judge, mine in topics.items():
            others = set().union(*(t for j, t in topics.items() if j != judge))
            if mine and others and not mine & others:
                a, b = _closest(mine, others)
                raise InputError(f"judge {judge} shares no topic with the other judges: its "
                                 f"topic {a} against the others' topic {b}",
                                 hint=f"spell topics as the other judges do, or leave {judge} out")


def refuse_judges_without_runs(topics: dict[str, set], runs: set) -> None:
    """:class:`~evalkit.errors.InputError` when a judge of ``topics`` shares no topic with
    ``runs`` (the run files' topics): one line naming the judge and a topic of each side."""
    for judge, mine in topics.items():
        if mine and runs and not mine & runs:
            a, b = _closest(mine, runs)
            raise InputError(f"judge {judge} shares no topic with the runs: its topic {a} "
                             f"against the runs' topic {b}",
                             hint=f"spell topics as the run files do, or leave {judge} out")


def topics_note(topics: dict[str, set], runs: set | None = None) -> str | None:
    """When the judges' topic sets differ: each judge with the number of topics its means
    cover (those it judged, among the runs' when ``runs`` is given), and the option that
    scores every judge on the same topics; None when they are the same."""
    if len(topics) < 2 or len({frozenset(t) for t in topics.values()}) == 1:
        return None
    counts = {j: len(t & runs) if runs is not None else len(t) for j, t in topics.items()}
    shared = set.intersection(*topics.values())
    shown = ", ".join(f"{j} {n}" for j, n in list(counts.items())[:12])
    more = " ..." if len(counts) > 12 else ""
    return (f"the judges judged different topics, so each judge's means cover its own: "
            f"{shown}{more} topics; --common-topics scores every judge on the {len(shared)} "
            "topics all of them judged")


def common_topics(labels: pd.DataFrame) -> pd.DataFrame:
    """``labels`` restricted to the topics every judge judged (``--common-topics``); an
    :class:`~evalkit.errors.InputError` when there is none."""
    topics = judge_topics(labels)
    if len(topics) < 2:
        return labels
    shared = set.intersection(*topics.values())
    if not shared:
        smallest = min(topics, key=lambda j: len(topics[j]))
        raise InputError(f"--common-topics: no topic is judged by every judge ({smallest} "
                         f"judged {len(topics[smallest])})",
                         hint="leave out --common-topics, or the judges that judged few topics")
    keep = labels["topic"].astype(str).isin(shared).to_numpy()
    out = labels[keep].reset_index(drop=True)
    out.attrs.update(labels.attrs)
    return out


def run_topics(scored) -> set:
    """The topics the runs return: the judged ones a run returns and those no judge judged."""
    present = np.asarray(scored.present).any(axis=0)
    return {str(t) for t in np.asarray(scored.topics, dtype=object)[present]} | set(
        map(str, getattr(scored, "dropped", ())))
