"""Score one run after another under every judgment column: the engine inside ``evalkit score``.

For each run (a file read by :func:`evalkit.formats.trec.run_table`, or a
run of a frame), :func:`_place` orders each topic's documents
(:func:`evalkit.evaluate.runs.order.row_order`: by score as trec_eval does,
or by the rank column), cuts the lists at the deepest rank a measure needs,
looks each document up once among the judged items (integer keys, no
strings); :func:`_lists` gathers each document's gain and judgment status
under the columns of a :class:`~evalkit.evaluate.scoring.judgments.Judgments`,
and every measure of :mod:`evalkit.measures.registry` is computed for all
topics, a block of columns at a time (:data:`LIST_CELLS`); only the run's
values are kept (:func:`score_table`; the command line reads and scores two
files at a time, each on a thread of its own).

A qrels topic the run does not return is scored as an empty list (0 for
every measure: trec_eval's ``-c``) with ``missing="zero"``, or left out
(trec_eval's default) with ``missing="skip"``; run topics no column judges
are dropped.  :func:`score_runs` collects every run's values and the notes
for stderr.

trec_eval's options that change the lists (:class:`ListOptions`; trec_eval's
``form_res_rels.c`` in this order): ``depth`` (``-M N``) keeps the first N
documents of each topic's ordered list, and ``judged_only`` (``-J``) then
removes every document the judgment column does not judge (not in its qrels,
or graded below 0) and closes the gaps, column by column: a condensed list
(Sakai 2007), whose length is the column's ``retrieved`` count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd

from ...errors import InputError
from ...measures.ranked import JUDGED, RankedLists
from ...measures.registry import MeasureSpec
from ...measures.running import running_sum
from ..runs.order import row_order
from .judgments import Judgments
from .run_notes import Tally, by_file
from .values import measure_values, string_values

__all__ = ["MISSING", "ListOptions", "Scored", "RunScore", "score_table", "score_runs"]

#: ``--missing``: how a qrels topic the run does not return counts.
MISSING = ("zero", "skip")


@dataclass(frozen=True)
class ListOptions:
    """trec_eval's options on the ranked lists: ``depth`` (``-M``: the first ``depth``
    documents of each topic, None for all) and ``judged_only`` (``-J``: condensed lists)."""

    depth: int | None = None
    judged_only: bool = False

    def __post_init__(self):
        from ...errors import ParameterError

        if self.depth is not None and (isinstance(self.depth, bool) or int(self.depth) != self.depth
                                       or self.depth < 1):
            raise ParameterError("depth", self.depth, "a whole number of documents >= 1 "
                                 "(trec_eval's -M)")


@dataclass
class Scored:
    """Every run's scores ``values`` ``(G, M, R, T)``: runs sorted by name, topics sorted;
    NaN where a column cannot score a topic.  ``present`` ``(R, T)``: the run returns the
    topic."""

    runs: tuple[str, ...]
    topics: tuple[str, ...]
    columns: tuple[str, ...]
    values: np.ndarray
    present: np.ndarray
    positive: np.ndarray               # (G, T) topics with a positive gain (NTCIREVAL)
    notes: list[str] = field(default_factory=list)
    dropped: tuple[str, ...] = ()      # run topics no column judges (left out)
    strings: dict = field(default_factory=dict)   # string measure -> (G, R, T) texts (relstring)


def _depth(specs: list[MeasureSpec], longest: int) -> int:
    return max(longest if s.k is None else s.k for s in specs)


def _cap(n, options: ListOptions):
    """``n`` documents cut at ``options.depth`` (trec_eval's ``-M``)."""
    return n if options.depth is None else np.minimum(n, options.depth)


#: Cells (columns x topics x ranks) of one block of ranked lists: with many judges' columns
#: the measures are computed a block of columns at a time, so that their temporary arrays
#: stay near 4 MB each on each of the two threads that score at once (ten judges, 200
#: topics, 1,000 ranks: 16 MB each at once; 2^20 cells on two threads: 399 MB at the peak,
#: 2^19: 367 MB and no slower).
LIST_CELLS = 1 << 19


@dataclass(frozen=True)
class _Placed:
    """Where one run's judged documents go: rank ``slot`` of topic ``topic``, item ``item``."""

    topic: np.ndarray
    slot: np.ndarray
    item: np.ndarray
    retrieved: np.ndarray          # (T,) documents the run returns per topic (at most -M)
    depth: int                     # ranks placed (with judged_only: the whole -M list)
    shown: np.ndarray              # (T,) the run returns the topic


def _place(table, j: Judgments, specs: list[MeasureSpec], order: str,
           options: ListOptions = ListOptions()) -> tuple[_Placed, dict]:
    """Where one run table's judged documents go, and a dict with ``unjudged`` (retrieved
    documents no column holds), ``dropped`` (run topics no column judges), ``dropped_rows``,
    ``kept`` rows and ``disagree`` (topics whose rank order differs from the score order).

    The lists are cut at ``options.depth`` first; with ``options.judged_only`` every rank
    of that cut is placed, since a condensed list's k-th document may lie deeper."""
    topic_of_code = j.topics.get_indexer(pd.Index(table.topics, dtype=object))
    row_topic = topic_of_code[table.topic_code]
    sel = np.flatnonzero(row_topic >= 0)
    ordered = row_order(table.topic_code[sel], table.rank[sel], table.score[sel],
                        lambda r: table.doc_ids(table.doc_code[sel[r]]), order)
    rows = sel[ordered.rows]
    tc = row_topic[rows]
    whole = np.bincount(tc, minlength=len(j.topics))
    retrieved = _cap(whole, options)
    longest = int(retrieved.max(initial=0))
    depth = max(longest if options.judged_only else int(_cap(_depth(specs, longest), options)), 1)
    starts = np.r_[0, np.flatnonzero(tc[1:] != tc[:-1]) + 1] if len(tc) else np.zeros(0, np.int64)
    slot = np.arange(len(tc)) - np.repeat(starts, np.diff(np.r_[starts, len(tc)]))
    keep = slot < depth
    rows, tc, slot = rows[keep], tc[keep], slot[keep]
    vocab = np.flatnonzero(table.doc_code[rows] < len(j.docs))       # vocabulary docs come first
    found, item = _items(j, tc[vocab], table.doc_code[rows[vocab]])
    found = vocab[found]
    info = {"unjudged": int(len(rows) - len(found)), "kept": int(len(sel)),
            "dropped": [table.topics[c] for c in np.flatnonzero(topic_of_code < 0)],
            "dropped_rows": int(len(row_topic) - len(sel)), "disagree": ordered.disagree}
    return _Placed(tc[found], slot[found], item, retrieved, depth, whole > 0), info


def _lists(placed: _Placed, j: Judgments, columns: slice, specs: list[MeasureSpec] | None = None,
           judged_only: bool = False) -> RankedLists:
    """The ranked lists of the judgment columns ``columns``; with ``judged_only`` each
    column's condensed lists (trec_eval's ``-J``), cut at the depth ``specs`` read, and
    ``retrieved`` ``(G, T)``: each column's judged documents."""
    n_cols = len(range(*columns.indices(len(j.names))))
    shape = (n_cols, len(j.topics), placed.depth)
    gains, status = np.zeros(shape), np.zeros(shape, np.int8)
    gains[:, placed.topic, placed.slot] = j.gains[columns, placed.item]
    status[:, placed.topic, placed.slot] = j.status[columns, placed.item]
    retrieved = placed.retrieved
    if judged_only:
        gains, status, retrieved = _condensed(gains, status, specs)
    return RankedLists(gains, status, retrieved, j.ideal[columns], j.judged[columns],
                       j.in_qrels[columns], j.gmax[columns])


def _condensed(gains: np.ndarray, status: np.ndarray, specs) -> tuple:
    """Each column's lists without the documents it does not judge (status other than
    :data:`~evalkit.measures.ranked.JUDGED`), the rest moved up in order (trec_eval
    ``form_res_rels.c`` with ``judged_docs_only_flag``); ``(gains, status, retrieved)``
    with ``retrieved`` ``(G, T)`` the judged documents of each list, cut at the depth the
    measures read."""
    keep = status == JUDGED
    retrieved = keep.sum(axis=-1)
    depth = max(_depth(specs, int(retrieved.max(initial=0))), 1)
    g, t, r = np.nonzero(keep)
    slot = (running_sum(keep) - 1)[g, t, r]
    inside = slot < depth
    shape = gains.shape[:2] + (depth,)
    out_gains, out_status = np.zeros(shape), np.zeros(shape, np.int8)
    out_gains[g[inside], t[inside], slot[inside]] = gains[g, t, r][inside]
    out_status[g[inside], t[inside], slot[inside]] = JUDGED
    return out_gains, out_status, retrieved


def _blocks(n_cols: int, cells_per_column: int):
    """Slices of at most :data:`LIST_CELLS` cells' worth of columns (at least one column)."""
    step = max(1, LIST_CELLS // max(cells_per_column, 1))
    return [slice(a, min(a + step, n_cols)) for a in range(0, n_cols, step)]


def _items(j: Judgments, topic: np.ndarray, doc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(found, item)``: which (topic, vocabulary document) rows are judged items, and the
    items: a document judged for one topic only by a look-up, the others by a search."""
    cand = j.doc_item[doc]
    one = cand >= 0
    hit = np.zeros(len(doc), bool)
    hit[one] = j.item_topic[cand[one]] == topic[one]
    item = np.where(hit, cand, -1)
    several = np.flatnonzero(cand == -2)
    if len(several):
        key = topic[several].astype(np.int64) * max(len(j.docs), 1) + doc[several]
        at = np.minimum(np.searchsorted(j.keys, key), max(len(j.keys) - 1, 0))
        there = j.keys[at] == key
        hit[several[there]] = True
        item[several[there]] = j.position[at[there]]
    found = np.flatnonzero(hit)
    return found, item[found]


@dataclass
class RunScore:
    """One run scored: ``values`` ``(G, M, T)``, ``texts`` (string measure -> ``(G, T)``),
    ``shown`` ``(T,)`` (the run returns the topic) and what its notes need (``info``:
    :func:`_place`'s)."""

    tag: str
    path: object
    values: np.ndarray
    texts: dict
    shown: np.ndarray
    info: dict
    extra_lines: int


def score_table(table, judgments: Judgments, specs: list[MeasureSpec], order: str = "score",
                missing: str = "zero", options: ListOptions = ListOptions(),
                strings=()) -> RunScore:
    """One run table under every judgment column (see the module docstring): its lists
    placed once, then every measure a block of columns at a time."""
    read = [*specs, *strings]                       # the string measures' ranks are read too
    placed, info = _place(table, judgments, read, order, options)
    values, texts = [], {s.name: [] for s in strings}
    for block in _blocks(len(judgments.names), len(judgments.topics) * placed.depth):
        lists = _lists(placed, judgments, block, read, options.judged_only)
        values.append(measure_values(lists, specs, placed.shown, missing))
        for s in strings:
            texts[s.name].append(string_values(lists, s, placed.shown, missing))
    return RunScore(table.tag, table.path, np.concatenate(values),
                    {name: np.concatenate(parts) for name, parts in texts.items()},
                    placed.shown, info, table.extra_lines)


def score_runs(tables, judgments: Judgments, specs: list[MeasureSpec], order: str = "score",
               missing: str = "zero", progress=None,
               options: ListOptions = ListOptions(), rename: dict | None = None,
               strings=(), mapper=map) -> Scored:
    """Score each run table of the iterable ``tables`` (see the module docstring):
    ``mapper(score, tables)`` gives the :class:`RunScore` of each in order (``map``: one
    after another; the command line's reads and scores files on two threads,
    :func:`evalkit.evaluate.scoring.engine.scored_runs`).

    ``progress(done, topics)`` is called after each run (a progress line); ``options``:
    trec_eval's ``-M`` and ``-J`` (:class:`ListOptions`).  ``rename``: ``{OLD: NEW}``, OLD a
    run tag or a run file (``--rename``); run files whose tags are still alike are named by
    their files (:func:`~.run_notes.by_file`, said in the notes).  ``strings``: specs of
    string measures (``relstring``: :func:`evalkit.measures.relstring.relstring`), computed
    on the same lists (``Scored.strings``; None where a topic is not scored).
    """
    if missing not in MISSING:
        from ...errors import ParameterError

        raise ParameterError("missing", missing, " or ".join(MISSING))
    n_topics = len(judgments.topics)
    per_run, names, present, paths = [], [], [], []
    texts: dict = {s.name: [] for s in strings}
    rename, used = dict(rename or {}), set()
    tally = Tally()
    each = partial(score_table, judgments=judgments, specs=specs, order=order, missing=missing,
                   options=options, strings=strings)
    for done, run in enumerate(mapper(each, tables), start=1):
        key = next((k for k in (str(run.path), run.tag) if k in rename), None)
        if key is not None:
            used.add(key)
        paths.append(run.path)
        per_run.append(run.values)
        for name, values in run.texts.items():
            texts[name].append(values)
        names.append(rename[key] if key is not None else run.tag)
        present.append(run.shown)
        tally.add(run, judgments)
        if progress is not None:
            progress(done, done * n_topics)
    if tally.kept == 0:
        raise InputError("no run row is for a judged topic",
                         hint="check that runs and judgments use the same topic ids")
    unused = [k for k in rename if k not in used]
    if unused:
        raise InputError(f"--rename {unused[0]}={rename[unused[0]]}: no run file or run tag is "
                         f"called {unused[0]}", hint="OLD is a run file given or a run's tag")
    names, by_name = by_file(names, paths)
    order_idx = sorted(range(len(names)), key=names.__getitem__)
    values = np.stack([per_run[i] for i in order_idx], axis=2)              # (G, M, R, T)
    return Scored(tuple(names[i] for i in order_idx), tuple(judgments.topics), judgments.names,
                  values, np.stack([present[i] for i in order_idx]), judgments.positive,
                  by_name + tally.notes(order, missing, n_topics),
                  tuple(sorted(map(str, tally.dropped))),
                  {name: np.stack([runs[i] for i in order_idx], axis=1)
                   for name, runs in texts.items()})
