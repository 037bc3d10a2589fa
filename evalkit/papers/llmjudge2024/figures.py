"""The LLMJudge chapter's figures (matplotlib; no I/O here; save with :func:`evalkit.outputs.show_figure`).

* :func:`agreement_figure` — ``agreement.png``: every judge's ordinal alpha with the
  human labels, 95% topic-bootstrap interval, the organisers' printed values marked;
* :func:`alpha_vs_kappa_figure` — ``alpha_vs_kappa.png``: what the "kappa" columns hold
  (alpha of the binary labels) against Cohen's kappa of the same labels;
* :func:`pairs_figure` — ``judges_as_systems.png``: per-topic agreement as a per-topic
  score, the judges' means with intervals and how many pairs the HSD separates;
* :func:`indistinguishable_figure` — ``indistinguishable.png``: each judge's difference
  from the best with its paired interval, the judges the test cannot tell from it marked;
* :func:`combining_figure` — ``combining.png``: combined judges vs the best single one
  chosen on other topics, over the seeded splits;
* :func:`unanimity_figure` — ``unanimity.png``: agreement by spread D, RawG/WG/UG vs N, and
  UG minus RawG with its topic-bootstrap interval.

Okabe-Ito colours (:data:`COLOURS`); legends sit outside the axes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .combining import FAIR, ORACLE

__all__ = ["COLOURS", "agreement_figure", "alpha_vs_kappa_figure", "pairs_figure",
           "indistinguishable_figure", "combining_figure", "unanimity_figure"]

#: Okabe-Ito colours.
COLOURS = {"raw": "#0072B2", "wg": "#E69F00", "ug": "#009E73", "published": "#D55E00",
           "judge": "#0072B2", "combined": "#009E73", "single": "#0072B2",
           "difference": "#CC79A7", "below": "#D55E00", "splits": "#999999",
           1: "#0072B2", 2: "#E69F00", 3: "#009E73"}
_GAIN_NAMES = {"raw": "RawG", "wg": "WG", "ug": "UG"}


def _legend_below(fig, handles, labels, ncol: int) -> None:
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=ncol,
               frameon=False, fontsize=8)


def agreement_figure(table: pd.DataFrame, published: pd.DataFrame):
    """Ordinal alpha of each judge with the human labels (sorted), with its 95% interval."""
    import matplotlib.pyplot as plt

    a = table[table["statistic"] == "alpha_ordinal"].sort_values("value").reset_index(drop=True)
    pub = published[published["statistic"] == "krippendorff"].set_index("judge")["published"]
    fig, ax = plt.subplots(figsize=(7.5, 8))
    y = np.arange(len(a))
    ax.errorbar(a["value"], y, xerr=[a["value"] - a["ci_low"], a["ci_high"] - a["value"]],
                fmt="o", ms=4, color=COLOURS["judge"], capsize=2,
                label="reproduced, 95% topic-bootstrap interval")
    shown = a["judge"].isin(pub.index)
    ax.plot(a.loc[shown, "judge"].map(pub), y[shown], ls="none", marker="D", mfc="none", ms=8,
            color=COLOURS["published"], label="organisers' printed value (8 public rows)")
    ax.set_yticks(y, a["judge"], fontsize=7)
    ax.set_xlabel("Krippendorff's alpha (ordinal) with the human labels")
    ax.set_ylabel("LLM judge (team-run)")
    ax.axvline(0, color="grey", lw=0.5)
    ax.set_title(f"{len(a)} LLM judges against the TREC DL 2023 human labels "
                 f"({int(a['items'].iloc[0])} pairs, 25 topics)", fontsize=9)
    _legend_below(fig, *ax.get_legend_handles_labels(), ncol=1)
    fig.tight_layout()
    return fig


def alpha_vs_kappa_figure(usual: pd.DataFrame):
    """The organisers' "kappa" columns (alpha of binary labels) against Cohen's kappa."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 5.2))
    for cut, name in ((1, "kappa 0|123"), (2, "kappa 01|23"), (3, "kappa 012|3")):
        part = usual[usual["statistic"] == name]
        ax.plot(part["printed"], part["cohen_kappa"], ls="none", marker="o", ms=4,
                color=COLOURS[cut], label=f"{name} (grade >= {cut} relevant)")
    lo = min(usual["printed"].min(), usual["cohen_kappa"].min()) - 0.03
    hi = max(usual["printed"].max(), usual["cohen_kappa"].max()) + 0.03
    ax.plot([lo, hi], [lo, hi], color="grey", lw=0.8, ls="--", label="equal")
    ax.set(xlim=(lo, hi), ylim=(lo, hi), xlabel="what the column holds: Krippendorff's alpha, binary labels",
           ylabel="what its heading says: Cohen's kappa, binary labels")
    ax.set_title(f"{usual['judge'].nunique()} LLM judges x 3 cuts, each against the human labels",
                 fontsize=9)
    _legend_below(fig, *ax.get_legend_handles_labels(), ncol=2)
    fig.tight_layout()
    return fig


