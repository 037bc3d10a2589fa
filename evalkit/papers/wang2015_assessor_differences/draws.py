"""Wang et al. (SIGIR 2015) §3–4: the claims' draws, each a whole simulated TTG world.

Draw 0 is the committed world (:func:`.fastworld.draw_world` on the stream of
:func:`evalkit.simulate.ttg.simulate_ttg` with seed :data:`TTG_SEED`); draws
1..R-1 are independent whole worlds (pool, latent units, official and
alternate clusters, runs) from the lighter generator
(:func:`.light.light_world`, the same distribution), seeded
``SeedSequence([seed, 7, draw])``.  Each world is computed once and every row
of :func:`whole_worlds` reuses it:

* ``default``: the world's own official and alternate assessors (the paper's
  claims are judged over these rows);
* ``disagreement only``: the same alternate's random draws with its per-topic
  disagreement scaled by another level (official, runs fixed: paired with the
  ``default`` row; the tau-against-disagreement curve);
* ``largest share set``: the same alternate with the share of each topic's
  tweets in its largest cluster set directly (paired);
* ``merge_size_bias only``, ``both knobs``: on the first ``knob_draws``
  worlds, which units the alternate lumps together (and its disagreement).

:func:`topic_aris` is the per-topic adjusted Rand index of label arrays, all
topics at once (tested equal to :func:`evalkit.stats.agreement.adjusted_rand_index`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ...measures import timeline
from ...stats import rank_correlation
from ...simulate import ttg as simulate
from ... import paths
from . import TTG_SEED
from .fastworld import World, draw_world
from .light import light_world

__all__ = ["WorldDraws", "whole_worlds", "topic_aris", "VARIES", "world_rng"]

#: What each draw redraws (the ``varies`` column of the claims).
VARIES = ("whole TTG world: pool, latent units, official clusters, runs and alternate clusters "
          "(draw 0 = the committed world)")


@dataclass
class WorldDraws:
    """:func:`whole_worlds`' rows, the swapped pairs' score differences of every ``default`` row
    (``diffs[draw][metric]``, for thresholds other than the table's) and the committed world."""

    table: pd.DataFrame
    diffs: list = field(default_factory=list)
    committed: World | None = None

    def default(self) -> pd.DataFrame:
        return self.table[self.table["world"] == "default"].sort_values("draw")


def world_rng(seed: int, draw: int) -> np.random.Generator:
    """The generator of whole world ``draw`` >= 1."""
    return np.random.default_rng(np.random.SeedSequence([seed, 7, draw]))


def topic_aris(a: dict, b: dict) -> np.ndarray:
    """Adjusted Rand index per topic (sorted) of two label dicts over the same tweets."""
    topics = sorted(a)
    la, lb = (np.concatenate([x[t] for t in topics]).astype(np.int64) for x in (a, b))
    n_t = len(topics)
    sizes = np.array([a[t].size for t in topics], dtype=np.int64)
    topic = np.repeat(np.arange(n_t), sizes)
    wa, wb = int(la.max()) + 1, int(lb.max()) + 1

    def sum_sq(key, groups):
        uniq, counts = np.unique(key, return_counts=True)
        return np.bincount(uniq // groups, weights=counts.astype(np.int64) ** 2, minlength=n_t)

    squares = sum_sq((topic * wa + la) * wb + lb, wa * wb).astype(np.int64)
    rows = sum_sq(topic * wa + la, wa).astype(np.int64)
    cols = sum_sq(topic * wb + lb, wb).astype(np.int64)
    n = sizes
    tp, fp, fn = squares - n, cols - squares, rows - squares
    tn = n * n - fp - fn - squares
    with np.errstate(invalid="ignore", divide="ignore"):
        ari = 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))
    return np.where((fn == 0) & (fp == 0), 1.0, ari)


def _largest_share(labels: dict) -> float:
    return float(np.mean([np.bincount(lab).max() / lab.size for lab in labels.values()]))


