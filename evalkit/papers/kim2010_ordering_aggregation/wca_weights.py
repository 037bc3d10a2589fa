"""Beyond Kim, Zhai & Han (ECIR 2010): WCA's weights mapped to [0, 1] (the default) or read literally.

WCA (§4.2) weights each gold ordering by its mean correlation with the
others.  §5.2 maps Kendall's tau and Spearman's rho, the scores, to [0, 1]
by ``(x + 1)/2`` and says nothing of the weights; the default maps the
weights the same way (offset ``a = 1``, the workspace's reading; a random
ordering gets weight about 1/2), and the paper's Table 1 matches that: its
WCA degrades almost as much as AC.  Read literally (``a = 0``) the weights lie in
``[-1, 1]``, so the random orderings that noise adds get weight about 0 and
WCA nearly ignores them.  The notebook scores weights ``(w + a)/(1 + a)`` for
each offset in :func:`~.worlds.score_worlds`; :func:`wca_weight_worlds` does
the same on one clean world's noisy sets (only ``a`` varies);
:func:`summarise_wca_weights` counts Table 1's claims per offset and
:func:`wca_weights_explanation` turns them into the claims' explanation.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ...measures import discriminativeness as edm
from .tables import noisy_sets, table1_order_checks

__all__ = ["WCA_OFFSETS", "wca_weight_worlds", "summarise_wca_weights", "holds_from_offset",
           "wca_weights_explanation", "wca_outliers", "wca_outlier_explanation", "WILD_SCORE"]

#: The weight offsets ``a`` tried by default (1: (x + 1)/2 as §5.2 maps the scores, the default; 0: read literally).
WCA_OFFSETS = (0, 0.1, 0.25, 0.5, 1)


def wca_weight_worlds(sets, t1_long: pd.DataFrame, offsets: Sequence[float] = WCA_OFFSETS,
                      seed: int = 2010) -> pd.DataFrame:
    """Table 1 again with WCA's weights ``(w + a)/(1 + a)`` for each offset ``a`` (only that varies).

    ``w``, a gold's mean correlation with the others, lies in ``[-1, 1]``, so
    the random orderings that noise adds get weight about 0 and WCA nearly
    ignores them; ``a = 1`` rescales the weights to ``[0, 1]`` as ``(w + 1)/2``
    (§5.2's mapping of the correlations that serve as scores), giving them about 1/2
    (:func:`evalkit.measures.aggregation.wca_weights`).  The noisy sets are
    Table 1's own (``noisy_sets`` with the same ``seed``, ratios and draws as
    ``t1_long``), one engine per set for every offset; AC, RBA and FreSPA do
    not depend on ``a`` and are copied from ``t1_long``.  Long format like
    :func:`~.tables.table1` plus ``weight_offset``.
    """
    offsets = [float(a) for a in offsets]
    grid = [{"weight_offset": a} for a in offsets]
    rows = []
    jobs = t1_long[["noise_ratio", "draw"]].drop_duplicates().itertuples(index=False)
    for r, d in jobs:
        data = noisy_sets(sets, r, seed, d)
        for m in ("wca-tau", "wca-sp"):
            eds = edm.discriminativeness(m, data, params_grid=grid)
            rows += [{"weight_offset": a, "noise_ratio": r, "draw": d, "method": m, "ED": ed}
                     for a, ed in zip(offsets, eds)]
    fixed = t1_long[~t1_long["method"].str.startswith("wca")]
    rows += [{"weight_offset": a, **r} for a in offsets for r in fixed.to_dict("records")]
    return pd.DataFrame(rows)


def summarise_wca_weights(long: pd.DataFrame, published: pd.DataFrame | None = None
                          ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per offset: mean ED per (noise ratio, method), and the two Table 1 claims.

    Returns ``(ed, summary)``: ``ed`` has one row per (offset, noise ratio)
    and a column per method; ``summary`` one row per offset with the ratios
    where RBA > WCA (tau and Sp), the worst RBA/FreSPA and best AC/WCA drop
    (% from the lowest to the highest ratio), whether each claim holds, each
    WCA's drop and clean ED, beside the paper's (``published``: its Table 1).
    """
    ed = (long.groupby(["weight_offset", "noise_ratio", "method"])["ED"].mean()
          .unstack()[list(edm.METHODS)].reset_index())
    ed.columns.name = None
    rows = []
    for a, g in ed.groupby("weight_offset", sort=True):
        mean = g.drop(columns="weight_offset").set_index("noise_ratio")
        checks = table1_order_checks(mean)
        lo, hi = mean.index.min(), mean.index.max()
        row = {"weight_offset": a, "rba_gt_wca": checks["rba_gt_wca"], "ratios": checks["ratios"],
               "rba_gt_wca_holds": checks["rba_gt_wca"] == checks["ratios"],
               "worst_rba_frespa_drop_pct": checks["worst_rba_frespa_drop_pct"],
               "best_ac_wca_drop_pct": checks["best_ac_wca_drop_pct"],
               "degrade_less_holds": bool(checks["worst_rba_frespa_drop_pct"]
                                          < checks["best_ac_wca_drop_pct"])}
        for m in ("wca-tau", "wca-sp"):
            row[f"{m}_drop_pct"] = 100 * (mean.loc[lo, m] - mean.loc[hi, m]) / mean.loc[lo, m]
            row[f"{m}_clean"] = mean.loc[lo, m]
            if published is not None:
                pub = published.astype({"noise_ratio": str}).set_index("noise_ratio")[m]
                p_lo, p_hi = float(pub[f"{lo:g}"]), float(pub[f"{hi:g}"])
                row[f"{m}_clean_paper"] = p_lo
                row[f"{m}_drop_pct_paper"] = 100 * (p_lo - p_hi) / p_lo
        rows.append(row)
    return ed, pd.DataFrame(rows)