def pairs_figure(systems: pd.DataFrame, pairs: pd.DataFrame, title: str, pooled_best: str | None = None):
    """Per-topic alpha as a per-topic score: each judge's mean with its 95% interval (left),
    and which pairs the randomised Tukey HSD separates (right; judges in the same order).
    ``pooled_best`` (the best by ordinal alpha over all items pooled, ``indistinguishable.png``'s
    reference) is marked beside this figure's best, the highest mean per-topic alpha."""
    import matplotlib.pyplot as plt

    s = systems.sort_values("mean").reset_index(drop=True)
    order = {j: i for i, j in enumerate(s["system"])}
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 7.5), width_ratios=(1, 1.1))
    y = np.arange(len(s))
    left.errorbar(s["mean"], y, xerr=[s["mean"] - s["ci_low"], s["ci_high"] - s["mean"]], fmt="o",
                  ms=4, capsize=2, color=COLOURS["judge"])
    left.set_yticks(y, s["system"], fontsize=7)
    left.set_xlabel("mean over topics of the per-topic ordinal alpha (95% interval)")
    top = s["system"].iloc[-1]
    left.get_yticklabels()[-1].set_fontweight("bold")
    note = f"bold: {top}, the highest mean per-topic alpha"
    if pooled_best and pooled_best in order:
        left.get_yticklabels()[order[pooled_best]].set_fontstyle("italic")
        if pooled_best != top:
            note += (f";\nitalic: {pooled_best}, the highest alpha over all items pooled\n"
                     "(the best judge of indistinguishable.png): 'best' depends on the statistic")
    left.set_title(note, fontsize=7)
    left.set_ylabel("LLM judge (team-run)")
    grid = np.full((len(s), len(s)), np.nan)
    for row in pairs.itertuples():
        a, b = order[row.system_a], order[row.system_b]
        grid[a, b] = grid[b, a] = float(row.significant)
    right.imshow(grid, cmap="Greys", vmin=-0.2, vmax=1.2, origin="lower")
    right.set_xticks(y[::4], (y[::4] + 1).astype(str), fontsize=7)
    right.set_yticks(y[::4], (y[::4] + 1).astype(str), fontsize=7)
    right.set_xlabel("judge's position in the left panel (1 = lowest mean)")
    right.set_ylabel("judge's position in the left panel (1 = lowest mean)")
    k = int(pairs["significant"].sum())
    right.set_title(f"black: pair separated by the randomised Tukey HSD ({k} of {len(pairs)})",
                    fontsize=8)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    return fig


