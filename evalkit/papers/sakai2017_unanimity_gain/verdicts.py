"""The claims of Sakai (EVIA 2017), each with the paper's words, its kind, the verdict and number.

:func:`claims` checks Table 1 and the largest UG (worked examples of Eqs. 1-2:
identities), §4's convergence of UG to RawG as N grows (an identity: the
closed form beside the committed draw, :mod:`.convergence`), Table 2 (upper
limits of tau, tau < 1 at small N) and Table 3 (where discrepancies occur and
that they fall with N; their |d| is the calibration target of the simulated
collection).  How Table 3 computes its ES_HSD is a question beyond the paper,
answered from its own printed numbers (:mod:`.es_reading`).  Every ``paper`` row quotes the paper (:data:`QUOTES`) and names
its section.  Every claim that depends on the world is judged over the
notebook's independent draws (:mod:`.replications`: each draw redraws the
collection and the ratings; draw 0 is the committed world) by
:meth:`~evalkit.declare.claims.Claims.add_over_draws`, the committed draw's
own value and the median and quartiles over draws beside it.  Each range a
claim states is declared once, beside its text (:data:`CLAIM_RANGES`), and
the text is generated from it.  A claim that does not hold carries the
finding of the controlled experiment that explains it (:mod:`.run_spread`),
built from that experiment's table in :mod:`.explanations`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...declare.claims import MIN_DRAWS, Claims, sensitivity, share_interval
from ...measures import gains
from .replications import WHAT_VARIES
from .explanations import why_upper_limits as _why_upper_limits
from .history import REVISED
from .claim_ranges import (BORDER_TOLERANCE, CLAIM_RANGES, ES_RANGE, ES_RANGES, N_WITHOUT,  # noqa: F401
                           QUOTES, SENSITIVITY_RANGES, TUNED_MEASURE, _robust, over_draws)
from .table3_verdicts import _es_range_claim, _es_reading_claim, _table3_claims

__all__ = ["claims", "CLAIM_RANGES", "SENSITIVITY_RANGES", "BORDER_TOLERANCE", "ES_RANGE", "ES_RANGES",
           "TUNED_MEASURE", "N_WITHOUT",
           "QUOTES", "over_draws"]


def claims(t1: pd.DataFrame, t1_published: pd.DataFrame, reps: pd.DataFrame,
           rep_pairs: pd.DataFrame, es_table: pd.DataFrame | None = None,
           worlds: pd.DataFrame | None = None, world_summary: pd.DataFrame | None = None,
           es_topics: pd.DataFrame | None = None, es_published: pd.DataFrame | None = None,
           convergence: pd.DataFrame | None = None, varies: str = WHAT_VARIES[True],
           p: float = 0.2, published_counts: pd.DataFrame | None = None,
           agreement: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's claims, each with its kind, the reproduction's verdict and its number.

    Every number is computed from the tables passed in (never typed by hand):
    ``t1``/``t1_published`` (Table 1); ``reps`` and ``rep_pairs``
    (:func:`~.replications.replicate`: Tables 2-3 per world, replication 0
    the committed world; ``varies`` says what each draw redraws); the
    explaining experiments ``worlds`` and ``world_summary``
    (:mod:`.run_spread`); ``es_table`` (:func:`~.effect_sizes.es_arithmetic`),
    ``es_topics`` (:func:`~.effect_sizes.es_topics_summary`) and ``es_published``
    (:func:`~.es_reading.es_published_denominator`) for how Table 3 computes
    ES; ``convergence`` (:func:`~.convergence.ug_to_rawg`) for §4;
    ``published_counts`` (:func:`~.tables.count_published_pairs`) for the
    paper's own discrepancies per N beside the draws'; ``agreement``
    (:func:`~.agreement.agreement_worlds`) for §5's expectation that ratings
    resembling one another make UG matter more.  With fewer than
    :data:`~evalkit.declare.claims.MIN_DRAWS` draws (a quick run) a claim is
    judged on the committed draw alone, and its evidence says so.
    """
    c = Claims(history=REVISED)
    _table1_claims(c, t1, t1_published, p)
    if convergence is not None and len(convergence):
        _convergence_claim(c, convergence, p)
    judge = _judge(c, reps["replication"].nunique(), varies)
    _table2_claims(judge, reps, worlds, world_summary)
    _table3_claims(judge, reps, rep_pairs, published_counts)
    _es_range_claim(judge, reps, rep_pairs)
    if agreement is not None and len(agreement):
        _agreement_claim(judge, agreement)
    if es_published is not None and len(es_published):
        _es_reading_claim(c, es_published, rep_pairs, es_table, es_topics)
    return c.frame()


