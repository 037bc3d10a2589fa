"""Wang et al. (SIGIR 2015) §5: the paper's claims with the reproduction's verdicts.

:func:`claims` goes through §5.2 (and the introduction's and the summary's
words on it) claim by claim: each row quotes the paper and reports what the
simulated studies of :func:`.worlds.anova_worlds` give, study 0 being the
committed one (R >= 20; rule: :data:`evalkit.declare.claims.RULE`).  The
judgments are simulated, so every claim whose outcome the user model
decides (how far users agree with a metric, and how that agreement varies
with the metric difference, the time spent or the assessor) is "not
testable here": built into the model (:data:`BUILT_IN`) or set by its
sensitivities, which were not tuned to it (:data:`USER_MODEL`); a verdict
would test the simulated users, not the paper's.  What the simulation can
check is the design: the sampler's consequences (identity rows) and the
equal thirds per sampling type it aims at (a calibration row, :mod:`.design_claims`).
The levels and thresholds the texts name are declared below as data.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...declare.claims import Claims, share_interval
from ...simulate.preferences import PREFERENCE_DEFAULTS
from ...stats import agreement as agreement_stats
from .study import BIN_LABELS, METRICS, paper_anova_p
from .anova_claims import anova_rows as _anova_rows
from .claim_quotes import QUOTES as _Q
from .design_claims import design_rows as _design_rows
from .history import REVISED
from .worlds import MIN_PREFERENCES

__all__ = ["claims", "BUILT_IN", "USER_MODEL", "LEVELS", "FLEISS_LEVEL", "ALPHA", "VARIES", "PREFERENCE_RANGE", "MAJORITY"]

#: Table 2's reading in the paper: (smallest, largest) Landis–Koch level of the bin kappas
#: per metric (None: the paper names no level).
LEVELS = {"precision": ("poor", "fair"), "weighted_f1": ("fair", "almost perfect"),
          "f1": (None, "almost perfect")}
#: The paper's Landis–Koch level of Fleiss' kappa on the shared pairs (0.294).
FLEISS_LEVEL = "fair"
#: Table 3's significance level (the paper's).
ALPHA = 0.05
#: What each simulated study redraws.
VARIES = ("the whole user study: topic draw, run filters, pair sampling, batches, the assessors' "
          "sensitivities, their choices and times (the run world, qrels, clusters and runs, is the "
          "committed one)")
#: The range over which the workspace's "bins with enough preferences" threshold is recomputed.
PREFERENCE_RANGE = (10, 20, 30, 40)
#: "a general trend" / "tend to": the share of series that must go the paper's way (workspace),
#: and the range over which it is recomputed.
MAJORITY, MAJORITY_RANGE = 0.5, (0.5, 0.6, 0.7, 0.8)
#: Why the rows on agreement growing with the metric difference are not testable here.
_SENS = PREFERENCE_DEFAULTS["sensitivity"]
BUILT_IN = ("The simulated user's choice is a logistic in the precision, recall and weighted-recall "
            "differences with positive sensitivities (logit "
            + ", ".join(f"{v:g}" for v in _SENS.values()) + " per unit before each assessor's spread; "
            "A4's precision sensitivity 0: see the user model in the simulators chapter), so {what} "
            "follows from the model by construction: a 'holds' would test the simulator, not the claim "
            "(the k of R stays in the evidence).")
#: Why the rows whose outcome the user model's sensitivities set are not testable here.
USER_MODEL = ("Decided by the simulated users, so not testable here: {what} depends on how the user model "
              "chooses, a logistic in the precision, recall and weighted-recall differences with sensitivities "
              "(logit " + ", ".join(f"{v:g}" for v in _SENS.values()) + " per unit before each assessor's "
              "spread; A4's precision sensitivity 0) that were not tuned to it; a verdict would test the user "
              "model, not the paper's users (the k of R stays in the evidence).")


def _over(outcomes) -> str:
    """'k of R studies (95% interval a-b)' for the evidence text."""
    k, r = int(np.sum(outcomes)), len(outcomes)
    lo, hi = share_interval(k, r)
    return f"{k} of {r} studies ({lo:.0%}-{hi:.0%})"


def _name(metric: str) -> str:
    return metric.replace("_", " ").replace("f1", "F1")


def _series_up(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per study and ``keys``: whether the kappa of the largest populated bin exceeds the smallest's
    (series with at least two defined kappas; bins in Figure 7's order)."""
    order = {b: i for i, b in enumerate(BIN_LABELS)}
    f = frame.dropna(subset=["kappa"]).assign(_o=lambda x: x["bin"].map(order)).sort_values("_o")
    g = f.groupby(["study", *keys]).kappa
    out = pd.DataFrame({"first": g.first(), "last": g.last(), "n": g.size()})
    return out[out.n >= 2].assign(up=lambda x: x["last"] > x["first"]).reset_index()


