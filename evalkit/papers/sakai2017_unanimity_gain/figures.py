"""The figures of the Sakai (EVIA 2017) notebook (matplotlib/seaborn; no I/O here).

* :func:`tau_grid` — Table 2 as a figure: tau with its interval per
  measure, N and Dmax in the committed world, the paper's values and
  intervals beside (``table2_tau_grid``).
* :func:`replication_distributions` — the upper 95% limits of tau and the
  discrepancy counts over the independent worlds, the paper's values beside
  (``replications``).
* :func:`es_figure` — ES of borderline pairs against the number of topics
  (``es_denominator``).
* :func:`es_reading_figure` — what Table 3's printed |d|/ES is: its spread
  within a condition and |d| / HSD border under both readings
  (``es_published_denominator``).
* :func:`run_spread_figure` — the run-spread worlds (``run_spread_worlds``).

Save them with :func:`evalkit.outputs.save_figure`, which strips
dates so the same data gives the same bytes.  matplotlib and seaborn are
imported on use: importing the paper package stays cheap.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...simulate.stc import STC_DEFAULTS
from .tables import PUBLISHED_D

__all__ = ["tau_grid", "replication_distributions", "es_figure", "es_reading_figure",
           "run_spread_figure"]


def _slots(n_dmax: int, series: int = 2, width: float = 0.84):
    """x offsets of ``n_dmax`` x ``series`` markers side by side within one N group."""
    step = width / (n_dmax * series)
    return (np.arange(n_dmax * series) - (n_dmax * series - 1) / 2) * step, step


def tau_grid(reproduced: pd.DataFrame, published: pd.DataFrame | None = None,
             world: str = "the committed world (draw 0)"):
    """Kendall tau (RawG vs UG) with its 95% interval per measure, N on x, one colour per Dmax.

    Filled markers: ``reproduced`` (one world, named by ``world``); hollow
    markers with dashed bars beside each: the paper's tau and interval.  The
    intervals are unclipped (the HWC interval the paper prints, upper limits
    above 1).
    """
    import matplotlib.pyplot as plt
    import seaborn as sns  # imported on use: it costs a kernel ~0.7 s

    measures = list(dict.fromkeys(reproduced["measure"]))
    dmaxes = sorted(reproduced["dmax"].unique())
    ns = sorted(reproduced["N"].unique())
    colours = dict(zip(dmaxes, sns.color_palette("colorblind", len(dmaxes))))
    offsets, _ = _slots(len(dmaxes), 2 if published is not None else 1)
    fig, axes = plt.subplots(1, len(measures), figsize=(4.4 * len(measures), 4.0),
                             sharey=True, squeeze=False)
    for ax, m in zip(axes[0], measures):
        for j, d in enumerate(dmaxes):
            series = [("reproduced", reproduced, "o", "-")]
            if published is not None:
                series.append(("paper", published, "o", "--"))
            for s_i, (who, frame, marker, ls) in enumerate(series):
                sub = frame[(frame.measure == m) & (frame.dmax == d) & frame.N.isin(ns)].set_index("N")
                x = np.array([ns.index(n) for n in sub.index]) + offsets[j * len(series) + s_i]
                bars = ax.errorbar(x, sub.tau, yerr=[sub.tau - sub.low, sub.high - sub.tau],
                                   fmt=marker, color=colours[d], capsize=2.5, ms=5,
                                   mfc=colours[d] if who == "reproduced" else "white",
                                   label=f"Dmax = {d}, " + (world if who == "reproduced" else
                                                            "paper (its one draw)"))
                bars[-1][0].set_linestyle(ls)
        ax.axhline(1.0, color="grey", lw=0.8, ls=":")
        ax.set_xticks(range(len(ns)), [str(n) for n in ns])
        ax.set_xlabel("N (assessors per item)")
        ax.set_title(f"Mean {m}")
    axes[0][0].set_ylabel("Kendall's tau, RawG vs UG (95% CI)")
    handles, labels = axes[0][-1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 3), frameon=False,
               fontsize=8, bbox_to_anchor=(0.5, -0.02))
    fig.suptitle(f"Table 2: tau with its 95% interval, {world}: filled markers, solid bars; the "
                 "paper: hollow, dashed (other worlds: replications.png)", fontsize=9)
    fig.tight_layout(rect=(0, 0.11, 1, 1))
    return fig


def _boxes(ax, frame: pd.DataFrame, col: str, ns, dmaxes, colours, paper=None):
    """Boxes of ``col`` over draws per (N, Dmax), the paper's value as a black diamond beside each."""
    offsets, step = _slots(len(dmaxes), 1, 0.8)
    for j, d in enumerate(dmaxes):
        sub = frame[frame.dmax == d]
        data = [sub.loc[sub.N == n, col].to_numpy() for n in ns]
        pos = np.arange(len(ns)) + offsets[j]
        ax.boxplot(data, positions=pos, widths=step * 0.8, patch_artist=True, manage_ticks=False,
                   boxprops={"facecolor": colours[d], "linewidth": 0.8},
                   medianprops={"color": "k", "linewidth": 1},
                   whiskerprops={"linewidth": 0.8}, capprops={"linewidth": 0.8},
                   flierprops={"marker": "o", "markersize": 2})
        if paper is not None:
            pub = paper[paper.dmax == d].set_index("N").reindex(ns)
            ax.plot(pos, pub[col].to_numpy(), "D", color="k", ms=3.5, mfc="white", zorder=4)
    ax.set_xticks(range(len(ns)), [str(n) for n in ns])
    ax.set_xlim(-0.6, len(ns) - 0.4)


