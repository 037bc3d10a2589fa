"""Jobs, their outcomes, and the worker processes that run them.

A job is one notebook execution (:class:`Job`).  :func:`run_jobs` runs a list
of them ``parallel`` at a time in worker processes (:mod:`evalkit.workspace.worker`,
``--serve``): each worker runs one job after another, importing papermill once,
with a fresh kernel per notebook.  Only the calling thread starts, feeds, polls
and stops workers, so nothing here changes the working directory.  A worker
that dies fails its job only (the next job gets a new worker); Ctrl-C or an
error stops every worker and kernel before it returns.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from ..declare.notebook import Notebook
from ..errors import NotebookError
from ..outputs import remove_stale_temporaries

__all__ = ["Job", "Outcome", "THREAD_VARIABLES", "kernel_path", "run_jobs"]


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


class _Worker:
    """One worker process (``python -m evalkit.workspace.worker --serve``) and the job it runs.

    The worker reads a job's spec path per line on its stdin; it writes the job's result
    record (atomically) beside the executed copy when the job ends, and sends its own and
    its kernel's output to the job's log (to the terminal with ``verbose``).
    """

    def __init__(self, env: dict, verbose: bool):
        self.verbose = verbose
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "evalkit.workspace.worker", "--serve"], env=env,
            cwd=str(paths.NOTEBOOKS), stdin=subprocess.PIPE,
            # each job's output goes to its log (the worker redirects itself); a worker that
            # fails before its first job says why on the runner's stderr
            stdout=None if verbose else subprocess.DEVNULL, stderr=None, start_new_session=True)
        self.job = None

    def start(self, job: Job) -> None:
        job.executed.parent.mkdir(parents=True, exist_ok=True)
        stem = job.executed.resolve().with_suffix("")  # the worker runs in notebooks/
        self.spec, self.result, self.log = (Path(f"{stem}.spec.json"), Path(f"{stem}.result.json"),
                                            Path(f"{stem}.log"))
        self.result.unlink(missing_ok=True)
        job.executed.unlink(missing_ok=True)   # written when the notebook ends (worker.ENGINE)
        self.log.write_bytes(b"")
        # the kernel's Unix sockets (evalkit.workspace.worker.ipc_kernel_manager); removed
        # once the job has ended, however it ended
        self.sockets = tempfile.mkdtemp(prefix="evalkit-kernel-")
        self.spec.write_text(json.dumps({
            # relative to the worker's folder: papermill records both in the notebook's metadata
            "input": kernel_path(job.source or job.notebook.path), "output": kernel_path(job.executed),
            "cwd": str(paths.NOTEBOOKS), "parameters": job.parameters, "result": str(self.result),
            "log": None if self.verbose else str(self.log), "verbose": self.verbose,
            "sockets": self.sockets}))
        self.job, self.started = job, time.perf_counter()
        try:
            self.proc.stdin.write(f"{self.spec}\n".encode())
            self.proc.stdin.flush()
        except BrokenPipeError:   # the worker died idle: poll() reports the job as failed
            pass

    def poll(self) -> Outcome | None:
        """The running job's outcome once it has ended (its result written, or the worker gone)."""
        if not self.result.is_file() and self.proc.poll() is None:
            return None
        shutil.rmtree(self.sockets, ignore_errors=True)
        job, self.job = self.job, None
        return _outcome(job, time.perf_counter() - self.started, self.proc.poll(), self.result,
                        self.log)

    def close(self) -> None:
        """No more jobs: the worker exits when its stdin ends."""
        with contextlib.suppress(BrokenPipeError, OSError):
            self.proc.stdin.close()
        self.proc.wait()


def run_jobs(jobs: list[Job], parallel: int = 1, verbose: bool = False,
             on_start=None, on_done=None, one_thread: bool | None = None) -> list[Outcome]:
    """Run ``jobs``, ``parallel`` at a time; outcomes in completion order.

    At most ``parallel`` workers run, each taking the next job as it finishes one.  With
    more than one at a time (or ``one_thread``) each kernel gets one thread (numba, BLAS)
    so they do not oversubscribe the cores; results do not depend on thread counts.
    """
    env = _environment(parallel > 1 if one_thread is None else one_thread)
    pending, idle, busy, outcomes = list(jobs), [], [], []
    try:
        while pending or busy:
            while pending and len(busy) < max(1, parallel):
                worker = idle.pop() if idle else _Worker(env, verbose)
                job = pending.pop(0)
                worker.start(job)
                busy.append(worker)
                if on_start:
                    on_start(job)
            ended = [(w, w.poll()) for w in busy]
            ended = [(w, o) for w, o in ended if o is not None]
            if not ended:
                time.sleep(0.05)
            for worker, outcome in ended:
                busy.remove(worker)
                if worker.proc.poll() is None:
                    idle.append(worker)
                outcomes.append(outcome)
                if outcome.status != "ok" and outcome.job.parameters.get("out_dir"):
                    # a worker killed mid-job kills its kernel, maybe between creating a
                    # temporary and removing it; the worker is gone, and its kernel with it
                    remove_stale_temporaries(paths.NOTEBOOKS / outcome.job.parameters["out_dir"])
                if on_done:
                    on_done(outcome)
        for worker in idle:
            worker.close()
    except BaseException:  # Ctrl-C or an error in a callback: leave no worker or kernel behind
        _stop([w.proc for w in busy + idle])
        # a kernel stopped between creating a temporary and renaming it leaves one behind;
        # every worker is gone now, so no temporary in their folders is still in use
        for worker in busy:
            shutil.rmtree(worker.sockets, ignore_errors=True)
            if worker.job.parameters.get("out_dir"):   # relative to the kernels' folder
                remove_stale_temporaries(paths.NOTEBOOKS / worker.job.parameters["out_dir"])
        raise
    return outcomes


def _outcome(job: Job, seconds: float, code: int | None, result: Path, log: Path) -> Outcome:
    if result.is_file():
        rec = json.loads(result.read_text())
        return Outcome(job, rec["status"], seconds, log, rec.get("cell"), rec.get("error", ""),
                       rec.get("message", ""))
    return Outcome(job, "failed", seconds, log, None, "WorkerDied",
                   f"the worker process exited with status {code} before reporting")


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