def _anova_why(summary: pd.DataFrame | None, committed_p: float) -> str:
    """Why the precision ANOVA is rarely significant: the insensitive assessor (beyond the paper)."""
    if summary is None or not len(summary):
        return ""
    s = summary.set_index("insensitive_share")
    parts = ", ".join(f"{share:g}: {r.significant_share:.0%} of {int(r.studies)}" for share, r in s.iterrows())
    return (f"The paper's F(3, 16) = 3.397 gives p = {paper_anova_p():.4f} (scipy), as printed; the "
            f"committed study gives p = {committed_p:.3f}. In the default user model assessor A4 ignores "
            "precision (as the paper saw its assessor 4 do), which puts a near-zero kappa row among the "
            "per-assessor kappas. Letting A4 keep part of its precision sensitivity (insensitive_share; "
            f"everything else fixed) changes the share of significant studies: {parts}. So in this user "
            "model significance needs every assessor to track precision to some degree; the paper reports "
            "its assessor 4 as insensitive too, so this locates the cause in the model's precision "
            "sensitivities without matching the paper's users; see wang2015/anova_worlds.png and "
            "wang2015/anova_worlds.csv.")


def _busy_range(bins: pd.DataFrame, studies) -> pd.DataFrame:
    """Per study, the smallest and largest bin kappa of each metric over the bins resting on at
    least :data:`~.worlds.MIN_PREFERENCES` preferences (the rule of the better-than-chance row):
    columns ``min_<metric>``, ``max_<metric>``, indexed by ``studies``."""
    busy = bins[bins.preferences >= MIN_PREFERENCES].dropna(subset=["kappa"])
    g = busy.groupby(["study", "metric"]).kappa.agg(["min", "max"]).unstack("metric")
    g.columns = [f"{e}_{m}" for e, m in g.columns]
    cols = [f"{e}_{m}" for e in ("min", "max") for m in METRICS]     # a metric without a busy bin: NaN
    return g.reindex(index=studies, columns=cols)


def _level_rows(c: Claims, draws) -> None:
    """Table 2's reading: the Landis–Koch levels of each metric's smallest and largest bin kappa, over
    the bins resting on >= MIN_PREFERENCES preferences; decided by the user model, so not testable."""
    label = lambda k: agreement_stats.landis_koch(k) if np.isfinite(k) else "none"   # noqa: E731
    out = _busy_range(draws.bins, draws.outcomes.study)
    first = out.iloc[0]
    for metric, (low, high) in LEVELS.items():
        ends = [(e, lvl) for e, lvl in (("min", low), ("max", high)) if lvl is not None]
        text = " and ".join(f"the {'smallest' if e == 'min' else 'largest'} is {lvl}" for e, lvl in ends)
        hits = np.ones(len(out), bool)
        for e, lvl in ends:
            hits &= out[f"{e}_{metric}"].map(label).to_numpy() == lvl
        seen = "; ".join(f"{e} {first[f'{e}_{metric}']:.3f} ({label(first[f'{e}_{metric}'])})"
                         for e in ("min", "max"))
        spread = "; ".join(f"{e} over studies {out[f'{e}_{metric}'].min():.2f}-"
                           f"{out[f'{e}_{metric}'].max():.2f}" for e, _ in ends)
        c.add_not_testable(f"Table 2 reading: of {_name(metric)}'s bin kappas {text} (bins resting on >= "
                           f"{MIN_PREFERENCES} preferences)",
                           USER_MODEL.format(what="the level a metric's bin kappas reach"),
                           evidence=f"committed study {seen}; {spread}; in {_over(hits)}",
                           section="§5.2", quote=_Q["levels"], varies=VARIES, id=f"levels-{metric.replace('_', '-')}",
                           threshold="Landis & Koch's bands (Table 2)", source="paper")


