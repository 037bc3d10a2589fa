"""``evalkit score`` (44 runs x 100 topics x 4 measures x 3 gains) against the per-topic functions.

The command's code path in this process (target >= 2x) and
:func:`evalkit.evaluate.score` on frames (target >= 5x) against the
per-topic functions of :mod:`evalkit.measures.graded` in a loop, every
printed value checked; then the whole ``evalkit score`` process, target
< 3 s.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

from evalkit.measures import graded
from evalkit.simulate import stc as sim_stc

from .common import median_time


def bench_evaluate(folder: Path) -> list[dict]:
    """``evalkit score``: 44 runs x 100 topics x 4 measures x 3 gains (RawG, WG, UG).

    Three timings of the same work, each checked against the reference:

    * the command's code path in this process: ``evalkit.workspace.cli.main``
      once per gain with ``--per-topic`` (reading the 44 run files and the
      ratings file, scoring, writing the trec_eval lines to a buffer), the
      interpreter's start-up and imports excluded;
    * :func:`evalkit.evaluate.score` on frames already read;
    * the reference: the per-topic public functions of
      :mod:`evalkit.measures.graded` in a loop over gains, runs, topics and
      measures, on frames already read and gains already computed.

    Then the whole ``evalkit score`` process (start-up, imports, reading,
    scoring, printing), one gain and four measures, median of 3 runs.
    """
    import contextlib
    import io
    import subprocess

    import pandas as pd

    from evalkit.evaluate import item_gains, score
    from evalkit.formats.assessor_ratings import write_assessor_ratings
    from evalkit.formats.trec import read_qrels, read_runs
    from evalkit.workspace import cli

    sim_stc.simulate_stc_collection(folder, seed=2017)
    qrels, runs = read_qrels(folder / "qrels.txt"), read_runs(folder / "runs")
    matrix = sim_stc.simulate_ratings(qrels["grade"].to_numpy(), 5, 3, seed=4)
    ratings = pd.DataFrame(matrix, index=pd.MultiIndex.from_frame(qrels[["topic", "doc"]]))
    ratings = (ratings.stack().rename("rating").reset_index()
               .rename(columns={"level_2": "assessor"}).astype({"assessor": str}))
    ratings_file = write_assessor_ratings(ratings, folder / "ratings.txt")
    run_files = sorted(str(p) for p in (folder / "runs").glob("*"))
    measures = ["nG@1", "P+", "nERR@10", "Q"]
    gain_names = ["raw", "wg", "ug"]
    options = [x for m in measures for x in ("--measure", m)]

    def command():
        outputs = []
        for g in gain_names:
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(io.StringIO()):
                cli.main(["score", "--ratings", str(ratings_file), "--gain", g, "--dmax", "3",
                          "--per-topic", *options, *run_files])
            outputs.append(buffer.getvalue())
        return outputs

    def frames():
        return [score(runs, ratings, gain=g, p=0.2, dmax=3, measures=measures, per_topic=True)
                for g in gain_names]

    funcs = {"nG@1": lambda r, i: graded.ng_at_k(r, i, 1), "P+": lambda r, i: graded.p_plus(r, i, k=10),
             "nERR@10": lambda r, i: graded.nerr_at_k(r, i, 10),
             "Q": lambda r, i: graded.q_measure(r, i, k=None)}
    lists = {key: g["doc"].tolist() for key, g in runs.sort_values("rank").groupby(["run", "topic"])}
    gains_by_topic = {g: {t: dict(zip(f["doc"], f["gain"]))
                          for t, f in item_gains(ratings, g, 0.2, 3).groupby("topic")}
                      for g in gain_names}

    def reference():
        out = {}
        for g in gain_names:
            for (run, topic), docs in lists.items():
                judged = gains_by_topic[g][topic]
                ideal = np.fromiter(judged.values(), float)
                if ideal.max() <= 0:
                    continue
                run_gains = [judged.get(d, 0.0) for d in docs]
                for m, f in funcs.items():
                    out[g, run, m, topic] = f(run_gains, ideal)
        return out

    t_command, t_frames = median_time(command, 5), median_time(frames, 5)
    t_ref = median_time(reference, 3)
    ref = reference()
    agree = all(abs(v - ref[g, r, m, t]) < 1e-9
                for g, frame in zip(gain_names, frames())
                for r, m, t, v in frame[frame["topic"] != "all"].itertuples(index=False))
    printed = [pd.read_csv(io.StringIO(text), sep="\t", header=None, names=["r", "m", "t", "v"],
                           dtype={"t": str, "v": str})
               for text in command()]
    agree_printed = all(v == f"{ref[g, r, m, t]:.4f}"
                        for g, frame in zip(gain_names, printed)
                        for r, m, t, v in frame[frame["t"] != "all"].itertuples(index=False))
    lines = sum(len(frame) for frame in printed)
    evalkit = str(Path(sys.executable).parent / "evalkit")
    cmd = [evalkit, "score", "--ratings", str(ratings_file), "--gain", "ug", *options, *run_files]
    walls, starts = [], []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run([evalkit, "--help"], check=True, capture_output=True)
        starts.append(time.perf_counter() - start)
    wall, start_up = statistics.median(walls), statistics.median(starts)
    name = "44 runs x 100 topics x 4 measures x 3 gains"
    return [
        {"name": f"evalkit score's code path (files in, lines out): {name}",
         "evalkit_s": t_command, "reference_s": t_ref, "speed_up": t_ref / t_command,
         "target": ">= 2x", "ok": agree_printed and t_ref / t_command >= 2,
         "check": f"{lines} printed lines equal to the per-topic functions' values "
                  f"printed with 4 decimals: "
                  f"{agree_printed}; reading the 45 files included, the reference's excluded"},
        {"name": f"evalkit.evaluate.score on frames: {name}",
         "evalkit_s": t_frames, "reference_s": t_ref, "speed_up": t_ref / t_frames,
         "target": ">= 5x", "ok": agree and t_ref / t_frames >= 5,
         "check": f"answers equal: {agree}"},
        {"name": "evalkit score as a whole process (one gain, 4 measures)",
         "evalkit_s": wall, "reference_s": float("nan"), "speed_up": float("nan"),
         "target": "< 3 s", "ok": wall < 3,
         "check": f"median of 3 wall times; of which `evalkit --help` (interpreter start-up "
                  f"and the CLI's imports): {start_up:.2f} s"},
    ]
