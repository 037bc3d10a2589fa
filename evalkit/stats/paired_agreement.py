"""Is judge A's agreement with a reference higher than judge B's?  Paired tests over topics.

The tests of ``evalkit agreement --pairs`` (``docs/agreement.md``).  Two
judges graded (some of) the same items as a reference; each statistic of
:mod:`evalkit.stats.confusion_agreement` (Krippendorff's alpha, Cohen's
kappa) is a function of a judge's ``K x K`` confusion matrix with the
reference, and a judge's matrix over several topics is the sum of its
per-topic matrices.  So, with ``M_a[t]`` and ``M_b[t]`` the two judges'
per-topic matrices on the items both graded, every resample the tests need is
a weighted sum of per-topic matrices:

* **paired topic bootstrap** (Efron & Tibshirani 1993, ch. 13): replicate
  ``r`` draws the topics with replacement, the same draws for both judges;
  with ``w[r, t]`` the number of draws of topic ``t``,
  ``diff* = stat(sum_t w M_a[t]) - stat(sum_t w M_b[t])``;
* **paired randomisation test** (Fisher's; Smucker, Allan & Carterette,
  CIKM 2007, for IR): under "the two judges are exchangeable", the labels of
  ``a`` and ``b`` on a topic may be swapped.  Trial ``r`` swaps topic ``t``
  when ``s[r, t] = 1`` (probability 1/2), which swaps the topic's two
  matrices: ``diff* = stat(sum_t (1 - s) M_a + s M_b) - stat(sum_t s M_a +
  (1 - s) M_b)``.  The two-sided p-value is ``(#{r: |diff*| >= |diff|} + 1)
  / (R + 1)`` over the trials where ``diff*`` is defined.

:func:`paired_differences` evaluates ``diff*`` for every pair and every
resample given ``u`` (the weight of ``M_a`` in A's sum and of ``M_b`` in B's)
and ``v`` (the other way round): the bootstrap is ``u = w, v = 0``, the
randomisation test ``u = 1 - s, v = s``.  The weighted sums of every judge's
matrices come from one matrix product per block of resamples (whole numbers:
exact in any order); the statistics are written once, with ``+ - * /`` on the
cells ``c[r, j]`` (:func:`_terms`), and run either compiled by numba (the
``fast`` extra), one matrix at a time, or in numpy on whole blocks of
resamples: the same operations in the same order, so the same bits (tested).
"""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError
from .confusion_agreement import KAPPA_WEIGHTS

try:
    import numba
except ImportError:             # pip install evalkit-assessors without [fast]
    numba = None

__all__ = ["ALPHA_FIXED", "ALPHA_ORDINAL", "KAPPA", "statistic_code", "paired_differences",
           "topic_swaps", "randomisation_p_values"]

#: Codes of the statistics: alpha with fixed squared differences (nominal, interval),
#: ordinal alpha (differences from the marginals), kappa with disagreement weights.
ALPHA_FIXED, ALPHA_ORDINAL, KAPPA = 0, 1, 2

#: Resamples evaluated at once by the numpy executor (memory: BLOCK x pairs x K x K floats).
BLOCK = 256
#: Resamples whose weighted sums are formed at once (memory: 2 x SUMS_BLOCK x judges x K x K
#: floats, 18 MB for 34 judges on four grades).
SUMS_BLOCK = 2048


def statistic_code(family: str, kind, values) -> tuple[int, np.ndarray]:
    """``(code, w)`` of a statistic: ``family`` ``"alpha"`` with ``kind`` ``nominal``,
    ``ordinal`` or ``interval``, or ``"kappa"`` with ``kind`` ``None``, ``linear`` or
    ``quadratic``; ``w`` is the ``K x K`` matrix of squared differences (alpha, unused for
    ordinal) or disagreement weights (kappa) on the grades ``values``, as in
    :func:`~evalkit.stats.confusion_agreement.alpha_from_confusion` and
    :func:`~evalkit.stats.confusion_agreement.kappa_from_confusion`."""
    v = np.asarray(values, dtype=float)
    diff = v[:, None] - v[None, :]
    if family == "alpha" and kind in ("nominal", "interval", "ordinal"):
        w = (diff != 0).astype(float) if kind == "nominal" else diff ** 2
        return (ALPHA_ORDINAL if kind == "ordinal" else ALPHA_FIXED), np.ascontiguousarray(w)
    if family == "kappa" and kind in KAPPA_WEIGHTS:
        w = (diff != 0).astype(float) if kind is None else (np.abs(diff) if kind == "linear"
                                                             else diff ** 2)
        return KAPPA, np.ascontiguousarray(w)
    raise ParameterError("statistic", (family, kind), "alpha with nominal, ordinal or interval, "
                         "or kappa with None, linear or quadratic weights")