def _trend_rows(c: Claims, draws) -> None:
    """§1 and §5.2: agreement grows with the metric difference (precision and unweighted F1, and
    the general trend at the aggregate and individual level): built into the user model."""
    agg = _series_up(draws.bins, ["metric"])
    for m, what in (("precision", "agreement growing with the precision difference"),
                    ("f1", "agreement growing with the F1 difference (F1 grows with precision and recall)")):
        s = agg[agg.metric == m].set_index("study").reindex(draws.outcomes.study)
        hits = s.up.fillna(False).to_numpy(bool)
        c0 = s.iloc[0]
        c.add_not_testable(f"Agreement increases with the {_name(m)} difference: the kappa of the largest "
                           "populated bin of Figure 7 exceeds the smallest's", BUILT_IN.format(what=what),
                           evidence=f"committed study {c0['first']:.3f} -> {c0['last']:.3f}; in {_over(hits)}",
                           section="§1", quote=_Q["intro"], varies=VARIES, id=f"agreement-grows-{m}")
    ind = _series_up(draws.assessors, ["assessor", "metric"])
    share_agg = agg.groupby("study").up.mean().reindex(draws.outcomes.study)
    share_ind = ind.groupby("study").up.mean().reindex(draws.outcomes.study)
    hits = (share_agg >= MAJORITY).to_numpy() & (share_ind >= MAJORITY).to_numpy()
    c.add_not_testable(f"A general trend of agreement increasing from left to right: in at least "
                       f"{MAJORITY:.0%} of the metrics (Figure 7) and of the (assessor, metric) series "
                       "(Figure 8) the largest populated bin's kappa exceeds the smallest's",
                       BUILT_IN.format(what="agreement growing with the difference in every (assessor, "
                                       "metric) series but A4's precision"),
                       evidence=f"committed study {share_agg.iloc[0]:.0%} of metrics, {share_ind.iloc[0]:.0%} "
                                f"of series; over studies {share_ind.min():.0%}-{share_ind.max():.0%} of series; "
                                f"in {_over(hits)}", section="§5.2", quote=_Q["trend"], varies=VARIES, id="general-trend")


def _neither_row(c: Claims, draws) -> None:
    """§5.2: more "prefer neither" where the metric difference is small (built into the model)."""
    order = {b: i for i, b in enumerate(BIN_LABELS)}
    f = draws.bins.assign(n=lambda x: x.neither + x.preferences, _o=lambda x: x["bin"].map(order))
    f = f[f.n > 0].sort_values("_o").assign(share=lambda x: x.neither / x.n)
    g = f.groupby(["study", "metric"]).share
    more = (g.first() > g.last())[g.size() >= 2].groupby("study").mean().reindex(draws.outcomes.study)

    def at(t):
        return list((more >= t).to_numpy())

    hits = at(MAJORITY)
    c.add_not_testable(f"More 'prefer neither' judgments where the metric difference is small: in at least "
                       f"{MAJORITY:.0%} of the metrics the share of 'prefer neither' in the smallest populated "
                       "bin exceeds that in the largest",
                       BUILT_IN.format(what="more 'prefer neither' where the difference is small (the "
                                       "model's P(neither) falls as its logit preference grows)"),
                       evidence=f"committed study {more.iloc[0]:.0%} of metrics; in {_over(hits)}",
                       section="§5.2", quote=_Q["neither"], varies=VARIES, id="more-neither-when-small")


