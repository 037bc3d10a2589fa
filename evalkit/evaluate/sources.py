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

__all__ = ["runs_source", "qrels_frame", "ratings_frame", "ratings_and_judges", "labels_from"]


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


def ratings_and_judges(ratings, judges, grades: tuple[int, int] | None = None,
                       clip: bool = False):
    """``(ratings frame or None, judges, notes)``: ``{name: qrels path or frame}`` given where
    the ratings go (``assessors(runs, {"alice": "alice.qrels", ...})``) is taken as the judges;
    with ``grades`` or ``clip`` every label is read on that scale (:func:`labels_from`), and the
    judges come back as one labels frame."""
    if isinstance(ratings, dict):
        if judges is not None:
            raise InputError("give the judges once: a {name: qrels} dict as judges=, not also "
                             "in place of the ratings")
        ratings, judges = None, ratings
    if grades is not None or clip:
        if ratings is None and judges is None:
            raise InputError("grades= and clip= apply to judges and ratings: give them")
        labels, notes = labels_from(judges, ratings, grades, clip)
        return None, labels, notes
    return ratings_frame(ratings), judges, []


def labels_from(judges=None, ratings=None, grades: tuple[int, int] | None = None,
                clip: bool = False) -> tuple[pd.DataFrame, list[str]]:
    """``(labels, notes)``: judges as the Python API takes them, as ``--judge``, ``--ratings``,
    ``--grades`` and ``--clip`` read them.

    ``judges``: ``{name: qrels path or frame (topic, doc, grade)}``, or a labels frame
    (``topic, judge, doc, grade``); ``ratings``: a per-assessor ratings file or frame whose
    assessors are judges too; ``grades=(LO, HI)``: the scale (a label outside it is an error,
    or clamped with ``clip``).
    """
    from .judges.labels import read_labels

    if isinstance(judges, pd.DataFrame):
        if ratings is not None:
            raise InputError("give a labels frame or judges and ratings, not both")
        return judges, []
    judges = dict(judges or {})
    paths = {str(n): str(p) for n, p in judges.items() if _is_path(p)}
    frames = [f.assign(judge=str(n)) for n, f in judges.items() if not _is_path(f)]
    if isinstance(ratings, pd.DataFrame):
        frames.append(ratings.rename(columns={"assessor": "judge", "rating": "grade"}))
        ratings = None
    if frames and (paths or ratings is not None):
        raise InputError("give the judges as files or as frames, not both")
    if frames:
        return _from_frames(frames, grades, clip)
    return read_labels(paths, ratings, grades=grades, clip=clip)


def _from_frames(frames, grades, clip) -> tuple[pd.DataFrame, list[str]]:
    """Labels from frames, on the declared scale (clamped with ``clip``) or the one seen."""
    from .columns import rename
    from .judges.labels import LABEL_COLUMNS

    labels = pd.concat([rename(f, ("topic", "judge", "doc", "grade"), what="judge labels")
                        for f in frames], ignore_index=True)[LABEL_COLUMNS]
    labels["grade"] = pd.to_numeric(labels["grade"]).astype("int64")
    notes = []
    if grades is None:
        grades = (int(labels["grade"].min()), int(labels["grade"].max()))
    lo, hi = grades
    outside = (labels["grade"] < lo) | (labels["grade"] > hi)
    if outside.any():
        if not clip:
            row = labels[outside].iloc[0]
            raise InputError(f"grade {row['grade']} of judge {row['judge']} (topic {row['topic']}, "
                             f"document {row['doc']}) is outside {lo}..{hi}",
                             hint="fix the labels, widen grades, or give clip=True")
        labels["grade"] = labels["grade"].clip(lo, hi)
        notes.append(f"{int(outside.sum())} labels outside {lo}..{hi} clamped")
    labels.attrs["grades"] = (int(lo), int(hi))
    return labels, notes
