"""Performance benchmarks: ratios against reference implementations, in one process.

Run with ``make bench``.  Each benchmark times evalkit and a plain reference
implementation alternately in the same process (median of repeated runs,
``time.perf_counter``) and prints the ratio, after checking that both give the
same statistical answers.  Absolute times depend on the machine; the ratios
are what the targets are stated in.
"""

from __future__ import annotations

import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from evalkit.formats import orderings as ordering_files
from evalkit.measures import aggregation
from evalkit.measures import gains
from evalkit.measures import graded
from evalkit.measures import timeline
from evalkit.papers import kim2010_ordering_aggregation as kim
from evalkit.papers import sakai2017_unanimity_gain as sakai
from evalkit.papers import wang2015_assessor_differences as wang_ad
from evalkit.simulate import orderings as sim_orderings
from evalkit.simulate import stc as sim_stc
from evalkit.simulate import ttg as sim_ttg
from evalkit.stats import hsd


def median_time(fn, repeats: int = 7) -> float:
    """Median wall time of ``repeats`` calls after one warm-up call."""
    fn()  # warm-up (JIT compilation, caches)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def reference_null_ranges(x: np.ndarray, n_trials: int, rng: np.random.Generator,
                          chunk: int = 500) -> np.ndarray:
    """Plain vectorised numpy randomised Tukey HSD null: random keys, argsort,
    take_along_axis, in chunks of trials."""
    out = np.empty(n_trials)
    for start in range(0, n_trials, chunk):
        b = min(chunk, n_trials - start)
        keys = rng.random((b,) + x.shape)
        idx = np.argsort(keys, axis=2)
        perm = np.take_along_axis(np.broadcast_to(x, keys.shape), idx, axis=2)
        means = perm.mean(axis=1)
        out[start:start + b] = means.max(axis=1) - means.min(axis=1)
    return out


def bench_tukey() -> dict:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(100, 16)) * 0.3 + np.linspace(0, 0.4, 16)
    b = 5000
    t_ours = median_time(lambda: hsd.tukey_null_ranges(x, b, seed=1))
    t_ref = median_time(lambda: reference_null_ranges(x, b, np.random.default_rng(2)))
    # same statistical answers: p-values of every pair within Monte Carlo error
    ours = hsd.randomised_tukey_hsd(x, b, seed=1)
    ref_null = reference_null_ranges(x, b, np.random.default_rng(2))
    p_ref = np.array([(ref_null >= abs(d) - 1e-12).mean() for d in ours["diff"]])
    se = np.sqrt(np.maximum(p_ref * (1 - p_ref), 0.0025) * 2 / b)
    worst = float(np.max(np.abs(ours.p_value - p_ref) / se))
    return {"name": "randomised Tukey HSD, 100 topics x 16 systems, B=5000",
            "evalkit_s": t_ours, "reference_s": t_ref, "speed_up": t_ref / t_ours,
            "target": ">= 5x", "ok": t_ref / t_ours >= 5 and worst < 4,
            "check": f"max |p - p_ref| = {worst:.2f} Monte Carlo SEs over 120 pairs"}


def bench_scoring(folder: Path) -> dict:
    """All 15 (Dmax, N) conditions x {RawG, UG} x 3 measures, ratings included.

    The ratio is measured on one condition's gains: the batch kernel against a
    loop over the per-run public functions (the reference), answers compared.
    """
    sim_stc.simulate_stc_collection(folder, seed=2017)
    collection = sakai.load_collection(folder)
    grid = ([2, 4, 8], [5, 10, 20, 40, 80])
    t_all = median_time(lambda: sakai.score_conditions(collection, *grid, p=0.2, seed=1), 5)
    lists = collection.lists
    cond = sakai.score_conditions(collection, [2], [5], p=0.2, seed=1)
    rng = np.random.default_rng(np.random.SeedSequence([1, 0, 2, 5]))
    per_topic = [gains.unanimity_gain(sim_stc.simulate_ratings(g, 5, 2, rng), 2, 0.2)
                 for g in collection.grades]
    padded = lists.pad(per_topic)
    funcs = {"nG@1": graded.ng_at_k, "P+": graded.p_plus, "nERR": graded.nerr_at_k}

    def reference():
        out = {m: np.empty((len(lists.runs), len(lists.topics))) for m in funcs}
        for t, ug in enumerate(per_topic):
            for r in range(len(lists.runs)):
                idx = lists.index[r, t]
                g = np.where(idx >= 0, ug[idx], 0.0)
                for m, f in funcs.items():
                    out[m][r, t] = f(g, ug)
        return out

    def batch():
        return graded.score_runs(lists, padded, tuple(funcs))[0]

    t_batch, t_ref = median_time(batch, 7), median_time(reference, 3)
    ref, got = reference(), batch()
    agree = all(np.allclose(ref[m], got[m], equal_nan=True) for m in funcs)
    agree &= all(np.allclose(cond.scores[m][0, 1], got[m], equal_nan=True) for m in funcs)
    return {"name": "score 44 runs x 100 topics x 3 measures (one gain set)",
            "evalkit_s": t_batch, "reference_s": t_ref, "speed_up": t_ref / t_batch,
            "target": "-", "ok": agree,
            "check": f"answers equal: {agree}; all 15 conditions x 2 gains x 3 measures, "
                     f"ratings simulated: {t_all * 1e3:.0f} ms (target < 1 s: "
                     f"{'met' if t_all < 1 else 'MISSED'})",
            "extra_ok": t_all < 1.0}