def _bucket_row(c: Claims, draws) -> None:
    """§5.2: the [0, 0.1) bin is empty for the metrics pairs are sampled by (precision, recall) and
    populated for the others: a consequence of the sampler (§5.1), checked as an identity."""
    low = draws.bins[draws.bins["bin"] == BIN_LABELS[0]]
    n = (low.assign(n=low.neither + low.preferences).pivot_table(index="study", columns="metric", values="n",
                                                                 aggfunc="sum")
         .reindex(index=draws.outcomes.study, columns=METRICS).fillna(0))
    empty, some = ["precision", "recall"], ["weighted_recall", "f1", "weighted_f1"]
    hits = (n[empty] == 0).all(axis=1).to_numpy() & (n[some] > 0).all(axis=1).to_numpy()
    c0 = n.iloc[0]
    c.add(f"By the sampler's design (§5.1), no judgment falls in the {BIN_LABELS[0]} bin of precision and "
          "unweighted recall (their pairs are drawn more than 0.1 apart in the metric they were sampled by), "
          "while some fall in it for weighted recall, F1 and weighted F1, in every study",
          "committed study " + ", ".join(f"{_name(m)} {int(c0[m])}" for m in METRICS)
          + f"; in {_over(hits)}", bool(hits.all()), "" if hits.all() else "see wang2015/figure7_kappa.csv.",
          kind="identity", section="§5.2", quote=_Q["bucket"], id="empty-first-bin")


def _detectable_rows(c: Claims, draws) -> None:
    """§5.2 and the summary: recall differences are detectable, and users are sensitive to
    precision, recall and F1 to different degrees; built into the user model."""
    busy = draws.bins[draws.bins.preferences >= MIN_PREFERENCES]
    rec = busy[busy.metric.isin(["recall", "weighted_recall"])]
    bad = set(rec[~(rec.kappa > 0)].study)
    hits = np.array([k not in bad for k in draws.outcomes.study])
    r0 = rec[rec.study == 0]
    c.add_not_testable(f"Differences in recall are detectable: every recall and weighted-recall bin kappa resting "
                       f"on >= {MIN_PREFERENCES} preferences is > 0",
                       BUILT_IN.format(what="better-than-chance agreement with recall (the model's recall "
                                       "sensitivity is positive for every assessor)"),
                       evidence=f"committed study {int((r0.kappa > 0).sum())} of {len(r0)} such bins; in "
                                f"{_over(hits)}", section="§5.2", quote=_Q["recall_detectable"], varies=VARIES,
                       id="recall-detectable")
    out = draws.outcomes
    main = ["precision", "recall", "f1"]
    over = out[[f"overall_{m}" for m in main]]
    pos = (over > 0).all(axis=1).to_numpy()
    c0 = out.iloc[0]
    c.add_not_testable("Users are sensitive to differences in precision, recall and F1, to different degrees: "
                       "each metric's kappa over all its judgments is > 0",
                       USER_MODEL.format(what="how strongly the users follow each metric"),
                       evidence="committed study " + ", ".join(f"{_name(m)} {c0[f'overall_{m}']:.3f}" for m in main)
                                + f"; all > 0 in {_over(pos)}; spread (largest - smallest) over studies "
                                f"{(over.max(axis=1) - over.min(axis=1)).min():.2f}-"
                                f"{(over.max(axis=1) - over.min(axis=1)).max():.2f}",
                       section="§5.2", quote=_Q["summary"], varies=VARIES, id="sensitive-to-differences")