def replication_distributions(reps: pd.DataFrame, published_t2: pd.DataFrame | None = None,
                              published_counts: pd.DataFrame | None = None):
    """Box plots over the independent worlds: the upper 95% limit of tau (top; the Table 2 claim
    is about it) and the number of discrepant pairs (bottom), the paper's values beside.

    Boxes span the quartiles over draws, whiskers reach the furthest draw within 1.5 IQR,
    dots are the draws beyond; counts get whole-number ticks.  ``published_t2`` (columns
    measure, dmax, N, high) and ``published_counts`` (measure, dmax, N, discrepancies; absent =
    0) draw the paper's one draw as hollow diamonds.
    """
    import matplotlib.pyplot as plt
    import seaborn as sns  # imported on use: it costs a kernel ~0.7 s
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    measures = list(dict.fromkeys(reps["measure"]))
    dmaxes = sorted(reps["dmax"].unique())
    ns = sorted(reps["N"].unique())
    colours = dict(zip(dmaxes, sns.color_palette("colorblind", len(dmaxes))))
    draws = reps.replication.nunique()
    keys = ["measure", "dmax", "N"]
    counts = None
    if published_counts is not None:
        grid = reps[reps.replication == reps.replication.min()][keys]
        counts = grid.merge(published_counts[keys + ["discrepancies"]], how="left", on=keys)
        counts["discrepancies"] = counts["discrepancies"].fillna(0)
    fig, axes = plt.subplots(2, len(measures), figsize=(4.4 * len(measures), 6.8),
                             sharey="row", squeeze=False)
    for j, m in enumerate(measures):
        sub = reps[reps.measure == m]
        for i, (col, paper) in enumerate((("high", published_t2), ("discrepancies", counts))):
            ax = axes[i][j]
            _boxes(ax, sub, col, ns, dmaxes, colours,
                   None if paper is None else paper[paper.measure == m])
            ax.set_xlabel("N (assessors per item)")
            if i == 0:
                ax.set_title(f"{m}: upper 95% limit of tau over {draws} worlds", fontsize=9)
                ax.axhline(1.0, color="grey", lw=0.8, ls="--")
                ax.set_ylabel("upper 95% limit of tau, RawG vs UG")
            else:
                ax.set_title(f"{m}: discrepant pairs over {draws} worlds", fontsize=9)
                ax.set_ylabel("number of discrepant pairs (of 120)")
                ax.set_ylim(-0.5, max(int(reps[col].max()), 1) + 0.5)
                ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    handles = [Patch(facecolor=colours[d], edgecolor="k", lw=0.8, label=f"Dmax = {d}, over worlds")
               for d in dmaxes]
    if published_t2 is not None or counts is not None:
        handles.append(Line2D([], [], marker="D", ls="", color="k", mfc="white", ms=4,
                              label="the paper (its one draw)"))
    handles.append(Line2D([], [], color="grey", lw=0.8, ls="--",
                          label="upper limit 1 (the claim: every limit at or above)"))
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), frameon=False, fontsize=8,
               bbox_to_anchor=(0.5, -0.01))
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def es_figure(summary: pd.DataFrame, paper_rows: pd.DataFrame | None = None):
    """ES = |d|/sqrt(V_E) of borderline pairs against n, with q / sqrt(n).

    ``paper_rows`` (:func:`~.es_reading.es_published_denominator`) adds Table 3's
    pairs at n = 100 as §5 defines their ES, |d| / sqrt(V_E) with V_E = |d|/ES
    (the variance reading): sqrt(|d| ES).
    """
    import matplotlib.pyplot as plt
    import seaborn as sns  # imported on use
    from matplotlib.ticker import NullFormatter, ScalarFormatter

    fig, ax = plt.subplots(figsize=(6.5, 4.6))
    curve = summary.groupby("topics")["q_over_root_n"].first()
    ax.plot(curve.index, curve.values, color="k", lw=1, label="q / sqrt(n) (HSD border)")
    colours = sns.color_palette("colorblind", summary["measure"].nunique())
    markers = ("o", "s", "^", "D")
    for k, (m, part) in enumerate(summary.groupby("measure")):
        ax.scatter(part["topics"], part["es_median"], color=colours[k], marker=markers[k % 4],
                   s=24, zorder=3, label=f"{m}: median ES of pairs with p near 0.05")
    if paper_rows is not None and len(paper_rows):
        es = np.sqrt(paper_rows["d"] * paper_rows["es"])
        med = float(es.median())
        ax.errorbar([100.0], [med], yerr=[[med - es.min()], [es.max() - med]], fmt="D", ms=9,
                    mfc="none", mew=1.5, color="tab:red", capsize=4, zorder=4,
                    label=f"Table 3's {len(es)} values, V_E = |d|/ES: median, range (at n = 100)")
    ax.set(xscale="log", yscale="log", xlabel="topics n (random subsets of the simulated collection)",
           ylabel="ES_HSD = |d| / sqrt(V_E)")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(ScalarFormatter())
        axis.set_minor_formatter(NullFormatter())
    ax.set_yticks([0.5, 1, 2])
    ax.set_xticks([5, 10, 25, 50, 100])
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
    ax.set_title("Borderline pairs: ES ~ q/sqrt(n), whatever the measure", fontsize=9)
    fig.tight_layout()
    return fig


