"""A paper's claims as a checklist: the claim, the paper's words, the evidence, the draws, the verdict.

Every notebook ends with one: each row states a claim, the number the
reproduction measured for it, and whether it holds.  The numbers come from
the tables the notebook has just written, never typed by hand; the report
(:mod:`evalkit.workspace.report`) and ``docs/findings.md``
(:mod:`evalkit.workspace.findings`) show them per paper.

**Kinds.** A row is one of :data:`KINDS`:

* ``paper``: a claim the paper makes (a finding).  It carries ``quote``, the
  paper's own sentence verbatim, and ``section``; the claim text says how the
  workspace operationalises it.  A test finds every quote in its paper
  (:mod:`evalkit.declare.quotes`).  Only these rows are counted as the
  paper's ("5 of 7 testable claims hold (1 not testable here)").
* ``beyond``: a question the workspace asks beyond the paper; counted apart.
* ``calibration``: a target the simulated world was tuned to (its agreement
  with the paper shows the tuning worked, not a finding).
* ``identity``: a mathematical check (it holds by construction when the code is
  right).

**Verdicts over draws.** A claim whose outcome depends on randomness is judged
over ``R`` independent draws with :meth:`Claims.add_over_draws`; each draw
redraws the whole world the claim rests on, and ``varies`` names what that
is.  With ``k`` draws where it holds, the verdict is *holds* when
``k / R >= 0.8``, *does not hold* when ``k / R <= 0.2`` and *mixed* in between
(:func:`verdict_over_draws`); the ``draws`` column says "k of R", and "one draw
from mixed" when one draw more or less would change the verdict.  ``R`` must
be at least :data:`MIN_DRAWS`.

**Not testable here.** A claim the data cannot bear (degrees of freedom the
simulated design cannot reach, differences below the resolution of the
measurement, a quantity the simulator fixes by construction) gets the fourth
verdict :data:`NOT_TESTABLE` with its reason (:meth:`Claims.add_not_testable`):
shown, never counted as a failure.

**Resolved by an interval** (the workspace's rule). A difference or trend too
noisy for the k-of-R rule in one draw is decided by its estimate over all
draws and its 95% interval (:meth:`Claims.add_resolved`): above 0 holds,
below 0 does not hold, including 0 is not testable here (unresolved).

**Thresholds.** A claim's operational ``threshold`` names its ``source``:
``paper`` (the quote says so) or ``workspace`` (ours, with ``sensitivity``, the
verdict over a declared range: :func:`sensitivity`).  A claim that does not
hold (or is mixed) carries an ``explanation``: the finding of a controlled
experiment on why, naming the files under ``figures/`` that show it.

>>> c = Claims()
>>> c.add("Table 1 is reproduced", "7 of 7 rows equal", True, kind="identity")
>>> c.add_over_draws("no discrepancies at N = 40", "0 in the committed draw",
...                  [True] * 12 + [False] * 8, explanation="see sakai2017/replications.csv",
...                  varies="collection and ratings", section="§4",
...                  quote="there are no discrepancies")
>>> c.add_not_testable("F1 ANOVA on the paper's df", "the design has too few F1 pairs",
...                    section="§5.3", quote="roughly an equal number")
>>> c.frame()[["kind", "draws", "verdict"]].values.tolist()
[['identity', '', 'holds'], ['paper', '12 of 20', 'mixed'], ['paper', '', 'not testable here']]
>>> c.held(), c.counted(), c.not_testable()
(0, 1, 1)
>>> tally_text(c.frame().to_dict("records"))
'0 of 1 testable claim holds (1 not testable here)'
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from .verdict_rules import (DOES_NOT_HOLD, FAILS_UP_TO, HOLDS, HOLDS_FROM, MIN_DRAWS, MIXED,
                            NOT_TESTABLE, RULE, SIMULATED_NOTE, boundary_note, interval_verdict,
                            sensitivity, share_interval, verdict, verdict_over_draws)

__all__ = ["Claims", "COLUMNS", "KINDS", "SOURCES", "HOLDS", "DOES_NOT_HOLD", "MIXED",
           "NOT_TESTABLE", "MIN_DRAWS", "HOLDS_FROM", "FAILS_UP_TO", "verdict",
           "verdict_over_draws", "interval_verdict", "boundary_note", "share_interval", "sensitivity", "tally",
           "tally_text", "figure_files", "history_text", "RULE", "SIMULATED_NOTE", "ID_PATTERN"]

#: Columns of every ``claims*.csv``.
COLUMNS = ("id", "claim", "kind", "section", "quote", "reproduced", "draws", "varies", "threshold",
           "source", "sensitivity", "verdict", "explanation", "revised")
#: What a row's ``id`` looks like: lower case words joined by hyphens, stable while the row lives.
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$")
#: The kinds of row (see the module docstring); ``paper`` and ``beyond`` rows are counted, apart.
KINDS = ("paper", "beyond", "calibration", "identity")
#: Where an operational threshold comes from.
SOURCES = ("paper", "workspace")

class Claims:
    """The rows of a claims table (:data:`COLUMNS`), in the order they are added."""

    def __init__(self, history: Mapping[str, Sequence[str]] | None = None) -> None:
        """``history`` maps a row's ``id`` to its revisions, oldest first (each: what changed,
        from what, and why); :meth:`frame` writes them to the ``revised`` column."""
        self._rows: list[dict] = []
        self._history = {k: tuple(v) for k, v in (history or {}).items()}

    def _append(self, claim, kind, evidence, draws, outcome, explanation, *, section, quote,
                varies, threshold, source, sensitivity, id="") -> None:
        if id and not ID_PATTERN.match(id):
            raise ValueError(f"a row's id is lower-case words joined by hyphens, not {id!r}")
        if id and any(r["id"] == id for r in self._rows):
            raise ValueError(f"two rows share the id {id!r}")
        if not claim or not evidence:
            raise ValueError("a claim needs both its statement and the evidence measured for it")
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        if kind == "paper" and not (quote and section):
            raise ValueError(f"a paper claim quotes the paper and names its section: {claim!r}")
        if threshold and source not in SOURCES:
            raise ValueError(f"a threshold names its source ({' or '.join(SOURCES)}): {claim!r}")
        if source == "workspace" and not sensitivity:
            raise ValueError(f"a workspace threshold needs its sensitivity range: {claim!r}")
        self._rows.append({"id": id, "claim": claim, "kind": kind, "section": section, "quote": quote,
                           "reproduced": evidence, "draws": draws, "varies": varies,
                           "threshold": threshold, "source": source,
                           "sensitivity": sensitivity, "verdict": outcome,
                           "explanation": explanation,
                           "revised": history_text(self._history.get(id, ()))})

    def add(self, claim: str, evidence: str, holds, explanation: str = "", *, id: str = "",
            kind: str = "paper", section: str = "", quote: str = "", threshold: str = "",
            source: str = "", sensitivity: str = "") -> None:
        """Record a claim whose outcome does not depend on a random draw.

        ``evidence`` is what was measured, ``holds`` a bool; a claim that does
        not hold carries the ``explanation`` (finding and output files).  A
        ``paper`` claim needs ``quote`` and ``section``; a ``threshold``
        needs its ``source``, and a workspace one its ``sensitivity``.
        """
        self._append(claim, kind, evidence, "", verdict(holds), explanation, section=section,
                     quote=quote, varies="", threshold=threshold, source=source,
                     sensitivity=sensitivity, id=id)

    def add_resolved(self, claim: str, evidence: str, low: float, high: float,
                     explanation: str = "", *, varies: str, unresolved: str, id: str = "",
                     kind: str = "paper", section: str = "", quote: str = "",
                     threshold: str = "", sensitivity: str = "") -> None:
        """Record a claim "the estimate is above 0" decided by its estimate over all draws and the
        95% interval ``low``-``high`` (:func:`interval_verdict`); ``evidence`` gives both and the
        k of R of the per-draw signs, ``unresolved`` the reason when the interval includes 0.
        The rule is the workspace's: ``threshold`` names the interval, ``sensitivity`` is needed."""
        outcome = interval_verdict(low, high)
        if outcome == NOT_TESTABLE:
            if not unresolved:
                raise ValueError(f"an unresolved claim needs its reason: {claim!r}")
            explanation = (unresolved + " " + explanation).strip()
        self._append(claim, kind, evidence, "", outcome, explanation, section=section,
                     quote=quote, varies=varies, threshold=threshold, source="workspace",
                     sensitivity=sensitivity, id=id)

    def add_over_draws(self, claim: str, evidence: str, outcomes: Iterable, explanation: str = "",
                       *, varies: str, id: str = "", kind: str = "paper", section: str = "", quote: str = "",
                       threshold: str = "", source: str = "", sensitivity: str = "") -> None:
        """Record a claim judged over independent draws: ``outcomes`` holds one bool per draw.

        ``varies`` names what each draw redraws (the whole world the claim
        rests on).  The ``draws`` column says "k of R", with a note when the
        verdict is one draw from the rule's boundary; ``evidence`` should give
        the committed draw's own value beside the spread over draws.
        """
        values = list(outcomes)
        if not all(isinstance(x, (bool, np.bool_)) for x in values):
            raise TypeError("outcomes must be bools, one per draw")
        if not varies:
            raise ValueError(f"a verdict over draws says what each draw redraws: {claim!r}")
        k, r = sum(bool(x) for x in values), len(values)
        note = boundary_note(k, r) if r >= MIN_DRAWS else ""
        draws = f"{k} of {r}" + (f" ({note})" if note else "")
        self._append(claim, kind, evidence, draws, verdict_over_draws(k, r), explanation,
                     section=section, quote=quote, varies=varies, threshold=threshold,
                     source=source, sensitivity=sensitivity, id=id)

    def add_not_testable(self, claim: str, reason: str, *, evidence: str = "not run",
                         id: str = "", kind: str = "paper", section: str = "", quote: str = "",
                         varies: str = "", threshold: str = "", source: str = "",
                         sensitivity: str = "") -> None:
        """Record a claim the data cannot bear; ``reason`` says why (it becomes the explanation).

        Shown in every table, never counted: neither as holding nor as failing.  A claim
        that is untestable at its operational threshold still names it (and its source and
        sensitivity), so a reader sees where it would become testable.
        """
        if not reason:
            raise ValueError(f"'{NOT_TESTABLE}' needs its reason: {claim!r}")
        self._append(claim, kind, evidence, "", NOT_TESTABLE, reason, section=section,
                     quote=quote, varies=varies, threshold=threshold, source=source,
                     sensitivity=sensitivity, id=id)

    def __len__(self) -> int:
        return len(self._rows)

    def frame(self) -> pd.DataFrame:
        """The checklist as a frame with columns :data:`COLUMNS` (a history naming rows absent
        from it, as in a partial table, is not an error here: ``tests/declare`` checks that every
        chapter's history names rows of its committed table)."""
        return pd.DataFrame(self._rows, columns=list(COLUMNS))

    def counted(self, kind: str = "paper") -> int:
        """How many testable rows of ``kind`` there are: the denominator readers see."""
        return tally(self._rows, kind)[1]

    def held(self, kind: str = "paper") -> int:
        """How many testable rows of ``kind`` hold."""
        return tally(self._rows, kind)[0]

    def not_testable(self, kind: str = "paper") -> int:
        """How many rows of ``kind`` are not testable here."""
        return tally(self._rows, kind)[2]


