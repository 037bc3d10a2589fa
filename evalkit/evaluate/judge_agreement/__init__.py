"""``evalkit agreement``: how far judges agree with a reference (or each other), tests between
judges, and consensus."""

from ..._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "tables": ("read_judges", "agreement_table", "confusion_table", "per_topic_table",
               "reliability_table", "consensus"),
    "consensus": ("consensus_table", "CONSENSUS_METHODS"),
    "pairs": ("pairs_table",),
    "grid": ("overlap_table",),
    "api": ("agreement",),
})
