"""The coverage study in small: do ``evalkit estimate``'s intervals hold where the truth is known?

:func:`quick_coverage` runs :func:`evalkit.evaluate.estimation.coverage.coverage_table`
(three simulated worlds: an LLM judge (a) unbiased and noisy, (b) lenient by a
grade on a share of documents, (c) favouring one run's documents; ``n``
reference topics of 200 drawn afresh in every draw) with fewer draws and a
smaller world than the full study (``make sweep-ppi-coverage``: 1,000 draws, a
4,000-topic world), so that the chapter runs in seconds; its Monte Carlo
errors are wider by about sqrt(1000 / draws).  :func:`best_variant` says, per
setting and ``n``, which PPI interval is within 95% +- 2 MC errors.
"""

from __future__ import annotations

import pandas as pd

from ...evaluate.estimation.coverage import SETTINGS, coverage_table

__all__ = ["NS", "quick_coverage", "holds_table"]

#: The numbers of reference (human-labelled) topics, of 200.
NS = (10, 25, 50)


def quick_coverage(draws: int, pool: int, seed: int) -> pd.DataFrame:
    """coverage.csv's rows (``setting, n, method, interval, coverage, mc_error, width_ratio``)
    for every setting and :data:`NS`, with ``draws`` draws in a world of ``pool`` topics."""
    return coverage_table(SETTINGS, NS, draws=draws, seed=seed, pool=pool)


def holds_table(coverage: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Per setting, ``n``, method and interval: whether the coverage is within ``level`` +- 2
    MC errors (``holds``), below it (``under``) or above (``over``)."""
    out = coverage.copy()
    low, high = level - 2 * out["mc_error"], level + 2 * out["mc_error"]
    out["verdict"] = ["under" if c < lo else "over" if c > hi else "holds"
                      for c, lo, hi in zip(out["coverage"], low, high)]
    return out
