"""Discriminativeness ED of an aggregation method (Kim, Zhai & Han, ECIR 2010, §5.2).

``ED = (1/n) sum_i S(O_i; others) - S(reverse(O_i); others)``: each judgment is
held out in turn and scored against the others (leave-one-out), correlations
mapped to ``[0, 1]`` by ``(x + 1)/2``.  :func:`discriminativeness` runs on a
vectorised engine, :class:`SetEngine` (pair-precedence bits, every item subset at once), that the
tests check against the definitions in :mod:`evalkit.measures.aggregation`.
:func:`add_noise` appends ``round(n r)`` uniformly random orderings to a set
(the paper's noise ratio r).  Definitions: ``docs/measures.md``.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np

from ..errors import ParameterError
from .aggregation import (frespa, _average_ranks, _check_weights, _corr_of_ranks, _length_bounds, _min_count,
                          check_judgments, check_weight_offset, wca_weights)


METHODS = ("ac-tau", "ac-sp", "wca-tau", "wca-sp", "rba-tau", "rba-sp", "frespa")


FAST_MAX_ITEMS = 14  # 2**14 item subsets: the engine's limit; larger sets use the miner


def add_noise(judgments: Sequence[Sequence], ratio: float, rng) -> list[tuple]:
    """Append ``round(n * ratio)`` (half up) uniformly random orderings of the set's items."""
    from ..seeds import as_generator

    if isinstance(ratio, bool) or not np.isfinite(ratio) or ratio < 0:
        raise ParameterError("ratio", ratio, "a number >= 0")
    rng = as_generator(rng)
    judgments = [tuple(o) for o in judgments]
    items = list(judgments[0])
    extra = int(math.floor(len(judgments) * ratio + 0.5))
    return judgments + [tuple(items[i] for i in rng.permutation(len(items))) for _ in range(extra)]


