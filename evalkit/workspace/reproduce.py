"""Regenerate simulated raw data and execute every notebook with papermill.

Used by ``make reproduce`` and ``evalkit reproduce``.  Executed notebooks go to
``build/notebooks/`` (git-ignored); each notebook writes its tables and
figures to ``figures/<paper>/`` and nowhere else.
"""

from __future__ import annotations

import time
from pathlib import Path

from .. import papers
from . import paths
from .notebook import Notebook

__all__ = ["ensure_raw_data", "remove_stale_temporaries", "run_notebook", "reproduce"]

ROOT = paths.ROOT


def ensure_raw_data(force: bool = False) -> list[Path]:
    """Simulate each notebook's declared raw input that is missing (or all, with ``force``).

    Inputs shared by several notebooks are made once, in registry order.
    """
    written, done = [], set()
    for nb in papers.notebooks():
        for item in nb.inputs:
            if item.path in done or item.make is None:
                continue
            done.add(item.path)
            if force or not item.location.exists():
                made = item.make()
                written += list(made.values()) if isinstance(made, dict) else [made]
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

    executed_dir = Path(executed_dir or paths.EXECUTED)
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

    from . import data, report

    started = time.perf_counter()
    made = ensure_raw_data()
    if made:
        print(f"simulated {len(made)} raw data files under {ROOT / 'data' / 'raw'}")
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
    jobs = max(1, jobs or min(2, os.cpu_count() or 1))
    if jobs > 1:
        # Several kernels at once: one thread each (numba, BLAS), so they do not
        # oversubscribe the cores.  Results do not depend on thread counts.
        for var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "MKL_NUM_THREADS"):
            os.environ.setdefault(var, "1")
    # before any notebook starts: notebooks sharing a folder run concurrently
    for folder in {nb.out_dir for nb in chosen}:
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
    total = time.perf_counter() - started
    page = report.build(total_seconds=total)
    print(f"All outputs are under {paths.FIGURES}; report: {page} ({total:.1f} s in all)")
    return timings
