"""The claims of Sakai (EVIA 2017), each with its kind, the reproduction's verdict and number.

:func:`claims` checks Table 1 (a worked example of Eqs. 1-2: an identity),
Table 2 (upper limits of tau, tau < 1 at small N) and Table 3 (where
discrepancies occur, their ES_HSD; their |d| is the calibration target of the
simulated collection).  Every claim that depends on the rating draw is judged
over the notebook's independent draws (:mod:`.replications`) by
:meth:`~evalkit.declare.claims.Claims.add_over_draws`, the committed draw's
own value beside it.  Each range a claim states is declared once, beside its
text (:data:`CLAIM_RANGES`), and the text is generated from it.  A claim that
does not hold carries the finding of the controlled experiment that explains
it (:mod:`.run_spread`, :mod:`.effect_sizes`), built from those experiments'
tables by the ``_why_*`` helpers below.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...declare.claims import MIN_DRAWS, Claims, share_interval
from .tables import PUBLISHED_D, PUBLISHED_ES

__all__ = ["claims", "CLAIM_RANGES", "N_WITHOUT", "over_draws"]

#: The ranges the claims state, tested exactly as written: (low, high), inclusive.
CLAIM_RANGES = {"d": PUBLISHED_D, "es": PUBLISHED_ES}
#: The numbers of assessors at which the paper sees no discrepancy (§5: "not observed for N = 40, 80").
N_WITHOUT = (40, 80)

_D_TEXT = f"{PUBLISHED_D[0]:g}-{PUBLISHED_D[1]:g}"
_ES_TEXT = f"{PUBLISHED_ES[0]:g}-{PUBLISHED_ES[1]:g}"


def over_draws(reps: pd.DataFrame, rule) -> pd.Series:
    """One bool per replication: ``rule(frame of that draw)``, in replication order."""
    return reps.groupby("replication", sort=True).apply(rule, include_groups=False).astype(bool)


def _median_in(values: pd.Series, bounds) -> bool:
    return bool(len(values)) and bounds[0] <= float(values.median()) <= bounds[1]


def claims(t1: pd.DataFrame, t1_published: pd.DataFrame, reps: pd.DataFrame,
           rep_pairs: pd.DataFrame, es_table: pd.DataFrame | None = None,
           worlds: pd.DataFrame | None = None, world_summary: pd.DataFrame | None = None,
           es_topics: pd.DataFrame | None = None,
           es_rows: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's claims, each with its kind, the reproduction's verdict and its number.

    Every number is computed from the tables passed in (never typed by hand):
    ``t1``/``t1_published`` (Table 1); ``reps`` and ``rep_pairs``
    (:func:`~.replications.replicate`: Tables 2-3 per rating draw, replication 0
    the committed draw); the explaining experiments ``worlds`` and
    ``world_summary`` (:mod:`.run_spread`), ``es_table``
    (:func:`~.effect_sizes.es_arithmetic`), ``es_rows``
    (:func:`~.effect_sizes.es_paper_rows`) and ``es_topics``
    (:func:`~.effect_sizes.es_topics_summary`).  With fewer than
    :data:`~evalkit.declare.claims.MIN_DRAWS` draws (a quick run) a claim is
    judged on the committed draw alone, and its evidence says so.
    """
    c = Claims()
    _table1_claim(c, t1, t1_published)
    judge = _judge(c, reps["replication"].nunique())
    _table2_claims(judge, reps, worlds, world_summary)
    _table3_claims(judge, reps, rep_pairs, es_table, es_topics, es_rows)
    return c.frame()


def _judge(c: Claims, r: int):
    """``add(claim, evidence, outcomes, why, kind)``: over draws, or on draw 0 when r < MIN_DRAWS."""
    def add(claim, evidence, outcomes, why="", kind="paper"):
        outcomes = list(outcomes)
        if r >= MIN_DRAWS:
            k = sum(outcomes)
            lo, hi = share_interval(k, r)
            c.add_over_draws(claim, f"{evidence}; over {r} draws {k} of {r} "
                             f"(95% interval {lo:.2f}-{hi:.2f})", outcomes, why, kind=kind)
        else:
            c.add(claim, f"{evidence} (only {r} draws: judged on the committed draw)",
                  bool(outcomes[0]), why, kind=kind)
    return add


