"""Judges as they come, shared by every command: labels (``--judge``, ``--ratings``), the grade
scale, gains (RawG, WG, UG, graded qrels), the judging options, the example judges."""

from ..._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "labels": ("read_labels", "parse_judges", "parse_grades", "labels_to_ratings"),
    "gains": ("item_gains", "gains_from_qrels", "parse_gain_map", "judge_gains", "JudgeGains"),
})
