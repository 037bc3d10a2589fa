"""A paper's claims as a checklist: the claim, its kind, the evidence, the draws, the verdict.

Every notebook ends with one: each row states a claim, the number the
reproduction measured for it, and whether it holds.  The numbers come from
the tables the notebook has just written, never typed by hand; the report
(:mod:`evalkit.workspace.report`) and ``docs/findings.md``
(:mod:`evalkit.workspace.findings`) show them per paper.

**Kinds.** A row is one of :data:`KINDS`:

* ``paper``: a claim the paper makes (a finding). Only these are counted
  ("5 of 7 claims hold").
* ``calibration``: a target the simulated world was tuned to (its agreement
  with the paper shows the tuning worked, not a finding).
* ``identity``: a mathematical check (it holds by construction when the code is
  right).

**Verdicts over draws.** A claim whose outcome depends on randomness (rating
draws, simulated worlds, studies, assessor subsets) is judged over ``R``
independent draws with :meth:`Claims.add_over_draws`: with ``k`` draws where it
holds, the verdict is *holds* when ``k / R >= 0.8``, *does not hold* when
``k / R <= 0.2`` and *mixed* in between (:func:`verdict_over_draws`); the
``draws`` column says "k of R" and the evidence keeps the committed draw's
own value.  ``R`` must be at least :data:`MIN_DRAWS`.  Rows that do not depend
on a draw leave ``draws`` empty.

A claim that does not hold (or is mixed) carries an ``explanation``: the
finding of a controlled experiment on why, naming the output files under
``figures/`` that show it (paths relative to ``figures/``).

>>> c = Claims()
>>> c.add("Table 1 is reproduced", "7 of 7 rows equal", True, kind="identity")
>>> c.add_over_draws("no discrepancies at N = 40", "0 in the committed draw",
...                  [True] * 12 + [False] * 8, explanation="see sakai2017/replications.csv")
>>> c.frame()[["kind", "draws", "verdict"]].values.tolist()
[['identity', '', 'holds'], ['paper', '12 of 20', 'mixed']]
>>> c.held(), c.counted()
(0, 1)
"""

from __future__ import annotations

import math
import re
from typing import Iterable

import numpy as np
import pandas as pd

__all__ = ["Claims", "COLUMNS", "KINDS", "HOLDS", "DOES_NOT_HOLD", "MIXED", "MIN_DRAWS",
           "HOLDS_FROM", "FAILS_UP_TO", "verdict", "verdict_over_draws", "share_interval",
           "figure_files", "RULE"]

#: Columns of every ``claims*.csv``.
COLUMNS = ("claim", "kind", "reproduced", "draws", "verdict", "explanation")
#: The kinds of row (see the module docstring); only ``paper`` rows are counted.
KINDS = ("paper", "calibration", "identity")
HOLDS = "holds"
DOES_NOT_HOLD = "does not hold"
MIXED = "mixed"
#: A verdict over draws needs at least this many independent draws.
MIN_DRAWS = 20
#: k / R at or above which a claim judged over draws holds ...
HOLDS_FROM = 0.8
#: ... and at or below which it does not.
FAILS_UP_TO = 0.2
#: The rule, in words, for the report and the docs.
RULE = (f"A claim that depends on randomness is judged over R >= {MIN_DRAWS} independent draws: "
        f"it holds when it holds in at least {HOLDS_FROM:.0%} of them, does not hold when in at "
        f"most {FAILS_UP_TO:.0%}, and is mixed in between.")


def verdict(holds) -> str:
    """``"holds"`` or ``"does not hold"``; ``holds`` must be a plain or numpy bool."""
    if not isinstance(holds, (bool, np.bool_)):
        raise TypeError(f"a claim's outcome must be a bool, not {type(holds).__name__} ({holds!r})")
    return HOLDS if holds else DOES_NOT_HOLD


