"""``evalkit agreement --pairs`` (issue 37) on the LLMJudge 2024 labels, and its randomisation test.

The whole command on 34 judges x 4,423 items, target <= 10 s on 2 cores;
then :func:`evalkit.stats.paired_agreement.randomisation_p_values` (528 judge
pairs, B = 1000) against plain vectorised numpy on the same swaps
(:func:`reference_pair_p_values`), target >= 5x, the p-values equal.
Skipped without the data (``evalkit data fetch``).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

from .common import ROOT, median_time


def reference_pair_p_values(stack, a, b, swaps, values, chunk: int = 250) -> tuple:
    """Plain vectorised numpy paired randomisation test of ordinal alpha: each trial's two
    confusion stacks (B, P, K, K) from the swap matrix, evaluated by
    :func:`evalkit.stats.confusion_agreement.alpha_from_confusion`, in chunks of trials."""
    from evalkit.stats.confusion_agreement import alpha_from_confusion

    x = np.tensordot(swaps, stack, axes=(1, 1))                   # (B, J, K, K): swapped-in sums
    total = stack.sum(axis=1)
    observed = alpha_from_confusion(total, values, "ordinal")
    observed = observed[a] - observed[b]
    hits = np.zeros(len(a))
    for start in range(0, len(swaps), chunk):
        xs = x[start:start + chunk]
        ys = total[None] - xs
        d = (alpha_from_confusion(ys[:, a] + xs[:, b], values, "ordinal")
             - alpha_from_confusion(xs[:, a] + ys[:, b], values, "ordinal"))
        hits += (np.abs(d) >= np.abs(observed) - 1e-12).sum(axis=0)
    return observed, (hits + 1) / (len(swaps) + 1)


def bench_agreement(folder: Path) -> list[dict]:
    """``evalkit agreement --pairs`` on the LLMJudge 2024 labels (34 judges x 4,423 items).

    Target (issue 37): the whole command (reading 34 files, agreement with B = 1000
    topic resamples, Dawid-Skene twice, per-topic values, 528 pairs with B = 5000
    randomisation trials and the paired bootstrap, the figure) in at most 10 s on 2
    cores, median of 3 wall times after one unmeasured run (numba's cache).  Then the
    randomisation test in this process against plain vectorised numpy
    (:func:`reference_pair_p_values`) on the same swaps: the p-values must be equal.
    Needs the data (``evalkit data fetch``); skipped without it.
    """
    import os
    import subprocess

    from evalkit.evaluate.judge_agreement.grid import as_grid
    from evalkit.evaluate.judge_agreement.pairs import pair_stack
    from evalkit.paths import EXTERNAL
    from evalkit.stats import paired_agreement as pa

    root = EXTERNAL / "llmjudge-2024"
    if not (root / "llmjudge_test_qrel_idx.txt").is_file():
        return [{"name": "evalkit agreement --pairs, LLMJudge 2024 (34 judges)", "evalkit_s": float("nan"),
                 "reference_s": float("nan"), "speed_up": float("nan"), "target": "<= 10 s",
                 "ok": True, "check": f"skipped: {root} not installed (evalkit data fetch)"}]
    from evalkit.papers.llmjudge2024 import load_labels

    args = ["--judge", f"human={root / 'llmjudge_test_qrel_idx.txt'}"]
    for path in sorted((root / "submissions").glob("*.txt")):
        args += ["--judge", f"{path.stem}={path}"]
    cmd = [sys.executable, "-m", "evalkit.workspace.cli", "agreement", *args, "--reference", "human",
           "--grades", "0:3", "--clip", "--pairs"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def wall():
        start = time.perf_counter()
        subprocess.run([*cmd, "--out", str(folder / "out")], check=True, capture_output=True, env=env)
        return time.perf_counter() - start

    wall()                                               # numba's on-disk cache
    walls = [wall() for _ in range(3)]
    t_cli = statistics.median(walls)
    labels, _, _ = load_labels(EXTERNAL)
    judges = [j for j in dict.fromkeys(labels["judge"]) if j != "human"]
    stack, ia, ib, a, b = pair_stack(as_grid(labels), "human", judges)
    values = np.arange(4)
    code, w = pa.statistic_code("alpha", "ordinal", values)
    trials = 1000
    swaps = pa.topic_swaps(stack.shape[1], trials, 0).astype(float)
    t_ours = median_time(lambda: pa.randomisation_p_values(stack, ia, ib, code, w, trials, 0), 3)
    t_ref = median_time(lambda: reference_pair_p_values(stack, a, b, swaps, values), 1)
    _, p = pa.randomisation_p_values(stack, ia, ib, code, w, trials, 0)
    _, p_ref = reference_pair_p_values(stack, a, b, swaps, values)
    same = int((p == p_ref).sum())
    return [
        {"name": "evalkit agreement --pairs, LLMJudge 2024: 34 judges, B=5000 (process)",
         "evalkit_s": t_cli, "reference_s": float("nan"), "speed_up": float("nan"),
         "target": "<= 10 s", "ok": t_cli <= 10,
         "check": f"median of 3 wall times {', '.join(f'{x:.2f}' for x in walls)} s; load average "
                  f"{os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)"},
        {"name": "paired randomisation test, 528 judge pairs x 25 topics, B=1000",
         "evalkit_s": t_ours, "reference_s": t_ref, "speed_up": t_ref / t_ours,
         "target": ">= 5x", "ok": t_ref / t_ours >= 5 and same == len(p),
         "check": f"reference: numpy on the same swaps (alpha_from_confusion); equal p-values: "
                  f"{same} of {len(p)} pairs"},
    ]
