"""``evalkit compare --scores`` as a whole process, and its statistics against the numpy HSD null.

50 systems x 100 topics, ``--test hsd --trials 10000``: the whole process, target <= 3 s; then
:func:`evalkit.evaluate.comparison.report.compare_scores` against the plain
numpy HSD null alone (:func:`cases.tukey.reference_null_ranges`), target
>= 2x, the p-values within a Kolmogorov-Smirnov bound.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

from .common import ROOT, median_time
from .tukey import reference_null_ranges


def bench_compare(folder: Path) -> list[dict]:
    """``evalkit compare --scores``: 50 systems x 100 topics, ``--test hsd --trials 10000``.

    The whole process (start-up, imports, reading 5,000 scores, ANOVA,
    intervals, the HSD with its simultaneous intervals, printing), median of
    3 runs after one warm-up (numba's cache), target at most 3 s; then the
    report's statistics in this process against the plain numpy HSD null
    (:func:`reference_null_ranges`), the p-values checked within Monte Carlo
    error.
    """
    import os
    import subprocess

    from evalkit.evaluate.comparison.report import compare_scores
    from evalkit.formats.scores import read_scores

    rng = np.random.default_rng(50)
    x = np.clip(rng.beta(2, 5, size=(100, 1)) + rng.normal(0, 0.08, size=(100, 50))
                + np.linspace(0, 0.1, 50), 0, 1)
    path = folder / "scores.tsv"
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"run{j:02d}\tnDCG@10\tT{t:03d}\t{float(x[t, j])!r}\n"
                            for j in range(50) for t in range(100)))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "evalkit.workspace.cli", "compare", "--scores", str(path),
           "--test", "hsd", "--trials", "10000"]

    def wall(extra=()):
        start = time.perf_counter()
        subprocess.run([*cmd, *extra], check=True, capture_output=True, env=env)
        return time.perf_counter() - start

    wall()  # warm-up: numba's on-disk cache
    t_cli = statistics.median(wall() for _ in range(3))
    t_out = statistics.median(wall(["--out", str(folder / "report")]) for _ in range(3))
    scores = read_scores(path)
    b = 2000
    t_ours = median_time(lambda: compare_scores(scores, trials=b, seed=1), 3)
    t_ref = median_time(lambda: reference_null_ranges(x, b, np.random.default_rng(2)), 3)
    pairs = compare_scores(scores, trials=b, seed=1).pairs
    ref_null = reference_null_ranges(x, b, np.random.default_rng(2))
    p_ref = np.array([(ref_null >= abs(d) - 1e-12).mean() for d in pairs["diff"]])
    # 1225 p-values read off two estimated null distributions: bound the largest gap by the
    # two-sample Kolmogorov-Smirnov 0.1% critical value 1.95 sqrt(2 / B)
    worst, bound = float(np.max(np.abs(pairs["p_value"] - p_ref))), 1.95 * np.sqrt(2 / b)
    return [
        {"name": "evalkit compare --scores, 50 runs x 100 topics, hsd, B=10000 (process)",
         "evalkit_s": t_cli, "reference_s": float("nan"), "speed_up": float("nan"),
         "target": "<= 3 s", "ok": t_cli <= 3,
         "check": f"median of 3 wall times; with --out (3 CSVs and the figure): {t_out:.2f} s"},
        {"name": "compare_scores (ANOVA, intervals, HSD + intervals), 50 x 100, B=2000",
         "evalkit_s": t_ours, "reference_s": t_ref, "speed_up": t_ref / t_ours,
         "target": ">= 2x", "ok": t_ref / t_ours >= 2 and worst < bound,
         "check": f"reference: the numpy HSD null alone; max |p - p_ref| over {len(pairs)} "
                  f"pairs = {worst:.4f} (KS bound {bound:.4f})"},
    ]
