"""Regenerate simulated raw data and execute every notebook with papermill.

Used by ``make reproduce`` and ``evalkit reproduce``.  Executed notebooks go to
``build/notebooks/`` (git-ignored); each notebook writes its tables and
figures to ``figures/<paper>/`` and nowhere else.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from . import simulate

__all__ = ["ROOT", "NOTEBOOKS", "Notebook", "ensure_raw_data", "run_notebook", "reproduce"]

#: The workspace root (the folder holding ``notebooks/`` and ``data/``).
ROOT = Path(__file__).resolve().parent.parent

#: Seed of the default simulated data sets.
DATA_SEED = 2017
#: Seed of the simulated ordering judgments.
ORDERING_SEED = 2010
#: Seed of the simulated TTG world.
TTG_SEED = 2015


@dataclass(frozen=True)
class Notebook:
    """A notebook of the workspace, its output folder and its quick parameters."""

    name: str                 # file stem under notebooks/
    paper: str                # output folder under figures/
    outputs: tuple[str, ...]  # files it promises to write (relative to its folder)
    quick: dict = field(default_factory=dict)  # small parameters for tests
    needs_data: bool = False  # runs only when the real data is installed (make data)

    @property
    def path(self) -> Path:
        return ROOT / "notebooks" / f"{self.name}.ipynb"


NOTEBOOKS: tuple[Notebook, ...] = (
    Notebook(
        "sakai2017_unanimity_gain",
        "sakai2017",
        outputs=(
            "table1.csv", "table1.md", "table1_vs_published.md",
            "table2.csv", "table2.md", "table2_vs_published.csv", "table2_vs_published.md",
            "table2_tau_grid.png", "table2_tau_grid.svg",
            "table3.csv", "table3.md", "table3_counts.csv", "table3_counts.md",
            "table3_vs_published.md",
            "replications.csv", "replications_summary.md",
            "replications.png", "replications.svg", "claims.csv", "claims.md",
        ),
        quick={"n_grid": [5, 20], "dmax_grid": [2, 8], "trials": 200, "replications": 2},
    ),
    Notebook(
        "kim2010_ordering_aggregation",
        "kim2010",
        outputs=(
            "table1.csv", "table1.md", "table1_sd.csv", "table1_draws.csv",
            "table1_vs_published.md", "table2.csv", "table2.md", "table3.csv", "table3.md",
            "table4.csv", "table4.md", "ed_vs_noise.png", "ed_vs_noise.svg",
            "claims.csv", "claims.md",
        ),
        quick={"draws": 2, "noise_ratios": [0, 0.5, 1]},
    ),
    Notebook(
        "wang2015_assessor_differences",
        "wang2015",
        outputs=(
            "descriptive.csv", "ari_vs_published.csv", "ari_per_topic.csv",
            "ari_histogram.png", "figure2_precision_recall.png", "figure2_spread.csv",
            "figure3_cluster_timelines.png", "figure4_official_vs_alternate.png",
            "table1.csv", "table1.md", "table1_vs_published.md",
            "figure5_swap_histograms.png", "tau_vs_disagreement.csv",
            "tau_vs_disagreement.png", "claims.csv", "claims.md",
        ),
        quick={"levels": [0, 1]},
    ),
    Notebook(
        "wang2015_user_preferences",
        "wang2015",
        outputs=(
            "preferences_design.csv", "figure7_kappa.csv", "figure7_kappa.png",
            "figure8_kappa_per_assessor.csv", "figure8_kappa_per_assessor.png",
            "table2_landis_koch.csv", "table3_anova.csv", "figure9_kappa_by_time.csv",
            "figure9_kappa_by_time.png", "fleiss_shared.csv", "claims_preferences.csv",
        ),
    ),
    Notebook(
        "real_data",
        "real_data",
        outputs=(
            "trec2014_facts.csv", "figure3_real_topics.png", "ari_real_pool.csv",
            "stc_spread.csv", "stc_spread.png", "stc_rawg_vs_ug.png", "stc_rawg_vs_ug.csv",
            "stc_dev_missing.csv", "stc_summary.csv", "claims.csv", "claims.md",
        ),
        quick={"trials": 200, "replications": 2},
        needs_data=True,
    ),
)


def ensure_raw_data(root: Path = ROOT, force: bool = False) -> list[Path]:
    """Simulate each default raw data set that is missing (or all, with ``force``)."""
    written = []
    stc = root / "data" / "raw" / "stc"
    if force or not (stc / "qrels.txt").exists():
        written += list(simulate.simulate_stc_collection(stc, seed=DATA_SEED).values())
    ttg = root / "data" / "raw" / "ttg"
    if force or not (ttg / "qrels.txt").exists():
        written += list(simulate.simulate_ttg(ttg, seed=TTG_SEED).values())
    if force or not (ttg / "preferences.csv").exists():
        written.append(simulate.simulate_preferences(ttg, seed=TTG_SEED))
    orderings = root / "data" / "raw" / "ordering" / "judgments.csv"
    if force or not orderings.exists():
        written.append(simulate.simulate_orderings(orderings, seed=ORDERING_SEED))
    return written


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Delete hidden ``.<name>.*.tmp`` files left by a run that was killed mid-write.

    Outputs are written to such temporaries and renamed into place, so a run
    interrupted normally (Ctrl-C, an error) removes its temporary itself; only
    an uncatchable kill (SIGKILL, power loss) can leave one, never a partial
    file under a real name.  :func:`reproduce` calls this for every output
    folder before it starts any notebook (never while one is running).
    """
    stale = sorted(Path(folder).glob(".*.tmp")) if Path(folder).is_dir() else []
    for path in stale:
        path.unlink()
    return stale


