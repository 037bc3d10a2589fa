"""Compiled loops of FreSPA's ED (Kim, Zhai & Han, ECIR 2010, §4.4 and §5.2).

Used by :class:`evalkit.measures.discriminativeness.SetEngine` only; numba is
imported when a FreSPA ED is first asked for.  Both kernels count (integers,
exact) or add floats in the order numpy's original does, so the ED has the
same bits as :func:`~evalkit.measures.discriminativeness.frespa_ed_reference`
(the differential tests in ``tests/measures/test_frespa_kernels.py``).
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
    equal = np.empty((n, n, m_count), np.bool_)
    reverse = np.empty((n, n, m_count), np.bool_)
    length = np.empty(m_count, np.int64)
    in_s = np.zeros(words, np.uint64)
    code = np.zeros((n, words), np.uint64)
    m = 0
    for mask in range(1 << k):
        c = 0
        for a in range(k):
            c += (mask >> a) & 1
        if c < 2:
            continue
        length[m] = c
        in_s[:] = 0
        for p in range(npairs):
            if (mask >> pair_i[p]) & 1 and (mask >> pair_j[p]) & 1:
                in_s[p // 64] |= np.uint64(1) << np.uint64(p % 64)
        for g in range(n):
            for w in range(words):
                code[g, w] = bits[g, w] & in_s[w]
        for g in range(n):                            # both relations are symmetric
            equal[g, g, m] = True
            reverse[g, g, m] = False                  # S has a pair, which g orders one way
            for h in range(g + 1, n):
                same = True
                opposite = True
                for w in range(words):
                    if code[g, w] != code[h, w]:
                        same = False
                    if (code[g, w] ^ code[h, w]) != in_s[w]:
                        opposite = False
                equal[g, h, m] = same
                equal[h, g, m] = same
                reverse[g, h, m] = opposite
                reverse[h, g, m] = opposite
        m += 1
    return equal, reverse, length


def subset_tables(before: np.ndarray, pair_i: np.ndarray, pair_j: np.ndarray, k: int):
    """``(equal, reverse, length)`` over every item subset of 2+ items, subsets in mask order.

    ``before[g, p]``: judgment ``g`` puts pair ``p``'s first item (``pair_i[p]``)
    before its second (``pair_j[p]``).
    """
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
