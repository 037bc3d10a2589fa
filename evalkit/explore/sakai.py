"""Sakai (EVIA 2017) explorer: move p, Dmax, N and the assessors' agreement.

:func:`compute` is the whole update (pure: numbers only).  For one draw of
ratings (:func:`evalkit.simulate.latent_ratings.simulate_agreeing_ratings`,
Sakai's independent uniform ratings at ``agreement = 0``) it returns the
RawG, D and UG (Eq. 2) of a few example items, Kendall's tau between the
RawG and UG run rankings for nG@1, P+ and nERR (Table 2) and the number of
randomised Tukey HSD discrepancies between RawG and UG (Table 3), all with
the functions of :mod:`evalkit.papers.sakai2017_unanimity_gain`.  At
``agreement = 0`` its numbers equal that notebook's for the same (Dmax, N),
seed and trials (the same rating stream).

:func:`app` is the ipywidgets interface; :func:`show` displays the app, or
(``interactive=False``) the static figure of the current values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..measures import gains
from ..papers import sakai2017_unanimity_gain as paper
from ..simulate.latent_ratings import simulate_agreeing_ratings
from ._ui import Timer, connect, figure_png, interval_bars, status_html

__all__ = ["SakaiView", "app", "compute", "figure", "show", "summary_html"]

#: HSD trials while a slider moves (the full number runs when it rests).
PREVIEW_TRIALS = 500


@dataclass(frozen=True)
class SakaiView:
    """One state of the explorer: the values it was computed for and the results."""

    values: dict
    examples: pd.DataFrame       # item, ratings, RawG, D, UG
    tau: pd.DataFrame            # measure, tau, low, high (Table 2's row for this condition)
    hsd: pd.DataFrame            # measure, discrepancies, significant_RawG, significant_UG, pairs
    mean_spread: float           # mean D over the relevant items


def compute(collection: paper.Collection, p: float = 0.2, dmax: int = 3, n: int = 5,
            agreement: float = 0.0, trials: int = 5000, alpha: float = 0.05,
            seed: int = 2017, best: np.ndarray | None = None, examples: int = 6) -> SakaiView:
    """RawG vs UG for one (p, Dmax, N, agreement): example gains, tau, HSD discrepancies."""
    grades = np.concatenate(collection.grades)
    stream = paper.ratings_stream(seed, 0, dmax, n)       # the notebook's stream for (Dmax, N)
    ratings = simulate_agreeing_ratings(grades, n, dmax, agreement, stream)
    raw, ug = gains.raw_gain(ratings), gains.unanimity_gain(ratings, dmax, p)
    cuts = np.cumsum([len(g) for g in collection.grades])[:-1]
    cond = paper.conditions_from_gains(collection, np.split(raw, cuts), np.split(ug, cuts),
                                       (dmax, n))
    tau = paper.tau_table(cond, collection.lists.runs, alpha)[["measure", "tau", "low", "high"]]
    best = paper.best_runs(collection) if best is None else best
    _, counts = paper.discrepancies(cond, collection, best, trials, alpha, seed)
    relevant = np.flatnonzero(grades > 0)
    spread = gains.rating_spread(ratings)
    pick = relevant[:examples]
    ex = pd.DataFrame({"item": [f"item {i + 1}" for i in range(len(pick))],
                       "ratings": ["".join(map(str, r)) if n <= 12 else
                                   " ".join(map(str, r[:12])) + " ..." for r in ratings[pick]],
                       "RawG": raw[pick], "D": spread[pick], "UG": ug[pick]})
    return SakaiView(dict(p=p, dmax=dmax, n=n, agreement=agreement, trials=trials),
                     ex, tau.reset_index(drop=True),
                     counts.drop(columns=["dmax", "N"]).reset_index(drop=True),
                     float(spread[relevant].mean()) if relevant.size else 0.0)


def figure(view: SakaiView):
    """Two panels: tau with its 95% CI per measure; HSD discrepancies per measure.

    The error bars are Kendall's 95% confidence interval of tau for the one
    rating draw shown (:func:`evalkit.stats.rank_correlation.kendall_tau`, the
    interval of Table 2), not a spread over draws; the panel's title says so.
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 3))
    left, right = fig.subplots(1, 2)
    t = view.tau
    x = np.arange(len(t))
    left.set_ylim(min(0.5, float(t["low"].min()) - 0.05), 1.05)
    interval_bars(left, x, t["tau"], t["low"], t["high"], 1.05, color="tab:blue")
    left.axhline(1.0, color="grey", lw=0.8, ls="--")
    left.set_xticks(x, t["measure"])
    left.set_xlabel("measure")
    left.set_ylabel("Kendall's tau, RawG vs UG")
    left.set_title("dot: tau of this one rating draw; bar: its 95% CI", fontsize=8)
    h = view.hsd
    right.bar(x, h["discrepancies"], color="tab:orange")
    right.set_xticks(x, h["measure"])
    right.set_xlabel("measure")
    right.set_ylabel(f"HSD discrepancies (of {int(h['pairs'].iloc[0])} pairs)")
    v = view.values
    fig.suptitle(f"p = {v['p']:g}, Dmax = {v['dmax']}, N = {v['n']}, agreement = "
                 f"{v['agreement']:g}, B = {v['trials']}", fontsize=10)
    fig.tight_layout()
    return fig


