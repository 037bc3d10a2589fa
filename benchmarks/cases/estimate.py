"""Issue 44: ``evalkit estimate --pairs`` against ``evalkit score --per-judge``, whole processes.

Data (``trec_data.py``, seed 25): 20 runs x 200 topics x 1,000 documents;
the reference judge is judge ``j01``'s qrels on the first 50 topics (401-450),
the proxy judge ``j02``'s on all 200.  Both commands get the same two judges
and ``--measure nDCG@10``; ``score --per-judge --per-topic --format csv`` is
what ``estimate`` builds on, ``estimate --pairs`` adds the four estimators
over 20 runs and 190 pairs, Holm and the verdicts.  The processes alternate,
``repeats`` times each; medians of wall time.  Target: estimate / score <= 1.5.

Run: ``python benchmarks/bench.py estimate [--repeats N]``.
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

from .common import BENCHMARKS, measure_process


def bench_estimate(build: Path, repeats: int = 3) -> list[dict]:
    sys.path.insert(0, str(BENCHMARKS))
    from trec_data import write_collection, write_judges

    folder = build / "bench" / "r20"
    data = write_collection(folder, runs=20, seed=25)
    judges = write_judges(folder, judges=10, seed=25)
    human, llm = folder / "human50.qrels", folder / "llm.qrels"
    human.write_text("".join(line for line in judges[0].read_text().splitlines(keepends=True)
                             if int(line.split()[0]) < 451))
    llm.write_text(judges[1].read_text())
    runs = list(map(str, data["runs"]))
    cli = [sys.executable, "-m", "evalkit.workspace.cli"]
    two = ["--judge", f"human={human}", "--judge", f"llm={llm}", "--measure", "nDCG@10"]
    jobs = {"score": [*cli, "score", *two, "--per-judge", "--per-topic", "--format", "csv", *runs],
            "estimate": [*cli, "estimate", *two, "--reference", "human", "--proxy", "llm",
                         "--pairs", *runs]}
    measure_process(jobs["score"])                  # unmeasured: compiled readers cached
    times = {k: [] for k in jobs}
    for _ in range(repeats):
        for name, cmd in jobs.items():
            wall, peak, _, _ = measure_process(cmd)
            times[name].append(wall)
            print(f"  {name}: {wall:.1f} s, peak {peak:.0f} MB (load {os.getloadavg()[0]:.1f})",
                  file=sys.stderr, flush=True)
    t = {k: statistics.median(v) for k, v in times.items()}
    ratio = t["estimate"] / t["score"]
    return [{"name": "evalkit estimate --pairs vs score --per-judge, 20 runs x 200 topics",
             "evalkit_s": t["estimate"], "reference_s": t["score"], "speed_up": 1 / ratio,
             "target": "<= 1.5x", "ok": ratio <= 1.5,
             "check": f"estimate / score = {ratio:.2f} (medians of {repeats}: "
                      f"{', '.join(f'{x:.2f}' for x in times['estimate'])} s vs "
                      f"{', '.join(f'{x:.2f}' for x in times['score'])} s); load average "
                      f"{os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} cores)"}]