def _terms(c, k, code, w, marg):
    """``(f, observed, expected)`` of one statistic of the confusion cells ``c[r, j]``
    (scalars, or arrays of one shape; ``marg``: room for ``k`` of them): the statistic is
    ``1 - f observed / expected``.

    * alpha (Krippendorff 2011): coincidences ``o = c + c^T``, marginals ``n_g``, ``n``;
      ``f = n - 1``, ``observed = sum o_rj d2_rj``, ``expected = sum n_r n_j d2_rj`` with
      ``d2`` = ``w`` or, ordinal, ``(sum_{g=r..j} n_g - (n_r + n_j) / 2)^2``;
    * kappa (Cohen 1968): ``f = n``, ``observed = sum w_rj c_rj``, ``expected = sum w_rj
      c_r. c_.j``.
    """
    if code == KAPPA:
        n = 0.0 * c[0, 0]
        observed = 0.0 * n
        expected = 0.0 * n
        for r in range(k):                              # marg: the column sums c_.j
            marg[r] = c[0, r]
            for j in range(1, k):
                marg[r] = marg[r] + c[j, r]
        for r in range(k):
            row = c[r, 0]
            for j in range(1, k):
                row = row + c[r, j]
            n = n + row
            for j in range(k):
                if w[r, j] != 0.0:
                    observed = observed + w[r, j] * c[r, j]
                    expected = expected + w[r, j] * (row * marg[j])
        return n, observed, expected
    n = 0.0 * c[0, 0]
    for g in range(k):                                  # n_g = sum_j c_gj + c_jg
        marg[g] = c[g, 0] + c[0, g]
        for j in range(1, k):
            marg[g] = marg[g] + (c[g, j] + c[j, g])
        n = n + marg[g]
    observed = 0.0 * n
    expected = 0.0 * n
    for r in range(k):
        between = marg[r]
        for j in range(r + 1, k):
            between = between + marg[j]
            if code == ALPHA_ORDINAL:
                d = between - (marg[r] + marg[j]) / 2.0
                d2 = d * d
            else:
                d2 = w[r, j]
            # o_rj = o_jr = c_rj + c_jr; the diagonal has d2 = 0
            observed = observed + 2.0 * ((c[r, j] + c[j, r]) * d2)
            expected = expected + 2.0 * ((marg[r] * marg[j]) * d2)
    return n - 1.0, observed, expected


def _numpy_statistic(c, code, w):
    """:func:`_terms` on ``c`` of shape ``(K, K, ...)``: NaN where ``expected <= 0``."""
    k = c.shape[0]
    f, observed, expected = _terms(c, k, code, w, [None] * k)
    ok = expected > 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(ok, 1.0 - f * observed / np.where(ok, expected, 1.0), np.nan)


def _sums(stack, u):
    """``(R, Q, K, K)``: ``sum_t u[r, t] stack[q, t]``, one matrix product (the counts and the
    weights are whole numbers, so any order of the sums gives the same bits)."""
    q_count, t_count, k, _ = stack.shape
    flat = np.ascontiguousarray(stack.transpose(1, 0, 2, 3)).reshape(t_count, q_count * k * k)
    return (u @ flat).reshape(len(u), q_count, k, k)


def _numpy_differences(big_u, big_v, plain, ia, ib, code, w):
    r_count, p_count = big_u.shape[0], len(ia)
    out = np.empty((r_count, p_count))
    for start in range(0, r_count, BLOCK):
        uu, vv = big_u[start:start + BLOCK], big_v[start:start + BLOCK]
        if plain[start:start + BLOCK].all():            # A = U[ia], B = U[ib]: once per matrix
            each = _numpy_statistic(np.moveaxis(uu + vv, (2, 3), (0, 1)), code, w)   # (R, Q)
            out[start:start + BLOCK] = each[:, ia] - each[:, ib]
            continue
        a = np.moveaxis(uu[:, ia] + vv[:, ib], (2, 3), (0, 1))            # (K, K, R, P)
        b = np.moveaxis(vv[:, ia] + uu[:, ib], (2, 3), (0, 1))
        out[start:start + BLOCK] = _numpy_statistic(a, code, w) - _numpy_statistic(b, code, w)
    return out


if numba is not None:
    _terms_compiled = numba.njit(cache=True, inline="always")(_terms)

    @numba.njit(cache=True, inline="always")
    def _compiled_statistic(c, code, w, scratch):  # pragma: no cover - compiled
        f, observed, expected = _terms_compiled(c, c.shape[0], code, w, scratch)
        if expected > 0.0:
            return 1.0 - f * observed / expected
        return np.nan

    @numba.njit(cache=True, parallel=True)
    def _compiled_differences(big_u, big_v, plain, ia, ib, code, w):  # pragma: no cover - compiled
        r_count, q_count, k, _ = big_u.shape
        p_count = ia.shape[0]
        out = np.empty((r_count, p_count))
        for r in numba.prange(r_count):
            a = np.empty((k, k))
            b = np.empty((k, k))
            scratch = np.empty(k)
            if plain[r]:                                # A = U[ia], B = U[ib]: once per matrix
                each = np.empty(q_count)
                for q in range(q_count):
                    for x in range(k):
                        for y in range(k):
                            a[x, y] = big_u[r, q, x, y] + big_v[r, q, x, y]
                    each[q] = _compiled_statistic(a, code, w, scratch)
                for p in range(p_count):
                    out[r, p] = each[ia[p]] - each[ib[p]]
                continue
            for p in range(p_count):
                for x in range(k):
                    for y in range(k):
                        a[x, y] = big_u[r, ia[p], x, y] + big_v[r, ib[p], x, y]
                        b[x, y] = big_v[r, ia[p], x, y] + big_u[r, ib[p], x, y]
                out[r, p] = (_compiled_statistic(a, code, w, scratch)
                             - _compiled_statistic(b, code, w, scratch))
        return out


