"""The history of Wang's §3-4 claims rows: what changed in a row's rule, threshold, kind or
testability after its result was known, from what, and why (``docs/claims.md``, "History").

:data:`REVISED` maps a row's ``id`` to its revisions, oldest first (written to the ``revised``
column); :mod:`evalkit.declare.history` fails when a verdict, kind or rule changes without a
new one.  :data:`RETIRED` names the rows removed on purpose, with the reason.
"""

TABLES = ("wang2015/claims.csv",)

_TREND = ("2026-11-27 (fcf70b2): the direction was first read from the median of the same draws "
          "({before}); it was then replaced by 'falls' for every metric, judged on the same seeds, so "
          "the question was fixed after those draws had been seen, not before them")

REVISED = {
    "similar-unweighted": (
        "2026-11-27 (fcf70b2): split after the result from one row 'absolute values quite similar "
        "for every metric' (does not hold, 0 of 20) at the paper's hedge 'particularly'",
    ),
    "similar-weighted": (
        "2026-11-27 (fcf70b2): split after the result from one row 'absolute values quite similar "
        "for every metric' (does not hold, 0 of 20) at the paper's hedge 'particularly'",
    ),
    "tau-falls-precision": (_TREND.format(before="'falls' held in 17 of 20"),),
    "tau-falls-recall": (_TREND.format(before="'stays within 0.02' held in 17 of 20"),),
    "tau-falls-weighted-recall": (_TREND.format(before="'stays within 0.02' held in 16 of 20"),),
    "tau-falls-f1": (_TREND.format(before="'rises' held in 19 of 20"),),
    "tau-falls-weighted-f1": (_TREND.format(before="'rises' held in 20 of 20"),),
}

RETIRED: dict[str, str] = {}
