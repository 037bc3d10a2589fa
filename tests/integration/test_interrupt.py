"""Atomic outputs: interrupting a notebook mid-run leaves no partial file behind."""

import hashlib
import json
import signal
import subprocess
import sys
import time

import psutil
import pytest

from evalkit import papers
from evalkit.outputs import remove_stale_temporaries

pytestmark = pytest.mark.notebook


def _digests(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")}


def _run(nb, out, params, executed):
    code = ("import sys, json; from evalkit import papers; from evalkit.workspace import runner as r; "
            "nb = papers.notebook(sys.argv[1]); "
            "r.run_notebook(nb, out_dir=sys.argv[2], executed_dir=sys.argv[3], "
            "parameters=json.loads(sys.argv[4]))")
    return subprocess.Popen([sys.executable, "-c", code, nb.name, str(out), str(executed),
                             json.dumps(params)], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory, notebook_inputs):
    """Outputs of the Kim notebook (quick) with seed 1 and with seed 2."""
    nb = next(n for n in papers.notebooks() if n.paper == "kim2010")
    base = dict(nb.quick, **notebook_inputs[nb.name])
    tmp = tmp_path_factory.mktemp("interrupt")
    old, new = tmp / "old", tmp / "new"
    assert _run(nb, old, dict(base, seed=1), tmp / "x1").wait(300) == 0
    assert _run(nb, new, dict(base, seed=2), tmp / "x2").wait(300) == 0
    return nb, base, _digests(old), _digests(new), old


def _mtimes(folder):
    """Modification times by name; a file renamed away between listing and stat is skipped
    (the run replaces outputs while we look)."""
    out = {}
    for p in folder.iterdir():
        try:
            out[p.name] = p.stat().st_mtime_ns
        except FileNotFoundError:
            continue
    return out


def _interrupt_rerun(nb, base, before, old, tmp_path, sig):
    target = tmp_path / "out"
    subprocess.run(["cp", "-a", str(old), str(target)], check=True)
    mtimes = _mtimes(target)
    proc = _run(nb, target, dict(base, seed=2), tmp_path / "x3")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if any(m != mtimes.get(name) for name, m in _mtimes(target).items()):
            break  # the rerun has started replacing outputs: interrupt it now
        time.sleep(0.02)
    procs = [psutil.Process(proc.pid)] + psutil.Process(proc.pid).children(recursive=True)
    for p in reversed(procs):  # the kernel first, then papermill
        try:
            p.send_signal(sig)
        except psutil.NoSuchProcess:
            pass
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        for p in procs:
            p.kill()
        proc.wait(30)
    psutil.wait_procs(procs, timeout=30)
    return proc, target


def _check_old_or_new(target, before, after):
    now = _digests(target)
    assert set(now) == set(before)
    for name, digest in now.items():
        assert digest in (before[name], after[name]), f"{name} is neither the old nor the new file"
    replaced = sum(now[n] != before[n] for n in now)
    assert replaced < sum(after[n] != before[n] for n in now)  # really stopped part-way


def test_ctrl_c_leaves_no_partial_file(two_runs, tmp_path):
    nb, base, before, after, old = two_runs
    proc, target = _interrupt_rerun(nb, base, before, old, tmp_path, signal.SIGINT)
    assert proc.returncode != 0, "the rerun finished before it could be interrupted"
    leftovers = [p.name for p in target.iterdir() if p.name.endswith(".tmp")]
    assert not leftovers, f"partial files left: {leftovers}"
    _check_old_or_new(target, before, after)


def test_sigkill_leaves_only_hidden_temporaries_which_the_next_run_removes(two_runs, tmp_path):
    nb, base, before, after, old = two_runs
    proc, target = _interrupt_rerun(nb, base, before, old, tmp_path, signal.SIGKILL)
    assert proc.returncode != 0
    _check_old_or_new(target, before, after)
    hidden = sorted(p.name for p in target.iterdir() if p.name.startswith("."))
    assert all(name.endswith(".tmp") for name in hidden)
    assert [p.name for p in remove_stale_temporaries(target)] == hidden
    assert not [p for p in target.iterdir() if p.name.startswith(".")]
