"""Sakai (EVIA 2017) §4: the simulated ratings and the scores of every (Dmax, N) condition.

For each condition one draw of ratings (:func:`evalkit.simulate.stc.simulate_ratings`:
an L0 item gets N zeros, L1 and L2 items N ratings uniform on 0..Dmax), the
RawG and UG (Eq. 2) of every judged item from that same draw, and nG@1, P+
and nERR@k of every run on every topic in one vectorised pass.  Tables 2 and
3, the replications and the run-spread worlds all start from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ...measures import gains, graded as measures
from ...simulate.stc import simulate_ratings
from .collection import Collection

__all__ = ["MEASURE_NAMES", "Conditions", "ratings_stream", "score_conditions",
           "conditions_from_gains", "ratings_conditions"]

#: Measures of the paper, in its order (nERR at the cutoff).
MEASURE_NAMES = ("nG@1", "P+", "nERR")


@dataclass(frozen=True)
class Conditions:
    """Scores of every run and topic under each (dmax, N) condition and gain.

    ``scores[m]`` has shape ``(conditions, 2, runs, topics)``; axis 1 is
    (RawG, UG).  NaN marks topics without positive gain (``valid`` False).
    """

    grid: tuple[tuple[int, int], ...]
    scores: dict[str, np.ndarray]
    valid: np.ndarray  # (conditions, topics)

    def means(self, measure: str) -> np.ndarray:
        """Per-run means over the valid topics, shape ``(conditions, 2, runs)``."""
        return np.nanmean(self.scores[measure], axis=-1)


def ratings_stream(seed: int, replication: int, dmax: int, n: int) -> np.random.Generator:
    """The random stream of one rating draw: ``SeedSequence([seed, replication, dmax, N])``.

    One independent stream per condition, whatever order the conditions run
    in; the explorer (:mod:`evalkit.explore.sakai`) draws from the same stream
    so that its numbers equal the notebook's.
    """
    return np.random.default_rng(np.random.SeedSequence([seed, replication, dmax, n]))


def score_conditions(
    collection: Collection,
    dmax_grid: Sequence[int],
    n_grid: Sequence[int],
    p: float = 0.2,
    seed: int = 2017,
    replication: int = 0,
) -> Conditions:
    """One rating draw per ``(dmax, N)``; RawG and UG from it; all measures.

    The same draw serves both gains, as in the paper.
    """
    grid = tuple((int(d), int(n)) for d in dmax_grid for n in n_grid)
    lists = collection.lists
    sizes = [len(items) for items in lists.items]
    width = max(sizes) + 1
    # (topic, position) of every judged item in the padded (T, L+1) layout
    topic_idx = np.repeat(np.arange(len(sizes)), sizes)
    pos_idx = np.concatenate([np.arange(n) for n in sizes])
    grades = np.concatenate(collection.grades)
    padded = np.zeros((len(grid), 2, len(sizes), width))
    for c, (dmax, n) in enumerate(grid):
        # one draw for the whole collection, in topic order (the same stream as
        # drawing topic by topic)
        r = simulate_ratings(grades, n, dmax, ratings_stream(seed, replication, dmax, n))
        padded[c, 0, topic_idx, pos_idx], padded[c, 1, topic_idx, pos_idx] = \
            gains.raw_and_unanimity_gain(r, dmax, p)
    scores, valid = measures.score_runs(lists, padded, MEASURE_NAMES)
    return Conditions(grid, scores, valid[:, 0])


def conditions_from_gains(collection: Collection, raw: list, ug: list,
                          condition: tuple[int, int]) -> Conditions:
    """Score one condition whose RawG and UG per topic are given (e.g. from real ratings)."""
    lists = collection.lists
    padded = np.stack([lists.pad(raw), lists.pad(ug)])[None]
    scores, valid = measures.score_runs(lists, padded, MEASURE_NAMES)
    return Conditions((tuple(condition),), scores, valid[:, 0])


def ratings_conditions(collection: Collection, per_topic: list, dmax: int, p: float) -> Conditions:
    """The one condition of real ratings: RawG and UG with Dmax from the data, N the most ratings."""
    n = max(r.shape[1] for r in per_topic)
    return conditions_from_gains(collection, [gains.raw_gain(r) for r in per_topic],
                                 [gains.unanimity_gain(r, dmax, p) for r in per_topic], (dmax, n))
