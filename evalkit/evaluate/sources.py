"""Inputs as the Python API takes them: paths or frames, for runs, qrels and ratings.

:func:`evalkit.evaluate.score`, :func:`~evalkit.evaluate.compare` and
:func:`~evalkit.evaluate.assessors` accept what a notebook has at hand: a
runs frame or run files (a path, a folder of run files, or a list of paths),
a qrels frame or a qrels file, a ratings frame or a ratings file; files are
read by the readers the commands use (:mod:`evalkit.formats`), with the same
checks and messages.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..errors import InputError
from .runs.files import RunFiles

__all__ = ["runs_source", "qrels_frame", "ratings_frame"]


def _is_path(value) -> bool:
    return isinstance(value, (str, Path))


def runs_source(runs):
    """A runs frame as it is; a path (a run file, or a folder of them) or a list of paths as
    :class:`RunFiles` (read one at a time)."""
    if isinstance(runs, (pd.DataFrame, RunFiles)):
        return runs
    if _is_path(runs):
        path = Path(runs)
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
            if not files:
                raise InputError("no run files found", path=path)
            return RunFiles(files)
        return RunFiles([path])
    if isinstance(runs, (list, tuple)) and all(_is_path(r) for r in runs):
        return RunFiles(runs)
    raise InputError(f"runs must be a frame, a run file, a folder of run files or a list of "
                     f"paths, not {type(runs).__name__}")


def qrels_frame(qrels):
    """A qrels frame as it is (or None); a path read as TREC qrels."""
    if qrels is None or isinstance(qrels, pd.DataFrame):
        return qrels
    if _is_path(qrels):
        from ..formats.trec import read_qrels

        return read_qrels(qrels)
    raise InputError(f"qrels must be a frame or a qrels file, not {type(qrels).__name__}")


def ratings_frame(ratings):
    """A ratings frame as it is (or None); a path read as a per-assessor ratings file
    (``topic assessor doc rating``, or the NTCIR STC-ja file)."""
    if ratings is None or isinstance(ratings, pd.DataFrame):
        return ratings
    if _is_path(ratings):
        from .judges.labels import labels_to_ratings, read_labels

        return labels_to_ratings(read_labels(ratings=ratings)[0])
    raise InputError(f"ratings must be a frame or a ratings file, not {type(ratings).__name__}")
