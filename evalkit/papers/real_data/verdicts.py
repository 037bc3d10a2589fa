"""The real-data notebook's claims: what the real data says about Sakai's prediction, with verdicts.

Sakai (EVIA 2017 §4-6) predicted that real, correlated ratings would be more
unanimous than his uniform simulation and so make unanimity matter more
(lower RawG-vs-UG tau, more HSD discrepancies), and that the effect shrinks
as the number of assessors grows.  :func:`claims` states each prediction
(the claim texts are :data:`CLAIMS`, declared beside the tests they name)
against the reproduced tables (``claims.csv``, ``claims.md``).  A claim whose
outcome depends on a draw of uniform ratings is judged over the draws; the
trend in N over the assessor subsets rests on the same one set of simulated
runs, so it is not testable here for the reason the real-vs-uniform rows give
(:data:`NOT_TESTABLE_WHY`); the slope fitted over all subsets, its interval
(:data:`TREND_RULE`) and the verdict that rule alone would give stay in the
evidence, the explanation and the sensitivity.  The
explanations are built from the controlled experiments (:mod:`.stc_agreement`,
:mod:`.stc_controls`, :mod:`.stc_assessors_n`).  Wang et al.'s (SIGIR 2015
§3.2) pool facts close the list as an ``identity`` row: counts of the
installed qrels that must equal the paper's, a check of the data, not a
finding.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...declare.claims import Claims, interval_verdict, sensitivity, share_interval
from .history import REVISED
from .stc_assessors_n import _t_quantile, tau_trend, uniform_share_below_dmax

__all__ = ["CLAIMS", "SOURCES", "VARIES", "NOT_TESTABLE_WHY", "MEAN_TOLERANCE", "MEAN_TOLERANCE_RANGE",
           "TREND_RULE", "TREND_LEVELS", "claims", "over_draws", "tau_sentence"]

#: A mean stated as a whole number agrees with the computed mean within this (a workspace reading:
#: half a unit is what rounding to a whole number can hide) ...
MEAN_TOLERANCE = 0.5
#: ... and the tolerances the verdict is recomputed over.
MEAN_TOLERANCE_RANGE = (0.5, 0.75, 1.0)

#: How a trend in N is decided (the workspace's rule, :func:`~evalkit.declare.claims.interval_verdict`):
#: by the slope fitted over every subset, not by the k of R of the replicates' own slopes ...
TREND_RULE = ("the 95% interval of the slope of tau on N over all subsets with N < 10 (ours): above 0 "
              "holds, below 0 does not hold, including 0 not testable; the replicates' own slopes "
              "are too noisy to decide")
#: ... and the interval levels the verdict is recomputed at.
TREND_LEVELS = (0.90, 0.95, 0.99)

#: The claims, each with the test it names (the code below tests exactly that).
CLAIMS = {
    "unanimous": ("Real ratings are more unanimous than Sakai's uniform ones: a larger share of "
                  "relevant items with D < Dmax"),
    "tau": ("{m}: real ratings move the RawG-vs-UG ranking more than uniform ones: tau below the "
            "uniform draw's"),
    "discrepancies": ("{m}: real ratings give more HSD discrepancies than uniform ones: more than "
                      "the uniform draw's"),
    "trend": ("{m}: with more real assessors per item UG changes the ranking less: tau rises with "
              "N (slope > 0; the workspace's question after Sakai §4, where for uniform raters "
              "D -> Dmax and UG -> RawG as N grows)"),
    "facts": ("TREC 2014 pool facts computed from the installed qrels equal their stated values "
              "({facts})"),
}
#: Each claim's kind, and for the paper's (and the identity's) the section and verbatim quote.
SOURCES = {
    "unanimous": ("paper", "§4", "In contrast, real ratings of different assessors are probably "
                                 "correlated with one another, which should generally make D i "
                                 "smaller than our simulated ratings."),
    "tau": ("paper", "§5", "Recall also that we should expect to see lower rank correlations if we "
                           "use real assessors\u2019 ratings with correlations among them."),
    "discrepancies": ("paper", "§6", "With real ratings, we expect to observe a larger impact of "
                                     "introducing unanimity-aware gain on the system ranking and "
                                     "statistical significance than we did in our simulations."),
    "trend": ("beyond", "", ""),
    "facts": ("identity", "Wang et al. §4.1", "Each topic (55 in total) contains 194 relevant "
                                              "tweets on average"),
}
#: Why "real ratings move the ranking more" cannot be judged on these data (the reason's start).
NOT_TESTABLE_WHY = (
    "The STC-ja runs are not public, so the runs here are simulated by ranking each reply by its "
    "real mean rating plus noise: how far apart they sit under the real ratings, which decides "
    "tau and the significant pairs, is set by the simulator, not measured, and it differs from "
    "the uniform ratings' by construction. The k of R in the evidence compares that built-in "
    "signal as much as agreement. ")
#: What each draw redraws, for the ``varies`` column.
VARIES = {
    "uniform": ("Sakai's uniform ratings on the real pool (one draw per replication); the real "
                "ratings, the pool and the simulated runs are one fixed set"),
    "subsets": ("which N of each item's ten real assessors are kept (one subset per replicate and "
                "N); the pool and the simulated runs are one fixed set"),
}


def _span(values: pd.Series, fmt: str) -> str:
    """``min-max`` of ``values``, each formatted with ``fmt``."""
    return f"{values.min():{fmt}}-{values.max():{fmt}}"


def over_draws(k: int, r: int) -> str:
    """``k of R draws (share, 95% Wilson interval)`` for the evidence text."""
    lo, hi = share_interval(k, r)
    return f"{k} of {r} draws (share {k / r:.2f}, 95% CI {lo:.2f}-{hi:.2f})"


def _controls_why(m: str, real: pd.Series, uni: pd.DataFrame, controls: pd.DataFrame) -> str:
    """What :func:`~.stc_controls.control_worlds` shows for measure ``m``."""
    cs = controls[controls["measure"] == m]
    fixed, sh = cs[cs["world"] == "fixed RawG"], cs[cs["world"] == "shuffled"].iloc[0]
    below = "below every uniform draw" if sh.tau_max < uni.tau.min() else "not below every uniform draw"
    shuffled = ("with the real agreement but the signal cut (rating vectors shuffled among a "
                f"topic's relevant items) tau is {_span(cs[cs['world'] == 'shuffled'][['tau_min', 'tau_max']].stack(), '.3f')} "
                f"over its {int(sh.draws)} draws, {below} ({_span(uni.tau, '.3f')}), as Sakai predicts")
    fixed_rawg = ("with RawG fixed to the real one and only unanimity varied (share of D < Dmax "
                  f"{_span(fixed.share_D_below_dmax, '.2f')}, {int(fixed.draws.min())} draws per "
                  f"level) mean tau stays {_span(fixed.tau, '.3f')} and discrepancies "
                  f"{_span(fixed.discrepancies, '.1f')}")
    pairs = (f"{real.significant_RawG:.0f} best-run pairs significant under RawG with real "
             f"ratings, against a mean of {uni.significant_RawG.mean():.2f} with uniform and "
             f"{sh.significant_RawG:.2f} with shuffled ratings")
    return (f"Controlled worlds separate agreement from the runs' signal: {shuffled}, while "
            f"{fixed_rawg}. The runs track the real ratings, so real ratings keep them far apart "
            f"({pairs}): the real-vs-uniform comparison mixes agreement with that signal. "
            "See real_data/stc_controls.png.")


def _agreement_why(m, real, uni, worlds, controls) -> str:
    """The finding of :func:`control_worlds` and :func:`agreement_worlds` for measure ``m``."""
    parts = []
    if controls is not None:
        parts.append(_controls_why(m, real, uni, controls))
    if worlds is not None:
        w = worlds[worlds["measure"] == m].sort_values("sigma")
        parts.append(f"(Noise around each item's real mean, sigma {_span(w.sigma, 'g')}, moving "
                     f"both at once, one draw per sigma: tau {_span(w.tau, '.3f')}, "
                     "real_data/stc_agreement.png.)")
    return " ".join(parts)


def _replicate_noise(by_n: pd.DataFrame, m: str, full: int) -> str:
    """Why one replicate's slope cannot decide: tau's spread between subsets at one N against the
    change of mean tau over the fitted N."""
    part = by_n[(by_n["measure"] == m) & (by_n["N"] < full)]
    sd = part.groupby("N")["tau"].std(ddof=1).mean()
    means = part.groupby("N")["tau"].mean()
    return (f"tau varies between subsets by sd {sd:.3f} at one N, against a change of "
            f"{means.iloc[-1] - means.iloc[0]:+.4f} in mean tau from N = {means.index[0]} to "
            f"{means.index[-1]}")


def _trend_sensitivity(row) -> str:
    """The trend's verdict at 90%, 95% and 99% intervals of the slope (the same fit, t quantiles)."""
    df = row.subsets_fitted - 2
    se = (row.slope_high - row.slope_low) / (2 * _t_quantile(0.975, df))
    return sensitivity(TREND_LEVELS, lambda lv: interval_verdict(
        row.slope - _t_quantile(0.5 + lv / 2, df) * se, row.slope + _t_quantile(0.5 + lv / 2, df) * se),
        "{:.0%}")