def _judge(c: Claims, r: int, varies: str):
    """``add(claim, evidence, outcomes, why, kind, key)``: over draws, or on draw 0 when r < MIN_DRAWS."""
    def add(claim, evidence, outcomes, why="", kind="paper", key="", threshold="", sens=None, id=""):
        """``sens`` = ``(thresholds, outcome_at(t) -> one bool per draw)`` makes the threshold
        the workspace's, with its sensitivity; a threshold without it is the paper's."""
        outcomes = list(outcomes)
        section, quote = QUOTES[key] if key else ("", "")
        source = ("workspace" if sens else "paper") if threshold else ""
        sensitivity_ = ""
        if sens:
            ts, at = sens
            sensitivity_ = (sensitivity(ts, at, "{}") if r >= MIN_DRAWS else
                            sensitivity(ts, lambda t: bool(at(t)[0]), "{}") + " (committed draw only)")
        if r >= MIN_DRAWS:
            k = sum(outcomes)
            lo, hi = share_interval(k, r)
            c.add_over_draws(claim, f"{evidence}; over {r} draws {k} of {r} "
                             f"(95% interval {lo:.2f}-{hi:.2f})", outcomes, why, kind=kind,
                             varies=varies, section=section, quote=quote, threshold=threshold,
                             source=source, sensitivity=sensitivity_, id=id)
        else:
            c.add(claim, f"{evidence} (only {r} draws: judged on the committed draw)",
                  bool(outcomes[0]), why, kind=kind, section=section, quote=quote,
                  threshold=threshold, source=source, sensitivity=sensitivity_, id=id)
    return add


def _table1_claims(c: Claims, t1: pd.DataFrame, published: pd.DataFrame, p: float) -> None:
    cols = ["RawG", "D", "UG (p=0.2)", "UG (p=0.1)"]
    same = (t1[cols].to_numpy() == published[cols].to_numpy()).all(axis=1)
    same &= (t1["WG"].round(1).to_numpy() == published["WG"].to_numpy())
    c.add("Table 1: RawG, D, WG (1 decimal) and UG of the seven items (a worked example of Eqs. 1-2)",
          f"{int(same.sum())} of {len(same)} rows equal", bool(same.all()), kind="identity",
          section=QUOTES["table1"][0], quote=QUOTES["table1"][1], id="table1-worked-example")
    # every rating vector of N = 5 assessors on 0..3 (Table 1's scale): 4^5 = 1024 of them
    n, dmax = 5, 3
    every = np.array(np.meshgrid(*[np.arange(dmax + 1)] * n, indexing="ij")).reshape(n, -1).T
    ug = gains.unanimity_gain(every, dmax, p)
    top = every[np.flatnonzero(ug == ug.max())]
    c.add(f"The largest UG is (1 + p) N Dmax: over all {len(every)} rating vectors of N = {n} "
          f"assessors on 0..{dmax} (p = {p:g})",
          f"max UG {ug.max():g}, (1 + p) N Dmax = {(1 + p) * n * dmax:g}, reached only by "
          + ", ".join("".join(map(str, t)) for t in top),
          bool(np.isclose(ug.max(), (1 + p) * n * dmax)), kind="identity",
          section=QUOTES["highest"][0], quote=QUOTES["highest"][1], id="largest-ug")


def _convergence_claim(c: Claims, conv: pd.DataFrame, p: float) -> None:
    """§4: P(D = Dmax) rises to 1 and UG's excess over RawG falls to 0 with N (closed forms)."""
    rising = all((np.diff(g.sort_values("N")["P_D_eq_Dmax"]) > 0).all()
                 and (np.diff(g.sort_values("N")["excess_expected"]) < 0).all()
                 for _, g in conv.groupby("dmax"))
    from scipy.stats import binomtest

    pv = pd.Series([binomtest(int(x), int(n), min(prob, 1.0)).pvalue for x, n, prob in
                    zip(conv["count_D_eq_Dmax"], conv["relevant_items"], conv["P_D_eq_Dmax"])])
    within = bool((pv >= 1e-3).all())
    lo, hi = conv["N"].min(), conv["N"].max()
    ends = "; ".join(
        f"Dmax {d}: P(D = Dmax) {g.P_D_eq_Dmax.iloc[0]:.3f} (N = {lo}) to {g.P_D_eq_Dmax.iloc[-1]:.3f} "
        f"(N = {hi}), E[UG - RawG]/E[RawG] {g.excess_expected.iloc[0]:.3f} to "
        f"{g.excess_expected.iloc[-1]:.2g}"
        for d, g in conv.sort_values(["dmax", "N"]).groupby("dmax"))
    c.add(f"§4: with N uniform ratings P(D_i = Dmax) = 1 - 2 (Dmax/(Dmax+1))^N + ((Dmax-1)/"
          f"(Dmax+1))^N rises to 1 and UG's excess over RawG falls to 0 as N grows (p = {p:g}); "
          "the committed draw's relevant items agree with the closed forms",
          f"{ends}; the committed draw's count of relevant items with D = Dmax agrees with "
          f"P(D = Dmax) in every condition (smallest exact binomial p-value {pv.min():.3f}; "
          "sakai2017/ug_to_rawg.csv)",
          rising and within, kind="identity", section=QUOTES["reduce"][0], id="ug-reduces-to-rawg",
          quote=QUOTES["reduce"][1], threshold="exact binomial p-value >= 0.001 in every condition",
          source="workspace",
          sensitivity=sensitivity([1e-4, 1e-3, 1e-2], lambda t: rising and bool((pv >= t).all())))


