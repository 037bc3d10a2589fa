"""Wang et al. (SIGIR 2015) §5, Table 3: the ANOVA claims of :mod:`.verdicts`.

One row per metric, each "not testable here": whether the per-assessor
kappas differ across bins is decided by how the simulated users choose, so a
verdict would test the user model, not the paper's users.  Each row still
reports, as evidence, what the simulated studies give (k of R on the degrees
of freedom they reach), and its reason adds what else stands in the way:
degrees of freedom below the paper's (a null result from a less powerful F
is no evidence for "not significant"), an ANOVA that cannot run in every
study, and for precision the paper's own p of 0.0437, which a study like the
paper's would reach again only about 41% of the time
(:func:`.study.replication_power`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...declare.claims import Claims, share_interval
from .claim_quotes import QUOTES as _Q
from .study import BIN_LABELS

__all__ = ["anova_rows", "design_text", "SHORTAGE_TEST"]

#: The test that finds the committed run world's shortage in two other run worlds.
SHORTAGE_TEST = ("tests/papers/test_wang2015_preference_draws.py::"
                 "test_few_recall_and_f1_pairs_far_apart_is_a_property_of_the_simulated_runs_not_of_one_world")
_TYPES = ("precision", "recall", "f1")


def _name(metric: str) -> str:
    return metric.replace("_", " ").replace("f1", "F1")


def _range(lo: float, hi: float) -> str:
    return f"{lo:.0f}" if lo == hi else f"{lo:.0f}-{hi:.0f}"


def design_text(out: pd.DataFrame) -> str:
    """What the batches achieved: the committed study's judgments per sampling type and the shares
    over every study (``out``: the studies' outcomes, study 0 first, columns ``n_<type>``)."""
    n = out[[f"n_{t}" for t in _TYPES]]
    share = n.sum() / n.to_numpy().sum()
    return (f"{'/'.join(f'{int(v)}' for v in n.iloc[0])} precision/recall/F1-sampled judgments in the "
            f"committed study, {'/'.join(f'{v:.0%}' for v in share)} over the {len(out)} studies")


def _shortage(out: pd.DataFrame, bins: pd.DataFrame, assessors: pd.DataFrame, m: str,
              ran: pd.DataFrame) -> str:
    """Why the studies do not reach the paper's degrees of freedom (generated from the draws)."""
    cells = bins[bins.metric == m].assign(n=lambda x: x.neither + x.preferences)
    top = cells[cells["bin"].isin(BIN_LABELS[-2:])].n.sum() / max(cells.n.sum(), 1)
    populated = cells[cells.n > 0].groupby("study")["bin"].nunique()
    own = assessors.query("study == 0 and metric == @m")
    n_cells = 5 * len(BIN_LABELS)
    kappas = (f" Where the ANOVA runs, it rests on a median of {(ran.df1 + ran.df2 + 1).median():g} kappas on "
              f"{(ran.df1 + 1).median():g} bins." if len(ran) else "")
    return (f"The batches were to take roughly equal thirds per sampling type; they took "
            f"{design_text(out)}, because the committed run world, which every study keeps (see "
            "'varies'), yields few recall-sampled pairs (the recall pool runs dry) and few pairs far "
            f"apart; {SHORTAGE_TEST} finds the same shortage in two other run worlds (seeds 2 and 3)."
            f"{kappas} Of the {_name(m)} judgments {top:.0%} "
            f"fall in the top two bins ({BIN_LABELS[-2]}, {BIN_LABELS[-1]}), and a median of "
            f"{populated.median():g} of {len(BIN_LABELS)} bins is populated at all; of the committed "
            f"study's {n_cells} (assessor, bin) cells, those without a judgment: {n_cells - len(own)}, "
            f"with an undefined kappa (one kind of answer): {int(own.kappa.isna().sum())} "
            "(wang2015/study_draws.csv, wang2015/figure8_kappa_per_assessor.csv).")


def _over(hits) -> str:
    k, r = int(np.sum(hits)), len(hits)
    lo, hi = share_interval(k, r)
    return f"{k} of {r} studies ({lo:.0%}-{hi:.0%})"


def anova_rows(c: Claims, t3: pd.DataFrame, draws, why_precision: str, *, alpha: float, varies: str,
               decided: str = "") -> None:
    """One row per Table 3 metric, not testable (see the module docstring); ``decided`` is the
    user-model reason each row starts with, ``why_precision`` the experiment on the precision ANOVA."""
    from .study import replication_power

    anova = draws.anova[draws.anova.insensitive_share == 0]
    studies = draws.outcomes.study.sort_values().to_numpy()
    out = draws.outcomes.sort_values("study").reset_index(drop=True)
    for row in t3.itertuples(index=False):
        d1, d2, sig = int(row.df1_published), int(row.df2_published), row.p_published < alpha
        m = row.metric
        got = pd.DataFrame({"study": studies}).merge(anova[anova.metric == m], on="study", how="left")
        same_df = ((got.df1 == d1) & (got.df2 == d2)).to_numpy()
        ran = got.dropna(subset=["p"])
        verb, side = ("" if sig else "not "), ("<" if sig else ">=")
        first = got.iloc[0]
        committed = (f"committed study F({first.df1:.0f}, {first.df2:.0f}), p = {first.p:.4f}"
                     if np.isfinite(first.p) else "committed study: no ANOVA (fewer than 2 bins)")
        quote = _Q["anova"] if sig else _Q["wf1"] if m == "weighted_f1" else _Q["recall"]
        hits = (got.p < alpha).to_numpy() == sig
        paper_f = f"F({d1}, {d2})"
        claim = (f"Table 3: the ANOVA of per-assessor kappa across {d1 + 1} bins is {verb}significant for "
                 f"{_name(m)}, {paper_f}, p {side} {alpha} (paper p = {row.p_published:.4f})")
        parts = [decided]
        if same_df.all():
            evidence = f"{committed}; p {side} {alpha} in {_over(hits)}, every study on the paper's {paper_f}"
        elif len(ran) == len(got):
            reached = f"F({_range(ran.df1.min(), ran.df1.max())}, {_range(ran.df2.min(), ran.df2.max())})"
            evidence = f"{committed}; p {side} {alpha} in {_over(hits)}, on {reached}, not the paper's {paper_f}"
            parts.append(f"Besides, the studies reach only {reached}, not the paper's {paper_f}: "
                         + ("a null result from that less powerful test is no evidence for 'not significant'."
                            if not sig else "a less powerful test that does not reject is weak evidence "
                            "against 'significant'.") + " " + _shortage(out, draws.bins, draws.assessors, m, ran))
        else:
            evidence = committed
            parts.append(f"Besides, the ANOVA cannot run in every simulated study: it needs a defined kappa "
                         f"for at least two bins, and runs in {len(ran)} of {len(got)} studies (p < {alpha} in "
                         f"{int((ran.p < alpha).sum())} of them; wang2015/anova_worlds_studies.csv); the "
                         f"paper's {paper_f} needs a defined kappa for each of 5 assessors in {d1 + 1} bins "
                         f"({d1 + d2 + 1} kappas), and {int(same_df.sum())} of {len(got)} studies reach it. "
                         + _shortage(out, draws.bins, draws.assessors, m, ran))
        if sig and m == "precision":
            power = replication_power(float(row.F_published), d1, d2, alpha) if hasattr(row, "F_published") \
                else replication_power(df1=d1, df2=d2, alpha=alpha)
            parts.append(f"And the paper's own p = {row.p_published:.4f} is just under {alpha}: a new study "
                         f"like the paper's, at the effect its F implies, would be significant again with "
                         f"probability {power:.2f} (noncentral F), so 'significant in 80% of studies' would "
                         "ask more than the paper's own evidence shows.")
            parts.append(why_precision)
        c.add_not_testable(claim, " ".join(p for p in parts if p), evidence=evidence, section="§5.2",
                           quote=quote, varies=varies, id=f"anova-{m.replace('_', '-')}")
