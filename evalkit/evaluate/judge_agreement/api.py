"""``evalkit agreement`` from Python: judges as files or frames in, the report's tables out."""

from __future__ import annotations

from ..notes import show_notes
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
    from ..sources import labels_from

    labels, notes = labels_from(judges, ratings, grades, clip)
    report = agreement_report(labels, reference, **options)
    report.notes = list(notes) + list(report.notes)
    show_notes(report.notes, "agreement")
    return report
