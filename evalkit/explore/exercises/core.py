"""What every exercise check shares: the verdict, the printed message, number comparison.

A check ``check_<name>(answer)`` computes the expected answer itself, from
the same evalkit functions the notebooks use (never a typed-in number), prints
"Right" with a one-line explanation or "Not yet" with a hint, and returns a
:class:`Verdict` (true when right; a notebook does not echo it).  ``None``, the
answer cells' starting value, prints a reminder and reveals nothing.
"""

from __future__ import annotations

import math

__all__ = ["Verdict", "report", "close_to", "unanswered"]


class Verdict:
    """A check's result: true when the answer is right; a notebook shows only the printed text."""

    def __init__(self, ok: bool):
        self.ok = bool(ok)

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return f"Verdict({self.ok})"

    def _ipython_display_(self) -> None:   # the message is already printed: no Out[] echo
        pass


def report(ok: bool, right: str, hint: str) -> Verdict:
    print(f"Right. {right}" if ok else f"Not yet. Hint: {hint}")
    return Verdict(ok)


def close_to(answer, expected: float, tolerance: float) -> bool:
    try:
        return math.isfinite(float(answer)) and abs(float(answer) - expected) <= tolerance
    except (TypeError, ValueError):
        return False


def unanswered(answer) -> bool:
    if answer is None:
        print("Not answered yet: replace None with your answer and run the cell again.")
        return True
    return False
