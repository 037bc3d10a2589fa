"""The runner: regenerate simulated raw data and execute every notebook with papermill.

Used by ``make reproduce`` and ``evalkit reproduce``.  Executed notebooks go to
``build/notebooks/`` (git-ignored); each notebook writes its tables and
figures to ``figures/<paper>/`` and nowhere else.

Every notebook executes in a worker process of its own
(:mod:`evalkit.workspace.worker`) with the kernel's working directory passed
explicitly; this module only starts and watches those processes from the
main thread, so nothing here ever changes the working directory.  A failing
notebook is reported by name, cell and error while the others finish; the
exit status is then non-zero.  Ctrl-C stops every worker (and so every
kernel) before returning.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .. import papers
from ..errors import NotebookError
from ..outputs import remove_stale_temporaries
from .. import paths
from ..declare.notebook import Notebook

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


def kernel_path(path: Path) -> str:
    """``path`` relative to ``notebooks/`` (the kernels' folder) inside the repository."""
    path = Path(path).resolve()
    try:
        path.relative_to(paths.ROOT)
    except ValueError:
        return str(path)
    return os.path.relpath(path, paths.NOTEBOOKS)


@dataclass(frozen=True)
class Job:
    """One notebook execution: parameters, output folder, executed copy; ``source``, if
    given, is run instead of the notebook file (the instructor edition's filled copy)."""

    notebook: Notebook
    parameters: dict
    executed: Path        # the executed copy (.ipynb)
    source: Path | None = None

    @property
    def name(self) -> str:
        return self.notebook.name


@dataclass(frozen=True)
class Outcome:
    """How a job ended: ``status`` is ``"ok"`` or ``"failed"`` (with cell, error, message)."""

    job: Job
    status: str
    seconds: float
    log: Path
    cell: int | None = None
    error: str = ""
    message: str = ""

    def raise_for_failure(self) -> None:
        if self.status != "ok":
            raise NotebookError(self.job.name, self.cell, self.error, self.message, self.log)


#: Thread-count variables set to 1 for every kernel when notebooks share the cores.
THREAD_VARIABLES = ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def _environment(one_thread: bool) -> dict:
    env = dict(os.environ)
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # debugpy's frozen-modules note
    if one_thread:
        for var in THREAD_VARIABLES:
            env.setdefault(var, "1")
    return env


def _start(job: Job, env: dict, verbose: bool) -> tuple[subprocess.Popen, Path, Path, str]:
    import tempfile

    job.executed.parent.mkdir(parents=True, exist_ok=True)
    stem = job.executed.resolve().with_suffix("")  # the worker runs in notebooks/
    spec, result, log = (Path(f"{stem}.spec.json"), Path(f"{stem}.result.json"), Path(f"{stem}.log"))
    result.unlink(missing_ok=True)
    # the kernel's Unix sockets (evalkit.workspace.worker.ipc_kernel_manager); removed by
    # the runner once the worker is reaped, however it ended
    sockets = tempfile.mkdtemp(prefix="evalkit-kernel-")
    spec.write_text(json.dumps({
        # relative to the worker's folder: papermill records both in the notebook's metadata
        "input": kernel_path(job.source or job.notebook.path), "output": kernel_path(job.executed),
        "cwd": str(paths.NOTEBOOKS),
        "parameters": job.parameters, "result": str(result), "verbose": verbose,
        "sockets": sockets}))
    with open(log, "wb") as handle:
        proc = subprocess.Popen(
            [sys.executable, "-m", "evalkit.workspace.worker", str(spec)], env=env,
            cwd=str(paths.NOTEBOOKS), stdin=subprocess.DEVNULL,
            stdout=None if verbose else handle, stderr=None if verbose else subprocess.STDOUT,
            start_new_session=True)
    return proc, result, log, sockets


def _stop(procs) -> None:
    """Stop every worker AND its kernel; return only when all of them have exited.

    A kernel runs in a session of its own, so signalling the worker's process
    group does not reach it: we SIGTERM each worker's whole process tree and
    SIGKILL what is left after 5 s.  Waiting matters: a kernel still running
    a cell could create a temporary output after the caller cleaned the folder.
    """
    import psutil

    tree = []
    for proc in procs:
        with contextlib.suppress(psutil.NoSuchProcess):
            top = psutil.Process(proc.pid)
            tree += [top, *top.children(recursive=True)]
    for member in tree:
        with contextlib.suppress(psutil.NoSuchProcess):
            member.terminate()
    alive = _wait_gone(tree, 5)
    for member in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            member.kill()
    _wait_gone(alive, 30)
    for proc in procs:  # reap the workers' exit statuses
        proc.wait()


def _wait_gone(members, timeout: float) -> list:
    """Wait until every process has exited; return those still running after ``timeout``.

    A zombie counts as gone: it runs no code, and an orphaned kernel is reaped
    by whoever adopts it (which, in a container, may never happen).
    """
    import psutil

    deadline = time.monotonic() + timeout
    while True:
        alive = []
        for member in members:
            with contextlib.suppress(psutil.NoSuchProcess):
                if member.is_running() and member.status() != psutil.STATUS_ZOMBIE:
                    alive.append(member)
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.02)


