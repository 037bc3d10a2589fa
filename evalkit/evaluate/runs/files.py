"""Run files read one at a time: ``evalkit score`` and ``compare`` at TREC scale.

A TREC-sized evaluation (tens of runs x hundreds of topics x 1,000
documents) is read run file by run file (:class:`RunFiles`): each file is
read in one compiled pass (:func:`evalkit.formats.trec.run_table`), scored
(:mod:`evalkit.evaluate.scoring.lists`) and dropped before the next is read,
so memory does not grow with the number of runs; :class:`Progress` shows a
progress line on a terminal for large inputs.  :func:`run_tables` gives the
same tables for a runs frame.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...errors import InputError

__all__ = ["RunFiles", "run_tables", "Progress", "PROGRESS_MIN_BYTES"]


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


def run_tables(runs: pd.DataFrame, vocabulary) -> list:
    """One :class:`~evalkit.formats.trec.RunTable` per run of a runs frame (``run, topic, doc,
    rank, score``; :func:`~evalkit.evaluate.runs.frames.normalise_runs`), in run-name
    order, with documents coded as :func:`~evalkit.formats.trec.run_table` codes them
    (``vocabulary`` first)."""
    from ...formats.trec import RunTable

    vocabulary = np.asarray(vocabulary, dtype=object)
    doc_code, docs = pd.factorize(np.concatenate([vocabulary, runs["doc"].to_numpy(object)]),
                                  sort=False)
    doc_code = doc_code[len(vocabulary):]
    docs = np.asarray(docs, dtype=object)
    tables = []
    for name, rows in runs.groupby("run", sort=True).indices.items():
        topic_code, topics = pd.factorize(runs["topic"].to_numpy(object)[rows], sort=False)
        tables.append(RunTable(None, str(name), topic_code, list(topics), doc_code[rows],
                               runs["rank"].to_numpy()[rows], runs["score"].to_numpy(float)[rows],
                               lambda: docs))
    return tables
