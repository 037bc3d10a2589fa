"""Execute notebooks with papermill in THIS process: the runner's worker.

Run as ``python -m evalkit.workspace.worker SPEC.json`` for one notebook, or
with ``--serve`` to run one notebook per spec path read from stdin (the
runner's workers, :mod:`evalkit.workspace.jobs`: papermill imported once, a
fresh kernel per notebook).  A spec holds the notebook, the executed copy's
path, the kernel's working directory, the parameters, the log and where to
write the result record.  Only one notebook runs in a worker at a time, so
papermill's process-wide ``os.chdir`` and its global I/O handlers never race
with another notebook (they did when notebooks ran in threads of one process).

The result record (JSON) says ``ok`` or, for a failure, the failing cell's
index, the error's name and message; the runner prints those instead of a
traceback.  On Linux the worker asks the kernel to SIGKILL it when its parent
(the runner) dies, and its own kernel notices the worker is gone within a
second (ipykernel's parent poller), so killing the runner leaves nothing behind.

Static output stays clean: the kernel starts with :func:`text_progress`, so
``tqdm.auto`` progress bars write text rather than widgets, and the streams
of each cell are coalesced (carriage returns applied), so a finished bar
leaves one line in the executed notebook and the book.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Linux only: be sent SIGKILL when the process that started us exits."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        try:
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except OSError:  # pragma: no cover - no libc: nothing to arrange
            pass


def ipc_kernel_manager(folder: str):
    """A kernel manager class whose kernel talks over Unix sockets in ``folder``.

    Over TCP each kernel picks five free ports and binds them a moment later;
    two workers starting kernels at once can pick the same port, and the
    second kernel dies with "Address already in use" (seen once in a
    fresh-clone test run).  Sockets named by an absolute path in the worker's
    own folder cannot collide, and the kernel no longer warns that it runs
    over TCP without encryption.
    """
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import CaselessStrEnum, default

    class IPCKernelManager(AsyncKernelManager):
        transport = CaselessStrEnum(["tcp", "ipc"], default_value="ipc", config=True)

        @default("ip")
        def _ip_default(self) -> str:   # absolute: the kernel runs in the notebook's folder
            return os.path.join(folder, "kernel")

    return IPCKernelManager


def text_progress() -> None:
    """In a batch kernel: make ``tqdm.auto`` (and ``tqdm.autonotebook``) the text progress bar.

    Run by the kernel before the first cell (``IPKernelApp.exec_lines``): modules
    that later do ``from tqdm.auto import tqdm`` get the text bar, whose
    carriage-return updates the coalesced stream reduces to its final line.  A
    widget bar would leave its first state ("0/9") in the static output.
    JupyterLab sessions are untouched.  ``tqdm.autonotebook`` is put in place
    as a plain module before ``tqdm.auto`` imports it, so the kernel does not
    import ipywidgets (about 0.2 s) for a widget bar it would not use.
    """
    import types

    import tqdm.std

    if "tqdm.autonotebook" not in sys.modules:
        text = types.ModuleType("tqdm.autonotebook", "tqdm.autonotebook in a batch kernel: the text bar")
        text.__all__ = ["tqdm", "trange"]
        text.tqdm, text.trange = tqdm.std.tqdm, tqdm.std.trange
        sys.modules["tqdm.autonotebook"] = text
    import tqdm.auto

    for module in (sys.modules["tqdm.auto"], sys.modules["tqdm.autonotebook"]):
        module.tqdm, module.trange = tqdm.std.tqdm, tqdm.std.trange


def freeze_survivors() -> None:
    """In a batch kernel: after each cell, collect its garbage once, then move every object
    that survived it out of the garbage collector's sight (:func:`gc.freeze`).

    The collector otherwise rescans the modules, arrays and frames that earlier
    cells left alive each time a cell allocates; that was 1.3 s of the real-data
    notebook's CPU and 0.6 s of LLMJudge's.  Objects are still freed when their
    last reference goes, and a cell's own garbage (a closed figure's reference
    cycles) is collected before the freeze; only a cycle that a later cell
    breaks among frozen objects stays in memory until the kernel stops, after
    the notebook's last cell.  Results do not depend on the collector.
    """
    import gc

    from IPython import get_ipython

    def collect_and_freeze(result=None) -> None:
        gc.collect()
        gc.freeze()

    collect_and_freeze()
    get_ipython().events.register("post_run_cell", collect_and_freeze)


#: Kernel arguments of every batch run (see :func:`text_progress`, :func:`freeze_survivors`).
KERNEL_ARGUMENTS = ["--IPKernelApp.exec_lines=from evalkit.workspace.worker import text_progress, "
                    "freeze_survivors",
                    "--IPKernelApp.exec_lines=text_progress()",
                    "--IPKernelApp.exec_lines=freeze_survivors()"]


ENGINE = "evalkit-once"


def register_engine() -> None:
    """Register :data:`ENGINE`: papermill's nbclient engine writing the executed copy once.

    papermill writes (and validates) the whole executed notebook at the start and
    end of every cell, so that someone watching sees it fill in: about half a
    second of the worker's CPU per chapter, taken from the kernels sharing the
    cores.  This engine writes it when the notebook has run or failed (papermill's
    own ``finally``), with the same content; the runner removes the previous copy
    first, so a killed run leaves none rather than a stale one.
    """
    from papermill.engines import NBClientEngine, NotebookExecutionManager, papermill_engines

    class WriteOnce(NotebookExecutionManager):
        def _unsaved(self, step, *args, **kwargs):
            path, self.output_path = self.output_path, None   # save() writes nothing
            try:
                return step(self, *args, **kwargs)
            finally:
                self.output_path = path

        def notebook_start(self, **kwargs):
            return self._unsaved(NotebookExecutionManager.notebook_start, **kwargs)

        def cell_start(self, cell, cell_index=None, **kwargs):
            return self._unsaved(NotebookExecutionManager.cell_start, cell, cell_index, **kwargs)

        def cell_complete(self, cell, cell_index=None, **kwargs):
            return self._unsaved(NotebookExecutionManager.cell_complete, cell, cell_index, **kwargs)

    class Engine(NBClientEngine):
        @classmethod
        def execute_notebook(cls, nb, kernel_name, output_path=None, progress_bar=True,
                             log_output=False, autosave_cell_every=30, **kwargs):
            # Engine.execute_notebook with WriteOnce and no timed autosave
            nb_man = WriteOnce(nb, output_path=output_path, progress_bar=progress_bar,
                               log_output=log_output, autosave_cell_every=0)
            nb_man.notebook_start()
            try:
                cls.execute_managed_notebook(nb_man, kernel_name, log_output=log_output, **kwargs)
            finally:
                nb_man.cleanup_pbar()
                nb_man.notebook_complete()
            return nb_man.nb

    papermill_engines.register(ENGINE, Engine)


def execute(spec: dict) -> dict:
    """Run the notebook described by ``spec``; return the result record."""
    import shutil
    import tempfile

    import papermill
    from papermill.exceptions import PapermillExecutionError

    register_engine()

    started = time.perf_counter()
    record = {"notebook": spec["input"], "executed": spec["output"], "status": "ok"}
    # short (a socket path has at most 107 bytes); the runner makes it and removes it after us
    own = "sockets" not in spec
    sockets = tempfile.mkdtemp(prefix="evalkit-kernel-") if own else spec["sockets"]
    try:
        papermill.execute_notebook(
            spec["input"], spec["output"], parameters=spec["parameters"], cwd=spec["cwd"],
            kernel_name=spec.get("kernel", "python3"), progress_bar=False, engine_name=ENGINE,
            log_output=bool(spec.get("verbose")), kernel_manager_class=ipc_kernel_manager(sockets),
            extra_arguments=KERNEL_ARGUMENTS, coalesce_streams=True,
            # every output is on disk when its cell ends (atomic writes), and no notebook
            # registers an exit hook: stopping the kernel at once saves the 0.3-0.9 s its
            # interpreter takes to tear down numba, scipy and matplotlib
            shutdown_kernel="immediate",
        )
    except PapermillExecutionError as exc:
        record |= {"status": "failed", "cell": exc.exec_count, "error": exc.ename,
                   "message": str(exc.evalue).strip()}
    except Exception as exc:  # the kernel died, the notebook is unreadable, ...
        record |= {"status": "failed", "cell": None, "error": type(exc).__name__,
                   "message": str(exc).strip()}
    finally:
        if own:
            shutil.rmtree(sockets, ignore_errors=True)
    record["seconds"] = time.perf_counter() - started
    return record


def skip_iri_checker() -> None:
    """Keep jsonschema from importing its optional IRI checker in this worker.

    papermill imports nbformat, whose JSON-schema validation imports
    jsonschema's format checkers; the optional ``rfc3987_syntax`` one builds
    a grammar on import (about 1.3 s here, more than the rest of papermill).
    The notebook schemas use no ``format`` keyword, so nothing is lost.
    """
    sys.modules.setdefault("rfc3987_syntax", None)


def _log_to(path: str) -> None:
    """Send this process's stdout and stderr, and so a kernel started after this, to ``path``."""
    sys.stdout.flush()
    sys.stderr.flush()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)


def _run(spec_path: str) -> dict:
    """Run one job (its spec file) and write its result record, atomically: the runner
    takes the record's appearance as the job's end."""
    spec = json.loads(Path(spec_path).read_text())
    if spec.get("log"):
        _log_to(spec["log"])
    record = execute(spec) | {"worker": os.getpid()}
    result = Path(spec["result"])
    partial = result.with_name(f".{result.name}.{os.getpid()}.tmp")
    partial.write_text(json.dumps(record))
    os.replace(partial, result)
    return record


def main(argv: list[str] | None = None) -> int:
    """``worker SPEC.json``: run one job; ``worker --serve``: run one job per spec path read
    from stdin, until stdin ends (the runner's workers: papermill is imported once)."""
    argv = sys.argv[1:] if argv is None else argv
    die_with_parent()
    skip_iri_checker()
    if argv[0] != "--serve":
        return 0 if _run(argv[0])["status"] == "ok" else 1
    for line in sys.stdin:
        if line.strip():
            _run(line.strip())
    return 0


if __name__ == "__main__":  # pragma: no cover - run as a process
    sys.exit(main())
