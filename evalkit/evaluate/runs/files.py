"""Score TREC run files one at a time: ``evalkit score`` and ``compare`` at TREC scale.

Sakai (2017, §4) scores every run with NTCIREVAL's direct gain values; a
TREC-sized evaluation (tens of runs x hundreds of topics x 1,000 documents)
does the same per run file.  Each file is read in one compiled pass
(:func:`evalkit.formats.trec.run_table`), its documents looked up once per
(topic, document) through integer codes, its lists cut at the deepest cutoff a
measure needs (``Q`` the whole list; ``nERR@10``, ``P+`` and ``nG@1`` ten
ranks or one), scored, and dropped before the next file is read, so memory
does not grow with the number of runs.  The judged items, their gains and the
ideal lists are built once per topic and gain definition (judge).

The answers are those of :func:`evalkit.evaluate.scoring.engine.judged_gains` and
:func:`evalkit.evaluate.scoring.engine.score_arrays` on all runs at once (tested).
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...errors import InputError
from ...measures.graded import batch_measures
from ...measures.registry import MeasureSpec

__all__ = ["RunFiles", "JudgedItems", "judged_items", "Scored", "score_run_files",
           "measure_values", "Progress", "PROGRESS_MIN_BYTES"]


class RunFiles(tuple):
    """TREC run files to be read one at a time (pass it where a runs frame is expected).

    ``compiled``: read them with the compiled scanner (default: when they add up
    to :data:`~evalkit.formats._columns.COMPILED_MIN_BYTES`); the same answers.
    """

    def __new__(cls, paths, compiled: bool | None = None):
        files = super().__new__(cls, tuple(str(p) for p in paths))
        files.compiled = compiled
        return files

    def use_compiled(self) -> bool:
        from ...formats._columns import use_compiled

        return use_compiled(*self) if self.compiled is None else self.compiled

    def frame(self) -> pd.DataFrame:
        """All files in one runs frame (for work that needs every run at once), refusing two
        files with the same run tag as the one-at-a-time path does."""
        from ...formats.trec import read_run

        frames, where, compiled = [], {}, self.use_compiled()
        for path in self:
            run = read_run(path, compiled=compiled)
            for tag in pd.unique(run["run"]):
                if tag in where:
                    raise InputError(f"two run files share the run tag {tag} "
                                     f"(the other: {where[tag]})", path=path)
                where[tag] = path
            frames.append(run)
        return pd.concat(frames, ignore_index=True)


@dataclass(frozen=True)
class JudgedItems:
    """The judged (topic, doc) items, sorted, with G gain definitions and their ideal lists.

    ``keys`` are the items' ``topic x len(docs) + doc`` codes in ascending order and
    ``position[i]`` the item (in (topic, doc) order) of ``keys[i]``; ``gains`` is
    ``(G, items)``; ``ideal`` ``(G, T, L+1)`` each topic's gains sorted descending
    (0-padded), computed once.
    """

    topics: pd.Index
    docs: pd.Index
    keys: np.ndarray
    position: np.ndarray
    gains: np.ndarray
    ideal: np.ndarray


def judged_items(gain_frames: list[pd.DataFrame]) -> JudgedItems:
    """Index the items of ``gain_frames`` (``topic, doc, gain``; the same items in each)."""
    frames = [f.sort_values(["topic", "doc"], kind="stable") for f in gain_frames]
    first = frames[0]
    topic_code, topics = pd.factorize(first["topic"], sort=False)   # sorted already: in order
    doc_code, docs = pd.factorize(first["doc"], sort=False)
    keys = topic_code.astype(np.int64) * max(len(docs), 1) + doc_code
    position = np.argsort(keys, kind="stable")
    gains = np.stack([f["gain"].to_numpy(float) for f in frames])
    for f in frames[1:]:
        if len(f) != len(first):
            raise InputError(f"got {len(f)} gains for {len(first)} judged items")
    starts = np.searchsorted(topic_code, np.arange(len(topics)))
    within = np.arange(len(first)) - starts[topic_code]
    width = int(np.bincount(topic_code, minlength=1).max(initial=0)) + 1
    padded = np.zeros((len(frames), len(topics), width))
    padded[:, topic_code, within] = gains
    ideal = -np.sort(-padded, axis=-1)
    return JudgedItems(pd.Index(topics), pd.Index(docs), keys[position], position, gains, ideal)


def measure_values(g: np.ndarray, ideal: np.ndarray, spec: MeasureSpec,
                   beta: float = 1.0) -> np.ndarray:
    """Scores of one measure from run gains ``g`` ``(..., k)`` cut at its ``k`` and the
    descending ideal gains ``(..., L+1)``; NaN where a topic has no positive gain.

    ``nG@1`` is ``g(k)/g*(k)`` (Sakai 2017 §4); the others are
    :func:`evalkit.measures.graded.batch_measures`.
    """
    k = g.shape[-1]
    if spec.base == "nG":
        ideal_k = ideal[..., k - 1] if ideal.shape[-1] >= k else np.zeros(ideal.shape[:-1])
        with np.errstate(invalid="ignore", divide="ignore"):
            values = np.where(ideal_k > 0, g[..., k - 1] / ideal_k, np.nan)
        return np.where(ideal[..., 0] > 0, values, np.nan) * np.ones(g.shape[:-1])
    return batch_measures(g, ideal, [spec.base], beta=beta, ideal_sorted=True)[spec.base]


@dataclass
class Scored:
    """Scores of every run: ``values`` ``(G, M, R, T)``; runs sorted by name, topics sorted."""

    runs: tuple[str, ...]
    topics: tuple[str, ...]
    values: np.ndarray
    gmax: np.ndarray                   # (G, T) largest gain of each topic (0: cannot normalise)
    notes: list[str] = field(default_factory=list)


#: Run files adding up to more bytes than this (a few seconds' reading) show progress.
PROGRESS_MIN_BYTES = 20_000_000


class Progress:
    """One self-overwriting progress line, only when ``stream`` (stderr) is a terminal
    and the run files add up to more than :data:`PROGRESS_MIN_BYTES`."""

    def __init__(self, files: RunFiles, stream=None):
        self.stream = stream or sys.stderr
        size = sum(os.path.getsize(p) for p in files if os.path.isfile(p))
        tty = getattr(self.stream, "isatty", lambda: False)()
        self.on = bool(tty) and size > PROGRESS_MIN_BYTES
        self.total, self.last, self.shown = len(files), 0.0, False

    def update(self, done: int, topics: int) -> None:
        now = time.monotonic()
        if self.on and (now - self.last > 0.25 or done == self.total):
            self.last, self.shown = now, True
            self.stream.write(f"\revalkit: read and scored {done}/{self.total} run files "
                              f"({topics} topic lists)")
            self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _run_gains(table, items: JudgedItems, specs: list[MeasureSpec]):
    """One run's gains ``(G, T, depth)``, its depth, unjudged count and dropped topics."""
    topic_of_code = items.topics.get_indexer(pd.Index(table.topics, dtype=object))
    row_topic = topic_of_code[table.topic_code]
    longest = int(np.bincount(table.topic_code).max()) if len(table.topic_code) else 0
    cuts = [s.k for s in specs]
    depth = max(longest if k is None else k for k in cuts)
    sel = np.flatnonzero(row_topic >= 0)
    tc = row_topic[sel]
    order = _by_topic_and_rank(tc, table.rank[sel])
    tc = tc[order]
    first = np.r_[0, np.flatnonzero(np.diff(tc)) + 1] if len(tc) else np.zeros(0, np.int64)
    slot = np.arange(len(tc)) - np.repeat(first, np.diff(np.r_[first, len(tc)]))
    keep = slot < depth
    rows, tc, slot = sel[order[keep]], tc[keep], slot[keep]
    judged = np.flatnonzero(table.doc_code[rows] < len(items.docs))   # vocabulary docs come first
    key = tc[judged].astype(np.int64) * max(len(items.docs), 1) + table.doc_code[rows[judged]]
    at = np.minimum(np.searchsorted(items.keys, key), max(len(items.keys) - 1, 0))
    hit = items.keys[at] == key if len(items.keys) else np.zeros(len(key), bool)
    found = judged[hit]
    g = np.zeros((items.gains.shape[0], len(items.topics), depth))
    g[:, tc[found], slot[found]] = items.gains[:, items.position[at[hit]]]
    dropped = [table.topics[c] for c in np.flatnonzero(topic_of_code < 0)]
    return g, int(len(rows) - len(found)), dropped, int(len(row_topic) - len(sel)), len(sel)


