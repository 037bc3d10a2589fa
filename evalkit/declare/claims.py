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

import math
import re
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

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
HOLDS = "holds"
DOES_NOT_HOLD = "does not hold"
MIXED = "mixed"
NOT_TESTABLE = "not testable here"
#: A verdict over draws needs at least this many independent draws.
MIN_DRAWS = 20
#: k / R at or above which a claim judged over draws holds ...
HOLDS_FROM = 0.8
#: ... and at or below which it does not.
FAILS_UP_TO = 0.2
#: The rule, in words, for the report and the docs.
RULE = (f"A claim that depends on randomness is judged over R >= {MIN_DRAWS} independent draws, "
        "each redrawing the whole world the claim rests on (the column 'varies' says what): "
        f"it holds when it holds in at least {HOLDS_FROM:.0%} of them, does not hold when in at "
        f"most {FAILS_UP_TO:.0%}, and is mixed in between. A claim the data cannot bear is "
        f"'{NOT_TESTABLE}', with its reason, and is not counted.")
#: Said once wherever counts of claims on simulated data are shown.
SIMULATED_NOTE = ("On simulated data a 'does not hold' tests the simulated world as much as the "
                  "paper: the world may lack what made the claim true.")


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


def interval_verdict(low: float, high: float) -> str:
    """The verdict of "the estimate is above 0" from its 95% interval (see the module docstring).

    >>> interval_verdict(0.01, 0.03), interval_verdict(-0.004, -0.001), interval_verdict(-0.01, 0.02)
    ('holds', 'does not hold', 'not testable here')
    """
    if low > 0:
        return HOLDS
    if high < 0:
        return DOES_NOT_HOLD
    return NOT_TESTABLE


def boundary_note(k: int, r: int) -> str:
    """``"one draw from mixed"`` when one draw more or fewer would change the verdict, else ``""``.

    >>> boundary_note(16, 20), boundary_note(15, 20), boundary_note(10, 20)
    ('one draw from mixed', 'one draw from holds', '')
    """
    own = verdict_over_draws(k, r)
    near = [verdict_over_draws(j, r) for j in (k - 1, k + 1) if 0 <= j <= r]
    other = [v for v in near if v != own]
    return f"one draw from {other[0]}" if other else ""


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


def _outcome_verdict(outcome) -> str:
    if isinstance(outcome, str) and outcome in (HOLDS, DOES_NOT_HOLD, MIXED, NOT_TESTABLE):
        return outcome
    if isinstance(outcome, (bool, np.bool_)):
        return verdict(outcome)
    values = list(outcome)
    if not all(isinstance(x, (bool, np.bool_)) for x in values):
        raise TypeError("outcomes must be a bool or bools, one per draw")
    return verdict_over_draws(sum(bool(x) for x in values), len(values))


def sensitivity(thresholds: Sequence[float], outcome_at: Callable, fmt: str = "{:g}") -> str:
    """The verdict recomputed at each of ``thresholds``, in words.

    ``outcome_at(t)`` gives the claim's outcome at threshold ``t``: one bool,
    one bool per draw (then the rule of :func:`verdict_over_draws` applies), or
    a verdict in words (e.g. :func:`interval_verdict`'s).
    Returns ``"holds over 0.8-0.9 (no flip)"`` when every threshold gives the
    same verdict, else the runs, e.g. ``"flips: holds at 0.8-0.84, mixed at 0.86-0.9"``.

    >>> sensitivity([0.8, 0.85, 0.9], lambda t: 0.87 >= t)
    'flips: holds at 0.8-0.85, does not hold at 0.9'
    >>> sensitivity([0.03, 0.05], lambda t: True)
    'holds over 0.03-0.05 (no flip)'
    >>> sensitivity([0.9, 0.95, 0.99], lambda t: interval_verdict(0.0195 - t / 50, 1))
    'flips: holds at 0.9-0.95, not testable here at 0.99'
    """
    ts = list(thresholds)
    if len(ts) < 2:
        raise ValueError("a sensitivity range needs at least two thresholds")
    verdicts = [_outcome_verdict(outcome_at(t)) for t in ts]
    runs: list[list] = []
    for t, v in zip(ts, verdicts):
        if runs and runs[-1][0] == v:
            runs[-1][2] = t
        else:
            runs.append([v, t, t])

    def span(a, b):
        return fmt.format(a) if a == b else f"{fmt.format(a)}-{fmt.format(b)}"

    if len(runs) == 1:
        return f"{runs[0][0]} over {span(ts[0], ts[-1])} (no flip)"
    return "flips: " + ", ".join(f"{v} at {span(a, b)}" for v, a, b in runs)


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
    newer one's (what :mod:`evalkit.declare.history` checks).

    >>> history_text(["kind paper -> beyond: the reading is ours", "tolerance 1.25 -> 1.15"])
    '[1] kind paper -> beyond: the reading is ours [2] tolerance 1.25 -> 1.15'
    """
    return " ".join(f"[{i}] {text.strip()}" for i, text in enumerate(revisions, 1))


def figure_files(explanation: str) -> list[str]:
    """Output files an explanation names (``paper/name.ext`` relative to ``figures/``)."""
    return re.findall(r"\b[\w-]+/[\w.-]+\.(?:png|svg|csv|md)\b", explanation or "")