def _table1_claim(c: Claims, t1: pd.DataFrame, published: pd.DataFrame) -> None:
    cols = ["RawG", "D", "UG (p=0.2)", "UG (p=0.1)"]
    same = (t1[cols].to_numpy() == published[cols].to_numpy()).all(axis=1)
    same &= (t1["WG"].round(1).to_numpy() == published["WG"].to_numpy())
    c.add("Table 1: RawG, D, WG (1 decimal) and UG of the seven items (a worked example of Eqs. 1-2)",
          f"{int(same.sum())} of {len(same)} rows equal", bool(same.all()), kind="identity")


def _table2_claims(add, reps: pd.DataFrame, worlds, world_summary) -> None:
    first = reps[reps["replication"] == 0]
    total = len(first)
    above = over_draws(reps, lambda g: (g["high"] >= 1).all())
    per = reps.groupby("replication")["high"].apply(lambda h: int((h >= 1).sum()))
    why = _why_upper_limits(worlds, world_summary)
    add("Table 2: every upper 95% limit of tau is at least 1 (rankings statistically equivalent)",
        f"committed draw {per.iloc[0]} of {total} conditions; per draw {per.min()}-{per.max()} "
        f"of {total}", above, why)
    few = reps[reps["N"] <= 10]
    if len(few):
        differ = over_draws(few, lambda g: (g["tau"] < 1).all())
        f0 = few[few["replication"] == 0]
        add("Table 2: with N = 5 or 10 the RawG and UG rankings differ (tau < 1) in every "
            "condition, even with p = 0.2",
            f"committed draw: tau < 1 in {int((f0['tau'] < 1).sum())} of {len(f0)}", differ)


def _table3_claims(add, reps: pd.DataFrame, pairs: pd.DataFrame, es_table, es_topics,
                   es_rows) -> None:
    n_min = reps["N"].min()
    small = reps[reps["N"] == n_min]
    per_small = small.groupby("replication")["discrepancies"].sum()
    add(f"Table 3: discrepancies occur at the smallest N (N = {n_min})",
        f"committed draw {per_small.iloc[0]} discrepancies over "
        f"{len(small[small.replication == 0])} (measure, Dmax) conditions; per draw "
        f"{per_small.min()}-{per_small.max()}", per_small > 0)
    big = reps[reps["N"].isin(N_WITHOUT)]
    if len(big):
        per_big = big.groupby("replication")["discrepancies"].sum()
        ns = " and ".join(str(n) for n in N_WITHOUT)
        some = per_big[per_big > 0]
        at = big[big["discrepancies"] > 0].groupby("N")["replication"].nunique()
        where = ", ".join(f"N = {n} in {k}" for n, k in at.items())
        why = ("" if not len(some) else
               f"The paper's one draw had none; over independent draws of the same ratings "
               f"model, {len(some)} of {len(per_big)} draws have discrepancies at N = "
               f"{ns.replace(' and ', ' or ')} ({where} draws; "
               f"up to {some.max()} in one draw; sakai2017/replications.csv): at large N "
               "D = Dmax is likely but not certain, so UG only almost equals RawG, and a "
               "pair on the HSD border can still flip. Whether a draw has none is luck.")
        add(f"Table 3: no discrepancies at N = {ns}",
            f"committed draw {per_big.iloc[0]} discrepancies over "
            f"{len(big[big.replication == 0])} conditions; per draw 0-{per_big.max()}",
            per_big == 0, why)
    if not len(pairs):
        return
    draws = sorted(reps["replication"].unique())
    by_draw = {r: pairs[pairs["replication"] == r] for r in draws}
    es = {r: pd.concat([p["ES_RawG"], p["ES_UG"]]) for r, p in by_draw.items()}
    d = {r: pd.concat([p["d_RawG"], p["d_UG"]]) for r, p in by_draw.items()}
    why = []
    if es_table is not None:
        v = es_table.set_index("quantity")["value"]
        q, n = v.iloc[0], int(v["topics n"])
        why.append(_why_es_border(q, n, v.iloc[7], v.iloc[8]))
        if es_topics is not None and es_rows is not None and len(es_topics):
            why += [_why_es_paper_rows(es_rows, n), _why_es_subsets(es_topics)]
    lo, hi = CLAIM_RANGES["es"]
    add(f"Table 3: discrepant (borderline) pairs have ES_HSD of about {lo:g}-{hi:g} "
        "(median within the range)",
        f"committed draw: median ES_HSD {es[0].median():.2f} (range {es[0].min():.2f}-"
        f"{es[0].max():.2f}) with ES = |d|/sqrt(V_E)",
        [_median_in(es[r], CLAIM_RANGES["es"]) for r in draws], " ".join(why))
    lo, hi = CLAIM_RANGES["d"]
    first = by_draw[0]
    inside = d[0].between(lo, hi)
    per_measure = ", ".join(
        f"{m} {pd.concat([g['d_RawG'], g['d_UG']]).median():.3f}"
        for m, g in first.groupby("measure", sort=False))
    all_d = pd.concat(d.values())
    all_pairs = pd.concat(by_draw.values())
    med = {m: pd.concat([g["d_RawG"], g["d_UG"]]).median()
           for m, g in all_pairs.groupby("measure", sort=False)}
    sd_e = {m: (g["d_RawG"] / g["ES_RawG"]).median()
            for m, g in all_pairs.groupby("measure", sort=False)}
    met = [m for m, x in med.items() if lo <= x <= hi]
    add(f"Table 3: discrepant pairs have |d| of about {lo:g}-{hi:g} (median within the range; "
        "the target the simulated collection was tuned to)",
        f"committed draw: median |d| {d[0].median():.3f} (range {d[0].min():.3f}-"
        f"{d[0].max():.3f}; {int(inside.sum())} of {len(inside)} values within {lo:g}-{hi:g})",
        [_median_in(d[r], CLAIM_RANGES["d"]) for r in draws],
        f"The collection was tuned on nG@1 (docs/simulators.md). Median |d| per measure in the "
        f"committed draw: {per_measure}; over all draws "
        + ", ".join(f"{m} {x:.3f}" for m, x in med.items())
        + f", and {int(all_d.between(lo, hi).sum())} of {len(all_d)} values lie within "
        f"{lo:g}-{hi:g}. Every measure's borderline pairs have ES = |d|/sqrt(V_E) near "
        "q/sqrt(n), so their |d| scales with the measure's residual sd sqrt(V_E) = |d|/ES "
        "(median over all draws: " + ", ".join(f"{m} {x:.3f}" for m, x in sd_e.items())
        + "). The median over all draws is within the target for "
        + (", ".join(met) if met else "no measure") + " (sakai2017/replication_pairs.csv).",
        kind="calibration")


