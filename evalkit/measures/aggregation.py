"""Evaluating an ordered list against several ideal orderings (Kim, Zhai & Han, ECIR 2010).

Orderings are sequences of hashable item ids; a set's judgments are orderings
of the same items by different assessors.

Scoring methods (``method`` is ``"kendall"`` or ``"spearman"``):

* :func:`average_correlation` (AC): ``(1/n) sum_i C(O, O_i)``.
* :func:`weighted_correlation` (WCA): ``sum_i w_i C(O, O_i) / sum_i w_i`` with
  ``w_i = (1/(n-1)) sum_{j != i} C(O_i, O_j)``.  With a single gold, ``w = 1``;
  if the weights sum to 0 the plain average is used.  ``weight_offset = a``
  (default 1: the paper's ``(x + 1)/2`` normalisation of correlations, §5.2) maps each weight to
  ``(w_i + a) / (1 + a)``; ``a = 0`` is the formula read literally (weights in ``[-1, 1]``).
* :func:`rank_aggregation` (RBA): correlation with the consensus ordering by
  the sum of ranks.  **Tie rule:** items with equal rank sums share their
  average rank (the consensus is a weak order) and the correlation is tau-b /
  Spearman on ranks, which equal the paper's formulas when there is no tie and
  keep ``C(reverse(O), c) = -C(O, c)``.
* :func:`frespa`: frequent sequential patterns (subsequences with gaps) of the
  golds with length in ``[min_len, max_len]`` and support ``>= min_sup``
  (a *fraction* of the golds; ``min_sup = 0`` keeps every pattern seen once),
  weighted by ``(1 + w_len (len - 1)) (1 + w_sup (sup - 1))`` with ``sup`` the
  *absolute* number of golds containing the pattern.  Score = weight of the
  patterns contained in the target / weight of all patterns; 0 when no
  pattern qualifies.

:func:`mine_patterns` is a PrefixSpan miner (tested against brute force) for
inspecting the patterns themselves.  Definitions: ``docs/measures.md``.
"""

from __future__ import annotations

import math
from typing import Hashable, Sequence

import numpy as np

from ..errors import InputError, ParameterError


def _check_ordering(order, items: set | None = None, what: str = "ordering") -> tuple:
    order = tuple(order)
    if len(set(order)) != len(order):
        seen, dup = set(), None
        for x in order:
            if x in seen:
                dup = x
                break
            seen.add(x)
        raise InputError(f"{what} repeats item {dup!r}")
    if items is not None and set(order) != items:
        missing = sorted(map(str, items - set(order)))
        extra = sorted(map(str, set(order) - items))
        raise InputError(
            f"{what} is not a permutation of the set's items"
            + (f"; missing {missing}" if missing else "") + (f"; unknown {extra}" if extra else "")
        )
    return order


def check_judgments(judgments: Sequence[Sequence[Hashable]], what: str = "judgments") -> list[tuple]:
    """Validate one set's orderings: at least two, each a permutation of the same items."""
    judgments = [tuple(o) for o in judgments]
    if len(judgments) < 2:
        raise InputError(f"{what}: need at least two judgments, got {len(judgments)}")
    first = _check_ordering(judgments[0], what=f"{what}[0]")
    items = set(first)
    if len(items) < 2:
        raise InputError(f"{what}: a set needs at least two items")
    return [first] + [_check_ordering(o, items, f"{what}[{i}]") for i, o in enumerate(judgments[1:], 1)]


def _check_method(method: str) -> str:
    if method not in ("kendall", "spearman"):
        raise ParameterError("method", method, '"kendall" or "spearman"')
    return method


def _ranks(order: Sequence, items: Sequence) -> np.ndarray:
    pos = {x: i + 1 for i, x in enumerate(order)}
    return np.array([pos[x] for x in items], dtype=float)