def _by_topic_and_rank(topic: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """``np.lexsort((rank, topic))``: rows by topic, then rank, ties in file order.

    One stable sort of a combined integer key when it fits in int64 (a run
    file already in that order, the usual case, is then sorted in one pass).
    """
    if len(rank) and rank.dtype.kind in "iu":
        span = int(rank.max()) - int(rank.min()) + 1
        if (int(topic.max()) + 1) * span < 2 ** 62:        # then rank - min fits in its dtype
            key = topic.astype(np.int64) * span + (rank - rank.min()).astype(np.int64)
            return np.argsort(key, kind="stable")
    return np.lexsort((rank, topic))


def score_run_files(files: RunFiles, gain_frames: list[pd.DataFrame], specs: list[MeasureSpec],
                    beta: float = 1.0, progress=None) -> Scored:
    """Read, check and score each run file in turn (see the module docstring).

    ``progress``: the stream of the progress line (default stderr; see :class:`Progress`).
    """
    from ...formats._columns import distinct_ids
    from ...formats.trec import run_table

    items = judged_items(gain_frames)
    compiled = files.use_compiled()
    vocabulary = distinct_ids(items.docs.to_numpy(dtype=object))
    if compiled:
        from ...formats._intern import Interned

        vocabulary = Interned(vocabulary)                          # hashed once for every file
    n_gains, n_topics = items.gains.shape[0], len(items.topics)
    per_run, names, where = [], [], {}
    unjudged, kept, dropped_rows, dropped = 0, 0, 0, set()
    progress = Progress(files, progress)
    try:
        for done, path in enumerate(files, start=1):
            table = run_table(path, vocabulary, compiled)
            if table.tag in where:
                raise InputError(f"two run files share the run tag {table.tag} "
                                 f"(the other: {where[table.tag]})", path=path)
            where[table.tag] = path
            names.append(table.tag)
            g, missing, extra, n_dropped, n_kept = _run_gains(table, items, specs)
            del table
            values = np.empty((n_gains, len(specs), n_topics))
            for m, spec in enumerate(specs):
                values[:, m] = measure_values(g[..., : spec.k or g.shape[-1]], items.ideal,
                                              spec, beta)
            per_run.append(values)
            unjudged += missing
            kept += n_kept
            dropped_rows += n_dropped
            dropped.update(extra)
            progress.update(done, done * n_topics)
    finally:
        progress.close()
    notes = []
    if dropped:
        extra = sorted(dropped)
        notes.append(f"{len(extra)} run topics have no judgments and were dropped "
                     f"({dropped_rows} rows): {', '.join(extra[:10])}"
                     + (" ..." if len(extra) > 10 else ""))
    if kept == 0:
        raise InputError("no run row is for a judged topic",
                         hint="check that runs and judgments use the same topic ids")
    if unjudged:
        notes.append(f"{unjudged} retrieved documents are unjudged (gain 0)")
    order = sorted(range(len(names)), key=names.__getitem__)
    values = np.stack([per_run[i] for i in order], axis=2)              # (G, M, R, T)
    return Scored(tuple(names[i] for i in order), tuple(items.topics), values,
                  items.ideal[..., 0], notes)
