"""Column names of the tidy frames ``evalkit score``'s Python API accepts.

Frames may use evalkit's column names or those of ir_measures and ranx
(``query_id``, ``doc_id``, ``relevance``, ``score``; ranx's ``q_id``, and
``score`` as a qrels grade); :func:`rename` maps them once, for the runs
(:mod:`evalkit.evaluate.runs.frames`) and the judgments
(:mod:`evalkit.evaluate.judges.gains`).
"""

from __future__ import annotations

import pandas as pd

from ..errors import InputError

__all__ = ["ALIASES", "rename"]

ALIASES = {
    "topic": ("topic", "query_id", "q_id", "qid", "query"),
    "doc": ("doc", "doc_id", "docno", "item"),
    "assessor": ("assessor", "annotator", "worker", "rater"),
    "judge": ("judge", "assessor", "annotator", "worker", "rater"),
    "rating": ("rating", "relevance", "label", "grade"),
    "grade": ("grade", "relevance", "rating", "label", "score"),   # ranx qrels: q_id, doc_id, score
    "run": ("run", "run_id", "system", "tag", "name"),
    "rank": ("rank",),
    "score": ("score",),
}


def rename(frame: pd.DataFrame, wanted: tuple[str, ...], optional: tuple[str, ...] = (),
            what: str = "frame") -> pd.DataFrame:
    """``frame`` with columns renamed to evalkit's names; a missing one is an error naming it."""
    mapping = {}
    for name in wanted + optional:
        hit = next((c for c in ALIASES[name] if c in frame.columns), None)
        if hit is None and name in wanted:
            raise InputError(f"{what} has no {name!r} column (or {', '.join(ALIASES[name][1:])})",
                             hint=f"columns found: {', '.join(map(str, frame.columns))}")
        if hit is not None:
            mapping[hit] = name
    out = frame[list(mapping)].rename(columns=mapping)
    for name in ("topic", "doc", "assessor", "run"):
        if name in out and not pd.api.types.is_string_dtype(out[name]):
            out[name] = out[name].astype(str)
    return out


