"""Kim, Zhai & Han (ECIR 2010): the notebook's figures (matplotlib; no I/O here).

:func:`ed_vs_noise` is Table 1 as a figure (ED against the noise ratio, §5.3);
:func:`heterogeneity_figure`, :func:`minsup_figure` and
:func:`wca_weights_figure` show the experiments beyond the paper
(:mod:`.heterogeneity`, :mod:`.minsup`, :mod:`.wca_weights`).  Save them with
:func:`evalkit.outputs.save_figure`, which strips dates so the same
data gives the same bytes.  This module
selects matplotlib's file-only Agg backend when imported; pyplot and seaborn
are imported on use.
"""

from __future__ import annotations

import matplotlib
import matplotlib.ticker
import pandas as pd

from .minsup import _is_control

matplotlib.use("Agg", force=False)

__all__ = ["METHOD_STYLE", "ed_vs_noise", "heterogeneity_figure", "minsup_figure", "wca_weights_figure"]


#: One colour-blind-safe colour (Okabe & Ito 2008), marker and line style per method, so the
#: seven series differ in more than hue.
METHOD_STYLE = {"ac-tau": ("#000000", "o", "-"), "ac-sp": ("#000000", "s", ":"),
                "wca-tau": ("#E69F00", "o", "-"), "wca-sp": ("#E69F00", "s", ":"),
                "rba-tau": ("#0072B2", "o", "-"), "rba-sp": ("#0072B2", "s", ":"),
                "frespa": ("#CC79A7", "D", "-")}


def ed_vs_noise(long: pd.DataFrame, published: pd.DataFrame | None = None):
    """ED against noise ratio per method: the mean over draws, the number ``table1.csv`` prints,
    with a band of +-1 standard deviation over draws (``table1_sd.csv``) (left), and the paper's
    Table 1 in the same styles (right), one legend for both off the data.

    ``published`` (wide, one column per method) is drawn in the right panel.
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2 if published is not None else 1, figsize=(10, 4.2), sharey=True,
                             squeeze=False)
    a = axes[0, 0]
    methods = list(dict.fromkeys(long["method"]))
    draws = int(long["draw"].nunique())
    for m in methods:
        colour, marker, ls = METHOD_STYLE.get(m, ("0.4", "x", "-"))
        g = long[long.method == m].groupby("noise_ratio")["ED"]
        mean, sd = g.mean(), g.std(ddof=1).fillna(0.0)
        a.plot(mean.index, mean.values, color=colour, marker=marker, ls=ls, ms=5, label=m)
        a.fill_between(mean.index, (mean - sd).values, (mean + sd).values, color=colour, alpha=0.15, lw=0)
    a.set(xlabel="noise ratio r (random orderings added per judgment)",
          ylabel="evaluation discriminativeness (ED)",
          title=f"simulated: mean over {draws} worlds, as table1.csv\n(clean judgments and noise "
                "redrawn; band: +-1 sd over worlds)")
    if published is not None:
        b = axes[0, 1]
        for m in methods:
            if m in published:
                colour, marker, ls = METHOD_STYLE.get(m, ("0.4", "x", "-"))
                b.plot(published["noise_ratio"], published[m], color=colour, marker=marker, ls=ls, ms=5,
                       mfc="white", label=f"{m} (paper)")
        b.set(xlabel="noise ratio r (random orderings added per judgment)", title="published: Table 1")
        b.yaxis.set_tick_params(labelleft=True)
        b.set_ylabel("ED (paper's Table 1)")
    for ax in axes[0]:
        ax.title.set_fontsize(9)
    handles, labels = a.get_legend_handles_labels()
    if published is not None:
        h2, l2 = axes[0, 1].get_legend_handles_labels()
        handles, labels = handles + h2, labels + l2
    fig.legend(handles, labels, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8, frameon=False,
               title="method (filled: simulated; open: paper)", title_fontsize=8)
    fig.tight_layout()
    return fig


def heterogeneity_figure(worlds: pd.DataFrame):
    """Clean ED per method, and the claimed orderings, against the centres' heterogeneity."""
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.8))
    x = worlds["centre_phi"]
    columns = [c for c in worlds.columns if c.startswith("ED_clean_")]
    # one kind of point per curve (issue 45): the methods' colours and line styles, and a
    # marker of each curve's own, so that curves crossing at a point stay told apart
    own = dict(zip(columns, ("o", "s", "^", "v", "D", "P", "X", "*", "<", ">")))
    for col in columns:
        m = col.removeprefix("ED_clean_")
        colour, _, ls = METHOD_STYLE.get(m, ("0.4", "x", "-"))
        a.plot(x, worlds[col], color=colour, marker=own.get(col, "x"), ls=ls, ms=4, label=m)
    a.set(xlabel="heterogeneity of assessor groups (centre_phi; 0 = default, one centre)",
          ylabel="ED on clean data")
    a.legend(fontsize=7, ncol=4, loc="upper left", bbox_to_anchor=(0, -0.22), frameon=False)
    b.plot(x, worlds["frespa_gt_rba_sp"], marker="o", label="FreSPA > RBA-Sp")
    b.plot(x, worlds["rba_gt_wca"], marker="s", label="RBA > WCA (tau and Sp)")
    b.axhline(worlds["ratios"].max(), ls="--", color="k", lw=0.8, label="paper: every ratio")
    b.set(xlabel="centre_phi", ylabel="noise ratios where it holds (count)")
    b.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    b2 = b.twinx()
    from .verdicts import TAU_TARGET, TAU_TOLERANCE

    b2.plot(x, worlds["mean_pairwise_tau"], color="0.5", ls=":", marker="D", ms=4,
            label="mean pairwise tau (right axis)")
    b2.axhspan(TAU_TARGET - TAU_TOLERANCE, TAU_TARGET + TAU_TOLERANCE, color="0.5", alpha=0.15, lw=0,
               label=f"calibration target {TAU_TARGET:g} +- {TAU_TOLERANCE:g} (right axis)")
    b2.set_ylabel("mean pairwise tau between assessors", color="0.4", fontsize=8)
    b2.xaxis.set_tick_params(labelbottom=False)
    h1, l1 = b.get_legend_handles_labels()
    h2, l2 = b2.get_legend_handles_labels()
    b.legend(h1 + h2, l1 + l2, fontsize=7, ncol=2, loc="upper left", bbox_to_anchor=(0, -0.22),
             frameon=False)
    fig.suptitle("Alternative judgment worlds: two assessor groups around different centres", fontsize=9)
    fig.tight_layout()
    fig.subplots_adjust(bottom=0.33)
    return fig