def verdict_over_draws(k: int, r: int) -> str:
    """The verdict of a claim that holds in ``k`` of ``r`` draws (rule: :data:`RULE`)."""
    if r < MIN_DRAWS:
        raise ValueError(f"a verdict over draws needs at least {MIN_DRAWS} draws, got {r}")
    if not 0 <= k <= r:
        raise ValueError(f"k = {k} must lie in 0..{r}")
    share = k / r
    return HOLDS if share >= HOLDS_FROM else DOES_NOT_HOLD if share <= FAILS_UP_TO else MIXED


def share_interval(k: int, r: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a share of ``k`` successes in ``r`` draws.

    ``(p + z²/2r ± z √(p(1-p)/r + z²/4r²)) / (1 + z²/r)`` with ``p = k/r`` and
    ``z`` the normal quantile (Wilson 1927; it stays inside [0, 1] and behaves
    at k = 0 and k = r, unlike the Wald interval).
    """
    from statistics import NormalDist

    if r <= 0 or not 0 <= k <= r:
        raise ValueError(f"need 0 <= k <= r and r > 0, got k = {k}, r = {r}")
    z = NormalDist().inv_cdf(0.5 + level / 2)
    p = k / r
    centre = (p + z * z / (2 * r)) / (1 + z * z / r)
    half = z * math.sqrt(p * (1 - p) / r + z * z / (4 * r * r)) / (1 + z * z / r)
    return max(0.0, centre - half), min(1.0, centre + half)


class Claims:
    """Rows of (claim, kind, evidence, draws, verdict, explanation), in the order they are added."""

    def __init__(self) -> None:
        self._rows: list[dict] = []

    def _append(self, claim, kind, evidence, draws, outcome, explanation) -> None:
        if not claim or not evidence:
            raise ValueError("a claim needs both its statement and the evidence measured for it")
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        self._rows.append({"claim": claim, "kind": kind, "reproduced": evidence, "draws": draws,
                           "verdict": outcome, "explanation": explanation})

    def add(self, claim: str, evidence: str, holds, explanation: str = "", *,
            kind: str = "paper") -> None:
        """Record a claim whose outcome does not depend on a random draw.

        ``evidence`` is what was measured, ``holds`` a bool; a claim that does
        not hold carries the ``explanation`` (finding and output files).
        """
        self._append(claim, kind, evidence, "", verdict(holds), explanation)

    def add_over_draws(self, claim: str, evidence: str, outcomes: Iterable, explanation: str = "",
                       *, kind: str = "paper") -> None:
        """Record a claim judged over independent draws: ``outcomes`` holds one bool per draw.

        The ``draws`` column says "k of R"; ``evidence`` should give the
        committed draw's own value beside the spread over draws.
        """
        values = list(outcomes)
        if not all(isinstance(x, (bool, np.bool_)) for x in values):
            raise TypeError("outcomes must be bools, one per draw")
        k, r = sum(bool(x) for x in values), len(values)
        self._append(claim, kind, evidence, f"{k} of {r}", verdict_over_draws(k, r), explanation)

    def __len__(self) -> int:
        return len(self._rows)

    def frame(self) -> pd.DataFrame:
        """The checklist as a frame with columns :data:`COLUMNS`."""
        return pd.DataFrame(self._rows, columns=list(COLUMNS))

    def counted(self) -> int:
        """How many rows are the paper's own claims (kind ``paper``): the denominator readers see."""
        return sum(r["kind"] == "paper" for r in self._rows)

    def held(self) -> int:
        """How many of the paper's own claims (kind ``paper``) hold."""
        return sum(r["kind"] == "paper" and r["verdict"] == HOLDS for r in self._rows)


def figure_files(explanation: str) -> list[str]:
    """Output files an explanation names (``paper/name.ext`` relative to ``figures/``)."""
    return re.findall(r"\b[\w-]+/[\w.-]+\.(?:png|svg|csv|md)\b", explanation or "")
