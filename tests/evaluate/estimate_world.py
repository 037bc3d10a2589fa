"""A small collection for the evalkit estimate tests: a human judge on some topics, an LLM judge
on all of them, runs of graded quality; optionally an LLM that favours one run's documents."""

from pathlib import Path

import numpy as np


def write_world(folder: Path, seed: int = 3, topics: int = 30, docs: int = 40, runs: int = 5,
                judged: int = 10, favoured: int | None = None, depth: int = 20,
                noise: float = 0.15) -> dict:
    """Write ``human.qrels`` (the first ``judged`` topics), ``llm.qrels`` (every topic: the human
    grade, one grade off on a share ``noise`` of the documents, and with ``favoured`` grade 1
    for the non-relevant documents among that run's top 10) and ``runs/r<i>.txt`` (run i ranks
    by ``0.3 i`` x the grade plus noise, ``depth`` documents per topic); return the paths."""
    folder = Path(folder)
    (folder / "runs").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    rel = rng.random((topics, docs)) < 0.3
    grade = np.where(rel, rng.integers(1, 3, (topics, docs)), 0)
    off = (rng.random((topics, docs)) < noise) * rng.choice([-1, 1], (topics, docs))
    llm = np.clip(grade + off, 0, 2)
    ranked = []
    for r in range(runs):
        score = grade * (0.3 * r) + rng.random((topics, docs))
        ranked.append(np.argsort(-score, axis=1)[:, :depth])
    if favoured is not None:
        for t in range(topics):
            top = ranked[favoured][t, :10]
            llm[t, top[grade[t, top] == 0]] = 1
    paths = {"human": folder / "human.qrels", "llm": folder / "llm.qrels",
             "runs": [folder / "runs" / f"r{r}.txt" for r in range(runs)]}
    paths["human"].write_text("".join(f"q{t:02d} 0 d{d} {grade[t, d]}\n"
                                      for t in range(judged) for d in range(docs)))
    paths["llm"].write_text("".join(f"q{t:02d} 0 d{d} {llm[t, d]}\n"
                                    for t in range(topics) for d in range(docs)))
    for r, path in enumerate(paths["runs"]):
        path.write_text("".join(f"q{t:02d} Q0 d{d} {k + 1} {depth - k} r{r}\n"
                                for t in range(topics) for k, d in enumerate(ranked[r][t])))
    return paths