def tally(rows: Iterable[dict], kind: str = "paper") -> tuple[int, int, int]:
    """``(held, testable, not testable)`` over the rows of ``kind`` (dicts with kind and verdict)."""
    own = [r for r in rows if r.get("kind", "paper") == kind]
    testable = [r for r in own if r["verdict"] != NOT_TESTABLE]
    return (sum(r["verdict"] == HOLDS for r in testable), len(testable),
            len(own) - len(testable))


def tally_text(rows: Iterable[dict], kind: str = "paper") -> str:
    """"k of n testable claims hold (m not testable here)", the one way counts are written
    ("no testable claims (m not testable here)" when none is testable).

    >>> tally_text([{"kind": "paper", "verdict": NOT_TESTABLE}])
    'no testable claims (1 not testable here)'
    """
    held, testable, untestable = tally(list(rows), kind)
    if not testable:
        return f"no testable claims ({untestable} not testable here)"
    return (f"{held} of {testable} testable {'claim' if testable == 1 else 'claims'} "
            f"{'holds' if testable == 1 else 'hold'} ({untestable} not testable here)")


def history_text(revisions: Sequence[str]) -> str:
    """A row's ``revised`` column: its revisions numbered, oldest first; ``""`` when none.

    A revision is only ever added at the end, so an older table's text is a prefix of the
    newer one's (what :mod:`evalkit.workspace.claims_history` checks).

    >>> history_text(["kind paper -> beyond: the reading is ours", "tolerance 1.25 -> 1.15"])
    '[1] kind paper -> beyond: the reading is ours [2] tolerance 1.25 -> 1.15'
    """
    return " ".join(f"[{i}] {text.strip()}" for i, text in enumerate(revisions, 1))


def figure_files(explanation: str) -> list[str]:
    """Output files an explanation names (``paper/name.ext`` relative to ``figures/``)."""
    return re.findall(r"\b[\w-]+/[\w.-]+\.(?:png|svg|csv|md)\b", explanation or "")