def bench_kim(folder: Path) -> list[dict]:
    """Kim, Zhai & Han: Tables 1-4 at the notebook's defaults; mining at minSup = 0.

    Targets (issue): all four tables in at most 30 s; mining one set with
    minSup = 0 in at most 1 s.  The mining reference is brute-force
    enumeration of every subsequence, which must give the same patterns.
    """
    path = sim_orderings.simulate_orderings(folder / "judgments.csv", seed=2010)
    sets = ordering_files.read_orderings(path)

    def tables():
        kim.table1(sets, draws=10, seed=2010, progress=False)
        kim.frespa_tables(sets, noisy_ratio=0.5, draws=10, seed=2010, progress=False)

    t_tables = median_time(tables, 3)
    largest = max(sets.values(), key=lambda j: len(j[0]) * len(j))

    def brute():
        counts = {}
        for g in largest:
            for length in range(2, len(g) + 1):
                for sub in itertools.combinations(g, length):
                    counts[sub] = counts.get(sub, 0) + 1
        return counts

    t_mine = median_time(lambda: aggregation.mine_patterns(largest, min_sup=0), 5)
    t_brute = median_time(brute, 5)
    same = aggregation.mine_patterns(largest, min_sup=0) == brute()
    k, n = len(largest[0]), len(largest)
    return [
        {"name": "Kim Tables 1-4 (10 noise draws, 7 methods, 35 FreSPA settings)",
         "evalkit_s": t_tables, "reference_s": float("nan"), "speed_up": float("nan"),
         "target": "<= 30 s", "ok": t_tables <= 30, "check": "median of 3 runs"},
        {"name": f"PrefixSpan, minSup = 0, largest set (k = {k}, n = {n})",
         "evalkit_s": t_mine, "reference_s": t_brute, "speed_up": t_brute / t_mine,
         "target": "<= 1 s", "ok": t_mine <= 1 and same,
         "check": f"same patterns as brute force: {same} "
                  f"({len(aggregation.mine_patterns(largest, min_sup=0))} patterns)"},
    ]


def bench_ttg(folder: Path) -> dict:
    """TTG: 50 runs x 55 topics under both cluster sets (target < 1 s).

    Reference: the per-topic function :func:`evalkit.measures.timeline.cluster_scores`
    in a loop, whose answers must be equal.
    """
    sim_ttg.simulate_ttg(folder / "ttg", seed=2015)
    world = wang_ad.load_world(folder / "ttg")

    def batch():
        return [timeline.score_runs(world.runs, timeline.cluster_table(c, world.qrels))
                for c in world.clusters.values()]

    grades = dict(zip(world.qrels.doc, world.qrels.grade))
    groups = {key: g.doc.tolist() for key, g in world.runs.groupby(["run", "topic"])}

    def reference():
        out = {}
        for name, cl in world.clusters.items():
            for run in world.runs.run.unique():
                for topic in cl:
                    out[(name, run, topic)] = timeline.cluster_scores(
                        groups.get((run, topic), []), cl[topic], grades)
        return out

    t_batch, t_ref = median_time(batch, 5), median_time(reference, 1)
    got, ref = batch(), reference()
    same = True
    for (name, tidy) in zip(world.clusters, got):
        values = tidy.set_index(["run", "topic", "metric"])["value"]
        for (n, run, topic), scores in list(ref.items())[:: 7]:
            if n == name:
                same &= all(abs(values[(run, topic, m)] - v) < 1e-12 for m, v in scores.items())
    return {"name": "TTG scores, 50 runs x 55 topics x 2 cluster sets",
            "evalkit_s": t_batch, "reference_s": t_ref, "speed_up": t_ref / t_batch,
            "target": "< 1 s", "ok": t_batch < 1.0 and same,
            "check": f"equal to the per-topic function on every 7th (run, topic): {same}"}


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
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
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
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))

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


