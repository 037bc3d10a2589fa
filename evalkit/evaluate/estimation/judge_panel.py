"""Many proxy judges on one judged pool: what each one's labels are worth, and circularity.

For collections that released judges' labels but no runs (LLMJudge 2024: the
human labels and 33 LLM judges on one pool of 25 topics), the runs are
*simulated* over the pool as the real-data chapter simulates them
(:func:`evalkit.simulate.stc.rank_pool`: teams of runs scoring each pooled
document by skill x its reference grade plus noise, top 10); every number
that rests on them says so.

* :func:`pool_runs`: the simulated runs; :func:`circular_run`: a run that
  ranks the pool by one judge's own labels (ties at random), the system that
  "ranks with the judge's own model";
* :func:`panel_scores`: every run's per-topic scores under the reference and
  each judge (:func:`evalkit.evaluate.scoring.engine.score`);
* :func:`width_ratios`: per judge and ``n``, the mean interval width of
  ``ppi`` and ``ppi++`` over the classical one when only ``n`` random topics
  keep the reference's labels (``draws`` random choices of them);
* :func:`circularity`: the bias test of
  :mod:`~evalkit.evaluate.estimation.bias` for one run under several judges.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .estimators import method_estimates
from .topic_scores import TopicScores

__all__ = ["pool_runs", "circular_run", "panel_scores", "width_ratios", "circularity"]


def _pool(labels: pd.DataFrame, judge: str) -> dict:
    part = labels[labels["judge"] == judge].sort_values(["topic", "doc"])
    return {str(t): (g["doc"].to_numpy(dtype=object), g["grade"].to_numpy())
            for t, g in part.groupby("topic", sort=True)}


def pool_runs(labels: pd.DataFrame, reference: str, seed, n_runs: int = 20,
              n_teams: int = 8, depth: int = 10) -> pd.DataFrame:
    """Simulated runs over the reference's pool (``run, topic, doc, rank, score``)."""
    from ...simulate.stc import rank_pool

    return rank_pool(_pool(labels, reference), seed, n_teams=n_teams, n_runs=n_runs, depth=depth)


def circular_run(labels: pd.DataFrame, judge: str, seed, depth: int = 10,
                 name: str | None = None) -> pd.DataFrame:
    """A run ranking each topic's pool by ``judge``'s grades, ties in a random order."""
    rng = np.random.default_rng(seed)
    rows = []
    for topic, (docs, grades) in _pool(labels, judge).items():
        order = np.lexsort((rng.random(len(docs)), -grades))[:depth]
        rows += [(name or f"circular-{judge}", topic, str(docs[i]), r + 1, float(depth - r))
                 for r, i in enumerate(order)]
    return pd.DataFrame(rows, columns=["run", "topic", "doc", "rank", "score"])


def panel_scores(runs: pd.DataFrame, labels: pd.DataFrame, reference: str, judges,
                 measure: str = "nDCG@10") -> tuple[tuple, tuple, np.ndarray, dict]:
    """``(runs, topics, reference (R, T), {judge: (R, T)})`` of every run under every judge."""
    from ..scoring.engine import score

    keep = labels[labels["judge"].isin([reference, *judges])]
    keep.attrs.update(labels.attrs)
    out = score(runs, judges=keep, per_judge=True, per_topic=True, measures=(measure,),
                missing="zero")
    out = out[out["topic"] != "all"]
    wide = out.set_index(["judge", "run", "topic"])["value"].unstack("topic")
    names = tuple(sorted(out["run"].unique()))
    topics = tuple(wide.columns)
    grid = {j: wide.loc[j].reindex(index=list(names)).to_numpy(float)
            for j in (reference, *judges)}
    return names, topics, grid.pop(reference), grid


def width_ratios(reference: np.ndarray, proxies: dict, ns=(5, 10, 15), draws: int = 200,
                 seed: int = 0, alpha: float = 0.05, interval: str = "normal") -> pd.DataFrame:
    """Rows ``judge, n, method, width_ratio``: the mean width of ``ppi`` and ``ppi++`` over
    the mean classical width (over runs and ``draws`` random sets of ``n`` labelled topics)."""
    topics = reference.shape[1]
    rng = np.random.default_rng(seed)
    rows = []
    for n in ns:
        picks = np.argsort(rng.random((draws, topics)), axis=1)         # same topics per judge
        lab, unl = picks[:, :n], picks[:, n:]

        def gather(x, idx):
            return np.swapaxes(x.T[idx], 1, 2)                          # (draws, R, k)

        for judge, proxy in proxies.items():
            found = method_estimates(gather(reference, lab), gather(proxy, lab),
                                     gather(proxy, unl), alpha, interval)
            base = (found["classical"].high - found["classical"].low).mean()
            for method in ("ppi", "ppi++"):
                e = found[method]
                rows.append({"judge": judge, "n": n, "method": method,
                             "width_ratio": (e.high - e.low).mean() / base})
    return pd.DataFrame(rows)


def circularity(names, topics, reference: np.ndarray, proxies: dict, run: str,
                trials: int = 5000, seed: int = 0, alpha: float = 0.05) -> pd.DataFrame:
    """The bias test's row for ``run`` under each judge of ``proxies`` (every topic judged by
    both), with ``judge`` first."""
    from .bias import bias_table

    rows = []
    for judge, proxy in proxies.items():
        scores = TopicScores(("nDCG@10",), tuple(names), tuple(topics), (), reference[None],
                             proxy[None], np.zeros((1, len(names), 0)))
        table = bias_table(scores, alpha, bootstrap=1000, trials=trials, seed=seed)
        rows.append(table[table["run"] == run].assign(judge=judge))
    out = pd.concat(rows, ignore_index=True)
    return out[["judge", *[c for c in out.columns if c != "judge"]]]
