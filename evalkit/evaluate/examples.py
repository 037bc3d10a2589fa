"""The small shipped sample in ``data/examples/`` for ``evalkit score`` / ``compare``.

:func:`write_example` generates it (a fixed seed, so the committed files are
exactly what it writes; a test checks that): 8 topics, 15 judged documents
per topic rated 0..3 by 3 to 5 of five assessors (missing ratings included),
ratings scattered around a latent grade so assessors partly agree; one topic
nobody found relevant (excluded from means); and 6 runs from 3 teams
(``alpha-1`` ... ``gamma-2``), top-10 lists that include unjudged documents.

Regenerate with ``python -m evalkit.evaluate.examples``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..formats.assessor_ratings import write_assessor_ratings
from ..formats.trec import write_run
from ..seeds import as_generator

__all__ = ["write_example", "RUNS"]

RUNS = ("alpha-1", "alpha-2", "beta-1", "beta-2", "gamma-1", "gamma-2")


def write_example(folder, seed: int = 7) -> dict[str, Path]:
    """Write ``ratings.txt`` and ``runs/<run>.txt`` into ``folder``; return the paths."""
    rng = as_generator(seed)
    folder = Path(folder)
    rows, latent = [], {}
    for t in range(1, 9):
        topic = f"T{t:02d}"
        for d in range(1, 16):
            doc = f"{topic}-D{d:02d}"
            grade = 0.0 if t == 8 else rng.choice([0.0, 0.5, 1.5, 2.5], p=[0.4, 0.3, 0.2, 0.1])
            latent[topic, doc] = grade
            raters = sorted(rng.choice(5, size=int(rng.integers(3, 6)), replace=False))
            for a in raters:
                r = 0 if t == 8 else int(np.clip(np.rint(grade + rng.normal(0, 0.8)), 0, 3))
                rows.append((topic, f"A{a + 1}", doc, r))
    written = {"ratings": write_assessor_ratings(
        pd.DataFrame(rows, columns=["topic", "assessor", "doc", "rating"]), folder / "ratings.txt")}
    skill = {"alpha": 1.2, "beta": 0.7, "gamma": 0.3}
    for run in RUNS:
        team_skill = skill[run.split("-")[0]] + (0.1 if run.endswith("1") else 0.0)
        lines = []
        for t in range(1, 9):
            topic = f"T{t:02d}"
            docs = [f"{topic}-D{d:02d}" for d in range(1, 16)] + [f"{topic}-U{u}" for u in (1, 2, 3)]
            signal = np.array([latent.get((topic, d), 0.0) for d in docs])
            noisy = team_skill * signal + rng.normal(0, 1, len(docs))
            order = np.argsort(-noisy, kind="stable")[:10]
            lines += [(run, topic, docs[i], rank + 1, round(float(10 - rank), 2))
                      for rank, i in enumerate(order)]
        written[run] = write_run(pd.DataFrame(lines, columns=["run", "topic", "doc", "rank", "score"]),
                                 folder / "runs" / f"{run}.txt")
    return written


if __name__ == "__main__":  # pragma: no cover
    from ..paths import EXAMPLES

    for path in write_example(EXAMPLES).values():
        print(path)