def es_reading_figure(frame: pd.DataFrame, spread: pd.DataFrame):
    """Table 3's implied denominator |d|/ES: its spread within each condition (left) and where
    its pairs sit against the HSD border under each reading (middle, right).

    Left: per condition with two or more printed pairs (``spread``,
    :func:`~.es_reading.denominator_spread`), the relative spread (max - min) / mean of
    |d|/ES beside the largest spread the printing precision allows for one shared value
    (max_i (D_i - lower_i) + max_j (upper_j - D_j), over the mean); log scale.  Middle:
    the distribution of ``d_over_border`` over the 48 printed values (``frame``,
    :func:`~.es_reading.es_published_denominator`; the variance reading), bins of width 0.02,
    the values printed with p >= 0.05 (which on the border sit at or below 1) hatched on top.
    Right: the same under the standard-deviation reading, bins of width 0.2.
    """
    import matplotlib.pyplot as plt
    import seaborn as sns  # imported on use
    from matplotlib.ticker import MaxNLocator

    from .es_reading import D_HALF_UNIT, ES_HALF_UNIT, sd_reading_d_over_border

    blue, orange = sns.color_palette("colorblind", 2)
    fig, (a, b, c) = plt.subplots(1, 3, figsize=(14, 4.9),
                                  gridspec_kw={"width_ratios": [1.25, 1, 1]})
    labels = [f"{r.measure} Dmax {r.dmax} N {r.assessors} {r.gain}" for r in spread.itertuples()]
    y = np.arange(len(spread))[::-1]
    keys = ["measure", "dmax", "assessors", "gain"]
    allowed = []
    for r in spread.itertuples():
        rows = frame[(frame[keys] == pd.Series(r._asdict())[keys].to_numpy()).all(axis=1)]
        lo = (rows.d - D_HALF_UNIT) / (rows.es + ES_HALF_UNIT)
        hi = (rows.d + D_HALF_UNIT) / (rows.es - ES_HALF_UNIT)
        den = rows.implied_denominator
        allowed.append(((den - lo).max() + (hi - den).max()) / den.mean())
    a.barh(y, allowed, color="0.85", height=0.7,
           label="largest spread the printed digits allow for one value")
    ok = spread["within_printing"].to_numpy()
    a.scatter(spread["relative_spread"][ok], y[ok], color=blue, zorder=3, s=22,
              label="observed, within that")
    a.scatter(spread["relative_spread"][~ok], y[~ok], color=orange, marker="X", zorder=3, s=40,
              label="observed, beyond it (a misprint or another denominator)")
    a.set_xscale("log")
    a.set_yticks(y, labels, fontsize=7)
    a.set_xlabel("relative spread of |d|/ES, (max - min) / mean")
    a.set_ylabel("condition with 2-3 printed pairs")
    a.set_title("|d|/ES: one number per condition", fontsize=9)
    var, sd = frame["d_over_border"], sd_reading_d_over_border(frame)
    for ax, values, width, colour, name in ((b, var, 0.02, blue, "variance: V_E = |d|/ES"),
                                            (c, sd, 0.2, orange,
                                             "standard deviation: sqrt(V_E) = |d|/ES")):
        lo = np.floor(min(values.min(), 1.0) / width) * width - width
        hi = np.ceil(values.max() / width) * width + width
        bins = np.arange(lo, hi + width / 2, width)
        late = (frame["p_value"] >= 0.05).to_numpy()
        below, _ = np.histogram(values[~late], bins=bins)
        above, _ = np.histogram(values[late], bins=bins)
        ax.bar(bins[:-1], below, width=width, align="edge", color=colour, edgecolor="k", lw=0.5,
               label=f"printed with p < 0.05 ({int((~late).sum())} values)")
        ax.bar(bins[:-1], above, bottom=below, width=width, align="edge", color="white",
               edgecolor=colour, hatch="///", lw=0.5,
               label=f"printed with p >= 0.05 ({int(late.sum())}): on the border, at or below 1")
        ax.axvline(1.0, color="k", ls="--", lw=0.8, label="on the HSD border (p = 0.05)")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("|d| / HSD border q sqrt(V_E/100)")
        ax.set_ylabel(f"number of printed (pair, gain) values (of {len(values)})")
        ax.set_title(f"Reading {name}", fontsize=9)
    for ax in (a, b, c):
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.15), frameon=False)
    fig.suptitle(f"Table 3's {len(var)} printed values (p {frame.p_value.min():.3f}-"
                 f"{frame.p_value.max():.3f}): read as the residual variance, every |d| lies "
                 f"{var.min() - 1:.0%}-{var.max() - 1:.0%} above the HSD border, those printed with "
                 f"p >= 0.05 too (consistent, not exact);\nread as a standard deviation, "
                 f"{sd.min():.1f}-{sd.max():.1f} times it", fontsize=10)
    fig.tight_layout()
    return fig


