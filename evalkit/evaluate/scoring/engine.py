"""Score runs with gains from several assessors: the engine of ``evalkit score``.

:func:`score` takes runs and either per-assessor ratings (gains RawG, WG or
Sakai's UG) or graded qrels with a gain map (NTCIREVAL-style), and returns
trec_eval-style rows ``run, measure, topic, value``.  Scoring is vectorised
(:func:`evalkit.measures.graded.ranked_lists` and
:func:`evalkit.measures.graded.batch_measures`): all runs and topics of a
measure in one array operation; the tests check every value against the
per-topic functions (:func:`evalkit.measures.graded.ng_at_k` and friends).

Topics whose ideal gain is 0 everywhere cannot be normalised: they are
excluded from the ``all`` mean and listed in ``frame.attrs["excluded_topics"]``.
Run rows for topics without judgments are dropped and described in
``frame.attrs["notes"]``; unjudged documents have gain 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...errors import InputError
from ...measures.graded import RankedLists
from ...measures.registry import MeasureSpec, parse_measure
from ..judges.gains import gains_from_qrels, item_gains, parse_gain_map
from ..runs.frames import normalise_runs
from ..runs.files import RunFiles, Scored, measure_values, score_run_files

__all__ = ["Judged", "judged_gains", "score", "score_arrays", "scored_runs"]


@dataclass
class Judged:
    """Runs indexed against judged items and a stack of gain assignments."""

    lists: RankedLists
    padded: np.ndarray                  # (G, T, L+1), one row of gains per gain definition
    notes: list[str] = field(default_factory=list)


def judged_gains(runs: pd.DataFrame, gain_frames: list[pd.DataFrame], depth: int) -> Judged:
    """Index ``runs`` against the judged items of ``gain_frames`` (same items in each)."""
    runs = normalise_runs(runs)
    first = gain_frames[0]
    notes = []
    judged = set(first["topic"])
    extra = sorted(set(runs["topic"]) - judged)
    if extra:
        dropped = runs["topic"].isin(extra)
        notes.append(f"{len(extra)} run topics have no judgments and were dropped "
                     f"({int(dropped.sum())} rows): {', '.join(extra[:10])}"
                     + (" ..." if len(extra) > 10 else ""))
        runs = runs[~dropped]
    if runs.empty:
        raise InputError("no run row is for a judged topic",
                         hint="check that runs and judgments use the same topic ids")
    lists = _ranked_lists(runs, first[["topic", "doc"]], depth)
    if lists.unjudged:
        notes.append(f"{lists.unjudged} retrieved documents are unjudged (gain 0)")
    stacks = []
    for frame in gain_frames:
        by_topic = dict(tuple(frame.sort_values(["topic", "doc"]).groupby("topic", sort=True)))
        stacks.append(lists.pad([by_topic[t]["gain"].to_numpy() for t in lists.topics]))
    return Judged(lists, np.stack(stacks), notes)


def _ranked_lists(runs: pd.DataFrame, items: pd.DataFrame, depth: int) -> RankedLists:
    """:func:`evalkit.measures.graded.ranked_lists` with array operations instead of a loop.

    The same :class:`RankedLists` (tested equal): topics and items sorted, each
    run's list ordered by rank and cut at ``depth``, -1 for unjudged documents.
    ``runs`` must hold judged topics only.
    """
    items = items.sort_values(["topic", "doc"], kind="stable")
    topics = tuple(pd.unique(items["topic"]))
    names = tuple(sorted(pd.unique(runs["run"])))
    item_topic = pd.Categorical(items["topic"], categories=topics).codes
    starts = np.searchsorted(item_topic, np.arange(len(topics)))
    position = np.arange(len(items)) - starts[item_topic]            # item's place in its topic
    run_code = pd.Categorical(runs["run"], categories=names).codes.astype(np.int64)
    topic_code = pd.Categorical(runs["topic"], categories=topics).codes.astype(np.int64)
    # (topic, doc) as one integer key: topic code x number of distinct docs + doc code
    doc_ids = pd.Index(pd.unique(np.concatenate([items["doc"].to_numpy(object),
                                                 runs["doc"].to_numpy(object)])))
    width = np.int64(len(doc_ids))
    keys = pd.Index(item_topic.astype(np.int64) * width + doc_ids.get_indexer(items["doc"]))
    found = keys.get_indexer(topic_code * width + doc_ids.get_indexer(runs["doc"]))  # -1: unjudged
    order = np.lexsort((runs["rank"].to_numpy(), topic_code, run_code))
    group = (run_code * len(topics) + topic_code)[order]
    first = np.r_[0, np.flatnonzero(np.diff(group)) + 1]
    slot = np.arange(len(order)) - np.repeat(first, np.diff(np.r_[first, len(order)]))
    keep = slot < depth
    chosen = order[keep]
    value = np.where(found[chosen] >= 0, position[np.maximum(found[chosen], 0)], -1)
    index = np.full((len(names), len(topics), depth), -1, dtype=np.int64)
    index[run_code[chosen], topic_code[chosen], slot[keep]] = value
    docs = items["doc"].to_numpy(object)
    per_topic = tuple(tuple(docs[a:b]) for a, b in zip(starts, np.r_[starts[1:], len(docs)]))
    return RankedLists(names, topics, per_topic, index, int((value < 0).sum()))


def _depth(specs: list[MeasureSpec], runs: pd.DataFrame) -> int:
    cuts = [s.k for s in specs]
    if any(k is None for k in cuts):  # Q over the whole run: the longest list
        longest = int(normalise_runs(runs).groupby(["run", "topic"]).size().max())
        cuts = [longest if k is None else k for k in cuts]
    return max(cuts)


def score_arrays(judged: Judged, spec: MeasureSpec, beta: float = 1.0) -> np.ndarray:
    """``(G, R, T)`` scores of one measure for every gain, run and topic (NaN: no positive gain)."""
    k = spec.k or judged.lists.k
    g = judged.lists.run_gains(judged.padded)[..., :k]         # (G, R, T, k)
    ideal = -np.sort(-judged.padded, axis=-1)[:, None, :, :]   # (G, 1, T, L+1)
    return measure_values(g, ideal, spec, beta)


def scored_runs(runs, frames: list[pd.DataFrame], specs: list[MeasureSpec],
                beta: float = 1.0) -> Scored:
    """Every run's scores ``(G, M, R, T)``: run files (:class:`RunFiles`) one at a time,
    or a runs frame all at once (:func:`judged_gains`); the same values either way."""
    if isinstance(runs, RunFiles):
        return score_run_files(runs, frames, specs, beta)
    judged = judged_gains(runs, frames, _depth(specs, runs))
    values = np.stack([score_arrays(judged, spec, beta) for spec in specs], axis=1)
    return Scored(judged.lists.runs, judged.lists.topics, values, judged.padded.max(axis=-1),
                  judged.notes)


def _gain_frames(ratings, qrels, gain_map, gains, p, dmax) -> list[pd.DataFrame]:
    if (ratings is None) == (qrels is None):
        raise InputError("give either ratings or qrels (with a gain map)")
    if qrels is not None:
        if gain_map is None:
            raise InputError("qrels need a gain map", hint="e.g. gain_map='1:1,2:3'")
        if any(g != "raw" for g in gains):
            raise InputError("WG and UG need per-assessor ratings, not qrels")
        mapping = parse_gain_map(gain_map) if isinstance(gain_map, str) else dict(gain_map)
        return [gains_from_qrels(qrels, mapping) for _ in gains]
    return [item_gains(ratings, g, p, dmax) for g in gains]


def score(runs: pd.DataFrame, ratings: pd.DataFrame | None = None, *,
          qrels: pd.DataFrame | None = None, gain_map=None, gain: str = "raw", p: float = 0.2,
          dmax: int | None = None, measures=("nG@1", "P+", "nERR", "Q"),
          per_topic: bool = False, beta: float = 1.0) -> pd.DataFrame:
    """Score every run: rows ``run, measure, topic, value`` (topic ``all``: the mean).

    ``ratings``: ``topic, assessor, doc, rating`` (or ``query_id``, ``doc_id``,
    ``relevance``); ``qrels`` + ``gain_map`` instead for one graded judgment
    per item.  ``runs``: ``run, topic, doc, rank`` (or ir_measures/ranx
    ``query_id, doc_id, score``), or :class:`RunFiles` to read and score run
    files one at a time (memory flat in the number of runs).  ``measure`` echoes the names given
    (``nERR@10``); ``all`` averages over the topics with a positive ideal
    gain, as NTCIREVAL users do.
    """
    specs = [parse_measure(m) for m in measures]
    frames = _gain_frames(ratings, qrels, gain_map, [gain], p, dmax)
    scored = scored_runs(runs, frames, specs, beta)
    valid = scored.gmax[0] > 0
    topics = np.array(scored.topics, dtype=object)
    values = scored.values[0].transpose(1, 0, 2)                                     # (R, M, T)
    means = values[..., valid].mean(axis=-1) if valid.any() else np.full(values.shape[:2], np.nan)
    # rows: for each run, for each measure, its topics (with per_topic) and then 'all'
    names = np.array([spec.name for spec in specs], dtype=object)
    kept = values[..., valid] if per_topic else values[..., :0]
    table = np.concatenate([kept, means[..., None]], axis=-1)                 # (R, M, T' + 1)
    width = table.shape[-1]
    out = pd.DataFrame({
        "run": np.repeat(np.array(scored.runs, dtype=object), len(specs) * width),
        "measure": np.tile(np.repeat(names, width), len(scored.runs)),
        "topic": np.tile(np.append(topics[valid] if per_topic else topics[:0], "all"),
                         len(scored.runs) * len(specs)),
        "value": table.ravel(),
    })
    out.attrs["excluded_topics"] = [str(t) for t in topics[~valid]]
    out.attrs["notes"] = scored.notes
    out.attrs["topics"] = int(valid.sum())
    return out
