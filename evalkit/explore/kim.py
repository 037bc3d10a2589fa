"""Kim, Zhai & Han (ECIR 2010) explorer: noise ratio and FreSPA's parameters -> ED.

:func:`compute` (pure) returns the evaluation discriminativeness (ED, §5.2)
of the seven methods (AC, WCA, RBA with Kendall's tau and Spearman's rho,
and FreSPA) on the judgment sets with ``round(n r)`` random orderings added
(:func:`evalkit.papers.kim2010_ordering_aggregation.noisy_sets`, the
notebook's noise streams), averaged over ``draws`` noise draws.  The
per-set engines of :mod:`evalkit.measures.discriminativeness` are cached
per (noise ratio, draw), and so are the six correlation methods' EDs: moving
only a FreSPA parameter re-scores only FreSPA.  Values equal :func:`evalkit.measures.discriminativeness.discriminativeness`
on the same data (tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from ..measures import aggregation
from ..measures import discriminativeness as edm
from ..papers import kim2010_ordering_aggregation as paper
from ._ui import Timer, connect, figure_png, status_html

__all__ = ["Engines", "KimView", "MIN_DRAWS_FOR_BARS", "app", "compute", "figure", "published_row", "show"]


def published_row(noise_ratio: float) -> dict | None:
    """The paper's Table 1 row at ``noise_ratio`` (``data/published/kim2010_table1.csv``), if any."""
    from ..workspace import published

    table = published.load("kim2010_table1")
    for _, row in table.iterrows():
        try:
            if float(row["noise_ratio"]) == float(noise_ratio):
                return {m: float(row[m]) for m in edm.METHODS}
        except ValueError:       # the Max-Min and % Degradation rows
            continue
    return None


class Engines:
    """The judgment sets and a cache of per-set engines for each (noise ratio, draw)."""

    def __init__(self, sets: dict, seed: int = 2010):
        self.sets, self.seed = dict(sets), seed
        self._get = lru_cache(maxsize=64)(self._build)
        self._corr = lru_cache(maxsize=64)(self._correlations)

    def _build(self, ratio: float, draw: int):
        data = paper.noisy_sets(self.sets, ratio, self.seed, draw)
        return [edm.SetEngine(aggregation.check_judgments(v, f"set {k!r}"), compiled=False)
                for k, v in data.items()]   # numpy: small sets, no numba import in the explorer

    def get(self, ratio: float, draw: int):
        return self._get(float(ratio), int(draw))

    def _correlations(self, ratio: float, draw: int) -> dict:
        out = {}
        for m in edm.METHODS[:-1]:
            kind, corr = m.split("-")
            corr = "kendall" if corr == "tau" else "spearman"
            out[m] = float(np.mean([e.correlation_ed(corr, kind) for e in self.get(ratio, draw)]))
        return out

    def warm(self, ratio: float, draw: int) -> None:
        """Build everything a visit to (ratio, draw) needs: engines, correlation EDs, FreSPA's
        subset tables (the app does this for every slider position while the kernel is idle)."""
        self.correlations(ratio, draw)
        for engine in self.get(ratio, draw):
            if engine.k <= edm.FAST_MAX_ITEMS:
                engine._subset_tables()

    def correlations(self, ratio: float, draw: int) -> dict:
        """ED of the six correlation methods (they do not depend on FreSPA's parameters)."""
        return self._corr(float(ratio), int(draw))


@dataclass(frozen=True)
class KimView:
    values: dict
    ed: pd.DataFrame        # method, ED (mean over draws), sd (over draws)


def compute(engines: Engines, noise_ratio: float = 0.5, draws: int = 2, min_sup: float = 0.75,
            w_len: float = 1.0, w_sup: float = 1.0, max_len_ratio: float = 1.0) -> KimView:
    """ED of the seven methods at noise ``noise_ratio`` with FreSPA's parameters given.

    ``max_len_ratio`` sets maxLen = max(2, round(ratio k)) per set (Table 3's
    convention).  With ``noise_ratio = 0`` there is one draw (no noise).
    """
    params = dict(min_sup=min_sup, w_len=w_len, w_sup=w_sup)
    per_draw = []
    for d in range(1 if noise_ratio == 0 else draws):
        sets = engines.get(noise_ratio, d)
        row = dict(engines.correlations(noise_ratio, d))
        row["frespa"] = np.mean([e.frespa_ed([edm.frespa_params(
            **params, max_len=paper.length_from_ratio(max_len_ratio)(e.k))])[0] for e in sets])
        per_draw.append(row)
    frame = pd.DataFrame(per_draw)[list(edm.METHODS)]
    ed = pd.DataFrame({"method": list(edm.METHODS), "ED": frame.mean().to_numpy(),
                       "sd": frame.std(ddof=1).fillna(0.0).to_numpy() if len(frame) > 1
                       else np.zeros(len(edm.METHODS))})
    return KimView(dict(noise_ratio=noise_ratio, draws=len(per_draw), min_sup=min_sup,
                        w_len=w_len, w_sup=w_sup, max_len_ratio=max_len_ratio), ed)


