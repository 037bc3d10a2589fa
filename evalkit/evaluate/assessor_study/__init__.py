"""``evalkit assessors``: how leaderboards and significance verdicts depend on the judges."""

from ..._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "study": ("assessors", "AssessorReport", "ratings_from_matrix", "runs_from_lists"),
    "report": ("write_assessor_report", "bump_chart"),
})
