"""A paper's claims as a checklist: the claim, the evidence, the verdict, the explanation.

Every notebook ends with one: each row states a claim of the paper, the
number the reproduction measured for it, and whether the claim holds.  The
numbers come from the tables the notebook has just written, never typed by
hand; the report (:mod:`evalkit.workspace.report`) shows them per paper.
A claim that does not hold carries an ``explanation``: the finding of a
controlled experiment on why, naming the output files under ``figures/``
that show it (paths relative to ``figures/``).

>>> c = Claims()
>>> c.add("Table 1 is reproduced", "7 of 7 rows equal", True)
>>> c.frame().verdict.tolist()
['holds']
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["Claims", "COLUMNS", "HOLDS", "DOES_NOT_HOLD", "verdict"]

#: Columns of every ``claims*.csv``.
COLUMNS = ("claim", "reproduced", "verdict", "explanation")
HOLDS = "holds"
DOES_NOT_HOLD = "does not hold"


def verdict(holds) -> str:
    """``"holds"`` or ``"does not hold"``; ``holds`` must be a plain or numpy bool."""
    if not isinstance(holds, (bool, np.bool_)):
        raise TypeError(f"a claim's outcome must be a bool, not {type(holds).__name__} ({holds!r})")
    return HOLDS if holds else DOES_NOT_HOLD


class Claims:
    """Rows of (claim, evidence, verdict), in the order they are added."""

    def __init__(self) -> None:
        self._rows: list[dict] = []

    def add(self, claim: str, evidence: str, holds, explanation: str = "") -> None:
        """Record ``claim`` with the measured ``evidence``, whether it ``holds`` and, for a
        claim that does not hold, the ``explanation`` (finding and output files)."""
        if not claim or not evidence:
            raise ValueError("a claim needs both its statement and the evidence measured for it")
        self._rows.append({"claim": claim, "reproduced": evidence, "verdict": verdict(holds),
                           "explanation": explanation})

    def __len__(self) -> int:
        return len(self._rows)

    def frame(self) -> pd.DataFrame:
        """The checklist as a frame with columns :data:`COLUMNS`."""
        return pd.DataFrame(self._rows, columns=list(COLUMNS))

    def held(self) -> int:
        """How many claims hold."""
        return sum(r["verdict"] == HOLDS for r in self._rows)


def figure_files(explanation: str) -> list[str]:
    """Output files an explanation names (``paper/name.ext`` relative to ``figures/``)."""
    import re

    return re.findall(r"\b[\w-]+/[\w.-]+\.(?:png|svg|csv|md)\b", explanation or "")