def _low_precision_row(c: Claims, out: pd.DataFrame) -> None:
    """§5.2: relatively low agreement for precision, compared to the other metrics (set by the model)."""
    others = [f"overall_{m}" for m in METRICS if m != "precision"]
    hits = (out.overall_precision < out[others].min(axis=1)).to_numpy()
    c0 = out.iloc[0]
    below_f1 = (out.overall_precision < out[["overall_f1", "overall_weighted_f1"]].min(axis=1)).sum()
    lowest = out[[f"overall_{m}" for m in METRICS]].idxmin(axis=1).str.removeprefix("overall_")
    why = (f"Precision is below F1 and weighted F1 in {below_f1} of {len(out)} studies; the user model gives "
           "precision and recall the same sensitivity and lowers precision's agreement only through A4, who "
           "ignores it, so which metric is lowest changes between studies (lowest: "
           + ", ".join(f"{_name(m)} in {n}" for m, n in lowest.value_counts().items())
           + "). The paper's own explanation, short timelines where poor precision costs little, is "
           "not in the model (wang2015/study_draws.csv, columns overall_<metric>).")
    c.add_not_testable("Agreement is lowest for precision: its kappa over all its judgments is below each other "
                       "metric's", USER_MODEL.format(what="which metric users agree with least") + " " + why,
                       evidence="committed study " + ", ".join(f"{_name(m)} {c0[f'overall_{m}']:.3f}"
                                                               for m in METRICS) + f"; in {_over(hits)}",
                       section="§5.2", quote=_Q["low"], varies=VARIES, id="precision-lowest")


def _time_row(c: Claims, draws) -> None:
    """§5.2 (Figure 9): no clear relationship between kappa and time — not testable here."""
    from ..wang2015_assessor_differences.explain import spearman_test    # scipy.stats.spearmanr's p

    t = draws.times[draws.times.preferences >= MIN_PREFERENCES].dropna(subset=["kappa"])
    t = t.assign(start=t.time_bin.str.extract(r"\[(\d+),")[0].astype(float))
    sig = {k: any(len(g) >= 3 and g.kappa.nunique() > 1 and spearman_test(g.start, g.kappa)[1] < ALPHA
                  for _, g in x.groupby("metric")) for k, x in t.groupby("study")}
    none = [not sig.get(k, False) for k in draws.outcomes.study]
    c.add_not_testable(
        "No clear relationship between kappa and the time spent on a judgment (Figure 9)",
        "The user model draws the time spent independently of the choice (log-normal, scaled by the "
        "timelines' lengths), so the absence of a relationship is built into the simulated users and "
        "a 'holds' would test the simulator, not the claim.",
        evidence=f"no metric's time-binned kappas (bins with >= {MIN_PREFERENCES} preferences) have a "
                 f"Spearman trend with p < {ALPHA} (both workspace choices, shown as evidence only) in "
                 f"{_over(none)}",
        section="§5.2", quote=_Q["time"], varies=VARIES, id="no-time-relationship")


