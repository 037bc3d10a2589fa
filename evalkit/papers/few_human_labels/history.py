"""The history of the few-human-labels chapter's claims rows (``docs/claims.md``, "History").

:data:`REVISED` maps a row's ``id`` to its revisions, oldest first (written to the ``revised``
column); :mod:`evalkit.workspace.claims_history` fails when a verdict, kind or rule changes without a
new one.  :data:`RETIRED` names the rows removed on purpose, with the reason.
"""

TABLES = ("few_human_labels/claims.csv",)

REVISED = {
    "ppi-t-covers-at-25-and-50": (
        "issue 44, 2026-11-28: declared after the coverage study had run: the issue asks for some "
        "PPI interval within 95% +- 2 Monte Carlo errors at every n; at n = 10 none is in the "
        "noisy and lenient worlds (few_human_labels/coverage.csv), so the row covers n = 25 "
        "and 50 only and n = 10 is reported as a shortfall in the chapter, not as a verdict",
    ),
}

RETIRED: dict[str, str] = {}
