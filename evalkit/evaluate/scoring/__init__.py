"""``evalkit score``: every run scored under every judge, trec_eval's and NTCIREVAL's measures."""

from ..._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "engine": ("score", "score_arrays", "scored_runs", "judged_gains", "Judged"),
})
