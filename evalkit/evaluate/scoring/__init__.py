"""``evalkit score``: every run scored under every judge, trec_eval's and NTCIREVAL's measures."""

from ..._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "engine": ("score", "scored_runs", "gain_columns", "pooled_judgments"),
    "judgments": ("Judgments", "judgments"),
    "lists": ("ListOptions", "Scored", "score_runs"),
})