def _trend_why(by_n: pd.DataFrame, row) -> str:
    """Why tau does not rise with N for real raters (the share of D < Dmax), from the data."""
    share = by_n.groupby("N")[["share_D_below_dmax"]].mean()["share_D_below_dmax"]
    lo, hi = int(share.index.min()), int(share.index.max())
    way = ("falls with N" if row.slope_high < 0 else "rises with N" if row.slope_low > 0 else
           "shows no clear trend in N (the 95% interval of the slope includes 0)")
    return (f"Sakai's mechanism needs independent raters: the share of relevant items with "
            f"D < Dmax falls from {share.loc[lo]:.2f} (N = {lo}) to {share.loc[hi]:.2f} "
            f"(N = {hi}) for the real raters but from {uniform_share_below_dmax(lo):.2f} to "
            f"{uniform_share_below_dmax(hi):.3f} for uniform ones, so with real raters unanimity "
            f"keeps mattering at N = {hi}. Here tau {way}; why it does not rise is not "
            "tested (the runs are simulated). N = 10 is one set (all ten assessors), not a draw: "
            "shown, not fitted. See real_data/stc_assessors_n.png.")


def claims(spread: pd.DataFrame, res: pd.DataFrame, facts: pd.DataFrame,
           by_n: pd.DataFrame | None = None, worlds: pd.DataFrame | None = None,
           controls: pd.DataFrame | None = None, n: int = 10, dmax: int = 2,
           ratings: np.ndarray | None = None) -> pd.DataFrame:
    """What the real data says about Sakai's prediction, with verdicts.

    ``res`` is :func:`~.stc_rawg_vs_ug.stc_experiment`'s output (the real
    ratings and every uniform draw), ``by_n`` :func:`~.stc_assessors_n.assessor_subsets`'
    (every subset).  Per measure, "real below uniform" is judged over the
    uniform draws (in how many draws the real tau is below the draw's; ties
    count as not below), and the trend in N over the subset replicates of
    :func:`~.stc_assessors_n.tau_trend` (slope of tau on N > 0).
    """
    real = res[res.ratings == "real"].set_index("measure")
    uni = res[res.ratings == "uniform"]
    c = Claims(history=REVISED)

    def cite(key):
        kind, section, quote = SOURCES[key]
        return {"kind": kind, "section": section, "quote": quote}

    real_share = 1 - spread.real_share.iloc[-1]
    expected = uniform_share_below_dmax(n, dmax)
    c.add(CLAIMS["unanimous"],
          f"real {real_share:.3f} vs uniform {expected:.3f} (closed form for N = {n}; the "
          f"notebook's one uniform draw {1 - spread.uniform_share.iloc[-1]:.3f})",
          bool(real_share > expected), id="more-unanimous", **cite("unanimous"))
    for m in sorted(real.index):
        r, u = real.loc[m], uni[uni.measure == m]
        first = u.sort_values("replication").iloc[0]
        why = _agreement_why(m, r, u, worlds, controls)
        below = (r.tau < u.tau).to_list()
        c.add_not_testable(
            CLAIMS["tau"].format(m=m), NOT_TESTABLE_WHY + why,
            evidence=f"tau real {r.tau:.3f}; uniform draws {_span(u.tau, '.3f')} (mean "
                     f"{u.tau.mean():.3f}, draw 0 {first.tau:.3f}); real below the draw in "
                     f"{over_draws(sum(below), len(below))}, equal in {int((u.tau == r.tau).sum())}",
            varies=VARIES["uniform"], id=f"tau-below-uniform-{measure_id(m)}", **cite("tau"))
        more = (r.discrepancies > u.discrepancies).to_list()
        c.add_not_testable(
            CLAIMS["discrepancies"].format(m=m), NOT_TESTABLE_WHY + why,
            evidence=f"real {r.discrepancies:.0f}; uniform draws {_span(u.discrepancies, '.0f')} "
                     f"(mean {u.discrepancies.mean():.2f}, draw 0 {first.discrepancies:.0f}); real "
                     f"above the draw in {over_draws(sum(more), len(more))}",
            varies=VARIES["uniform"], id=f"more-discrepancies-{measure_id(m)}", **cite("discrepancies"))
    if by_n is not None:
        for row in tau_trend(by_n, full=n).itertuples():
            estimate = interval_verdict(row.slope_low, row.slope_high)
            c.add_not_testable(
                CLAIMS["trend"].format(m=row.measure),
                NOT_TESTABLE_WHY + "Here every subset keeps the one fixed set of simulated runs, so "
                "a slope over the subsets says nothing of runs in general. "
                f"By the interval rule alone (docs/claims.md) the slope's interval would say "
                f"'{estimate}'. " + _trend_why(by_n, row),
                evidence=
                f"mean tau {row.tau_low_N:.3f} (N = {row.N_low}) to {row.tau_high_N:.3f} "
                f"(N = {row.N_high}); slope {row.slope:+.4f} per assessor (95% CI "
                f"{row.slope_low:+.4f} to {row.slope_high:+.4f}, {row.subsets_fitted} subsets); "
                f"replicate slopes rising in {row.rising} of {row.replicates}, each over one "
                f"subset per N ({_replicate_noise(by_n, row.measure, n)}); all ten assessors (one set): "
                f"{row.tau_full:.3f}",
                varies=VARIES["subsets"], id=f"tau-rises-with-n-{measure_id(row.measure)}",
                threshold=TREND_RULE, source="workspace", sensitivity=_trend_sensitivity(row),
                **cite("trend"))
    if ratings is not None:
        _footnote_row(c, ratings)
    stated = "; ".join(f"{r.fact.replace('_', ' ')} {r.published:g} ({r.stated_by})"
                       for r in facts.itertuples())
    # a count must equal its stated value; the per-topic mean, stated as a whole number, must lie
    # within MEAN_TOLERANCE of it (the paper states no rule: a workspace reading, with its range)
    def agree(tol):
        return bool(all(abs(r.computed - r.published) <= tol if r.fact == "relevant_per_topic"
                        else r.computed == r.published for r in facts.itertuples()))
    c.add(CLAIMS["facts"].format(facts=stated),
          ", ".join(f"{r.fact.replace('_', ' ')} {r.computed:g}" for r in facts.itertuples()),
          agree(MEAN_TOLERANCE), threshold=f"counts equal; the per-topic mean within {MEAN_TOLERANCE:g} "
          "of the stated whole number (the paper states no rounding rule)", source="workspace",
          sensitivity=sensitivity(MEAN_TOLERANCE_RANGE, agree), id="pool-facts", **cite("facts"))
    return c.frame()


