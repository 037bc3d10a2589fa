"""Wang et al. (SIGIR 2015) §5, beyond the paper: the precision ANOVA over simulated studies.

:func:`anova_worlds` repeats the whole study of :mod:`.study` (sampling, user
model, Table 3's precision ANOVA) many times, varying one assumption of the
user model: how much of its precision sensitivity the assessor who ignores
precision keeps (``insensitive_share``, 0 in the default model);
:func:`summarise_anova_worlds` gives the share of significant studies per
share.  The figure is :func:`.figures.anova_worlds_figure`; the explanation
the claims quote is in :mod:`.verdicts`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...simulate import preference_sampling as sampling
from ...simulate.preferences import PREFERENCE_DEFAULTS, assessor_sensitivities, choice_probabilities
from .study import agreement, anova_by_bin, judgment_table

__all__ = ["anova_worlds", "summarise_anova_worlds"]


def anova_worlds(world, timelines: pd.DataFrame, shares, studies: int, seed: int = 2015,
                 progress: bool = False) -> pd.DataFrame:
    """Table 3's precision ANOVA over ``studies`` simulated user studies per ``insensitive_share``.

    Each study repeats the paper's design on ``world`` (30 topics, the two
    filters, the three sampling types, batches of 180 for five assessors:
    F(3, 16) when every assessor has a kappa in each of the four precision
    bins) with its own seed (``SeedSequence([seed, 7, study])``) and draws
    the user model of :func:`evalkit.simulate.preferences.simulate_preferences`
    (same sensitivities, "prefer neither" and choice probabilities); only
    ``insensitive_share`` varies, with the same pairs, sensitivities and
    uniform draws in every world of a study (common random numbers).  The
    choices are drawn vectorised, so no study is the committed log itself.
    Returns one row per (share, study): df1, df2, F, p.
    """
    from tqdm.auto import tqdm

    cfg = dict(PREFERENCE_DEFAULTS)
    rel = world.qrels[world.qrels.grade > 0].groupby("topic").size()
    scores = timelines.set_index(["run", "topic"])
    rows = []
    for k in tqdm(range(studies), desc="simulated studies", disable=not progress):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 7, k]))
        topics = sampling.draw_topics(rel, 30, rng)
        kept, _ = sampling.filter_timelines(timelines[timelines.topic.isin(topics)])
        batches = sampling.make_batches(sampling.sample_pairs(kept, rng), cfg["batches"], rng)
        base = assessor_sensitivities({**cfg, "insensitive_share": 1.0}, rng)
        batches = batches[batches["type"] == "precision"].reset_index(drop=True)
        left = scores.loc[list(zip(batches.left_run, batches.topic))]
        right = scores.loc[list(zip(batches.right_run, batches.topic))]
        u_neither, u_left = rng.random(len(batches)), rng.random(len(batches))
        jt = judgment_table(batches.assign(choice="neither", seconds=0.0), timelines)
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
            per = agreement(jt.assign(choice=choice), by=("assessor", "metric", "bin"))
            res = anova_by_bin(per).iloc[0]
            rows.append({"insensitive_share": float(share), "study": k, "df1": res.df1, "df2": res.df2,
                         "F": res.F, "p": res.p})
    return pd.DataFrame(rows)


def summarise_anova_worlds(studies: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Per ``insensitive_share``: studies, share with p < ``alpha``, median and range of p,
    and how many studies had the paper's F(3, 16) design."""
    g = studies.groupby("insensitive_share")
    return pd.DataFrame({"studies": g.size(), "significant_share": g.p.apply(lambda p: (p < alpha).mean()),
                         "p_median": g.p.median(), "p_min": g.p.min(), "p_max": g.p.max(),
                         "df_3_16": g.apply(lambda x: int(((x.df1 == 3) & (x.df2 == 16)).sum()),
                                            include_groups=False)}).reset_index().astype(
        {"studies": int, "df_3_16": int})
