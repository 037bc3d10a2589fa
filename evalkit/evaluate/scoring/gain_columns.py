"""The judgment columns ``evalkit score``, ``compare`` and ``assessors`` score runs against.

From judges' labels (``--judge``, ``--ratings``; a frame ``topic, judge, doc,
grade``): each judge's own column (``--per-judge``) and the pooled one
(``all:raw``, ``all:wg``, ``all:ug``), each grade first through
``--gain-map`` when one is given (RawG only); or one graded qrels file through
its gain map.  :func:`judge_labels` reads the judges once and refuses one that
shares no topic with the others, :func:`judges_and_runs` one that shares none
with the runs (:mod:`evalkit.evaluate.judges.topics`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ...errors import InputError
from ..columns import rename
from ..judges.gains import parse_gain_map
from .judgments import (Judgments, judge_columns, judgments, mapped_pooled_column, pooled_column,
                        qrels_column)
from .lists import Scored

__all__ = ["gain_columns", "judge_labels", "judges_and_runs", "pooled_judgments"]


def gain_columns(ratings=None, qrels=None, gain_map=None, gain: str = "raw", p: float = 0.2,
                 dmax: int | None = None, judges=None, per_judge: bool = False):
    """``(columns, gmax)`` for :func:`~evalkit.evaluate.scoring.judgments.judgments`.

    ``judges``: a labels frame (``topic, judge, doc, grade``, as
    :func:`~evalkit.evaluate.judges.labels.read_labels` reads them) or ``{name:
    qrels path or frame}``; pooled into ``all:<gain>`` (with ``ratings``,
    whose assessors are judges too), and with ``per_judge`` each judge's own
    column first.  ``qrels`` + ``gain_map``: one column, ``qrels``.
    """
    if qrels is not None:
        if ratings is not None or judges is not None:
            raise InputError("give judges (--judge, --ratings) or graded --qrels, not both")
        if gain != "raw":
            raise InputError(f"--gain {gain} needs several judges' labels (--judge or --ratings), "
                             "not one --qrels file")
        if gain_map is None:               # the grade is the gain, as trec_eval reads qrels
            grades = pd.to_numeric(rename(qrels, ("topic", "doc", "grade"), what="qrels")["grade"])
            gain_map = {int(g): float(g) for g in np.unique(grades) if g > 0}
        mapping = parse_gain_map(gain_map) if isinstance(gain_map, str) else dict(gain_map)
        return {"qrels": qrels_column(qrels, mapping)}, {"qrels": max([1.0, *mapping.values()])}
    labels = _labels(ratings, judges)
    if labels is None:
        raise InputError("give judgments: --judge NAME=FILE (one per judge), --ratings FILE, "
                         "or --qrels FILE")
    mapping = _judges_gain_map(gain_map, gain)
    columns, gmax = {}, {}
    top = labels.attrs.get("grades", (0, int(labels["grade"].max())))[1]
    if per_judge:
        columns = judge_columns(labels, mapping)
        top_gain = float(top) if mapping is None else max([0.0, *mapping.values()])
        gmax = {name: max(top_gain, 1.0) for name in columns}
    name = f"all:{gain}"
    if name in columns:
        raise InputError(f"a judge is named {name}, the name of the pooled judgments",
                         hint="rename that judge")
    if mapping is not None:
        columns[name] = mapped_pooled_column(labels, mapping)
        return columns, gmax
    ratings_frame = pd.DataFrame({"topic": labels["topic"].to_numpy(), "assessor":
                                  labels["judge"].to_numpy(), "doc": labels["doc"].to_numpy(),
                                  "rating": labels["grade"].to_numpy()})
    columns[name] = pooled_column(ratings_frame, gain, p, dmax if dmax is not None else top)
    return columns, gmax


def _judges_gain_map(gain_map, gain: str) -> dict | None:
    """``--gain-map`` with judges: each judge's grade -> gain, mapped before any pooling, so
    only RawG (the sum of the gains) can pool them; WG and UG are defined on the grades."""
    if gain_map is None:
        return None
    if gain != "raw":
        raise InputError(f"--gain-map maps each judge's grades to gains, which --gain raw then "
                         f"sums; --gain {gain} is defined on the grades themselves (Sakai 2017, "
                         "Eqs. 1-2)", hint="leave out --gain-map, or give --gain raw")
    return parse_gain_map(gain_map) if isinstance(gain_map, str) else dict(gain_map)


def judge_labels(ratings=None, judges=None, common: bool = False):
    """``(labels, topics)``: every judge's labels as one frame (``topic, judge, doc, grade``;
    None without judges) and ``{judge: topics}``; a judge given on its own (``judges``) that
    shares no topic with the other such judges is refused here, before any run is read (the
    assessors of one ratings file may each judge other topics, as TREC's one assessor per
    topic does); ``common``: only the topics every judge judged
    (:mod:`evalkit.evaluate.judges.topics`)."""
    from ..judges.topics import common_topics, judge_topics, named_judges, refuse_disjoint_judges

    labels = _labels(ratings, judges)
    if labels is None:
        if common:
            raise InputError("--common-topics applies to judges (--judge, --ratings), not to "
                             "one --qrels file")
        return None, {}
    topics = judge_topics(labels)
    refuse_disjoint_judges(named_judges(topics, judges))
    if common:
        labels = common_topics(labels)
        topics = judge_topics(labels)
    return labels, topics


def judges_and_runs(scored: Scored, topics: dict) -> list[str]:
    """A judge sharing no topic with the runs refused (before any output); the note on the
    judges' differing topic sets, if they differ."""
    from ..judges.topics import refuse_judges_without_runs, run_topics, topics_note

    if not topics:
        return []
    runs = run_topics(scored)
    refuse_judges_without_runs(topics, runs)
    note = topics_note(topics, runs)
    return [note] if note else []


def pooled_judgments(ratings=None, qrels=None, gain_map=None, gains=("raw",), p: float = 0.2,
                     dmax: int | None = None, judges=None) -> Judgments:
    """One pooled column per gain of ``gains`` (``all:raw``, ``all:ug``...; ``compare`` scores
    two gains on the same runs), or the one ``qrels`` column."""
    columns, gmax = {}, {}
    for gain in gains:
        c, m = gain_columns(ratings, qrels, gain_map, gain, p, dmax, judges)
        columns.update(c)
        gmax.update(m)
    return judgments(columns, gmax)


def _labels(ratings, judges) -> pd.DataFrame | None:
    """One labels frame (``topic, judge, doc, grade``) from ``ratings`` and ``judges``."""
    from ..columns import rename
    from ..judges.labels import LABEL_COLUMNS, read_labels

    parts = []
    if judges is not None:
        if isinstance(judges, pd.DataFrame):
            parts.append(judges[LABEL_COLUMNS])
        else:
            paths = {n: j for n, j in judges.items() if isinstance(j, (str, Path))}
            if paths:
                parts.append(read_labels(paths)[0])
            for n, j in judges.items():
                if not isinstance(j, (str, Path)):
                    q = rename(j, ("topic", "doc", "grade"), what=f"judge {n}'s qrels")
                    parts.append(q.assign(judge=str(n))[LABEL_COLUMNS])
    if ratings is not None:
        r = rename(ratings, ("topic", "assessor", "doc", "rating"), what="ratings")
        parts.append(pd.DataFrame({"topic": r["topic"], "judge": r["assessor"], "doc": r["doc"],
                                   "grade": r["rating"]}))
    if not parts:
        return None
    attrs = next((p.attrs for p in parts if "grades" in p.attrs), {})
    out = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    out.attrs.update(attrs)
    return out