class SetEngine:
    """Everything ED needs for one set of judgments, computed once (Kim et al. §5.2).

    ``SetEngine(judgments)`` takes one set's judgments as checked by
    :func:`evalkit.measures.aggregation.check_judgments` (permutations of the
    same items).  Pair-precedence bits ``P[g, p]`` (item a before b, for each
    pair p) turn every question into linear algebra: two orderings order a
    subset ``S`` of items alike iff none of the pairs inside ``S`` disagree,
    and a target's reverse agrees with ``g`` on ``S`` iff all of them do.

    Attributes read outside this module: ``n`` (judgments), ``k`` (items),
    ``items``, ``ranks`` (n x k), ``signs`` (n x pairs, +1/-1: the pair's
    order in each judgment), ``tau`` and ``rho`` (n x n Kendall's tau and
    Spearman's rho between judgments, diagonal 1).  :meth:`correlation_ed`,
    :meth:`wca_ed` and :meth:`frespa_ed` give one set's ED;
    :func:`discriminativeness` averages them over sets.  FreSPA's tables hold
    every item subset, so they are meant for sets of at most 14 items.
    ``compiled=False`` builds FreSPA's tables and turns in numpy (the same bits,
    tested) and so never imports numba: for a few small sets, as the explorer's,
    numba's import and cached machine code cost more than the work.
    """

    def __init__(self, judgments: list[tuple], compiled: bool = True):
        self.compiled = compiled
        self.items = list(judgments[0])
        self.k = len(self.items)
        self.n = len(judgments)
        index = {x: i for i, x in enumerate(self.items)}
        where = np.array([[index[x] for x in o] for o in judgments]).reshape(self.n, self.k)
        ranks = np.empty((self.n, self.k))                             # n x k: _ranks of each
        ranks[np.arange(self.n)[:, None], where] = np.arange(1, self.k + 1, dtype=float)
        self.ranks = ranks
        i, j = np.triu_indices(self.k, 1)
        self.pair_i, self.pair_j = i, j
        signs = np.sign(ranks[:, i] - ranks[:, j])  # n x pairs, +-1
        self.signs = signs
        npairs = i.size
        self.tau = signs @ signs.T / npairs
        k = self.k
        sq = (ranks**2).sum(1)
        d2 = sq[:, None] + sq[None, :] - 2 * ranks @ ranks.T
        self.rho = 1 - 6 * d2 / (k * (k * k - 1))
        self._subsets = None

    # -- correlation methods -------------------------------------------
    def _held_out(self) -> np.ndarray:
        """``n x (n-1)``: row ``i`` lists the judgments other than ``i``, in order."""
        j = np.arange(self.n - 1)
        return j[None, :] + (j[None, :] >= np.arange(self.n)[:, None])   # j, or j + 1 from i on

    def correlation_ed(self, method: str, kind: str, weight_offset: float = 1.0) -> float:
        """ED of AC, WCA or RBA: every held-out judgment at once (the same bits as
        :func:`evalkit.measures.ed_reference.correlation_ed_reference`, one at a time)."""
        if kind == "wca":
            return float(self.wca_ed(method, [weight_offset])[0])
        c = self.tau if method == "kendall" else self.rho
        n = self.n
        others = self._held_out()
        if kind == "ac":
            # S(O) - S(reverse O) after (x+1)/2: (x+1)/2 - (-x+1)/2 = x
            diffs = c[np.arange(n)[:, None], others].mean(1)
        else:  # rba: rank sums are whole numbers and ranks halves, so every sum below is exact
            cons = _average_ranks_rows(self.ranks[others].sum(1))               # n x k
            diffs = _corr_of_rank_rows(self.ranks, cons, method)
        return float(diffs.mean())

    def wca_ed(self, method: str, offsets: Sequence[float]) -> np.ndarray:
        """WCA's ED for several weight offsets at once (every held-out judgment at once;
        :meth:`correlation_ed` calls it with one offset)."""
        c = self.tau if method == "kendall" else self.rho
        n = self.n
        out = np.zeros((n, len(offsets)))
        others = self._held_out()
        ci = c[np.arange(n)[:, None], others]                                   # n x (n-1)
        if n == 2:
            out[:] = ci
            return _column_means(out)
        sub = c[others[:, :, None], others[:, None, :]]                         # n x (n-1) x (n-1)
        diag = sub[:, np.arange(n - 1), np.arange(n - 1)]
        raw = (sub.sum(2) - diag) / (n - 2)                                     # row sums as sub.sum(1)
        mean = ci.mean(1)
        for q, a in enumerate(offsets):
            w = wca_weights(raw, a)
            total = w.sum(1)
            for i in range(n):                                                  # BLAS dot, as before
                out[i, q] = mean[i] if abs(total[i]) < 1e-12 else (w[i] @ ci[i]) / total[i]
        return _column_means(out)

    # -- FreSPA ----------------------------------------------------------
    def _subset_tables(self):
        """For every item subset S of 2+ items: ``equal[g, h, S]`` (g and h order S alike)
        and ``reverse[g, h, S]`` (h orders S exactly against g), with ``length[S]``
        and ``total[g, S] = sum_h equal[g, h, S]``.

        Each judgment's precedence bits restricted to S form an integer code
        (``bits(g) & pairs(S)``, 64 pairs to a word), so "alike" is equal codes
        and "reversed" is codes differing in every pair of S.  Built compiled
        (:mod:`evalkit.measures._frespa_kernels`);
        :func:`evalkit.measures.ed_reference.subset_tables_reference` is the numpy
        original the tests compare it with.
        """
        if self._subsets is None and not self.compiled:     # numpy: no numba import (small sets)
            equal, reverse, length = _subset_tables_numpy(self.signs > 0, self.pair_i, self.pair_j, self.k)
            self._subsets = dict(length=length, equal=equal, reverse=reverse, total=equal.sum(1))
        elif self._subsets is None:
            from . import _frespa_kernels as kernels

            equal, reverse, length, total = kernels.subset_tables_and_total(self.signs > 0, self.pair_i,
                                                                             self.pair_j, self.k)
            self._subsets = dict(length=length, equal=equal, reverse=reverse, total=total)
        return self._subsets

    def frespa_ed(self, params: list[dict]) -> np.ndarray:
        """ED of FreSPA for several parameter settings (one pass over held-out i).

        A pattern's weight ``(1 + wLen (len - 1)) (1 + wSup (sup - 1))`` factors
        into a length part (per subset, per setting) and a support part (per
        support value 0..n-1, per setting, 0 below minSup), so each turn
        counts the subsets by support once and every setting is a matrix product.
        Compiled, every turn runs in one call (:func:`~._frespa_kernels.frespa_ed`: the
        counting, and the float sums in numpy's pairwise order; the ``by_len @ counts``
        product stays numpy's); ``compiled=False`` runs the turns in numpy as
        :func:`evalkit.measures.ed_reference.frespa_ed_reference` does.  Both give the
        reference's bits (tested).
        """
        t = self._subset_tables()
        length, equal, reverse, total = t["length"], t["equal"], t["reverse"], t["total"]
        n = self.n
        by_len, by_sup, per_gold = _frespa_weights(self.k, n, length, params)
        lookup = len(params) <= 4
        if self.compiled:                                  # every turn in one compiled call
            from . import _frespa_kernels as kernels

            return kernels.frespa_ed(equal, reverse, total, by_len, by_sup, per_gold, lookup)
        turn = _turn_numpy
        out = np.zeros(len(params))
        for i in range(n):
            gathered, counts, rev = turn(equal, reverse, total, i, per_gold, lookup)
            target = total[i] - 1                          # target O_i
            if lookup:                                     # the support weights looked up
                den = (gathered * by_len).sum(1)
            else:                                          # the golds counted per (subset, support)
                den = ((by_len @ counts) * per_gold).sum(1)
            num_t = (by_sup[:, target] * by_len).sum(1)
            num_r = (by_sup[:, rev] * by_len).sum(1)
            some = den > 0                                 # no pattern: both scores 0
            out[some] += (num_t[some] - num_r[some]) / den[some]
        return out / n


