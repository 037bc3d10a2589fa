"""Holes in a judge's labels filled from another file: ``--fill FILE`` of ``evalkit score``
and ``evalkit estimate``, ``fill=`` of their Python functions.

A document a judge did not label, on a topic that judge labelled, takes the
fill file's label (an LLM's qrels, say); topics the judge did not label stay
unlabelled (so ``estimate``'s sample of reference topics does not change).
Each judge is filled on its own, before any pooling, so ``--judged-only``
then counts a filled document as judged.  The result equals scoring qrels
merged by hand (tested for both commands).  How many labels each judge gained
goes to stderr.  The fill file is read as one more judge (:data:`FILL`), so
``--grades`` and ``--clip`` check its grades as they check the judges'.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ...errors import InputError

__all__ = ["FILL", "fill_holes", "with_fill", "read_filled_judgments", "fill_name"]

#: The name the fill file's labels are read under (not a name ``--judge`` can give).
FILL = "--fill"


def fill_name(fill) -> str:
    """How the notes name the fill: its path, or ``frame``."""
    return str(fill) if isinstance(fill, (str, Path)) else "frame"


def with_fill(judges, fill):
    """``judges`` (``{name: qrels path or frame}`` or None) with ``fill`` added as :data:`FILL`;
    ``judges`` as they are when ``fill`` is None."""
    if fill is None:
        return judges
    if isinstance(judges, pd.DataFrame):
        raise InputError("fill goes with judges given as {name: qrels path or frame}, "
                         "not with a labels frame")
    return {**dict(judges or {}), FILL: fill}


def fill_holes(labels: pd.DataFrame, judges=None, where: str = "FILE"
               ) -> tuple[pd.DataFrame, list[str]]:
    """``labels`` (``topic, judge, doc, grade``) without the :data:`FILL` judge's rows, each of
    ``judges`` (default: every other judge) filled from them; and one note per judge."""
    fill = labels[labels["judge"] == FILL]
    out = [labels[labels["judge"] != FILL]]
    if judges is None:
        judges = list(dict.fromkeys(out[0]["judge"]))
    notes = []
    for judge in judges:
        mine = out[0][out[0]["judge"] == judge]
        cand = fill[fill["topic"].isin(set(mine["topic"]))]
        merged = cand.merge(mine[["topic", "doc"]], on=["topic", "doc"], how="left",
                            indicator=True)
        add = merged[merged["_merge"] == "left_only"].drop(columns="_merge").assign(judge=judge)
        out.append(add[list(labels.columns)])
        notes.append(f"--fill {where}: {len(add)} unlabelled documents of judge {judge} on its "
                     f"{mine['topic'].nunique()} topics take the fill file's labels")
    filled = pd.concat(out, ignore_index=True)
    filled.attrs.update(labels.attrs)
    return filled, notes


def read_filled_judgments(args, command: str, compiled: bool | None = None, judges=None):
    """``(labels, notes)`` of ``--judge`` and ``--ratings`` as
    :func:`~evalkit.evaluate.judges.options.read_judgments` reads them, each of ``judges``
    (default: every judge) filled from ``--fill`` when it is given; None without judges."""
    from .options import read_judgments

    fill = getattr(args, "fill", None)
    if fill:
        if not (args.judge or getattr(args, "ratings", None)):
            raise InputError(f"--fill fills each judge's holes: give the judges to evalkit "
                             f"{command} with --judge NAME=FILE or --ratings FILE")
        args.judge = [*(args.judge or []), f"{FILL}={fill}"]
    read = read_judgments(args, command, compiled)
    if read is None or not fill:
        return read
    labels, notes = read
    labels, filled = fill_holes(labels, judges, fill)
    return labels, notes + filled
