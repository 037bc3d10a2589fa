"""The runner: regenerate simulated raw data and execute every notebook with papermill.

Used by ``make reproduce`` and ``evalkit reproduce``.  Executed notebooks go to
``build/notebooks/`` (git-ignored); each notebook writes its tables and
figures to ``figures/<paper>/`` and nowhere else.

Notebooks execute in worker processes (:mod:`evalkit.workspace.jobs`), a fresh
kernel each, with the kernel's working directory passed explicitly; this module
plans the jobs and reports them from the main thread, so nothing here ever
changes the working directory.  A failing
notebook is reported by name, cell and error while the others finish; the
exit status is then non-zero.  Ctrl-C stops every worker (and so every
kernel) before returning.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path

from .. import papers
from ..outputs import remove_stale_temporaries
from .. import paths
from ..declare.notebook import Notebook
from .jobs import Job, Outcome, kernel_path, run_jobs

__all__ = ["ensure_raw_data", "Job", "Outcome", "expected_seconds",
           "kernel_path", "longest_first", "run_jobs", "run_notebook", "reproduce"]

ROOT = paths.ROOT


def ensure_raw_data(force: bool = False, notebooks=None) -> list[Path]:
    """Simulate each notebook's declared raw input that is missing (or all, with ``force``).

    ``notebooks`` defaults to every registered one.  Inputs shared by several
    notebooks are made once, in registry order.
    """
    written, done = [], set()
    for nb in notebooks or papers.notebooks():
        for item in nb.inputs:
            if item.path in done or item.make is None:
                continue
            done.add(item.path)
            if force or not item.location.exists():
                made = item.make()
                written += list(made.values()) if isinstance(made, dict) else [made]
    return written


def expected_seconds(job: Job) -> float:
    """How long ``job`` should take: its last measured time (the worker's result record
    beside the executed copy), else the notebook's declared ``expected_seconds``."""
    record = job.executed.with_suffix(".result.json")
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        rec = json.loads(record.read_text())
        if rec.get("status") == "ok":
            return float(rec["seconds"])
    return float(job.notebook.expected_seconds)


def longest_first(jobs: list[Job]) -> list[Job]:
    """Jobs ordered longest first (ties keep registry order).

    With two notebooks at a time, starting the long ones first keeps a long
    notebook from starting last while the other core idles (the classic
    longest-processing-time rule); outputs do not depend on the order.
    """
    return sorted(jobs, key=lambda job: -expected_seconds(job))


def run_notebook(nb: Notebook, out_dir: Path | None = None, executed_dir: Path | None = None,
                 parameters: dict | None = None, verbose: bool = False) -> Path:
    """Execute one notebook in a worker process; return the executed copy's path.

    Raises :class:`~evalkit.errors.NotebookError` naming the failing cell and error.
    """
    params = {**nb.batch, **(parameters or {})}
    if out_dir is not None:
        params["out_dir"] = kernel_path(out_dir)
    executed = Path(executed_dir or paths.EXECUTED).resolve() / nb.path.name
    outcome = run_jobs([Job(nb, params, executed)], verbose=verbose)[0]
    outcome.raise_for_failure()
    return executed


def _relative(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(paths.ROOT))
    except ValueError:
        return str(path)


def reproduce(only: list[str] | None = None, quick: bool = False, jobs: int | None = None,
              verbose: bool = False, figures: Path | None = None,
              executed: Path | None = None) -> list[Outcome]:
    """Simulate missing raw data, run the notebooks, write the report; one line per notebook.

    ``jobs`` independent notebooks (default: the cores, at most 2) run at once, each
    in its own worker and kernel.  Returns every outcome (the caller turns a failure
    into an exit status).  ``figures`` and ``executed`` redirect the outputs (default
    ``figures/``, ``build/notebooks/``; with ``quick``, ``build/quick/figures/`` and
    ``build/quick/notebooks/``: a smoke run never overwrites the committed outputs).
    """
    from .. import data
    from . import report

    started = time.perf_counter()
    made = ensure_raw_data()
    if made:
        print(f"simulated {len(made)} raw data files under {_relative(paths.RAW)}/")
    registry = papers.notebooks()
    chosen = [nb for nb in registry if not only or nb.name in only or nb.paper in only]
    if only and not chosen:
        names = ", ".join(nb.name for nb in registry)
        raise SystemExit(f"evalkit reproduce: no notebook matches {only}; choose from {names}")
    for nb in [n for n in chosen if n.needs_data]:
        if not all(data.available(name) for name in nb.needs_data):
            print(f"skipping {nb.name}: real data not installed; get it with `make data` "
                  f"(or `evalkit data fetch --mirror DIR`)")
            chosen.remove(nb)
    parallel = max(1, jobs or min(2, os.cpu_count() or 1))
    # a quick (smoke) run never overwrites the committed full-parameter outputs
    default_figures, default_executed = ((paths.BUILD / "quick" / "figures", paths.BUILD / "quick" / "notebooks")
                                         if quick else (paths.FIGURES, paths.EXECUTED))
    figures = Path(figures or default_figures).resolve()
    executed = Path(executed or default_executed).resolve()
    # before any notebook starts: notebooks sharing a folder run concurrently
    for folder in {figures / nb.paper for nb in chosen}:
        remove_stale_temporaries(folder)
    work = longest_first([Job(nb, {**nb.batch, **(nb.quick if quick else {}), "out_dir":
                                   kernel_path(figures / nb.paper)}, executed / nb.path.name)
                          for nb in chosen])
    print(f"running {len(work)} notebooks, {parallel} at a time", flush=True)

    def done(o: Outcome) -> None:
        if o.status == "ok":
            print(f"  done    {o.job.name} in {o.seconds:.1f} s -> "
                  f"{_relative(figures / o.job.notebook.paper)}/", flush=True)
        else:
            where = f"cell {o.cell}" if o.cell is not None else "before any cell ran"
            print(f"  FAILED  {o.job.name} in {where}: {o.error}: {o.message}\n"
                  f"          full output: {_relative(o.log)}", flush=True)

    outcomes = run_jobs(work, parallel, verbose,
                        on_start=lambda j: print(f"  started {j.name}", flush=True), on_done=done)
    total = time.perf_counter() - started
    page = report.build(figures=figures, executed=executed, total_seconds=total)
    failed = [o.job.name for o in outcomes if o.status != "ok"]
    print(f"{len(outcomes) - len(failed)} of {len(outcomes)} notebooks ok in {total:.1f} s"
          + (f"; FAILED: {', '.join(failed)}" if failed else "")
          + f". Outputs: {_relative(figures)}/; report: {_relative(page)}")
    return outcomes
