"""The judged items and the judgment columns runs are scored under: one per judge, or pooled gains.

A judgment column gives each (topic, document) it holds a gain and a status
(:mod:`evalkit.measures.ranked`: judged, or in the qrels with a grade below
0, which trec_eval reads as "in the pool but unjudged").  ``evalkit score``
builds its columns here:

* :func:`pooled_column`: one gain per item from every judge's labels (RawG,
  WG or Sakai's UG: :func:`evalkit.evaluate.judges.gains.item_gains`), named
  ``all:raw``, ``all:wg`` or ``all:ug``; labels below 0 are left out of the
  gain (an item labelled only below 0 is in the pool, unjudged);
* :func:`judge_columns`: each judge's own labels, the grade as the gain
  (``--per-judge``), exactly one judge's qrels as trec_eval reads them, or
  each grade through ``--gain-map`` (and :func:`mapped_pooled_column`, their
  sum, for ``all:raw``);
* :func:`qrels_column`: graded qrels through a gain map (NTCIREVAL's gain
  values).

:func:`judgments` indexes the columns' items once (sorted by topic, then
document), with each topic's ideal list, its judged and relevant counts and
the columns' largest gains, so that every run file is scored against them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import InputError
from ...measures.ranked import JUDGED, UNJUDGED
from ..columns import rename
from ..judges.gains import gains_from_qrels, item_gains, sorted_codes

__all__ = ["Judgments", "judgments", "pooled_column", "judge_columns", "mapped_pooled_column",
           "qrels_column"]

#: A column: ``topic, doc, gain, status`` (status int8 as in evalkit.measures.ranked).
COLUMNS = ["topic", "doc", "gain", "status"]


@dataclass(frozen=True)
class Judgments:
    """``G`` judgment columns over the union of their items.

    ``keys`` are the items' ``topic x len(docs) + doc`` codes in ascending
    order and ``position[i]`` the item (in (topic, doc) order) of ``keys[i]``;
    ``gains`` and ``status`` are ``(G, items)`` (0 and not-in-qrels where a
    column does not hold the item); ``ideal`` ``(G, T, L)`` each topic's gains
    sorted descending (0-padded); ``judged`` ``(G, T)`` the items judged
    (grade >= 0); ``in_qrels`` ``(G, T)`` whether the column holds the topic;
    ``gmax`` ``(G,)`` each column's largest possible gain (ERR); ``doc_item`` and
    ``item_topic`` find most items without a search (a document judged for one topic).
    """

    names: tuple[str, ...]
    topics: pd.Index
    docs: pd.Index
    keys: np.ndarray
    position: np.ndarray
    gains: np.ndarray
    status: np.ndarray
    ideal: np.ndarray
    judged: np.ndarray
    in_qrels: np.ndarray
    gmax: np.ndarray
    doc_item: np.ndarray               # (docs,) the item of a document judged for one topic only,
    item_topic: np.ndarray             # -2 for one judged for several; (items,) each item's topic

    @property
    def positive(self) -> np.ndarray:
        """``(G, T)``: topics with a positive gain (NTCIREVAL can normalise only those)."""
        return self.ideal[..., 0] > 0


def judgments(columns: dict[str, pd.DataFrame], gmax: dict[str, float] | None = None) -> Judgments:
    """Index ``columns`` (name -> ``topic, doc, gain[, status]``; status defaults to judged).

    ``gmax``: each column's largest possible gain (default: its largest gain, at least 1).
    """
    names = tuple(columns)
    if not names:
        raise InputError("no judgments to score against")
    frames = [f.assign(status=np.int8(JUDGED)) if "status" not in f else f
              for f in columns.values()]
    sizes = [len(f) for f in frames]
    topic = np.concatenate([f["topic"].to_numpy(object) for f in frames])
    doc = np.concatenate([f["doc"].to_numpy(object) for f in frames])
    topic_code, topics = sorted_codes(topic)
    doc_code, docs = sorted_codes(doc)                  # both sorted: keys in (topic, doc) order
    width = np.int64(max(len(docs), 1))
    raw_keys = topic_code.astype(np.int64) * width + doc_code
    item_key, item_of = np.unique(raw_keys, return_inverse=True)
    item_topic = (item_key // width).astype(np.int64)
    by_doc = np.arange(len(item_key))
    rank_of = np.empty(len(by_doc), np.int64)
    rank_of[by_doc] = np.arange(len(by_doc))
    n_items = len(item_key)
    gains = np.zeros((len(names), n_items))
    status = np.zeros((len(names), n_items), np.int8)
    column = np.repeat(np.arange(len(names)), sizes)
    where = rank_of[item_of]
    twice = pd.Series(column * n_items + where).duplicated()
    if twice.any():
        at = int(np.flatnonzero(twice.to_numpy())[0])
        raise InputError(f"judgment column {names[column[at]]} holds document {doc[at]} of topic "
                         f"{topic[at]} twice")
    gains[column, where] = np.concatenate([f["gain"].to_numpy(float) for f in frames])
    status[column, where] = np.concatenate([f["status"].to_numpy(np.int8) for f in frames])
    ordered_topic = item_topic[by_doc]
    keys = item_key[by_doc]
    position = np.argsort(keys, kind="stable")
    counts = np.bincount(ordered_topic, minlength=len(topics))
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    within = np.arange(n_items) - starts[ordered_topic]
    padded = np.zeros((len(names), len(topics), int(counts.max(initial=0)) + 1))
    padded[:, ordered_topic, within] = gains
    ideal = -np.sort(-padded, axis=-1)
    judged = np.zeros((len(names), len(topics)), np.int64)
    held = np.zeros((len(names), len(topics)), bool)
    for g in range(len(names)):
        judged[g] = np.bincount(ordered_topic, weights=status[g] == JUDGED, minlength=len(topics))
        held[g] = np.bincount(ordered_topic, weights=status[g] > 0, minlength=len(topics)) > 0
    tops = np.array([(gmax or {}).get(n, max(float(gains[g].max(initial=0)), 1.0))
                     for g, n in enumerate(names)])
    item_doc = keys % width                                      # items in (topic, doc) order
    per_doc = np.bincount(item_doc, minlength=len(docs))
    doc_item = np.where(per_doc == 1, 0, -2).astype(np.int64)
    doc_item[item_doc[per_doc[item_doc] == 1]] = np.flatnonzero(per_doc[item_doc] == 1)
    return Judgments(names, pd.Index(np.asarray(topics, dtype=object)), pd.Index(docs),
                     keys[position], position, gains, status, ideal, judged, held, tops,
                     doc_item, ordered_topic)


def _status(grades: np.ndarray) -> np.ndarray:
    return np.where(grades < 0, UNJUDGED, JUDGED).astype(np.int8)


def pooled_column(ratings: pd.DataFrame, gain: str, p: float, dmax: int | None) -> pd.DataFrame:
    """``topic, doc, gain, status`` pooled over every judge (``ratings``: ``topic, assessor, doc,
    rating``); ratings below 0 are not ratings of the gain, and an item with no other is
    in the pool but unjudged (gain 0)."""
    r = ratings
    values = pd.to_numeric(r["rating"], errors="coerce") if "rating" in r else None
    below = (values < 0).to_numpy() if values is not None else np.zeros(len(r), bool)
    kept = r[~below] if below.any() else r
    out = item_gains(kept, gain, p, dmax) if len(kept) else pd.DataFrame(
        {"topic": [], "doc": [], "gain": []})
    out = out[["topic", "doc", "gain"]].assign(status=np.int8(JUDGED))
    if below.any():
        low = r[below][["topic", "doc"]].astype(str).drop_duplicates()
        merged = low.merge(out[["topic", "doc"]], how="left", indicator=True)
        only = merged[merged["_merge"] == "left_only"][["topic", "doc"]]
        out = pd.concat([out, only.assign(gain=0.0, status=np.int8(UNJUDGED))], ignore_index=True)
    return out


def _mapped(labels: pd.DataFrame, gain_map: dict | None) -> np.ndarray:
    """Each label's gain: its grade (0 below 0), or through ``gain_map`` (grades <= 0: 0; a
    positive grade the map lacks is an error naming it)."""
    grades = labels["grade"].to_numpy(np.int64)
    if gain_map is None:
        return np.maximum(grades, 0).astype(float)
    return gains_from_qrels(labels[["topic", "doc", "grade"]], gain_map)["gain"].to_numpy(float)


def judge_columns(labels: pd.DataFrame, gain_map: dict | None = None) -> dict[str, pd.DataFrame]:
    """One column per judge of ``labels`` (``topic, judge, doc, grade``): the grade as the
    gain (0 below 0), as trec_eval reads that judge's qrels, or the grade through
    ``gain_map`` (``--gain-map``, NTCIREVAL's gain values)."""
    out = {}
    gains = _mapped(labels, gain_map)
    for judge, rows in labels.groupby("judge", sort=False).indices.items():
        part = labels.iloc[rows]
        out[str(judge)] = pd.DataFrame({"topic": part["topic"].to_numpy(object),
                                        "doc": part["doc"].to_numpy(object),
                                        "gain": gains[rows],
                                        "status": _status(part["grade"].to_numpy(np.int64))})
    return out


def mapped_pooled_column(labels: pd.DataFrame, gain_map: dict) -> pd.DataFrame:
    """``all:raw`` over judges whose grades ``gain_map`` maps first: an item's gain is the sum
    of its judges' mapped gains; an item labelled only below 0 is in the pool, unjudged."""
    frame = pd.DataFrame({"topic": labels["topic"].to_numpy(object),
                          "doc": labels["doc"].to_numpy(object),
                          "gain": _mapped(labels, gain_map),
                          "judged": labels["grade"].to_numpy(np.int64) >= 0})
    items = frame.groupby(["topic", "doc"], sort=False).agg(gain=("gain", "sum"),
                                                            judged=("judged", "any")).reset_index()
    status = np.where(items["judged"].to_numpy(), JUDGED, UNJUDGED).astype(np.int8)
    return items[["topic", "doc", "gain"]].assign(status=status)


def qrels_column(qrels: pd.DataFrame, gain_map) -> pd.DataFrame:
    """Graded qrels through ``gain_map`` (grade -> gain; grades <= 0 have gain 0, grades
    below 0 are in the pool but unjudged)."""
    out = gains_from_qrels(qrels, gain_map)
    grades = pd.to_numeric(rename(qrels, ("topic", "doc", "grade"), what="qrels")["grade"])
    grades = grades.to_numpy()
    return out[["topic", "doc", "gain"]].assign(status=_status(grades))