def minsup_figure(summary: pd.DataFrame, per_set: pd.DataFrame, published_clean=None):
    """Left: clean ED against minSup per world (mean +- SE over worlds), the default
    judgments and the paper.  Right: ED(1) - ED(0.75) against phi_spread (control
    worlds: a labelled diamond at their spread), the calibration in the tick labels."""
    import matplotlib.pyplot as plt

    sups = [float(c[3:-5]) for c in summary.columns if c.startswith("ED_") and c.endswith("_mean")]
    grid, controls = summary[~_is_control(summary)], summary[_is_control(summary)]
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 5.2))
    for r in summary.to_dict("records"):
        default, control = r["world"] == "default", r["world"].startswith("control")
        label = (f"control: phi_spread 0, phi {r['phi']:g}" if control else
                 f"phi_spread {r['phi_spread']:g}" + (" (default)" if default else ""))
        a.errorbar(sups, [r[f"ED_{s:g}_mean"] for s in sups], yerr=[r[f"ED_{s:g}_se"] for s in sups],
                   marker="D" if control else "o", ms=3, capsize=2, lw=2 if default else 1,
                   ls="-." if control else "-", label=label)
    a.plot(sups, [per_set[f"ED_{s:g}"].mean() for s in sups], "k--", lw=1,
           label="committed judgments (draw 0)")
    if published_clean is not None:
        a.plot(sups, list(published_clean), color="0.5", ls=":", marker="s", ms=3, label="paper (Table 4)")
    a.set(xlabel="minSup", ylabel="FreSPA's ED on clean data", xticks=sups)
    a.legend(fontsize=7, ncol=2, loc="upper left", bbox_to_anchor=(0, -0.16), frameon=False)
    x = grid["phi_spread"]
    b.errorbar(x, grid["diff_1_vs_0.75_mean"], yerr=grid["diff_1_vs_0.75_se"], marker="o", capsize=3)
    title = [f"circles: median dispersion phi {grid['phi'].iloc[0]:g}, spread phi_spread"]
    for r in controls.to_dict("records"):
        b.errorbar([r["phi_spread"]], [r["diff_1_vs_0.75_mean"]], yerr=[r["diff_1_vs_0.75_se"]],
                   marker="D", color="C3", capsize=3, ls="none")
        title.append(f"red diamond: control, equal assessors at phi {r['phi']:g} (tau "
                     f"{r['mean_pairwise_tau']:.2f}); 1 best in {r['worlds_1_best']}/{r['worlds']}")
    b.set_title("\n".join(title), fontsize=8)
    b.set_xticks(list(x), [f"{r['phi_spread']:g}\n{r['worlds_1_best']}/{r['worlds']}\n"
                           f"tau {r['mean_pairwise_tau']:.2f}" for r in grid.to_dict("records")], fontsize=8)
    b.axhline(0, color="k", lw=0.8)
    b.margins(x=0.15)
    b.set(xlabel="phi_spread (sd of log dispersion between assessors)\nbelow it: worlds with minSup 1 "
                 "best; mean pairwise tau\n(calibration, paper 0.454)",
          ylabel="ED(minSup 1) - ED(minSup 0.75)\nmean +- SE over worlds")
    fig.suptitle("Table 4, clean data: minSup 1 against 0.75 in simulated worlds\n"
                 "(only the assessors' spread of consistency varies; control: less agreement alone)",
                 fontsize=9)
    fig.tight_layout()
    return fig


