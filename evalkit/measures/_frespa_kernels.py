"""Compiled loops of FreSPA's ED (Kim, Zhai & Han, ECIR 2010, §4.4 and §5.2).

Used by :class:`evalkit.measures.discriminativeness.SetEngine` only; numba is
imported when a FreSPA ED is first asked for.  The kernels count (integers,
exact) or add floats in the order numpy's original does (:func:`_sum` is
numpy's pairwise sum, step for step), so the ED has the same bits as
:func:`~evalkit.measures.ed_reference.frespa_ed_reference` (the differential
tests in ``tests/measures/test_frespa_kernels.py``).
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _subset_tables(before, pair_i, pair_j, k):  # pragma: no cover - compiled
    n, npairs = before.shape
    words = (npairs + 63) // 64
    bits = np.zeros((n, words), np.uint64)            # each judgment's precedence bits
    for g in range(n):
        for p in range(npairs):
            if before[g, p]:
                bits[g, p // 64] |= np.uint64(1) << np.uint64(p % 64)
    m_count = 0
    for mask in range(1 << k):
        c = 0
        for a in range(k):
            c += (mask >> a) & 1
        if c >= 2:
            m_count += 1
    length = np.empty(m_count, np.int64)
    in_s = np.zeros((m_count, words), np.uint64)      # the pairs inside each subset S
    m = 0
    for mask in range(1 << k):
        c = 0
        for a in range(k):
            c += (mask >> a) & 1
        if c < 2:
            continue
        length[m] = c
        for p in range(npairs):
            if (mask >> pair_i[p]) & 1 and (mask >> pair_j[p]) & 1:
                in_s[m, p // 64] |= np.uint64(1) << np.uint64(p % 64)
        m += 1
    code = np.empty((n, m_count, words), np.uint64)   # judgment g's bits restricted to S
    for g in range(n):
        for m in range(m_count):
            for w in range(words):
                code[g, m, w] = bits[g, w] & in_s[m, w]
    equal = np.empty((n, n, m_count), np.bool_)
    reverse = np.empty((n, n, m_count), np.bool_)
    total = np.zeros((n, m_count), np.int64)         # total[g, m] = sum_h equal[g, h, m]
    for g in range(n):                                # both relations are symmetric; S innermost
        for m in range(m_count):
            equal[g, g, m] = True
            total[g, m] += 1
            reverse[g, g, m] = False                  # S has a pair, which g orders one way
        for h in range(g + 1, n):
            for m in range(m_count):
                same = True
                opposite = True
                for w in range(words):
                    if code[g, m, w] != code[h, m, w]:
                        same = False
                    if (code[g, m, w] ^ code[h, m, w]) != in_s[m, w]:
                        opposite = False
                equal[g, h, m] = same
                equal[h, g, m] = same
                if same:
                    total[g, m] += 1
                    total[h, m] += 1
                reverse[g, h, m] = opposite
                reverse[h, g, m] = opposite
    return equal, reverse, length, total


def subset_tables(before: np.ndarray, pair_i: np.ndarray, pair_j: np.ndarray, k: int):
    """``(equal, reverse, length)`` over every item subset of 2+ items, subsets in mask order.

    ``before[g, p]``: judgment ``g`` puts pair ``p``'s first item (``pair_i[p]``)
    before its second (``pair_j[p]``).
    """
    return subset_tables_and_total(before, pair_i, pair_j, k)[:3]


def subset_tables_and_total(before: np.ndarray, pair_i: np.ndarray, pair_j: np.ndarray, k: int):
    """:func:`subset_tables` and ``total = equal.sum(1)`` (int64), counted on the way."""
    return _subset_tables(np.ascontiguousarray(before), np.ascontiguousarray(pair_i, dtype=np.int64),
                          np.ascontiguousarray(pair_j, dtype=np.int64), int(k))


@numba.njit(cache=True)
def _turn(equal, reverse, total, i, per_gold, lookup):  # pragma: no cover - compiled
    n, _, m_count = equal.shape
    settings = per_gold.shape[0]
    rev = np.zeros(m_count, np.int64)
    gathered = np.zeros((settings if lookup else 0, m_count))
    counts = np.zeros((m_count if not lookup else 0, n), np.int64)
    first = 1 if i == 0 else 0                        # the first gold: its values start the sums
    for h in range(n):
        if h == i:
            continue
        for m in range(m_count):                      # contiguous in m; per m, h in order
            if reverse[i, h, m]:
                rev[m] += 1
            s = total[h, m] - (1 if equal[h, i, m] else 0)
            if lookup:
                for q in range(settings):
                    if h == first:
                        gathered[q, m] = per_gold[q, s]
                    else:
                        gathered[q, m] += per_gold[q, s]
            else:
                counts[m, s] += 1
    return gathered, counts, rev


def turn(equal, reverse, total, i: int, per_gold: np.ndarray, lookup: bool):
    """One held-out judgment ``i``: the golds' support ``sup_g[h, S] = total[h, S] - equal[h, i, S]``
    (``h != i``) reduced two ways, and ``rev[S]``, the golds ordering S against ``i``.

    ``lookup``: ``gathered[q, S] = sum_h per_gold[q, sup_g[h, S]]`` added over ``h`` in
    order (as numpy's ``per_gold[:, sup_g].sum(1)``); otherwise ``counts[S, s]``, the
    golds with support ``s`` (``(sup_g.T[:, :, None] == arange(n)).sum(1)``).
    """
    return _turn(equal, reverse, total, int(i), np.ascontiguousarray(per_gold, dtype=float), bool(lookup))


# -- whole ED in one call: the float sums in numpy's order ----------------------------------

@numba.njit(cache=True)
def _block(a, lo, n):  # pragma: no cover - compiled
    """numpy's pairwise sum of ``a[lo:lo + n]`` for ``n <= 128``: plain below 8 terms, else
    8 partial sums."""
    if n < 8:
        res = -0.0
        for j in range(n):
            res += a[lo + j]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    j = 8
    while j < n - n % 8:
        r0 += a[lo + j]
        r1 += a[lo + j + 1]
        r2 += a[lo + j + 2]
        r3 += a[lo + j + 3]
        r4 += a[lo + j + 4]
        r5 += a[lo + j + 5]
        r6 += a[lo + j + 6]
        r7 += a[lo + j + 7]
        j += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while j < n:
        res += a[lo + j]
        j += 1
    return res


@numba.njit(cache=True)
def _pairwise(a, lo, n):  # pragma: no cover - compiled
    """numpy's pairwise sum of ``a[lo:lo + n]`` (contiguous float64): :func:`_block` up to 128
    terms, above that the two halves (cut at a multiple of 8) added, left + right.  A stack,
    not recursion (numba's cache cannot hold a recursive function)."""
    if n <= 128:
        return _block(a, lo, n)
    los = np.empty(64, np.int64)                      # pending ranges: (start, length, stage)
    lens = np.empty(64, np.int64)
    stage = np.empty(64, np.int64)
    vals = np.empty(64)                               # finished sums, left before right
    top, sp = 0, 0
    los[0], lens[0], stage[0] = lo, n, 0
    while top >= 0:
        start, length = los[top], lens[top]
        if length <= 128:
            vals[sp] = _block(a, start, length)
            sp += 1
            top -= 1
            continue
        half = length // 2
        half -= half % 8
        if stage[top] == 0:                           # the left half first
            stage[top] = 1
            top += 1
            los[top], lens[top], stage[top] = start, half, 0
        elif stage[top] == 1:                         # then the right half
            stage[top] = 2
            top += 1
            los[top], lens[top], stage[top] = start + half, length - half, 0
        else:                                         # both done: left + right
            sp -= 1
            vals[sp - 1] = vals[sp - 1] + vals[sp]
            top -= 1
    return vals[0]


@numba.njit(cache=True)
def _sum(a):  # pragma: no cover - compiled
    """``a.sum()`` of a contiguous float64 vector, bit for bit: 0.0 (the identity) + pairwise."""
    return 0.0 + _pairwise(a, 0, a.size)


@numba.njit(cache=True)
def _numerators(total, rev, by_sup, by_len, num_t, num_r, i, buf):  # pragma: no cover - compiled
    """``num_t[i] = (by_sup[:, total[i] - 1] * by_len).sum(1)`` and ``num_r[i]`` likewise on ``rev``."""
    settings, m_count = by_len.shape
    for q in range(settings):
        for m in range(m_count):
            buf[m] = by_sup[q, total[i, m] - 1] * by_len[q, m]
        num_t[i, q] = _sum(buf)
        for m in range(m_count):
            buf[m] = by_sup[q, rev[m]] * by_len[q, m]
        num_r[i, q] = _sum(buf)


@numba.njit(cache=True)
def _turn_into(equal, reverse, total, i, per_gold, lookup, gathered, counts, rev):  # pragma: no cover
    """:func:`_turn` into the caller's arrays, one gold at a time with the subsets innermost
    and no branch there: ``gathered[q, S]`` set by the first gold, then added to in gold order
    (the same float operations); ``counts[S, s]`` as floats (whole numbers, exact)."""
    n, _, m_count = equal.shape
    rev[:] = 0
    if not lookup:
        counts[:] = 0.0
    first = 1 if i == 0 else 0
    for h in range(n):
        if h == i:
            continue
        for m in range(m_count):
            rev[m] += reverse[i, h, m]
        if not lookup:
            for m in range(m_count):
                counts[m, total[h, m] - equal[h, i, m]] += 1.0
        elif h == first:
            for q in range(per_gold.shape[0]):
                for m in range(m_count):
                    gathered[q, m] = per_gold[q, total[h, m] - equal[h, i, m]]
        else:
            for q in range(per_gold.shape[0]):
                for m in range(m_count):
                    gathered[q, m] += per_gold[q, total[h, m] - equal[h, i, m]]


@numba.njit(cache=True)
def _ed_looked_up(equal, reverse, total, per_gold, by_len, by_sup):  # pragma: no cover - compiled
    n, _, m_count = equal.shape
    settings = per_gold.shape[0]
    out = np.zeros(settings)
    num_t = np.zeros((n, settings))
    num_r = np.zeros((n, settings))
    buf = np.empty(m_count)
    gathered = np.zeros((settings, m_count))
    counts = np.zeros((0, n))
    rev = np.zeros(m_count, np.int64)
    for i in range(n):
        _turn_into(equal, reverse, total, i, per_gold, True, gathered, counts, rev)
        _numerators(total, rev, by_sup, by_len, num_t, num_r, i, buf)
        for q in range(settings):
            for m in range(m_count):
                buf[m] = gathered[q, m] * by_len[q, m]
            den = _sum(buf)
            if den > 0:                               # no pattern: both scores 0
                out[q] += (num_t[i, q] - num_r[i, q]) / den
    return out / n


@numba.njit(cache=True)
def _ed_counted(equal, reverse, total, per_gold, by_len, by_sup):  # pragma: no cover - compiled
    n, _, m_count = equal.shape
    settings = per_gold.shape[0]
    counts = np.empty((n, m_count, n))
    num_t = np.zeros((n, settings))
    num_r = np.zeros((n, settings))
    buf = np.empty(m_count)
    gathered = np.zeros((0, m_count))
    rev = np.zeros(m_count, np.int64)
    for i in range(n):
        _turn_into(equal, reverse, total, i, per_gold, False, gathered, counts[i], rev)
        _numerators(total, rev, by_sup, by_len, num_t, num_r, i, buf)
    return counts, num_t, num_r


def frespa_ed(equal, reverse, total, by_len: np.ndarray, by_sup: np.ndarray, per_gold: np.ndarray,
              lookup: bool) -> np.ndarray:
    """FreSPA's ED per setting from one set's tables and factored weights, every turn compiled:
    the arithmetic of :meth:`~evalkit.measures.discriminativeness.SetEngine.frespa_ed`'s numpy
    turns, sum for sum in numpy's order (:func:`_sum`), so the same bits.  Counted (``lookup``
    false), the product ``by_len @ counts`` stays numpy's (BLAS), one matrix per turn."""
    args = (equal, reverse, total, np.ascontiguousarray(per_gold, dtype=float),
            np.ascontiguousarray(by_len, dtype=float), np.ascontiguousarray(by_sup, dtype=float))
    if lookup:
        return _ed_looked_up(*args)
    counts, num_t, num_r = _ed_counted(*args)
    den = np.array([args[4] @ c for c in counts])                            # BLAS, turn by turn
    den = (den * args[3]).sum(2)                                             # n x P
    diffs = np.zeros(den.shape)
    np.divide(num_t - num_r, den, out=diffs, where=den > 0)                 # no pattern: both 0
    acc = np.zeros((den.shape[0] + 1, den.shape[1]))
    acc[1:] = diffs
    return np.add.accumulate(acc, axis=0)[-1] / den.shape[0]                # 0 + turn 0 + turn 1 ...

