"""Holes in a judge's labels filled from another file (``evalkit estimate --fill FILE``).

A document a judge did not label, on a topic that judge labelled, takes the
fill file's label (an LLM's qrels, say); topics the judge did not label stay
unlabelled, so the reference's sample of topics does not change.  Each judge
is filled on its own; the result equals scoring qrels merged by hand (tested).
How many labels each judge gained goes to stderr.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["FILL", "fill_holes"]

#: The name the fill file's labels are read under (not a name ``--judge`` can give).
FILL = "--fill"


def fill_holes(labels: pd.DataFrame, judges, where: str = "FILE") -> tuple[pd.DataFrame, list[str]]:
    """``labels`` without the :data:`FILL` judge's rows, each of ``judges`` filled from them;
    and one note per judge."""
    fill = labels[labels["judge"] == FILL]
    out = [labels[labels["judge"] != FILL]]
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
