"""The reproduction's profile: per notebook, wall time, imports, figures and the top functions.

Run by ``make bench`` (``python benchmarks/reproduction.py [NAME ...] [--label LABEL]``).
Each notebook runs as a script in a fresh process under cProfile, with its
default parameters and ``out_dir`` pointed at a temporary folder (``figures/``
is left alone), from ``notebooks/`` like a kernel.  Recorded per notebook:

* ``wall_s`` and ``cpu_s``: its code cells, profiled (cProfile adds some
  overhead), in wall-clock and in CPU seconds of the process (all its
  threads); on a loaded machine the CPU seconds are the comparable number;
* ``imports_s``: its first code cell after the parameters (the imports and the
  data reading a kernel pays before the work);
* ``figures`` and ``save_s``: how many figures it saved and the seconds in
  :func:`evalkit.outputs.save_figure` (PNG, SVG and the figure check);
* ``top``: the evalkit functions with the largest cumulative time.

And once: ``kernel_s``, a bare kernel's time from start to its first cell's
result (the batch kernel's own arguments, as the runner starts it).

Writes ``benchmarks/reproduction[-LABEL].md`` and ``.csv``.  Times taken on a
loaded machine say so in the table's header line (the load average is printed).
"""

from __future__ import annotations

import argparse
import cProfile
import csv
import io
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP = 8


def profile_notebook(name: str, out_dir: str) -> dict:
    """Run notebook ``name``'s code cells in this process under cProfile (the child's side)."""
    import nbformat

    os.environ.setdefault("MPLBACKEND", "Agg")
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    cells = [c.source for c in nb.cells if c.cell_type == "code"]
    os.chdir(ROOT / "notebooks")
    namespace = {"__name__": "__main__"}
    exec(compile(cells[0], "parameters", "exec"), namespace)
    if "out_dir" in namespace:
        namespace["out_dir"] = out_dir
    profiler = cProfile.Profile()
    started, cpu = time.perf_counter(), time.process_time()
    imports = None
    for i, source in enumerate(cells[1:], 1):
        profiler.enable()
        try:
            exec(compile(source, f"cell {i}", "exec"), namespace)
        finally:
            profiler.disable()
        if imports is None:
            imports = time.perf_counter() - started
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    stats = pstats.Stats(profiler, stream=io.StringIO())
    rows = []
    saves, save_s = 0, 0.0
    for (path, line, func), (_cc, calls, _tt, cum, _callers) in stats.stats.items():
        if "evalkit" not in path or "/papers/" not in path and "/measures/" not in path \
                and "/stats/" not in path and "/simulate/" not in path and "/explore/" not in path \
                and "outputs.py" not in path:
            continue
        short = path.rsplit("/evalkit/", 1)[1].removesuffix(".py").replace("/", ".")  # the package, whatever the clone is called
        if func == "save_figure" and short == "outputs":
            saves, save_s = calls, cum
        if func.startswith("<") or short.endswith("__init__") and func == "<module>":
            continue
        rows.append((cum, f"{short}.{func}"))
    rows.sort(reverse=True)
    return {"notebook": name, "wall_s": wall, "cpu_s": cpu, "imports_s": imports, "figures": saves, "save_s": save_s,
            "top": [(f, round(c, 2)) for c, f in rows[:TOP]]}


def bare_kernel_seconds() -> float:
    """A bare batch kernel's time from start to its first cell's result (as the runner starts it)."""
    from jupyter_client.manager import start_new_kernel

    from evalkit.workspace.worker import KERNEL_ARGUMENTS

    started = time.perf_counter()
    km, kc = start_new_kernel(kernel_name="python3", extra_arguments=KERNEL_ARGUMENTS)
    try:
        kc.execute_interactive("1 + 1", timeout=120)
        return time.perf_counter() - started
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def run(names, label: str) -> Path:
    results = []
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run([sys.executable, __file__, "--child", name, tmp], capture_output=True,
                                  text=True, cwd=ROOT)
            if done.returncode != 0:
                print(done.stderr[-2000:], file=sys.stderr)
                raise SystemExit(f"{name}: failed (exit {done.returncode})")
            record = json.loads(done.stdout.strip().splitlines()[-1])
        results.append(record)
        print(f"{name}: {record['wall_s']:.1f} s ({record['cpu_s']:.1f} s CPU), imports {record['imports_s']:.1f} s, "
              f"{record['figures']} figures in {record['save_s']:.1f} s", flush=True)
    kernel = bare_kernel_seconds()
    load = os.getloadavg()
    suffix = f"-{label}" if label else ""
    md = ROOT / "benchmarks" / f"reproduction{suffix}.md"
    lines = [f"# Reproduction profile{' (' + label + ')' if label else ''}", "",
             f"Notebooks run as scripts under cProfile, default parameters; load average at the end "
             f"{load[0]:.2f} on {os.cpu_count()} cores. A bare kernel's start to its first cell's "
             f"result: {kernel:.2f} s.", "",
             "| notebook | wall (s) | CPU (s) | imports (s) | figures | saving (s) | s a figure | top functions (cumulative s) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        per = r["save_s"] / r["figures"] if r["figures"] else 0.0
        top = "; ".join(f"`{f}` {c}" for f, c in r["top"])
        lines.append(f"| {r['notebook']} | {r['wall_s']:.1f} | {r['cpu_s']:.1f} | {r['imports_s']:.1f} | {r['figures']} | "
                     f"{r['save_s']:.1f} | {per:.2f} | {top} |")
    lines.append(f"| total | {sum(r['wall_s'] for r in results):.1f} | {sum(r['cpu_s'] for r in results):.1f} | | "
                 f"{sum(r['figures'] for r in results)} | {sum(r['save_s'] for r in results):.1f} | | |")
    md.write_text("\n".join(lines) + "\n")
    with open(md.with_suffix(".csv"), "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["notebook", "wall_s", "cpu_s", "imports_s", "figures", "save_s", "top"])
        for r in results:
            writer.writerow([r["notebook"], f"{r['wall_s']:.2f}", f"{r['cpu_s']:.2f}", f"{r['imports_s']:.2f}", r["figures"],
                             f"{r['save_s']:.2f}", "; ".join(f"{f} {c}" for f, c in r["top"])])
        writer.writerow(["bare_kernel", f"{kernel:.2f}", "", "", "", "", ""])
    print(f"bare kernel to first cell: {kernel:.2f} s; table: {md.relative_to(ROOT)}")
    return md


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        print(json.dumps(profile_notebook(argv[1], argv[2])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebooks (default: all; real_data and llmjudge2024 "
                                                 "need `make data`)")
    parser.add_argument("--label", default="", help="suffix of the table's file name (e.g. before)")
    args = parser.parse_args(argv)
    from evalkit import data, papers

    names = args.names or [nb.name for nb in papers.notebooks()
                           if all(data.available(name) for name in nb.needs_data)]
    run(names, args.label)
    return 0


if __name__ == "__main__":
    sys.exit(main())