def _row(world: World, s_off: pd.DataFrame, alt: dict, diffs_out: list | None) -> dict:
    """One row of :func:`whole_worlds`: Table 1 (tau and rank swaps per metric), the swapped
    pairs' differences and the clusters' statistics of ``alt`` against the world's official
    labels (on the score arrays; ``tests/papers/test_wang2015_fast_paths.py`` keeps the
    pandas version it replaced and compares the two bit for bit)."""
    s_alt = world.score(alt)
    ari = topic_aris(world.official, alt)
    tau, swaps, cols = [], [], {}
    diffs = {}
    i, j = np.triu_indices(len(s_off), 1)
    for m in timeline.METRICS:
        x, y = s_off[m].to_numpy(), s_alt[m].to_numpy()        # the same runs in the same order
        t, n_swaps = rank_correlation.kendall_tau(x, y).tau, rank_correlation.rank_swaps(x, y)
        dx, dy = x[i] - x[j], y[i] - y[j]
        d = np.maximum(np.abs(dx), np.abs(dy))[dx * dy < 0]   # pipeline.swap_differences
        diffs[m] = d
        tau.append(t)
        swaps.append(n_swaps)
        cols |= {f"tau_{m}": t, f"swaps_{m}": int(n_swaps),
                 f"small_{m}": float((d < 0.03).mean()) if d.size else float("nan"),
                 f"absdiff_{m}": float(np.abs(y - x).mean() / x.mean())}
    if diffs_out is not None:
        diffs_out.append(diffs)
    tau = np.array(tau, dtype=float)
    row = {"tau_min": np.nanmin(tau) if not np.isnan(tau).all() else np.nan,
           "most_swaps": timeline.METRICS[int(np.argmax(swaps))],
           "lowest_tau": timeline.METRICS[int(np.nanargmin(tau))] if not np.isnan(tau).all() else np.nan}
    return row | cols | {
        "ari_mean": ari.mean(), "ari_median": float(np.median(ari)), "ari_sd": ari.std(ddof=1),
        "ari_min": float(np.min(ari)), "ari_max": float(np.max(ari)),
        "clusters_official": np.mean([lab.max() + 1 for lab in world.official.values()]),
        "clusters_alternate": np.mean([lab.max() + 1 for lab in alt.values()]),
        "relevant_per_topic": np.mean([lab.size for lab in alt.values()]),
        "largest_share_alternate": _largest_share(alt),
        "largest_share_official": _largest_share(world.official)}


def _label(bias: float, level: float) -> str:
    if (bias, level) == (1.0, 1.0):
        return "default"
    return ("disagreement only" if bias == 1.0 else "merge_size_bias only" if level == 1.0
            else "both knobs")


def whole_worlds(draws: int, seed: int, targets: pd.DataFrame | None = None, shares=(), levels=(),
                 biases=(), world_levels=(), knob_draws: int = 1, progress: bool = False) -> WorldDraws:
    """``draws`` whole worlds (see the module docstring), one row per (world variant, draw).

    ``levels``: the alternate's disagreement multipliers for ``disagreement only`` (every
    draw); ``shares``: largest-cluster shares set directly (every draw); ``biases`` x
    ``world_levels`` (merge_size_bias other than 1): the knob worlds on draws 0..knob_draws-1.
    """
    if targets is None:
        targets = pd.read_csv(paths.PUBLISHED / "wang2015_ttg_official_scores.csv")
    _, merge_a = simulate.TTG_DEFAULTS["merge"]
    rows, diffs, committed = [], [], None
    for draw in tqdm(range(draws), desc="whole worlds", disable=not progress):
        world = (draw_world(np.random.default_rng(TTG_SEED), targets) if draw == 0
                 else light_world(world_rng(seed, draw), targets))
        committed = committed or world
        s_off = world.score(world.official)
        base = {"draw": draw, "share_set": np.nan}
        rows.append({"world": "default", "merge_size_bias": 1.0, "level": 1.0, **base,
                     **_row(world, s_off, world.alternate, diffs)})
        grid = [(1.0, float(lv), None) for lv in levels if lv != 1]
        grid += [(1.0, 1.0, float(s)) for s in shares]
        if draw < knob_draws:
            grid += [(float(b), float(lv), None) for lv in world_levels for b in biases if b != 1]
        for bias, level, share in grid:
            alt = world.labeler(world.latent, merge_a, world.alternate_rng(), level,
                                      merge_size_bias=bias, largest_share=share)
            rows.append({"world": "largest share set" if share is not None else _label(bias, level),
                         "merge_size_bias": bias, "level": level, "draw": draw,
                         "share_set": np.nan if share is None else share, **_row(world, s_off, alt, None)})
    return WorldDraws(pd.DataFrame(rows), diffs, committed)
