"""The coverage study of ``evalkit estimate``'s intervals on the sweeps' Dask engine.

``python -m evalkit.workspace.sweeps.ppi_coverage [--draws 1000] [--resamples 1000] [--out DIR]``
(``make sweep-ppi-coverage``) runs
:func:`evalkit.evaluate.estimation.coverage.coverage_table`: one Dask task per
setting (its world built once, then every ``n``), on the local cluster of
:mod:`evalkit.workspace.sweeps.engine` (processes, one thread each, one
worker per core or ``--workers N``) or ``--scheduler ADDRESS``.  Writes
``coverage.csv`` and ``coverage.md`` (columns ``setting, n, method, interval,
coverage, mc_error, width_ratio, infinite``) to ``DIR`` (default
``build/sweeps/ppi_coverage``)
and says where, with the time it took.  The same seed gives the same bytes.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

__all__ = ["run_coverage", "main"]


def run_coverage(out: Path | None = None, draws: int = 1000, seed: int = 44, pool: int = 4000,
                 ns=(10, 25, 50), scheduler: str | None = None, resamples: int = 1000,
                 workers: int | None = None) -> Path:
    """Run the study on Dask and write ``coverage.csv``; return its path."""
    from ... import paths
    from ...evaluate.estimation.coverage import SETTINGS, coverage_table
    from ...outputs import write_table
    from .engine import _client

    out = Path(out or paths.BUILD / "sweeps" / "ppi_coverage")
    started = time.perf_counter()
    client, cluster = _client(scheduler, workers)
    try:
        def mapper(function, tasks):
            futures = client.map(function, list(tasks), pure=False)
            return client.gather(futures)

        table = coverage_table(SETTINGS, tuple(ns), draws, seed, pool, mapper=mapper,
                               resamples=resamples)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    written = write_table(table, out / "coverage", float_format="%.6f")
    print(f"ppi coverage: {len(SETTINGS)} settings x {len(ns)} n x {draws} draws "
          f"({resamples} bootstrap-t resamples each) in "
          f"{time.perf_counter() - started:.1f} s; {', '.join(map(str, written))}",
          file=sys.stderr, flush=True)
    return written[0]


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m evalkit.workspace.sweeps.ppi_coverage",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=1000, help="draws per setting and n")
    parser.add_argument("--seed", type=int, default=44, help="seed of the worlds and the draws")
    parser.add_argument("--pool", type=int, default=4000, help="topics of each world")
    parser.add_argument("--resamples", type=int, default=1000,
                        help="bootstrap-t resamples per draw (at least 99)")
    parser.add_argument("--workers", type=int, help="Dask workers (default: one per core)")
    parser.add_argument("--out", metavar="DIR", help="output folder")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask scheduler")
    args = parser.parse_args(argv)
    if args.resamples < 99 or args.draws < 2 or (args.workers is not None and args.workers < 1):
        parser.error("--resamples must be at least 99, --draws at least 2, --workers at least 1")
    run_coverage(args.out, args.draws, args.seed, args.pool, scheduler=args.scheduler,
                 resamples=args.resamples, workers=args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
