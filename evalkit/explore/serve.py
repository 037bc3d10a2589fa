"""``make explore``: serve the explorer notebooks as a web app with Voila on localhost.

Voila runs every cell of a notebook in a fresh kernel and shows only the
outputs (the widgets), with the code hidden.  The server binds to 127.0.0.1
only, on a free port, and lists the addresses of the explorers; Ctrl-C stops
it.  Cells tagged ``exercise`` (answers and solutions) are not run in the app.  The browser tests start the same command (:func:`voila_command`).
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from .. import paths

__all__ = ["explorer_urls", "free_port", "serve", "voila_command"]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def voila_command(port: int, root: Path | None = None) -> list[str]:
    """Voila serving the folder ``root`` (default ``notebooks/``) on 127.0.0.1:``port``."""
    voila = Path(sys.executable).with_name("voila")
    return [str(voila) if voila.exists() else "voila", str(root or paths.NOTEBOOKS),
            "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
            "--VoilaConfiguration.show_tracebacks=True",
            # the exercises are for JupyterLab: the app would print the solutions' verdicts
            "--VoilaExecutor.skip_cells_with_tag=exercise"]


def explorer_urls(port: int) -> dict[str, str]:
    """Address of every ``notebooks/explore_*.ipynb`` under a Voila started on ``port``."""
    return {nb.stem: f"http://127.0.0.1:{port}/voila/render/{nb.name}"
            for nb in sorted(paths.NOTEBOOKS.glob("explore_*.ipynb"))}


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def serve(port: int | None = None) -> int:
    """Start Voila, print the addresses, wait until Ctrl-C (or SIGTERM); returns Voila's status.

    Voila runs in a session of its own, so Ctrl-C reaches only this process,
    which then stops Voila (SIGTERM, SIGKILL after 10 s) and its kernels.
    """
    import signal

    port = port or free_port()
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    proc = subprocess.Popen(voila_command(port), cwd=str(paths.NOTEBOOKS), start_new_session=True)
    print(f"Voila serves the explorers on http://127.0.0.1:{port}/ (Ctrl-C stops it):")
    for name, url in explorer_urls(port).items():
        print(f"  {name:20} {url}")
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        try:
            return proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            return proc.wait()


if __name__ == "__main__":  # pragma: no cover - `make explore`
    sys.exit(serve(int(sys.argv[1]) if len(sys.argv) > 1 else None))
