"""``evalkit assessors`` against the ``evalkit score`` processes that give the same leaderboards.

Issue 23.  44 runs x 100 topics x 10 assessors x 3 measures, B = 2000, as a whole
process, target <= 10 s; the reference is the 24 ``evalkit score``
processes, one per judge score can give, whose means must equal
``leaderboards.csv``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

from evalkit.simulate import stc as sim_stc


def bench_assessors(folder: Path) -> dict:
    """``evalkit assessors``: 44 runs x 100 topics x 10 assessors x 3 measures, B = 2000.

    Target (issue 23): at most 10 s as a whole process (start-up, imports,
    reading 45 files, 26 judges, the HSD of 11 judges x 3 measures on common
    permutations, four tables and the figure), median of 3 runs.  Reference:
    the leaderboards ``evalkit score`` can give, one process per judge
    (``--gain raw|wg|ug``; each assessor's and each leave-one-out ratings
    file; the median grades as qrels): 24 processes, timed once; their
    ``all`` values must equal ``leaderboards.csv``.  The ratio is the
    reference's wall time over ours.
    """
    import io
    import subprocess

    import pandas as pd

    from evalkit.formats.assessor_ratings import write_assessor_ratings
    from evalkit.formats.trec import read_qrels, write_qrels

    sim_stc.simulate_stc_collection(folder, seed=2017)
    qrels = read_qrels(folder / "qrels.txt")
    matrix = sim_stc.simulate_ratings(qrels["grade"].to_numpy(), 10, 3, seed=4)
    wide = pd.DataFrame(matrix, index=pd.MultiIndex.from_frame(qrels[["topic", "doc"]]),
                        columns=[f"a{j + 1}" for j in range(10)])
    ratings = wide.stack().rename("rating").reset_index().rename(columns={"level_2": "assessor"})
    ratings_file = write_assessor_ratings(ratings, folder / "ratings.txt")
    run_files = sorted(str(p) for p in (folder / "runs").glob("*"))
    measures = ["nG@1", "P+", "nERR@10"]
    options = [x for m in measures for x in ("--measure", m)]
    evalkit = [sys.executable, "-m", "evalkit.workspace.cli"]
    jobs = {f"all:{g}": ["score", "--ratings", str(ratings_file), "--gain", g]
            for g in ("raw", "wg", "ug")}
    for a in wide.columns:
        for judge, keep in ((f"assessor:{a}", ratings["assessor"] == a),
                            (f"without:{a}", ratings["assessor"] != a)):
            path = write_assessor_ratings(ratings[keep], folder / f"{judge.replace(':', '_')}.txt")
            jobs[judge] = ["score", "--ratings", str(path)]
    median = ratings.groupby(["topic", "doc"])["rating"].median().apply(np.floor).astype(int)
    write_qrels(median.rename("grade").reset_index(), folder / "median.qrels")
    jobs["median"] = ["score", "--qrels", str(folder / "median.qrels"), "--gain-map", "1:1,2:2,3:3"]
    command = [*evalkit, "assessors", "--ratings", str(ratings_file), *options, "--trials", "2000",
               "--seed", "1", "--out", str(folder / "who"), *run_files]
    walls = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
    wall = statistics.median(walls)
    start = time.perf_counter()
    outputs = {judge: subprocess.run([*evalkit, *args, "--format", "csv", *options, *run_files],
                                     check=True, capture_output=True, text=True).stdout
               for judge, args in jobs.items()}
    t_ref = time.perf_counter() - start
    board = pd.read_csv(folder / "who" / "leaderboards.csv").set_index(["judge", "run", "measure"])
    worst = 0.0
    for judge, text in outputs.items():
        got = pd.read_csv(io.StringIO(text))
        ours = board.loc[judge]["value"].reindex(pd.MultiIndex.from_frame(got[["run", "measure"]]))
        worst = max(worst, float(np.max(np.abs(ours.to_numpy() - got["value"].to_numpy()))))
    return {"name": "evalkit assessors process: 44 runs x 100 topics x 10 assessors, B=2000",
            "evalkit_s": wall, "reference_s": t_ref, "speed_up": t_ref / wall,
            "target": "<= 10 s", "ok": wall <= 10 and worst < 1e-12,
            "check": f"3 measures; median of 3 wall times {', '.join(f'{w:.2f}' for w in walls)} s; reference: "
                     f"{len(jobs)} `evalkit score` processes, one per judge score can give; "
                     f"max |difference| of their means {worst:.1e}"}
