"""The shipped sample of judges as they come: ``data/examples/judges/``, one qrels file per judge.

:func:`write_judges_example` generates it (a fixed seed; a test checks the
committed files are exactly what it writes): 30 topics of 12 judged
documents, each with a latent grade 0..2; three careful judges (``alice``,
``bob``, ``carol``) who report the latent grade but for an occasional slip
of one grade, and ``mallory``, who grades at random, uniformly over 0..2;
and 8 runs (``run1`` ... ``run8``, increasingly skilled) ranking each
topic's documents and 3 unjudged ones.  It is the session of a new user
replayed in ``docs/agreement.md``: ``--judge NAME=FILE`` through ``score``,
``compare``, ``assessors`` and ``agreement``, with no conversion by hand.

Regenerate with ``python -m evalkit.evaluate.judges.example``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ...formats.trec import write_qrels, write_run
from ...seeds import as_generator

__all__ = ["write_judges_example", "JUDGES", "RANDOM_JUDGE"]

#: The judges, careful ones first; :data:`RANDOM_JUDGE` grades at random.
JUDGES = ("alice", "bob", "carol", "mallory")
RANDOM_JUDGE = "mallory"


def write_judges_example(folder, seed: int = 11, topics: int = 30, docs: int = 12,
                         slip: float = 0.1) -> dict[str, Path]:
    """Write ``<judge>.qrels`` for :data:`JUDGES` and ``runs/run<k>.txt`` into ``folder``.

    Careful judges give the latent grade, or with chance ``slip`` the grade
    one step away (towards the middle at the ends); the random judge draws
    0, 1 or 2 uniformly.  Returns the paths written.
    """
    rng = as_generator(seed)
    folder = Path(folder)
    names = [f"{t:03d}" for t in range(401, 401 + topics)]
    latent = rng.choice([0, 1, 2], size=(topics, docs), p=[0.5, 0.3, 0.2])
    written = {}
    for judge in JUDGES:
        if judge == RANDOM_JUDGE:
            grades = rng.integers(0, 3, size=latent.shape)
        else:
            step = np.where(latent == 0, 1, np.where(latent == 2, -1, rng.choice([-1, 1], latent.shape)))
            grades = np.where(rng.random(latent.shape) < slip, latent + step, latent)
        rows = [(names[t], f"d{t + 401}-{d + 1:02d}", int(grades[t, d]))
                for t in range(topics) for d in range(docs)]
        written[judge] = write_qrels(pd.DataFrame(rows, columns=["topic", "doc", "grade"]),
                                     folder / f"{judge}.qrels")
    for k in range(1, 9):
        skill = 0.25 * k
        lines = []
        for t in range(topics):
            ids = [f"d{t + 401}-{d + 1:02d}" for d in range(docs)] + [f"d{t + 401}-u{u}" for u in (1, 2, 3)]
            signal = np.concatenate([latent[t], np.zeros(3)])
            order = np.argsort(-(skill * signal + rng.normal(0, 1, len(ids))), kind="stable")[:10]
            lines += [(f"run{k}", names[t], ids[i], rank + 1, float(10 - rank))
                      for rank, i in enumerate(order)]
        written[f"run{k}"] = write_run(pd.DataFrame(lines, columns=["run", "topic", "doc", "rank",
                                                                    "score"]),
                                       folder / "runs" / f"run{k}.txt")
    return written


if __name__ == "__main__":  # pragma: no cover
    from ...paths import EXAMPLES

    for path in write_judges_example(EXAMPLES / "judges").values():
        print(path)
