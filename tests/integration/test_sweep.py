"""Sweeps on a real Dask scheduler and worker on loopback, running notebook points (processes)."""

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from evalkit.workspace.sweeps import engine


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def dask_cluster(tmp_path):
    """``dask scheduler`` and one ``dask worker`` (two threads) on 127.0.0.1, stopped after."""
    dask = str(Path(sys.executable).parent / "dask")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = [open(tmp_path / name, "wb") for name in ("scheduler.log", "worker.log")]
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], stdout=logs[0], stderr=subprocess.STDOUT)]
    procs.append(subprocess.Popen([dask, "worker", address, "--host", "127.0.0.1",
                                   "--nthreads", "2", "--nworkers", "1", "--no-nanny",
                                   "--no-dashboard"],
                                  stdout=logs[1], stderr=subprocess.STDOUT))
    try:
        from dask.distributed import Client

        deadline = time.monotonic() + 60
        while True:
            try:
                with Client(address, timeout=5) as client:
                    client.wait_for_workers(1, timeout=max(1, deadline - time.monotonic()))
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        yield address
    finally:
        try:                          # a clean stop: SIGTERM alone left the worker up 20 s
            from dask.distributed import Client

            with Client(address, timeout=5) as client:
                client.shutdown()
        except Exception:             # noqa: BLE001 - the processes are stopped below anyway
            pass
        for proc in reversed(procs):
            proc.terminate()
        for proc in reversed(procs):
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for log in logs:
            log.close()


@pytest.mark.notebook
def test_sweep_on_a_real_scheduler_writes_the_table_and_combined_and_skips_finished_points(
        dask_cluster, tmp_path, notebook_inputs):
    bad = tmp_path / "bad.csv"
    bad.write_text("not,an,ordering\n1,2,3\n")
    out = tmp_path / "sweep"
    small = notebook_inputs["kim2010_ordering_aggregation"]["data_file"]
    grid = [("seed", [1, 2]), ("data_file", [small, str(bad)])]
    table = engine.sweep("kim2010", grid, out, quick=True, scheduler=dask_cluster, progress=False)

    # sweep.csv: one row per point, the parameters first; the bad file fails its points only
    written = pd.read_csv(out / "sweep.csv", keep_default_na=False)
    assert list(written.columns) == ["seed", "data_file", "status", "seconds", "folder"]
    assert len(written) == 4
    assert list(written["status"]) == ["ok", "failed", "ok", "failed"]
    assert table["status"].tolist() == written["status"].tolist()
    failed = json.loads((out / written["folder"][1] / "status.json").read_text())
    assert failed["cell"] is not None and failed["error"]

    # combined/: each CSV table of the finished points, parameters as leading columns
    combined = pd.read_csv(out / "combined" / "table2.csv", keep_default_na=False)
    assert list(combined.columns[:2]) == ["seed", "data_file"]
    for i in (0, 2):
        own = pd.read_csv(out / written["folder"][i] / "table2.csv")
        part = combined[combined["seed"] == written["seed"][i]].drop(columns=["seed", "data_file"])
        pd.testing.assert_frame_equal(part.reset_index(drop=True), own)
    assert len(combined) == 2 * len(own)

    # a rerun skips the finished points and retries the failed ones
    ok_status = out / written["folder"][0] / "status.json"
    before = ok_status.stat().st_mtime_ns
    failed_status = out / written["folder"][1] / "status.json"
    failed_before = failed_status.stat().st_mtime_ns
    again = engine.sweep("kim2010", grid, out, quick=True, scheduler=dask_cluster, progress=False)
    assert again["status"].tolist() == ["ok", "failed", "ok", "failed"]
    assert ok_status.stat().st_mtime_ns == before
    assert failed_status.stat().st_mtime_ns != failed_before


@pytest.mark.notebook
def test_sweep_command_exit_status_and_local_cluster(tmp_path, notebook_inputs):
    """The command line on the default local cluster: one point, exit status 0, then a rerun."""
    out = tmp_path / "one"
    cmd = [sys.executable, "-m", "evalkit.workspace.cli", "sweep", "kim2010",
           "--param", "seed=3", "--param",
           f"data_file={notebook_inputs['kim2010_ordering_aggregation']['data_file']}",
           "--quick", "--out", str(out)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "1 of 1 points ok" in run.stderr
    rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0 and "1 already done, 0 to run" in rerun.stderr
    bad = subprocess.run(cmd + ["--param", "noisy_ratio=-1"], capture_output=True, text=True)
    assert bad.returncode == 2 and "noisy_ratio" in bad.stderr
