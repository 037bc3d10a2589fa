"""Kim, Zhai & Han (ECIR 2010): which of the paper's conclusions hold on the simulated data.

:func:`claims` checks Table 1's orderings and degradation (§5.3), the two
properties of AC the definitions imply (clean ED equals the mean pairwise
tau; noise dilutes it), and Table 4's best minSup on clean and noisy data.
A conclusion that does not hold is explained by the experiments beyond the
paper: :mod:`.heterogeneity`, :mod:`.wca_weights` and :mod:`.minsup`.
"""

from __future__ import annotations

import pandas as pd

from ...declare.claims import Claims
from .heterogeneity import heterogeneity_explanation
from .minsup import minsup_explanation
from .wca_weights import wca_weights_explanation

__all__ = ["claims"]


def claims(t1_long: pd.DataFrame, tables: pd.DataFrame, tau: float, dilution: dict,
           worlds: pd.DataFrame | None = None, minsup_sets: pd.DataFrame | None = None,
           minsup_summary: pd.DataFrame | None = None,
           wca_summary: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's conclusions, each with the reproduction's verdict and number.

    ``t1_long`` is :func:`~.tables.table1`, ``tables`` :func:`~.tables.frespa_tables`,
    ``tau`` the mean pairwise tau (:func:`~.tables.mean_pairwise_tau`) and
    ``dilution`` maps a noise ratio to :func:`~.tables.dilution_check`.  The
    RBA > WCA and degradation rows are explained by ``wca_summary``
    (:func:`~.wca_weights.summarise_wca_weights`) when given, else by
    ``worlds`` (:func:`~.heterogeneity.heterogeneity_worlds`); the clean
    minSup row by ``minsup_sets`` and ``minsup_summary`` (:mod:`.minsup`).
    """
    mean = t1_long.groupby(["noise_ratio", "method"])["ED"].mean().unstack()
    c = Claims()
    add = c.add
    n = len(mean)
    order_ok = {
        "FreSPA > RBA-Sp": (mean["frespa"] > mean["rba-sp"]),
        "RBA > WCA (tau and Sp)": (mean["rba-tau"] > mean["wca-tau"]) & (mean["rba-sp"] > mean["wca-sp"]),
        "WCA > AC (tau and Sp)": (mean["wca-tau"] > mean["ac-tau"]) & (mean["wca-sp"] > mean["ac-sp"]),
    }
    why = {"FreSPA > RBA-Sp": heterogeneity_explanation(worlds, "frespa"),
           "RBA > WCA (tau and Sp)": (wca_weights_explanation(wca_summary, "rba")
                                      or heterogeneity_explanation(worlds, "rba"))}
    for name, ok in order_ok.items():
        add(f"Table 1: {name} at every noise ratio", f"{int(ok.sum())} of {n} ratios", bool(ok.all()),
            why.get(name, "") if not ok.all() else "")
    sp = sum(((mean[f"{m}-sp"] > mean[f"{m}-tau"]).sum()) for m in ("ac", "wca", "rba"))
    add("Table 1: Spearman beats Kendall (AC, WCA, RBA) at every noise ratio",
        f"{int(sp)} of {3 * n} comparisons", bool(sp == 3 * n))
    lo, hi = mean.index.min(), mean.index.max()
    deg = 100 * (mean.loc[lo] - mean.loc[hi]) / mean.loc[lo]
    worst_fine = max(deg["rba-tau"], deg["rba-sp"], deg["frespa"])
    best_base = min(deg["ac-tau"], deg["ac-sp"], deg["wca-tau"], deg["wca-sp"])
    add("Table 1: RBA and FreSPA degrade less under noise than AC and WCA",
        f"worst of RBA/FreSPA {worst_fine:.1f}% vs best of AC/WCA {best_base:.1f}%",
        bool(worst_fine < best_base),
        (wca_weights_explanation(wca_summary, "degrade") or heterogeneity_explanation(worlds, "degrade"))
        if worst_fine >= best_base else "")
    add("Clean data: ED(AC-tau) = mean pairwise tau between assessors (paper: 0.454)",
        f"ED {mean.loc[lo, 'ac-tau']:.3f}, mean pairwise tau {tau:.3f}",
        bool(abs(mean.loc[lo, "ac-tau"] - tau) < 1e-9))
    for r, pred in dilution.items():
        got = mean.loc[r, "ac-tau"]
        add(f"Noise r = {r:g}: AC-tau's ED shrinks by (n-1)/(n-1+nr) n/(n+nr)",
            f"predicted {pred:.3f}, measured {got:.3f}", bool(abs(got - pred) < 0.02))
    t4 = tables[(tables.table == "minSup") & (tables.data == "original")].groupby("value").ED.mean()
    add("Table 4: on clean data the best minSup is 1.0",
        f"best minSup {t4.idxmax():g} (ED {t4.max():.3f})", bool(t4.idxmax() == 1.0),
        minsup_explanation(minsup_sets, minsup_summary, tau,
                           int(minsup_summary["first_seed"].min()) if minsup_summary is not None else 0)
        if t4.idxmax() != 1.0 else "")
    t4n = tables[(tables.table == "minSup") & (tables.data == "noisy")].groupby("value").ED.mean()
    add("Table 4: on noisy data the best minSup is 0.75",
        f"best minSup {t4n.idxmax():g} (ED {t4n.max():.3f})", bool(t4n.idxmax() == 0.75))
    return c.frame()
