"""Wang et al. (SIGIR 2015) §5: the paper's claims with the reproduction's verdicts.

:func:`claims` checks §5.2's agreement claims (Figure 7, Table 3) and
Fleiss' kappa on the shared pairs.  A precision ANOVA that is not
significant is explained from the simulated studies of
:func:`.worlds.summarise_anova_worlds`, sentence by sentence below.
"""

from __future__ import annotations

import pandas as pd

from ...stats import agreement as agreement_stats
from ...declare.claims import Claims
from .study import kappa_trend, paper_anova_p

__all__ = ["claims"]


def _anova_why(summary: pd.DataFrame | None, committed_p: float) -> str:
    """Why the committed study's precision ANOVA is not significant (empty without ``summary``)."""
    if summary is None or not len(summary):
        return ""
    s = summary.set_index("insensitive_share")
    default = s.loc[0.0] if 0.0 in s.index else None
    return "".join([_committed(committed_p), _default_studies(default), _sensitivity(s, default)])


def _committed(committed_p: float) -> str:
    """The paper's p and the committed study's, with the default user model's cause."""
    return (f"The paper's F(3, 16) = 3.397 gives p = {paper_anova_p():.4f} (scipy), as printed. "
            "In the default user model assessor A4 ignores precision (as the paper saw its assessor 4 "
            "do), which puts a near-zero kappa row among the per-assessor kappas and swamps the "
            f"bin effect: the committed study gives p = {committed_p:.3f}")


def _default_studies(default) -> str:
    """How many simulated studies of the default user model reach p < 0.05 (if run)."""
    if default is None:
        return ""
    n, hits = int(default.studies), round(default.significant_share * default.studies)
    bound = f"; 95% upper bound on the rate {1 - 0.05 ** (1 / n):.0%}" if hits == 0 else ""
    return (f", and of {n} simulated studies of the same design {hits} reach p < 0.05 (median p "
            f"{default.p_median:.2f}, range {default.p_min:.3f}-{default.p_max:.2f}{bound})")


def _sensitivity(s: pd.DataFrame, default) -> str:
    """The share of significant studies per ``insensitive_share``, and what follows."""
    parts = ", ".join(f"{share:g}: {r.significant_share:.0%}" for share, r in s.iterrows())
    below = default is not None and default.p_min > 0.0437
    where = "is below every default study " if below else "is within the default studies' range "
    return (". Letting A4 keep part of its precision sensitivity (insensitive_share; everything else "
            f"fixed) raises the share of significant studies: {parts}. So in this user model the "
            f"paper's p = 0.0437 {where}"
            "and significance needs every assessor to track precision to some degree; the paper "
            "reports its assessor 4 as insensitive too, so this locates the cause in the model's "
            "precision sensitivities without matching the paper's users; see "
            "wang2015/anova_worlds.png and wang2015/anova_worlds.csv.")


def claims(agg: pd.DataFrame, t3: pd.DataFrame, fk: float,
           worlds: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's §5 claims with the reproduction's verdicts; ``worlds``
    (:func:`.worlds.summarise_anova_worlds`) explains a precision ANOVA that is not significant."""
    first, last = kappa_trend(agg, "precision")
    anova = t3.set_index("metric")
    label = agreement_stats.landis_koch(fk)
    busy = agg[agg.preferences >= 20]
    c = Claims()
    c.add("Agreement grows with the metric difference (kappa of the largest populated bin > smallest), "
          "precision", f"{first:.3f} -> {last:.3f}", last > first)
    c.add("Assessors agree with every metric better than chance (all bin kappas with >= 20 preferences > 0)",
          f"{int((busy.kappa > 0).sum())} of {int((agg.preferences >= 20).sum())}",
          bool((busy.kappa > 0).all()))
    p_prec = anova.loc["precision", "p"]
    c.add("ANOVA across bins significant for precision (paper p = 0.0437)",
          f"p = {p_prec:.4f}", p_prec < 0.05, "" if p_prec < 0.05 else _anova_why(worlds, p_prec))
    c.add("ANOVA across bins significant for unweighted F1 (paper p = 0.0115)",
          f"p = {anova.loc['f1', 'p']:.4f}", anova.loc["f1", "p"] < 0.05)
    c.add("Fleiss' kappa on shared pairs is 'fair' (paper 0.294)", f"{fk:.3f} ({label})", label == "fair")
    return c.frame()