def _subset_tables_numpy(before: np.ndarray, pair_i: np.ndarray, pair_j: np.ndarray, k: int):
    """:func:`evalkit.measures._frespa_kernels.subset_tables` in numpy, 63 pairs to a word."""
    n = before.shape[0]
    member = ((np.arange(1 << k)[:, None] >> np.arange(k)) & 1).astype(bool)  # M x k
    length = member.sum(1)
    member, length = member[length >= 2], length[length >= 2]
    pair_in = member[:, pair_i] & member[:, pair_j]                           # M x pairs
    equal = np.ones((n, n, length.size), bool)
    reverse = np.ones((n, n, length.size), bool)
    for start in range(0, pair_in.shape[1], 63):
        cols = slice(start, start + 63)
        bits = np.left_shift(np.uint64(1), np.arange(pair_in[:, cols].shape[1], dtype=np.uint64))
        in_s = pair_in[:, cols].astype(np.uint64) @ bits                    # M: the pairs of S
        code = (before[:, cols].astype(np.uint64) @ bits)[:, None] & in_s    # n x M
        equal &= code[:, None, :] == code[None, :, :]
        reverse &= (code[:, None, :] ^ code[None, :, :]) == in_s
    return equal, reverse, length


def _turn_numpy(equal, reverse, total, i: int, per_gold: np.ndarray, lookup: bool):
    """:func:`evalkit.measures._frespa_kernels.turn` in numpy, as
    :func:`evalkit.measures.ed_reference.frespa_ed_reference` computes it (the same bits)."""
    n = equal.shape[0]
    others = np.delete(np.arange(n), i)
    sup_g = total[others] - equal[others, i]          # (n-1) x M, >= 1
    rev = reverse[i, others].sum(0)
    if lookup:
        return per_gold[:, sup_g].sum(1), None, rev
    return None, (sup_g.T[:, :, None] == np.arange(n)).sum(1), rev


def _frespa_weights(k: int, n: int, length: np.ndarray, params: list[dict]):
    """FreSPA's weights factored: by length (P x M), by support (P x n) and per gold (P x n)."""
    sup = np.arange(n)    # support values among n - 1 golds
    bounds = np.array([_length_bounds(k, p["min_len"], p["max_len"]) for p in params]).reshape(-1, 2)
    w_len = np.array([float(p["w_len"]) for p in params])[:, None]
    inside = (length >= bounds[:, :1]) & (length <= bounds[:, 1:])                   # element by element
    by_len = (1 + w_len * (length - 1)) * inside                                      # P x M, as row by row
    need = np.array([_min_count(p["min_sup"], n - 1) for p in params])
    w_sup = np.array([float(p["w_sup"]) for p in params])[:, None]
    by_sup = (1 + w_sup * (sup - 1.0)) * (sup >= need[:, None])                        # P x n
    # every distinct gold pattern appears sup times among the golds: weight / sup per gold
    per_gold = np.zeros_like(by_sup)
    per_gold[:, 1:] = by_sup[:, 1:] / sup[1:]
    return by_len, by_sup, per_gold


def _average_ranks_rows(values: np.ndarray) -> np.ndarray:
    """:func:`~evalkit.measures.aggregation._average_ranks` of each row."""
    below = (values[:, :, None] > values[:, None, :]).sum(2)
    equal = (values[:, :, None] == values[:, None, :]).sum(2)
    return below + (equal + 1) / 2.0


