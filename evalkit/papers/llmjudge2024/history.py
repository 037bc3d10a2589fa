"""The history of the LLMJudge chapter's claims rows: what changed in a row's rule, threshold, kind or
testability after its result was known, from what, and why (``docs/claims.md``, "History").

:data:`REVISED` maps a row's ``id`` to its revisions, oldest first (written to the ``revised``
column); :mod:`evalkit.workspace.claims_history` fails when a verdict, kind or rule changes without a
new one.  :data:`RETIRED` names the rows removed on purpose, with the reason.
"""

TABLES = ("llmjudge2024/claims.csv",)

_ADDED = ("2026-11-27 (57b7f2f): added after the median's result existed (its row: does not hold "
          "3 of 20, then not testable here); the majority grade and Dawid-Skene rows were computed "
          "and judged by the same interval rule in the same commit, so they were not declared "
          "before their results")

REVISED = {
    "kappa-columns-hold-kappa": (
        "issue 45: kind paper -> beyond: the row tests the workspace's reading of the organisers' "
        "table (their columns headed 'kappa' hold alpha), not a claim the organisers make, as "
        "Sakai's ES reading is a beyond row; verdict unchanged (does not hold)",
    ),
    "combiner-median": (
        "2026-11-27 (f84d409): does not hold (3 of 20 splits) -> not testable here after the "
        "result: the rule changed from k of R over the topic splits to the topic-bootstrap "
        "interval of their mean (every split shares the same 25 topics)",
    ),
    "combiner-majority": (_ADDED,),
    "combiner-team-median": (
        "issue 45: added after all six combiners' results were known, as the one whose interval "
        "excludes 0; its explanation carries the multiplicity caveat and its sensitivity the 99% "
        "interval, where the verdict flips",
    ),
    "combiner-dawid-skene": (_ADDED,),
    "ug-vs-rawg-llm-judges": (
        "2026-11-27 (f84d409): does not hold (4 of 20 subsets) -> not testable here after the "
        "result: the rule changed from k of R over judge subsets to the topic-bootstrap interval "
        "of their mean (every subset shares the same 25 topics)",
    ),
}

RETIRED: dict[str, str] = {}