def paired_differences(stack, ia, ib, u, v, code: int, w, compiled: bool | None = None
                       ) -> np.ndarray:
    """``(R, P)``: ``stat(A_r) - stat(B_r)`` for every resample ``r`` and pair ``p``.

    ``stack`` ``(Q, T, K, K)`` holds per-topic confusion matrices (reference grade x judge
    grade); pair ``p`` compares ``stack[ia[p]]`` (judge a) with ``stack[ib[p]]`` (judge b);
    ``u``, ``v`` ``(R, T)`` weigh the topics: ``A_r = sum_t u[r, t] M_a[t] + v[r, t] M_b[t]``,
    ``B_r = sum_t v[r, t] M_a[t] + u[r, t] M_b[t]`` (module docstring).  ``code``, ``w``:
    :func:`statistic_code`.  NaN where a statistic is undefined (one grade only).
    ``compiled``: numba (default when installed) or numpy; the same bits either way.
    """
    stack = np.ascontiguousarray(stack, dtype=float)
    u = np.ascontiguousarray(np.atleast_2d(u), dtype=float)
    v = np.ascontiguousarray(np.atleast_2d(v), dtype=float)
    ia = np.ascontiguousarray(ia, dtype=np.int64)
    ib = np.ascontiguousarray(ib, dtype=np.int64)
    w = np.ascontiguousarray(w, dtype=float)
    if stack.ndim != 4 or u.shape != v.shape or u.shape[1] != stack.shape[1]:
        raise ParameterError("stack", stack.shape, "(Q, T, K, K) with weights (R, T)")
    use = numba is not None if compiled is None else bool(compiled) and numba is not None
    out = np.empty((u.shape[0], len(ia)))
    for start in range(0, u.shape[0], SUMS_BLOCK):      # the weighted sums once, by BLAS
        part = slice(start, start + SUMS_BLOCK)
        big_u, big_v = _sums(stack, u[part]), _sums(stack, v[part])
        plain = ~v[part].any(axis=1)
        run = _compiled_differences if use else _numpy_differences
        out[part] = run(big_u, big_v, plain, ia, ib, int(code), w)
    return out


def topic_swaps(n_topics: int, trials: int, seed) -> np.ndarray:
    """``(R, T)`` of 0 and 1: trial ``r`` swaps the two judges' labels on topic ``t`` when 1.

    ``numpy.random.default_rng(numpy.random.SeedSequence(seed, spawn_key=(1,)))
    .integers(0, 2, (R, T))``: each topic swapped with probability 1/2, independently;
    a stream of its own, apart from the bootstrap's ``default_rng(seed)``.
    """
    if isinstance(trials, bool) or int(trials) != trials or trials < 1:
        raise ParameterError("trials", trials, "a whole number >= 1")
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,)))
    return rng.integers(0, 2, size=(int(trials), int(n_topics)))


def randomisation_p_values(stack, ia, ib, code: int, w, trials: int, seed,
                           compiled: bool | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(observed, p)`` of the paired randomisation test of every pair (module docstring).

    ``observed[p] = stat(sum_t M_a[t]) - stat(sum_t M_b[t])``;
    ``p = (#{r: |diff*_r| >= |observed| - 1e-12} + 1) / (R' + 1)`` over the ``R'`` of
    ``trials`` swaps (:func:`topic_swaps` from ``seed``) where ``diff*`` is defined
    (NaN when ``observed`` is).  The allowance of 1e-12 makes an exact tie count as
    reached whatever the order of the sums.
    """
    stack = np.asarray(stack, dtype=float)
    ones = np.ones((1, stack.shape[1]))
    observed = paired_differences(stack, ia, ib, ones, 0.0 * ones, code, w, compiled)[0]
    swaps = topic_swaps(stack.shape[1], trials, seed).astype(float)
    star = paired_differences(stack, ia, ib, 1.0 - swaps, swaps, code, w, compiled)
    defined = np.isfinite(star)
    with np.errstate(invalid="ignore"):
        hit = defined & (np.abs(star) >= np.abs(observed) - 1e-12)
    p = (hit.sum(axis=0) + 1.0) / (defined.sum(axis=0) + 1.0)
    return observed, np.where(np.isfinite(observed), p, np.nan)
