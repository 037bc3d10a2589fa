"""Evaluate your own runs with several assessors' ratings (``evalkit score`` / ``compare``).

* :func:`~evalkit.evaluate.scoring.score`: trec_eval-style scores with RawG, WG
  or UG gains (or graded qrels and a gain map).
* :func:`~evalkit.evaluate.significance.compare`: randomised Tukey HSD over all run
  pairs with effect sizes, and discrepancies between two gains.
* :func:`~evalkit.evaluate.comparison.compare_scores`: the statistics report of
  ``evalkit compare --scores``: ANOVA, intervals, corrected tests, wins and losses.
* :func:`~evalkit.evaluate.assessor_study.assessors`: how leaderboards and HSD
  verdicts depend on the assessors (``evalkit assessors``; files written by
  :func:`~evalkit.evaluate.assessor_report.write_assessor_report`).
* :func:`~evalkit.evaluate.agreement.agreement_table` (``evalkit agreement``): how far
  judges agree, each against a reference or the others pooled, with topic-bootstrap
  intervals; :func:`~evalkit.evaluate.agreement.read_judges` reads one qrels file per judge.
* :func:`~evalkit.evaluate.inputs.item_gains`: one gain per item from ratings.
* :func:`~evalkit.evaluate.examples.write_example`: the shipped sample in
  ``data/examples/``.
"""

from .._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "scoring": ("score",),
    "significance": ("compare", "best_per_team"),
    "comparison": ("ComparisonReport", "compare_scores", "write_report"),
    "inputs": ("item_gains", "gains_from_qrels"),
    "examples": ("write_example",),
    "assessor_study": ("assessors", "AssessorReport"),
    "assessor_report": ("write_assessor_report", "bump_chart"),
    "agreement": ("read_judges", "agreement_table", "confusion_table", "reliability_table",
                  "consensus"),
})