def run_spread_figure(worlds: pd.DataFrame, summary: pd.DataFrame | None = None):
    """Upper limits reaching 1 per collection and their mean with a 95% t interval (left), and
    the HSD border |d| (the calibration target, right), against run_spread."""
    import matplotlib.pyplot as plt
    import seaborn as sns  # imported on use
    from matplotlib.ticker import MaxNLocator

    from .run_spread import run_spread_summary

    summary = run_spread_summary(worlds) if summary is None else summary
    total = worlds["conditions"].max()
    grey, mean_c, paper_c = "0.55", sns.color_palette("colorblind")[0], "k"
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4.4))
    spreads = sorted(worlds["run_spread"].unique())
    step = min(np.diff(spreads)) if len(spreads) > 1 else 0.1
    rng = np.random.default_rng(0)          # jitter only: a fixed seed, the same bytes every run
    jitter = rng.uniform(-0.06, 0.06, len(worlds)) * step
    a.scatter(worlds["run_spread"] + jitter, worlds["upper_at_least_1"], s=12, color=grey,
              alpha=0.7, label="one collection (seed), jittered")
    high = np.minimum(summary["high"], total)            # a count cannot exceed the total
    clipped = summary["high"] > total
    yerr = np.vstack([summary["mean"] - summary["low"], high - summary["mean"]])
    a.errorbar(summary["run_spread"], summary["mean"], yerr=np.where(np.isfinite(yerr), yerr, 0),
               fmt="o-", color=mean_c, capsize=3, label="mean, 95% t interval over seeds")
    if clipped.any():
        a.scatter(summary["run_spread"][clipped], [total + 0.25] * int(clipped.sum()),
                  marker="^", s=22, color=mean_c, label=f"interval clipped at {total}")
    a.axhline(total, ls="--", color=paper_c, lw=0.8, label=f"paper: all {total} conditions")
    a.set_ylim(min(worlds["upper_at_least_1"].min(), summary["low"].min()) - 0.5, total + 0.6)
    a.yaxis.set_major_locator(MaxNLocator(integer=True))
    a.set(xlabel="run_spread (sd of run skill within a team)",
          ylabel=f"number of conditions, upper limit >= 1 (of {total})")
    b.scatter(worlds["run_spread"] + jitter, worlds["hsd_border_d"], s=12, color=grey, alpha=0.7,
              label="one collection (seed), jittered")
    mean = worlds.groupby("run_spread")["hsd_border_d"].mean()
    b.plot(mean.index, mean.values, marker="o", color=mean_c, label="mean over seeds")
    b.axhspan(*PUBLISHED_D, color="tab:green", alpha=0.15,
              label=f"borderline |d| about {PUBLISHED_D[0]:g}-{PUBLISHED_D[1]:g} (workspace reading of Table 3)")
    b.set(xlabel="run_spread (sd of run skill within a team)",
          ylabel="HSD border |d| of mean nG@1 (calibration)")
    for ax in (a, b):
        ax.set_xticks(spreads)
        ax.axvline(STC_DEFAULTS["run_spread"], color="tab:red", lw=0.8, ls=":",
                   label="the calibrated default")
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2,
                  frameon=False)
    default = STC_DEFAULTS["run_spread"]
    others = [f"{s:g}" for s in spreads if s != default]
    fig.suptitle(f"Alternative STC worlds: only run_spread varies, the default {default:g} against "
                 f"{', '.join(others)} ({'one alternative spread' if len(others) == 1 else f'{len(others)} alternatives'}"
                 f"; the collection seeds of the first {int(summary['worlds'].min())} worlds, the same "
                 "at each value)", fontsize=9)
    fig.tight_layout()
    return fig