def holds_from_offset(summary: pd.DataFrame, col: str):
    """Smallest offset from which ``col`` holds at it and at every larger offset tried (None: never)."""
    ok = summary.sort_values("weight_offset")[col].to_numpy(bool)
    offs = summary.sort_values("weight_offset")["weight_offset"].to_numpy()
    tail = [i for i in range(len(ok)) if ok[i:].all()]
    return offs[tail[0]] if tail else None


#: What the explanation says first: why WCA's weights read literally ignore noise.
_WHY_PRINTED = ("Read literally, WCA weights each gold by its mean correlation with the others, in "
                "[-1, 1], so the random orderings that noise adds get weight about 0 and WCA nearly "
                "ignores them.")
#: ... and last: why the default is a = 1.
_WHY_DEFAULT = ("The default is a = 1: §5.2 maps Kendall's tau and Spearman's rho, the scores, by (x + 1)/2 "
                "and says nothing of the weights; the paper's Table 1 matches weights mapped the same way, "
                "not the literal ones.")


def _finding(summary: pd.DataFrame, what: str) -> tuple[str, str]:
    """(the summary's column that says the claim holds, what each offset shows)."""
    if what == "rba":
        per = ", ".join(f"{r.weight_offset:g}: {r.rba_gt_wca}/{r.ratios}" for r in summary.itertuples())
        return "rba_gt_wca_holds", f"ratios where RBA > WCA, by a: {per}"
    per = ", ".join(f"{r.weight_offset:g}: {r.worst_rba_frespa_drop_pct:.0f}% vs "
                    f"{r.best_ac_wca_drop_pct:.0f}%" for r in summary.itertuples())
    return "degrade_less_holds", f"worst RBA/FreSPA drop vs best AC/WCA drop, by a: {per}"


def _at_offset_one(summary: pd.DataFrame) -> str:
    """WCA's clean ED and degradation at a = 1 beside the paper's ("" without them)."""
    one = summary[summary.weight_offset == 1]
    if not (len(one) and "wca-tau_clean_paper" in one):
        return ""
    r = one.iloc[0]
    return (f"At a = 1 clean WCA-tau/Sp ED is {r['wca-tau_clean']:.3f}/{r['wca-sp_clean']:.3f} "
            f"(paper {r['wca-tau_clean_paper']:.3f}/{r['wca-sp_clean_paper']:.3f}) and WCA degrades "
            f"{r['wca-tau_drop_pct']:.0f}%/{r['wca-sp_drop_pct']:.0f}% "
            f"(paper {r['wca-tau_drop_pct_paper']:.0f}%/{r['wca-sp_drop_pct_paper']:.0f}%).")


def wca_weights_explanation(summary: pd.DataFrame | None, what: str) -> str:
    """Explanation of the RBA > WCA (``what="rba"``) or degradation (``"degrade"``) claim,
    from :func:`summarise_wca_weights` ("" without a summary)."""
    if summary is None or not len(summary):
        return ""
    col, finding = _finding(summary, what)
    start = holds_from_offset(summary, col)
    holds = (f"the claim holds from a = {start:g}" if start is not None else
             "no offset tried makes the claim hold")
    rescored = ("Scoring Table 1's own worlds with weights (w + a)/(1 + a), only a varying "
                "(a = 1 is (w + 1)/2, the [0, 1] mapping §5.2 applies to the correlations as scores, "
                f"which gives a random ordering about 1/2; mean over draws), {finding}: {holds}.")
    see = "See kim2010/wca_weights.png and kim2010/wca_weights.csv."
    return " ".join(p for p in (_WHY_PRINTED, rescored, _at_offset_one(summary), _WHY_DEFAULT, see) if p)