PYTREC = "pytrec-eval-terrier==0.5.11"   # the reference's bindings, in the benchmark's own venv


def _reference_python(build: Path) -> str:
    """A virtual environment of the benchmark's own (no system packages) with pytrec_eval."""
    import subprocess
    import venv

    folder = build / "bench-venv"
    python = folder / "bin" / "python"
    probe = [str(python), "-c", "import pytrec_eval"]
    if not python.exists() or subprocess.run(probe, capture_output=True).returncode:
        venv.EnvBuilder(with_pip=True, system_site_packages=False, clear=True).create(folder)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", PYTREC], check=True)
    return str(python)


# Started by a small, fresh interpreter so the peak memory is the command's own: a child
# forked from this (large) process would count this process's resident memory in its
# peak (Linux carries the high-water mark across fork and exec).
_LAUNCHER = ("import os, sys; pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ); "
             "_, status, usage = os.wait4(pid, 0); open(sys.argv[1], 'w').write(str(usage.ru_maxrss)); "
             "sys.exit(os.waitstatus_to_exitcode(status))")


def _process(cmd: list[str], env: dict | None = None, fail_ok: bool = False):
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


MEASURES5 = ("nDCG@10", "AP", "P@10", "R@100", "RR")


def _means(text: bytes, judged: bool) -> dict:
    """``{(judge, run, measure): mean}`` of evalkit's csv or the reference's lines."""
    out = {}
    for line in text.decode().splitlines():
        if judged:                                   # the reference: judge run measure all value
            judge, run, measure, topic, value = line.split("\t")
        else:                                        # evalkit --format csv, with or without judge
            fields = line.split(",")
            if fields[0] in ("judge", "run"):
                continue
            judge, run, measure, topic, value = fields if len(fields) == 5 else ["qrels", *fields]
        if topic == "all":
            out[judge, run, measure] = float(value)
    return out


