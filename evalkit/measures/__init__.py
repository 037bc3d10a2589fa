"""Evaluation measures, one module per family.

* :mod:`~evalkit.measures.gains`: RawG, WG and Sakai's unanimity-aware gain UG.
* :mod:`~evalkit.measures.graded`: nG@k, nERR@k, P+ and Q with direct gain
  values (NTCIREVAL), their registry and a vectorised batch scorer.
* :mod:`~evalkit.measures.timeline`: the TREC 2014 cluster-based TTG metrics.
* :mod:`~evalkit.measures.aggregation`: AC, WCA, RBA and FreSPA against several
  ideal orderings (Kim, Zhai & Han).
* :mod:`~evalkit.measures.discriminativeness`: their ED, with noise.

The graded measures are also importable from here (``evalkit.measures.p_plus``).
"""

from .._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "graded": ("ng_at_k", "nerr_at_k", "p_plus", "q_measure", "batch_measures", "Measure",
               "MEASURES", "measures_table", "RankedLists", "ranked_lists", "score_runs"),
})
