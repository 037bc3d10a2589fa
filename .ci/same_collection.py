"""Collect the test suite twice, in separate processes, and fail if the test ids differ.

pytest-xdist refuses a run whose workers collected different tests, so a test id
built from the clock (a gzip header's time), from an unseeded random draw, from a
temporary path, a free port or the iteration order of a set of strings (which
``PYTHONHASHSEED`` changes) makes ``make test`` fail at random. The two
collections here run one after the other, so they start in different seconds,
and with different ``PYTHONHASHSEED``\\ s; the first id that differs is named.

Usage: ``python .ci/same_collection.py [PYTEST ARGS...]`` (exit 0: the same ids in
the same order; 1: they differ; 2: a collection failed).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

SEEDS = ("1", "2718")


def collect(seed: str, extra: list[str]) -> list[str]:
    """The test ids ``pytest --collect-only`` prints with ``PYTHONHASHSEED=seed``."""
    env = dict(os.environ, PYTHONHASHSEED=seed)
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", *extra],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stdout.write(done.stdout[-4000:])
        sys.stderr.write(done.stderr[-4000:])
        print(f"same_collection: pytest --collect-only failed (exit {done.returncode}) "
              f"with PYTHONHASHSEED={seed}", file=sys.stderr)
        sys.exit(2)
    return [line for line in done.stdout.splitlines() if "::" in line]


def first_difference(one: list[str], two: list[str]) -> tuple[int, str, str] | None:
    """``(position, id in one, id in two)`` of the first difference, or None."""
    for i in range(max(len(one), len(two))):
        a = one[i] if i < len(one) else "(nothing)"
        b = two[i] if i < len(two) else "(nothing)"
        if a != b:
            return i, a, b
    return None


def main(extra: list[str]) -> int:
    started, ids = [], []
    for seed in SEEDS:
        # start each collection in a new wall-clock second
        while started and int(time.time()) == int(started[-1]):
            time.sleep(0.05)
        started.append(time.time())
        ids.append(collect(seed, extra))
    stamps = [time.strftime("%H:%M:%S", time.localtime(t)) for t in started]
    where = first_difference(*ids)
    if where is None:
        print(f"same_collection: {len(ids[0])} test ids, the same in both collections "
              f"(PYTHONHASHSEED={SEEDS[0]} at {stamps[0]}, {SEEDS[1]} at {stamps[1]})")
        return 0
    i, a, b = where
    print(f"same_collection: the test ids differ between two collections "
          f"(PYTHONHASHSEED={SEEDS[0]} at {stamps[0]}, {SEEDS[1]} at {stamps[1]}); "
          f"first at position {i}:\n  {a}\n  {b}\n"
          "pytest-xdist refuses such a run: build test ids and parameters from nothing that "
          "changes with the clock, the process or the hash seed (gzip.compress(..., mtime=0), "
          "seeded generators, ids that name the case)", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