def claims(draws, t3: pd.DataFrame, summary: pd.DataFrame | None = None) -> pd.DataFrame:
    """The §5 claims with verdicts over the default model's simulated studies.

    ``draws``: the :class:`.worlds.StudyDraws` of the studies (study 0 the committed one,
    whose values the evidence quotes); ``t3``: Table 3 joined with the paper's
    (``metric, df1_published, df2_published, p_published``); ``summary``
    (:func:`.worlds.summarise_anova_worlds`) explains the precision ANOVA.
    """
    out = draws.outcomes.sort_values("study").reset_index(drop=True)
    if not len(out) or out.study.iloc[0] != 0:
        raise ValueError("the simulated studies must start with study 0, the committed one")
    draws = draws._replace(outcomes=out)
    c = Claims(history=REVISED)
    bins = draws.bins

    wf1 = bins[(bins.metric == "weighted_f1") & (bins.preferences >= MIN_PREFERENCES)]
    bad = set(wf1[~(wf1.kappa > 0)].study)
    hits = [k not in bad for k in out.study]
    b0 = wf1[wf1.study == 0]
    c.add_not_testable(f"Assessors agree with weighted F1 better than chance: every weighted-F1 bin kappa "
                       f"resting on >= {MIN_PREFERENCES} preferences is > 0 (the paper's assessor 4 was near "
                       "and sometimes worse than chance for precision)",
                       BUILT_IN.format(what="better-than-chance agreement with weighted F1, which grows with "
                                       "the weighted recall and the precision the choice rests on,"),
                       evidence=f"committed study {int((b0.kappa > 0).sum())} of {len(b0)} weighted-F1 bins; "
                                f"in {_over(hits)}", section="§5.2", quote=_Q["chance"], varies=VARIES,
                       id="weighted-f1-better-than-chance")
    _trend_rows(c, draws)
    _neither_row(c, draws)
    _detectable_rows(c, draws)
    _level_rows(c, draws)
    committed_p = float(draws.anova.query("insensitive_share == 0 and study == 0 and "
                                          "metric == 'precision'").p.iloc[0])
    _anova_rows(c, t3, draws, _anova_why(summary, committed_p), alpha=ALPHA, varies=VARIES,
                decided=USER_MODEL.format(what="whether the per-assessor kappas differ across bins"))
    _low_precision_row(c, out)
    _time_row(c, draws)
    c.add_not_testable("Users are sensitive to the redundancy removal the cluster-based metrics reward",
                       "The simulated assessors choose by the cluster-based (redundancy-aware) metrics "
                       "themselves, so their sensitivity to redundancy is built in.",
                       section="§5.2", quote=_Q["redundancy"], varies=VARIES, id="redundancy-removal")
    prec = draws.assessors.query("metric == 'precision'").dropna(subset=["kappa"])
    med = prec.groupby(["study", "assessor"]).kappa.median().unstack()
    hits = (med["A4"] < med.drop(columns="A4").min(axis=1)).reindex(out.study).fillna(False).to_numpy(bool)
    c.add_over_draws("Assessor A4 is the least sensitive to precision: its median precision bin kappa "
                     "(Figure 8) is below every other assessor's; the user model was built to it (A4 "
                     "ignores precision)", "committed study A4 " + f"{med.loc[0, 'A4']:.2f}, others "
                     + ", ".join(f"{a} {v:.2f}" for a, v in med.loc[0].drop("A4").items())
                     + f"; in {_over(hits)}", hits,
                     "" if hits.mean() >= 0.8 else "see wang2015/figure8_kappa_per_assessor.csv.",
                     varies=VARIES, kind="calibration", section="§5.2", quote=_Q["a4"], id="a4-least-precision")
    label = agreement_stats.landis_koch
    hits = (out.fleiss.map(label) == FLEISS_LEVEL).to_numpy()
    fk = out.fleiss.iloc[0]
    c.add_over_draws(f"Fleiss' kappa on the shared pairs is '{FLEISS_LEVEL}' (paper 0.294): the target the "
                     "user model was tuned to", f"committed study {fk:.3f} ({label(fk)}); over studies "
                     f"median {out.fleiss.median():.3f} (interquartile range {out.fleiss.quantile(0.25):.3f}-"
                     f"{out.fleiss.quantile(0.75):.3f}), range {out.fleiss.min():.3f}-{out.fleiss.max():.3f};"
                     f" in {_over(hits)}", hits,
                     "" if hits.mean() >= 0.8 else
                     f"On 30 shared pairs Fleiss' kappa varies between studies ({out.fleiss.min():.2f}-"
                     f"{out.fleiss.max():.2f}) by more than the width of the '{FLEISS_LEVEL}' band "
                     "(0.21-0.40), so the committed study's match is one draw's (see "
                     "wang2015/study_draws.csv).", kind="calibration", varies=VARIES, section="§5.2", id="fleiss-fair",
                     quote=_Q["fleiss"], threshold="Landis & Koch's band 0.21-0.40", source="paper")
    _bucket_row(c, draws)
    _design_rows(c, out, varies=VARIES)
    return c.frame()
