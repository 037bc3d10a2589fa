"""``evalkit agreement`` from Python: judges as files or frames in, the report's tables out."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ...errors import InputError
from .report import AgreementReport, agreement_report

__all__ = ["agreement"]


def agreement(judges=None, ratings=None, *, reference: str | None = None,
              grades: tuple[int, int] | None = None, clip: bool = False,
              **options) -> AgreementReport:
    """How far judges agree: what ``evalkit agreement`` computes, as frames.

    ``judges``: ``{name: qrels path or frame (topic, doc, grade)}``, or a labels
    frame (``topic, judge, doc, grade``); ``ratings``: a per-assessor ratings
    file or frame (``topic, assessor, doc, rating``) whose assessors are judges
    too.  ``grades=(LO, HI)`` declares the scale (``--grades``), ``clip`` clamps
    labels outside it (``--clip``); ``reference`` is the judge every other is
    measured against (``--reference``; None: the others pooled).  ``options``
    are :func:`~evalkit.evaluate.judge_agreement.report.agreement_report`'s
    (``bootstrap``, ``seed``, ``pairs``, ``trials``, ``test``, ``alpha``,
    ``consensus``, ``min_overlap``, ...).  The notes of reading and of the
    report are in ``report.notes``.
    """
    from ..judges.labels import read_labels

    if isinstance(judges, pd.DataFrame):
        labels, notes = judges, []
        if ratings is not None:
            raise InputError("give a labels frame or judges and ratings, not both")
    else:
        judges = dict(judges or {})
        paths = {str(n): str(p) for n, p in judges.items() if isinstance(p, (str, Path))}
        frames = [f.assign(judge=str(n)) for n, f in judges.items()
                  if not isinstance(f, (str, Path))]
        if isinstance(ratings, pd.DataFrame):
            frames.append(ratings.rename(columns={"assessor": "judge", "rating": "grade"}))
            ratings = None
        if frames and (paths or ratings is not None):
            raise InputError("give the judges as files or as frames, not both")
        if frames:
            labels, notes = _from_frames(frames, grades, clip)
        else:
            labels, notes = read_labels(paths, ratings, grades=grades, clip=clip)
    report = agreement_report(labels, reference, **options)
    report.notes = list(notes) + list(report.notes)
    return report


def _from_frames(frames, grades, clip) -> tuple[pd.DataFrame, list[str]]:
    """Labels from frames, on the declared scale (clamped with ``clip``) or the one seen."""
    from ..columns import rename
    from ..judges.labels import LABEL_COLUMNS

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