def _footnote_row(c: Claims, ratings: np.ndarray) -> None:
    """Sakai's footnote 3 (§4): STC-ja has N = 10 ratings per item and 25 runs from seven teams. The
    installed ratings give N; the runs are not public, so the simulated runs copy that size."""
    import inspect

    from .stc_rawg_vs_ug import stc_collection

    defaults = {k: v.default for k, v in inspect.signature(stc_collection).parameters.items()
                if k in ("n_teams", "n_runs")}
    full = int((np.count_nonzero(~np.isnan(ratings), axis=1) == ratings.shape[1]).sum())
    c.add("Sakai's footnote 3: the STC-ja collection has N = 10 ratings per item (the installed "
          "ratings), and its 25 runs from seven teams, not public, are what the simulated runs copy",
          f"installed ratings: {ratings.shape[1]} columns per item, all {ratings.shape[1]} present for "
          f"{full} of {len(ratings)} items; simulated runs: {defaults['n_runs']} from "
          f"{defaults['n_teams']} teams (stc_collection's defaults)",
          bool(ratings.shape[1] == 10 and defaults == {"n_teams": 7, "n_runs": 25}), kind="identity",
          section="§4, footnote 3", quote="The Japanese subtask actually collected N = 10 individual "
          "ratings for each tweet, but had only 25 runs from seven teams.", id="stc-ja-footnote-3")


def measure_id(measure: str) -> str:
    """A measure's name as part of a row id: ``"P+"`` -> ``"p-plus"``, ``"nG@1"`` -> ``"ng-at-1"``."""
    return measure.lower().replace("+", "-plus").replace("@", "-at-")


def tau_sentence(res: pd.DataFrame, measures=("nG@1", "P+", "nERR")) -> str:
    """The findings' sentence on real-vs-uniform tau, from the experiment's table (``stc_rawg_vs_ug.csv``).

    E.g. "the real tau is below the uniform one in 12 of 20 draws for nG@1, 1 of 20 for P+
    and 0 of 20 for nERR" (ties count as not below, as in the claims).
    """
    real = res[res.ratings == "real"].set_index("measure")["tau"]
    uni = res[res.ratings == "uniform"]
    parts = []
    for m in measures:
        u = uni[uni.measure == m]["tau"]
        parts.append(f"{int((real[m] < u).sum())} of {len(u)}{' draws' if not parts else ''} for {m}")
    return "the real tau is below the uniform one in " + ", ".join(parts[:-1]) + f" and {parts[-1]}"
