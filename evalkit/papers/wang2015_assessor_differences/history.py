"""The history of Wang's §3-4 claims rows: what changed in a row's rule, threshold, kind or
testability after its result was known, from what, and why (``docs/claims.md``, "History").

:data:`REVISED` maps a row's ``id`` to its revisions, oldest first (written to the ``revised``
column); :mod:`evalkit.workspace.claims_history` fails when a verdict, kind or rule changes without a
new one.  :data:`RETIRED` names the rows removed on purpose, with the reason.
"""

TABLES = ("wang2015/claims.csv",)

_TREND = ("2026-11-27 (fcf70b2): the direction was first read from the median of the same draws "
          "({before}); it was then replaced by 'falls' for every metric, judged on the same seeds, so "
          "the question was fixed after those draws had been seen, not before them")

REVISED = {
    "absolute-values-similar": (
        "issue 45: one row for the paper's one sentence, merged after the results of the three rows "
        "it had become (similar-unweighted holds 20 of 20, similar-weighted does not hold 0 of 20, "
        "particularly-unweighted holds 20 of 20): the unweighted metrics within 10% and closer than "
        "the weighted; no bound for the weighted metrics, since the sentence gives none and any "
        "set now would be set after their differences (weighted recall 11.1%-16.6%) were seen",
    ),
    "weighted-recall-most-stable": (
        "issue 45: added after the draws existed (Table 1's per-metric order, a claim a reader "
        "expects); its rule, the strict highest tau and fewest swaps, is the one the row on F1's "
        "two lowest taus uses",
    ),
    "tau-falls-precision": (_TREND.format(before="'falls' held in 17 of 20"),),
    "tau-falls-recall": (_TREND.format(before="'stays within 0.02' held in 17 of 20"),),
    "tau-falls-weighted-recall": (_TREND.format(before="'stays within 0.02' held in 16 of 20"),),
    "tau-falls-f1": (_TREND.format(before="'rises' held in 19 of 20"),),
    "tau-falls-weighted-f1": (_TREND.format(before="'rises' held in 20 of 20"),),
}

_MERGED = ("issue 45: merged into absolute-values-similar, one row for the paper's one sentence "
           "('quite similar (particularly the unweighted metrics)')")
RETIRED = {"similar-unweighted": _MERGED, "similar-weighted": _MERGED, "particularly-unweighted": _MERGED}