def _why_upper_limits(worlds: pd.DataFrame | None, summary: pd.DataFrame | None) -> str:
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
            f"limits reach 1, over {w} collection seeds per value (the same seeds at every value). "
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


def _why_es_border(q: float, n: int, n_high_es: float, n_low_es: float) -> str:
    """ES at the HSD border is q/sqrt(n); the topics the paper's ES would need."""
    return (f"A pair on the HSD border has |d| ~ q sqrt(V_E/n), so ES = |d|/sqrt(V_E) ~ "
            f"q/sqrt(n) = {q:.2f}/sqrt({n}) = {q / np.sqrt(n):.2f}, as reproduced; the "
            f"paper's {_ES_TEXT} would need n = (q/ES)^2 = {n_high_es:.0f}-{n_low_es:.0f} "
            f"topics, not {n}, so its ES cannot come from ES = |d|/sqrt(V_E) with V_E "
            "from the two-way ANOVA over all topics (a different denominator). See "
            "sakai2017/es_arithmetic.md.")


def _why_es_paper_rows(rows: pd.DataFrame, n: int) -> str:
    """What the paper's own (|d|, ES) rows imply about V_E and the border at n topics."""
    share = rows.border_d_at_n / rows.d
    return (f"The paper's own rows say the same without any simulation: their |d| "
            f"{rows.d.min():.3f}-{rows.d.max():.3f} and ES imply sqrt(V_E) = |d|/ES = "
            f"{rows.implied_sd_E.min():.3f}-{rows.implied_sd_E.max():.3f}, whose HSD border "
            f"at {n} topics, q sqrt(V_E/{n}), is {rows.border_d_at_n.min():.3f}-"
            f"{rows.border_d_at_n.max():.3f}, only {share.min():.2f}-{share.max():.2f} of those "
            "|d| (sakai2017/es_paper_rows.csv).")


def _why_es_subsets(es_topics: pd.DataFrame) -> str:
    """The median ES of borderline pairs at the fewest and the most topics, beside q/sqrt(n)."""
    parts = []
    for n in (es_topics["topics"].min(), es_topics["topics"].max()):
        at = es_topics[es_topics["topics"] == n]
        parts.append(f"{at.es_median.min():.2f}-{at.es_median.max():.2f} at n = "
                     f"{at.topics.iloc[0]} (q/sqrt(n) {at.q_over_root_n.iloc[0]:.2f})")
    return ("Checked numerically on random topic subsets: the median ES of pairs with p near "
            f"0.05 is {parts[0]} and {parts[1]}, sakai2017/es_denominator.png.")
