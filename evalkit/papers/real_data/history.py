"""The history of the real-data chapter's claims rows: what changed in a row's rule, threshold, kind or
testability after its result was known, from what, and why (``docs/claims.md``, "History").

:data:`REVISED` maps a row's ``id`` to its revisions, oldest first (written to the ``revised``
column); :mod:`evalkit.workspace.claims_history` fails when a verdict, kind or rule changes without a
new one.  :data:`RETIRED` names the rows removed on purpose, with the reason.
"""

TABLES = ("real_data/claims.csv",)

_KIND = ("2026-11-26 (8c6c0b5): kind paper -> beyond after the result ({before}): the question "
         "extends Sakai's, the paper does not ask it")
_RULE = ("2026-11-27 (fe93fd1): the rule changed after the result, from k of R over replicate slopes "
         "(each over one subset per N; {before}) to the 95% interval of the pooled slope "
         "(docs/claims.md, 'Resolved by an interval'); verdict {after}")

_SIMULATED = ("issue 45: {before} -> not testable here, for the reason the real-vs-uniform rows "
              "give: the runs are simulated, and every subset keeps the one fixed run set, whereas "
              "docs/claims.md asks each draw to redraw the whole world the claim rests on; the "
              "interval rule's verdict stays in the explanation")

REVISED = {
    "tau-rises-with-n-p-plus": (_KIND.format(before="mixed, 5 of 20"),
                                _RULE.format(before="mixed, 5 of 20", after="mixed -> does not hold"),
                                _SIMULATED.format(before="does not hold")),
    "tau-rises-with-n-nerr": (_KIND.format(before="mixed, 10 of 20"),
                              _RULE.format(before="mixed, 10 of 20", after="mixed -> not testable here"),
                              _SIMULATED.format(before="not testable here (unresolved interval)")),
    "tau-rises-with-n-ng-at-1": (_KIND.format(before="does not hold, 3 of 20"),
                                 _RULE.format(before="does not hold, 3 of 20",
                                              after="unchanged (does not hold)"),
                                 _SIMULATED.format(before="does not hold")),
}

RETIRED: dict[str, str] = {}