def indistinguishable_figure(versus: pd.DataFrame, summary: pd.DataFrame, alpha: float = 0.05,
                             per_topic_best: str | None = None):
    """Each judge's ordinal alpha minus the best judge's, with the paired 95% topic-bootstrap
    interval (:func:`~.best_judge.versus_best`), closest to the best on top; blue: not
    significantly below the best (randomisation test, Holm over the best's pairs), vermillion:
    significantly below, with in how many swap streams; the note under the axes gives Holm over
    every pair (:func:`~.best_judge.indistinguishable_summary`)."""
    import matplotlib.pyplot as plt

    best = versus.iloc[0]
    rest = versus.iloc[1:].reset_index(drop=True)
    mine, every = summary.iloc[1], summary.iloc[0]
    fig, ax = plt.subplots(figsize=(7.5, 8.2))
    y = np.arange(len(rest))
    for keep, colour, label in (
            (rest["indistinguishable"], COLOURS["judge"],
             f"not significantly below {best.judge}: {int(mine.indistinguishable)} judges"),
            (~rest["indistinguishable"], COLOURS["below"],
             f"significantly below {best.judge}: {int(mine.distinguishable)} judges")):
        part = rest[keep.to_numpy(bool)]
        ax.errorbar(part["difference"], y[keep.to_numpy(bool)],
                    xerr=[part["difference"] - part["diff_low"], part["diff_high"] - part["difference"]],
                    fmt="o", ms=4, capsize=2, color=colour, label=label)
    for yi, row in zip(y, rest.itertuples()):
        if row.distinguished_draws:
            ax.annotate(f"{row.distinguished_draws} of {int(mine.draws)}", (row.diff_high, yi),
                        xytext=(4, 0), textcoords="offset points", va="center", fontsize=6)
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    ax.set_yticks(y, rest["judge"], fontsize=7)
    ax.set_ylim(len(rest) - 0.5, -0.5)
    ax.set_ylabel("LLM judge (team-run), closest to the best on top")
    ax.set_xlabel(f"ordinal alpha with the human labels minus {best.judge}'s\n"
                  "(paired 95% topic-bootstrap interval, each pair alone: not adjusted)")
    other = ("" if not per_topic_best or per_topic_best == best.judge else
             f"\n(by the mean per-topic alpha of judges_as_systems.png the best is {per_topic_best}: "
             "'best' depends on the statistic)")
    ax.set_title(f"Best judge by ordinal alpha over all items pooled, {best.judge}: {best.alpha:.3f} "
                 f"(95% interval {best.ci_low:.3f}-{best.ci_high:.3f}); paired randomisation test "
                 f"over 25 topics,\nB = {int(mine.trials)} swaps, Holm over its {int(mine.pairs)} "
                 f"pairs, alpha = {alpha:g}{other}", fontsize=8)
    handles, labels = ax.get_legend_handles_labels()
    handles.append(plt.Line2D([], [], ls="none"))
    labels.append(f"'k of {int(mine.draws)}': the seeded swap streams in which the judge is "
                  f"significantly below {best.judge} (colour: the first stream)")
    _legend_below(fig, handles, labels, ncol=1)
    fig.text(0.5, -0.1, f"Holm over all {int(every.pairs)} pairs instead: "
             f"{int(every.indistinguishable)} of {len(rest)} indistinguishable, because with B = "
             f"{int(every.trials)} no adjusted p can fall below {every.smallest_holm_p:.3f} "
             f"(B >= {int(every.trials_needed)} needed)", ha="center", fontsize=7)
    fig.tight_layout()
    return fig


def combining_figure(table: pd.DataFrame, split_mean: pd.DataFrame | None = None,
                     splits: pd.DataFrame | None = None):
    """Each combined judge and the best single judges: alpha with the human labels (left) and
    the difference from the judge chosen on other topics (right): with ``split_mean`` and
    ``splits`` (:func:`~.combining.split_summary`, :func:`~.combining.split_draws`) the mean over
    the seeded splits with its paired 95% interval and each split's difference as a grey dot;
    without, the first split's difference and interval."""
    import matplotlib.pyplot as plt

    t = table.reset_index(drop=True)
    y = np.arange(len(t))[::-1]
    colours = [COLOURS[k] for k in t["kind"]]
    over = split_mean is not None and splits is not None
    mean = split_mean.set_index("judge") if over else None
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.4 if over else 3.8), sharey=True)
    for yi, row, c in zip(y, t.itertuples(), colours):
        left.errorbar(row.value, yi, xerr=[[row.value - row.ci_low], [row.ci_high - row.value]],
                      fmt="o", ms=5, capsize=3, color=c)
        if not over:
            right.errorbar(row.diff_vs_fair, yi, xerr=[[row.diff_vs_fair - row.diff_low],
                                                       [row.diff_high - row.diff_vs_fair]],
                           fmt="s" if row.supported else "o", ms=5, capsize=3, color=c)
        elif row.judge == ORACLE:                       # no interval: chosen on the topics
            first = splits.drop_duplicates("draw")["fair_alpha"].to_numpy()
            each = row.value - first
            right.plot(each, np.full(len(each), yi + 0.22), ls="none", marker=".", ms=3,
                       color=COLOURS["splits"])
            right.plot(each.mean(), yi, ls="none", marker="o", mfc="none", ms=6, color=c,
                       label="oracle: mean over the splits (no interval: chosen on these topics)")
        elif row.judge == FAIR:
            right.annotate("0: the reference of this panel", (0, yi), xytext=(4, 0),
                           textcoords="offset points", va="center", fontsize=7, color=c)
        elif row.judge in mean.index:
            d = mean.loc[row.judge]
            each = splits.loc[splits["judge"] == row.judge, "diff"]
            right.plot(each, np.full(len(each), yi + 0.22), ls="none", marker=".", ms=3,
                       color=COLOURS["splits"])
            excludes = d.diff_low > 0 or d.diff_high < 0
            right.errorbar(d.mean_diff, yi, xerr=[[d.mean_diff - d.diff_low],
                                                  [d.diff_high - d.mean_diff]],
                           fmt="s" if excludes else "o", ms=5, capsize=3, color=c)
    right.axvline(0, color="grey", lw=0.8, ls="--")
    left.set_yticks(y, t["judge"], fontsize=8)
    left.set_ylabel("judge (combined: green; single: blue)")
    left.set_xlabel("ordinal alpha with the human labels\n(95% topic bootstrap"
                    + ("; the fairly chosen judge: first split)" if over else ")"))
    if over:
        r = int(split_mean["draws"].iloc[0])
        right.plot([], [], ls="none", marker=".", color=COLOURS["splits"],
                   label=f"one split of the topics into folds ({r} splits)")
        right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.28), frameon=False, fontsize=7)
        right.set_xlabel(f"difference from the best single judge chosen on other topics\n(mean "
                         f"over {r} splits, paired 95% topic bootstrap; square: excludes 0)")
    else:
        right.set_xlabel("difference from the best single judge chosen on other topics\n"
                         "(paired 95% topic bootstrap; square: interval excludes 0)")
    combined = int((t["kind"] == "combined").sum())
    fig.suptitle("Combining the 33 LLM judges (the human labels left out) against the best "
                 f"single judge\ncaveat: {combined} combiners are compared with no correction for "
                 "multiplicity; a square is one interval of those, and the claims judge the median, "
                 "majority, Dawid-Skene and team median rows only", fontsize=9)
    fig.tight_layout()
    return fig


