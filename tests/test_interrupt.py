"""Atomic outputs: killing a notebook mid-run leaves no partial file behind."""

import hashlib
import os
import subprocess
import sys
import time

import psutil
import pytest

from evalkit import reproduce

pytestmark = pytest.mark.notebook


def _digests(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in folder.iterdir() if p.is_file()}


def _run(nb, out, params, executed):
    code = ("import sys, json; from evalkit import reproduce as r; "
            "nb = [n for n in r.NOTEBOOKS if n.name == sys.argv[1]][0]; "
            "r.run_notebook(nb, out_dir=sys.argv[2], executed_dir=sys.argv[3], "
            "parameters=json.loads(sys.argv[4]))")
    import json

    return subprocess.Popen([sys.executable, "-c", code, nb.name, str(out), str(executed),
                             json.dumps(params)], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_killed_run_leaves_old_or_new_files_only(tmp_path, notebook_inputs):
    nb = next(n for n in reproduce.NOTEBOOKS if n.paper == "kim2010")
    base = dict(nb.quick, **notebook_inputs[nb.paper])
    old, new = tmp_path / "old", tmp_path / "new"
    assert _run(nb, old, dict(base, seed=1), tmp_path / "x1").wait(300) == 0
    assert _run(nb, new, dict(base, seed=2), tmp_path / "x2").wait(300) == 0
    before, after = _digests(old), _digests(new)
    assert before != after  # the second seed changes some outputs
    mtimes = {p.name: p.stat().st_mtime_ns for p in old.iterdir()}

    proc = _run(nb, old, dict(base, seed=2), tmp_path / "x3")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if any(p.stat().st_mtime_ns != mtimes.get(p.name) for p in old.iterdir()):
            break  # the rerun has started replacing outputs: interrupt it now
        time.sleep(0.02)
    tree = psutil.Process(proc.pid).children(recursive=True) if proc.poll() is None else []
    for p in [psutil.Process(proc.pid)] * (proc.poll() is None) + tree:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    proc.wait(30)
    assert proc.returncode != 0, "the rerun finished before it could be interrupted"
    time.sleep(0.5)

    leftovers = [p.name for p in old.iterdir() if p.name.endswith(".tmp")]
    assert not leftovers, f"partial files left: {leftovers}"
    now = _digests(old)
    assert set(now) == set(before)
    for name, digest in now.items():
        assert digest in (before[name], after[name]), f"{name} is neither the old nor the new file"
    replaced = sum(now[n] != before[n] for n in now)
    assert replaced < sum(after[n] != before[n] for n in now)  # really stopped part-way
