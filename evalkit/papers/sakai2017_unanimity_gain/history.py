"""The history of Sakai's claims rows: what changed in a row's rule, threshold, kind or
testability after its result was known, from what, and why (``docs/claims.md``, "History").

:data:`REVISED` maps a row's ``id`` to its revisions, oldest first; the notebook's
:class:`~evalkit.declare.claims.Claims` writes them to the ``revised`` column, and
:mod:`evalkit.declare.history` fails when a verdict, kind or rule changes without a new one.
:data:`RETIRED` names the rows removed on purpose, with the reason.
"""

TABLES = ("sakai2017/claims.csv",)

REVISED = {
    "no-discrepancies-large-n": (
        "2026-11-23 (90e1bc9): judged over 20 independent worlds instead of the committed world "
        "alone; verdict holds -> mixed (7 of 20): the committed world had none, other draws have "
        "some",
    ),
    "discrepant-d-calibration": (
        "2026-11-26 (5df5cd5): kind paper -> calibration after the result (holds on the committed "
        "world; 3 of 20 over draws): the simulated collection was tuned to this |d|, so its "
        "agreement is a target met, not a finding; range 0.12-0.17 read as the workspace's, "
        "with sensitivity over Table 3's span",
    ),
    "es-denominator-variance": (
        "2026-11-27 (78b80a5): replaced the paper row 'discrepant pairs have ES_HSD = |d|/sd of "
        "about 1.6-2.4' (does not hold, 0 of 20) by this beyond row; its tolerance f = 1.25 was "
        "set after the largest |d|/border of the 48 printed values (1.153) had been computed, so "
        "the row is a postdiction, not a test declared before its result",
    ),
}

RETIRED: dict[str, str] = {}
