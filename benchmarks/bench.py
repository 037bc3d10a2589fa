"""Performance benchmarks: ratios against reference implementations, in one process.

Run with ``make bench``, or ``python benchmarks/bench.py [NAME ...]`` for some
of them.  Each benchmark times evalkit and a plain reference implementation
alternately in the same process (median of repeated runs,
``time.perf_counter``) and prints the ratio, after checking that both give the
same statistical answers.  Absolute times depend on the machine; the ratios
are what the targets are stated in.

Each benchmark is a module of ``benchmarks/cases/`` (``tukey``, ``scoring``,
``kim``, ``ttg``, ``evaluate``, ``compare``, ``assessors``, ``agreement``,
``trec_scale``, ``estimate``), imported only when it runs; their shared timing
and the printed table are ``cases/common.py``.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from pathlib import Path

from cases.common import print_rows                 # benchmarks/ is on sys.path when run

#: where the TREC-scale data and the reference's venv are built (not committed)
BUILD = Path(__file__).resolve().parent.parent / "build"


def _case(module: str):
    """The benchmark module ``benchmarks/cases/<module>.py``, imported when it runs."""
    return importlib.import_module(f"cases.{module}")


def main(argv: list[str] | None = None) -> int:
    """Run every benchmark, or those named (e.g. ``compare``, ``tukey``, ``trec``)."""
    import argparse

    benches = {
        "tukey": lambda tmp, a: [_case("tukey").bench_tukey()],
        "scoring": lambda tmp, a: [_case("scoring").bench_scoring(tmp)],
        "evaluate": lambda tmp, a: _case("evaluate").bench_evaluate(tmp / "evaluate"),
        "compare": lambda tmp, a: _case("compare").bench_compare(tmp / "compare"),
        "assessors": lambda tmp, a: [_case("assessors").bench_assessors(tmp / "assessors")],
        "agreement": lambda tmp, a: _case("agreement").bench_agreement(tmp / "agreement"),
        "kim": lambda tmp, a: _case("kim").bench_kim(tmp),
        "ttg": lambda tmp, a: [_case("ttg").bench_ttg(tmp)],
        "estimate": lambda tmp, a: _case("estimate").bench_estimate(BUILD, a.repeats),
        "trec": lambda tmp, a: _case("trec_scale").bench_trec_scale(BUILD, a.repeats,
                                                                    a.evalkit_path, a.runs),
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
    return print_rows(rows)


if __name__ == "__main__":
    sys.exit(main())
