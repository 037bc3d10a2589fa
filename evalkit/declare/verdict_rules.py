"""The verdict rules of a claims row: holds, does not hold, mixed, or not testable here.

A claim that depends on randomness is judged over many draws (:data:`RULE`:
k of R, :func:`verdict_over_draws`), or by the interval of its estimate
(:func:`interval_verdict`); :func:`sensitivity` says over which thresholds a
verdict holds and where it flips.  :class:`evalkit.declare.claims.Claims`
writes the rows (``docs/claims.md``).
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

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