def bench_trec_scale(build: Path, repeats: int = 3, evalkit_path: str | None = None,
                     run_counts=(20, 100), judges: int = 10) -> list[dict]:
    """Issue 36: ``evalkit score`` with trec_eval's measures against pytrec_eval, as whole processes.

    Data (``benchmarks/trec_data.py``, seed 25): 20 and 100 runs x 200 topics
    x 1,000 documents; one judge's graded qrels (the RawG of five assessors,
    0-15) and ``judges`` judges' qrels (0-3).  ``evalkit score --judge`` with
    nDCG@10, AP, P@10, R@100 and RR against pytrec_eval computing the same
    five measures on the same files (``pytrec_reference.py``, files parsed in
    Python, in the benchmark's own venv); then ``--per-judge`` over the judges
    against pytrec_eval evaluating each run under each judge's qrels; ``evalkit
    compare`` (B = 1000, UG from the ratings) on the first run count.  The
    processes alternate, each ``repeats`` times; medians of wall time and of
    peak resident memory; the means of both tools compared value by value.
    Targets: score / pytrec_eval <= 0.5, also per judge; peak memory <= 400 MB
    and within 1.5x from 20 to 100 runs; identical values (<= 1e-12);
    compare <= 2x score.
    """
    import os

    sys.path.insert(0, str(Path(__file__).parent))
    from trec_data import write_collection, write_judges

    reference = _reference_python(build)
    env = dict(os.environ)
    if evalkit_path:
        env["PYTHONPATH"] = evalkit_path
    data = {n: write_collection(build / "bench" / f"r{n}", runs=n, seed=25) for n in run_counts}
    lo, hi = run_counts[0], run_counts[-1]
    panel = write_judges(build / "bench" / f"r{lo}", judges=judges, seed=25)
    measures = [x for m in MEASURES5 for x in ("--measure", m)]
    script = str(Path(__file__).parent / "pytrec_reference.py")
    cli = [sys.executable, "-m", "evalkit.workspace.cli"]

    jobs = {}
    for n in run_counts:
        runs = list(map(str, data[n]["runs"]))
        jobs[f"score {n}"] = ([*cli, "score", "--judge", f"qrels={data[n]['qrels']}", *measures,
                               "--format", "csv", *runs], env)
        jobs[f"pytrec_eval {n}"] = ([reference, script, str(data[n]["qrels"]), "--", *runs], None)
    runs = list(map(str, data[lo]["runs"]))
    jobs[f"score per judge {lo}"] = ([*cli, "score", *[x for q in panel for x in
                                                        ("--judge", f"{q.stem}={q}")],
                                      "--per-judge", *measures, "--format", "csv", *runs], env)
    jobs[f"pytrec_eval per judge {lo}"] = ([reference, script, *map(str, panel), "--", *runs], None)
    jobs[f"compare {lo}"] = ([*cli, "compare", "--ratings", str(data[lo]["ratings"]), "--gain",
                              "ug", "--measure", "nDCG@10", "--measure", "nERR@10", "--trials",
                              "1000", *runs], env)
    times = {k: [] for k in jobs}
    peaks = {k: [] for k in jobs}
    outputs = {}
    # one unmeasured run first: a fresh install compiles the scanner (numba caches it)
    first, _, _, _ = _process(jobs[f"score {lo}"][0], env)
    load = os.getloadavg()
    for _ in range(repeats):
        for name, (cmd, environment) in jobs.items():
            wall, peak, out, _ = _process(cmd, environment)
            times[name].append(wall)
            peaks[name].append(peak)
            outputs[name] = out
            print(f"  {name}: {wall:.1f} s, peak {peak:.0f} MB (load {os.getloadavg()[0]:.1f})",
                  file=sys.stderr, flush=True)
    t = {k: statistics.median(v) for k, v in times.items()}
    m = {k: statistics.median(v) for k, v in peaks.items()}
    rows = []
    for n, label, what in [(n, f"{n}", f"{n} runs, one judge") for n in run_counts] + [
            (lo, f"per judge {lo}", f"{lo} runs, --per-judge over {judges} judges")]:
        ours, theirs = _means(outputs[f"score {label}"], False), _means(outputs[f"pytrec_eval {label}"], True)
        shared = sorted(set(theirs) & set(ours))
        worst = max((abs(ours[k] - theirs[k]) for k in shared), default=float("inf"))
        ratio = t[f"score {label}"] / t[f"pytrec_eval {label}"]
        same = len(shared) == len(theirs) and worst <= 1e-12
        rows.append({"name": f"evalkit score, {what} x 200 topics x 1000 docs, 5 measures",
                     "evalkit_s": t[f"score {label}"], "reference_s": t[f"pytrec_eval {label}"],
                     "speed_up": 1 / ratio, "target": "<= 0.5", "ok": ratio <= 0.5 and same,
                     "check": f"time / pytrec_eval's = {ratio:.2f} (medians of {repeats}: "
                              f"{', '.join(f'{x:.2f}' for x in times[f'score {label}'])} s vs "
                              f"{', '.join(f'{x:.2f}' for x in times[f'pytrec_eval {label}'])} s); "
                              f"peak memory {m[f'score {label}']:.0f} MB vs pytrec_eval's "
                              f"{m[f'pytrec_eval {label}']:.0f} MB; {len(shared)} of {len(theirs)} "
                              f"means compared, largest difference {worst:.1e}"})
    flat = m[f"score {hi}"] / m[f"score {lo}"]
    top = max(m[k] for k in m if k.startswith("score"))
    rows.append({"name": f"evalkit score's peak memory, {lo} and {hi} runs, and per judge",
                 "evalkit_s": float("nan"), "reference_s": float("nan"), "speed_up": float("nan"),
                 "target": "<=400MB", "ok": top <= 400 and flat <= 1.5,
                 "check": f"{m[f'score {lo}']:.0f} MB and {m[f'score {hi}']:.0f} MB "
                          f"({hi} / {lo} runs: {flat:.2f}x, target <= 1.5x), per judge "
                          f"{m[f'score per judge {lo}']:.0f} MB; load average {load[0]:.1f} at "
                          f"the start ({os.cpu_count()} cores)"})
    ratio = t[f"compare {lo}"] / t[f"score {lo}"]
    rows.append({"name": f"evalkit compare (B = 1000, UG), {lo} runs, against evalkit score",
                 "evalkit_s": t[f"compare {lo}"], "reference_s": t[f"score {lo}"],
                 "speed_up": 1 / ratio, "target": "<= 2x", "ok": ratio <= 2.0,
                 "check": f"compare / score = {ratio:.2f}; peak memory {m[f'compare {lo}']:.0f} MB; "
                          f"the unmeasured first score run took {first:.1f} s"})
    rows.append(_hostile_row(build, env, data[lo]["ratings"]))
    return rows


