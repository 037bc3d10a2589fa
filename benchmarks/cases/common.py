"""What the benchmarks share: timing a call in this process, timing a whole process
with its peak memory, and the table ``benchmarks/bench.py`` prints.

Each benchmark times evalkit and a plain reference alternately in the same
process (median of repeated runs, ``time.perf_counter``) or as whole processes
(:func:`measure_process`), and reports a row: its name, both times, the ratio,
the target and whether it is met, and the check of the answers.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

#: ``benchmarks/``: its scripts import each other by plain module name (``trec_data``)
BENCHMARKS = Path(__file__).resolve().parents[1]
#: the checkout, whose ``evalkit`` the benchmarks' processes import
ROOT = BENCHMARKS.parent


def median_time(fn, repeats: int = 7) -> float:
    """Median wall time of ``repeats`` calls after one warm-up call."""
    fn()  # warm-up (JIT compilation, caches)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# Started by a small, fresh interpreter so the peak memory is the command's own: a child
# forked from this (large) process would count this process's resident memory in its
# peak (Linux carries the high-water mark across fork and exec).
_LAUNCHER = ("import os, sys; pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ); "
             "_, status, usage = os.wait4(pid, 0); open(sys.argv[1], 'w').write(str(usage.ru_maxrss)); "
             "sys.exit(os.waitstatus_to_exitcode(status))")


def measure_process(cmd: list[str], env: dict | None = None, fail_ok: bool = False):
    """Wall time (s), peak resident memory (MB, the kernel's count), stdout and stderr of a
    whole process; a failure is an error unless ``fail_ok``."""
    import subprocess

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        start = time.perf_counter()
        # not the checkout's folder: `python -m` would import evalkit from it, whatever PYTHONPATH says
        code = subprocess.call([sys.executable, "-S", "-c", _LAUNCHER, rss.name, *cmd], stdout=out,
                               stderr=err, env=env, cwd=tempfile.gettempdir())
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
        if code and not fail_ok:
            raise RuntimeError(f"{' '.join(cmd[:4])} ... failed: {stderr.decode()[-2000:]}")
        return wall, int(rss.read() or 0) / 1024, stdout, stderr


def print_rows(rows: list[dict]) -> int:
    print(f"{'benchmark':64} {'evalkit':>10} {'reference':>10} {'ratio':>7}  {'target':8} ok")
    for r in rows:
        ref = "-" if np.isnan(r["reference_s"]) else f"{r['reference_s'] * 1e3:.1f}ms"
        ratio = "-" if np.isnan(r["speed_up"]) else f"{r['speed_up']:.1f}x"
        print(f"{r['name']:64} {r['evalkit_s'] * 1e3:8.1f}ms {ref:>10} {ratio:>7}  "
              f"{r['target']:8} {'yes' if r['ok'] else 'NO'}")
        print(f"    {r['check']}")
    return 0 if all(r["ok"] and r.get("extra_ok", True) for r in rows) else 1
