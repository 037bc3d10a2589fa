"""Wang et al. (SIGIR 2015) §5: the user study drawn again and again.

The committed judgment log is one draw of the simulated user study; every
verdict that depends on it is judged over many.  :func:`anova_worlds`
repeats the whole study of :mod:`.study` (topic draw, filters, pair
sampling, batches, the user model's sensitivities and choices) ``studies``
times, and for each study records Table 3's ANOVA for every metric and the
study's outcomes (:func:`study_outcomes`: the bin kappas' range per metric,
the precision trend, Fleiss' kappa on the shared pairs, ...).  Beyond the
paper, one assumption of the user model varies: how much of its precision
sensitivity the assessor who ignores precision keeps (``insensitive_share``,
0 in the default model); :func:`summarise_anova_worlds` gives the share of
significant precision ANOVAs per share.  The figure is
:func:`.figures.anova_worlds_figure`; the claims are judged in :mod:`.verdicts`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ...simulate import preference_sampling as sampling
from ...simulate.preferences import PREFERENCE_DEFAULTS, assessor_sensitivities, choice_probabilities
from .study import METRICS, METRICS_OF_TYPE, agreement, anova_by_bin, judgment_table, shared_fleiss

__all__ = ["MIN_PREFERENCES", "StudyDraws", "anova_worlds", "study_outcomes", "summarise_anova_worlds"]

#: A bin kappa counts for "better than chance" when it rests on at least this many preferences.
MIN_PREFERENCES = 20


class StudyDraws(NamedTuple):
    """The simulated studies: Table 3 per (share, study, metric), and each study's outcomes."""

    anova: pd.DataFrame
    outcomes: pd.DataFrame


def study_outcomes(jt: pd.DataFrame, log: pd.DataFrame, alpha: float = 0.05) -> dict:
    """One study's outcomes, from its judgment table ``jt`` (with choices) and its ``log``.

    Per metric: the smallest and largest bin kappa of Figure 7 (``min_<m>``,
    ``max_<m>``) and the kappas of its smallest and largest populated bins
    (``first_<m>``, ``last_<m>``); ``busy_bins`` and ``busy_positive``: the
    bins with at least :data:`MIN_PREFERENCES` preferences and how many of
    them have kappa > 0; ``fleiss``: Fleiss' kappa on the shared pairs;
    ``f1_pairs`` and ``f1_same``: the F1-sampled judgments and how many of
    them unweighted and weighted F1 order the same way.
    """
    agg = agreement(jt, alpha=alpha)
    out = {}
    for m in METRICS:
        k = agg[agg.metric == m].kappa.dropna()
        out.update({f"min_{m}": k.min() if len(k) else np.nan, f"max_{m}": k.max() if len(k) else np.nan,
                    f"first_{m}": k.iloc[0] if len(k) else np.nan,
                    f"last_{m}": k.iloc[-1] if len(k) else np.nan})
    busy = agg[agg.preferences >= MIN_PREFERENCES]
    f1 = jt[jt.metric == "f1"].implied.to_numpy()
    wf1 = jt[jt.metric == "weighted_f1"].implied.to_numpy()
    out.update(busy_bins=len(busy), busy_positive=int((busy.kappa > 0).sum()),
               fleiss=shared_fleiss(log)[0], f1_pairs=len(f1), f1_same=int((f1 == wf1).sum()))
    return out


def anova_worlds(world, timelines: pd.DataFrame, shares, studies: int, seed: int = 2015,
                 progress: bool = False, alpha: float = 0.05) -> StudyDraws:
    """Table 3 and the study's outcomes over ``studies`` simulated user studies per ``insensitive_share``.

    Each study repeats the paper's design on ``world`` (30 topics, the two
    filters, the three sampling types, batches of 180 for five assessors)
    with its own seed (``SeedSequence([seed, 7, study])``) and draws the user
    model of :func:`evalkit.simulate.preferences.simulate_preferences` (same
    sensitivities, "prefer neither" and choice probabilities) for every
    judgment; only ``insensitive_share`` varies, with the same pairs,
    sensitivities and uniform draws in every world of a study (common random
    numbers).  The choices are drawn vectorised, so no study is the
    committed log itself.  Returns :class:`StudyDraws`: ``anova`` has one row
    per (share, study, metric) with df1, df2, F, p; ``outcomes`` one row per
    (share, study) with :func:`study_outcomes`.
    """
    from tqdm.auto import tqdm

    cfg = dict(PREFERENCE_DEFAULTS)
    rel = world.qrels[world.qrels.grade > 0].groupby("topic").size()
    scores = timelines.set_index(["run", "topic"])
    rows, outcomes = [], []
    for k in tqdm(range(studies), desc="simulated studies", disable=not progress):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 7, k]))
        topics = sampling.draw_topics(rel, 30, rng)
        kept, _ = sampling.filter_timelines(timelines[timelines.topic.isin(topics)])
        batches = sampling.make_batches(sampling.sample_pairs(kept, rng), cfg["batches"], rng)
        base = assessor_sensitivities({**cfg, "insensitive_share": 1.0}, rng)
        left = scores.loc[list(zip(batches.left_run, batches.topic))]
        right = scores.loc[list(zip(batches.right_run, batches.topic))]
        u_neither, u_left = rng.random(len(batches)), rng.random(len(batches))
        jt = judgment_table(batches.assign(choice="neither", seconds=0.0), timelines)
        checked = batches["type"].map({t: len(ms) for t, ms in METRICS_OF_TYPE.items()}).to_numpy()
        who, what = cfg["insensitive"]
        for share in shares:
            sens = {a: {m: v * (share if (a, m) == (who, what) else 1.0) for m, v in ms.items()}
                    for a, ms in base.items()}
            d = np.zeros(len(batches))
            for m in cfg["sensitivity"]:
                s_ = batches.assessor.map({a: sens[a][m] for a in sens}).to_numpy()
                d += s_ * (left[m].to_numpy() - right[m].to_numpy())
            p_neither, p_left = choice_probabilities(d, cfg["neither"])
            choice = np.where(u_neither < p_neither, "neither", np.where(u_left < p_left, "left", "right"))
            judged = jt.assign(choice=np.repeat(choice, checked))
            per = agreement(judged, by=("assessor", "metric", "bin"), alpha=alpha)
            for res in anova_by_bin(per).itertuples(index=False):
                rows.append({"insensitive_share": float(share), "study": k, "metric": res.metric,
                             "df1": res.df1, "df2": res.df2, "F": res.F, "p": res.p})
            outcomes.append({"insensitive_share": float(share), "study": k,
                             **study_outcomes(judged, batches.assign(choice=choice), alpha)})
    return StudyDraws(pd.DataFrame(rows), pd.DataFrame(outcomes))


def summarise_anova_worlds(studies: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Per ``insensitive_share``, for the precision ANOVA: studies, share with p < ``alpha``,
    median and range of p, and how many studies had the paper's F(3, 16) design."""
    if "metric" in studies:
        studies = studies[studies.metric == "precision"]
    g = studies.groupby("insensitive_share")
    return pd.DataFrame({"studies": g.size(), "significant_share": g.p.apply(lambda p: (p < alpha).mean()),
                         "p_median": g.p.median(), "p_min": g.p.min(), "p_max": g.p.max(),
                         "df_3_16": g.apply(lambda x: int(((x.df1 == 3) & (x.df2 == 16)).sum()),
                                            include_groups=False)}).reset_index().astype(
        {"studies": int, "df_3_16": int})