def _table2_claims(add, reps: pd.DataFrame, worlds, world_summary) -> None:
    first = reps[reps["replication"] == 0]
    total = len(first)
    above = over_draws(reps, lambda g: (g["high"] >= 1).all())
    per = reps.groupby("replication")["high"].apply(lambda h: int((h >= 1).sum()))
    why = _why_upper_limits(worlds, world_summary)
    add("Table 2: every upper 95% limit of tau is at least 1 (rankings statistically equivalent)",
        f"committed draw {per.iloc[0]} of {total} conditions; per draw (of {total}) {_robust(per)}",
        above, why, key="upper", id="upper-limits-above-one", threshold="upper 95% limit of tau >= 1 (the paper: 'above one')")
    few = reps[reps["N"] <= 10]
    if len(few):
        differ = over_draws(few, lambda g: (g["tau"] < 1).all())
        f0 = few[few["replication"] == 0]
        ties = few[few["tau"] >= 1]
        where = "; ".join(f"draw {t.replication}: {t.measure}, Dmax {t.dmax}, N {t.N}"
                          for t in ties.itertuples())
        add("Table 2: with N = 5 or 10 (no interval [1, 1]) the RawG and UG rankings differ "
            "(tau < 1) in every condition, even with p = 0.2",
            f"committed draw: tau < 1 in {int((f0['tau'] < 1).sum())} of {len(f0)}"
            + (f"; tau = 1 in {where}" if len(ties) else ""), differ, key="differ",
            id="rankings-differ-small-n")


def _agreement_claim(add, agree: pd.DataFrame) -> None:
    """§5: ratings that resemble one another (the simulator's agreement knob) make UG matter more:
    per world, tau between the RawG and UG rankings is lower than with uniform ratings for every
    measure (paired: the same world and rating stream)."""
    from .agreement import AGREEMENTS

    wide = agree.pivot_table(index=["replication", "measure"], columns="agreement", values="tau")
    claimed = 0.5

    def lower(a):
        return (wide[a] < wide[0.0]).groupby(level="replication").all().tolist()

    med = wide.groupby(level="measure", sort=False).median()
    first = wide.xs(wide.index.get_level_values("replication").min(), level="replication")
    k = sum(lower(claimed))
    diff = wide[claimed] - wide[0.0]
    add(f"§5: ratings that resemble one another make UG matter more: with the simulator's agreement "
        f"knob at a = {claimed:g} the RawG and UG rankings agree less (lower tau) than with Sakai's "
        "uniform ratings, for every measure (Dmax 2, N 5; the same world and rating stream)",
        "median tau over worlds, uniform -> a = 0.5: " + ", ".join(
            f"{m} {med.loc[m, 0.0]:.3f} -> {med.loc[m, claimed]:.3f}" for m in med.index)
        + "; committed world: " + ", ".join(
            f"{m} {first.loc[m, 0.0]:.3f} -> {first.loc[m, claimed]:.3f}" for m in first.index),
        lower(claimed),
        "" if k >= 0.8 * len(lower(claimed)) else
        f"At a = {claimed:g} tau moves by a few thousandths either way: over the (world, measure) "
        f"pairs it is lower in {int((diff < 0).sum())}, equal in {int((diff == 0).sum())} and higher "
        f"in {int((diff > 0).sum())} of {len(diff)} (mean difference {diff.mean():+.4f}; per measure "
        + ", ".join(f"{m} {x:+.4f}" for m, x in diff.groupby(level="measure", sort=False).mean().items())
        + "). Agreeing ratings shrink D, so more items get UG's bonus p N (Dmax - D), but the 44 "
        "runs already rank almost alike under both gains (tau near 0.97), and which way the extra "
        "bonuses move a pair of runs depends on the items they retrieve; why the direction is not "
        "stable is not tested here (sakai2017/agreement_worlds.csv).",
        key="resemble", id="agreeing-ratings-larger-impact",
        threshold=f"agreement a = {claimed:g} (workspace; Sakai names no level)",
        sens=(AGREEMENTS, lower))
