"""The runner: notebooks in worker processes, never a working-directory change from a thread,
failures reported by notebook, cell and error, and nothing left running when it is killed."""

import os
import signal
import subprocess
import sys
import threading
import time

import psutil
import pytest

from evalkit import papers
from evalkit.workspace import runner

pytestmark = pytest.mark.notebook


def test_no_thread_but_the_main_one_changes_the_working_directory(monkeypatch, tmp_path):
    """A quick reproduction, more notebooks at once than cores, with os.chdir watched.

    Running notebooks in threads made papermill call os.chdir from worker threads
    (278 times in one quick reproduction), so a kernel could start in another
    notebook's folder.  Nothing but the main thread may do so now."""
    calls = []
    real_chdir = os.chdir

    def watched(path):
        calls.append((threading.current_thread().name, str(path)))
        return real_chdir(path)

    monkeypatch.setattr(os, "chdir", watched)
    outcomes = runner.reproduce(only=["sakai2017_unanimity_gain", "kim2010_ordering_aggregation"],
                                   quick=True, jobs=4,
                                   figures=tmp_path / "figures", executed=tmp_path / "executed")
    assert [o.status for o in outcomes] == ["ok", "ok"]
    assert [c for c in calls if c[0] != "MainThread"] == []
    for o in outcomes:
        nb = o.job.notebook
        assert all((tmp_path / "figures" / nb.paper / f).is_file() for f in nb.outputs)
    assert (tmp_path / "figures" / "index.html").is_file()


def test_a_failing_notebook_is_reported_by_cell_and_error_while_the_others_finish(
        tmp_path, notebook_inputs):
    kim, sakai = papers.notebook("kim2010_ordering_aggregation"), papers.notebook("sakai2017_unanimity_gain")
    jobs = [runner.Job(kim, dict(kim.quick, **notebook_inputs[kim.name], noisy_ratio=-1,
                                    out_dir=str(tmp_path / "kim")), tmp_path / "kim.ipynb"),
            runner.Job(sakai, dict(sakai.quick, **notebook_inputs[sakai.name],
                                      out_dir=str(tmp_path / "sakai")), tmp_path / "sakai.ipynb")]
    outcomes = {o.job.name: o for o in runner.run_jobs(jobs, parallel=2)}
    bad, good = outcomes[kim.name], outcomes[sakai.name]
    assert good.status == "ok" and (tmp_path / "sakai" / "claims.csv").is_file()
    assert bad.status == "failed" and bad.error == "ParameterError"
    assert "parameter noisy_ratio = -1 is invalid" in bad.message
    assert isinstance(bad.cell, int) and bad.cell >= 1
    assert bad.log.is_file() and "Traceback" not in bad.message


def _worker_of(outcome) -> int:
    import json

    return json.loads(outcome.job.executed.with_suffix(".result.json").read_text())["worker"]


def test_a_worker_runs_its_jobs_one_after_another_and_a_dead_worker_fails_its_job_only(
        tmp_path, notebook_inputs):
    """Jobs share a worker (papermill imported once), each with a fresh kernel; a notebook whose
    kernel kills its worker fails as WorkerDied, and the next job gets a new worker."""
    import nbformat

    kim = papers.notebook("explore_kim2010")
    params = dict(kim.batch, **notebook_inputs[kim.name])
    killer = tmp_path / "kills_its_worker.ipynb"
    nbformat.write(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)")],
        metadata={"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}}),
        killer)
    jobs = [runner.Job(kim, dict(params, out_dir=str(tmp_path / f"out{i}")), tmp_path / f"nb{i}.ipynb")
            for i in range(2)]
    jobs.insert(1, runner.Job(kim, dict(params, out_dir=str(tmp_path / "killed")),
                              tmp_path / "killed.ipynb", source=killer))
    first, killed, last = runner.run_jobs(jobs, parallel=1)
    assert (first.status, killed.status, last.status) == ("ok", "failed", "ok")
    assert killed.error == "WorkerDied" and "before reporting" in killed.message
    assert _worker_of(first) != _worker_of(last)        # the dead worker was replaced
    again = runner.run_jobs([runner.Job(kim, dict(params, out_dir=str(tmp_path / f"again{i}")),
                                        tmp_path / f"again{i}.ipynb") for i in range(2)], parallel=1)
    assert [o.status for o in again] == ["ok", "ok"]
    assert _worker_of(again[0]) == _worker_of(again[1])  # one worker, two notebooks
    assert all((tmp_path / f"again{i}" / "explore.png").is_file() for i in range(2))


def _runner(nb, params, executed):
    code = ("import sys, json; from evalkit import papers; from evalkit.workspace import runner; "
            "runner.run_notebook(papers.notebook(sys.argv[1]), executed_dir=sys.argv[2], "
            "parameters=json.loads(sys.argv[3]))")
    import json

    return subprocess.Popen([sys.executable, "-c", code, nb.name, str(executed), json.dumps(params)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_for_kernel(proc, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        family = psutil.Process(proc.pid).children(recursive=True)
        if any("ipykernel" in " ".join(p.cmdline()) for p in family if p.is_running()):
            return family
        time.sleep(0.1)
    raise AssertionError("no kernel started")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "sigkill"])
def test_killing_the_runner_leaves_no_worker_or_kernel(sig, tmp_path, notebook_inputs):
    nb = papers.notebook("kim2010_ordering_aggregation")
    params = dict(nb.quick, **notebook_inputs[nb.name], draws=50, out_dir=str(tmp_path / "out"))
    proc = _runner(nb, params, tmp_path)
    family = _wait_for_kernel(proc)
    proc.send_signal(sig)  # the runner only: it must take its worker and kernel down
    proc.wait(30)
    if sig == signal.SIGINT:  # the runner waits for its kernel before it cleans and exits
        assert not [p.cmdline() for p in family
                    if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    gone, alive = psutil.wait_procs(family, timeout=15)
    assert not [p.cmdline() for p in alive if p.status() != psutil.STATUS_ZOMBIE]
