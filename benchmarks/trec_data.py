"""TREC-scale benchmark data, generated from a seed (never committed as data).

``write_collection(folder, runs=20, seed=25)`` writes what issue 25 measures
``evalkit score`` on: ``runs`` run files of 200 topics x 1,000 ranked
documents each (20 runs: 4 million run lines), per-assessor ratings of 500
judged documents per topic by 5 assessors on a 0-3 scale (500,000 lines) and
the same judgments as graded TREC qrels with the RawG gain (sum of the five
ratings) for trec_eval-style tools.

Model: each topic has a pool of 3,000 candidate documents, the first 500 of
which are judged; a judged document has a latent grade 0-3 and each assessor
rates it that grade moved by -1, 0 or +1 (clipped to 0-3).  A run scores a
document ``quality x latent grade + standard normal noise`` and returns its
top 1,000 by score.  The same seed gives the same bytes.

Command line: ``python benchmarks/trec_data.py FOLDER [--runs N] [--seed S]``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

TOPICS, DEPTH, POOL, JUDGED, ASSESSORS = 200, 1000, 3000, 500, 5


def _doc_ids(topic: int) -> list[str]:
    return [f"GX{topic:03d}-{j:02d}-{j * 7919 % 1000003:07d}" for j in range(POOL)]


def write_collection(folder, runs: int = 20, seed: int = 25, topics: int = TOPICS,
                     depth: int = DEPTH) -> dict:
    """Write ``ratings.txt``, ``qrels.txt`` and ``runs/run-NNN.txt`` under ``folder``.

    Returns the paths (``ratings``, ``qrels``, ``runs``: a sorted list).
    Existing files of the same parameters are kept (a ``.done`` stamp names them).
    """
    folder = Path(folder)
    stamp = folder / ".done"
    key = f"runs={runs} seed={seed} topics={topics} depth={depth}\n"
    run_paths = [folder / "runs" / f"run-{r:03d}.txt" for r in range(runs)]
    out = {"ratings": folder / "ratings.txt", "qrels": folder / "qrels.txt", "runs": run_paths}
    if stamp.exists() and stamp.read_text() == key:
        return out
    (folder / "runs").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    topic_ids = 401 + np.arange(topics)
    docs = [_doc_ids(t) for t in topic_ids]
    latent = np.zeros((topics, POOL), dtype=np.int64)
    latent[:, :JUDGED] = rng.choice(4, size=(topics, JUDGED), p=[0.6, 0.2, 0.12, 0.08])
    noise = rng.choice([-1, 0, 1], size=(topics, JUDGED, ASSESSORS), p=[0.15, 0.7, 0.15])
    ratings = np.clip(latent[:, :JUDGED, None] + noise, 0, 3)
    lines = []
    qlines = []
    for t, topic in enumerate(topic_ids):
        for j in range(JUDGED):
            doc = docs[t][j]
            lines.extend(f"{topic} a{a + 1} {doc} {ratings[t, j, a]}\n" for a in range(ASSESSORS))
            qlines.append(f"{topic} 0 {doc} {ratings[t, j].sum()}\n")
    out["ratings"].write_text("".join(lines))
    out["qrels"].write_text("".join(qlines))
    qualities = rng.uniform(0.2, 1.5, size=runs)
    for r, path in enumerate(run_paths):
        scores = qualities[r] * latent + rng.standard_normal((topics, POOL))
        top = np.argsort(-scores, axis=1, kind="stable")[:, :depth]
        chunk = []
        for t, topic in enumerate(topic_ids):
            names, values = docs[t], scores[t]
            chunk.extend(f"{topic} Q0 {names[j]} {i + 1} {values[j]:.6f} run-{r:03d}\n"
                         for i, j in enumerate(top[t]))
        path.write_text("".join(chunk))
    for stale in sorted((folder / "runs").glob("run-*.txt"))[runs:]:
        stale.unlink()
    stamp.write_text(key)
    return out


def write_judges(folder, judges: int = 10, seed: int = 25, topics: int = TOPICS) -> list[Path]:
    """``judges`` judges' qrels (``judges/jNN.qrels``) over the judged documents of
    :func:`write_collection` (same ``seed``): each grades a document its latent grade moved
    by -1, 0 or +1 (clipped to 0-3), independently; kept when present."""
    folder = Path(folder) / "judges"
    paths = [folder / f"j{j + 1:02d}.qrels" for j in range(judges)]
    stamp = folder / ".done"
    key = f"judges={judges} seed={seed} topics={topics}\n"
    if stamp.exists() and stamp.read_text() == key:
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    latent = np.random.default_rng(seed).choice(4, size=(topics, JUDGED), p=[0.6, 0.2, 0.12, 0.08])
    rng = np.random.default_rng([seed, judges])
    topic_ids = 401 + np.arange(topics)
    for path in paths:
        grades = np.clip(latent + rng.choice([-1, 0, 1], size=latent.shape, p=[0.2, 0.6, 0.2]), 0, 3)
        path.write_text("".join(f"{topic} 0 {doc} {grades[t, j]}\n"
                                for t, topic in enumerate(topic_ids)
                                for j, doc in enumerate(_doc_ids(topic)[:JUDGED])))
    stamp.write_text(key)
    return paths


def write_hostile_run(folder, lines: int = 4_000_000, bad_line: int = 3_999_999) -> Path:
    """One run file of ``lines`` lines (4,000 topics x 1,000 documents, one tag) whose line
    ``bad_line`` lacks its tag (five fields; a seventh field is ignored, as trec_eval ignores
    it): the error must name that line.  Kept when present."""
    folder = Path(folder)
    path = folder / f"hostile-{lines}-{bad_line}-no-tag.txt"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    depth = 1000
    with open(path.with_suffix(".part"), "w") as out:
        for start in range(0, lines, 100_000):
            chunk = []
            for n in range(start + 1, min(start + 100_000, lines) + 1):
                topic, rank = divmod(n - 1, depth)
                tag = "" if n == bad_line else " big"
                chunk.append(f"{topic + 1} Q0 D{topic + 1}-{rank} {rank + 1} "
                             f"{1.0 / (rank + 1):.6f}{tag}\n")
            out.write("".join(chunk))
    path.with_suffix(".part").rename(path)
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args(argv)
    paths = write_collection(args.folder, args.runs, args.seed)
    print(f"{len(paths['runs'])} runs, ratings and qrels under {args.folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