def wca_weights_figure(ed: pd.DataFrame, summary: pd.DataFrame, published: pd.DataFrame | None = None):
    """Left: WCA-tau's ED against noise per offset, beside AC-tau, RBA-tau, FreSPA and the
    paper's WCA-tau.  Right: each method's % degradation against the offset (below the
    axis: ratios where RBA > WCA)."""
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.8))
    offsets = summary["weight_offset"].tolist()
    base = ed[ed.weight_offset == offsets[0]]
    for m, style in (("ac-tau", "k:"), ("rba-tau", "k--"), ("frespa", "k-.")):
        a.plot(base["noise_ratio"], base[m], style, lw=1, label=m)
    for i, off in enumerate(offsets):
        g = ed[ed.weight_offset == off]
        a.plot(g["noise_ratio"], g["wca-tau"], marker="o", ms=3, color=plt.cm.viridis(i / max(1, len(offsets) - 1)),
               label=f"wca-tau, a = {off:g}" + (" (default)" if off == 1 else "")
               + (" (read literally)" if off == 0 else ""))
    if published is not None:
        pub = published[published["noise_ratio"].astype(str).str[0].str.isdigit()]
        a.plot(pub["noise_ratio"].astype(float), pub["wca-tau"].astype(float), color="C3", ls=":",
               marker="s", ms=3, label="paper: wca-tau")
    a.set(xlabel="noise ratio r", ylabel="ED (mean over draws)")
    a.legend(fontsize=7, ncol=2, loc="upper left", bbox_to_anchor=(0, -0.3), frameon=False)
    lo, hi = base["noise_ratio"].min(), base["noise_ratio"].max()
    first, last = base.set_index("noise_ratio").loc[lo], base.set_index("noise_ratio").loc[hi]
    ac_drop = min(100 * (first[m] - last[m]) / first[m] for m in ("ac-tau", "ac-sp"))
    for col, label, style in (("wca-tau_drop_pct", "WCA-tau", "o-"), ("wca-sp_drop_pct", "WCA-Sp", "s-"),
                              ("worst_rba_frespa_drop_pct", "worst of RBA/FreSPA", "k--")):
        b.plot(offsets, summary[col], style, ms=4, label=label)
    b.axhline(ac_drop, color="0.5", ls="-.", lw=1, label="best of AC (does not depend on a)")
    if "wca-tau_drop_pct_paper" in summary:
        b.axhline(summary["wca-tau_drop_pct_paper"].iloc[0], color="C3", ls=":", label="paper: WCA-tau")
    b.set_xticks(offsets, [f"{r.weight_offset:g}\n{r.rba_gt_wca}/{r.ratios}" for r in summary.itertuples()],
                 fontsize=8)
    shown = [ac_drop, *summary["wca-tau_drop_pct"], *summary["wca-sp_drop_pct"],
             *summary["worst_rba_frespa_drop_pct"]]
    if "wca-tau_drop_pct_paper" in summary:
        shown.append(summary["wca-tau_drop_pct_paper"].iloc[0])
    b.set_ylim(min(0.0, min(shown) - 5), max(shown) + 5)    # every reference line inside the axes
    b.set(xlabel="weight offset a: weights (w + a)/(1 + a)\nbelow it: ratios where RBA > WCA (tau and Sp)",
          ylabel=f"% degradation of ED\n(noise ratio {lo:g} to {hi:g})")
    b.legend(fontsize=7, ncol=2, loc="upper left", bbox_to_anchor=(0, -0.42), frameon=False)
    fig.suptitle("Table 1: WCA's weights read literally (a = 0, in [-1, 1]) against mapped to [0, 1] by "
                 "(x + 1)/2 as §5.2 maps the scores (a = 1, the default); only a varies", fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.subplots_adjust(bottom=0.4)
    return fig
