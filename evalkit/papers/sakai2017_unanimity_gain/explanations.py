"""Why Sakai's (EVIA 2017) claims come out as they do: the explanations, from the experiments' tables.

Each helper turns the table of one experiment into the sentences a claim
carries (:mod:`.verdicts`): the run-spread worlds (:mod:`.run_spread`) for
Table 2's upper limits; the paper's own printed |d| and ES
(:mod:`.es_reading`), with the ES arithmetic and the topic subsets
(:mod:`.effect_sizes`), for how Table 3 computes its effect sizes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .tables import PUBLISHED_D

__all__ = ["why_upper_limits", "es_reading_text"]

_D_TEXT = f"{PUBLISHED_D[0]:g}-{PUBLISHED_D[1]:g}"


def why_upper_limits(worlds: pd.DataFrame | None, summary: pd.DataFrame | None) -> str:
    """How many upper limits reach 1 in the run-spread worlds, with intervals, paired vs the default."""
    if worlds is None or summary is None or not len(worlds):
        return ""
    total = worlds["conditions"].max()
    w = int(summary["worlds"].min())
    if w < 2:
        return ("How many upper limits reach 1 per run_spread (the sd of run skill within a "
                "team, set directly), one collection each: "
                + ", ".join(f"{r.run_spread:g}: {r.mean:.0f} of {total}" for r in summary.itertuples())
                + ". With one collection seed per value the seed-to-seed spread cannot be "
                "judged: inconclusive. See sakai2017/run_spread_worlds.png.")
    means = "; ".join(f"{r.run_spread:g}: {r.mean:.1f} [{r.low:.1f}, {r.high:.1f}], all {total} "
                      f"in {r.all_conditions} of {r.worlds}" for r in summary.itertuples())
    alt = summary[summary["diff_vs_default"].notna() & (summary["diff_low"] != summary["diff_high"])]
    clear = [f"{r.run_spread:g} ({r.diff_vs_default:+.1f} [{r.diff_low:+.1f}, {r.diff_high:+.1f}])"
             for r in alt.itertuples() if r.diff_low > 0 or r.diff_high < 0]
    unclear = [f"{r.run_spread:g} ({r.diff_vs_default:+.1f} [{r.diff_low:+.1f}, {r.diff_high:+.1f}])"
               for r in alt.itertuples() if not (r.diff_low > 0 or r.diff_high < 0)]
    text = ("Tested: whether how far apart the runs near a tie are (run_spread, the sd of run "
            "skill within a team, set directly; everything else fixed) moves how many upper "
            f"limits reach 1, on the collection seeds of the first {w} draws at every value (paired; "
            "at the default spread these are the draws themselves). "
            f"Mean conditions of {total} with upper limit >= 1 [95% t interval]: {means}. ")
    if clear:
        text += ("Against the default, paired by seed, the difference stands clear of the "
                 f"seed-to-seed spread at run_spread {', '.join(clear)}. ")
    if unclear:
        text += (f"It is inconclusive at {', '.join(unclear)}: the interval includes 0. ")
    full = summary[summary["all_conditions"] == summary["worlds"]]
    raised = any(r.diff_low > 0 for r in alt.itertuples())
    text += (("A wider spread raises the count, but " if raised else
              "No spread tried raises the count clearly, and ")
             + (f"only run_spread {', '.join(f'{x:g}' for x in full.run_spread)} reaches all "
                f"{total} in every collection" if len(full) else
                f"no spread tried reaches all {total} in every collection")
             + f", so the paper's all-{total} is not assured by this assumption alone. ")
    off = worlds.assign(out=~worlds["hsd_border_d"].between(*PUBLISHED_D)).groupby("run_spread")["out"]
    misses = [f"{sp:g} in {int(k)} of {n}" for (sp, k), n in zip(off.sum().items(), off.size())
              if k]
    text += ((f"The calibration target (HSD border |d| of nG@1 within {_D_TEXT}) is missed at "
              f"run_spread {', '.join(misses)} collections. ") if misses else
             f"Every world keeps the HSD border |d| of nG@1 within {_D_TEXT}. ")
    text += "The calibrated default is not retuned. See sakai2017/run_spread_worlds.png."
    return text


def _span(row) -> str:
    return f"{row['median']:.2f} ({row['min']:.2f}-{row['max']:.2f})"


def es_reading_text(frame: pd.DataFrame, spread: pd.DataFrame, readings: pd.DataFrame,
                    es_table: pd.DataFrame | None = None,
                    es_topics: pd.DataFrame | None = None) -> tuple[str, str]:
    """The evidence and the meaning of the ES-reading row, from :mod:`.es_reading`'s tables.

    ``frame``: :func:`~.es_reading.es_published_denominator`; ``spread``:
    :func:`~.es_reading.denominator_spread`; ``readings``:
    :func:`~.es_reading.es_readings`; ``es_table`` and ``es_topics`` the
    workspace's q/sqrt(n) arithmetic (:mod:`.effect_sizes`), optional.
    """
    def fmt(c):
        return f"{c.measure}, Dmax {c.dmax}, N {c.assessors}, {c.gain}"

    ok = spread[spread["within_printing"]]
    off = spread[~spread["within_printing"]]
    widest = ok.loc[ok["pairs"].idxmax()] if len(ok) else None
    example = ""
    if widest is not None:
        cond = frame[(frame[["measure", "dmax", "assessors", "gain"]]
                      == widest[["measure", "dmax", "assessors", "gain"]].to_numpy()).all(axis=1)]
        example = (f" (e.g. {fmt(widest)}: "
                   + ", ".join(f"{x:.5f}" for x in cond["implied_denominator"]) + ")")
    exceptions = "; ".join(
        f"{fmt(c)} ({c.implied_denominator_min:.5f} to {c.implied_denominator_max:.5f}, "
        f"{c.relative_spread:.1%} apart)" for c in off.itertuples())
    r = readings.set_index(["quantity", "reading", "measure"])
    border = ("paper |d| / HSD border", "variance", "all"), ("paper |d| / HSD border",
                                                             "standard deviation", "all")
    evidence = (f"|d|/ES is one number per condition (measure, Dmax, N, gain): in {len(ok)} of "
                f"{len(spread)} conditions with two or more printed pairs the values agree within "
                f"the printing precision of |d| and ES{example}"
                + (f"; not in {exceptions}: the transcription is the paper's (a test finds every "
                   "row in its text), so one of the two is a misprint or has another denominator"
                   if len(off) else "")
                + f". Variance reading (V_E = |d|/ES): |d|/border {_span(r.loc[border[0]])} over "
                f"all {len(frame)} printed values, p {frame.p_value.min():.3f}-"
                f"{frame.p_value.max():.3f}; standard-deviation reading (sqrt(V_E) = |d|/ES): "
                f"{_span(r.loc[border[1]])}, a border at {1 / r.loc[border[1], 'max']:.2f}-"
                f"{1 / r.loc[border[1], 'min']:.2f} of |d|, where p would be far below 0.05 (sakai2017/es_published_denominator.csv, "
                "sakai2017/es_published_denominator.png)")
    text = ["Read as §5 defines it, ES = |d|/sqrt(V_E), Table 3's pairs have ES "
            + _span(r.loc[("paper ES as |d| / sqrt(V_E)", "variance", "all")])]
    ws = ("workspace ES as Table 3 computes it", "standard deviation", "all")
    if ws in r.index:
        text[0] += (f" and the workspace's discrepant pairs over all draws {_span(r.loc[ws])}")
    if es_table is not None and len(es_table):
        v = es_table.set_index("quantity")["value"]
        text[0] += (f", both near q/sqrt(n) = {v.iloc[0]:.2f}/sqrt({int(v['topics n'])}) = "
                    f"{v.iloc[0] / np.sqrt(v['topics n']):.2f}, the ES of any pair on the HSD "
                    "border (sakai2017/es_arithmetic.md")
        text[0] += ("; random topic subsets show ES ~ q/sqrt(n), "
                    "sakai2017/es_denominator.png)" if es_topics is not None and len(es_topics)
                    else ")")
    measures = list(dict.fromkeys(frame["measure"]))
    var = [("workspace ES as Table 3 computes it", "variance", m) for m in measures]
    if all(k in r.index for k in var):
        printed = [("paper ES as printed", "(either)", m) for m in measures]
        text.append("Read as Table 3 computes it, |d|/V_E, the workspace's pairs would have ES "
                    + ", ".join(f"{m} {r.loc[k, 'median']:.2f}" for m, k in zip(measures, var))
                    + " (medians) against the paper's "
                    + ", ".join(f"{m} {r.loc[k, 'min']:.3f}-{r.loc[k, 'max']:.3f}"
                                for m, k in zip(measures, printed))
                    + "; |d|/V_E is not in sd units and grows as a measure's residual variance "
                    "shrinks. The workspace keeps ES = |d|/sqrt(V_E), the definition §5 cites "
                    "(Sakai 2014)")
    return evidence, ". ".join(text) + "."
