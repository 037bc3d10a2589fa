"""trec_eval's options on what the measures read: ``-l`` given to the specs, and their notes.

``evalkit score --rel-level L`` (trec_eval's ``-l L``) sets the relevance
level of every binary measure whose name does not set one (:func:`with_rel_level`:
``AP(rel=3)`` keeps 3); ``--depth`` (``-M``) and ``--judged-only`` (``-J``)
change the lists (:class:`~evalkit.evaluate.scoring.lists.ListOptions`).
:func:`option_notes` is what stderr says of them.
"""

from __future__ import annotations

import dataclasses
import re

from ...measures.registry import MEASURES
from .lists import ListOptions

__all__ = ["with_rel_level", "option_notes"]

_REL_GIVEN = re.compile(r"\([^()]*\brel\s*=")


def with_rel_level(spec, rel_level: float | None):
    """``spec`` with the relevance level ``rel_level`` (trec_eval's ``-l``) when it is a
    binary measure whose name does not set ``rel=`` itself (``AP(rel=2)`` keeps 2)."""
    if rel_level is None or "rel" not in MEASURES[spec.base].params:
        return spec
    if hasattr(spec, "at_level"):                # the registry's MeasureSpec: it knows best
        return spec.at_level(rel_level)
    given = getattr(spec, "rel_given", None)
    if given is None:
        given = bool(_REL_GIVEN.search(spec.name))
    return spec if given else dataclasses.replace(spec, rel=float(rel_level))


def option_notes(options: ListOptions, rel_level, specs) -> list[str]:
    """What stderr says of --depth, --judged-only and --rel-level (the measures that keep
    their own rel=)."""
    notes = []
    if options.depth is not None:
        notes.append(f"--depth {options.depth}: only the first {options.depth} documents of each "
                     "topic's ordered list are read (trec_eval -M)")
    if options.judged_only:
        notes.append("--judged-only: documents a judgment column does not judge (not in its "
                     "qrels, or graded below 0) are removed from the lists before any measure "
                     "(trec_eval -J, condensed lists); these values are not comparable with "
                     "full-list ones")
    if rel_level is not None:
        kept = [s.name for s in specs if getattr(s, "base", None) in MEASURES
                and "rel" in MEASURES[s.base].params and s.rel != float(rel_level)]
        notes.append(f"--rel-level {rel_level:g}: a gain of at least {rel_level:g} is relevant "
                     "for the binary measures (trec_eval -l)"
                     + (f"; {', '.join(kept)} keep their own rel=" if kept else ""))
    return notes


def complete_num_rel(out, judged, specs, missing: str) -> None:
    """trec_eval's ``num_rel`` summary with ``-c`` (``m_num_rel.c``, ``te_calc_avg_num_rel``):
    not the sum of the topics' values but every qrels line graded above 0 counted again,
    whatever ``-l``, ``-J`` or ``-M`` did to the topics' values; ``out``'s ``all`` rows of
    ``num_rel`` (at the default level) are set so, per judgment column (``--missing zero``
    only, as trec_eval does it with ``-c`` only)."""
    names = [s.name for s in specs if s.base == "NumRel" and not getattr(s, "rel_given", False)]
    if missing != "zero" or not names:
        return
    above = (judged.ideal > 0).sum(axis=-1) * judged.in_qrels          # (G, T)
    total = dict(zip(judged.names, above.sum(axis=-1).astype(float)))
    rows = out["measure"].isin(names) & (out["topic"] == "all")
    column = out["judge"] if "judge" in out else judged.names[-1]
    out.loc[rows, "value"] = (column[rows].map(total) if "judge" in out
                              else total[column])
