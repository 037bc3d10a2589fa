"""Do the intervals hold? The coverage study of ``evalkit estimate``'s intervals.

A *world* is fixed per setting: an STC-like collection of ``pool`` topics
(:func:`evalkit.simulate.stc.stc_lists`: latent grades 0-2, runs of several
teams, top-10 lists) whose latent grades are the reference judge's, and a
proxy judge of :mod:`evalkit.simulate.proxy_judges` ((a) ``noisy``,
(b) ``lenient``, (c) ``favouring`` one run).  Every run is scored per topic
under both (nERR@10, NTCIREVAL's; a topic without a relevant document scores
0).  The truth is the world's expected score, the mean over all ``pool``
topics; each draw takes ``topics`` topics afresh from the world (uniformly,
with replacement, so the pool's mean is exactly the expectation), the first
``n`` with reference labels, and estimates every run with every method and
interval variant (:func:`~evalkit.evaluate.estimation.estimators.method_estimates`).

Per setting, ``n``, method and interval: ``coverage``, the share of
intervals (over draws and runs) that contain the truth; ``mc_error``, its
Monte Carlo standard error (the standard deviation of the per-draw share
over the runs, divided by sqrt(draws): the runs of one draw share their
topics); ``width_ratio``, the mean width over the mean width of the
classical interval of the same variant; ``infinite``, the share of intervals
with an infinite end (only ``bootstrap-t``'s can have one,
:mod:`evalkit.stats.bootstrap_t`).  The ``bootstrap-t`` intervals take
``resamples`` resamples per draw, each draw its own (seeded from the draw's
seed), and their widths are measured with the ends clipped to
:data:`SCORE_RANGE`, the range of nERR@10 and so of the truth (declared in
``docs/estimate.md`` before the numbers were seen).  The Dask driver is
:mod:`evalkit.workspace.sweeps.ppi_coverage`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...simulate.proxy_judges import favouring_judge, lenient_judge, noisy_judge
from ...stats.prediction_powered import INTERVALS
from .estimators import METHODS, method_estimates

__all__ = ["COVERAGE_COLUMNS", "World", "make_world", "coverage_rows", "SETTINGS"]

#: The columns of coverage.csv.
COVERAGE_COLUMNS = ["setting", "n", "method", "interval", "coverage", "mc_error", "width_ratio",
                    "infinite"]

#: The settings, in the order of the table: the proxy judge of each world.
SETTINGS = ("noisy", "lenient", "favouring")

#: The measure the worlds are scored with.
MEASURE = "nERR"

#: The range of its per-topic scores: where a bootstrap-t interval's width is measured.
SCORE_RANGE = (0.0, 1.0)


@dataclass(frozen=True)
class World:
    """Per-topic scores of every run under both judges, ``(pool, R)``, and the truth ``(R,)``."""

    setting: str
    runs: tuple[str, ...]
    reference: np.ndarray
    proxy: np.ndarray

    @property
    def truth(self) -> np.ndarray:
        return self.reference.mean(0)


def make_world(setting: str, seed: int, pool: int = 4000, n_runs: int = 8,
               n_teams: int = 4) -> World:
    """The world of ``setting`` (one of :data:`SETTINGS`), from ``seed``; the favouring judge
    favours the first run (in name order)."""
    from ...measures.graded import score_runs
    from ...simulate.stc import stc_lists

    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {SETTINGS}, not {setting!r}")
    lists, grades = stc_lists(seed, n_topics=pool, n_runs=n_runs, n_teams=n_teams)
    judge_seed = np.random.default_rng([seed, SETTINGS.index(setting)])
    proxy = {"noisy": lambda: noisy_judge(grades, judge_seed),
             "lenient": lambda: lenient_judge(grades, judge_seed),
             "favouring": lambda: favouring_judge(grades, lists.index, 0, judge_seed)}[setting]()
    scores = {}
    for name, labels in (("reference", grades), ("proxy", proxy)):
        values, _ = score_runs(lists, lists.pad(labels), measures=(MEASURE,))
        scores[name] = np.nan_to_num(values[MEASURE]).T                        # (pool, R)
    return World(setting, lists.runs, scores["reference"], scores["proxy"])


def coverage_rows(world: World, n: int, draws: int, seed, topics: int = 200,
                  alpha: float = 0.05, resamples: int = 1000) -> pd.DataFrame:
    """The rows of coverage.csv for ``world`` at ``n`` reference topics of ``topics``."""
    rng = np.random.default_rng(seed)
    picked = rng.integers(0, world.reference.shape[0], size=(draws, topics))
    boot_seed = int(rng.integers(2 ** 63))                        # after the draws: they stay
    labelled, unlabelled = picked[:, :n], picked[:, n:]

    def gather(scores, idx):
        return np.swapaxes(scores[idx], 1, 2)                                  # (draws, R, k)

    y, yh = gather(world.reference, labelled), gather(world.proxy, labelled)
    yu = gather(world.proxy, unlabelled)
    truth = world.truth[None, :]
    rows = []
    for interval in INTERVALS:
        found = method_estimates(y, yh, yu, alpha, interval, resamples, boot_seed, own_axes=1)

        def width(e):
            if interval != "bootstrap-t":
                return (e.high - e.low).mean()
            return (np.clip(e.high, *SCORE_RANGE) - np.clip(e.low, *SCORE_RANGE)).mean()

        base = width(found["classical"])
        for method in METHODS:
            e = found[method]
            share = ((e.low <= truth) & (truth <= e.high)).mean(1)             # per draw
            rows.append({"setting": world.setting, "n": n, "method": method,
                         "interval": interval, "coverage": share.mean(),
                         "mc_error": share.std(ddof=1) / np.sqrt(draws),
                         "width_ratio": width(e) / base,
                         "infinite": (np.isinf(e.low) | np.isinf(e.high)).mean()})
    return pd.DataFrame(rows, columns=COVERAGE_COLUMNS)


def coverage_table(settings=SETTINGS, ns=(10, 25, 50), draws: int = 1000, seed: int = 44,
                   pool: int = 4000, topics: int = 200, alpha: float = 0.05,
                   mapper=map, resamples: int = 1000) -> pd.DataFrame:
    """coverage.csv's rows for every setting and ``n``; ``mapper`` runs :func:`setting_rows`
    over the settings (``map`` here; the Dask driver passes its own); ``resamples``: the
    bootstrap-t's per draw."""
    tasks = [(s, tuple(ns), draws, seed, pool, topics, alpha, resamples) for s in settings]
    return pd.concat(list(mapper(setting_rows, tasks)), ignore_index=True)


def setting_rows(task) -> pd.DataFrame:
    """One setting's rows: its world built once, then every ``n`` (a task of the sweep)."""
    setting, ns, draws, seed, pool, topics, alpha, resamples = task
    index = SETTINGS.index(setting)
    world = make_world(setting, seed + index, pool)
    return pd.concat([coverage_rows(world, n, draws, [seed, index, n], topics, alpha, resamples)
                      for n in ns], ignore_index=True)