def _corr_of_rank_rows(a: np.ndarray, b: np.ndarray, method: str) -> np.ndarray:
    """:func:`~evalkit.measures.aggregation._corr_of_ranks` of each row pair; exact for ranks
    (whole numbers and halves: every product and sum is exact, whatever the order)."""
    if method == "kendall":
        i, j = np.triu_indices(a.shape[1], 1)
        sa, sb = np.sign(a[:, i] - a[:, j]), np.sign(b[:, i] - b[:, j])
        den = np.sqrt(np.count_nonzero(sa, axis=1) * np.count_nonzero(sb, axis=1))
        num = (sa * sb).sum(1)
    else:
        da, db = a - a.mean(1, keepdims=True), b - b.mean(1, keepdims=True)
        den = np.sqrt((da * da).sum(1) * (db * db).sum(1))
        num = (da * db).sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)


def _column_means(a: np.ndarray) -> np.ndarray:
    """Mean of each column, summed as a contiguous 1-d array: the same bits as ``np.mean``
    of that column alone (a reduction over axis 0 may round differently)."""
    return np.array([np.mean(np.ascontiguousarray(a[:, q])) for q in range(a.shape[1])])


def frespa_params(**kw) -> dict:
    """FreSPA's parameters (Kim, Zhai & Han 2010, §4.4) with the defaults filled in and checked:
    ``min_sup=0.75, min_len=2, max_len=None, w_len=1.0, w_sup=1.0``."""
    p = dict(min_sup=0.75, min_len=2, max_len=None, w_len=1.0, w_sup=1.0)
    unknown = set(kw) - set(p)
    if unknown:
        raise ParameterError("params", sorted(unknown), f"FreSPA parameters {sorted(p)}")
    p.update(kw)
    _check_weights(p["min_sup"], p["w_len"], p["w_sup"])
    return p


def _as_sets(judgments) -> list[list[tuple]]:
    if isinstance(judgments, Mapping):
        return [check_judgments(v, f"set {k!r}") for k, v in judgments.items()]
    return [check_judgments(judgments)]


def discriminativeness(method: str, judgments, params_grid: Sequence[dict] | None = None,
                       **params) -> float | np.ndarray:
    """Evaluation discriminativeness (ED) of ``method`` (Kim, Zhai & Han §5.2).

    ``judgments`` is one set's orderings, or a mapping set -> orderings (the
    ED is then the mean over sets).  ``method`` is one of :data:`METHODS`;
    FreSPA takes ``min_sup, min_len, max_len, w_len, w_sup`` as keywords, or
    ``params_grid``, a list of such dicts, to get one ED per setting in one
    pass (``max_len`` may also be given per set by a callable of ``k``).
    WCA takes ``weight_offset`` (:func:`evalkit.measures.aggregation.wca_weights`,
    default 1) the same way; AC and RBA take none.
    """
    if method not in METHODS:
        raise ParameterError("method", method, f"one of {list(METHODS)}")
    sets = _as_sets(judgments)
    if method != "frespa":
        kind, corr = method.split("-")
        corr = "kendall" if corr == "tau" else "spearman"
        grid = [dict(p) for p in (params_grid or [params])]
        allowed = {"weight_offset"} if kind == "wca" else set()
        unknown = set().union(*grid) - allowed
        if unknown:
            raise ParameterError("params", sorted(unknown),
                                 "weight_offset only" if allowed else f"none for {method}")
        offsets = [check_weight_offset(p.get("weight_offset", 1.0)) for p in grid]
        if params_grid is None:
            return float(np.mean([SetEngine(s).correlation_ed(corr, kind, offsets[0]) for s in sets]))
        return _column_means(np.array([SetEngine(s).wca_ed(corr, offsets) if kind == "wca" else
                                       [SetEngine(s).correlation_ed(corr, kind)] * len(offsets)
                                       for s in sets]))
    grid = [dict(p) for p in (params_grid or [params])]
    results = []
    for s in sets:
        k = len(s[0])
        resolved = [frespa_params(**{key: (v(k) if callable(v) else v) for key, v in p.items()})
                    for p in grid]
        if k <= FAST_MAX_ITEMS:
            results.append(SetEngine(s).frespa_ed(resolved))
        else:
            results.append(np.array([_frespa_ed_slow(s, p) for p in resolved]))
    ed = np.mean(results, axis=0)
    return ed if params_grid is not None else float(ed[0])


def _frespa_ed_slow(judgments: list[tuple], p: dict) -> float:
    """ED of FreSPA straight from the definition (reference and large-set path)."""
    diffs = []
    for i, o in enumerate(judgments):
        others = judgments[:i] + judgments[i + 1:]
        diffs.append(frespa(o, others, **p) - frespa(o[::-1], others, **p))
    return float(np.mean(diffs))
