"""Evaluation measures, one module per family.

* :mod:`~evalkit.measures.gains`: RawG, WG and Sakai's unanimity-aware gain UG.
* :mod:`~evalkit.measures.graded`: nG@k, nERR@k, P+ and Q with direct gain
  values (NTCIREVAL) and a vectorised batch scorer.
* :mod:`~evalkit.measures.registry`: their registry (names, defaults, formulas,
  sources, how each one's summary over topics is formed) and
  :mod:`~evalkit.measures.names`, the measure names ``evalkit score`` reads
  (ir_measures' and trec_eval's, and trec_eval's sets ``all_trec`` and
  ``official``).
* trec_eval's measures on ranked lists (:mod:`~evalkit.measures.ranked`), one
  module per family: :mod:`~evalkit.measures.ndcg`, ``average_precision``,
  ``set_measures``, ``reciprocal_rank``, ``bpref``, ``err``, ``counts``,
  ``infap``, ``interpolated``, ``unranked``, ``cumulated_gain``, ``rbp``,
  ``relstring``; :mod:`~evalkit.measures.summaries` forms the ``all`` row.
* :mod:`~evalkit.measures.timeline`: the TREC 2014 cluster-based TTG metrics.
* :mod:`~evalkit.measures.aggregation`: AC, WCA, RBA and FreSPA against several
  ideal orderings (Kim, Zhai & Han).
* :mod:`~evalkit.measures.discriminativeness`: their ED, with noise.

The gains, the graded measures and the registry are also importable from here
(``evalkit.measures.p_plus``).
"""

from .._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "gains": ("GAINS", "raw_gain", "weighted_gain", "unanimity_gain", "rating_spread", "gain_values"),
    "graded": ("ng_at_k", "nerr_at_k", "p_plus", "q_measure", "batch_measures", "RankedLists",
               "ranked_lists", "score_runs"),
    "registry": ("Measure", "MEASURES", "measures_table", "MeasureSpec", "parse_measure",
                 "expand_measures", "expand_all"),
    "summaries": ("summarise",),
})
