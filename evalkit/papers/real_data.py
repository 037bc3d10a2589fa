"""Analyses that the real public data makes possible (installed by ``evalkit data fetch``).

The pipeline of ``notebooks/real_data.ipynb`` and its declaration :data:`NOTEBOOK`.

* TREC 2014 Microblog: the descriptive facts Wang et al. quote, computed from
  the real qrels; the TTG simulator run over the real pool (real topics,
  tweets, grades and snowflake times) so that Figure 3 can be drawn for the
  paper's own topics 179 and 225 with their real titles.
* NTCIR-12 STC Japanese: ten real ratings per item, exactly what Sakai names
  as future work.  :func:`stc_spread` compares the rating spread D with
  Sakai's uniform simulation; :func:`stc_experiment` ranks the real pool with
  simulated runs and compares RawG vs UG (tau, HSD discrepancies) under the
  real ratings and under uniform ratings.
* Beyond the paper: :func:`assessor_subsets` keeps N of the ten real
  assessors per item; :func:`agreement_worlds` draws ratings around each
  item's real mean with a controlled noise, and :func:`control_worlds`
  separates agreement from the runs' signal (RawG fixed with unanimity
  varied; real rating vectors shuffled), to explain the real-vs-uniform rows.

The module is longer than most (about 530 lines) because it is one notebook's
whole pipeline over two real data sets; splitting it would separate steps a
reader follows in notebook order.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..errors import ParameterError
from ..formats.ratings import read_ratings
from ..measures import gains, graded as measures
from ..simulate import stc as simulate
from .. import data
from ..declare import params
from ..declare.claims import Claims
from ..declare.notebook import Comparison, Notebook
from . import sakai2017_unanimity_gain as unanimity
from .wang2015_assessor_differences import ari_statistics

__all__ = ["PAPER_FACTS", "trec2014_facts", "load_stc", "stc_spread", "stc_collection",
           "stc_experiment", "missing_ratings_summary", "validate_parameters", "REQUIRED"]

#: Wang et al.'s (and the data README's) descriptive facts of the 2014 pool.
PAPER_FACTS = {"topics": 55, "judgments": 57985, "relevant": 10645, "relevant_per_topic": 193.5}
#: Data sets the real-data notebook needs.
REQUIRED = ("trec2014-qrels", "trec2014-topics", "stc-ja-test", "stc-ja-dev")


def trec2014_facts(qrels: pd.DataFrame) -> pd.DataFrame:
    """Topics, judgments, relevant tweets (grade >= 1) and their per-topic mean."""
    rel = qrels[qrels.grade > 0]
    got = {"topics": qrels.topic.nunique(), "judgments": len(qrels), "relevant": len(rel),
           "relevant_per_topic": round(len(rel) / qrels.topic.nunique(), 1)}
    return pd.DataFrame({"fact": list(got), "computed": list(got.values()),
                         "published": [PAPER_FACTS[k] for k in got]})


def load_stc(path) -> tuple[pd.DataFrame, np.ndarray]:
    """STC-ja ratings: ``(items with post, reply; ratings items x 10, NaN = NA)``."""
    return read_ratings(path, dmax=2)


def missing_ratings_summary(ratings: np.ndarray) -> pd.DataFrame:
    """How many items have how many ratings (N_i), and what Eq. 2 then does."""
    n_i = np.count_nonzero(~np.isnan(ratings), axis=1)
    counts = pd.Series(n_i).value_counts().sort_index()
    return pd.DataFrame({"ratings per item (N_i)": counts.index, "items": counts.values})


def stc_spread(ratings: np.ndarray, dmax: int, seed: int) -> pd.DataFrame:
    """Share of items with each spread D among items with RawG > 0: real vs uniform.

    The uniform column is Sakai's simulation on the same items: N ratings
    uniform on 0..dmax for every item that real assessors found relevant.
    """
    raw = gains.raw_gain(ratings)
    real = gains.rating_spread(ratings[raw > 0])
    n = ratings.shape[1]
    uniform = simulate.simulate_ratings(np.ones(int((raw > 0).sum())), n, dmax, seed)
    uni = gains.rating_spread(uniform[gains.raw_gain(uniform) > 0])
    levels = np.arange(dmax + 1)
    return pd.DataFrame({"D": levels,
                         "real_items": [(real == d).sum() for d in levels],
                         "real_share": [(real == d).mean() for d in levels],
                         "uniform_share": [(uni == d).mean() for d in levels]})


def stc_collection(items: pd.DataFrame, ratings: np.ndarray, seed: int, n_teams: int = 7,
                   n_runs: int = 25, depth: int = 10) -> tuple[unanimity.Collection, list]:
    """Simulated runs over the real STC-ja pool (the real runs are not public).

    Runs rank each post's replies by their real mean rating plus system noise
    (:func:`evalkit.simulate.stc.rank_pool`); the default 25 runs from 7 teams is
    the size of the real Japanese subtask.  Returns the collection (every
    reply judged, grade = 1 if any assessor rated it above 0) and, per topic,
    the ratings aligned with the collection's items.
    """
    frame = items.assign(row=np.arange(len(items)), mean=np.nanmean(ratings, axis=1))
    pool = {post: (g["reply"].to_numpy(), g["mean"].to_numpy()) for post, g in frame.groupby("post")}
    runs = simulate.rank_pool(pool, seed, n_teams, n_runs, depth)
    qrels = pd.DataFrame({"topic": frame["post"], "doc": frame["reply"],
                          "grade": (np.nansum(ratings, axis=1) > 0).astype(int)})
    lists = measures.ranked_lists(runs, qrels, depth)
    row = {(t, d): r for t, d, r in zip(frame.post, frame.reply, frame.row)}
    per_topic = [ratings[[row[(t, d)] for d in docs]] for t, docs in zip(lists.topics, lists.items)]
    grades = tuple((np.nansum(r, axis=1) > 0).astype(int) for r in per_topic)
    return unanimity.Collection(qrels, lists, grades, ()), per_topic


def _split(flat: np.ndarray, per_topic: list) -> list:
    return np.split(flat, np.cumsum([len(r) for r in per_topic])[:-1])


def rawg_vs_ug(collection: unanimity.Collection, best: np.ndarray, per_topic: list, dmax: int,
               p: float, trials: int, alpha: float, seed: int) -> pd.DataFrame:
    """Tau (all runs) and HSD discrepancies (best runs) of RawG vs UG for one set of ratings.

    ``per_topic`` holds each topic's ``items x N`` ratings aligned with the
    collection's items; N is their column count.  One row per measure.
    """
    flat = np.concatenate(per_topic)
    raw, ug = gains.raw_gain(flat), gains.unanimity_gain(flat, dmax, p)
    cond = unanimity.conditions_from_gains(collection, _split(raw, per_topic), _split(ug, per_topic),
                                           (dmax, flat.shape[1]))
    taus = unanimity.tau_table(cond, collection.lists.runs, alpha)
    _, counts = unanimity.discrepancies(cond, collection, best, trials, alpha, seed)
    return taus.merge(counts, on=["measure", "dmax", "N"])


def stc_experiment(collection: unanimity.Collection, per_topic: list, p: float, trials: int,
                   alpha: float, seed: int, replications: int, progress: bool = True) -> pd.DataFrame:
    """Tau and HSD discrepancies of RawG vs UG: real ratings, then uniform ratings.

    One row per (ratings, replication, measure).  The real ratings are one
    fixed set (replication 0); the uniform baseline draws Sakai's simulated
    ratings ``replications`` times on the same pool (N = 10, Dmax = 2).
    """
    dmax, n = 2, per_topic[0].shape[1]
    best = unanimity.best_runs(collection)
    frames = [rawg_vs_ug(collection, best, per_topic, dmax, p, trials, alpha, seed)
              .assign(ratings="real", replication=0)]
    for rep in tqdm(range(replications), desc="uniform baseline", disable=not progress):
        rng = np.random.default_rng(np.random.SeedSequence([seed, rep, dmax, n]))
        sim = [simulate.simulate_ratings(g, n, dmax, rng) for g in collection.grades]
        frames.append(rawg_vs_ug(collection, best, sim, dmax, p, trials, alpha, seed + rep)
                      .assign(ratings="uniform", replication=rep))
    return pd.concat(frames, ignore_index=True)


#: Assessors drawn per item in the N-subsampling experiment (STC-ja has ten).
N_GRID = (2, 3, 5, 7, 10)


def assessor_subsets(collection: unanimity.Collection, per_topic: list, p: float, trials: int,
                     alpha: float, seed: int, subsets: int, n_grid=N_GRID, dmax: int = 2,
                     progress: bool = True) -> pd.DataFrame:
    """Beyond the paper: RawG vs UG with N of the real assessors per item.

    For each N and each of ``subsets`` seeded draws, every item keeps N of its
    real ratings chosen at random (:func:`evalkit.simulate.stc.subsample_assessors`:
    its own draw, so different items keep different assessors: crowd-style
    pools of correlated, real raters); RawG and UG (N_i = N) are compared as in
    :func:`stc_experiment` (Kendall tau of all runs, HSD discrepancies among
    each team's best run).  N equal to the ratings per item keeps every rating
    (one draw), so its rows equal the real-ratings row.  The runs are the
    simulated ones of :func:`stc_collection` (or any collection over the pool).
    """
    flat = np.concatenate(per_topic)
    full = flat.shape[1]
    best = unanimity.best_runs(collection)
    frames = []
    todo = [(n, s) for n in n_grid for s in range(subsets if n < full else 1)]
    for n, s in tqdm(todo, desc="assessor subsets", disable=not progress):
        picked = simulate.subsample_assessors(flat, n, np.random.default_rng(
            np.random.SeedSequence([seed, n, s])))
        spread = gains.rating_spread(picked[gains.raw_gain(picked) > 0])
        frames.append(rawg_vs_ug(collection, best, _split(picked, per_topic), dmax, p, trials,
                                 alpha, seed + s)
                      .assign(subset=s, share_D_below_dmax=float((spread < dmax).mean())))
    return pd.concat(frames, ignore_index=True)


def uniform_share_below_dmax(n: int, dmax: int = 2) -> float:
    """P(D < Dmax) for ``n`` independent ratings uniform on ``0..dmax`` (Sakai's simulation).

    D < Dmax unless both 0 and Dmax occur: P(no 0) + P(no Dmax) - P(neither)
    = 2 (dmax / (dmax + 1))^n - ((dmax - 1) / (dmax + 1))^n.
    """
    return 2 * (dmax / (dmax + 1)) ** n - ((dmax - 1) / (dmax + 1)) ** n


#: Share of relevant items given disagreeing ratings in the fixed-RawG worlds.
DISAGREE_GRID = (0.0, 0.25, 0.5, 0.75, 1.0)


def control_worlds(collection: unanimity.Collection, per_topic: list, p: float, trials: int,
                   alpha: float, seed: int, draws: int, shares=DISAGREE_GRID,
                   progress: bool = True) -> pd.DataFrame:
    """Two controlled experiments on the real pool, N = 10, Dmax = 2.

    * ``fixed RawG``: every item keeps its real RawG (so the RawG ranking and
      its significant pairs are exactly the real ones) and only unanimity
      varies: a share ``w`` of the relevant items, drawn at random, gets
      disagreeing ratings (D = 2), the rest the most unanimous ratings with
      that sum (D <= 1) (:func:`evalkit.simulate.stc.fixed_sum_ratings`).
    * ``shuffled``: the real rating vectors permuted among each topic's relevant
      items (:func:`evalkit.simulate.stc.shuffle_relevant`): agreement exactly
      the real one, but which item got which ratings no longer matches how the
      runs rank it: the runs' signal is cut, as in Sakai's uniform ratings.

    ``draws`` seeded draws per world; one row per (world, w, draw, measure)
    with tau, discrepancies, significant pairs and the share of relevant
    items with D < Dmax reached.
    """
    dmax, n = 2, 10
    best = unanimity.best_runs(collection)
    flat = np.concatenate(per_topic)
    raw = np.rint(np.nansum(flat, axis=1)).astype(np.int64)
    rel = raw > 0
    todo = [("fixed RawG", w, d) for w in shares for d in range(draws)]
    todo += [("shuffled", np.nan, d) for d in range(draws)]
    frames = []
    for k, (world, w, d) in enumerate(tqdm(todo, desc="control worlds", disable=not progress)):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 15, k]))
        if world == "fixed RawG":
            sim = _split(simulate.fixed_sum_ratings(raw, n, dmax, rng.random(len(raw)) < w),
                         per_topic)
        else:
            sim = [simulate.shuffle_relevant(r, rng) for r in per_topic]
        spread = gains.rating_spread(np.concatenate(sim)[rel])
        frames.append(rawg_vs_ug(collection, best, sim, dmax, p, trials, alpha, seed)
                      .assign(world=world, disagree_share=w, draw=d,
                              share_D_below_dmax=float((spread < dmax).mean())))
    return pd.concat(frames, ignore_index=True)


def controls_summary(worlds: pd.DataFrame) -> pd.DataFrame:
    """Mean tau, discrepancies and significant pairs per world, share and measure."""
    return (worlds.groupby(["world", "disagree_share", "measure"], dropna=False)
            .agg(tau=("tau", "mean"), tau_min=("tau", "min"), tau_max=("tau", "max"),
                 discrepancies=("discrepancies", "mean"),
                 significant_RawG=("significant_RawG", "mean"),
                 share_D_below_dmax=("share_D_below_dmax", "mean"), draws=("tau", "size"))
            .reset_index())


#: Noise of the agreement knob: sd of each rating around the item's real mean.
NOISE_GRID = (0.25, 0.5, 1.0, 2.0, 4.0)


def agreement_worlds(collection: unanimity.Collection, per_topic: list, p: float, trials: int,
                     alpha: float, seed: int, noises=NOISE_GRID) -> pd.DataFrame:
    """Alternative ratings on the real pool: ten ratings around each item's real mean.

    Each item the real assessors found relevant gets N = 10 ratings
    ``clip(round(m_i + e), 0, 2)`` with ``m_i`` its real mean rating and
    ``e ~ N(0, sigma^2)``; other items get zeros (as in Sakai's simulation).
    Only sigma varies: small sigma keeps both the real ranking signal (which
    items are good) and near-unanimous ratings; large sigma tends to Sakai's
    uniform ratings, which keep neither.  Per sigma: RawG-vs-UG tau and HSD
    discrepancies (as :func:`stc_experiment`), the share of relevant items with
    D < Dmax (the agreement statistic of :func:`stc_spread`) and the number
    of best-run pairs significant under RawG (how much ranking signal is left).
    """
    dmax = 2
    best = unanimity.best_runs(collection)
    frames = []
    for i, sigma in enumerate(noises):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 77, i]))
        sim = []
        for r in per_topic:
            mean = np.nanmean(r, axis=1)
            draw = np.clip(np.rint(mean[:, None] + rng.normal(0, sigma, (len(r), 10))), 0, dmax)
            sim.append(np.where((np.nansum(r, axis=1) > 0)[:, None], draw, 0).astype(np.int64))
        relevant = np.concatenate([r[r.sum(axis=1) > 0] for r in sim])
        agree = float((gains.rating_spread(relevant) < dmax).mean())
        frames.append(rawg_vs_ug(collection, best, sim, dmax, p, trials, alpha, seed)
                      .assign(sigma=sigma, share_D_below_dmax=agree))
    return pd.concat(frames, ignore_index=True)


def agreement_figure(worlds: pd.DataFrame, summary: pd.DataFrame):
    """Tau and RawG-significant pairs against the rating noise, with real and uniform marked."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for k, (m, part) in enumerate(worlds.groupby("measure")):
        colour = f"C{k}"
        axes[0].plot(part["sigma"], part["tau"], marker="o", ms=4, color=colour, label=m)
        axes[1].plot(part["sigma"], part["significant_RawG"], marker="o", ms=4, color=colour, label=m)
        for ax, col in ((axes[0], "tau"), (axes[1], "significant_RawG")):
            real = summary[(summary.measure == m) & (summary.ratings == "real")][col]
            uni = summary[(summary.measure == m) & (summary.ratings == "uniform")][col]
            ax.axhline(real.iloc[0], color=colour, ls="-", lw=0.6, alpha=0.6)
            ax.axhline(uni.iloc[0], color=colour, ls=":", lw=0.9)
    axes[0].set(xscale="log", xlabel="rating noise sigma around the item's real mean",
                ylabel="Kendall tau, RawG vs UG")
    axes[1].set(xscale="log", xlabel="rating noise sigma",
                ylabel="best-run pairs significant under RawG")
    axes[0].legend(fontsize=8, title="thin: real; dotted: uniform", title_fontsize=7)
    fig.suptitle("Real STC-ja pool: ratings around each item's real mean with noise sigma "
                 "(runs simulated)", fontsize=9)
    fig.tight_layout()
    return fig


def controls_figure(summary: pd.DataFrame, stc: pd.DataFrame):
    """Left: tau with RawG fixed against the share of unanimous items; right: tau by world."""
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [1.3, 1]})
    fixed = summary[summary["world"] == "fixed RawG"]
    worlds = ["real\n(agreement real,\nsignal real)", "shuffled\n(agreement real,\nsignal cut)",
              "uniform\n(no agreement,\nsignal cut)"]
    for k, (m, part) in enumerate(fixed.groupby("measure")):
        c = f"C{k}"
        a.plot(part["share_D_below_dmax"], part["tau"], marker="o", ms=4, color=c, label=m)
        real = stc[(stc.measure == m) & (stc.ratings == "real")].iloc[0]
        shuffled = summary[(summary.world == "shuffled") & (summary.measure == m)].iloc[0]
        uniform = stc[(stc.measure == m) & (stc.ratings == "uniform")].iloc[0]
        a.scatter([shuffled.share_D_below_dmax], [real.tau], marker="*", s=90, color=c, zorder=3)
        b.plot(worlds, [real.tau, shuffled.tau, uniform.tau], marker="o", color=c, label=m)
    a.set(xlabel="share of relevant items with D < Dmax (RawG fixed to the real one)",
          ylabel="Kendall tau, RawG vs UG (p = 0.2)")
    a.legend(fontsize=8, title="star: real ratings", title_fontsize=7, loc="lower right")
    b.set(ylabel="Kendall tau, RawG vs UG")
    b.tick_params(axis="x", labelsize=7)
    fig.suptitle("Real STC-ja pool, runs simulated: unanimity varied with RawG fixed (left); "
                 "real agreement with the item signal cut (shuffled, right)", fontsize=9)
    fig.tight_layout()
    return fig


def subset_summary(res: pd.DataFrame) -> pd.DataFrame:
    """Mean, min and max of tau and of the discrepancy count per measure and N."""
    return (res.groupby(["measure", "N"])
            .agg(tau=("tau", "mean"), tau_min=("tau", "min"), tau_max=("tau", "max"),
                 discrepancies=("discrepancies", "mean"),
                 discrepancies_max=("discrepancies", "max"), subsets=("tau", "size"),
                 share_D_below_dmax=("share_D_below_dmax", "mean"))
            .reset_index()
            .assign(uniform_share_D_below_dmax=lambda f: [uniform_share_below_dmax(n) for n in f["N"]]))


def subsets_figure(summary: pd.DataFrame):
    """Tau, discrepancies and unanimity against N (runs simulated: said on the figure)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    for m, part in summary.groupby("measure"):
        axes[0].errorbar(part["N"], part["tau"], marker="o", ms=4, capsize=3, label=m,
                         yerr=[part["tau"] - part["tau_min"], part["tau_max"] - part["tau"]])
        axes[1].plot(part["N"], part["discrepancies"], marker="o", ms=4, label=m)
    share = summary.groupby("N")[["share_D_below_dmax", "uniform_share_D_below_dmax"]].first()
    axes[2].plot(share.index, share.iloc[:, 0], marker="o", ms=4, color="k", label="real raters")
    axes[2].plot(share.index, share.iloc[:, 1], marker="o", ms=4, color="k", ls=":",
                 label="uniform (Sakai's simulation)")
    axes[0].set(xlabel="assessors per item N (drawn from the ten real ones)",
                ylabel="Kendall tau, RawG vs UG (p = 0.2)")
    axes[1].set(xlabel="assessors per item N", ylabel="HSD discrepancies (mean over subsets)")
    axes[2].set(xlabel="assessors per item N", ylabel="relevant items with D < Dmax", ylim=(0, 1))
    axes[0].legend(fontsize=8)
    axes[2].legend(fontsize=8)
    subsets = int(summary.loc[summary["N"] < summary["N"].max(), "subsets"].max())
    fig.suptitle(f"NTCIR-12 STC-ja: real ratings, N of 10 assessors per item ({subsets} seeded "
                 "subsets per N); runs are simulated (the real runs are not public)", fontsize=9)
    fig.tight_layout()
    return fig


def _installed(name, v):
    missing = [d for d in REQUIRED if not data.available(d, Path(v))]
    if missing:
        raise ParameterError(name, v, f"a folder holding {missing} (run `make data`)")


#: The notebook's parameters and their checks (see :mod:`evalkit.workspace.params`).
PARAMETERS = {
    **{k: unanimity.PARAMETERS[k] for k in ("p", "trials", "alpha", "seed", "replications")},
    "external_dir": _installed,
    "stc_teams": params.whole(2),
    "stc_runs": params.whole(2),
    "timeline_topics": params.pair("a list of two topic ids"),
    "subsets": params.whole(),
    "control_draws": params.whole(),
}


def validate_parameters(**values) -> None:
    """Check the notebook's parameters; raise ParameterError naming the first bad one."""
    NOTEBOOK.check(**values)


def ari_table(ari: pd.Series) -> pd.DataFrame:
    """The per-topic ARI summary of the simulated assessors on the real pool."""
    stats_ = ari_statistics(ari)
    return pd.DataFrame({"statistic": list(stats_), "ARI": list(stats_.values())})


def stc_summary(res: pd.DataFrame) -> pd.DataFrame:
    """Mean tau (with its range) and discrepancy counts per measure, real vs uniform ratings."""
    return (res.groupby(["measure", "ratings"])
            .agg(tau=("tau", "mean"), tau_min=("tau", "min"), tau_max=("tau", "max"),
                 discrepancies=("discrepancies", "mean"), significant_RawG=("significant_RawG", "mean"))
            .reset_index())


def _agreement_why(m: str, real: pd.DataFrame, uni: pd.DataFrame, worlds, controls) -> str:
    """The finding of :func:`control_worlds` and :func:`agreement_worlds` for measure ``m``."""
    parts = []
    if controls is not None:
        cs = controls[controls["measure"] == m]
        fixed, sh = cs[cs["world"] == "fixed RawG"], cs[cs["world"] == "shuffled"].iloc[0]
        parts.append(
            f"Controlled worlds separate agreement from the runs' signal: with the real agreement but "
            f"the signal cut (rating vectors shuffled among a topic's relevant items) tau falls to "
            f"{sh.tau:.3f}, below uniform's {uni.loc[m, 'tau']:.3f}, as Sakai predicts, while with RawG "
            f"fixed to the real one and only unanimity varied (share of D < Dmax "
            f"{fixed.share_D_below_dmax.min():.2f}-{fixed.share_D_below_dmax.max():.2f}) tau stays "
            f"{fixed.tau.min():.3f}-{fixed.tau.max():.3f} and discrepancies "
            f"{fixed.discrepancies.min():.1f}-{fixed.discrepancies.max():.1f} (shuffled "
            f"{sh.discrepancies:.1f}). Real ratings keep tau high because runs that track them are far "
            f"apart ({real.loc[m, 'significant_RawG']:.0f} best-run pairs significant under RawG, "
            f"against {uni.loc[m, 'significant_RawG']:.2f} with uniform and {sh.significant_RawG:.2f} "
            "with shuffled ratings), so the real-vs-uniform comparison mixes agreement with signal. "
            "See real_data/stc_controls.png.")
    if worlds is not None:
        w = worlds[worlds["measure"] == m].sort_values("sigma")
        parts.append(
            f"(Noise around each item's real mean, sigma {w.sigma.min():g}-{w.sigma.max():g}, moving both "
            f"at once: tau {w.tau.min():.3f}-{w.tau.max():.3f}, real_data/stc_agreement.png.)")
    return " ".join(parts)


def _subsets_why(by_n: pd.DataFrame, lo: int, hi: int) -> str:
    """What the N-subsampling shows about Sakai's prediction (more assessors, less UG effect)."""
    share = by_n.groupby("N")[["share_D_below_dmax", "uniform_share_D_below_dmax"]].first()
    return (f"With real, correlated raters the number of assessors barely matters: over N = {lo}..{hi} "
            f"the mean tau stays within {by_n['tau'].min():.3f}-{by_n['tau'].max():.3f} and the mean "
            f"discrepancy count within {by_n['discrepancies'].min():.2f}-"
            f"{by_n['discrepancies'].max():.2f} ({by_n.loc[by_n['N'] < hi, 'subsets'].max()} assessor "
            f"subsets per N), with no trend in N. Sakai's mechanism (D -> Dmax as N grows, so UG -> RawG) "
            f"needs independent raters: the share of relevant items with D < Dmax falls from "
            f"{share.loc[lo].iloc[0]:.2f} to {share.loc[hi].iloc[0]:.2f} for the real raters but from "
            f"{share.loc[lo].iloc[1]:.2f} to {share.loc[hi].iloc[1]:.3f} for uniform ones, so with real "
            "raters unanimity keeps mattering at N = 10 and the prediction that more assessors shrink "
            "the effect does not carry over (the runs are simulated). Shown in "
            "real_data/stc_assessors_n.png and real_data/stc_assessors_n_summary.csv; Sakai's uniform "
            "world in sakai2017/replications.png.")


def claims(spread: pd.DataFrame, summary: pd.DataFrame, facts: pd.DataFrame,
           by_n: pd.DataFrame | None = None, worlds: pd.DataFrame | None = None,
           controls: pd.DataFrame | None = None) -> pd.DataFrame:
    """What the real data says about Sakai's prediction, with verdicts."""
    real = summary[summary.ratings == "real"].set_index("measure")
    uni = summary[summary.ratings == "uniform"].set_index("measure")
    c = Claims()
    real_share, uniform_share = 1 - spread.real_share.iloc[-1], 1 - spread.uniform_share.iloc[-1]
    c.add("Real ratings are far more unanimous than uniform ones (share of D < Dmax among relevant items)",
          f"real {real_share:.3f} vs uniform {uniform_share:.3f}", real_share > uniform_share)
    for m in real.index:
        why = _agreement_why(m, real, uni, worlds, controls)
        c.add(f"{m}: real ratings move the RawG-vs-UG ranking more than uniform ones (lower tau)",
              f"tau real {real.loc[m, 'tau']:.3f} vs uniform mean {uni.loc[m, 'tau']:.3f}",
              real.loc[m, "tau"] < uni.loc[m, "tau"], why)
        c.add(f"{m}: real ratings give more HSD discrepancies than uniform ones",
              f"real {real.loc[m, 'discrepancies']:.0f} vs uniform mean {uni.loc[m, 'discrepancies']:.2f}",
              real.loc[m, "discrepancies"] > uni.loc[m, "discrepancies"], why)
    if by_n is not None:
        lo, hi = by_n["N"].min(), by_n["N"].max()
        ends = by_n[by_n["N"].isin([lo, hi])].pivot(index="measure", columns="N", values="discrepancies")
        taus = by_n[by_n["N"].isin([lo, hi])].pivot(index="measure", columns="N", values="tau")
        c.add(f"Beyond the paper: with fewer real assessors per item (N = {lo} vs {hi}) UG changes "
              "conclusions more (Sakai: more assessors, less effect)",
              "; ".join(f"{m}: tau {taus.loc[m, lo]:.3f} vs {taus.loc[m, hi]:.3f}, discrepancies "
                        f"{ends.loc[m, lo]:.1f} vs {ends.loc[m, hi]:.1f}" for m in ends.index),
              bool((taus[lo] <= taus[hi]).all() and (ends[lo] >= ends[hi]).all()),
              _subsets_why(by_n, lo, hi))
    c.add("TREC 2014 facts (55 topics, 57,985 judgments, 10,645 relevant, 193.5 per topic)",
          ", ".join(f"{v:g}" for v in facts.computed), bool((facts.computed == facts.published).all()))
    return c.frame()


NOTEBOOK = Notebook(
    name="real_data",
    paper="real_data",
    title="Real public data: TREC 2014 Microblog and NTCIR-12 STC Japanese",
    parameters=PARAMETERS,
    outputs=(
        "trec2014_facts.csv", "figure3_real_topics.png", "ari_real_pool.csv",
        "stc_spread.csv", "stc_spread.png", "stc_rawg_vs_ug.png", "stc_rawg_vs_ug.csv",
        "stc_dev_missing.csv", "stc_summary.csv", "claims.csv", "claims.md",
        "stc_assessors_n.csv", "stc_assessors_n_summary.csv", "stc_assessors_n.png",
        "stc_agreement.csv", "stc_agreement.png", "stc_controls.csv", "stc_controls_summary.csv",
        "stc_controls.png",
    ),
    quick={"trials": 200, "replications": 2, "subsets": 2, "control_draws": 1},
    needs_data=REQUIRED,
    comparisons=(
        Comparison("wang2015_ari", "real_data/trec2014_facts.csv", ("fact",),
                   {"published": "computed"}, 0.0,
                   "TREC 2014 pool facts computed from the real qrels.", joined=True),
    ),
    figures=(
        ("figure3_real_topics.png", "Figure 3 on the real TREC 2014 pool (topics 179 and 225, real "
                                    "titles and times; clusters simulated)."),
        ("stc_spread.png", "Spread D of ten real STC-ja ratings vs Sakai's uniform simulation."),
        ("stc_rawg_vs_ug.png", "RawG vs UG per STC-ja item, by spread D."),
        ("stc_assessors_n.png", "Beyond the paper: N of the ten real STC-ja assessors per item "
                                "(seeded subsets); tau and HSD discrepancies of RawG vs UG against N. "
                                "Runs simulated over the real pool."),
        ("stc_agreement.png", "Why real and uniform ratings differ: ratings drawn around each item's "
                              "real mean with noise sigma (only sigma varies); thin lines real, "
                              "dotted uniform."),
        ("stc_controls.png", "Agreement vs the runs' signal: unanimity varied with each item's real "
                             "RawG fixed (left); real agreement with the signal cut by shuffling "
                             "rating vectors among relevant items, beside real and uniform (right)."),
    ),
    expected_seconds=25,
)