def _corr_of_ranks(a: np.ndarray, b: np.ndarray, method: str) -> float:
    """tau-b or Spearman (Pearson of ranks) of two rank vectors (ties allowed)."""
    if method == "kendall":
        i, j = np.triu_indices(a.size, 1)
        sa, sb = np.sign(a[i] - a[j]), np.sign(b[i] - b[j])
        den = math.sqrt(np.count_nonzero(sa) * np.count_nonzero(sb))
        return float((sa * sb).sum() / den) if den else 0.0
    da, db = a - a.mean(), b - b.mean()
    den = math.sqrt((da @ da) * (db @ db))
    return float(da @ db / den) if den else 0.0


def kendall(a: Sequence, b: Sequence) -> float:
    """Kendall's tau of two orderings: ``1 - 2 S / (k (k-1) / 2)``, S discordant pairs."""
    a = _check_ordering(a)
    b = _check_ordering(b, set(a))
    return _corr_of_ranks(_ranks(a, a), _ranks(b, a), "kendall")


def spearman(a: Sequence, b: Sequence) -> float:
    """Spearman's rho of two orderings: ``1 - 6 sum d^2 / (k (k^2 - 1))``."""
    a = _check_ordering(a)
    b = _check_ordering(b, set(a))
    return _corr_of_ranks(_ranks(a, a), _ranks(b, a), "spearman")


def _corr(a, b, method):
    return kendall(a, b) if method == "kendall" else spearman(a, b)


def average_correlation(target, golds, method: str = "kendall") -> float:
    """AC: the mean correlation of ``target`` with each gold ordering."""
    _check_method(method)
    golds = [_check_ordering(g, set(target)) for g in golds]
    if not golds:
        raise InputError("need at least one gold ordering")
    return float(np.mean([_corr(target, g, method) for g in golds]))


def check_weight_offset(weight_offset) -> float:
    """WCA's weight offset ``a``: a finite number >= 0."""
    if isinstance(weight_offset, bool) or not np.isfinite(weight_offset) or weight_offset < 0:
        raise ParameterError("weight_offset", weight_offset, "a finite number >= 0")
    return float(weight_offset)


def wca_weights(mean_corr: np.ndarray, weight_offset: float = 1.0) -> np.ndarray:
    """WCA's weights from each gold's mean correlation ``m`` with the others: ``(m + a)/(1 + a)``.

    ``a = 0`` returns ``m`` itself (the paper's formula as printed: a gold
    uncorrelated with the rest, such as a random ordering, gets weight 0 and
    an anti-correlated one a negative weight); ``a = 1`` is ``(m + 1)/2``,
    the rescaling of a correlation to ``[0, 1]`` (a random ordering gets about
    1/2).  Only the weights' ratios matter, so the ``1 + a`` keeps them in
    ``[-1, 1]`` without changing the score.
    """
    a = check_weight_offset(weight_offset)
    return mean_corr if a == 0 else (mean_corr + a) / (1 + a)


def weighted_correlation(target, golds, method: str = "kendall", weight_offset: float = 1.0) -> float:
    """WCA: gold ``i`` weighted by its mean correlation with the other golds.

    ``weight_offset = a`` maps each weight ``w_i`` to ``(w_i + a)/(1 + a)``
    (:func:`wca_weights`; default 1, the paper's normalised correlations).
    """
    _check_method(method)
    check_weight_offset(weight_offset)
    golds = [_check_ordering(g, set(target)) for g in golds]
    if not golds:
        raise InputError("need at least one gold ordering")
    c = np.array([_corr(target, g, method) for g in golds])
    if len(golds) == 1:
        return float(c[0])
    w = np.array([np.mean([_corr(g, h, method) for h in golds if h is not g]) for g in golds])
    w = wca_weights(w, weight_offset)
    return float(c.mean() if abs(w.sum()) < 1e-12 else (w @ c) / w.sum())


def _average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..k of ``values``, ties sharing their average rank.

    Equals ``scipy.stats.rankdata(values, method="average")`` (tested); written
    out because RBA ranks many short vectors and scipy's call overhead dominates.
    """
    v = np.asarray(values)
    below = (v[:, None] > v[None, :]).sum(axis=1)
    equal = (v[:, None] == v[None, :]).sum(axis=1)
    return below + (equal + 1) / 2.0


def consensus_ranks(golds: Sequence[Sequence]) -> dict:
    """RBA's consensus: item -> average rank of its rank sum over the golds."""
    items = list(golds[0])
    sums = sum(_ranks(g, items) for g in golds)
    return dict(zip(items, _average_ranks(sums)))