def unanimity_figure(spread: pd.DataFrame, summary: pd.DataFrame, ug_diff: pd.DataFrame | None = None):
    """Left: a single LLM judge's exact agreement with the human grade by the judges' spread D
    (black: not one of the gains).  Middle: Kendall's tau of RawG, WG and UG from N judges with
    the human grade, the mean over the subsets with bars from the lower to the upper quartile.
    Right (with ``ug_diff``, :func:`~.unanimity.ug_minus_raw`): UG's tau minus RawG's, averaged
    over the subsets, with its paired 95% topic-bootstrap interval."""
    import matplotlib.pyplot as plt

    panels = 3 if ug_diff is not None else 2
    fig, axes = plt.subplots(1, panels, figsize=(5.3 * panels, 4.2))
    left, right = axes[0], axes[1]
    left.errorbar(spread["D"], spread["exact"],
                  yerr=[spread["exact"] - spread["exact_low"], spread["exact_high"] - spread["exact"]],
                  fmt="o-", ms=5, capsize=3, color="k",
                  label="single judge's label = human grade (share; 95% topic bootstrap)")
    for d, share in zip(spread["D"], spread["share"]):
        left.annotate(f"{share:.0%} of items", (d, 0.04), ha="center", fontsize=7)
    left.set(xticks=list(spread["D"]), ylim=(0, 1),
             xlabel="spread D = max - min of the 33 LLM grades of an item",
             ylabel="exact agreement with the human grade")
    full = summary["N"].max()
    dodge = {"raw": -0.06, "wg": 0.0, "ug": 0.06}
    ns = sorted(summary["N"].unique())
    for g, part in summary.groupby("gain"):
        x = np.log2(part["N"]) + dodge[g]
        right.errorbar(x, part["mean_tau"], yerr=[part["mean_tau"] - part["q1_tau"],
                                                  part["q3_tau"] - part["mean_tau"]],
                       fmt="o-", ms=4, capsize=2, color=COLOURS[g],
                       label=f"{_GAIN_NAMES[g]}: mean over subsets, bars the quartiles")
    right.set(xlabel=f"LLM judges per item N (log scale; N = {full}: all, one set)",
              ylabel="Kendall tau-b with the human grade")
    if ug_diff is not None:
        diff = axes[2]
        x = np.log2(ug_diff["N"])
        diff.errorbar(x, ug_diff["mean_diff"], yerr=[ug_diff["mean_diff"] - ug_diff["diff_low"],
                                                     ug_diff["diff_high"] - ug_diff["mean_diff"]],
                      fmt="s", ms=4, capsize=3, color=COLOURS["difference"],
                      label="UG minus RawG: mean over subsets, 95% topic-bootstrap interval")
        diff.axhline(0, color="grey", lw=0.8, ls="--")
        diff.set(xlabel=f"LLM judges per item N (log scale; N = {full}: all, one set)",
                 ylabel="Kendall tau-b, UG minus RawG")
    for ax in axes[1:]:
        ax.set_xticks(np.log2(ns), [str(n) for n in ns])
    handles, labels = [], []
    for ax in axes:
        more, names = ax.get_legend_handles_labels()
        handles, labels = handles + more, labels + names
    _legend_below(fig, handles, labels, ncol=2)
    fig.tight_layout()
    return fig
