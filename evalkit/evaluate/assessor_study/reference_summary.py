"""The lines ``evalkit assessors --reference NAME`` adds to its summary, one per measure.

Each names, among the judges that hold none of the reference's labels
(``includes_reference`` false in ``reference.csv``: the other assessors and
``without:<reference>``), the judge whose leaderboard is closest to the
reference's and the one farthest from it by Kendall's tau-b, with their
tau_ap and intervals; the judge whose tau interval reaches lowest, when it is
another (a judge whose leaderboard barely separates the runs can match the
reference's order on all topics by luck and lose it on most resamples); and
the judge whose significance verdicts differ from the reference's on the
most run pairs (``docs/assessors.md``).  Every
number comes from the report's frames.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["reference_lines", "TEST_NAMES"]

#: How a line names the test behind the verdicts.
TEST_NAMES = {"t": "paired t tests with Holm's correction", "hsd": "randomised Tukey HSD"}


def _at(frame: pd.DataFrame, column: str, pick) -> list[str]:
    """The judges holding the extreme (``pick``: max or min) of ``column``, in report order."""
    value = pick(frame[column])
    return list(frame.loc[np.isclose(frame[column], value, rtol=0, atol=1e-12), "judge"])


def _interval(row, level: str) -> str:
    if np.isnan(row["ci_low"]):
        return ""
    return f", {level} interval {row['ci_low']:.3f} to {row['ci_high']:.3f}"


def _judge_phrase(names: list[str], taus: pd.DataFrame, aps: pd.DataFrame, level: str) -> str:
    """Each judge with its Kendall tau and tau_ap and their intervals, joined by 'and'."""
    return " and ".join(f"{name} (Kendall tau {taus.loc[name, 'value']:.3f}"
                        f"{_interval(taus.loc[name], level)}; tau_ap {aps.loc[name, 'value']:.3f}"
                        f"{_interval(aps.loc[name], level)})" for name in names)


def reference_lines(report) -> list[str]:
    """One line per measure (see the module docstring)."""
    ref = report.reference
    s = report.settings
    level = f"{1 - s['alpha']:.0%}"
    test = TEST_NAMES[s.get("test", "t")]
    rc = report.reference_agreement
    rc = rc[~rc["includes_reference"]]
    sig = report.significance_agreement
    sig = sig[~sig["includes_reference"]]
    lines = []
    for measure in s["measures"]:
        stats = rc[(rc["measure"] == measure)]
        taus = stats[stats["statistic"] == "kendall_tau"].set_index("judge")
        aps = stats[stats["statistic"] == "tau_ap"].set_index("judge")
        defined = taus.dropna(subset=["value"]).reset_index()
        if defined.empty:
            lines.append(f"Against {ref} on {measure}: no judge without {ref}'s labels could be "
                         "compared (too few shared topics, or constant leaderboards).")
            continue
        close, far = _at(defined, "value", np.max), _at(defined, "value", np.min)
        topics = sorted(set(defined["topics"]))
        shared = (f"{topics[0]} topics" if len(topics) == 1
                  else f"{topics[0]} to {topics[-1]} topics")
        undefined = len(taus) - len(defined)
        line = (f"Against {ref} on {measure} ({len(taus)} judges without {ref}'s labels"
                + (f", {undefined} without a Kendall tau" if undefined else "")
                + f", {shared} shared; B = {s['bootstrap']}): ")
        if set(close) == set(far):
            line += f"closest and farthest alike: {_judge_phrase(close, taus, aps, level)}"
        else:
            line += (f"closest {_judge_phrase(close, taus, aps, level)}, farthest "
                     f"{_judge_phrase(far, taus, aps, level)}")
        bounded = defined.dropna(subset=["ci_low"])
        if len(bounded):
            low = [j for j in _at(bounded, "ci_low", np.min) if j not in far]
            if low:
                line += f"; lowest interval: {_judge_phrase(low, taus, aps, level)}"
        v = sig[sig["measure"] == measure]
        v = v.assign(differ=v["reference_only"] + v["judge_only"] + v["opposite"])
        if len(v) and v["pairs"].max() > 0:
            worst = v.loc[v["differ"] == v["differ"].max()]
            row = worst.iloc[0]
            line += (f"; most verdicts differing from {ref}'s: {' and '.join(worst['judge'])}, "
                     f"{row['differ']} of {row['pairs']} run pairs")
            detail = (f"{row['reference_only']} significant under {ref} only, "
                      f"{row['judge_only']} under the judge only, {row['opposite']} opposite; "
                      if len(worst) == 1 else "")
            line += f" ({detail}{test}, alpha = {s['alpha']})"
        lines.append(line + ".")
    return lines
