"""Who is unreliable? The agreement, reliability and summary of ``evalkit assessors``.

:func:`rank_correlation` compares every judge's leaderboard with ``all:raw``
and, beside it, each ``assessor:<id>`` with ``without:<id>``, the others
without that assessor (a leave-one-out reference: ``all:raw`` contains the
assessor's own ratings, so against it a careless assessor looks closer
than they are).  :func:`agreement_frame` gives Krippendorff's alpha with and
without each assessor, :func:`reliability_frame` each assessor's Dawid-Skene
confusion matrix, and :func:`summary_lines` the three lines the command
prints: verdicts that hinge on one assessor; the assessor whose leaderboard
departs most from the others'; alpha, the assessor whose removal raises it
most, and the one Dawid-Skene finds least reliable (``docs/assessors.md``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats.agreement import fleiss_kappa
from ...stats.krippendorff import alpha_from_counts, value_counts
from ...stats.rank_correlation import kendall_tau, tau_ap

__all__ = ["rank_correlation", "agreement_frame", "reliability_frame", "summary_lines",
           "REFERENCE", "MEAN_JUDGE"]

#: The judge every other is compared with.
REFERENCE = "all:raw"
#: The per-topic mean of the assessors' scores (formerly ``aware``).
MEAN_JUDGE = "assessor-mean"


def _compare(ref: np.ndarray, x: np.ndarray) -> tuple[float, float, bool]:
    ok = np.isfinite(x).all() and np.isfinite(ref).all()
    tau = kendall_tau(ref, x).tau if ok and len(x) >= 3 else np.nan
    ap = tau_ap(ref, x) if ok else np.nan
    top = bool(ok and set(np.flatnonzero(x == x.max())) == set(np.flatnonzero(ref == ref.max())))
    return tau, ap, top


def rank_correlation(board: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """``judge, measure, reference, kendall_tau, tau_ap, top1_same`` against ``all:raw``, and for
    ``assessor:<id>`` the same against ``without:<id>`` in the ``loo_*`` columns (NaN elsewhere)."""
    rows = []
    for measure, frame in board.groupby("measure", sort=False):
        by = {j: g["value"].to_numpy() for j, g in frame.groupby("judge", sort=False)}
        for judge in order:
            if judge == REFERENCE:
                continue
            row = [judge, measure, REFERENCE, *_compare(by[REFERENCE], by[judge])]
            if judge.startswith("assessor:"):
                loo = "without:" + judge.split(":", 1)[1]
                row += [loo, *_compare(by[loo], by[judge])]
            else:
                row += ["", np.nan, np.nan, pd.NA]
            rows.append(row)
    out = pd.DataFrame(rows, columns=["judge", "measure", "reference", "kendall_tau", "tau_ap",
                                      "top1_same", "loo_reference", "loo_kendall_tau",
                                      "loo_tau_ap", "loo_top1_same"])
    out["loo_top1_same"] = out["loo_top1_same"].astype("boolean")
    return out


def agreement_frame(jg) -> pd.DataFrame:
    """``statistic, value, note``: alpha (ordinal, interval), Fleiss' kappa when every item has
    the same number of ratings, and the ordinal alpha without each assessor."""
    x = jg.ratings
    item, who = np.nonzero(~np.isnan(x))
    values = x[item, who]
    counts, cats = value_counts(item, values)
    rows = [("alpha_ordinal", alpha_from_counts(counts, cats, "ordinal"),
             f"Krippendorff's alpha, ordinal metric, {len(values)} ratings of {len(x)} items"),
            ("alpha_interval", alpha_from_counts(counts, cats, "interval"),
             "Krippendorff's alpha, interval metric")]
    per_item = (~np.isnan(x)).sum(axis=1)
    if per_item.min() == per_item.max() and per_item.min() >= 2:
        table = np.stack([(x == g).sum(axis=1) for g in range(jg.dmax + 1)], axis=1)
        rows.append(("fleiss_kappa", fleiss_kappa(table),
                     f"every item has {per_item.min()} ratings; categories 0..{jg.dmax}"))
    else:
        rows.append(("fleiss_kappa", np.nan,
                     f"not computed: items have {per_item.min()} to {per_item.max()} ratings "
                     "(Fleiss' kappa needs the same number for every item)"))
    for j, a in enumerate(jg.assessors):
        keep = who != j
        c, k = value_counts(item[keep], values[keep])
        rows.append((f"alpha_without:{a}", alpha_from_counts(c, k, "ordinal"),
                     f"ordinal alpha of the other {len(jg.assessors) - 1} assessors"))
    return pd.DataFrame(rows, columns=["statistic", "value", "note"])


def reliability_frame(jg) -> pd.DataFrame:
    """``judge, grade, estimated_grade, probability``: each assessor's Dawid-Skene confusion
    matrix (the chance of saying ``grade`` about an item whose estimated grade is
    ``estimated_grade``), as ``evalkit agreement`` writes it."""
    k = jg.dmax + 1
    rows = [(a, g, e, float(jg.confusion[j, e, g]))
            for j, a in enumerate(jg.assessors) for e in range(k) for g in range(k)]
    return pd.DataFrame(rows, columns=["judge", "grade", "estimated_grade", "probability"])


def _matching(reliability: pd.DataFrame, prior) -> pd.Series:
    """Each assessor's chance of saying the estimated grade, weighted by the grades' prior."""
    diag = reliability[reliability["grade"] == reliability["estimated_grade"]]
    weight = np.asarray(prior)[diag["estimated_grade"].to_numpy()]
    return (diag.assign(w=diag["probability"] * weight).groupby("judge", sort=False)["w"].sum()
            / float(np.sum(prior)))


def summary_lines(report) -> list[str]:
    """The three lines of ``evalkit assessors`` (see the module docstring)."""
    v = report.verdict_stability
    hinge = int((v["share_flipped"] > 0).sum())
    per = ", ".join(f"{m}: {int((g['share_flipped'] > 0).sum())}/{len(g)}"
                    for m, g in v.groupby("measure", sort=False))
    lines = [f"{hinge} of {len(v)} HSD verdicts (run pair x measure) under {REFERENCE} flip "
             f"when one assessor is left out ({per}; B = {report.settings.get('trials')}, "
             f"alpha = {report.settings.get('alpha')})."]
    rc = report.rank_correlation
    flagged = set(report.flagged)
    own = rc[rc["judge"].str.startswith("assessor:") & ~rc["judge"].str[9:].isin(flagged)]
    loo = own.groupby("judge", sort=False)[["loo_kendall_tau", "kendall_tau"]].mean()
    skipped = (f" ({', '.join(sorted(flagged))} left out: scored on fewer than "
               f"{report.settings.get('min_topics'):.0%} of the topics)" if flagged else "")
    if loo["loo_kendall_tau"].notna().any():
        worst = loo["loo_kendall_tau"].idxmin()
        lines.append(f"The leaderboard departing most from the others' is {worst}'s: mean Kendall "
                     f"tau {loo.loc[worst, 'loo_kendall_tau']:.3f} against "
                     f"without:{worst[9:]} (the others without them), "
                     f"{loo.loc[worst, 'kendall_tau']:.3f} against {REFERENCE}{skipped}.")
    else:
        lines.append("No assessor's leaderboard could be compared with the others' (fewer than 3 "
                     f"runs, or no assessor scored enough topics){skipped}.")
    a = report.agreement.set_index("statistic")["value"]
    third = (f"Krippendorff's alpha over {len(report.assessors)} assessors: ordinal "
             f"{a['alpha_ordinal']:.3f}, interval {a['alpha_interval']:.3f}")
    without = a[[f"alpha_without:{x}" for x in report.assessors]].rename(lambda s: s.split(":", 1)[1])
    if without.notna().any():
        best = without.idxmax()
        third += (f"; removing {best} raises the ordinal alpha most, to {without[best]:.3f}")
    rel = report.reliability
    if rel is not None and len(report.assessors) >= 2:
        match = _matching(rel, report.settings.get("prior", np.ones(rel["grade"].max() + 1)))
        low = match.idxmin()
        rest = match.drop(low)
        third += (f"; Dawid-Skene finds {low} least reliable (says the estimated grade "
                  f"{match[low]:.0%} of the time, the others {rest.min():.0%} to {rest.max():.0%}; "
                  "reliability.csv)")
    lines.append(third + ".")
    return lines
