"""Update time of each explorer (``make bench-explore``): what a slider move costs.

Builds each app exactly as the notebooks do (default simulated data under
``data/raw/``, written first if missing) and times a sequence of control
changes.  Setting a widget's value outside a running event loop triggers the
*full* update synchronously (compute, HTML tables, matplotlib PNG), so the
times are those a user waits for once a slider rests; the Sakai and Kim
previews (fewer HSD trials, one noise draw) while dragging are timed too.
Target: every full update <= 1 s.  Prints median and worst per explorer.
"""

from __future__ import annotations

import statistics
import sys
import time

from evalkit.explore import kim, sakai, wang
from evalkit.formats import trec
from evalkit.formats.orderings import read_orderings
from evalkit.papers import sakai2017_unanimity_gain as sakai_paper
from evalkit import paths
from evalkit.workspace import runner

TARGET_S = 1.0


def _controls(box):
    return box.children[0].children[0].children


def time_moves(controls, moves) -> list[float]:
    times = []
    for index, value in moves:
        start = time.perf_counter()
        controls[index].value = value
        times.append(time.perf_counter() - start)
    return times


def bench_sakai() -> dict:
    collection = sakai_paper.load_collection(paths.RAW / "stc")
    box = sakai.app(collection)                       # the first draw compiles (numba) and warms up
    moves = [(0, 0.1), (0, 0.5), (1, 4), (1, 8), (2, 10), (2, 40), (2, 80), (3, 0.5), (3, 0.9),
             (0, 0.2), (1, 3), (2, 5), (3, 0.0)]
    full = time_moves(_controls(box), moves)
    best = sakai_paper.best_runs(collection)
    preview = []
    for p in (0.1, 0.3, 0.6, 0.9):
        start = time.perf_counter()
        sakai.compute(collection, p=p, trials=sakai.PREVIEW_TRIALS, best=best)
        preview.append(time.perf_counter() - start)
    return {"name": "Sakai: p, Dmax, N, agreement (B = 5000)", "times": full,
            "note": f"preview compute (B = {sakai.PREVIEW_TRIALS}) median "
                    f"{statistics.median(preview) * 1e3:.0f} ms"}


def bench_wang() -> dict:
    start = time.perf_counter()
    world = wang.World(trec.read_qrels(paths.RAW / "ttg" / "qrels.txt"))
    built = time.perf_counter() - start
    box = wang.app(world)
    moves = [(0, 0.5), (0, 2.0), (0, 3.0), (0, 0.0), (1, "f1"), (1, "precision"), (0, 1.0)]
    return {"name": "Wang: alternate disagreement level, scatter metric",
            "times": time_moves(_controls(box), moves),
            "note": f"world built once in {built:.1f} s (notebook set-up cell)"}


def bench_kim() -> dict:
    engines = kim.Engines(read_orderings(paths.RAW / "ordering" / "judgments.csv"))
    box = kim.app(engines)
    moves = [(1, 0.5), (2, 5.0), (3, 0.0), (4, 0.5), (0, 0.0), (0, 0.25), (0, 0.75), (0, 1.0),
             (1, 1.0), (0, 0.5)]
    cold = time_moves(_controls(box), moves)
    warmed = kim.Engines(read_orderings(paths.RAW / "ordering" / "judgments.csv"))
    for r in (0.25, 0.5, 0.75, 1.0):
        for d in range(2):
            warmed.warm(r, d)
    hot = time_moves(_controls(kim.app(warmed)), moves)
    return {"name": "Kim: noise ratio, FreSPA minSup, wLen, wSup, maxLen/k (2 draws)",
            "times": cold,
            "note": "first visit to a noise ratio builds its engines (the app prepares them while "
                    f"idle); with every ratio prepared: median {statistics.median(hot) * 1e3:.0f} ms, "
                    f"worst {max(hot) * 1e3:.0f} ms"}


def main() -> int:
    runner.ensure_raw_data()
    rows = [bench_sakai(), bench_wang(), bench_kim()]
    print(f"{'explorer':64} {'moves':>5} {'median':>8} {'worst':>8}  target  ok")
    ok = True
    for r in rows:
        worst, med = max(r["times"]), statistics.median(r["times"])
        ok &= worst <= TARGET_S
        print(f"{r['name']:64} {len(r['times']):5d} {med * 1e3:6.0f}ms {worst * 1e3:6.0f}ms  "
              f"<= 1 s  {'yes' if worst <= TARGET_S else 'NO'}")
        print(f"    {r['note']}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