def run_jobs(jobs: list[Job], parallel: int = 1, verbose: bool = False,
             on_start=None, on_done=None, one_thread: bool | None = None) -> list[Outcome]:
    """Run ``jobs``, ``parallel`` worker processes at a time; outcomes in completion order.

    Only the calling thread starts, polls and reaps workers.  With more than
    one at a time (or ``one_thread``) each kernel gets one thread (numba,
    BLAS) so they do not oversubscribe the cores; results do not depend on
    thread counts.
    """
    env = _environment(parallel > 1 if one_thread is None else one_thread)
    pending, running, outcomes = list(jobs), {}, []
    try:
        while pending or running:
            while pending and len(running) < max(1, parallel):
                job = pending.pop(0)
                running[job.name, id(job)] = (job, time.perf_counter(), *_start(job, env, verbose))
                if on_start:
                    on_start(job)
            done = [k for k, (_, _, proc, *_) in running.items() if proc.poll() is not None]
            if not done:
                time.sleep(0.05)
            for key in done:
                job, started, proc, result, log, sockets = running.pop(key)
                shutil.rmtree(sockets, ignore_errors=True)
                outcomes.append(_outcome(job, time.perf_counter() - started, proc.returncode,
                                         result, log))
                if outcomes[-1].status != "ok" and job.parameters.get("out_dir"):
                    # an interrupted worker kills its kernel, maybe between creating a
                    # temporary and removing it; the worker is gone, and its kernel with it
                    remove_stale_temporaries(paths.NOTEBOOKS / job.parameters["out_dir"])
                if on_done:
                    on_done(outcomes[-1])
    except BaseException:  # Ctrl-C or an error in a callback: leave no worker or kernel behind
        _stop([proc for _, _, proc, *_ in running.values()])
        # a kernel stopped between creating a temporary and renaming it leaves one behind;
        # every worker is gone now, so no temporary in their folders is still in use
        for job, _, _, _, _, sockets in running.values():
            shutil.rmtree(sockets, ignore_errors=True)
            if job.parameters.get("out_dir"):   # relative to the kernels' folder
                remove_stale_temporaries(paths.NOTEBOOKS / job.parameters["out_dir"])
        raise
    return outcomes


def _outcome(job: Job, seconds: float, code: int, result: Path, log: Path) -> Outcome:
    if result.is_file():
        rec = json.loads(result.read_text())
        return Outcome(job, rec["status"], seconds, log, rec.get("cell"), rec.get("error", ""),
                       rec.get("message", ""))
    return Outcome(job, "failed", seconds, log, None, "WorkerDied",
                   f"the worker process exited with status {code} before reporting")


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
