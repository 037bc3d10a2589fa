"""``evalkit score`` with trec_eval's measures against pytrec_eval at TREC scale, whole processes.

Issue 36.  20 and 100 runs x 200 topics x 1,000 documents (``benchmarks/trec_data.py``),
one judge and ten; pytrec_eval run by ``benchmarks/pytrec_reference.py`` in
the benchmark's own venv (``build/bench-venv``).  Targets: time ratio <= 0.5,
also per judge; identical means; peak memory <= 400 MB and within 1.5x from
20 to 100 runs; ``evalkit compare`` <= 2x ``evalkit score``; a bad line
3,999,999 of a 4,000,000-line run file named.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from .common import BENCHMARKS, measure_process


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

    sys.path.insert(0, str(BENCHMARKS))
    from trec_data import write_collection, write_judges

    reference = _reference_python(build)
    env = dict(os.environ)
    if evalkit_path:
        env["PYTHONPATH"] = evalkit_path
    data = {n: write_collection(build / "bench" / f"r{n}", runs=n, seed=25) for n in run_counts}
    lo, hi = run_counts[0], run_counts[-1]
    panel = write_judges(build / "bench" / f"r{lo}", judges=judges, seed=25)
    measures = [x for m in MEASURES5 for x in ("--measure", m)]
    script = str(BENCHMARKS / "pytrec_reference.py")
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
    jobs[f"score all_trec {lo}"] = ([*cli, "score", "--judge", f"qrels={data[lo]['qrels']}",
                                     "--measure", "all_trec", "--format", "csv", *runs], env)
    jobs[f"pytrec_eval all {lo}"] = ([reference, script, "--all", str(data[lo]["qrels"]), "--",
                                      *runs], None)
    jobs[f"compare {lo}"] = ([*cli, "compare", "--ratings", str(data[lo]["ratings"]), "--gain",
                              "ug", "--measure", "nDCG@10", "--measure", "nERR@10", "--trials",
                              "1000", *runs], env)
    times = {k: [] for k in jobs}
    peaks = {k: [] for k in jobs}
    outputs = {}
    # one unmeasured run first: a fresh install compiles the scanner (numba caches it)
    first, _, _, _ = measure_process(jobs[f"score {lo}"][0], env)
    load = os.getloadavg()
    for _ in range(repeats):
        for name, (cmd, environment) in jobs.items():
            wall, peak, out, _ = measure_process(cmd, environment)
            times[name].append(wall)
            peaks[name].append(peak)
            outputs[name] = out
            print(f"  {name}: {wall:.1f} s, peak {peak:.0f} MB (load {os.getloadavg()[0]:.1f})",
                  file=sys.stderr, flush=True)
    t = {k: statistics.median(v) for k, v in times.items()}
    m = {k: statistics.median(v) for k, v in peaks.items()}
    rows = []
    for label, what in [(f"{n}", f"{n} runs, one judge") for n in run_counts] + [
            (f"per judge {lo}", f"{lo} runs, --per-judge over {judges} judges")]:
        rows.append(_against_pytrec(
            f"evalkit score, {what} x 200 topics x 1000 docs, 5 measures",
            _means(outputs[f"score {label}"], False), _means(outputs[f"pytrec_eval {label}"], True),
            f"score {label}", f"pytrec_eval {label}", t, m, times, repeats))
    rows.append(_all_trec_row(outputs, t, m, times, lo, repeats))
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


def _all_trec_row(outputs: dict, t: dict, m: dict, times: dict, lo: int, repeats: int) -> dict:
    """``--measure all_trec`` against pytrec_eval computing every measure it has: time,
    memory, and every shared summary compared (by trec_eval's names; ``iprec_at_recall`` and
    ``11pt_avg`` left out: pytrec_eval keeps trec_eval 9's cutoffs, evalkit 10's,
    ``docs/measures.md``)."""
    from evalkit.evaluate.scoring.trec_eval_format import trec_eval_name
    from evalkit.measures.registry import parse_measure

    ours = {}
    for (judge, run, name), value in _means(outputs[f"score all_trec {lo}"], False).items():
        trec = trec_eval_name(parse_measure(name))
        if trec is not None:
            ours[judge, run, trec] = value
    theirs = {k: v for k, v in _means(outputs[f"pytrec_eval all {lo}"], True).items()
              if not k[2].startswith(("iprec_at_recall", "11pt_avg"))}
    return _against_pytrec(f"evalkit score --measure all_trec, {lo} runs x 200 topics x 1000 docs",
                           ours, theirs, f"score all_trec {lo}", f"pytrec_eval all {lo}", t, m,
                           times, repeats, relative=True)


def _against_pytrec(name: str, ours: dict, theirs: dict, mine: str, reference: str, t: dict,
                    m: dict, times: dict, repeats: int, relative: bool = False) -> dict:
    """A row of ``evalkit score`` (job ``mine``) against pytrec_eval (job ``reference``):
    time ratio (target <= 0.5), peak memory, and every value of ``theirs`` compared with
    ``ours`` (absolute differences, or ``relative`` to values above 1: the counts)."""
    shared = sorted(set(theirs) & set(ours))
    scale = (lambda k: max(1.0, abs(theirs[k]))) if relative else (lambda k: 1.0)
    worst = max((abs(ours[k] - theirs[k]) / scale(k) for k in shared), default=float("inf"))
    ratio = t[mine] / t[reference]
    same = len(shared) == len(theirs) and worst <= 1e-12
    return {"name": name, "evalkit_s": t[mine], "reference_s": t[reference],
            "speed_up": 1 / ratio, "target": "<= 0.5", "ok": ratio <= 0.5 and same,
            "check": f"time / pytrec_eval's = {ratio:.2f} (medians of {repeats}: "
                     f"{', '.join(f'{x:.2f}' for x in times[mine])} s vs "
                     f"{', '.join(f'{x:.2f}' for x in times[reference])} s); peak memory "
                     f"{m[mine]:.0f} MB vs pytrec_eval's {m[reference]:.0f} MB; {len(shared)} "
                     f"of {len(theirs)} {'summaries' if relative else 'means'} compared, "
                     f"largest {'relative ' if relative else ''}difference {worst:.1e}"}


def _hostile_row(build: Path, env: dict, ratings: Path) -> dict:
    """A 4,000,000-line run file whose line 3,999,999 lacks its tag: `evalkit score`
    must exit 2 naming that line; its wall time and peak memory."""
    from trec_data import write_hostile_run

    path = write_hostile_run(build / "bench" / "hostile")
    cmd = [sys.executable, "-m", "evalkit.workspace.cli", "score", "--ratings", str(ratings),
           "--gain", "ug", "--measure", "nERR@10", str(path)]
    wall, peak, _, err = measure_process(cmd, env, fail_ok=True)
    message = err.decode(errors="replace").strip().splitlines()[-1] if err else ""
    named = ":3999999:" in message or "line 3999999" in message
    size = path.stat().st_size / 1e6
    return {"name": f"bad line 3,999,999 of a 4,000,000-line run file ({size:.0f} MB)",
            "evalkit_s": wall, "reference_s": float("nan"), "speed_up": float("nan"),
            "target": "names it", "ok": named,
            "check": f"{message[:150]} (peak memory {peak:.0f} MB)"}
