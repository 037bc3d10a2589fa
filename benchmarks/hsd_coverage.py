"""Coverage of ``evalkit compare``'s simultaneous HSD intervals under the null.

Systems are identical (each topic's scores are a topic effect plus noise that
is independent and identically distributed across systems), so every true
difference is 0.  The family of intervals *covers* a data set when every
pair's interval contains 0; at level 95% that should happen in about 95% of
data sets, whatever the number of systems.  For contrast, the same for the
unadjusted paired t intervals, whose family coverage falls as pairs are
added.

Writes ``docs/img/compare_coverage.png`` and ``docs/img/compare_coverage.csv``
(the numbers ``docs/compare.md`` quotes) and prints the table.  Run with
``python benchmarks/hsd_coverage.py`` (about a minute on two cores).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from evalkit.stats.pairwise import hsd_pairs, paired_pairs
from evalkit.outputs import save_figure, write_text

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = (2, 3, 5, 10, 20)      # systems per data set
TOPICS = 30                      # topics per data set
DATA_SETS = 1000                 # simulated data sets per number of systems
TRIALS = 1000                    # HSD randomisation trials per data set
SEED = 2019                      # seed of the whole simulation


def covered(table: pd.DataFrame) -> bool:
    """Whether every pair's interval contains the true difference 0."""
    return bool(((table["ci_low"] <= 0) & (table["ci_high"] >= 0)).all())


def simulate() -> pd.DataFrame:
    rows = []
    seeds = np.random.SeedSequence(SEED).spawn(len(SYSTEMS))
    for s, seq in zip(SYSTEMS, seeds):
        rng = np.random.default_rng(seq)
        hits = {"HSD simultaneous interval": 0, "paired t interval, unadjusted": 0}
        for _ in tqdm(range(DATA_SETS), desc=f"{s} systems", leave=False):
            x = rng.normal(0.4, 0.15, size=(TOPICS, 1)) + rng.normal(0, 0.1, size=(TOPICS, s))
            hits["HSD simultaneous interval"] += covered(hsd_pairs(x, TRIALS, seed=rng))
            hits["paired t interval, unadjusted"] += covered(paired_pairs(x, "t", "none"))
        for method, n in hits.items():
            p = n / DATA_SETS
            half = 1.96 * np.sqrt(p * (1 - p) / DATA_SETS)
            rows.append({"systems": s, "pairs": s * (s - 1) // 2, "method": method,
                         "coverage": p, "ci_low": p - half, "ci_high": p + half})
    return pd.DataFrame(rows)


def plot(table: pd.DataFrame):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4))
    for (method, part), marker in zip(table.groupby("method", sort=False), ("o", "s")):
        ax.errorbar(part["systems"], part["coverage"],
                    yerr=[part["coverage"] - part["ci_low"], part["ci_high"] - part["coverage"]],
                    marker=marker, capsize=3, label=f"{method} (95% binomial interval)")
    ax.axhline(0.95, color="grey", linestyle="--", label="nominal 95%")
    ax.set_xscale("log")
    ax.set_xticks(SYSTEMS, [str(s) for s in SYSTEMS])
    ax.minorticks_off()
    ax.set_xlabel(f"systems compared ({TOPICS} topics; all identical)")
    ax.set_ylabel(f"share of {DATA_SETS} data sets where every\npair's interval contains 0")
    ax.set_ylim(0, 1.02)
    ax.set_title("Family coverage of evalkit compare's 95% intervals under the null")
    ax.legend(loc="lower left", fontsize="small")
    fig.tight_layout()
    return fig


def main() -> int:
    table = simulate()
    out = ROOT / "docs" / "img" / "compare_coverage"
    write_text(out.with_suffix(".csv"), table.to_csv(index=False, float_format="%.4f",
                                                     lineterminator="\n"))
    save_figure(plot(table), out, formats=("png",))
    print(table.to_string(index=False))
    print(f"wrote {out.with_suffix('.png')} and {out.with_suffix('.csv')}")
    hsd = table[table["method"].str.startswith("HSD")]
    ok = ((hsd["ci_low"] <= 0.95) & (hsd["ci_high"] >= 0.95)).all()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
