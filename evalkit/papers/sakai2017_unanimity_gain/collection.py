"""The test collection of Sakai (EVIA 2017) §4: qrels, runs and their loading.

The paper evaluates the NTCIR-12 STC Chinese runs; those are not public, so
the notebook reads a simulated STC-like collection in TREC formats
(:func:`load_collection`, :func:`collection_from_frames`) or real
per-assessor ratings with simulated runs over their pool
(:func:`ratings_collection`, :func:`ratings_frame_collection`).  The team of a
run (for the best-run-per-team selection of Table 3) is
:func:`evalkit.evaluate.runs.frames.team_of`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ...errors import ParameterError
from ...evaluate.runs.frames import team_of
from ...formats import trec
from ...measures import graded as measures

__all__ = ["DATA_SEED", "Collection", "load_collection", "collection_from_frames", "collection_from_lists",
           "ratings_collection", "ratings_frame_collection", "official_gains"]

#: Seed of the default simulated collection.
DATA_SEED = 2017


@dataclass(frozen=True)
class Collection:
    """A test collection ready for scoring."""

    qrels: pd.DataFrame
    lists: measures.RankedLists
    grades: tuple[np.ndarray, ...]  # per topic, aligned with lists.items
    report: tuple[str, ...]         # what was dropped or noted while loading

    @property
    def teams(self) -> np.ndarray:
        """Team of each run (:func:`~evalkit.evaluate.runs.frames.team_of`: the tag up to its first '-')."""
        return np.array([team_of(r) for r in self.lists.runs])


def load_collection(data_dir, k: int = 10) -> Collection:
    """Read ``data_dir/qrels.txt`` and ``data_dir/runs/*`` (TREC formats)."""
    data_dir = Path(data_dir)
    qrels = trec.read_qrels(data_dir / "qrels.txt")
    report: list[str] = []
    runs = trec.read_runs(data_dir / "runs", qrels, report)
    return collection_from_frames(qrels, runs, k, report)


def collection_from_frames(qrels: pd.DataFrame, runs: pd.DataFrame, k: int = 10,
                           report: list[str] | None = None) -> Collection:
    """A :class:`Collection` from qrels (topic, doc, grade) and runs (run, topic, doc, rank)."""
    report = list(report or [])
    lists = measures.ranked_lists(runs, qrels, k)
    if lists.unjudged:
        report.append(f"{lists.unjudged} retrieved items are unjudged and get gain 0")
    ordered = qrels.sort_values(["topic", "doc"])
    grades = tuple(g["grade"].to_numpy() for _, g in ordered.groupby("topic", sort=True))
    return Collection(qrels, lists, grades, tuple(report))


def ratings_collection(ratings_file, seed: int, k: int = 10, n_teams: int = 16,
                       n_runs: int = 44) -> tuple[Collection, list, int]:
    """A collection over a file of real per-assessor ratings, with simulated runs.

    Real runs rarely come with per-assessor ratings, so runs are simulated
    over the rated pool as for the STC-ja data (each topic's documents ranked
    by their mean rating plus system noise, :func:`evalkit.simulate.stc.rank_pool`).
    Returns the collection (grade 1 where any rating is positive), each
    topic's items x assessors ratings (NaN where an assessor did not rate the
    item) aligned with the collection's items, and Dmax, the largest rating seen.
    """
    from ...formats.assessor_ratings import read_any_ratings

    return ratings_frame_collection(read_any_ratings(ratings_file), seed, k, n_teams, n_runs,
                                    source=Path(ratings_file).name)


def ratings_frame_collection(long: pd.DataFrame, seed: int, k: int = 10, n_teams: int = 16,
                             n_runs: int = 44, source: str = "a ratings frame"
                             ) -> tuple[Collection, list, int]:
    """:func:`ratings_collection` from a long frame with columns topic, assessor, doc, rating.

    Any reader that yields one row per (topic, assessor, doc) rating plugs in
    here (the per-assessor format, the NTCIR STC-ja file, or a frame built in
    memory); a missing rating is simply an absent row.
    """
    from ...simulate.stc import rank_pool

    missing = {"topic", "assessor", "doc", "rating"} - set(long.columns)
    if missing:
        raise ParameterError("ratings", sorted(long.columns),
                             f"a frame with columns topic, assessor, doc, rating (missing {sorted(missing)})")
    wide = long.pivot_table(index=["topic", "doc"], columns="assessor", values="rating",
                            aggfunc="first").sort_index()
    matrix = wide.to_numpy(float)
    frame = wide.index.to_frame(index=False).assign(mean=np.nanmean(matrix, axis=1), row=np.arange(len(wide)))
    pool = {t: (g["doc"].to_numpy(), g["mean"].to_numpy()) for t, g in frame.groupby("topic")}
    runs = rank_pool(pool, seed, n_teams, n_runs, k)
    qrels = pd.DataFrame({"topic": frame["topic"], "doc": frame["doc"],
                          "grade": (np.nansum(matrix, axis=1) > 0).astype(int)})
    lists = measures.ranked_lists(runs, qrels, k)
    row = dict(zip(zip(frame["topic"], frame["doc"]), frame["row"]))
    per_topic = [matrix[[row[t, d] for d in docs]] for t, docs in zip(lists.topics, lists.items)]
    grades = tuple((np.nansum(r, axis=1) > 0).astype(int) for r in per_topic)
    note = (f"ratings from {source}: {len(long)} ratings of {len(wide)} items; "
            f"runs simulated ({n_runs} runs, {n_teams} teams)")
    return Collection(qrels, lists, grades, (note,)), per_topic, int(long["rating"].max())


def official_gains(grade: np.ndarray) -> np.ndarray:
    """STC Chinese official gain values: L1 -> 1, L2 -> 3 (higher levels +2 each)."""
    grade = np.asarray(grade)
    return np.where(grade <= 0, 0.0, 2.0 * grade - 1.0)


def collection_from_lists(lists: measures.RankedLists, grades) -> Collection:
    """A :class:`Collection` from ranked lists and per-topic pool grades
    (:func:`evalkit.simulate.stc.stc_lists`), without reading or building run frames."""
    sizes = [len(items) for items in lists.items]
    qrels = pd.DataFrame({"topic": np.repeat(lists.topics, sizes),
                          "doc": [d for items in lists.items for d in items],
                          "grade": np.concatenate(grades) if grades else []})
    return Collection(qrels, lists, tuple(np.asarray(g) for g in grades), ())
