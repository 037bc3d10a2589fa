"""How many LLM judges are statistically indistinguishable from the best one?

The chapter's question "can this judge replace that one?" asked of the 33
LLM judges, each measured by its ordinal alpha with the human labels.  The
tests are the library's (``evalkit agreement --pairs``, ``docs/agreement.md``,
"Tests between judges"): :func:`judge_pairs` is
:func:`~evalkit.evaluate.judge_agreement.pairs.pairs_table` over the judges in
the order of their alpha, every pair with its paired topic-bootstrap interval
and its paired randomisation test over topics, Holm over all 528 pairs.

Holm over 528 pairs cannot reject anything with B = 5,000 trials: a
randomisation p-value is at least ``1 / (B + 1)``, so the smallest
Holm-adjusted one is at least ``pairs / (B + 1)`` = 528 / 5,001 = 0.106
(:func:`~evalkit.evaluate.judge_agreement.pairs.holm_floor`; ``evalkit agreement``'s
summary says so).  "Indistinguishable from the best" is a many-to-one
question, so the chapter answers it in the family of the best judge's own 32
pairs (:func:`best_versus_rest`: the same test and swaps, Holm over those 32;
the family is the workspace's choice), whose floor 32 / 5,001 = 0.006 lies
below alpha, and over ``draws`` seeded swap streams, since which judge
straddles alpha depends on the Monte Carlo draw.  :func:`versus_best` and
:func:`indistinguishable_summary` lay both families side by side.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...evaluate.judge_agreement.grid import as_grid
from ...evaluate.judge_agreement.pairs import (holm_floor, indistinguishable_from, pairs_table,
                                               trials_needed)
from ...evaluate.judge_agreement.tables import statistic_parts
from ...stats.paired_agreement import randomisation_p_values, statistic_code
from ...stats.pairwise import _holm
from .labels import HUMAN

__all__ = ["STATISTIC", "judge_order", "judge_pairs", "holm_floor", "trials_needed",
           "randomisation_p", "best_versus_rest", "versus_best", "indistinguishable_summary"]

#: The statistic the judges are ordered and tested on (the organisers' "krippendorff").
STATISTIC = "alpha_ordinal"


def judge_order(table: pd.DataFrame) -> list[str]:
    """The judges of ``agreement.csv`` by :data:`STATISTIC`, highest first (as ``evalkit
    agreement``'s summary orders them: stable, undefined last)."""
    rows = table[table["statistic"] == STATISTIC]
    return list(rows.sort_values("value", ascending=False, kind="stable",
                                 na_position="last")["judge"])


def judge_pairs(labels: pd.DataFrame, table: pd.DataFrame, bootstrap: int = 1000,
                trials: int = 5000, seed: int = 0, alpha: float = 0.05) -> pd.DataFrame:
    """``pairs.csv`` of ``evalkit agreement --reference human``: every pair of the judges of
    ``table`` (:func:`judge_order`, so ``judge_a`` is the better one and the best judge is
    ``judge_a`` of all its pairs), :func:`~evalkit.evaluate.judge_agreement.pairs.pairs_table`
    on :data:`STATISTIC` with ``bootstrap`` topic resamples and ``trials`` swaps from ``seed``."""
    pairs, _ = pairs_table(labels, HUMAN, STATISTIC, judge_order(table), bootstrap, trials, seed,
                           alpha=alpha)
    return pairs


def randomisation_p(stack: np.ndarray, ia, ib, trials: int, seed) -> np.ndarray:
    """The paired randomisation test's p-values on :data:`STATISTIC` of the pairs
    ``(stack[ia[p]], stack[ib[p]])``: ``stack`` ``(Q, T, K, K)`` per-topic confusion matrices
    (human grade x judge grade) on grades 0-3, topics in the order of ``evalkit agreement``
    (sorted as text) so that the same ``seed`` gives the same swaps and the same p as
    :func:`~evalkit.evaluate.judge_agreement.pairs.pairs_table`
    (:func:`evalkit.stats.paired_agreement.randomisation_p_values`)."""
    family, kind, reduced, values = statistic_parts(STATISTIC, stack, np.arange(stack.shape[-1]))
    code, w = statistic_code(family, kind, values)
    _, p = randomisation_p_values(reduced, np.asarray(ia), np.asarray(ib), code, w, trials, seed)
    return p


def best_versus_rest(labels: pd.DataFrame, order: list[str], trials: int = 5000, seed: int = 0,
                     draws: int = 20) -> pd.DataFrame:
    """``draw, judge, p_value, p_holm``: the best judge ``order[0]`` against each other judge,
    the paired randomisation test with ``trials`` swaps from seed ``seed + draw`` for each of
    ``draws`` draws, Holm over the ``len(order) - 1`` pairs of one draw.  Draw 0 uses
    :func:`judge_pairs`' swaps: its ``p_value`` are those of ``pairs.csv``."""
    grid = as_grid(labels)
    per_topic, _ = grid.confusions(HUMAN)
    stack = np.stack([per_topic[:, grid.index(j)] for j in order])
    ia, ib = np.zeros(len(order) - 1, dtype=np.int64), np.arange(1, len(order))
    frames = []
    for r in range(draws):
        p = randomisation_p(stack, ia, ib, trials, seed + r)
        frames.append(pd.DataFrame({"draw": r, "judge": order[1:], "p_value": p,
                                    "p_holm": _holm(p)}))
    return pd.concat(frames, ignore_index=True)


def versus_best(table: pd.DataFrame, pairs: pd.DataFrame, rest: pd.DataFrame,
                alpha: float = 0.05) -> pd.DataFrame:
    """One row per judge, the best first: ``judge, alpha, ci_low, ci_high`` (:data:`STATISTIC`
    with its topic-bootstrap interval), ``difference, diff_low, diff_high`` (judge minus the
    best, paired topic-bootstrap interval, from ``pairs``), ``p_value``, ``p_holm_all`` (Holm
    over all pairs, ``pairs.csv``), ``p_holm_best`` (Holm over the best's pairs, draw 0 of
    ``rest``), ``indistinguishable`` (``p_holm_best >= alpha``) and ``distinguished_draws``:
    in how many of ``rest``'s draws ``p_holm_best < alpha``."""
    order = judge_order(table)
    best = order[0]
    own = table[table["statistic"] == STATISTIC].set_index("judge")
    mine = pairs[(pairs["judge_a"] == best) | (pairs["judge_b"] == best)]
    sign = np.where(mine["judge_a"] == best, -1.0, 1.0)      # judge minus the best
    other = np.where(mine["judge_a"] == best, mine["judge_b"], mine["judge_a"])
    low = np.where(sign < 0, -mine["ci_high"], mine["ci_low"])
    high = np.where(sign < 0, -mine["ci_low"], mine["ci_high"])
    diff = pd.DataFrame({"judge": other, "difference": sign * mine["difference"].to_numpy(),
                         "diff_low": low, "diff_high": high,
                         "p_value": mine["p_value"].to_numpy(),
                         "p_holm_all": mine["p_holm"].to_numpy()}).set_index("judge")
    first = rest[rest["draw"] == 0].set_index("judge")
    hits = rest.assign(hit=rest["p_holm"] < alpha).groupby("judge")["hit"].sum()
    rows = []
    for j in order:
        o = own.loc[j]
        if j == best:
            rows.append((j, o["value"], o["ci_low"], o["ci_high"], 0.0, np.nan, np.nan, np.nan,
                         np.nan, np.nan, True, 0))
            continue
        d = diff.loc[j]
        p_best = float(first.loc[j, "p_holm"])
        rows.append((j, o["value"], o["ci_low"], o["ci_high"], d["difference"], d["diff_low"],
                     d["diff_high"], d["p_value"], d["p_holm_all"], p_best, bool(p_best >= alpha),
                     int(hits[j])))
    return pd.DataFrame(rows, columns=["judge", "alpha", "ci_low", "ci_high", "difference",
                                       "diff_low", "diff_high", "p_value", "p_holm_all",
                                       "p_holm_best", "indistinguishable", "distinguished_draws"])


def indistinguishable_summary(versus: pd.DataFrame, pairs: pd.DataFrame, rest: pd.DataFrame,
                              trials: int, alpha: float = 0.05) -> pd.DataFrame:
    """``family, pairs, trials, smallest_holm_p, trials_needed, indistinguishable,
    distinguishable, draws, indistinguishable_low, indistinguishable_high, draws_at_count``:
    how many judges the best cannot be told apart from under Holm over all pairs (``pairs.csv``,
    :func:`~evalkit.evaluate.judge_agreement.pairs.indistinguishable_from`; one swap stream)
    and over the best's own pairs (``rest``: the count in draw 0, its range over the draws and
    in how many draws it is the draw-0 count)."""
    best, n_other = versus["judge"].iloc[0], len(versus) - 1
    same_all = len(indistinguishable_from(pairs, best, alpha))
    per_draw = (rest.assign(same=rest["p_holm"] >= alpha).groupby("draw")["same"].sum()
                .astype(int))
    first = int(per_draw.loc[0])
    rows = [("all pairs (Holm over every pair, as evalkit agreement)", len(pairs), trials,
             holm_floor(len(pairs), trials), trials_needed(len(pairs), alpha), same_all,
             n_other - same_all, 1, same_all, same_all, 1),
            ("the best judge's pairs (Holm over its pairs; ours)", n_other, trials,
             holm_floor(n_other, trials), trials_needed(n_other, alpha), first, n_other - first,
             len(per_draw), int(per_draw.min()), int(per_draw.max()),
             int((per_draw == first).sum()))]
    return pd.DataFrame(rows, columns=["family", "pairs", "trials", "smallest_holm_p",
                                       "trials_needed", "indistinguishable", "distinguishable",
                                       "draws", "indistinguishable_low",
                                       "indistinguishable_high", "draws_at_count"])
