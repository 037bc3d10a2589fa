"""Wang et al. (SIGIR 2015) §5: Cohen's kappa of many contingency tables at once.

Figures 7–9 and Table 3 need one kappa per (assessor, metric, bin); the
simulated studies of :mod:`.worlds` need thousands.  :func:`kappa_of_tables`
computes them in one vectorised pass with the formulas of
:func:`evalkit.stats.agreement.cohens_kappa` (which calls statsmodels one
table at a time; the tests check the two agree).
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtri

__all__ = ["kappa_of_tables"]


def kappa_of_tables(tables, alpha: float = 0.05) -> dict:
    """Cohen's kappa, its large-sample standard error and ``1 - alpha`` interval per table.

    ``tables`` has shape ``(..., K, K)`` (rater 1 in rows, rater 2 in
    columns).  With cell shares ``p_ij``, row margins ``p_i.``, column
    margins ``p_.j``, observed agreement ``p_o = sum_i p_ii`` and chance
    agreement ``p_e = sum_i p_i. p_.i``: ``kappa = (p_o - p_e) / (1 - p_e)``
    (Cohen 1960) and, after Fleiss, Cohen & Everitt (1969),

    ``var = [sum_i p_ii (1 - (p_i. + p_.i)(1 - kappa))^2
    + (1 - kappa)^2 sum_{i != j} p_ij (p_.i + p_j.)^2
    - (kappa - p_e (1 - kappa))^2] / ((1 - p_e)^2 n)``;

    the interval is ``kappa -/+ z_{1-alpha/2} sqrt(var)``.  A table with
    ``p_e = 1`` (one category only) or no items gives NaN throughout.
    Returns a dict of arrays ``kappa, se, low, high, n``.
    """
    t = np.asarray(tables, dtype=float)
    if t.ndim < 2 or t.shape[-1] != t.shape[-2]:
        raise ValueError(f"tables must have shape (..., K, K), got {t.shape}")
    n = t.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = t / n[..., None, None]
        row, col = p.sum(-1), p.sum(-2)
        po = np.trace(p, axis1=-2, axis2=-1)
        pe = (row * col).sum(-1)
        kappa = (po - pe) / (1 - pe)
        q = (1 - kappa)[..., None]
        diag = np.diagonal(p, axis1=-2, axis2=-1)
        term_a = (diag * (1 - (row + col) * q) ** 2).sum(-1)
        cross = p * (col[..., :, None] + row[..., None, :]) ** 2
        off = cross.sum((-2, -1)) - np.trace(cross, axis1=-2, axis2=-1)
        term_b = (1 - kappa) ** 2 * off
        term_c = (kappa - pe * (1 - kappa)) ** 2
        var = (term_a + term_b - term_c) / (1 - pe) ** 2 / n
    undefined = (n == 0) | np.isclose(pe, 1.0)
    kappa = np.where(undefined, np.nan, kappa)
    se = np.where(undefined, np.nan, np.sqrt(np.maximum(var, 0.0)))
    half = ndtri(1 - alpha / 2) * se
    return {"kappa": kappa, "se": se, "low": kappa - half, "high": kappa + half, "n": n}
