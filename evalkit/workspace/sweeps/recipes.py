"""Named sweeps worth having, beyond the papers, with their summary figures.

``evalkit sweep sakai-p`` (``make sweep-sakai``) runs :data:`SAKAI_P` with
:func:`evalkit.workspace.sweeps.engine.run_recipe` and writes
``figures/sweeps/sakai_p.{csv,md,png,svg}`` and ``sakai_p_threshold.md``.

Sakai (EVIA 2017) fixes p = 0.2 (and shows p = 0.1 in Table 1).  The sweep
asks how large p must be before unanimity-aware gain changes conclusions:
p in {0, 0.05, 0.1, 0.2, 0.5, 1} times 20 seeds of the simulated ratings (and
of the HSD permutations), on the paper's grid of Dmax and N.  For every
point, ``table2.csv`` gives Kendall's tau between the RawG and UG run
rankings per (measure, Dmax, N), and ``table3_counts.csv`` the number of run
pairs whose randomised Tukey HSD verdict differs (discrepancies).  At p = 0
UG equals RawG, so tau is 1 and there is no discrepancy: a check the summary
makes on the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

__all__ = ["Recipe", "SAKAI_P", "RECIPES", "summarise_sakai_p"]


@dataclass(frozen=True)
class Recipe:
    """A sweep: the notebook, the grid, fixed parameters and the summary it feeds."""

    name: str
    notebook: str
    grid: tuple[tuple[str, tuple], ...]
    fixed: dict
    summarise: object          # callable(sweep_dir, figures_dir) -> list of written paths
    figure: str = ""           # the summary figure, relative to figures/
    caption: str = ""
    command: str = ""          # how to (re)make it


def summarise_sakai_p(sweep_dir: Path, out: Path) -> list[Path]:
    """Tau and discrepancy counts against p, per measure and N (mean and spread over seeds)."""
    from ...outputs import save_figure, write_table, write_text

    combined = Path(sweep_dir) / "combined"
    tau = pd.read_csv(combined / "table2.csv")
    disc = pd.read_csv(combined / "table3_counts.csv")
    zero = (tau["p"] == 0)
    if zero.any() and not ((tau.loc[zero, "tau"] == 1).all()
                           and (disc.loc[disc["p"] == 0, "discrepancies"] == 0).all()):
        raise AssertionError("at p = 0 UG equals RawG: tau must be 1 and no pair discrepant")
    # one value per (seed, p, measure, N): tau averaged over Dmax, discrepancies summed over Dmax
    per_seed = (tau.groupby(["seed", "p", "measure", "N"])["tau"].mean().to_frame()
                .join(disc.groupby(["seed", "p", "measure", "N"])["discrepancies"].sum()))
    summary = (per_seed.groupby(["measure", "N", "p"])
               .agg(tau_mean=("tau", "mean"), tau_sd=("tau", "std"),
                    discrepancies_mean=("discrepancies", "mean"),
                    discrepancies_sd=("discrepancies", "std"),
                    discrepancies_max=("discrepancies", "max"),
                    seeds=("tau", "size"))
               .reset_index().round(4))
    out = Path(out)
    written = [*write_table(summary, out / "sakai_p")]
    reached = summary[summary["discrepancies_mean"] >= 1].groupby(["measure", "N"])["p"].min()
    groups = summary[["measure", "N"]].drop_duplicates().set_index(["measure", "N"])
    first = groups.join(reached.rename("smallest p with >= 1 discrepancy on average")).reset_index()
    first = first.fillna({"smallest p with >= 1 discrepancy on average": "none"})
    text = ("# Sakai beyond the paper: how large must p be?\n\n"
            "Kendall tau (RawG vs UG, mean over Dmax) and randomised Tukey HSD discrepancies "
            "(summed over Dmax in {2, 4, 8}), mean over "
            f"{int(summary['seeds'].max())} seeds of the simulated ratings.\n\n"
            + first.to_markdown(index=False) + "\n")
    written.append(write_text(out / "sakai_p_threshold.md", text))
    written += list(save_figure(_figure(summary), out / "sakai_p"))
    return written


def _figure(summary: pd.DataFrame):
    import matplotlib.pyplot as plt

    measures = list(dict.fromkeys(summary["measure"]))
    fig, axes = plt.subplots(2, len(measures), figsize=(4 * len(measures), 6.5), sharex=True,
                             squeeze=False)
    for j, m in enumerate(measures):
        for n, part in summary[summary["measure"] == m].groupby("N"):
            for i, (col, sd) in enumerate((("tau_mean", "tau_sd"),
                                           ("discrepancies_mean", "discrepancies_sd"))):
                ax = axes[i, j]
                ax.plot(part["p"], part[col], marker="o", ms=3, label=f"N = {n}")
                ax.fill_between(part["p"], part[col] - part[sd].fillna(0),
                                part[col] + part[sd].fillna(0), alpha=0.15)
        axes[0, j].set_title(m)
        axes[1, j].set_xlabel("p (unanimity weight)")
    axes[0, 0].set_ylabel("Kendall tau, RawG vs UG")
    axes[1, 0].set_ylabel("HSD discrepancies (sum over Dmax)")
    axes[0, -1].legend(fontsize=8)
    fig.suptitle("Sakai's UG beyond p = 0.2: simulated ratings, mean ± sd over seeds", fontsize=10)
    fig.tight_layout()
    return fig


SAKAI_P = Recipe(
    name="sakai-p",
    notebook="sakai2017_unanimity_gain",
    grid=(("p", (0, 0.05, 0.1, 0.2, 0.5, 1)), ("seed", tuple(range(1, 21)))),
    fixed={"replications": 1, "world_seeds": 1},   # the notebook's extra draws and worlds are not needed here
    summarise=summarise_sakai_p,
    figure="sweeps/sakai_p.png",
    caption=("Beyond the paper: Kendall tau (RawG vs UG) and randomised Tukey HSD discrepancies "
             "against p, per measure and N; mean ± sd over 20 seeds of the simulated ratings. "
             "Table: sweeps/sakai_p.csv; smallest p with a discrepancy: sweeps/sakai_p_threshold.md."),
    command="make sweep-sakai",
)

RECIPES = {r.name: r for r in (SAKAI_P,)}
