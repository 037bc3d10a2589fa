"""Wang et al. (SIGIR 2015) explorer: the alternate assessor's disagreement -> ARI, tau, swaps.

The simulated TTG world of :func:`evalkit.papers.wang2015_assessor_differences.disagreement_curve`
(latent units, runs calibrated to the TREC 2014 scores) is built once
(:class:`World`, about a second); the official assessor is fixed at the
calibrated disagreement (level 1).  :func:`compute` (pure) re-draws only the
alternate assessor's clusters at ``level`` (a multiplier of each topic's
share of re-judged tweets; 0 = no re-judging, only lumping) and returns the
mean per-topic ARI between the two assessors, Kendall's tau and rank swaps
per metric (Table 1's columns) and, for one metric, every pair of runs'
score difference under each assessor (pairs in the off-diagonal quadrants
swap: the swap scatter).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..measures import timeline
from ..papers import wang2015_assessor_differences as paper
from ..papers.wang2015_assessor_differences.fastworld import run_hits
from ..simulate import ttg as simulate
from .. import paths
from ._ui import Timer, connect, figure_png, interval_bars, status_html

__all__ = ["WangView", "World", "app", "compute", "figure", "show"]


class World:
    """Latent units, runs and the official assessor's clusters and scores (built once)."""

    def __init__(self, qrels: pd.DataFrame, seed: int = 2015, targets: pd.DataFrame | None = None):
        rng = np.random.default_rng(np.random.SeedSequence([seed, 4]))   # disagreement_curve's
        self.qrels, self.latent = simulate.ttg_pool(rng, qrels)
        if targets is None:
            targets = pd.read_csv(paths.PUBLISHED / "wang2015_ttg_official_scores.csv")
        self._targets, self._before_runs = targets, copy.deepcopy(rng.bit_generator.state)
        self.seed = seed
        self._index_runs(*run_hits(self.qrels, self.latent, targets, rng))
        self.merge_official, self.merge_alternate = simulate.TTG_DEFAULTS["merge"]
        orng = np.random.default_rng(np.random.SeedSequence([seed, 6]))
        self.official = simulate.ttg_clusters(self.latent, self.merge_official, orng, 1.0)
        self.official_scores = self._scores(self.official)
        self._by_level: dict = {}   # level -> (mean ARI, alternate scores); a few MB at most

    @property
    def runs(self) -> pd.DataFrame:
        """The runs as :func:`evalkit.simulate.ttg.ttg_runs` writes them (drawn on first use from
        the generator state the scores were drawn from; the scores need only :func:`run_hits`)."""
        if self._runs is None:
            rng = np.random.default_rng()
            rng.bit_generator.state = copy.deepcopy(self._before_runs)
            self._runs = simulate.ttg_runs(self.qrels, self.latent, self._targets, rng)
        return self._runs

    _runs = None

    def at_level(self, level: float) -> tuple[float, pd.DataFrame]:
        """Mean per-topic ARI and the runs' scores under the alternate clusters at ``level``."""
        key = round(float(level), 6)
        if key not in self._by_level:
            alt = self.alternate(level)
            self._by_level[key] = (float(paper.topic_ari(self.official, alt).mean()),
                                   self._scores(alt))
        return self._by_level[key]

    def _index_runs(self, names, returned, cell, tweet) -> None:
        """Once: every relevant returned tweet's row in the qrels and its (run, topic) cell, and the
        tweets returned per cell, from :func:`run_hits` (the random calls of ``ttg_runs``, in tweet
        positions: the tests check both give the same scores); runs in name order."""
        q = self.qrels
        self.topics = np.array(sorted(self.latent), dtype=object)
        n_t = self.topics.size
        order = np.argsort(names, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        self.run_names = names[order]
        self.cell = rank[cell // n_t] * n_t + cell % n_t
        self.returned = returned[order].ravel()
        docs = np.concatenate([self.latent[t]["docs"] for t in self.topics])
        topic = np.repeat(self.topics, [self.latent[t]["docs"].size for t in self.topics])
        self.row = timeline.pair_positions(q["topic"], q["doc"], topic, docs)[tweet]
        self.row_of = {k: i for i, k in enumerate(zip(q["topic"].to_numpy(object),
                                                      q["doc"].astype(str).to_numpy(object)))}
        self.grades = q["grade"].to_numpy()

    def _scores(self, clusters: dict) -> pd.DataFrame:
        """Per-run mean scores under ``clusters``: :func:`evalkit.measures.timeline.score_runs`
        and ``run_means`` with the returned tweets looked up once (:meth:`_index_runs`);
        the tests check the two agree."""
        n_t, n_r = self.topics.size, self.run_names.size
        gid_of_row = np.full(len(self.grades), -1)
        g_topic, g_weight, g = [], [], 0
        for t_i, topic in enumerate(self.topics):
            for cluster in clusters.get(topic, []):
                rows = [self.row_of.get((topic, str(d)), -1) for d in cluster]
                known = [i for i in rows if i >= 0]
                gid_of_row[known] = g
                g_topic.append(t_i)
                g_weight.append(self.grades[known].sum())
                g += 1
        g_topic, g_weight = np.array(g_topic, dtype=np.int64), np.array(g_weight, dtype=float)
        gid = np.where(self.row >= 0, gid_of_row[self.row], -1)
        found = gid >= 0
        combos = np.unique(self.cell[found].astype(np.int64) * g + gid[found])
        hit_cell, hit_g = combos // max(g, 1), combos % max(g, 1)
        hits = np.bincount(hit_cell, minlength=n_r * n_t).reshape(n_r, n_t)
        hit_w = np.bincount(hit_cell, weights=g_weight[hit_g], minlength=n_r * n_t).reshape(n_r, n_t)
        returned = self.returned.reshape(n_r, n_t)
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = np.where(returned > 0, hits / np.maximum(returned, 1), 0.0)
            recall = hits / np.bincount(g_topic, minlength=n_t)
            weighted = hit_w / np.bincount(g_topic, weights=g_weight, minlength=n_t)
            values = {"precision": precision, "recall": recall, "weighted_recall": weighted,
                      "f1": timeline.f1_score(precision, recall),
                      "weighted_f1": timeline.f1_score(precision, weighted)}
            means = {m: np.nanmean(v, axis=1) for m, v in values.items()}
        out = pd.DataFrame(means, index=pd.Index(self.run_names, name="run"))[list(timeline.METRICS)]
        out.columns.name = "metric"
        return out

    def alternate(self, level: float) -> dict:
        """The alternate assessor's clusters at ``level`` (one stream per level)."""
        rng = np.random.default_rng(np.random.SeedSequence([self.seed, 7, int(round(level * 1000))]))
        return simulate.ttg_clusters(self.latent, self.merge_alternate, rng, level)


@dataclass(frozen=True)
class WangView:
    values: dict
    mean_ari: float
    stability: pd.DataFrame     # metric, rank_swaps, pairs, tau, low, high
    pairs: pd.DataFrame         # d_official, d_alternate, swapped (the scatter's metric)


def compute(world: World, level: float = 1.0, metric: str = "weighted_f1",
            alpha: float = 0.05) -> WangView:
    """ARI, tau and swaps between the official and an alternate assessor at ``level``."""
    if metric not in timeline.METRICS:
        raise ValueError(f"metric {metric!r}: choose one of {', '.join(timeline.METRICS)}")
    ari, s_alt = world.at_level(level)
    s_off = world.official_scores
    table = paper.stability(s_off, s_alt, alpha)
    x, y = s_off[metric].to_numpy(), s_alt.loc[s_off.index, metric].to_numpy()
    i, j = np.triu_indices(len(x), 1)
    dx, dy = x[i] - x[j], y[i] - y[j]
    pairs = pd.DataFrame({"d_official": dx, "d_alternate": dy, "swapped": dx * dy < 0})
    return WangView(dict(level=level, metric=metric), ari, table, pairs)


def figure(view: WangView):
    """Left: tau per metric with CI.  Right: the swap scatter of the chosen metric."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 3.4))
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.1]})
    t = view.stability
    x = np.arange(len(t))
    left.set_ylim(min(0.6, float(t["low"].min()) - 0.05), 1.02)
    interval_bars(left, x, t["tau"], t["low"], t["high"], 1.02)
    left.set_xticks(x, [m.replace("weighted_", "w. ") for m in t["metric"]], fontsize=8)
    left.set_xlabel("TTG metric")
    left.set_ylabel("Kendall's tau, official vs alternate")
    left.set_title("bars: 95% interval of tau (cut at 1 where marked)", fontsize=8)
    p = view.pairs
    right.scatter(p.loc[~p.swapped, "d_official"], p.loc[~p.swapped, "d_alternate"], s=4,
                  color="tab:grey", alpha=0.4, label="same order", rasterized=True)
    right.scatter(p.loc[p.swapped, "d_official"], p.loc[p.swapped, "d_alternate"], s=8,
                  color="tab:red", label=f"swapped ({int(p.swapped.sum())})")
    right.axhline(0, color="black", lw=0.6)
    right.axvline(0, color="black", lw=0.6)
    right.set_xlabel(f"score difference of a run pair, official ({view.values['metric']})")
    right.set_title("each dot a pair of runs; red: the two assessors order it differently", fontsize=8)
    right.set_ylabel("score difference, alternate")
    right.legend(loc="upper left", frameon=False, fontsize=8)
    fig.suptitle(f"alternate disagreement level {view.values['level']:g}: mean ARI "
                 f"{view.mean_ari:.3f}", fontsize=10)
    fig.tight_layout()
    return fig


def summary_html(view: WangView) -> str:
    table = view.stability[["metric", "rank_swaps", "pairs", "tau"]].to_html(
        index=False, float_format="%.3f", classes="evalkit-tau")
    return f"<p>mean per-topic ARI: <b class='ari'>{view.mean_ari:.3f}</b></p>{table}"


def app(world: World, level: float = 1.0, metric: str = "weighted_f1"):
    """The widget: the disagreement level and the scatter's metric."""
    import ipywidgets as w

    style = {"description_width": "150px"}
    controls = {"level": w.FloatSlider(value=level, min=0, max=3, step=0.1, style=style,
                                       description="alternate disagreement",
                                       continuous_update=False),
                "metric": w.Dropdown(options=list(timeline.METRICS), value=metric,
                                     description="scatter metric", style=style)}
    numbers, image, status, timer = w.HTML(), w.Image(format="png"), w.HTML(), Timer()

    def update(preview: bool) -> None:
        with timer:
            view = compute(world, **{k: c.value for k, c in controls.items()})
            numbers.value = summary_html(view)
            image.value = figure_png(figure(view))
        status.value = status_html(timer)

    connect(controls, update, debounce=False)   # one full update on release (about 0.5 s: no preview)
    return w.VBox([w.HBox([w.VBox(list(controls.values())), numbers]), image, status])


def show(world: World, interactive: bool, **values):
    """Display the app, or the static figure and table for ``values`` (no front-end)."""
    from IPython.display import HTML, Image, display

    if interactive:
        display(app(world, **values))
        return None
    view = compute(world, **values)
    fig = figure(view)
    display(HTML(summary_html(view)), Image(figure_png(fig)))
    return fig