def run_notebook(nb: Notebook, out_dir: Path | None = None, executed_dir: Path | None = None,
                 parameters: dict | None = None, progress: bool = False) -> Path:
    """Execute one notebook with papermill; returns the executed copy's path."""
    import papermill

    executed_dir = Path(executed_dir or ROOT / "build" / "notebooks")
    executed_dir.mkdir(parents=True, exist_ok=True)
    params = dict(parameters or {})
    if out_dir is not None:
        params["out_dir"] = str(Path(out_dir).resolve())
    target = executed_dir / nb.path.name
    papermill.execute_notebook(
        str(nb.path), str(target), parameters=params, cwd=str(nb.path.parent),
        kernel_name="python3", progress_bar=progress, log_output=False,
    )
    return target


def reproduce(only: list[str] | None = None, quick: bool = False,
              jobs: int | None = None) -> list[tuple[str, float]]:
    """Simulate missing raw data, run the notebooks, write the report, print where outputs are.

    Notebooks are independent (each writes only its own files), so ``jobs``
    of them (default: the number of cores, at most 2) run at once, each in
    its own kernel process.
    """
    import os
    from concurrent.futures import ThreadPoolExecutor, as_completed

    from . import data

    started = time.perf_counter()
    made = ensure_raw_data()
    if made:
        print(f"simulated {len(made)} raw data files under {ROOT / 'data' / 'raw'}")
    chosen = [nb for nb in NOTEBOOKS if not only or nb.name in only or nb.paper in only]
    if only and not chosen:
        names = ", ".join(nb.name for nb in NOTEBOOKS)
        raise SystemExit(f"evalkit reproduce: no notebook matches {only}; choose from {names}")
    for nb in [n for n in chosen if n.needs_data]:
        from .realdata import REQUIRED

        if not all(data.available(name) for name in REQUIRED):
            print(f"skipping {nb.name}: real data not installed; get it with `make data` "
                  f"(or `evalkit data fetch --mirror DIR`)")
            chosen.remove(nb)
    jobs = max(1, jobs or min(2, os.cpu_count() or 1))
    if jobs > 1:
        # Several kernels at once: one thread each (numba, BLAS), so they do not
        # oversubscribe the cores.  Results do not depend on thread counts.
        for var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "MKL_NUM_THREADS"):
            os.environ.setdefault(var, "1")
    # before any notebook starts: notebooks sharing a folder run concurrently
    for folder in {ROOT / "figures" / nb.paper for nb in chosen}:
        remove_stale_temporaries(folder)

    def one(nb):
        start = time.perf_counter()
        executed = run_notebook(nb, parameters=nb.quick if quick else None)
        return nb, executed, time.perf_counter() - start

    print(f"running {len(chosen)} notebooks, {jobs} at a time ...", flush=True)
    timings = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(one, nb) for nb in chosen]
        for done, future in enumerate(as_completed(futures), start=1):
            nb, executed, seconds = future.result()
            timings.append((nb.name, seconds))
            print(f"[{done}/{len(chosen)}] {nb.name} done in {seconds:.1f} s: figures/{nb.paper}/ "
                  f"(executed: {executed.relative_to(ROOT)})", flush=True)
    from . import report

    total = time.perf_counter() - started
    page = report.build(total_seconds=total)
    print(f"All outputs are under {ROOT / 'figures'}; report: {page} ({total:.1f} s in all)")
    return timings