def summary_html(view: SakaiView) -> str:
    """The numbers as an HTML table (class ``evalkit-tau``: the browser test reads it)."""
    rows = "".join(
        f"<tr><td>{r.measure}</td><td class='tau'>{r.tau:.4f}</td>"
        f"<td>[{r.low:.3f}, {r.high:.3f}]</td><td>{h.discrepancies}</td></tr>"
        for r, h in zip(view.tau.itertuples(), view.hsd.itertuples()))
    return ("<table class='evalkit-tau'><tr><th>measure</th><th>tau (RawG vs UG)</th>"
            f"<th>95% CI</th><th>HSD discrepancies (B = {view.values['trials']})</th></tr>"
            f"{rows}</table><p>mean spread D of relevant items: {view.mean_spread:.2f}</p>")


def app(collection: paper.Collection, p: float = 0.2, dmax: int = 3, n: int = 5,
        agreement: float = 0.0, trials: int = 5000, seed: int = 2017):
    """The widget: four sliders; gains, tau and HSD redrawn on every change."""
    import ipywidgets as w

    style = {"description_width": "110px"}
    sliders = {
        "p": w.FloatSlider(value=p, min=0, max=1, step=0.05, description="p (Eq. 2)", style=style),
        "dmax": w.IntSlider(value=dmax, min=1, max=10, description="Dmax", style=style),
        "n": w.IntSlider(value=n, min=2, max=80, description="N assessors", style=style),
        "agreement": w.FloatSlider(value=agreement, min=0, max=1, step=0.05,
                                   description="agreement", style=style),
    }
    examples, numbers = w.HTML(), w.HTML()
    image, status = w.Image(format="png"), w.HTML()
    best, timer = paper.best_runs(collection), Timer()

    def update(preview: bool) -> None:
        b = min(PREVIEW_TRIALS, trials) if preview else trials
        with timer:
            view = compute(collection, **{k: s.value for k, s in sliders.items()}, trials=b,
                           seed=seed, best=best)
            examples.value = view.examples.to_html(index=False, float_format="%.2f")
            numbers.value = summary_html(view)
            image.value = figure_png(figure(view))
        status.value = status_html(timer, " (preview, full B when the slider rests)" if preview else "")

    connect(sliders, update)
    return w.VBox([w.HBox([w.VBox(list(sliders.values())), examples]), numbers, image, status])


def show(collection: paper.Collection, interactive: bool, **values):
    """Display the app, or the static figure and tables for ``values`` (no front-end)."""
    from IPython.display import HTML, Image, display

    if interactive:
        display(app(collection, **values))
        return None
    view = compute(collection, **values)
    fig = figure(view)
    display(HTML(view.examples.to_html(index=False, float_format="%.2f")),
            HTML(summary_html(view)), Image(figure_png(fig)))
    return fig
