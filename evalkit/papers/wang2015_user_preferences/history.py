"""The history of Wang's §5 (user preferences) claims rows: what changed in a row's rule, threshold, kind or
testability after its result was known, from what, and why (``docs/claims.md``, "History").

:data:`REVISED` maps a row's ``id`` to its revisions, oldest first (written to the ``revised``
column); :mod:`evalkit.workspace.claims_history` fails when a verdict, kind or rule changes without a
new one.  :data:`RETIRED` names the rows removed on purpose, with the reason.
"""

TABLES = ("wang2015/claims_preferences.csv",)

REVISED: dict[str, tuple[str, ...]] = {}

RETIRED: dict[str, str] = {}
