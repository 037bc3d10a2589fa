"""The chapter's figures (matplotlib; no I/O here; save with :func:`evalkit.outputs.show_figure`).

* :func:`coverage_figure` — ``coverage.png``: coverage of the 95% intervals per method
  and interval variant against ``n``, with 2 MC errors, and PPI's width over the
  classical one;
* :func:`width_figure` — ``width_ratio.png``: per LLMJudge judge (ordered by its
  agreement with the humans), PPI's and PPI++'s interval width over the humans-only
  one at ``n`` human topics;
* :func:`pool_depth_figure` — ``pool_depth.png``: Kendall's tau against the full
  human qrels per pool depth and strategy, and the left-out runs' score shifts.

Okabe-Ito colours; legends below the axes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["coverage_figure", "width_figure", "pool_depth_figure"]

METHOD_COLOURS = {"classical": "#000000", "proxy": "#D55E00", "ppi": "#0072B2",
                  "ppi++": "#009E73"}
STRATEGY_COLOURS = {"non-relevant": "#D55E00", "condensed": "#E69F00", "filled": "#0072B2"}
#: (interval, line style, marker, x shift) of each interval variant in coverage.png.
INTERVAL_STYLES = (("normal", "--", "o", -0.6), ("t", "-", "o", 0.0),
                   ("bootstrap-t", ":", "s", 0.6))
SETTING_TITLES = {"noisy": "(a) LLM unbiased, noisy", "lenient": "(b) LLM lenient by a grade",
                  "favouring": "(c) LLM favours one run"}


def _legend_below(fig, ax, ncol: int) -> None:
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=ncol,
               frameon=False, fontsize=8)


def coverage_figure(coverage: pd.DataFrame, draws: int):
    """Top: coverage of classical, PPI and PPI++ (normal, t and bootstrap-t intervals) with 2
    MC errors (the proxy-only intervals, far below, are in the table); bottom: width over
    classical."""
    import matplotlib.pyplot as plt

    settings = list(dict.fromkeys(coverage["setting"]))
    fig, axes = plt.subplots(2, len(settings), figsize=(10, 5.6), sharex=True, sharey="row",
                             squeeze=False)
    for k, setting in enumerate(settings):
        part = coverage[coverage["setting"] == setting]
        top, bottom = axes[0, k], axes[1, k]
        for method in ("classical", "ppi", "ppi++"):
            for interval, style, marker, shift in INTERVAL_STYLES:
                row = part[(part["method"] == method) & (part["interval"] == interval)]
                if row.empty:
                    continue
                x = row["n"].to_numpy() + shift + {"classical": -2.0, "ppi": 0,
                                                   "ppi++": 2.0}[method]
                top.errorbar(x, row["coverage"], yerr=2 * row["mc_error"], ls=style,
                             marker=marker, ms=3, capsize=2, color=METHOD_COLOURS[method],
                             label=f"{method}, {interval}")
                if method != "classical":
                    bottom.plot(row["n"], row["width_ratio"], ls=style, marker=marker, ms=3,
                                color=METHOD_COLOURS[method], label=f"{method}, {interval}")
        top.axhline(0.95, color="grey", lw=0.8)
        bottom.axhline(1.0, color="grey", lw=0.8)
        top.set_title(SETTING_TITLES.get(setting, setting), fontsize=9)
        bottom.set_xlabel("human-labelled topics n (of 200)")
        bottom.set_xticks(sorted(part["n"].unique()))
    axes[0, 0].set_ylabel("coverage of the 95% interval")
    axes[1, 0].set_ylabel("width / classical width\n(same interval variant)")
    fig.suptitle(f"Coverage over {draws} draws per setting (bars: 2 Monte Carlo errors; "
                 f"grey: 0.95); the proxy-only intervals, far below, are in coverage.csv",
                 fontsize=10)
    _legend_below(fig, axes[0, 0], ncol=3)
    fig.tight_layout()
    return fig


def width_figure(widths: pd.DataFrame, n: int):
    """Per judge (best agreement at the top), PPI's and PPI++'s width over the humans-only
    width at ``n`` human topics of 25."""
    import matplotlib.pyplot as plt

    part = widths[widths["n"] == n]
    judges = list(dict.fromkeys(part["judge"]))
    alpha = part.drop_duplicates("judge").set_index("judge")["alpha_ordinal"]
    fig, ax = plt.subplots(figsize=(7.5, 8.5))
    y = np.arange(len(judges))[::-1]
    for method, marker in (("ppi", "s"), ("ppi++", "o")):
        row = part[part["method"] == method].set_index("judge").loc[judges]
        ax.plot(row["width_ratio"], y, ls="none", marker=marker, ms=5,
                color=METHOD_COLOURS[method], label=f"{method} (λ = 1)" if method == "ppi"
                else "ppi++ (power-tuned λ)")
    ax.axvline(1.0, color="grey", lw=0.8, label="humans alone (classical)")
    ax.set_yticks(y, [f"{j}  ({alpha[j]:.2f})" for j in judges], fontsize=7)
    ax.set_ylabel("LLM judge (ordinal alpha with the humans), best agreement at the top")
    ax.set_xlabel(f"mean 95% interval width / humans-only width, n = {n} of 25 topics")
    ax.set_title(f"What each LLM judge's labels are worth: {n} human topics + the LLM on the "
                 f"other {25 - n}\n(real labels, simulated runs)", fontsize=9)
    _legend_below(fig, ax, ncol=3)
    fig.tight_layout()
    return fig


def pool_depth_figure(summary: pd.DataFrame, shifts: pd.DataFrame, judge: str,
                      measure: str = "nDCG@10"):
    """Left: Kendall's tau (all runs) against the full human qrels by pool depth and
    strategy; right: each left-out run's score shift with its 95% interval."""
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.4),
                                      gridspec_kw={"width_ratios": [1, 1.6]})
    depths = sorted(summary["depth"].unique())
    strategies = list(dict.fromkeys(summary["strategy"]))
    for s in strategies:
        row = summary[summary["strategy"] == s]
        left.plot(row["depth"], row["tau"], marker="o", color=STRATEGY_COLOURS[s],
                  label={"filled": f"filled by {judge}"}.get(s, s))
    left.set(xlabel="pool depth k (half of the runs pooled)", xticks=depths,
             ylabel="Kendall's tau-b with the full-qrels leaderboard")
    left.set_title("Leaderboard (all runs)", fontsize=9)
    width = 0.8 / len(strategies)
    for k, s in enumerate(strategies):
        for d, depth in enumerate(depths):
            part = shifts[(shifts["strategy"] == s) & (shifts["depth"] == depth)]
            x = d + (k - (len(strategies) - 1) / 2) * width + np.linspace(-0.3, 0.3,
                                                                           len(part)) * width
            right.errorbar(x, part["shift"], yerr=[part["shift"] - part["ci_low"],
                                                   part["ci_high"] - part["shift"]],
                           ls="none", marker="o", ms=3, capsize=1, lw=0.8,
                           color=STRATEGY_COLOURS[s])
    right.axhline(0, color="grey", lw=0.8)
    right.set_xticks(range(len(depths)), [f"k = {d}" for d in depths])
    right.set(xlabel="pool depth", ylabel=f"left-out run's {measure} minus full-qrels {measure}")
    right.set_title("Each left-out run's shift, 95% t interval over topics", fontsize=9)
    _legend_below(fig, left, ncol=3)
    fig.tight_layout()
    return fig
