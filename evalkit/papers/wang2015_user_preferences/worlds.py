"""Wang et al. (SIGIR 2015) §5: the user study drawn again and again.

The committed judgment log is study 0 of the notebook's seed
(:func:`evalkit.simulate.preferences.study_generator`); every verdict that
depends on it is judged over all ``studies`` draws, study 0 included.
:func:`anova_worlds` draws each study once (topic draw, filters, pair
sampling, batches, the user model's sensitivities, choices and times:
:func:`evalkit.simulate.preferences.draw_design`) and records, per study,
Table 3's ANOVA for every metric, Figure 7's bins, Figure 9's time bins and
the study's scalar outcomes (:func:`study_outcomes`).  Beyond the paper, one
assumption of the user model varies on the same designs: how much of its
precision sensitivity the assessor who ignores precision keeps
(``insensitive_share``, 0 in the default model); :func:`summarise_anova_worlds`
gives the share of significant precision ANOVAs per share.  The figure is
:func:`.figures.anova_worlds_figure`; the claims are judged in :mod:`.verdicts`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ...simulate.preferences import draw_choices, draw_design, study_generator
from .study import (METRICS, METRICS_OF_TYPE, agreement, agreement_by, anova_by_bin, judgment_table,
                    shared_fleiss)

__all__ = ["MIN_PREFERENCES", "StudyDraws", "anova_worlds", "study_outcomes", "summarise_anova_worlds"]

#: A bin kappa counts for "better than chance" when it rests on at least this many preferences
#: (a workspace threshold; the verdicts recompute it over 10-40).
MIN_PREFERENCES = 20


class StudyDraws(NamedTuple):
    """The simulated studies: Table 3 per (share, study, metric); per default-model study its
    outcomes, Figure 7's bins, Figure 9's time bins and per-assessor bins; ``committed``:
    whether study 0 is the committed log (same judgments, same choices)."""

    anova: pd.DataFrame
    outcomes: pd.DataFrame
    bins: pd.DataFrame
    times: pd.DataFrame
    assessors: pd.DataFrame
    committed: bool | None = None


def study_outcomes(jt: pd.DataFrame, log: pd.DataFrame, alpha: float = 0.05,
                   agg: pd.DataFrame | None = None, overall: pd.DataFrame | None = None) -> dict:
    """One study's scalar outcomes, from its judgment table ``jt`` (with choices) and its ``log``.

    Per metric: the smallest and largest bin kappa of Figure 7 (``min_<m>``,
    ``max_<m>``), the kappas of its smallest and largest populated bins
    (``first_<m>``, ``last_<m>``) and its kappa over all its judgments
    (``overall_<m>``); ``fleiss``: Fleiss' kappa on the shared pairs;
    ``f1_pairs`` and ``f1_same``: the F1-sampled judgments and how many of
    them unweighted and weighted F1 order the same way; ``n_<type>``: the
    judgments of each sampling type.  ``agg``, ``overall``: the agreement of ``jt`` per
    (metric, bin) and per metric, when already computed.
    """
    agg = agreement(jt, alpha=alpha) if agg is None else agg
    overall = (agreement(jt, by=("metric",), alpha=alpha) if overall is None else overall)
    overall = overall.set_index("metric").kappa
    out = {}
    for m in METRICS:
        k = agg[agg.metric == m].kappa.dropna()
        out.update({f"min_{m}": k.min() if len(k) else np.nan, f"max_{m}": k.max() if len(k) else np.nan,
                    f"first_{m}": k.iloc[0] if len(k) else np.nan,
                    f"last_{m}": k.iloc[-1] if len(k) else np.nan,
                    f"overall_{m}": overall.get(m, np.nan)})
    f1 = jt[jt.metric == "f1"].implied.to_numpy()
    wf1 = jt[jt.metric == "weighted_f1"].implied.to_numpy()
    out.update(fleiss=shared_fleiss(log)[0], f1_pairs=len(f1), f1_same=int((f1 == wf1).sum()),
               **{f"n_{t}": int((log["type"] == t).sum()) for t in METRICS_OF_TYPE})
    return out


def anova_worlds(world, timelines: pd.DataFrame, shares, studies: int, seed: int = 2015,
                 progress: bool = False, alpha: float = 0.05, committed_log=None) -> StudyDraws:
    """Table 3 and the study's outcomes over ``studies`` simulated user studies.

    Study ``k`` is drawn once with :func:`evalkit.simulate.preferences.study_generator`
    ``(seed, k)`` on ``world`` and ``timelines`` (the run world is the committed one),
    and its choices are drawn for every ``insensitive_share`` with the same pairs,
    sensitivities and uniforms (common random numbers).  Study 0 of the committed seed
    is the committed log; with ``committed_log`` the result says whether it is
    (``committed``).  The full outcomes are recorded for the default model (share 0,
    which must be among ``shares``); the other shares record the precision ANOVA only.
    """
    from tqdm.auto import tqdm

    if 0 not in [float(s) for s in shares]:
        raise ValueError(f"insensitive_shares must include 0 (the default user model), got {shares}")
    rel = world.qrels[world.qrels.grade > 0].groupby("topic").size()
    checked = {t: len(ms) for t, ms in METRICS_OF_TYPE.items()}
    anova, outcomes, bins, times, assessors = [], [], [], [], []
    same = None
    for k in tqdm(range(studies), desc="simulated studies", disable=not progress):
        design = draw_design(timelines, rel, study_generator(seed, k))
        base = judgment_table(design.batches.assign(choice="neither", seconds=design.seconds), timelines)
        repeat = design.batches["type"].map(checked).to_numpy()
        prec = (base.metric == "precision").to_numpy()
        of = {"bins": agreement_by(base, alpha=alpha), "overall": agreement_by(base, ("metric",), alpha),
              "times": agreement_by(base, ("metric", "time_bin"), alpha),
              "per": agreement_by(base, ("assessor", "metric", "bin"), alpha),
              "per_precision": agreement_by(base[prec], ("assessor", "metric", "bin"), alpha)}
        for share in shares:
            log = draw_choices(design, float(share))
            choice = np.repeat(log.choice.to_numpy(), repeat)
            default = float(share) == 0
            if default and k == 0 and committed_log is not None:
                cols = ["assessor", "pair_id", "left_run", "right_run", "choice"]
                same = bool(len(log) == len(committed_log) and
                            (log[cols].to_numpy() == committed_log[cols].to_numpy()).all())
            per = of["per"](choice) if default else of["per_precision"](choice[prec])
            for res in anova_by_bin(per).itertuples(index=False):
                anova.append({"insensitive_share": float(share), "study": k, "metric": res.metric,
                              "df1": res.df1, "df2": res.df2, "F": res.F, "p": res.p})
            if default:
                judged = base.assign(choice=choice)
                agg = of["bins"](choice)
                outcomes.append({"study": k, **study_outcomes(judged, log, alpha, agg, of["overall"](choice)),
                                 **{f"pool_{t}": n for t, n in (design.pools or {}).items()},
                                 "length_limit": design.length_limit,
                                 "topics": int(design.batches.topic.nunique()),
                                 "shared_pairs": int(design.batches[design.batches.shared].pair_id.nunique()),
                                 "batch_sizes": "/".join(str(n) for n in
                                                         design.batches.groupby(["assessor", "batch"]).size())})
                bins.append(agg.assign(study=k))
                times.append(of["times"](choice).assign(study=k))
                assessors.append(per.assign(study=k))
    frames = [pd.concat(x, ignore_index=True) for x in (bins, times, assessors)]
    for f in frames:
        for col in ("bin", "time_bin"):
            if col in f:
                f[col] = f[col].astype(str)
    return StudyDraws(pd.DataFrame(anova), pd.DataFrame(outcomes), *frames, same)


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
