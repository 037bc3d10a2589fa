"""The history of Kim's claims rows: what changed in a row's rule, threshold, kind or
testability after its result was known, from what, and why (``docs/claims.md``, "History").

:data:`REVISED` maps a row's ``id`` to its revisions, oldest first (written to the ``revised``
column); :mod:`evalkit.workspace.claims_history` fails when a verdict, kind or rule changes without a
new one.  :data:`RETIRED` names the rows removed on purpose, with the reason.
"""

TABLES = ("kim2010/claims.csv",)

REVISED = {
    "best-wlen-noisy": (
        "2026-11-26 (7a048cc): split from 'the best wLen is 0 on clean data and large on noisy "
        "data' (mixed, 7 of 20) after the result",
        "2026-11-27 (403a072): mixed (7 of 20) -> not testable here, by a rule added after the "
        "result (a gap must also exceed the spread of the paper's printings of one setting) that "
        "docs/claims.md did not state",
        "issue 45: that rule dropped for every row (docs/claims.md's 2 SE rule alone decides "
        "testability; the paper's print spread, 0.0716 on noisy data, now stands in the "
        "explanation): not testable here -> mixed (6 of 20)",
    ),
    "best-wsup-noisy": (
        "2026-11-26 (f7bf05f): does not hold (0 of 20, as part of 'the best wSup differs') -> not "
        "testable here after the result, by the 2 SE resolution rule",
        "2026-11-27 (403a072): kept not testable by a second rule added after the result (a gap "
        "must also exceed the spread of the paper's printings of one setting) that "
        "docs/claims.md did not state",
        "issue 45: that rule dropped for every row (docs/claims.md's 2 SE rule alone decides "
        "testability; the paper's print spread, 0.0716 on noisy data, now stands in the "
        "explanation): not testable here -> does not hold (0 of 20)",
    ),
}

RETIRED = {
    "frespa-gt-rba-a0": (
        "issue 45: removed. 'FreSPA > RBA and WCA' with WCA's weights read literally (a = 0) did "
        "not hold (0 of 20) because RBA-Sp is ahead of FreSPA on clean data, and neither uses WCA's "
        "weights: the row did not test the offset a. The comparison a changes, FreSPA against "
        "WCA, is in kim2010/wca_weights_ed.csv"),
}