#: Fewest noise draws for which the figure shows error bars (sd over fewer draws says little).
MIN_DRAWS_FOR_BARS = 5


def figure(view: KimView):
    """Bars of ED per method: the mean over the noise draws on the committed judgments, with
    error bars of +-1 sd over those draws (only with at least :data:`MIN_DRAWS_FOR_BARS`
    draws); the paper's values at this r as hollow markers."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.5, 3.3))
    ax = fig.subplots()
    x = np.arange(len(view.ed))
    colours = ["tab:grey"] * 2 + ["tab:blue"] * 2 + ["tab:green"] * 2 + ["tab:red"]
    n = view.values["draws"]
    bars = n >= MIN_DRAWS_FOR_BARS
    ax.bar(x, view.ed["ED"], yerr=view.ed["sd"] if bars else None, color=colours, capsize=3)
    paper_row = published_row(view.values["noise_ratio"])
    if paper_row:
        ax.plot(x, [paper_row[m] for m in view.ed["method"]], "o", mfc="none", color="black",
                label="the paper's Table 1 at this r")
    for xi, v in zip(x, view.ed["ED"]):
        ax.text(xi, 0.02, f"{v:.3f}", ha="center", va="bottom", fontsize=8, color="white")
    ax.set_xticks(x, view.ed["method"])
    ax.set_xlabel("aggregation method")
    ax.set_ylim(0, 1)
    ax.set_ylabel("ED (leave-one-out)")
    v = view.values
    spread = (f"error bars: +-1 sd over the {n} noise draws" if bars else
              "no noise: one data set" if v["noise_ratio"] == 0 else
              f"no error bars: {n} noise draw{'s' if n > 1 else ''} (fewer than {MIN_DRAWS_FOR_BARS})")
    ax.set_title(f"noise r = {v['noise_ratio']:g}: mean over {n} noise draw{'s' if n > 1 else ''} on the "
                 f"committed judgments; {spread}\nFreSPA minSup = {v['min_sup']:g}, wLen = {v['w_len']:g}, "
                 f"wSup = {v['w_sup']:g}, maxLen/k = {v['max_len_ratio']:g}", fontsize=9)
    if paper_row:
        ax.legend(loc="upper left", frameon=False, fontsize=8)
    fig.tight_layout()
    return fig


def app(engines: Engines, noise_ratio: float = 0.5, draws: int = 2, **frespa):
    """The widget: noise ratio and four FreSPA parameters; ED bars redrawn on every change."""
    import ipywidgets as w

    style = {"description_width": "110px"}
    start = dict(min_sup=0.75, w_len=1.0, w_sup=1.0, max_len_ratio=1.0) | frespa
    sliders = {
        "noise_ratio": w.FloatSlider(value=noise_ratio, min=0, max=1, step=0.25,
                                     description="noise ratio r", style=style),
        "min_sup": w.FloatSlider(value=start["min_sup"], min=0, max=1, step=0.05,
                                 description="FreSPA minSup", style=style),
        "w_len": w.FloatSlider(value=start["w_len"], min=0, max=20, step=0.25,
                               description="FreSPA wLen", style=style),
        "w_sup": w.FloatSlider(value=start["w_sup"], min=0, max=20, step=0.25,
                               description="FreSPA wSup", style=style),
        "max_len_ratio": w.FloatSlider(value=start["max_len_ratio"], min=0, max=1, step=0.25,
                                       description="maxLen / k", style=style),
    }
    image, table, status, timer = w.Image(format="png"), w.HTML(), w.HTML(), Timer()

    def update(preview: bool) -> None:
        with timer:
            view = compute(engines, draws=1 if preview else draws,
                           **{k: s.value for k, s in sliders.items()})
            table.value = view.ed.to_html(index=False, float_format="%.3f", classes="evalkit-ed")
            image.value = figure_png(figure(view))
        status.value = status_html(timer, " (one noise draw while moving)" if preview else "")

    connect(sliders, update)
    _warm_when_idle(engines, sliders["noise_ratio"], draws)
    return w.VBox([w.HBox([w.VBox(list(sliders.values())), table]), image, status])


def _warm_when_idle(engines: Engines, slider, draws: int) -> None:
    """On the kernel's event loop, prepare every other noise ratio one draw at a time.

    Each step takes a few tenths of a second; a slider event arriving meanwhile
    waits for the step to finish.  Without a running loop nothing happens.
    """
    import asyncio

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    steps = np.arange(slider.min, slider.max + slider.step / 2, slider.step)
    pending = [(float(r), d) for r in steps for d in range(draws) if r > 0]

    def step() -> None:
        if pending:
            engines.warm(*pending.pop(0))
            loop.call_later(0.05, step)

    loop.call_later(0.5, step)


def show(engines: Engines, interactive: bool, **values):
    """Display the app, or the static figure and table for ``values`` (no front-end)."""
    from IPython.display import HTML, Image, display

    if interactive:
        display(app(engines, **values))
        return None
    view = compute(engines, **values)
    fig = figure(view)
    display(HTML(view.ed.to_html(index=False, float_format="%.3f")), Image(figure_png(fig)))
    return fig