def _hostile_row(build: Path, env: dict, ratings: Path) -> dict:
    """A 4,000,000-line run file whose line 3,999,999 lacks its tag: `evalkit score`
    must exit 2 naming that line; its wall time and peak memory."""
    from trec_data import write_hostile_run

    path = write_hostile_run(build / "bench" / "hostile")
    cmd = [sys.executable, "-m", "evalkit.workspace.cli", "score", "--ratings", str(ratings),
           "--gain", "ug", "--measure", "nERR@10", str(path)]
    wall, peak, _, err = _process(cmd, env, fail_ok=True)
    message = err.decode(errors="replace").strip().splitlines()[-1] if err else ""
    named = ":3999999:" in message or "line 3999999" in message
    size = path.stat().st_size / 1e6
    return {"name": f"bad line 3,999,999 of a 4,000,000-line run file ({size:.0f} MB)",
            "evalkit_s": wall, "reference_s": float("nan"), "speed_up": float("nan"),
            "target": "names it", "ok": named,
            "check": f"{message[:150]} (peak memory {peak:.0f} MB)"}


def main(argv: list[str] | None = None) -> int:
    """Run every benchmark, or those named (e.g. ``compare``, ``tukey``, ``trec``)."""
    import argparse

    benches = {
        "tukey": lambda tmp, a: [bench_tukey()],
        "scoring": lambda tmp, a: [bench_scoring(tmp)],
        "evaluate": lambda tmp, a: bench_evaluate(tmp / "evaluate"),
        "compare": lambda tmp, a: bench_compare(tmp / "compare"),
        "assessors": lambda tmp, a: [bench_assessors(tmp / "assessors")],
        "agreement": lambda tmp, a: bench_agreement(tmp / "agreement"),
        "kim": lambda tmp, a: bench_kim(tmp),
        "ttg": lambda tmp, a: [bench_ttg(tmp)],
        "estimate": lambda tmp, a: _bench_estimate(Path(__file__).resolve().parent.parent / "build",
                                                   a.repeats),
        "trec": lambda tmp, a: bench_trec_scale(Path(__file__).resolve().parent.parent / "build",
                                                a.repeats, a.evalkit_path, a.runs),
    }
    parser = argparse.ArgumentParser(description="evalkit's performance benchmarks")
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"run only these: {', '.join(benches)}")
    parser.add_argument("--only", choices=tuple(benches), help="run only this benchmark")
    parser.add_argument("--evalkit-path", metavar="DIR",
                        help="PYTHONPATH of the TREC-scale evalkit processes (e.g. an older checkout)")
    parser.add_argument("--repeats", type=int, default=3, help="TREC-scale repeats per command")
    parser.add_argument("--runs", type=int, nargs="+", default=[20, 100], metavar="N",
                        help="run counts of the TREC-scale benchmark (first: compare's)")
    args = parser.parse_args(argv)
    only = set(args.names) | ({args.only} if args.only else set())
    unknown = only - set(benches)
    if unknown:
        parser.error(f"unknown benchmark(s) {sorted(unknown)}; choose from {list(benches)}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, bench in benches.items():
            if not only or name in only:
                rows.extend(bench(Path(tmp), args))
    return _print(rows)


def _bench_estimate(build: Path, repeats: int) -> list[dict]:
    from estimate_bench import bench_estimate          # benchmarks/ is on sys.path when run

    return bench_estimate(build, repeats)


def _print(rows: list[dict]) -> int:
    print(f"{'benchmark':64} {'evalkit':>10} {'reference':>10} {'ratio':>7}  {'target':8} ok")
    for r in rows:
        ref = "-" if np.isnan(r["reference_s"]) else f"{r['reference_s'] * 1e3:.1f}ms"
        ratio = "-" if np.isnan(r["speed_up"]) else f"{r['speed_up']:.1f}x"
        print(f"{r['name']:64} {r['evalkit_s'] * 1e3:8.1f}ms {ref:>10} {ratio:>7}  "
              f"{r['target']:8} {'yes' if r['ok'] else 'NO'}")
        print(f"    {r['check']}")
    return 0 if all(r["ok"] and r.get("extra_ok", True) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