def rank_aggregation(target, golds, method: str = "kendall") -> float:
    """RBA: correlation of ``target`` with the rank-sum consensus (ties: average rank)."""
    _check_method(method)
    golds = [_check_ordering(g, set(target)) for g in golds]
    if not golds:
        raise InputError("need at least one gold ordering")
    cons = consensus_ranks(golds)
    items = list(cons)
    return _corr_of_ranks(_ranks(target, items), np.array([cons[x] for x in items]), method)


def _length_bounds(k: int, min_len: int, max_len: int | None) -> tuple[int, int]:
    max_len = k if max_len is None else max_len
    for name, v in (("min_len", min_len), ("max_len", max_len)):
        if isinstance(v, bool) or int(v) != v or v < 2:
            raise ParameterError(name, v, "a whole number >= 2")
    if min_len > max_len:
        raise ParameterError("min_len", min_len, f"at most max_len = {max_len}")
    return int(min_len), int(max_len)


def _check_weights(min_sup, w_len, w_sup):
    if isinstance(min_sup, bool) or not (0.0 <= float(min_sup) <= 1.0):
        raise ParameterError("min_sup", min_sup, "a fraction in [0, 1]")
    for name, v in (("w_len", w_len), ("w_sup", w_sup)):
        if isinstance(v, bool) or not np.isfinite(v) or v < 0:
            raise ParameterError(name, v, "a finite number >= 0")


def _min_count(min_sup: float, n: int) -> int:
    """Smallest absolute support meeting the fraction ``min_sup`` of ``n`` golds (>= 1)."""
    return max(1, math.ceil(min_sup * n - 1e-9))


def mine_patterns(golds: Sequence[Sequence], min_sup: float = 0.0, min_len: int = 2,
                  max_len: int | None = None) -> dict[tuple, int]:
    """PrefixSpan (Pei et al. 2001) over orderings: pattern -> absolute support.

    Patterns are subsequences with gaps.  Each ordering holds an item at most
    once, so a projected database is just (ordering, position) pairs.
    """
    golds = [tuple(g) for g in golds]
    k = max(len(g) for g in golds)
    min_len, max_len = _length_bounds(k, min_len, max_len)
    _check_weights(min_sup, 0, 0)
    need = _min_count(min_sup, len(golds))
    out: dict[tuple, int] = {}

    def grow(prefix: tuple, projected: list[tuple[int, int]]):
        counts: dict = {}
        for g, start in projected:
            for pos in range(start, len(golds[g])):
                counts.setdefault(golds[g][pos], []).append((g, pos + 1))
        for item, proj in counts.items():
            if len(proj) < need:
                continue
            pattern = prefix + (item,)
            if len(pattern) >= min_len:
                out[pattern] = len(proj)
            if len(pattern) < max_len:
                grow(pattern, proj)

    grow((), [(g, 0) for g in range(len(golds))])
    return out


def _is_subsequence(pattern: tuple, position: dict) -> bool:
    return all(position[a] < position[b] for a, b in zip(pattern, pattern[1:]))


def frespa(target, golds, min_sup: float = 0.75, min_len: int = 2, max_len: int | None = None,
           w_len: float = 1.0, w_sup: float = 1.0) -> float:
    """FreSPA score of ``target`` against ``golds`` (Kim, Zhai & Han, §4.4)."""
    target = _check_ordering(target)
    golds = [_check_ordering(g, set(target), "gold") for g in golds]
    if not golds:
        raise InputError("need at least one gold ordering")
    _check_weights(min_sup, w_len, w_sup)
    patterns = mine_patterns(golds, min_sup, min_len, max_len)
    position = {x: i for i, x in enumerate(target)}
    num = den = 0.0
    for pattern, sup in patterns.items():
        w = (1 + w_len * (len(pattern) - 1)) * (1 + w_sup * (sup - 1))
        den += w
        if _is_subsequence(pattern, position):
            num += w
    return num / den if den > 0 else 0.0
