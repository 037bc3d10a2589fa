"""``evalkit compare``: the randomised Tukey HSD over run pairs, and the statistics report
(ANOVA, intervals, corrected tests) of per-topic scores from any tool."""

from ..._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "hsd": ("compare", "best_per_team"),
    "report": ("ComparisonReport", "compare_scores", "write_report"),
})