def wca_outliers(sets, t1_long: pd.DataFrame, seed: int = 2010) -> pd.DataFrame:
    """Per noise draw and WCA variant: the ED, and the turn whose gold weights cancel most.

    WCA's score of a held-out ordering is ``sum_i w_i c_i / sum_i w_i`` with
    the printed weights ``w_i`` in ``[-1, 1]`` (a gold's mean correlation with
    the others).  Random orderings get weights near 0, some negative, so in
    some turns the weights nearly cancel and the score leaves ``[-1, 1]``
    without bound.  One row per (method, noise ratio, draw) of ``t1_long``'s
    noisy draws (Table 1's own noisy sets, as :func:`wca_weight_worlds`):
    ``ED``, ``clean_ED``, ``min_abs_weight_sum`` and ``max_abs_score`` over
    the draw's turns (all sets).
    """
    clean = t1_long[t1_long.noise_ratio == 0].set_index("method")["ED"]
    rows = []
    jobs = t1_long.loc[t1_long.noise_ratio > 0, ["noise_ratio", "draw"]].drop_duplicates()
    eds = t1_long.set_index(["method", "noise_ratio", "draw"])["ED"]
    for r, d in jobs.itertuples(index=False):
        engines = [edm.SetEngine(s) for s in noisy_sets(sets, r, seed, d).values()]
        for m, attr in (("wca-tau", "tau"), ("wca-sp", "rho")):
            sums, scores = [], []
            for eng in engines:
                c, n = getattr(eng, attr), eng.n
                for i in range(n):
                    others = np.delete(np.arange(n), i)
                    sub = c[np.ix_(others, others)]
                    w = (sub.sum(1) - 1) / (others.size - 1)
                    sums.append(abs(w.sum()))
                    if abs(w.sum()) >= 1e-12:       # the engine falls back to the mean at 0
                        scores.append(abs(w @ c[i, others] / w.sum()))
            rows.append({"method": m, "noise_ratio": r, "draw": d, "ED": eds[(m, r, d)],
                         "clean_ED": clean[m], "min_abs_weight_sum": min(sums),
                         "max_abs_score": max(scores)})
    return pd.DataFrame(rows)


#: A turn whose WCA score exceeds this in absolute value counts as "weights nearly cancel".
WILD_SCORE = 5.0


def wca_outlier_explanation(outliers: pd.DataFrame | None, method: str = "wca-sp") -> str:
    """Why some noisy draws of WCA score above its clean ED, from :func:`wca_outliers` ("" without)."""
    if outliers is None or not len(outliers):
        return ""
    o = outliers[outliers.method == method]
    above = o[o.ED > o.clean_ED]
    wild = o[o.max_abs_score > WILD_SCORE]
    label = method.upper().replace("-SP", "-Sp").replace("-TAU", "-tau")
    if not len(above):
        return (f"{label}'s ED stays below its clean {o.clean_ED.iloc[0]:.3f} in all {len(o)} noisy "
                "draws.")
    top = above.loc[above.ED.idxmax()]
    both = len(above[above.max_abs_score > WILD_SCORE])
    return (f"{label}'s ED exceeds its clean {top.clean_ED:.3f} in {len(above)} of {len(o)} noisy draws "
            f"(highest {top.ED:.3f} at r = {top.noise_ratio:g}, draw {int(top.draw)}). WCA's score is "
            "sum w c / sum w with the printed weights in [-1, 1]; random orderings get weights near 0, "
            f"some negative, so in some turns the weights nearly cancel (|sum w| down to "
            f"{o.min_abs_weight_sum.min():.3f}) and the score leaves [-1, 1] without bound (up to "
            f"{o.max_abs_score.max():.1f}). {both} of the {len(above)} draws above the clean ED have a "
            f"turn scoring beyond +-{WILD_SCORE:g}, and {len(wild)} of all {len(o)} draws do: the "
            "outliers are the formula's division by a near-zero weight sum, not better discrimination "
            "(see kim2010/wca_outliers.csv).")
