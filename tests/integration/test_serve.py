"""``make explore``: Voila on 127.0.0.1, the addresses printed, everything stopped on SIGTERM."""

import signal
import subprocess
import sys
import time
import urllib.request

import psutil
import pytest

from evalkit.explore.serve import free_port


@pytest.mark.browser
def test_serve_prints_the_addresses_and_stops_voila_on_sigterm():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "evalkit.explore.serve", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith(f"Voila serves the explorers on http://127.0.0.1:{port}/")
        lines = [proc.stdout.readline() for _ in range(3)]
        assert any(f"http://127.0.0.1:{port}/voila/render/explore_sakai2017.ipynb" in l
                   for l in lines)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    assert r.status == 200
                break
            except OSError:
                assert time.monotonic() < deadline, "Voila did not answer"
                time.sleep(0.3)
        children = psutil.Process(proc.pid).children(recursive=True)
        assert children                                   # Voila itself
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)                                     # raises if it is still running
        _, alive = psutil.wait_procs(children, timeout=10)
        assert not alive
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
