"""How ``evalkit compare`` shows its report: the pairs table and the figure.

The pairs table is printed as CSV or JSON at full precision (for programs),
or as Markdown or LaTeX ready for a paper: three decimals, the interval in
brackets, significant pairs marked with a dagger and a note saying which
test, correction and alpha, as ranx's comparison reports do.  The figure
shows each system's mean with its interval and, beside it, which pairs
differ significantly.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from ..paper_tables import MINUS, interval, latex_table, markdown_table, number

__all__ = ["PAIRS_FORMATS", "format_pairs", "plot_report"]

PAIRS_FORMATS = ("csv", "json", "markdown", "latex")

_TEST_NAMES = {"hsd": "randomised Tukey HSD", "t": "paired t-test",
               "wilcoxon": "Wilcoxon signed-rank test", "permutation": "paired randomisation test"}
_CORRECTION_NAMES = {"holm": "Holm", "bh": "Benjamini-Hochberg", "bonferroni": "Bonferroni",
                     "none": "no"}


def _note(settings: dict) -> str:
    test = settings["test"]
    what = _TEST_NAMES[test]
    if test in ("hsd", "permutation"):
        what += f", B = {settings['trials']} trials, seed {settings['seed']}"
    if test == "hsd":
        interval, es = "simultaneous 95% interval", "|diff| / sqrt(V_E)"
        correction = "familywise error held by the test"
    else:
        interval, es = "paired t interval", "mean / sd of the differences"
        correction = f"{_CORRECTION_NAMES[settings['correction']]} correction"
    level = 1 - settings["alpha"]
    interval = interval.replace("95%", f"{level:.0%}")
    return (f"significant at alpha = {settings['alpha']:g} ({what}; {correction}); "
            f"CI: {interval}; ES: {es}; W/T/L: topics where A scores higher / ties / lower")


def _paper_rows(pairs: pd.DataFrame, mark: str, minus: str) -> list[list[str]]:
    rows = []
    for r in pairs.itertuples(index=False):
        p = number(r.p_adjusted) + (mark if r.significant else "")
        rows.append([str(r.measure), str(r.system_a), str(r.system_b), number(r.diff, minus),
                     interval(r.ci_low, r.ci_high, minus), p, number(r.effect_size, minus),
                     f"{r.wins}/{r.ties}/{r.losses}"])
    return rows


_HEADER = ["Measure", "A", "B", "Diff", "CI", "p", "ES", "W/T/L"]


def format_pairs(pairs: pd.DataFrame, fmt: str, settings: dict) -> str:
    """The pairs table as text: ``csv`` or ``json`` (every column, full
    precision: floats as Python's shortest round-trip repr; NaN, e.g. the
    effect size of constant differences, as an empty field or null), ``markdown`` or
    ``latex`` (for a paper: ``p`` is the adjusted p-value, a dagger marks
    the significant pairs, and a note names the test)."""
    if fmt == "csv":
        return pairs.to_csv(index=False, lineterminator="\n")
    if fmt == "json":
        def plain(v):
            v = v.item() if isinstance(v, np.generic) else v
            return None if isinstance(v, float) and math.isnan(v) else v    # NaN -> null

        records = [{k: plain(v) for k, v in rec.items()} for rec in pairs.to_dict(orient="records")]
        return json.dumps(records, allow_nan=False) + "\n"
    note = _note(settings)
    if fmt == "markdown":
        return markdown_table(_HEADER, _paper_rows(pairs, " †", MINUS["markdown"]), "lllrrrrr",
                              f"† {note}")
    if fmt == "latex":
        return latex_table(_HEADER, _paper_rows(pairs, r"$^\dagger$", MINUS["latex"]),
                           "lllrcrrr", "$^\\dagger$ " + note, text_columns=3)
    raise ValueError(f"unknown format {fmt!r}")


def plot_report(report, path):
    """``path`` (PNG): per measure, the systems' means with their intervals
    (best at the top) and a matrix marking the significant pairs (dark: the
    row's system is better; light: worse)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    from ...outputs import save_figure

    measures = list(pd.unique(report.systems["measure"]))
    n = max(len(report.systems) // max(len(measures), 1), 2)
    height = max(2.5, 0.22 * n + 1.2)
    # the matrix takes about 45% of the width and each rotated label about 0.13 inch: 50
    # systems in 11 inches overlapped (benchmarks' compare row), so the width grows with n
    fig, axes = plt.subplots(len(measures), 2, figsize=(max(11.0, 0.3 * n), height * len(measures)),
                             squeeze=False, gridspec_kw={"width_ratios": [1.2, 1]})
    level = 1 - report.settings["alpha"]
    for row, measure in zip(axes, measures):
        sys_ = report.systems[report.systems["measure"] == measure].sort_values("mean")
        order = list(sys_["system"])
        y = np.arange(len(order))
        ax = row[0]
        ax.errorbar(sys_["mean"], y, xerr=[sys_["mean"] - sys_["ci_low"],
                                           sys_["ci_high"] - sys_["mean"]],
                    fmt="o", color="C0", capsize=3)
        ax.set_yticks(y, order)
        ax.set_xlabel(f"mean {measure} over topics")
        ax.set_ylabel("system")
        ax.set_title(f"{measure}: means with {level:.0%} intervals (from V_E)")
        pairs = report.pairs[(report.pairs["measure"] == measure) & report.pairs["significant"]]
        index = {s: i for i, s in enumerate(order)}
        grid = np.zeros((len(order), len(order)))
        for r in pairs.itertuples(index=False):
            a, b = index[r.system_a], index[r.system_b]
            grid[a, b], grid[b, a] = (2, 1) if r.diff > 0 else (1, 2)
        ax = row[1]
        np.fill_diagonal(grid, np.nan)
        ax.imshow(grid, cmap=ListedColormap(["white", "#9ecae1", "#08519c"]), vmin=0, vmax=2,
                  origin="lower", aspect="auto")
        ax.set_xticks(y - 0.5, minor=True)
        ax.set_yticks(y - 0.5, minor=True)
        ax.grid(which="minor", color="#dddddd", linewidth=0.5)
        ax.tick_params(which="minor", length=0)
        ax.set_xticks(y, order, rotation=90, fontsize="small")
        ax.set_yticks(y, order, fontsize="small")
        ax.set_xlabel("column system")
        ax.set_ylabel("row system")
        ax.set_title(f"significant pairs ({len(pairs)} of "
                     f"{int((report.pairs['measure'] == measure).sum())}; "
                     f"{_TEST_NAMES[report.settings['test']]})", fontsize="medium")
        handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in ("#08519c", "#9ecae1")]
        ax.legend(handles, ["row better", "row worse"], loc="upper left",
                  bbox_to_anchor=(1.01, 1), fontsize="small")
    fig.tight_layout()
    written = save_figure(fig, path, formats=("png",))
    plt.close(fig)
    return written[0]
